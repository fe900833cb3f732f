#!/usr/bin/env node
// Check tlp's HTML pages in headless Chromium against tlp's JSON output.
//
//   node check-pages.js --json prov.json (--dir DIR | --page FILE.html)
//                       [--shots DIR] [--name NAME] [--max N]
//                       (N: kernels and nodes checked per unit, spread out)
//                       [--expect-text TEXT]
//   node check-pages.js --batch LIST.json [--shots DIR] [--max N]
//                       [--jobs J]
//                       (LIST: [{"name", "json", "dir"}, ...], each checked
//                       as above; J browsers (default 2) take the entries
//                       in turn, as most of a check is spent waiting for
//                       animation frames; each entry's lines, printed
//                       together in LIST order, follow a line `== NAME` and
//                       end with `== NAME: passed` or
//                       `== NAME: N checks failed`)
//
// prov.json is `tlp-emit --json` of the same input: the expected answers
// come from it, not from the page's own data. For every unit:
//  - the page opens offline (no request other than file:) with no error,
//    and has the four panels; its header counts the post-grad nodes
//    known by a pre-grad name only as the JSON does;
//  - clicking each kernel's launch line highlights (class "hl") exactly
//    the post-grad and pre-grad lines of its nodes and its call lines;
//  - clicking each linked pre-grad node highlights exactly the launch
//    lines of its kernels; clicking a user source line highlights exactly
//    the nodes whose comment names it and the launches of the kernels
//    whose stack or comments reach it; a kernel highlights its source
//    lines;
//  - the definition's first line is marked (hl-def; in an AOT kernel file
//    hl), and the drawer shows the kernel's source and autotuning info;
//  - Escape clears every highlight; the URL fragment of a selection,
//    opened anew, gives the same highlight; hover previews; n, / and c
//    work; a divider drag resizes; the "not linked" list has the right
//    count;
//  - the unit selector switches units;
// and a screenshot of each unit with its first kernel selected is saved
// under --shots. No script from the log may run (window.__tlp_pwned stays
// unset); with --expect-text, some pre-grad row shows TEXT verbatim. Prints
// one line per unit and exits 1 on any failure.
'use strict';
const fs = require('fs');
const path = require('path');
const { AsyncLocalStorage } = require('async_hooks');
const { launch, fileURL, WAIT_MS } = require('./browser.js');

function parseArgs(argv) {
  const a = { max: 1000, name: 'page', jobs: 2 };
  for (let i = 2; i < argv.length; ++i) {
    const k = argv[i].replace(/^--/, '');
    a[k] = argv[++i];
  }
  a.max = Number(a.max);
  a.jobs = Math.max(1, Number(a.jobs));
  if (!a.batch && (!a.json || !(a.dir || a.page))) {
    console.error('usage: check-pages.js (--json prov.json (--dir DIR | --page FILE) [--name NAME] | --batch LIST.json) [--shots DIR] [--max N]');
    process.exit(2);
  }
  return a;
}

const COMPUTE = new Set(['call_function', 'call_method', 'call_module', 'unknown']);
/// At most n elements of xs, evenly spread (so a long wrapper is checked
/// from top to bottom).
function sample(xs, n) {
  if (xs.length <= n) return xs;
  const out = [];
  for (let i = 0; i < n; ++i) out.push(xs[Math.floor(i * xs.length / n)]);
  return out;
}
const sorted = (xs) => Array.from(new Set(xs)).sort((x, y) => x - y);
const same = (a, b) => JSON.stringify(sorted(a)) === JSON.stringify(sorted(b));
const sameStrings = (a, b) => JSON.stringify(Array.from(new Set(a)).sort()) === JSON.stringify(Array.from(new Set(b)).sort());

// A batch entry's lines and failures: entries checked side by side each
// write to their own (the store of the entry's async calls), printed
// whole once it is done.
const entry = new AsyncLocalStorage();
let failures = 0;
function say(line) {
  const e = entry.getStore();
  if (e) e.lines.push(line);
  else console.log(line);
}
function fail(unit, what, got, want) {
  ++failures;
  const e = entry.getStore();
  if (e) ++e.failures;
  say(`FAIL: ${unit}: ${what}: got ${JSON.stringify(got)}, want ${JSON.stringify(want)}`);
}

async function hlLines(page, panel, cls = 'hl') {
  return page.$$eval(`[data-panel="${panel}"] .r.${cls}`, (els) => els.map((e) => Number(e.dataset.line)));
}
async function allHl(page) {
  return page.$$eval('.r.hl, .r.hl-def, .r.sel', (els) => els.length);
}
/// Scroll a row into view and click it with the mouse near the start of
/// the row, as a person would (a long line's middle can be far outside its
/// panel), once the page has settled. The row must be the element under
/// that point, as Playwright's own click would check (a failure of \p unit
/// if not); one round trip finds it, one clicks. 'clicked', 'missing' (no
/// such row or panel) or 'covered'.
async function clickLine(page, unit, panel, line) {
  const at = await page.evaluate(async ([p, l]) => {
    if (!window.tlp.reveal(p, l)) return null;
    // Two animation frames: the scroll events of the first and the work
    // they scheduled (a panel builds the rows it scrolls to) have run.
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    const row = document.querySelector(`[data-panel="${p}"] .r[data-line="${l}"]`);
    if (!row) return null;
    const b = row.getBoundingClientRect();
    const x = b.left + Math.min(60, b.width / 2), y = b.top + Math.min(8, b.height / 2);
    const hit = document.elementFromPoint(x, y);
    return { x, y, hit: !!hit && hit.closest('.r') === row };
  }, [panel, line]);
  if (!at) return 'missing';
  if (!at.hit) {
    fail(unit, `${panel} row ${line}`, 'covered by another element', 'clickable');
    return 'covered';
  }
  await page.mouse.click(at.x, at.y);
  return 'clicked';
}
/// The lines of \p panel with class \p cls once the page has settled (two
/// animation frames: a click's work and the rows it builds have run).
async function settledLines(page, panel, cls = 'hl') {
  return page.evaluate(async ([p, c]) => {
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    return Array.from(document.querySelectorAll(`[data-panel="${p}"] .r.${c}`), (e) => Number(e.dataset.line));
  }, [panel, cls]);
}
/// What a kernel's selection shows, read in one round trip once the page
/// has settled: the lines highlighted per panel, the source lines, the
/// definition marks, the drawer's text and whether the launch line is
/// bold.
async function kernelState(page, line) {
  return page.evaluate(async (line) => {
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    const lines = (p, cls) => Array.from(document.querySelectorAll(`[data-panel="${p}"] .r.${cls}`), (e) => Number(e.dataset.line));
    const call = document.querySelector(`[data-panel="code"] .r[data-line="${line}"]`);
    return {
      pre: lines('pre', 'hl'), post: lines('post', 'hl'), code: lines('code', 'hl'),
      src: Array.from(document.querySelectorAll('[data-panel="source"] .r.hl'), (e) => e.dataset.file + ':' + e.dataset.line),
      defs: lines('code', 'hl-def'), kernel: lines('kernel', 'hl'),
      drawer: document.querySelector('#details-body').textContent,
      linked: !!call && call.classList.contains('linked'),
    };
  }, line);
}
async function open(page, url) {
  await page.goto(url);
  await page.waitForSelector('body[data-ready="1"]', { timeout: WAIT_MS });
}

function expectations(u) {
  const byKey = new Map(u.kernels.map((k) => [k.key, k]));
  const preOf = new Map(), postOf = new Map();
  for (const k of u.kernels) { preOf.set(k.key, []); postOf.set(k.key, []); }
  for (const n of u.pre_grad_nodes) for (const k of n.kernels) preOf.get(k).push(n.line);
  for (const n of u.post_grad_nodes) for (const k of n.kernels) postOf.get(k).push(n.line);
  const unlinked =
    u.pre_grad_nodes.filter((n) => COMPUTE.has(n.op) && !n.post_nodes.length && !n.kernels.length).length +
    u.post_grad_nodes.filter((n) => COMPUTE.has(n.op) && !n.pre_nodes.length && !n.kernels.length).length +
    u.kernels.filter((k) => !k.post_nodes.length && !k.pre_nodes.length).length +
    u.kernels.filter((k) => !k.source.length).length;
  return { byKey, preOf, postOf, unlinked };
}

async function checkUnit(ctx, a, u, urlOf) {
  const page = await ctx.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  const id = u.id;
  await open(page, urlOf(id));
  if ((await page.evaluate(() => window.tlp.unit())) !== id) fail(id, 'unit shown', await page.evaluate(() => window.tlp.unit()), id);
  for (const p of ['pre', 'post', 'code', 'source'])
    if (!(await page.$(`[data-panel="${p}"]`))) fail(id, `panel ${p}`, 'missing', 'present');
  // The header counts the post-grad nodes known by a pre-grad name only
  // (a cache hit) when the JSON does, and only then.
  const byName = u.coverage.post_grad.by_pre_grad_name || 0;
  const facts = await page.textContent('#unit-facts');
  const said = (facts.match(/\(\+(\d+) by pre-grad name only\)/) || [])[1];
  if (Number(said || 0) !== byName) fail(id, 'post-grad nodes by pre-grad name only', said || 'none', byName || 'none');
  const E = expectations(u);
  let kernels = 0, nodes = 0, shot = false;

  for (const k of sample(u.kernels.filter((k) => k.call_lines.length), a.max)) {
    const line = k.call_lines[0];
    const clicked = await clickLine(page, id, 'code', line);
    if (clicked === 'missing') fail(id, `kernel ${k.key}`, 'no code panel', 'code panel');
    if (clicked !== 'clicked') continue;
    ++kernels;
    const S = await kernelState(page, line);
    if (!same(S.pre, E.preOf.get(k.key))) fail(id, `kernel ${k.key} pre-grad lines`, sorted(S.pre), sorted(E.preOf.get(k.key)));
    if (!same(S.post, E.postOf.get(k.key))) fail(id, `kernel ${k.key} post-grad lines`, sorted(S.post), sorted(E.postOf.get(k.key)));
    if (!same(S.code, k.call_lines)) fail(id, `kernel ${k.key} call lines`, sorted(S.code), k.call_lines);
    const wantSrc = k.source.map((x) => x.file + ':' + x.line);
    if (!sameStrings(S.src, wantSrc)) fail(id, `kernel ${k.key} source lines`, S.src, wantSrc);
    // The definition: its first line in the wrapper, in the AOT kernel
    // file; the drawer shows its source and its autotuning entry.
    const wantDefs = k.def_lines ? [k.def_lines[0]] : [];
    if (!same(S.defs, wantDefs)) fail(id, `kernel ${k.key} definition line`, sorted(S.defs), wantDefs);
    if (u.kernel_code) {
      const wantK = k.kernel_code_lines ? [k.kernel_code_lines[0]] : [];
      if (!same(S.kernel, wantK)) fail(id, `kernel ${k.key} kernel file line`, sorted(S.kernel), wantK);
    }
    if (!S.drawer.includes('kernel ' + k.key)) fail(id, `kernel ${k.key} details`, S.drawer.slice(0, 80), 'kernel ' + k.key);
    if ((k.def_lines || k.kernel_code_lines) && !S.drawer.includes('definition ('))
      fail(id, `kernel ${k.key} definition source`, 'none', 'shown');
    if (k.info !== null && !S.drawer.includes('triton_kernel_info'))
      fail(id, `kernel ${k.key} autotune info`, 'none', 'shown');
    const want = !!(k.post_nodes.length || k.pre_nodes.length || k.source.length);
    if (S.linked !== want) fail(id, `kernel ${k.key} call line bold`, S.linked, want);
    if (!shot && a.shots) {
      await page.screenshot({ path: path.join(a.shots, `${a.name}-${id}.png`) });
      shot = true;
    }
    await page.keyboard.press('Escape');
    const left = await allHl(page);
    if (left) fail(id, `Escape after kernel ${k.key}`, left, 0);
  }

  for (const n of sample(u.pre_grad_nodes.filter((n) => n.kernels.length), a.max)) {
    if ((await clickLine(page, id, 'pre', n.line)) !== 'clicked') continue;
    ++nodes;
    const want = [].concat(...n.kernels.map((key) => E.byKey.get(key).call_lines));
    const code = await settledLines(page, 'code');
    if (!same(code, want)) fail(id, `pre-grad node ${n.name} kernel lines`, sorted(code), sorted(want));
    await page.keyboard.press('Escape');
  }

  // A user source line leads to the nodes and kernels it made.
  const srcRows = await page.$$eval('[data-panel="source"] .r[data-line]', (els) => els.length);
  if (srcRows) {
    const first = await page.$eval('[data-panel="source"] .r[data-line]', (e) => [e.dataset.file, Number(e.dataset.line)]);
    await page.click(`[data-panel="source"] .r[data-line="${first[1]}"][data-file="${first[0].replace(/(["\\])/g, '\\$1')}"]`, { position: { x: 60, y: 8 } });
    const at = (x) => x && x.file === first[0] && x.line === first[1];
    const wantPre = u.pre_grad_nodes.filter((n) => at(n.source)).map((n) => n.line);
    const wantPost = u.post_grad_nodes.filter((n) => at(n.source)).map((n) => n.line);
    // The kernels of the line: those with an edge to it, and those its
    // pre-grad and post-grad nodes went into (UnitProvenance::kernelsOfSource;
    // a backward whose mapping is empty links a node of the line by name).
    // Named as the kernels' lists name them: a nested graph's node with
    // its scope (two graphs may each have an `mm_6`).
    const qualified = (n) => (n.scope ? n.scope + '.' : '') + n.name;
    const preOn = new Set(u.pre_grad_nodes.filter((n) => at(n.source)).map(qualified));
    const postOn = new Set(u.post_grad_nodes.filter((n) => at(n.source)).map(qualified));
    const wantCode = [].concat(...u.kernels.filter((k) => k.source.some(at) ||
      k.pre_nodes.some((n) => preOn.has(n)) || k.post_nodes.some((n) => postOn.has(n))).map((k) => k.call_lines));
    const pre = await hlLines(page, 'pre'), post = await hlLines(page, 'post'), code = await hlLines(page, 'code');
    if (!same(pre, wantPre) || !same(post, wantPost) || !same(code, wantCode))
      fail(id, `source line ${first.join(':')}`, [sorted(pre), sorted(post), sorted(code)], [sorted(wantPre), sorted(wantPost), sorted(wantCode)]);
    await page.keyboard.press('Escape');
  }

  // The fragment keeps the selection: open the same URL anew.
  const first = u.kernels.find((k) => k.call_lines.length && (k.pre_nodes.length || k.post_nodes.length));
  if (first) {
    await clickLine(page, id, 'code', first.call_lines[0]);
    // The page's own location: Playwright's page.url() learns of a
    // replaceState later than the page does.
    const url = await page.evaluate(() => location.href);
    if (!decodeURIComponent(url).includes('kernel:' + first.key)) fail(id, 'fragment', url, 'kernel:' + first.key);
    const again = await ctx.newPage();
    await open(again, url);
    const pre = await hlLines(again, 'pre'), post = await hlLines(again, 'post');
    if (!same(pre, E.preOf.get(first.key)) || !same(post, E.postOf.get(first.key)))
      fail(id, 'selection from the fragment', [pre, post], [E.preOf.get(first.key), E.postOf.get(first.key)]);
    await again.close();
    await page.keyboard.press('Escape');
    // Hover previews without selecting.
    await page.evaluate((l) => window.tlp.reveal('code', l), first.call_lines[0]);
    await page.hover(`[data-panel="code"] .r[data-line="${first.call_lines[0]}"]`, { position: { x: 60, y: 8 } });
    const hov = await hlLines(page, 'post', 'hover');
    if (!same(hov, E.postOf.get(first.key))) fail(id, 'hover', sorted(hov), sorted(E.postOf.get(first.key)));
    if (await allHl(page)) fail(id, 'hover selects', await allHl(page), 0);
    await page.mouse.move(1, 1);
    // n selects the first linked group, c colours the groups.
    await page.keyboard.press('n');
    if (!(await allHl(page))) fail(id, 'key n', 0, '> 0 highlighted rows');
    await page.keyboard.press('c');
    const grp = await page.$$eval('.r.grp', (els) => els.length);
    if (!grp) fail(id, 'key c', 0, '> 0 coloured rows');
    await page.keyboard.press('c');
    await page.keyboard.press('Escape');
    // / finds a kernel by name; Enter selects it.
    await page.keyboard.press('/');
    await page.fill('#filter-input', first.key);
    await page.keyboard.press('Enter');
    const code = await hlLines(page, 'code');
    if (!same(code, first.call_lines)) fail(id, 'filter', sorted(code), first.call_lines);
    await page.keyboard.press('Escape');
  }

  // Dividers resize the panels.
  const box = async (sel) => (await page.$(sel)).boundingBox();
  const before = await box('[data-panel="pre"]'), div = await box('.divider');
  await page.mouse.move(div.x + 2, div.y + 100);
  await page.mouse.down();
  await page.mouse.move(div.x + 102, div.y + 100, { steps: 4 });
  await page.mouse.up();
  const after = await box('[data-panel="pre"]');
  if (Math.abs(after.width - before.width - 100) > 3) fail(id, 'divider drag', after.width - before.width, 100);

  // The "not linked" tab lists what provenance does not cover.
  await page.click('#details-tabs button[data-tab="unlinked"]');
  const chips = await page.$$eval('#details-body .chip', (els) => els.length);
  if (chips !== E.unlinked) fail(id, 'not linked list', chips, E.unlinked);

  if (a['expect-text']) {
    const rows = await page.$$eval('[data-panel="pre"] .r', (els) => els.map((e) => e.textContent));
    if (!rows.some((t) => t.includes(a['expect-text']))) fail(id, 'text shown verbatim', rows, a['expect-text']);
  }
  const pwned = await page.evaluate(() => window.__tlp_pwned);
  if (pwned !== undefined) fail(id, 'script from the log ran', pwned, undefined);
  if (errors.length) fail(id, 'page errors', errors, []);
  say(`${id}: ${kernels} kernels, ${nodes} pre-grad nodes checked`);
  await page.close();
}

async function checkSelector(ctx, a, units, urlOf) {
  if (units.length < 2) return;
  const page = await ctx.newPage();
  await open(page, urlOf(units[0].id));
  const target = units[units.length - 1];
  await Promise.all([
    a.dir ? page.waitForEvent('load') : Promise.resolve(),
    page.selectOption('#unit-select', target.id),
  ]);
  await page.waitForFunction((id) => window.tlp && window.tlp.unit() === id, target.id, { timeout: WAIT_MS })
    .catch(() => {});
  const shown = await page.evaluate(() => window.tlp && window.tlp.unit());
  const facts = await page.textContent('#unit-facts');
  if (shown !== target.id || !facts.includes(target.name)) fail('selector', 'switch to ' + target.id, [shown, facts], target.name);
  else say(`selector: switched from ${units[0].id} to ${target.id}`);
  await page.close();
}

async function checkIndex(ctx, a, doc) {
  const page = await ctx.newPage();
  const url = a.dir ? fileURL(path.join(a.dir, 'index.html')) : fileURL(a.page) + '#overview';
  await page.goto(url);
  const rows = await page.$$eval('#units tbody tr', (els) => els.map((e) => e.dataset.unit));
  const want = doc.units.map((u) => u.id);
  if (JSON.stringify(rows) !== JSON.stringify(want)) fail('index', 'units', rows, want);
  const diags = await page.$$eval('#diagnostics tbody tr', (els) => els.length);
  if (diags !== doc.diagnostics.length) fail('index', 'diagnostics', diags, doc.diagnostics.length);
  say(`index: ${rows.length} units, ${diags} diagnostics`);
  await page.close();
}

/// Check the pages of one tlp-emit --json document (a.json) in browser b;
/// returns the number of failed checks. A request the pages made that was
/// not allowed fails the entry that was being checked in \p b when it was
/// made (each browser checks one entry at a time).
async function checkDoc(b, a) {
  const before = failures, requests = b.offline.length;
  const doc = JSON.parse(fs.readFileSync(a.json, 'utf8'));
  const urlOf = (id) => a.dir ? fileURL(path.join(a.dir, id + '.html')) : fileURL(a.page) + '#unit=' + encodeURIComponent(id);
  try {
    await checkIndex(b.context, a, doc);
    for (const u of doc.units) await checkUnit(b.context, a, u, urlOf);
    await checkSelector(b.context, a, doc.units, urlOf);
  } catch (e) {
    fail('run', 'exception', String(e && e.stack || e), 'none');
  }
  if (b.offline.length > requests) fail('run', 'network requests', b.offline.slice(requests), []);
  return failures - before;
}

/// The entries of a batch, \p a.jobs browsers taking the next one as they
/// finish one; each entry's lines are printed whole, in list order, as
/// soon as it and those before it are done.
async function checkBatch(a, list) {
  const done = new Array(list.length).fill(null);
  let next = 0, printed = 0;
  const flush = () => {
    for (; printed < list.length && done[printed]; ++printed)
      for (const l of done[printed]) console.log(l);
  };
  const worker = async () => {
    const b = await launch();
    try {
      while (next < list.length) {
        const i = next++, e = list[i];
        const store = { lines: [`== ${e.name}`], failures: 0 };
        await entry.run(store, () => checkDoc(b, Object.assign({}, a, { json: e.json, dir: e.dir, page: undefined, name: e.name })));
        store.lines.push(`== ${e.name}: ` + (store.failures ? `${store.failures} checks failed` : 'passed'));
        done[i] = store.lines;
        flush();
      }
    } finally {
      await b.close();
    }
  };
  await Promise.all(Array.from({ length: Math.min(a.jobs, list.length) }, worker));
}

(async () => {
  const a = parseArgs(process.argv);
  if (a.shots) fs.mkdirSync(a.shots, { recursive: true });
  if (a.batch) {
    await checkBatch(a, JSON.parse(fs.readFileSync(a.batch, 'utf8')));
  } else {
    const b = await launch();
    await checkDoc(b, a);
    await b.close();
  }
  console.log(failures ? `${failures} checks failed` : 'all checks passed');
  process.exit(failures ? 1 : 0);
})();
