// fusion.js: the fusion graph, the post-grad column's second tab: the
// post-grad nodes as boxes, each inside its kernel (a node's first kernel,
// as tlp-emit --dot draws it), edges by data flow (the page data's
// post.inputs, Node::Inputs); placeholders, the output and nodes of no
// kernel plain. Laid out here, when first shown, by a layered
// (Sugiyama-style) layout of two levels (docs/html.md, "The fusion
// graph"): an expanded kernel is laid out inside its box, then the boxes
// (kernels, collapsed or not, and plain nodes) among themselves. Drawn as
// one SVG; zoom (wheel, + / −), pan (drag, arrows), fit (0); a kernel
// collapses to one box (double click, its ± or Enter), every kernel at
// once from the toolbar. A click selects the node or kernel (selection.js)
// and the selection lights here, scrolled into view.

var postTab = 'post'; // the post-grad column's tab: 'post' (text) or 'fusion'
var fusion = null; // the fusion graph of page.m, once drawn
var FUSION_COLLAPSE_AT = 300; // more post-grad nodes: kernels start collapsed
var FG_NODE_H = 22, FG_KERNEL_H = 34, FG_GAP_X = 14, FG_GAP_Y = 34, FG_PAD = 8, FG_HEAD = 20;
var FG_CHAR = 6.6; // px per character of the 11px monospace labels

/// Show the post-grad column's tab \p t ('post' or 'fusion').
function setPostTab(t) {
  postTab = t;
  var tabs = $('post-tabs');
  if (!tabs) return;
  var has = !!(page.m && page.m.post);
  tabs.hidden = !has;
  tabs.innerHTML = '';
  [['post', 'text'], ['fusion', 'fusion graph']].forEach(function (x) {
    var b = make('button', '', x[1]);
    b.type = 'button';
    b.dataset.tab = x[0];
    b.title = x[0] === 'post' ? 'the post-grad graph as logged' : 'the post-grad nodes grouped into their kernels (g)';
    b.setAttribute('aria-selected', String(t === x[0]));
    b.addEventListener('click', function () { setPostTab(x[0]); });
    tabs.appendChild(b);
  });
  var show = has && t === 'fusion';
  document.querySelector('[data-panel="post"]').hidden = show;
  document.querySelector('[data-panel="fusion"]').hidden = !show;
  if (show && (!fusion || fusion.m !== page.m)) drawFusion();
  else if (!show && page.views.post) page.views.post.update();
}
function togglePostTab() { setPostTab(postTab === 'fusion' ? 'post' : 'fusion'); }

/// A new unit is shown: its fusion graph is drawn when its tab is.
function resetFusion() {
  fusion = null;
  var p = document.querySelector('[data-panel="fusion"]');
  if (p) p.textContent = '';
  setPostTab(postTab);
}

/// The groups: each node's box (its first kernel, or -1) and each
/// kernel's member nodes, and the data-flow edges [from, to].
function fusionModel(m) {
  var nodes = m.post.data.nodes, inputs = m.post.data.inputs || [];
  var owner = new Int32Array(nodes.length), members = m.kernels.map(function () { return []; });
  nodes.forEach(function (n, i) {
    owner[i] = n.kernels && n.kernels.length ? n.kernels[0] : -1;
    if (owner[i] >= 0) members[owner[i]].push(i);
  });
  var edges = [];
  inputs.forEach(function (ins, j) {
    (ins || []).forEach(function (i) { if (i >= 0 && i < nodes.length && i !== j) edges.push([i, j]); });
  });
  return { owner: owner, members: members, edges: edges };
}

/// A layered layout of boxes V ({w, h, order}) and edges E ([u, v]):
/// layers by longest path along the edges that go forward in order (the
/// graph's order is topological; an edge back is drawn, not followed), a
/// box without inputs just above its first user; four barycenter sweeps
/// order each layer; each box then sits at the mean of its neighbours, no
/// closer than FG_GAP_X to the next. Returns top-left x, y per box and
/// the width and height of the whole; deterministic.
function layered(V, E) {
  var n = V.length, i, l;
  var ids = []; for (i = 0; i < n; ++i) ids.push(i);
  ids.sort(function (a, b) { return V[a].order - V[b].order || a - b; });
  var rank = new Int32Array(n); ids.forEach(function (v, r) { rank[v] = r; });
  var preds = [], succs = [];
  for (i = 0; i < n; ++i) { preds.push([]); succs.push([]); }
  E.forEach(function (e) {
    if (rank[e[0]] < rank[e[1]]) { preds[e[1]].push(e[0]); succs[e[0]].push(e[1]); }
  });
  var layer = new Int32Array(n);
  ids.forEach(function (v) {
    preds[v].forEach(function (u) { if (layer[u] + 1 > layer[v]) layer[v] = layer[u] + 1; });
  });
  // Then each box with users as late as they allow: just above its first
  // user (a weight's placeholder and permute beside the mm that uses
  // them, not in a first layer as wide as the model's parameters).
  for (var r = n - 1; r >= 0; --r) {
    var v = ids[r];
    if (!succs[v].length) continue;
    var lo = Infinity;
    succs[v].forEach(function (w) { if (layer[w] < lo) lo = layer[w]; });
    layer[v] = Math.max(layer[v], lo - 1);
  }
  var depth = 0;
  for (i = 0; i < n; ++i) if (layer[i] + 1 > depth) depth = layer[i] + 1;
  var layers = []; for (l = 0; l < depth; ++l) layers.push([]);
  ids.forEach(function (v) { layers[layer[v]].push(v); });
  var pos = new Float64Array(n); // a box's place in its layer, 0..1
  function place(L) { L.forEach(function (v, k) { pos[v] = (k + 0.5) / L.length; }); }
  layers.forEach(place);
  function sweep(L, nb) {
    var key = new Map();
    L.forEach(function (v) {
      var a = nb[v];
      if (!a.length) { key.set(v, pos[v]); return; }
      var s = 0; a.forEach(function (u) { s += pos[u]; });
      key.set(v, s / a.length);
    });
    L.sort(function (a, b) { return key.get(a) - key.get(b) || rank[a] - rank[b]; });
    place(L);
  }
  for (var it = 0; it < 4; ++it) {
    if (it % 2 === 0) for (l = 1; l < depth; ++l) sweep(layers[l], preds);
    else for (l = depth - 2; l >= 0; --l) sweep(layers[l], succs);
  }
  // Coordinates: centres, packed, then pulled to their neighbours.
  var cx = new Float64Array(n);
  layers.forEach(function (L) {
    var x = 0;
    L.forEach(function (v) { cx[v] = x + V[v].w / 2; x += V[v].w + FG_GAP_X; });
    var shift = (x - FG_GAP_X) / 2;
    L.forEach(function (v) { cx[v] -= shift; });
  });
  function settle(L, nb) {
    var k = L.length, d = new Float64Array(k), a = new Float64Array(k), b = new Float64Array(k);
    L.forEach(function (v, j) {
      var ns = nb[v];
      if (!ns.length) { d[j] = cx[v]; return; }
      var s = 0; ns.forEach(function (u) { s += cx[u]; });
      d[j] = s / ns.length;
    });
    for (var j = 0; j < k; ++j)
      a[j] = j ? Math.max(d[j], a[j - 1] + (V[L[j - 1]].w + V[L[j]].w) / 2 + FG_GAP_X) : d[j];
    for (j = k - 1; j >= 0; --j)
      b[j] = j < k - 1 ? Math.min(d[j], b[j + 1] - (V[L[j + 1]].w + V[L[j]].w) / 2 - FG_GAP_X) : d[j];
    for (j = 0; j < k; ++j) cx[L[j]] = (a[j] + b[j]) / 2;
  }
  for (it = 0; it < 4; ++it) {
    if (it % 2 === 0) for (l = 1; l < depth; ++l) settle(layers[l], preds);
    else for (l = depth - 2; l >= 0; --l) settle(layers[l], succs);
  }
  var x = new Float64Array(n), y = new Float64Array(n), minX = Infinity, maxX = -Infinity, top = 0;
  layers.forEach(function (L) {
    var h = 0;
    L.forEach(function (v) { h = Math.max(h, V[v].h); });
    L.forEach(function (v) {
      x[v] = cx[v] - V[v].w / 2;
      y[v] = top;
      minX = Math.min(minX, x[v]);
      maxX = Math.max(maxX, x[v] + V[v].w);
    });
    top += h + FG_GAP_Y;
  });
  if (!n) minX = maxX = 0;
  for (i = 0; i < n; ++i) x[i] -= minX;
  return { x: x, y: y, w: maxX - minX, h: Math.max(0, top - FG_GAP_Y) };
}

function fgLabel(s, max) { s = String(s); return s.length > max ? s.slice(0, max - 1) + '…' : s; }
function fgNodeW(n) { return Math.max(40, Math.min(26, n.name.length) * FG_CHAR + 12); }

/// Lay out the unit's fusion graph with the kernels in \p collapsed shut:
/// every node's and kernel's box (world coordinates) and the edges
/// between the boxes drawn, merged where a kernel is shut.
function fusionLayout(m, F, collapsed) {
  var nodes = m.post.data.nodes;
  var boxes = [], boxOfNode = new Int32Array(nodes.length).fill(-1), boxOfKernel = new Map();
  var nodeAt = new Float64Array(nodes.length * 4); // x, y, w, h of drawn nodes
  var inner = new Map(); // kernel -> inner layout
  nodes.forEach(function (n, i) {
    if (F.owner[i] >= 0) return;
    boxOfNode[i] = boxes.length;
    boxes.push({ kind: 'n', i: i, w: fgNodeW(n), h: FG_NODE_H, order: i });
  });
  F.members.forEach(function (mem, k) {
    if (!mem.length) return;
    var b = { kind: 'k', k: k, order: mem[0], open: !collapsed.has(k) };
    var label = m.kernels[k].key;
    if (b.open) {
      var idx = new Map();
      mem.forEach(function (i, j) { idx.set(i, j); });
      var V = mem.map(function (i) { return { w: fgNodeW(nodes[i]), h: FG_NODE_H, order: i }; });
      var E = [];
      mem.forEach(function (i, j) {
        ((m.post.data.inputs || [])[i] || []).forEach(function (u) { if (idx.has(u) && u !== i) E.push([idx.get(u), j]); });
      });
      var lay = layered(V, E);
      inner.set(k, { lay: lay, V: V });
      b.w = Math.max(lay.w + 2 * FG_PAD, Math.min(label.length, 40) * FG_CHAR + 40);
      b.h = lay.h + 2 * FG_PAD + FG_HEAD;
    } else {
      b.w = Math.min(Math.max(label.length, 12), 40) * FG_CHAR + 30;
      b.h = FG_KERNEL_H;
    }
    boxOfKernel.set(k, boxes.length);
    mem.forEach(function (i) { boxOfNode[i] = boxes.length; });
    boxes.push(b);
  });
  var seen = new Set(), E = [];
  F.edges.forEach(function (e) {
    var a = boxOfNode[e[0]], b = boxOfNode[e[1]];
    if (a < 0 || b < 0 || a === b) return;
    var key = a * boxes.length + b;
    if (seen.has(key)) return;
    seen.add(key);
    E.push([a, b]);
  });
  var lay = layered(boxes, E);
  boxes.forEach(function (b, j) {
    b.x = lay.x[j]; b.y = lay.y[j];
    if (b.kind === 'n') {
      nodeAt.set([b.x, b.y, b.w, b.h], b.i * 4);
      return;
    }
    if (!b.open) return;
    var I = inner.get(b.k), ox = b.x + (b.w - I.lay.w) / 2, oy = b.y + FG_HEAD + FG_PAD;
    F.members[b.k].forEach(function (i, q) {
      nodeAt.set([ox + I.lay.x[q], oy + I.lay.y[q], I.V[q].w, I.V[q].h], i * 4);
    });
  });
  // The edges drawn: node to node where both are shown, else from or to
  // the shut kernel's box, merged.
  function end(i) {
    var b = boxes[boxOfNode[i]];
    if (b.kind === 'k' && !b.open) return { id: 'k' + b.k, x: b.x, y: b.y, w: b.w, h: b.h };
    return { id: 'n' + i, x: nodeAt[i * 4], y: nodeAt[i * 4 + 1], w: nodeAt[i * 4 + 2], h: nodeAt[i * 4 + 3] };
  }
  var drawn = new Map();
  F.edges.forEach(function (e) {
    if (boxOfNode[e[0]] < 0 || boxOfNode[e[1]] < 0) return;
    var a = end(e[0]), b = end(e[1]);
    if (a.id === b.id) return;
    var key = a.id + ' ' + b.id, d = drawn.get(key);
    if (d) { ++d.count; return; }
    drawn.set(key, { from: a, to: b, count: 1 });
  });
  return { boxes: boxes, boxOfKernel: boxOfKernel, boxOfNode: boxOfNode, nodeAt: nodeAt, edges: Array.from(drawn.values()), w: lay.w, h: lay.h };
}

function fgEdgePath(a, b) {
  var x1 = a.x + a.w / 2, y1 = a.y + a.h, x2 = b.x + b.w / 2, y2 = b.y;
  var dy = Math.max(12, Math.abs(y2 - y1) / 2);
  return 'M' + x1.toFixed(1) + ' ' + y1.toFixed(1) + 'C' + x1.toFixed(1) + ' ' + (y1 + dy).toFixed(1) + ' ' +
    x2.toFixed(1) + ' ' + (y2 - dy).toFixed(1) + ' ' + x2.toFixed(1) + ' ' + y2.toFixed(1);
}
function fgNodeSVG(n, i, x, y, w, h) {
  return '<g class="n op-' + esc(n.op) + '" data-n="' + i + '"><title>' + esc(qualified(n) + ' (' + n.op + ')') +
    '</title><rect x="' + x.toFixed(1) + '" y="' + y.toFixed(1) + '" width="' + w.toFixed(1) + '" height="' + h +
    '" rx="3"/><text x="' + (x + w / 2).toFixed(1) + '" y="' + (y + h / 2 + 4).toFixed(1) + '">' +
    esc(fgLabel(n.name, 26)) + '</text></g>';
}

/// The SVG of each edge and box of the laid-out graph (every text from
/// the log escaped), with its bounds, to draw those in view.
function fusionSVG(m, F, L) {
  var nodes = m.post.data.nodes;
  L.edgeSVG = L.edges.map(function (e) {
    var a = e.from, b = e.to;
    return { x0: Math.min(a.x, b.x), y0: Math.min(a.y, b.y), x1: Math.max(a.x + a.w, b.x + b.w), y1: Math.max(a.y + a.h, b.y + b.h),
      svg: '<path class="e" data-from="' + a.id + '" data-to="' + b.id + '"' +
        (e.count > 1 ? ' data-count="' + e.count + '"' : '') + ' d="' + fgEdgePath(a, b) + '"/>' };
  });
  L.boxSVG = L.boxes.map(function (b) {
    return { x0: b.x, y0: b.y, x1: b.x + b.w, y1: b.y + b.h, svg: fusionBoxSVG(m, F, L, b, nodes) };
  });
}
function fusionBoxSVG(m, F, L, b, nodes) {
  if (b.kind === 'n') return fgNodeSVG(nodes[b.i], b.i, b.x, b.y, b.w, b.h);
  var out = [];
  var K = m.kernels[b.k], mem = F.members[b.k], tm = kernelTimeText(m, b.k);
  out.push('<g class="k kind-' + esc(K.kind) + (b.open ? '' : ' shut') + '" data-k="' + b.k + '"><title>' +
    esc('kernel ' + K.key + ': ' + plural(mem.length, 'post-grad node') + (tm ? ', ' + tm : '') +
      (b.open ? '' : ' (double-click to expand)')) +
    '</title><rect class="kbox" x="' + b.x.toFixed(1) + '" y="' + b.y.toFixed(1) + '" width="' + b.w.toFixed(1) +
    '" height="' + b.h.toFixed(1) + '" rx="6" fill="hsl(' + hue(b.k) + ' 60% 55%)"/>' +
    '<text class="kt" x="' + (b.x + 10).toFixed(1) + '" y="' + (b.y + 14).toFixed(1) + '">' + (b.open ? '−' : '+') + '</text>' +
    '<text class="kl" x="' + (b.x + 22).toFixed(1) + '" y="' + (b.y + 14).toFixed(1) + '">' + esc(fgLabel(K.key, 40)) + '</text>');
  if (!b.open) {
    out.push('<text class="kn" x="' + (b.x + 22).toFixed(1) + '" y="' + (b.y + 28).toFixed(1) + '">' +
      esc(plural(mem.length, 'node') + (tm ? ' · ' + tm : '')) + '</text>');
  } else {
    mem.forEach(function (i) {
      var a = L.nodeAt;
      out.push(fgNodeSVG(nodes[i], i, a[i * 4], a[i * 4 + 1], a[i * 4 + 2], a[i * 4 + 3]));
    });
  }
  out.push('</g>');
  return out.join('');
}

/// Draw page.m's fusion graph in its panel: head, toolbar, the SVG.
function drawFusion() {
  var m = page.m, panel = document.querySelector('[data-panel="fusion"]');
  panel.textContent = '';
  if (!m || !m.post) return;
  var t0 = performance.now();
  var F = fusionModel(m);
  var shown = F.members.filter(function (x) { return x.length; }).length;
  var collapsed = new Set();
  if (m.post.data.nodes.length > FUSION_COLLAPSE_AT)
    F.members.forEach(function (x, k) { if (x.length) collapsed.add(k); });
  panelHead(panel, 'fusion graph', null, plural(m.post.data.nodes.length, 'node') + ', ' +
    plural(shown, 'kernel') + (m.kernels.length > shown ? ' (' + (m.kernels.length - shown) + ' without post-grad nodes not drawn)' : ''));
  var bar = make('div', 'fusion-tools');
  [['zoom-in', '+', 'zoom in (+)'], ['zoom-out', '−', 'zoom out (−)'], ['fit', 'fit', 'the whole graph (0)'],
   ['collapse-all', 'collapse all', 'every kernel one box'], ['expand-all', 'expand all', 'every kernel with its nodes']]
    .forEach(function (x) {
      var b = make('button', '', x[1]);
      b.type = 'button';
      b.dataset.act = x[0];
      b.title = x[2];
      bar.appendChild(b);
    });
  panel.appendChild(bar);
  var box = make('div', 'fusion-view');
  box.tabIndex = 0;
  box.setAttribute('role', 'application');
  box.setAttribute('aria-label', 'fusion graph: drag to pan, wheel or + / − to zoom, 0 to fit, Enter to expand or collapse the selected kernel');
  box.innerHTML = '<svg class="fusion"><g class="vp"></g></svg>';
  panel.appendChild(box);
  fusion = { m: m, F: F, collapsed: collapsed, panel: panel, box: box, svg: box.firstChild, vp: box.firstChild.firstChild,
    s: 1, tx: 0, ty: 0, lit: [], nodeEl: [], kernelEl: new Map(), ms: {} };
  bar.addEventListener('click', function (ev) {
    var b = ev.target.closest('button');
    if (!b) return;
    var a = b.dataset.act;
    if (a === 'zoom-in') fusionZoom(1.25);
    else if (a === 'zoom-out') fusionZoom(0.8);
    else if (a === 'fit') fusionFit();
    else if (a === 'collapse-all' || a === 'expand-all') {
      F.members.forEach(function (x, k) { if (x.length) { if (a === 'collapse-all') collapsed.add(k); else collapsed.delete(k); } });
      fusionRender();
      fusionFit(true);
      fusionLight(selection.selected());
    }
  });
  fusionEvents(box);
  fusionRender();
  fusionFit(true);
  fusion.ms.draw = performance.now() - t0;
  fusionShowSelection(selection.selected(), {});
}

/// Lay out fusion's graph anew (after a collapse); drawn when next in
/// view (fusionApply).
function fusionRender() {
  var f = fusion, t0 = performance.now();
  f.L = fusionLayout(f.m, f.F, f.collapsed);
  fusionSVG(f.m, f.F, f.L);
  f.ms.layout = performance.now() - t0;
  f.painted = null;
  f.box.dataset.collapsed = String(f.collapsed.size);
}

/// Draw what is in view, and as much again around it: a graph of
/// thousands of nodes costs the DOM what a screenful does. The
/// selection's marks are put back on what is drawn.
function fusionPaint() {
  var f = fusion, t0 = performance.now(), r = f.box.getBoundingClientRect();
  var W = Math.max(r.width, 100) / f.s, H = Math.max(r.height, 100) / f.s;
  var x0 = -f.tx / f.s - W, y0 = -f.ty / f.s - H, x1 = x0 + 3 * W, y1 = y0 + 3 * H;
  function inside(p) { return p.x1 >= x0 && p.x0 <= x1 && p.y1 >= y0 && p.y0 <= y1; }
  var out = ['<g class="edges">'];
  f.L.edgeSVG.forEach(function (p) { if (inside(p)) out.push(p.svg); });
  out.push('</g>');
  f.L.boxSVG.forEach(function (p) { if (inside(p)) out.push(p.svg); });
  f.vp.innerHTML = out.join('');
  f.painted = { x0: x0, y0: y0, x1: x1, y1: y1, s: f.s };
  f.nodeEl = [];
  Array.prototype.forEach.call(f.vp.querySelectorAll('g.n'), function (e) { f.nodeEl[Number(e.dataset.n)] = e; });
  f.kernelEl = new Map();
  Array.prototype.forEach.call(f.vp.querySelectorAll('g.k'), function (e) { f.kernelEl.set(Number(e.dataset.k), e); });
  f.lit = [];
  (f.marks || []).forEach(function (x) {
    var e = x[0] === 'n' ? f.nodeEl[x[1]] : f.kernelEl.get(x[1]);
    if (e) { e.classList.add(x[2]); f.lit.push(e); }
  });
  f.ms.paint = performance.now() - t0;
}

/// The view moved: the new transform, and a new drawing when the view
/// leaves what was drawn (or zooms out of it).
function fusionApply() {
  var f = fusion, r = f.box.getBoundingClientRect();
  f.vp.setAttribute('transform', 'translate(' + f.tx.toFixed(2) + ' ' + f.ty.toFixed(2) + ') scale(' + f.s.toFixed(4) + ')');
  var p = f.painted, W = Math.max(r.width, 100) / f.s, H = Math.max(r.height, 100) / f.s;
  var x0 = -f.tx / f.s, y0 = -f.ty / f.s;
  if (p && x0 >= p.x0 && y0 >= p.y0 && x0 + W <= p.x1 && y0 + H <= p.y1 && f.s >= p.s / 2) return;
  fusionPaint();
}
/// Zoom by \p k about the point (px, py) of the view (its centre).
function fusionZoom(k, px, py) {
  var f = fusion, r = f.box.getBoundingClientRect();
  if (px === undefined) { px = r.width / 2; py = r.height / 2; }
  var s = Math.max(0.02, Math.min(4, f.s * k));
  f.tx = px - (px - f.tx) * s / f.s;
  f.ty = py - (py - f.ty) * s / f.s;
  f.s = s;
  fusionApply();
}
/// The whole graph in view; \p initial: a tall graph starts at its top,
/// its width fitted, no smaller than half size.
function fusionFit(initial) {
  var f = fusion, r = f.box.getBoundingClientRect(), W = Math.max(r.width, 100), H = Math.max(r.height, 100);
  var s = Math.min(1, (W - 20) / Math.max(f.L.w, 1), (H - 20) / Math.max(f.L.h, 1));
  if (initial && s < 0.5) s = Math.max(0.5, Math.min(1, (W - 20) / Math.max(f.L.w, 1)));
  f.s = Math.max(0.02, s);
  f.tx = (W - f.L.w * f.s) / 2;
  f.ty = initial && f.L.h * f.s > H ? 10 : (H - f.L.h * f.s) / 2;
  fusionApply();
}
/// Pan so that the world box (x, y, w, h) is in view (centred if not).
function fusionReveal(x, y, w, h) {
  var f = fusion, r = f.box.getBoundingClientRect();
  if (!r.width) return;
  var sx = x * f.s + f.tx, sy = y * f.s + f.ty;
  if (sx >= 0 && sy >= 0 && sx + w * f.s <= r.width && sy + h * f.s <= r.height) return;
  if (f.s < 0.4) f.s = 0.8;
  f.tx = r.width / 2 - (x + w / 2) * f.s;
  f.ty = r.height / 2 - (y + h / 2) * f.s;
  fusionApply();
}

/// Expand or collapse kernel \p k, keeping its box where it was on screen.
function fusionToggle(k) {
  var f = fusion;
  if (!f || !f.L.boxOfKernel.has(k)) return;
  var b0 = f.L.boxes[f.L.boxOfKernel.get(k)];
  if (f.collapsed.has(k)) f.collapsed.delete(k); else f.collapsed.add(k);
  fusionRender();
  var b1 = f.L.boxes[f.L.boxOfKernel.get(k)];
  f.tx += (b0.x - b1.x) * f.s;
  f.ty += (b0.y - b1.y) * f.s;
  fusionApply();
  fusionLight(selection.selected());
}

function fusionEvents(box) {
  var drag = null;
  box.addEventListener('wheel', function (ev) {
    if (!fusion) return;
    var r = box.getBoundingClientRect();
    fusionZoom(Math.exp(-ev.deltaY * 0.0015), ev.clientX - r.left, ev.clientY - r.top);
    ev.preventDefault();
  }, { passive: false });
  box.addEventListener('pointerdown', function (ev) {
    if (ev.button !== 0) return;
    drag = { x: ev.clientX, y: ev.clientY, tx: fusion.tx, ty: fusion.ty, moved: false, id: ev.pointerId };
  });
  box.addEventListener('pointermove', function (ev) {
    if (!drag) return;
    var dx = ev.clientX - drag.x, dy = ev.clientY - drag.y;
    if (!drag.moved && Math.abs(dx) + Math.abs(dy) < 4) return;
    if (!drag.moved) { drag.moved = true; box.setPointerCapture(drag.id); box.classList.add('panning'); }
    fusion.tx = drag.tx + dx;
    fusion.ty = drag.ty + dy;
    fusionApply();
  });
  function up() {
    if (drag && drag.moved) { box.classList.remove('panning'); fusion.dragged = true; }
    drag = null;
  }
  box.addEventListener('pointerup', up);
  box.addEventListener('pointercancel', up);
  box.addEventListener('click', function (ev) {
    if (fusion.dragged) { fusion.dragged = false; return; }
    var m = fusion.m, n = ev.target.closest('g.n'), k = ev.target.closest('g.k');
    if (k && ev.target.classList.contains('kt')) { fusionToggle(Number(k.dataset.k)); return; }
    fusion.fromGraph = true;
    if (n) selection.select(nodeItem(m, 'post', Number(n.dataset.n)), { scrollAll: true });
    else if (k) selection.select(kernelItem(m, Number(k.dataset.k)), { scrollAll: true });
    else selection.clear();
    fusion.fromGraph = false;
  });
  box.addEventListener('dblclick', function (ev) {
    var n = ev.target.closest('g.n'), k = ev.target.closest('g.k');
    if (k && !n) fusionToggle(Number(k.dataset.k));
  });
  box.addEventListener('keydown', function (ev) {
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    var step = 60, f = fusion;
    if (ev.key === '+' || ev.key === '=') fusionZoom(1.25);
    else if (ev.key === '-' || ev.key === '−') fusionZoom(0.8);
    else if (ev.key === '0') fusionFit();
    else if (ev.key === 'ArrowLeft') { f.tx += step; fusionApply(); }
    else if (ev.key === 'ArrowRight') { f.tx -= step; fusionApply(); }
    else if (ev.key === 'ArrowUp') { f.ty += step; fusionApply(); }
    else if (ev.key === 'ArrowDown') { f.ty -= step; fusionApply(); }
    else if (ev.key === 'Enter' || ev.key === ' ') {
      var it = selection.selected(), k = null;
      if (it && it.kind === 'kernel') k = it.rows[0];
      else if (it && it.kind === 'post') k = f.F.owner[it.index];
      if (k !== null && k >= 0) fusionToggle(k);
    } else return;
    ev.preventDefault();
    ev.stopPropagation();
  });
}

/// Light \p item's counterparts in the graph: its post-grad nodes (a shut
/// kernel lights for its nodes) and its kernels; the item itself "sel".
function fusionLight(item) {
  var f = fusion, m = f.m;
  f.lit.forEach(function (e) { e.classList.remove('hl', 'sel'); });
  f.lit = [];
  f.marks = [];
  if (!item) return null;
  function lightEl(e, cls) { if (e) { e.classList.add(cls); f.lit.push(e); } }
  function light(kind, i, cls) { f.marks.push([kind, i, cls]); lightEl(kind === 'n' ? f.nodeEl[i] : f.kernelEl.get(i), cls); }
  var c = counterparts(m, item), first = null;
  var ks = [];
  if (item.kind === 'kernel') ks = item.rows;
  else if (item.kind === 'pre' || item.kind === 'post') ks = m[item.kind].data.nodes[item.index].kernels || [];
  else if (item.kind === 'src')
    m.source.rows[item.row].srcs.forEach(function (s) { ks = ks.concat(m.source.kernels.get(s) || []); });
  function seeNode(i) {
    var b = f.L.boxes[fusionBoxOf(i)];
    if (b && b.kind === 'k' && !b.open) { light('k', b.k, 'hl'); return [b.x, b.y, b.w, b.h]; }
    light('n', i, 'hl');
    var a = f.L.nodeAt;
    return [a[i * 4], a[i * 4 + 1], a[i * 4 + 2], a[i * 4 + 3]];
  }
  c.post.forEach(function (line) {
    var i = m.post.nodeAt.get(line);
    if (i === undefined) return;
    var at = seeNode(i);
    if (!first) first = at;
  });
  ks.forEach(function (k) {
    light('k', k, 'hl');
    if (!first && f.L.boxOfKernel.has(k)) { var b = f.L.boxes[f.L.boxOfKernel.get(k)]; first = [b.x, b.y, b.w, b.h]; }
  });
  if (item.kind === 'post') {
    var b = f.L.boxes[fusionBoxOf(item.index)];
    if (b && b.kind === 'k' && !b.open) light('k', b.k, 'sel');
    else light('n', item.index, 'sel');
    first = seeNode(item.index);
  } else if (item.kind === 'kernel') {
    item.rows.forEach(function (k) { light('k', k, 'sel'); });
    if (f.L.boxOfKernel.has(item.rows[0])) { var kb = f.L.boxes[f.L.boxOfKernel.get(item.rows[0])]; first = [kb.x, kb.y, kb.w, kb.h]; }
  }
  return first;
}
function fusionBoxOf(i) {
  return fusion.L.boxOfNode[i];
}

/// The selection in the graph (a listener of the selection): lit, and
/// scrolled into view unless the click was in the graph.
function fusionShowSelection(item) {
  if (!fusion || fusion.m !== page.m) return;
  var t0 = performance.now();
  var at = fusionLight(item);
  if (at && !fusion.fromGraph && postTab === 'fusion') fusionReveal(at[0], at[1], at[2], at[3]);
  fusion.ms.select = performance.now() - t0;
}

/// The view's size changed (a divider, a fold, the window): draw what
/// is now in view.
function fusionResized() {
  if (!fusion || fusion.m !== page.m || postTab !== 'fusion') return;
  fusion.painted = null;
  fusionApply();
}

/// For tests: the graph drawn, as data.
function fusionState() {
  var f = fusion;
  if (!f) return null;
  return {
    nodes: f.m.post.data.nodes.length,
    collapsed: Array.from(f.collapsed).sort(function (a, b) { return a - b; }),
    scale: f.s, tx: f.tx, ty: f.ty, w: f.L.w, h: f.L.h, ms: f.ms
  };
}
