// The fusion graph (fusion.js; docs/html.md, "The fusion graph") in
// headless Chromium, checked against tlp-emit --dot --graph=post of the
// same unit: every kernel cluster with the same member nodes, every
// data-flow edge, collapse (all, and one kernel), the selection both ways
// (a click in the graph selects in the panels; a kernel picked in the
// drawer's kernel table lights in the graph and is scrolled into view),
// nothing from the log run as script; a node of several kernels drawn
// once with a +N badge and a dashed link to each other kernel, the links
// those of --dot's dotted edges.
//
//   node check-fusion.js --page PAGE.html --dot UNIT.dot [--unit ID]
//                        [--routing] [--cards] [--measure]
//
// --routing samples every drawn path (edges and links, every 2 px of its
// lines and curves) against every box drawn but its ends' (the node or
// kernel it starts or ends at, and the kernel around such a node), every
// kernel expanded and every kernel collapsed: no path may cross a box.
// --cards hovers a node and a kernel and moves the keyboard's focus
// (] and [): each shows its card, the text the page's data gives; the
// help box lists the keys; hostile names show in the card as text.
//
// --measure prints what opening the page, drawing the graph, collapsing
// and selecting took (docs/performance.md); no timing is ever checked.
'use strict';
const fs = require('fs');
const { fileURL, parseArgs, checks, runChecks } = require('./browser');

const args = parseArgs('check-fusion.js --page PAGE.html --dot UNIT.dot [--unit ID] [--measure]',
  { required: ['page', 'dot'], flags: ['measure', 'routing', 'cards'] });
const fail = checks.fail.bind(checks);

/// The DOT's clusters (kernel key -> sorted node indices), post-grad
/// data-flow edges ("i j") and the dotted ties of a node to its kernels
/// after the first ("nI kR").
function readDot(text) {
  const clusters = new Map(), edges = new Set(), also = new Set(), keyOf = new Map();
  let cur = null;
  for (const line of text.split('\n')) {
    let m = /^\s*subgraph "cluster_k(\d+)"/.exec(line);
    if (m) { cur = { key: null, nodes: [], row: m[1] }; continue; }
    if (cur && /^\s*}$/.test(line)) { clusters.set(cur.key, cur.nodes.sort((a, b) => a - b)); cur = null; continue; }
    m = /^\s*"k\d+" \[.*tooltip=("(?:[^"\\]|\\.)*")/.exec(line);
    if (cur && m) { cur.key = JSON.parse(m[1]); keyOf.set(cur.row, cur.key); continue; }
    m = /^\s*"q(\d+)" \[/.exec(line);
    if (cur && m) { cur.nodes.push(Number(m[1])); continue; }
    m = /^\s*"q(\d+)" -> "q(\d+)"/.exec(line);
    if (m) edges.add(m[1] + ' ' + m[2]);
    m = /^\s*"q(\d+)" -> "k(\d+)" \[style=dotted/.exec(line);
    if (m) also.add('n' + m[1] + ' k' + m[2]);
  }
  return { clusters, edges, also, keyOf };
}

/// In the page: each drawn path (data flow, path.e; a node's link to its
/// other kernels, path.also) sampled every 2 px against every box drawn
/// (nodes, kernels) but its ends' (the node or kernel it starts or ends
/// at, and the kernel around that node). Returns the paths and the
/// crossings found (the first few named).
function crossings() {
  const svg = document.querySelector('svg.fusion');
  const boxes = [], cell = 64, grid = new Map();
  const rectOf = (r) => ({ x: +r.getAttribute('x'), y: +r.getAttribute('y'), w: +r.getAttribute('width'), h: +r.getAttribute('height') });
  svg.querySelectorAll('g.n > rect, g.k > rect.kbox').forEach((r) => {
    const g = r.parentNode, b = rectOf(r);
    b.id = g.classList.contains('n') ? 'n' + g.dataset.n : 'k' + g.dataset.k;
    const k = g.classList.contains('n') && g.parentNode.closest('g.k');
    b.around = k ? 'k' + k.dataset.k : null;
    boxes.push(b);
    for (let gx = Math.floor(b.x / cell); gx <= Math.floor((b.x + b.w) / cell); ++gx)
      for (let gy = Math.floor(b.y / cell); gy <= Math.floor((b.y + b.h) / cell); ++gy) {
        const key = gx + ' ' + gy;
        if (!grid.has(key)) grid.set(key, []);
        grid.get(key).push(b);
      }
  });
  const byId = new Map(boxes.map((b) => [b.id, b]));
  const paths = svg.querySelectorAll('path.e, path.also');
  let crossed = 0, samples = 0;
  const named = [];
  paths.forEach((p) => {
    const ends = new Set();
    for (const id of [p.dataset.from, p.dataset.to]) {
      ends.add(id);
      const b = byId.get(id);
      if (b && b.around) ends.add(b.around);
    }
    // The path's own points (M, L, C as fusion.js writes them), every 2 px.
    const hit = new Set(), t = p.getAttribute('d').match(/[MLC]|-?[0-9.]+/g);
    let x = 0, y = 0;
    const at = (px, py) => {
      ++samples;
      for (const b of grid.get(Math.floor(px / cell) + ' ' + Math.floor(py / cell)) || [])
        if (!ends.has(b.id) && !hit.has(b.id) && px > b.x + 0.5 && px < b.x + b.w - 0.5 && py > b.y + 0.5 && py < b.y + b.h - 0.5)
          hit.add(b.id);
    };
    for (let i = 0; i < t.length;) {
      const c = t[i++], a = [];
      const n = c === 'C' ? 6 : 2;
      for (let j = 0; j < n; ++j) a.push(Number(t[i++]));
      if (c === 'M') { x = a[0]; y = a[1]; at(x, y); continue; }
      const pts = c === 'L' ? [x, y, x, y, a[0], a[1], a[0], a[1]] : [x, y].concat(a);
      const steps = Math.max(1, Math.ceil(Math.hypot(pts[6] - x, pts[7] - y) * 1.5 / 2));
      for (let s = 1; s <= steps; ++s) {
        const u = s / steps, v = 1 - u;
        at(v * v * v * pts[0] + 3 * v * v * u * pts[2] + 3 * v * u * u * pts[4] + u * u * u * pts[6],
           v * v * v * pts[1] + 3 * v * v * u * pts[3] + 3 * v * u * u * pts[5] + u * u * u * pts[7]);
      }
      x = pts[6]; y = pts[7];
    }
    crossed += hit.size;
    if (hit.size && named.length < 5) named.push(p.dataset.from + '->' + p.dataset.to + ' crosses ' + Array.from(hit).join(','));
  });
  return { edges: svg.querySelectorAll('path.e').length, links: svg.querySelectorAll('path.also').length, crossed, samples, named };
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
  // Drawn: the kernels with nodes, and those a node of another kernel
  // links to (all of whose nodes are drawn in other kernels).
  const linked = new Set(Array.from(dot.also).map((l) => dot.keyOf.get(l.split(' k')[1])));
  const drawnK = Array.from(dot.clusters).filter(([k, v]) => v.length || linked.has(k));
  const withNodes = drawnK.filter(([, v]) => v.length);
  if (Object.keys(got).length !== drawnK.length) fail('clusters', Object.keys(got).length, drawnK.length);
  for (const [key, nodes] of drawnK)
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

  // A node of several kernels: in its first, a +N badge (N its other
  // kernels), and a dashed link to each, as --dot's dotted edges.
  const multi = await page.evaluate(() => {
    const d = window.tlp.data(), svg = document.querySelector('svg.fusion');
    let badges = 0, wrong = 0;
    svg.querySelectorAll('g.n').forEach((g) => {
      const n = d.post.nodes[Number(g.dataset.n)], b = g.querySelector('text.badge');
      const want = n.kernels.length > 1 ? '+' + (n.kernels.length - 1) : null;
      if ((b ? b.textContent : null) !== want) ++wrong;
      if (b) badges += Number(b.textContent.slice(1));
    });
    return { badges, wrong, links: Array.from(svg.querySelectorAll('path.also')).map((e) => e.dataset.from + ' ' + e.dataset.to) };
  });
  const links = new Set(multi.links);
  if (multi.wrong || multi.badges !== dot.also.size || links.size !== multi.links.length || links.size !== dot.also.size ||
      Array.from(dot.also).some((l) => !links.has(l)))
    fail('links to other kernels', multi, Array.from(dot.also).slice(0, 5));
  console.log(`links to other kernels: ${links.size} as --dot's dotted edges, badges +${multi.badges} in all`);
  if (args.routing) {
    const r = await page.evaluate(crossings);
    if (r.crossed) fail('routing, expanded', r.named, 'no box crossed');
    console.log(`routing: expanded: ${r.edges} edges and ${r.links} links, ${r.crossed} boxes crossed`);
  }

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
  if (shut.boxes !== drawnK.length || shut.inside || !shut.same) fail('collapse all', shut, drawnK.length);
  console.log(`collapse all: ${shut.boxes} kernel boxes, ${shut.edges} merged edges`);
  if (args.routing) {
    const r = await page.evaluate(crossings);
    if (r.crossed) fail('routing, collapsed', r.named, 'no box crossed');
    console.log(`routing: collapsed: ${r.edges} edges and ${r.links} links, ${r.crossed} boxes crossed`);
  }

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
  if (stillShut !== drawnK.length - 1) fail('others stay shut', stillShut, drawnK.length - 1);
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

  if (args.cards) {
    // The card a reader would build from the page's data.
    const want = (what, i) => page.evaluate(([what, i]) => {
      const d = window.tlp.data(), K = (k) => d.kernels[k].key;
      if (what === 'k') return K(i);
      const n = d.post.nodes[i], ops = d.ops[n.ops], line = d.post.text.split('\n')[n.line - 1];
      const ty = /^\s*[\w.]+: "([^"]*)" =/.exec(line);
      return [n.scope ? n.scope + '.' + n.name : n.name, n.op + (ops ? ' ' + ops[0] : ''),
        n.kernels.length ? 'kernel ' + K(n.kernels[0]) : 'no kernel'].concat(
        n.kernels.length > 1 ? ['also in ' + n.kernels.slice(1).map(K).join(', ')] : [], ty ? [ty[1]] : []).join('\n');
    }, [what, i]);
    const card = () => page.evaluate(() => window.tlp.fusion().card);
    // Hover a node (one of several kernels when there is one) and a kernel.
    await page.click('.fusion-tools button[data-act="expand-all"]');
    await page.click('.fusion-tools button[data-act="fit"]');
    const hn = await page.evaluate(() => {
      const g = document.querySelector('svg.fusion g.n.multi') || document.querySelector('svg.fusion g.k g.n');
      return Number(g.dataset.n);
    });
    const over = (sel) => page.evaluate((q) => document.querySelector(q).dispatchEvent(new PointerEvent('pointerover', { bubbles: true })), sel);
    const leave = () => page.evaluate(() => document.querySelector('.fusion-view').dispatchEvent(new PointerEvent('pointerleave')));
    await over(`svg.fusion g.n[data-n="${hn}"] rect`);
    const c1 = await card(), w1 = await want('n', hn);
    if (c1 !== w1) fail('node card', c1, w1);
    await leave();
    if ((await card()) !== null) fail('card gone when the pointer leaves', await card(), null);
    await page.click('.fusion-tools button[data-act="collapse-all"]');
    await page.click('.fusion-tools button[data-act="fit"]');
    const hk = await page.evaluate(() => Number(document.querySelector('svg.fusion g.k.shut').dataset.k));
    await over(`svg.fusion g.k[data-k="${hk}"] rect.kbox`);
    const c2 = await card(), w2 = await want('k', hk);
    if (!c2 || c2.split('\n')[0] !== w2) fail('kernel card', c2, w2);
    await leave();
    // ] / [ : the next and previous kernel by row, from the selected one.
    await page.evaluate(() => window.tlp.clear());
    await page.focus('.fusion-view');
    const rows = await page.evaluate(() => Array.from(document.querySelectorAll('svg.fusion g.k')).map((g) => Number(g.dataset.k)).sort((a, b) => a - b));
    const focusAt = async () => page.evaluate(() => {
      const f = window.tlp.fusion(), g = document.querySelector(`svg.fusion g.k[data-k="${f.focus}"]`);
      return { focus: f.focus, card: f.card, marked: !!g && g.classList.contains('focus') };
    });
    await page.keyboard.press(']');
    const f1 = await focusAt();
    await page.keyboard.press(']');
    const f2 = await focusAt();
    await page.keyboard.press('[');
    const f3 = await focusAt();
    await page.keyboard.press('[');
    const f4 = await focusAt();
    const wantRows = [rows[0], rows[1 % rows.length], rows[0], rows[rows.length - 1]];
    const got4 = [f1, f2, f3, f4];
    for (let j = 0; j < 4; ++j)
      if (got4[j].focus !== wantRows[j] || !got4[j].marked || !got4[j].card || got4[j].card.split('\n')[0] !== (await want('k', wantRows[j])))
        fail('focus ' + j, got4[j], wantRows[j]);
    await page.keyboard.press(' ');
    const picked = await page.evaluate(() => decodeURIComponent(location.hash));
    if (!picked.includes('sel=kernel:')) fail('Space selects the focused kernel', picked, 'sel=kernel:');
    await page.keyboard.press('Escape');
    const gone = await focusAt();
    if (gone.focus !== null || gone.card !== null) fail('Escape lets the focus go', gone, null);
    await page.keyboard.press('?');
    const help = await page.evaluate(() => document.getElementById('help').textContent);
    await page.keyboard.press('Escape');
    if (!help.includes('] / [')) fail('help lists ] / [', help.slice(0, 80), '] / [');
    console.log(`cards: node ${hn} and kernel ${hk} on hover, ] ] [ [ focus kernels ${wantRows.join(' ')}, Space selects, the help lists ] / [`);
  }

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
  if (args.cards) {
    await page.evaluate(() => document.querySelector('svg.fusion g.n rect').dispatchEvent(new PointerEvent('pointerover', { bubbles: true })));
    const hc = await page.evaluate(() => ({ first: document.querySelector('.fusion-card').firstChild.textContent,
      markup: document.querySelectorAll('.fusion-card *').length - document.querySelectorAll('.fusion-card > div').length }));
    if (hc.first !== hostile || hc.markup) fail('hostile card', hc, hostile);
  }
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
