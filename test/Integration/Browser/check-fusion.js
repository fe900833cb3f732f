// The fusion graph (fusion.js; docs/html.md, "The fusion graph") in
// headless Chromium, checked against tlp-emit --dot --graph=post of the
// same unit: every kernel cluster with the same member nodes, every
// data-flow edge, collapse (all, and one kernel), the selection both ways
// (a click in the graph selects in the panels; a kernel picked in the
// drawer's kernel table lights in the graph and is scrolled into view),
// nothing from the log run as script.
//
//   node check-fusion.js --page PAGE.html --dot UNIT.dot [--unit ID]
//                        [--measure]
//
// --measure prints what opening the page, drawing the graph, collapsing
// and selecting took (docs/performance.md); no timing is ever checked.
'use strict';
const fs = require('fs');
const { fileURL, parseArgs, checks, runChecks } = require('./browser');

const args = parseArgs('check-fusion.js --page PAGE.html --dot UNIT.dot [--unit ID] [--measure]',
  { required: ['page', 'dot'], flags: ['measure'] });
const fail = checks.fail.bind(checks);

/// The DOT's clusters (kernel key -> sorted node indices) and post-grad
/// data-flow edges ("i j").
function readDot(text) {
  const clusters = new Map(), edges = new Set();
  let cur = null;
  for (const line of text.split('\n')) {
    let m = /^\s*subgraph "cluster_k(\d+)"/.exec(line);
    if (m) { cur = { key: null, nodes: [] }; continue; }
    if (cur && /^\s*}$/.test(line)) { clusters.set(cur.key, cur.nodes.sort((a, b) => a - b)); cur = null; continue; }
    m = /^\s*"k\d+" \[.*tooltip=("(?:[^"\\]|\\.)*")/.exec(line);
    if (cur && m) { cur.key = JSON.parse(m[1]); continue; }
    m = /^\s*"q(\d+)" \[/.exec(line);
    if (cur && m) { cur.nodes.push(Number(m[1])); continue; }
    m = /^\s*"q(\d+)" -> "q(\d+)"/.exec(line);
    if (m) edges.add(m[1] + ' ' + m[2]);
  }
  return { clusters, edges };
}

runChecks(async ({ newPage, open }) => {
  const dot = readDot(fs.readFileSync(args.dot, 'utf8'));
  const page = await newPage();
  const t0 = Date.now();
  await open(page, fileURL(args.page) + (args.unit ? '#unit=' + encodeURIComponent(args.unit) : ''));
  const loadMs = Date.now() - t0;
  const unit = await page.evaluate(() => window.tlp.unit());
  // The graph's tab, by its button.
  const t1 = Date.now();
  await page.click('#post-tabs button[data-tab="fusion"]');
  await page.waitForSelector('[data-panel="fusion"] svg.fusion g.vp > g.edges', { state: 'attached' });
  const drawMs = Date.now() - t1;
  const first = await page.evaluate(() => window.tlp.fusion());
  const kernelsOf = () => page.evaluate(() => {
    const d = window.tlp.data();
    const out = {};
    document.querySelectorAll('svg.fusion g.k').forEach((k) => {
      out[d.kernels[Number(k.dataset.k)].key] = Array.from(k.querySelectorAll('g.n')).map((n) => Number(n.dataset.n)).sort((a, b) => a - b);
    });
    return out;
  });
  const edgesOf = () => page.evaluate(() => Array.from(document.querySelectorAll('svg.fusion path.e'))
    .map((e) => e.dataset.from + ' ' + e.dataset.to));

  // Every kernel expanded: the clusters and edges of --dot.
  const t2 = Date.now();
  await page.click('.fusion-tools button[data-act="expand-all"]');
  const expandMs = Date.now() - t2;
  // Only what is in view is drawn: fit the whole graph to see it all.
  await page.click('.fusion-tools button[data-act="fit"]');
  const got = await kernelsOf();
  const withNodes = Array.from(dot.clusters).filter(([, v]) => v.length);
  if (Object.keys(got).length !== withNodes.length) fail('clusters', Object.keys(got).length, withNodes.length);
  for (const [key, nodes] of withNodes)
    if (JSON.stringify(got[key]) !== JSON.stringify(nodes)) fail('cluster ' + key, got[key], nodes);
  const counts = await page.evaluate(() => {
    const all = document.querySelectorAll('svg.fusion g.n');
    return { nodes: all.length, distinct: new Set(Array.from(all).map((n) => n.dataset.n)).size,
      total: window.tlp.data().post.nodes.length };
  });
  if (counts.nodes !== counts.total || counts.distinct !== counts.total) fail('nodes drawn once', counts, counts.total);
  const edges = (await edgesOf()).map((e) => e.replace(/n/g, ''));
  const want = Array.from(dot.edges).sort(), have = edges.slice().sort();
  if (JSON.stringify(want) !== JSON.stringify(have))
    fail('edges', have.filter((e) => !dot.edges.has(e)).slice(0, 5).concat(['...']), want.filter((e) => !edges.includes(e)).slice(0, 5));
  console.log(`${unit}: ${counts.total} nodes, ${withNodes.length} kernel clusters and ${dot.edges.size} edges as --dot`);

  // Collapse all: a box per kernel, no member node drawn, edges merged
  // between the boxes (k<row> for a kernel, n<index> for a plain node).
  const t3 = Date.now();
  await page.click('.fusion-tools button[data-act="collapse-all"]');
  const collapseMs = Date.now() - t3;
  await page.click('.fusion-tools button[data-act="fit"]');
  const shut = await page.evaluate(() => {
    const d = window.tlp.data(), owner = d.post.nodes.map((n) => (n.kernels.length ? 'k' + n.kernels[0] : null));
    const want = new Set();
    d.post.inputs.forEach((ins, j) => ins.forEach((i) => {
      const a = owner[i] || 'n' + i, b = owner[j] || 'n' + j;
      if (a !== b) want.add(a + ' ' + b);
    }));
    const have = Array.from(document.querySelectorAll('svg.fusion path.e')).map((e) => e.dataset.from + ' ' + e.dataset.to);
    return { boxes: document.querySelectorAll('svg.fusion g.k.shut').length,
      inside: document.querySelectorAll('svg.fusion g.k g.n').length,
      edges: have.length, same: have.length === want.size && have.every((e) => want.has(e)) };
  });
  if (shut.boxes !== withNodes.length || shut.inside || !shut.same) fail('collapse all', shut, withNodes.length);
  console.log(`collapse all: ${shut.boxes} kernel boxes, ${shut.edges} merged edges`);

  // Expand one (a double click on its box): its nodes come back.
  const [bigKey, bigNodes] = withNodes.slice().sort((a, b) => b[1].length - a[1].length || (a[0] < b[0] ? -1 : 1))[0];
  const row = await page.evaluate((key) => window.tlp.data().kernels.findIndex((k) => k.key === key), bigKey);
  await page.evaluate((k) => {
    const g = document.querySelector(`svg.fusion g.k[data-k="${k}"] rect.kbox`);
    g.dispatchEvent(new MouseEvent('dblclick', { bubbles: true }));
  }, row);
  const one = await kernelsOf();
  if (JSON.stringify(one[bigKey]) !== JSON.stringify(bigNodes)) fail('expand one', one[bigKey], bigNodes);
  const stillShut = await page.evaluate(() => document.querySelectorAll('svg.fusion g.k.shut').length);
  if (stillShut !== withNodes.length - 1) fail('others stay shut', stillShut, withNodes.length - 1);
  console.log(`expand one: ${bigKey}, ${bigNodes.length} nodes`);

  // Graph to panels: a click on a member node selects it as the post-grad
  // panel would, and its kernel's launch lights in the wrapper.
  const node = bigNodes[0];
  const t4 = Date.now();
  await page.evaluate((n) => {
    const r = document.querySelector(`svg.fusion g.n[data-n="${n}"] rect`);
    r.dispatchEvent(new MouseEvent('click', { bubbles: true }));
  }, node);
  const clickMs = Date.now() - t4;
  const sel = await page.evaluate(() => ({ hash: decodeURIComponent(location.hash),
    code: document.querySelectorAll('[data-panel="code"] .r.hl, [data-panel="code"] .r.hl-def, [data-panel="kernel"] .r.hl').length,
    sel: Array.from(document.querySelectorAll('svg.fusion .sel')).map((e) => e.dataset.n) }));
  const name = await page.evaluate((n) => window.tlp.data().post.nodes[n].name, node);
  if (!sel.hash.includes('sel=post:' + name) || sel.sel.join() !== String(node) || !sel.code)
    fail('graph click', sel, 'post:' + name);
  console.log(`graph to panels: post:${name} selected, its kernel lit in the code`);

  // Panels to graph: collapse all, pan away, pick the last kernel in the
  // drawer's kernel table: its box lights and comes into view.
  await page.click('.fusion-tools button[data-act="collapse-all"]');
  const [lastKey] = withNodes[withNodes.length - 1];
  const lastRow = await page.evaluate((key) => window.tlp.data().kernels.findIndex((k) => k.key === key), lastKey);
  await page.focus('.fusion-view');
  for (let i = 0; i < 20; ++i) await page.keyboard.press('ArrowLeft');
  await page.click('#details-tabs button[data-tab="kernels"]');
  const t5 = Date.now();
  await page.click(`#details-body table.kernels tbody tr:nth-child(${lastRow + 1})`);
  const pickMs = Date.now() - t5;
  const lit = await page.evaluate((k) => {
    const g = document.querySelector(`svg.fusion g.k[data-k="${k}"]`);
    const r = g.getBoundingClientRect(), v = document.querySelector('.fusion-view').getBoundingClientRect();
    return { cls: g.getAttribute('class'), inView: r.left >= v.left - 1 && r.right <= v.right + 1 && r.top >= v.top - 1 && r.bottom <= v.bottom + 1 };
  }, lastRow);
  if (!/\bsel\b/.test(lit.cls) || !lit.inView) fail('panels to graph', lit, 'sel, in view');
  console.log(`panels to graph: kernel:${lastKey} lit and in view`);

  // Keys: + zooms, 0 fits, Enter expands the selected kernel.
  await page.focus('.fusion-view');
  const s0 = (await page.evaluate(() => window.tlp.fusion())).scale;
  await page.keyboard.press('+');
  const s1 = (await page.evaluate(() => window.tlp.fusion())).scale;
  await page.keyboard.press('Enter');
  const open1 = await page.evaluate((k) => !document.querySelector(`svg.fusion g.k[data-k="${k}"]`).classList.contains('shut'), lastRow);
  if (!(s1 > s0) || !open1) fail('keys', { s0, s1, open1 }, 'zoomed, expanded');
  console.log('keys: + zooms, Enter expands the selected kernel');

  // Escaping: the FX parser takes identifiers only as node names (a line
  // with another name is not a node), so the log cannot put markup there;
  // the graph escapes names and kernel keys all the same. Made hostile in
  // the page's data, drawn anew, they show as text and run nothing.
  const hostile = '<img src=x onerror="window.__tlp_pwned=7">&amp;</g><script>window.__tlp_pwned=8</script>';
  await page.evaluate((h) => {
    const d = window.tlp.data();
    d.post.nodes.forEach((n) => { n.name = h; });
    d.kernels.forEach((k) => { k.key = h; });
  }, hostile);
  await page.click('.fusion-tools button[data-act="expand-all"]');
  await page.click('.fusion-tools button[data-act="fit"]');
  const esc = await page.evaluate((h) => {
    const svg = document.querySelector('svg.fusion');
    const titles = Array.from(svg.querySelectorAll('g.n > title')).filter((t) => t.textContent.startsWith(h)).length;
    return { titles, markup: svg.querySelectorAll('img, script, foreignObject').length,
      nodes: svg.querySelectorAll('g.n').length, total: window.tlp.data().post.nodes.length };
  }, hostile);
  if (esc.titles !== esc.total || esc.markup || esc.nodes !== esc.total) fail('hostile names', esc, 'shown as text');
  await page.waitForTimeout(50);
  const pwned = await page.evaluate(() => window.__tlp_pwned);
  if (pwned !== undefined) fail('script from the log ran', pwned, undefined);
  console.log('hostile names and kernel keys: shown as text, nothing run');
  if (args.measure) {
    const f = await page.evaluate(() => window.tlp.fusion());
    console.log(`measure: page ready ${loadMs} ms, graph tab ${drawMs} ms (layout ${first.ms.layout.toFixed(1)} ms, ` +
      `draw ${first.ms.draw.toFixed(1)} ms, ${first.collapsed.length} kernels shut), expand all ${expandMs} ms, ` +
      `collapse all ${collapseMs} ms, graph click ${clickMs} ms (selection ${f.ms.select.toFixed(1)} ms in the graph), ` +
      `kernel picked in the table ${pickMs} ms; graph ${Math.round(f.w)} x ${Math.round(f.h)} px`);
  }
});
