#!/usr/bin/env node
// Follow the selection along the ways a reader changes it, in headless
// Chromium, against tlp's JSON output (docs/html.md, "The page script":
// the selection has one owner, and the panels, the drawer and the URL
// fragment are its views).
//
//   node check-selection.js --json prov.json --page FILE.html
//
// On one page (a single-page output, its first unit U, its first kernel K
// with launches, post-grad nodes and user source), in one document:
//  1. nothing is selected at first;
//  2. a click on K's row of the drawer's kernel table selects K: its
//     launches, post-grad and pre-grad lines highlighted, the launch
//     selected, the drawer back on its selection tab, the fragment
//     #unit=U&sel=kernel:K;
//  3. a click on K's first user source line S selects S: the fragment
//     names it, the drawer shows it, its nodes are highlighted;
//  4. the fragment of step 2, set again (a link, the address bar; the
//     document stays), selects K again as in step 2, and nothing of S;
//  5. the fragment #unit=U without sel clears the selection;
//  6. with a second unit V: #unit=V&sel=kernel:(V's first kernel) shows V
//     with it selected; #unit=U then shows U with nothing selected;
//  7. n selects the first kernel group, n the second, Escape clears, n
//     the first again, Escape, p the last;
//  8. with K selected, hovering S previews S's counterparts (class hover)
//     and leaves the selection and the fragment; leaving the panels clears
//     the preview;
//  9. a post-grad chip of K's drawer selects that node;
// and no page error or console error. Prints one line per step and exits
// 1 on any failure.
'use strict';
const fs = require('fs');
const { fileURL, parseArgs, checks, runChecks, WAIT_MS } = require('./browser.js');

const a = parseArgs('check-selection.js --json prov.json --page FILE.html', { required: ['json', 'page'] });
const fail = checks.fail.bind(checks);
const sorted = (xs) => Array.from(new Set(xs)).sort((x, y) => x - y);
const same = (x, y) => JSON.stringify(sorted(x)) === JSON.stringify(sorted(y));

/// What the page shows of the selection: the rows of each mark per panel,
/// the fragment's sel, the drawer's tab and heading.
async function shown(page) {
  return page.evaluate(() => {
    const rows = (p, cls) => Array.from(document.querySelectorAll(`[data-panel="${p}"] .r.${cls}`))
      .map((e) => (p === 'source' ? e.dataset.file + ':' + e.dataset.line : Number(e.dataset.line)));
    const out = { sel: new URLSearchParams(location.hash.slice(1)).get('sel'),
      unit: window.tlp.unit(), tab: document.getElementById('details-body').dataset.tab,
      head: (document.querySelector('#details-body h3') || { textContent: '' }).textContent,
      help: !!document.querySelector('#details-body > p.none'), marks: {} };
    for (const cls of ['hl', 'sel', 'hl-def', 'hover'])
      for (const p of ['pre', 'post', 'code', 'kernel', 'source']) out.marks[p + '.' + cls] = rows(p, cls);
    return out;
  });
}
function count(s, cls) {
  return Object.keys(s.marks).filter((k) => k.endsWith('.' + cls)).reduce((n, k) => n + s.marks[k].length, 0);
}
/// Set the fragment as a link would (hashchange, same document) and wait
/// until the page has read it.
async function goHash(page, hash, done, arg) {
  await page.evaluate((h) => { location.hash = h; }, hash);
  await page.waitForFunction(done, arg, { timeout: WAIT_MS });
}

(async () => {
  const doc = JSON.parse(fs.readFileSync(a.json, 'utf8'));
  const u = doc.units[0], other = doc.units[1];
  const K = u.kernels.find((k) => k.call_lines.length && k.post_nodes.length && k.source.length);
  if (!K) { console.log('error: no kernel with launches, post-grad nodes and source'); process.exit(2); }
  // The kernels' lists name a nested graph's node with its scope.
  const lineOf = (nodes, names) => nodes.filter((n) => names.includes((n.scope ? n.scope + '.' : '') + n.name)).map((n) => n.line);
  const want = { code: K.call_lines, post: lineOf(u.post_grad_nodes, K.post_nodes), pre: lineOf(u.pre_grad_nodes, K.pre_nodes) };
  const S = K.source[0], sKey = S.file + ':' + S.line;
  const atS = (n) => n.source && n.source.file === S.file && n.source.line === S.line;
  const wantS = { pre: u.pre_grad_nodes.filter(atS).map((n) => n.line), post: u.post_grad_nodes.filter(atS).map((n) => n.line) };

  await runChecks(async ({ newPage, open }) => {
    const page = await newPage();
    await open(page, fileURL(a.page) + '#unit=' + encodeURIComponent(u.id));
    await page.evaluate(() => { window.__sameDocument = true; });

    // 1. Nothing selected.
    let s = await shown(page);
    if (s.sel !== null || count(s, 'hl') || count(s, 'sel') || !s.help) fail('start', s, 'nothing selected');
    else console.log(`start: ${s.unit}, nothing selected`);

    // 2. The kernel table.
    const kernelIs = (s, what) => {
      if (s.sel !== 'kernel:' + K.key) fail(what + ': fragment', s.sel, 'kernel:' + K.key);
      for (const p of ['code', 'post', 'pre'])
        if (!same(s.marks[p + '.hl'], want[p])) fail(`${what}: ${p} highlighted`, s.marks[p + '.hl'], want[p]);
      if (!same(s.marks['code.sel'], [K.call_lines[0]])) fail(what + ': selected row', s.marks['code.sel'], [K.call_lines[0]]);
      if (s.marks['source.sel'].length) fail(what + ': source selected', s.marks['source.sel'], []);
      if (s.tab !== 'selection' || s.head !== 'kernel ' + K.key) fail(what + ': drawer', [s.tab, s.head], ['selection', 'kernel ' + K.key]);
    };
    await page.click('#details-tabs button[data-tab="kernels"]');
    const index = u.kernels.indexOf(K);
    await page.click(`#details-body table.kernels tbody tr:nth-child(${index + 1})`);
    s = await shown(page);
    kernelIs(s, 'kernel table');
    const kernelHash = await page.evaluate(() => location.hash);
    console.log(`kernel table: ${s.sel}, launch ${s.marks['code.sel']}, post-grad ${sorted(s.marks['post.hl']).join(' ')}, drawer ${s.tab}`);

    // 3. A user source line.
    await page.evaluate(([f, l]) => {
      const r = document.querySelector(`[data-panel="source"] .r[data-line="${l}"][data-file="${CSS.escape(f)}"]`);
      if (r) r.scrollIntoView({ block: 'center' });
    }, [S.file, S.line]);
    await page.click(`[data-panel="source"] .r[data-line="${S.line}"][data-file="${S.file.replace(/(["\\])/g, '\\$1')}"]`, { position: { x: 60, y: 8 } });
    s = await shown(page);
    if (s.sel !== 'src:' + sKey) fail('source line: fragment', s.sel, 'src:' + sKey);
    if (JSON.stringify(s.marks['source.sel']) !== JSON.stringify([sKey]))
      fail('source line: selected row', s.marks['source.sel'], [sKey]);
    if (!same(s.marks['pre.hl'], wantS.pre) || !same(s.marks['post.hl'], wantS.post))
      fail('source line: nodes highlighted', [s.marks['pre.hl'], s.marks['post.hl']], [wantS.pre, wantS.post]);
    if (s.marks['code.sel'].length) fail('source line: launch still selected', s.marks['code.sel'], []);
    if (s.head !== sKey) fail('source line: drawer', s.head, sKey);
    console.log(`source line: ${s.sel.replace(/^src:.*\//, 'src:')}, post-grad ${sorted(s.marks['post.hl']).join(' ')}`);

    // 4. Back to the kernel through the fragment.
    await goHash(page, kernelHash, () => new URLSearchParams(location.hash.slice(1)).get('sel').startsWith('kernel:') &&
      !!document.querySelector('[data-panel="code"] .r.sel'));
    s = await shown(page);
    kernelIs(s, 'fragment back');
    if (!(await page.evaluate(() => window.__sameDocument))) fail('fragment back: same document', false, true);
    console.log(`fragment back: ${s.sel}, launch ${s.marks['code.sel']}, source selected ${s.marks['source.sel'].length}`);

    // 5. A fragment without sel clears.
    await goHash(page, 'unit=' + encodeURIComponent(u.id), () => !document.querySelector('.r.hl, .r.sel'));
    s = await shown(page);
    if (s.sel !== null || count(s, 'hl') || count(s, 'sel') || count(s, 'hl-def') || !s.help) fail('fragment without sel', s, 'nothing selected');
    else console.log('fragment without sel: nothing selected');

    // 6. Another unit, and back.
    if (other && other.kernels.length) {
      const K2 = other.kernels[0];
      await goHash(page, 'unit=' + encodeURIComponent(other.id) + '&sel=' + encodeURIComponent('kernel:' + K2.key),
        (id) => window.tlp.unit() === id, other.id);
      s = await shown(page);
      if (s.unit !== other.id || s.sel !== 'kernel:' + K2.key || s.head !== 'kernel ' + K2.key)
        fail('other unit', [s.unit, s.sel, s.head], [other.id, 'kernel:' + K2.key]);
      await goHash(page, 'unit=' + encodeURIComponent(u.id), (id) => window.tlp.unit() === id, u.id);
      const t = await shown(page);
      if (t.unit !== u.id || t.sel !== null || count(t, 'hl') || count(t, 'sel') || !t.help)
        fail('back to the first unit', t, 'nothing selected');
      console.log(`other unit: ${s.unit} ${s.sel}, back: ${t.unit} ${t.sel === null ? 'nothing selected' : t.sel}`);
    }

    // 7. The kernel groups: n, n, Escape, n, Escape, p.
    const refs = [];
    for (const key of ['n', 'n', 'Escape', 'n', 'Escape', 'p']) {
      await page.keyboard.press(key);
      refs.push((await shown(page)).sel || '-');
    }
    const linked = u.kernels.filter((k) => k.post_nodes.length || k.pre_nodes.length || k.source.length)
      .map((k) => 'kernel:' + k.key)
      .concat(u.pre_grad_nodes.filter((n) => n.post_nodes.length && !n.kernels.length).map((n) => 'pre:' + n.name));
    const wantRefs = [linked[0], linked[1 % linked.length], '-', linked[0], '-', linked[linked.length - 1]];
    if (JSON.stringify(refs) !== JSON.stringify(wantRefs)) fail('groups n n Esc n Esc p', refs, wantRefs);
    console.log('groups n n Esc n Esc p: ' + refs.join(' '));
    await page.keyboard.press('Escape');

    // 8. Hover previews; the selection stays.
    await page.evaluate((l) => window.tlp.reveal('code', l), K.call_lines[0]);
    await page.click(`[data-panel="code"] .r[data-line="${K.call_lines[0]}"]`, { position: { x: 60, y: 8 } });
    const before = await shown(page);
    await page.hover(`[data-panel="source"] .r[data-line="${S.line}"][data-file="${S.file.replace(/(["\\])/g, '\\$1')}"]`, { position: { x: 60, y: 8 } });
    s = await shown(page);
    if (!same(s.marks['post.hover'], wantS.post) || !s.marks['source.hover'].includes(sKey))
      fail('hover: preview', [s.marks['post.hover'], s.marks['source.hover']], [wantS.post, [sKey]]);
    if (s.sel !== before.sel || JSON.stringify([s.marks['code.hl'], s.marks['post.hl'], s.marks['code.sel']]) !==
        JSON.stringify([before.marks['code.hl'], before.marks['post.hl'], before.marks['code.sel']]))
      fail('hover: selection kept', s, before);
    await page.mouse.move(1, 1);
    const left = await shown(page);
    if (count(left, 'hover') || left.sel !== before.sel) fail('hover: left', [count(left, 'hover'), left.sel], [0, before.sel]);
    console.log(`hover: ${s.marks['post.hover'].length} post-grad rows previewed, ${s.sel} kept, ${count(left, 'hover')} after leaving`);

    // 9. A chip of the drawer.
    const chip = await page.evaluate(() => {
      const dt = Array.from(document.querySelectorAll('#details-body dt')).find((x) => x.textContent === 'post-grad nodes');
      const c = dt && dt.nextElementSibling.querySelector('.chip');
      if (!c) return null;
      c.click();
      return c.textContent;
    });
    s = await shown(page);
    const node = u.post_grad_nodes.find((n) => n.name === chip);
    if (!node || s.sel !== 'post:' + chip || !same(s.marks['post.sel'], [node.line]))
      fail('drawer chip', [chip, s.sel, s.marks['post.sel']], ['post:' + chip, node && node.line]);
    else console.log(`drawer chip: ${s.sel}, row ${s.marks['post.sel']}`);
  });
})();
