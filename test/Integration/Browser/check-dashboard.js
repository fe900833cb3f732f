#!/usr/bin/env node
// Check the dashboard of tlp's HTML index in headless Chromium against
// tlp's JSON output (docs/html.md, the dashboard).
//
//   node check-dashboard.js --json prov.json (--dir DIR | --page FILE.html)
//                           [--shots DIR] [--name NAME]
//
// prov.json is `tlp-emit --json` of the same input. Checks:
//  - the index (DIR/index.html, or FILE.html#overview) opens offline with
//    no page error and no console error;
//  - table#compiles has one row per compile id of the JSON, anchored
//    #compile-ID, with its status, failures first; its unit links are the
//    JSON's units and lead to pages that exist (directory) or to the unit
//    (one page);
//  - each failure and graph-break reason of a row is a <details>, closed,
//    with its <summary> shown and its whole text hidden; clicking the
//    summary shows a <pre> holding the JSON's reason, whole, and a nested
//    <details> the whole traceback; each recompile reason is shown whole;
//  - the stack trie links every compile; the cache-miss list has one item
//    per cache_miss_diffs entry;
//  - svg#timeline has one bar (rect.span) per span of the JSON (X, and B
//    for an unfinished one) and one marker per instant, each with a
//    visible size and a tooltip (<title>) that names it and its duration;
//    hovering a bar outlines it, clicking it goes to its compile's row;
//  - each unit page (the first 20) links back to its compile's row
//    (a#compile-link: index.html#compile-ID, or #compile-ID in the one
//    page), and following the first link shows that row;
// and saves a screenshot under --shots. Prints what it checked and exits 1
// on any failure.
'use strict';
const fs = require('fs');
const path = require('path');
const { launch, fileURL, WAIT_MS } = require('./browser.js');

function parseArgs(argv) {
  const a = { name: 'dashboard' };
  for (let i = 2; i < argv.length; ++i) a[argv[i].replace(/^--/, '')] = argv[++i];
  if (!a.json || !(a.dir || a.page)) {
    console.error('usage: check-dashboard.js --json prov.json (--dir DIR | --page FILE) [--shots DIR] [--name NAME]');
    process.exit(2);
  }
  return a;
}

let failures = 0;
function fail(what, got, want) {
  ++failures;
  console.log(`FAIL: ${what}: got ${JSON.stringify(got)}, want ${JSON.stringify(want)}`);
}

// The traceback as the page shows it: a failure text of 20 lines or more
// that the traceback repeats as its last message reads "[the failure text
// above: N lines]" there (docs/html.md); the JSON keeps both whole.
function shownTraceback(f) {
  const tb = f.traceback;
  const reason = (f.reason || '').trim();
  if (!tb || !reason) return tb;
  const lines = reason.split('\n').length;
  const at = tb.lastIndexOf(reason);
  if (lines < 20 || at < 0) return tb;
  return tb.slice(0, at) + `[the failure text above: ${lines} lines]` + tb.slice(at + reason.length);
}

async function main() {
  const a = parseArgs(process.argv);
  const doc = JSON.parse(fs.readFileSync(a.json, 'utf8'));
  const compiles = doc.compiles.filter((c) => c.compile_id !== null);
  const { context, offline, close } = await launch();
  try {
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
    const url = a.dir ? fileURL(path.join(a.dir, 'index.html')) : fileURL(a.page) + '#overview';
    await page.goto(url);
    if (a.page) await page.waitForSelector('body[data-ready="1"]', { timeout: WAIT_MS });
    const root = a.dir ? '#index' : '#overview';
    if (!(await page.isVisible(root))) fail('index shown', 'hidden', 'visible');

    // Compiles.
    const rows = await page.$$eval('#compiles tbody tr', (trs) => trs.map((tr) => ({
      id: tr.id, status: tr.querySelector('td.status').textContent,
      units: Array.from(tr.querySelectorAll('a.unit')).map((x) => x.getAttribute('href')),
    })));
    const want = new Map(compiles.map((c) => ['compile-' + c.id, c]));
    if (rows.length !== compiles.length) fail('compile rows', rows.length, compiles.length);
    let seenOther = false, failed = 0;
    for (const r of rows) {
      const c = want.get(r.id);
      if (!c) { fail('row without a compile', r.id, 'a JSON compile'); continue; }
      if (r.status !== c.status) fail(`${r.id} status`, r.status, c.status);
      if (r.status === 'failure') {
        ++failed;
        if (seenOther) fail(`${r.id}: failure after a row that did not fail`, r.id, 'failures first');
      } else {
        seenOther = true;
      }
      const wantUnits = c.units.map((u) => (a.dir ? u + '.html' : '#unit=' + u));
      if (JSON.stringify(r.units) !== JSON.stringify(wantUnits)) fail(`${r.id} units`, r.units, wantUnits);
      if (a.dir) for (const u of r.units) if (!fs.existsSync(path.join(a.dir, u))) fail(`${r.id} unit page`, u, 'a file');
    }
    console.log(`compiles: ${rows.length} rows, ${failed} failed, failures first`);

    // Reasons (issue 18): closed <details>, the whole text when opened.
    let opened = 0, recompiles = 0;
    const wholeIn = async (d, what, text) => {
      const summary = await d.$(':scope > summary');
      const pre = await d.$(':scope > pre.reason');
      if (!summary || !pre) { fail(`${what}: summary and pre`, 'missing', 'present'); return; }
      if ((await d.getAttribute('open')) !== null) fail(`${what}: closed at first`, 'open', 'closed');
      if (!(await summary.isVisible())) fail(`${what}: summary shown`, 'hidden', 'visible');
      if (await pre.isVisible()) fail(`${what}: whole text hidden until opened`, 'visible', 'hidden');
      await summary.click();
      if (!(await pre.isVisible())) fail(`${what}: whole text shown when opened`, 'hidden', 'visible');
      const got = await pre.textContent();
      if (got !== text) fail(`${what}: whole text`, got.slice(0, 120), text.slice(0, 120));
      ++opened;
    };
    for (const c of compiles) {
      const why = `tr[id="compile-${c.id}"] td.why`;
      const fails = await page.$$(`${why} > details.fail`);
      const breaks = await page.$$(`${why} > details.break`);
      if (fails.length !== (c.failure ? 1 : 0)) fail(`${c.id}: failure details`, fails.length, c.failure ? 1 : 0);
      if (breaks.length !== c.breaks.length) fail(`${c.id}: break details`, breaks.length, c.breaks.length);
      const items = [];
      if (c.failure && fails[0]) items.push([fails[0], 'failure', c.failure.reason, shownTraceback(c.failure)]);
      c.breaks.forEach((b, k) => { if (breaks[k]) items.push([breaks[k], `break ${k}`, b.reason, b.traceback]); });
      for (const [d, what, reason, traceback] of items) {
        await wholeIn(d, `${c.id} ${what}`, reason);
        const tb = await d.$(':scope > details.traceback');
        if (!!tb !== !!traceback) fail(`${c.id} ${what}: traceback`, !!tb, !!traceback);
        if (tb && traceback) await wholeIn(tb, `${c.id} ${what} traceback`, traceback);
      }
      const rs = await page.$$eval(`${why} > div.recompile`, (ds) => ds.map((x) => x.textContent));
      const wantRs = c.recompile_reasons.map((r) => 'recompile: ' + r);
      if (JSON.stringify(rs) !== JSON.stringify(wantRs)) fail(`${c.id}: recompile reasons`, rs, wantRs);
      recompiles += rs.length;
    }
    console.log(`reasons: ${opened} opened whole, ${recompiles} recompile reasons whole`);

    // The unit pages link back to their compile's row (the first 20 units;
    // the first link is followed).
    const back = rows.flatMap((r) => r.units.map((u) => [r.id, u])).slice(0, 20);
    for (let k = 0; k < back.length; ++k) {
      const [id, u] = back[k];
      const up = await context.newPage();
      up.on('pageerror', (e) => errors.push(String(e)));
      await up.goto(a.dir ? fileURL(path.join(a.dir, u)) : fileURL(a.page) + u);
      await up.waitForSelector('body[data-ready="1"]', { timeout: WAIT_MS });
      const wantHref = (a.dir ? 'index.html#' : '#') + id;
      const link = await up.$('#compile-link');
      const href = link ? await link.getAttribute('href') : null;
      if (href !== wantHref) fail(`${u}: link back to its compile`, href, wantHref);
      // Named as the row is (`compile 0/0 #2` when ids repeat), without
      // the rank the page already gives.
      const wantText = 'compile ' + want.get(id).name.replace(/^rank \d+ /, '');
      const text = link ? await link.innerText() : null;
      if (link && text !== wantText) fail(`${u}: link back text`, text, wantText);
      else if (k === 0) {
        await Promise.all([a.dir ? up.waitForEvent('load') : Promise.resolve(), link.click()]);
        // The page shows the overview on its hashchange handler, which runs
        // after the click returns: wait for it (a busy machine is slow),
        // then check; a page that never shows it fails below.
        await up.waitForFunction((h) => location.hash === h && !!document.querySelector('#compiles') &&
          document.querySelector('#compiles').offsetParent !== null, '#' + id, { timeout: WAIT_MS }).catch(() => {});
        const at = await up.evaluate(() => ({ hash: location.hash, file: location.pathname.replace(/^.*\//, ''),
          target: !!document.querySelector('tr:target'), shown: !!document.querySelector('#compiles') && document.querySelector('#compiles').offsetParent !== null }));
        if (at.hash !== '#' + id || !at.shown || (a.dir && (at.file !== 'index.html' || !at.target)))
          fail(`${u}: following the link back`, at, `${a.dir ? 'index.html' : 'the overview'}#${id} with its row shown`);
      }
      await up.close();
    }
    console.log(`back links: ${back.length} unit pages link to their compile's row`);

    const trie = await page.$$eval('#stack-trie a.compile', (xs) => xs.map((x) => x.getAttribute('href')));
    const trieSet = new Set(trie);
    for (const c of compiles) if (!trieSet.has('#compile-' + c.id)) fail('stack trie', 'no link', '#compile-' + c.id);
    const frames = await page.$$eval('#stack-trie li', (xs) => xs.length);
    console.log(`stack trie: ${frames} frames, ${trie.length} compile links`);

    const diffs = compiles.reduce((n, c) => n + c.cache_miss_diffs.length, 0);
    const items = await page.$$eval('#cache-misses > li:not(.no-diff):not(.bypass)', (xs) => xs.length);
    if (items !== diffs) fail('cache-miss items', items, diffs);
    // Every other miss is listed with why it has no diff.
    const misses = compiles.reduce((n, c) => n + c.caches.filter((k) => k.result === 'miss').length, 0);
    const others = await page.$$eval('#cache-misses > li.no-diff', (xs) => xs.length);
    if (others !== misses - diffs) fail('cache misses without a diff', others, misses - diffs);
    // Every bypass is listed with the reason PyTorch logged.
    const bypassed = compiles.flatMap((c) => c.caches.filter((k) => k.result === 'bypass'));
    const bypassItems = await page.$$eval('#cache-misses > li.bypass', (xs) => xs.map((x) => x.textContent));
    if (bypassItems.length !== bypassed.length) fail('cache bypasses', bypassItems.length, bypassed.length);
    for (const k of bypassed) {
      const want = (k.reason || 'PyTorch logged no reason').trim();
      if (!bypassItems.some((t) => t.includes(`line ${k.line}): ${want}`)))
        fail('cache bypass listed with its reason', bypassItems, `line ${k.line}): ${want}`);
    }
    console.log(`cache misses: ${items} with a diff, ${others} without; ${bypassItems.length} bypasses`);

    // Timeline.
    // Past 5,000 complete spans the page draws the longest (docs/html.md).
    const spans = doc.compiles.flatMap((c) => c.spans);
    let wantBars = spans.filter((s) => s.ph !== 'i');
    const wantInstants = spans.length - wantBars.length;
    const complete = wantBars.filter((s) => s.ph === 'X');
    const notDrawn = Math.max(0, complete.length - 5000);
    const drawnNote = Number(await page.$eval('#timeline', (t) => t.dataset.notDrawn).catch(() => '0'));
    if (drawnNote !== notDrawn) fail('spans not drawn', drawnNote, notDrawn);
    if (notDrawn) {
      const longest = complete.slice().sort((x, y) => y.dur_us - x.dur_us || x.start_us - y.start_us).slice(0, 5000);
      wantBars = wantBars.filter((s) => s.ph !== 'X').concat(longest);
    }
    const bars = await page.$$eval('#timeline rect.span', (rs) => rs.map((r) => {
      const b = r.getBoundingClientRect();
      return { name: r.dataset.name, w: b.width, h: b.height, tip: (r.querySelector('title') || {}).textContent || '' };
    }));
    const instants = await page.$$eval('#timeline path.instant', (ps) => ps.length);
    const lanes = await page.$$eval('#timeline g.lane', (gs) => gs.map((g) => g.dataset.lane));
    if (bars.length !== wantBars.length) fail('timeline bars', bars.length, wantBars.length);
    if (instants !== wantInstants) fail('timeline instants', instants, wantInstants);
    const names = (xs) => xs.map((x) => x.name).sort();
    if (JSON.stringify(names(bars)) !== JSON.stringify(names(wantBars))) fail('bar names', names(bars).slice(0, 5), names(wantBars).slice(0, 5));
    for (const b of bars) {
      if (!(b.w > 0 && b.h > 0)) { fail(`bar ${b.name} size`, [b.w, b.h], 'visible'); break; }
      if (!b.tip.startsWith(b.name + ': ') || !/(µs|ms| s|did not end)/.test(b.tip)) { fail(`bar ${b.name} tooltip`, b.tip, 'name: duration'); break; }
    }
    if (bars.length) {
      // Hover the widest bar: it is outlined; click it: its compile's row.
      const i = bars.reduce((m, b, j) => (b.w > bars[m].w ? j : m), 0);
      const bar = (await page.$$('#timeline rect.span'))[i];
      await bar.scrollIntoViewIfNeeded();
      await bar.hover();
      const stroke = await bar.evaluate((r) => getComputedStyle(r).strokeWidth);
      if (stroke !== '1.5px') fail('hovered bar outline', stroke, '1.5px');
      const href = await bar.evaluate((r) => (r.closest('a') ? r.closest('a').getAttribute('href') : null));
      if (href) {
        await bar.click();
        // As above: the hashchange handler shows the index after the click.
        await page.waitForFunction(([h, sel]) => location.hash === h && !!document.querySelector(sel) &&
          document.querySelector(sel).getClientRects().length > 0, [href, root], { timeout: WAIT_MS }).catch(() => {});
        const hash = await page.evaluate(() => location.hash);
        if (hash !== href) fail('bar click', hash, href);
        if (!(await page.isVisible(root))) fail('index after a bar click', 'hidden', 'visible');
      }
    }
    console.log(`timeline: ${bars.length} bars${notDrawn ? ` (${notDrawn} shortest not drawn)` : ''}, ${instants} instants, ${lanes.length} lanes`);

    if (a.shots) {
      fs.mkdirSync(a.shots, { recursive: true });
      await page.goto(url);
      if (a.page) await page.waitForSelector('body[data-ready="1"]', { timeout: WAIT_MS });
      await page.screenshot({ path: path.join(a.shots, a.name + '-dashboard.png'), fullPage: true });
    }
    for (const e of errors) fail('page error', e, 'none');
    for (const u of offline) fail('network request', u, 'none');
  } finally {
    await close();
  }
  console.log(failures ? `${failures} failures` : 'all checks passed');
  process.exit(failures ? 1 : 0);
}

main().catch((e) => { console.error(e); process.exit(1); });
