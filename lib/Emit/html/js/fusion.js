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
var FG_LANE = 2, FG_LANE_GAP = 5; // an edge's lane through a layer: its width, the gap between two
var FG_BADGE_W = 22; // the +N badge of a node computed in several kernels

/// Show the post-grad column's tab \p t ('post' or 'fusion'); \p initial:
/// the unit's views were just built (showUnit), what is in view with them.
function setPostTab(t, initial) {
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
  else if (!show && page.views.post && !initial) page.views.post.update();
}
function togglePostTab() { setPostTab(postTab === 'fusion' ? 'post' : 'fusion'); }

/// A new unit is shown: its fusion graph is drawn when its tab is.
function resetFusion() {
  fusion = null;
  var p = document.querySelector('[data-panel="fusion"]');
  if (p) p.textContent = '';
  setPostTab(postTab, true);
}

/// The groups: each node's box (its first kernel, or -1) and each
/// kernel's member nodes, the data-flow edges [from, to], and the links
/// [node, kernel] from a node to each kernel after its first (a node
/// computed in several kernels; tlp-emit --dot's dotted edges), with
/// each kernel's links (alsoOf).
function fusionModel(m) {
  var nodes = m.post.data.nodes, inputs = m.post.data.inputs || [];
  var owner = new Int32Array(nodes.length), members = m.kernels.map(function () { return []; });
  var also = [], alsoOf = m.kernels.map(function () { return []; });
  nodes.forEach(function (n, i) {
    var ks = n.kernels || [];
    owner[i] = ks.length ? ks[0] : -1;
    if (owner[i] >= 0) members[owner[i]].push(i);
    for (var j = 1; j < ks.length; ++j) { also.push([i, ks[j]]); alsoOf[ks[j]].push(i); }
  });
  var edges = [];
  inputs.forEach(function (ins, j) {
    (ins || []).forEach(function (i) { if (i >= 0 && i < nodes.length && i !== j) edges.push([i, j]); });
  });
  return { owner: owner, members: members, edges: edges, also: also, alsoOf: alsoOf };
}

/// A layered layout of boxes V ({w, h, order, up, down}) and edges E
/// ([u, v], u before v in order; the caller turns an edge that goes back
/// in order around): layers by longest path, then each box with users as
/// late as they allow (just above its first user); an edge over several
/// layers gets a lane (a dummy box FG_LANE wide) in each layer between,
/// a box marked up a lane in every layer above it (the way in from its
/// kernel's top), one marked down in every layer below it (the way out);
/// four barycenter sweeps order each layer; each box or lane then sits at
/// the mean of its neighbours, no closer than FG_GAP_X to the next (lanes
/// FG_LANE_GAP to each other). Returns top-left x, y per box, each
/// layer's top and height, the lanes' centres per edge (lanes[e]) and per
/// box (upLanes[v], downLanes[v]), and the width and height of the whole;
/// deterministic.
function layered(V, E) {
  var n = V.length, i, l, it;
  var ids = []; for (i = 0; i < n; ++i) ids.push(i);
  ids.sort(function (a, b) { return V[a].order - V[b].order || a - b; });
  var rank = []; ids.forEach(function (v, r) { rank[v] = r; });
  var preds = [], succs = [];
  for (i = 0; i < n; ++i) { preds.push([]); succs.push([]); }
  E.forEach(function (e) { preds[e[1]].push(e[0]); succs[e[0]].push(e[1]); });
  var layer = [];
  for (i = 0; i < n; ++i) layer.push(0);
  ids.forEach(function (v) {
    preds[v].forEach(function (u) { if (layer[u] + 1 > layer[v]) layer[v] = layer[u] + 1; });
  });
  // A weight's placeholder and permute beside the mm that uses them, not
  // in a first layer as wide as the model's parameters.
  for (var r = n - 1; r >= 0; --r) {
    var v = ids[r];
    if (!succs[v].length) continue;
    var lo = Infinity;
    succs[v].forEach(function (w) { if (layer[w] < lo) lo = layer[w]; });
    layer[v] = Math.max(layer[v], lo - 1);
  }
  var depth = 0;
  for (i = 0; i < n; ++i) if (layer[i] + 1 > depth) depth = layer[i] + 1;
  // The lanes: chains of dummies, each linked to its neighbours only.
  var W = V.map(function (b) { return b.w; }), layers = [], nb = [], up = [], dn = [];
  for (l = 0; l < depth; ++l) layers.push([]);
  ids.forEach(function (v) { layers[layer[v]].push(v); });
  for (i = 0; i < n; ++i) { up.push(preds[i].slice()); dn.push(succs[i].slice()); }
  function chain(u, v, l0, l1) { // lanes in layers l0 < l < l1 from u to v (-1: none)
    var prev = u, out = [];
    for (var k = l0 + 1; k < l1; ++k) {
      var d = W.length;
      W.push(FG_LANE); up.push(prev >= 0 ? [prev] : []); dn.push([]);
      if (prev >= 0) dn[prev].push(d);
      if (prev === u && u >= 0 && v >= 0) dn[u].splice(dn[u].indexOf(v), 1);
      layers[k].push(d); out.push(d); prev = d;
    }
    if (v >= 0 && prev !== u && prev >= 0) {
      dn[prev].push(v);
      if (u >= 0) up[v].splice(up[v].indexOf(u), 1, prev); else up[v].push(prev);
    }
    return out;
  }
  var laneIds = E.map(function (e) { return chain(e[0], e[1], layer[e[0]], layer[e[1]]); });
  var upIds = V.map(function (b, v) { return b.up ? chain(-1, v, -1, layer[v]) : []; });
  var downIds = V.map(function (b, v) { return b.down ? chain(v, -1, layer[v], depth) : []; });
  var N = W.length, pos = new Float64Array(N), rk = new Float64Array(N);
  for (i = 0; i < N; ++i) rk[i] = i < n ? rank[i] : n + i;
  function place(L) { L.forEach(function (v, k) { pos[v] = (k + 0.5) / L.length; }); }
  layers.forEach(place);
  var key = new Float64Array(N);
  function sweep(L, nbs) {
    L.forEach(function (v) {
      var a = nbs[v];
      if (!a.length) { key[v] = pos[v]; return; }
      var s = 0; a.forEach(function (u) { s += pos[u]; });
      key[v] = s / a.length;
    });
    L.sort(function (a, b) { return key[a] - key[b] || rk[a] - rk[b]; });
    place(L);
  }
  for (it = 0; it < 4; ++it) {
    if (it % 2 === 0) for (l = 1; l < depth; ++l) sweep(layers[l], up);
    else for (l = depth - 2; l >= 0; --l) sweep(layers[l], dn);
  }
  // Coordinates: centres, packed, then pulled to their neighbours.
  function gap(a, b) { return (W[a] + W[b]) / 2 + (a >= n && b >= n ? FG_LANE_GAP : FG_GAP_X); }
  var cx = new Float64Array(N);
  layers.forEach(function (L) {
    var x = 0;
    L.forEach(function (v, j) { if (j) x += gap(L[j - 1], v); cx[v] = x; });
    L.forEach(function (v) { cx[v] -= x / 2; });
  });
  function settle(L, nbs) {
    var k = L.length, d = new Float64Array(k), a = new Float64Array(k), b = new Float64Array(k), j;
    L.forEach(function (v, q) {
      var ns = nbs[v];
      if (!ns.length) { d[q] = cx[v]; return; }
      var s = 0; ns.forEach(function (u) { s += cx[u]; });
      d[q] = s / ns.length;
    });
    for (j = 0; j < k; ++j) a[j] = j ? Math.max(d[j], a[j - 1] + gap(L[j - 1], L[j])) : d[j];
    for (j = k - 1; j >= 0; --j) b[j] = j < k - 1 ? Math.min(d[j], b[j + 1] - gap(L[j], L[j + 1])) : d[j];
    for (j = 0; j < k; ++j) cx[L[j]] = (a[j] + b[j]) / 2;
  }
  for (it = 0; it < 4; ++it) {
    if (it % 2 === 0) for (l = 1; l < depth; ++l) settle(layers[l], up);
    else for (l = depth - 2; l >= 0; --l) settle(layers[l], dn);
  }
  var minX = Infinity, maxX = -Infinity, top = 0, tops = [], hs = [];
  for (i = 0; i < N; ++i) { minX = Math.min(minX, cx[i] - W[i] / 2); maxX = Math.max(maxX, cx[i] + W[i] / 2); }
  if (!N) minX = maxX = 0;
  var x = [], y = [];
  layers.forEach(function (L, q) {
    var h = 0;
    L.forEach(function (v) { if (v < n) h = Math.max(h, V[v].h); });
    tops.push(top); hs.push(h);
    top += h + FG_GAP_Y;
  });
  for (i = 0; i < n; ++i) { x.push(cx[i] - W[i] / 2 - minX); y.push(tops[layer[i]]); }
  function xs(a) { return a.map(function (d) { return cx[d] - minX; }); }
  return { x: x, y: y, layer: layer, tops: tops, hs: hs, lanes: laneIds.map(xs), upLanes: upIds.map(xs),
    downLanes: downIds.map(xs), w: maxX - minX, h: Math.max(0, top - FG_GAP_Y) };
}

function fgLabel(s, max) { s = String(s); return s.length > max ? s.slice(0, max - 1) + '…' : s; }
function fgNodeW(n, badge) { return Math.max(40, Math.min(26, n.name.length) * FG_CHAR + 12) + (badge ? FG_BADGE_W : 0); }

/// Lay out the unit's fusion graph with the kernels in \p collapsed shut:
/// every node's and kernel's box (world coordinates), and what is drawn
/// between them (links: data-flow edges, merged where a kernel is shut,
/// and the dashed links of a node to its other kernels), each routed
/// through lanes so that it crosses no box but its ends' (docs/html.md,
/// "The fusion graph").
function fusionLayout(m, F, collapsed) {
  var nodes = m.post.data.nodes;
  var boxes = [], boxOfNode = new Int32Array(nodes.length).fill(-1), boxOfKernel = new Map();
  var nodeAt = new Float64Array(nodes.length * 4); // x, y, w, h of drawn nodes
  var badge = new Int32Array(nodes.length);
  F.also.forEach(function (x) { ++badge[x[0]]; });
  nodes.forEach(function (n, i) {
    if (F.owner[i] >= 0) return;
    boxOfNode[i] = boxes.length;
    boxes.push({ kind: 'n', i: i, w: fgNodeW(n, badge[i]), h: FG_NODE_H, order: i });
  });
  F.members.forEach(function (mem, k) {
    var als = F.alsoOf[k];
    if (!mem.length && !als.length) return;
    boxOfKernel.set(k, boxes.length);
    mem.forEach(function (i) { boxOfNode[i] = boxes.length; });
    boxes.push({ kind: 'k', k: k, order: mem.length ? mem[0] : als[0] + 0.5, open: mem.length > 0 && !collapsed.has(k) });
  });
  // What is drawn, merged by its ends: nI a node, kR a kernel's box.
  function end(i) {
    var j = boxOfNode[i], b = boxes[j];
    if (b.kind === 'k' && !b.open) return { id: 'k' + b.k, box: j, node: -1 };
    return { id: 'n' + i, box: j, node: b.kind === 'k' ? i : -1 };
  }
  var drawn = new Map(), links = [];
  function add(a, b, cls) {
    if (a.id === b.id) return;
    var key = cls + a.id + ' ' + b.id, d = drawn.get(key);
    if (d) { ++d.count; return; }
    drawn.set(key, d = { from: a, to: b, count: 1, cls: cls });
    links.push(d);
  }
  F.edges.forEach(function (e) { add(end(e[0]), end(e[1]), 'e'); });
  F.also.forEach(function (x) {
    if (boxOfKernel.get(x[1]) !== boxOfNode[x[0]]) add(end(x[0]), { id: 'k' + x[1], box: boxOfKernel.get(x[1]), node: -1 }, 'also');
  });
  // Each link's upper and lower end (by the boxes' order, or the nodes'
  // inside one kernel); a node with a link out of its kernel below gets
  // a lane down to the kernel's bottom, one from above a lane from its top.
  var wayDown = new Uint8Array(nodes.length), wayUp = new Uint8Array(nodes.length);
  links.forEach(function (d) {
    var a = d.from, b = d.to, inside = a.box === b.box;
    d.rev = inside ? a.node > b.node : boxes[a.box].order > boxes[b.box].order;
    d.hi = d.rev ? b : a; d.lo = d.rev ? a : b;
    if (inside) return;
    if (d.hi.node >= 0) wayDown[d.hi.node] = 1;
    if (d.lo.node >= 0) wayUp[d.lo.node] = 1;
  });
  var inner = new Map(); // box -> its links between two of its nodes
  links.forEach(function (d) {
    if (d.hi.box !== d.lo.box) return;
    if (!inner.has(d.hi.box)) inner.set(d.hi.box, []);
    inner.get(d.hi.box).push(d);
  });
  boxes.forEach(function (b, j) {
    if (b.kind === 'n') return;
    var label = m.kernels[b.k].key;
    if (!b.open) {
      b.w = Math.min(Math.max(label.length, 12), 40) * FG_CHAR + 30;
      b.h = FG_KERNEL_H;
      return;
    }
    var mem = F.members[b.k], idx = new Map();
    mem.forEach(function (i, q) { idx.set(i, q); });
    var V = mem.map(function (i) { return { w: fgNodeW(nodes[i], badge[i]), h: FG_NODE_H, order: i, up: wayUp[i], down: wayDown[i] }; });
    var E = [];
    (inner.get(j) || []).forEach(function (d) { d.inner = E.length; E.push([idx.get(d.hi.node), idx.get(d.lo.node)]); });
    b.I = { lay: layered(V, E), V: V, idx: idx };
    b.w = Math.max(b.I.lay.w + 2 * FG_PAD, Math.min(label.length, 40) * FG_CHAR + 40);
    b.h = b.I.lay.h + 2 * FG_PAD + FG_HEAD;
  });
  var pairs = new Map(), OE = [];
  links.forEach(function (d) {
    if (d.hi.box === d.lo.box) return;
    var key = d.hi.box + ' ' + d.lo.box;
    if (!pairs.has(key)) { pairs.set(key, OE.length); OE.push([d.hi.box, d.lo.box]); }
    d.outer = pairs.get(key);
  });
  var lay = layered(boxes, OE);
  boxes.forEach(function (b, j) {
    b.x = lay.x[j]; b.y = lay.y[j];
    if (b.kind === 'n') { nodeAt.set([b.x, b.y, b.w, b.h], b.i * 4); return; }
    if (!b.open) return;
    var I = b.I;
    I.ox = b.x + (b.w - I.lay.w) / 2; I.oy = b.y + FG_HEAD + FG_PAD;
    F.members[b.k].forEach(function (i, q) {
      nodeAt.set([I.ox + I.lay.x[q], I.oy + I.lay.y[q], I.V[q].w, I.V[q].h], i * 4);
    });
  });
  // Routes: vertical runs [x, y0, y1] (down a box's own column below it,
  // or a lane), joined by curves in the free band between two layers.
  function band(I, l, dx, dy) { return [dx, dy + I.tops[l], dy + I.tops[l] + I.hs[l]]; }
  function lanes(I, xs, l0, ox, oy, out) { xs.forEach(function (x, j) { out.push(band(I, l0 + j, ox + x, oy)); }); }
  function nodeX(i) { return nodeAt[i * 4] + nodeAt[i * 4 + 2] / 2; }
  function down(e, out) { // from the upper end to the bottom of its box's layer
    var b = boxes[e.box], yEnd = lay.tops[lay.layer[e.box]] + lay.hs[lay.layer[e.box]];
    if (e.node < 0) { out.push([b.x + b.w / 2, b.y + b.h, yEnd]); return; }
    var I = b.I, q = I.idx.get(e.node), l = I.lay.layer[q];
    out.push([nodeX(e.node), nodeAt[e.node * 4 + 1] + FG_NODE_H, I.oy + I.lay.tops[l] + I.lay.hs[l]]);
    lanes(I.lay, I.lay.downLanes[q], l + 1, I.ox, I.oy, out);
    out[out.length - 1][2] = yEnd;
  }
  function up(e, out) { // from the top of the lower end's box to it
    var b = boxes[e.box], k = out.length;
    if (e.node < 0) { out.push([b.x + b.w / 2, b.y, b.y]); return; }
    var I = b.I, q = I.idx.get(e.node), y = nodeAt[e.node * 4 + 1];
    lanes(I.lay, I.lay.upLanes[q], 0, I.ox, I.oy, out);
    out.push([nodeX(e.node), y, y]);
    out[k][1] = b.y;
  }
  links.forEach(function (d) {
    var s = [];
    if (d.hi.box === d.lo.box) {
      var I = boxes[d.hi.box].I, q = I.idx.get(d.hi.node), l = I.lay.layer[q], i = d.hi.node, j = d.lo.node;
      s.push([nodeX(i), nodeAt[i * 4 + 1] + FG_NODE_H, I.oy + I.lay.tops[l] + I.lay.hs[l]]);
      lanes(I.lay, I.lay.lanes[d.inner], l + 1, I.ox, I.oy, s);
      s.push([nodeX(j), nodeAt[j * 4 + 1], nodeAt[j * 4 + 1]]);
    } else {
      down(d.hi, s);
      lanes(lay, lay.lanes[d.outer], lay.layer[d.hi.box] + 1, 0, 0, s);
      up(d.lo, s);
    }
    if (d.rev) s = s.reverse().map(function (r) { return [r[0], r[2], r[1]]; });
    d.runs = s;
  });
  return { boxes: boxes, boxOfKernel: boxOfKernel, boxOfNode: boxOfNode, nodeAt: nodeAt, badge: badge,
    edges: links, w: lay.w, h: lay.h };
}

/// The SVG path of edge \p e's runs [x, y0, y1] (data flows from the
/// first to the last).
function fgEdgeSVG(e) {
  var s = e.runs, f = function (v) { return v.toFixed(1); }, p = 'M' + f(s[0][0]) + ' ' + f(s[0][1]);
  s.forEach(function (r, j) {
    if (j) {
      var q = s[j - 1], mid = (q[2] + r[1]) / 2;
      p += r[0] === q[0] ? 'L' : 'C' + f(q[0]) + ' ' + f(mid) + ' ' + f(r[0]) + ' ' + f(mid) + ' ';
      p += f(r[0]) + ' ' + f(r[1]);
    }
    if (r[2] !== r[1]) p += 'L' + f(r[0]) + ' ' + f(r[2]);
  });
  return '<path class="' + e.cls + (e.rev ? ' back' : '') + '" data-from="' + e.from.id + '" data-to="' + e.to.id + '"' +
    (e.count > 1 ? ' data-count="' + e.count + '"' : '') + ' d="' + p + '"/>';
}
function fgNodeSVG(n, i, x, y, w, h, badge) {
  var lw = badge ? w - FG_BADGE_W : w;
  return '<g class="n op-' + esc(n.op) + (badge ? ' multi' : '') + '" data-n="' + i + '"><title>' +
    esc(qualified(n) + ' (' + n.op + ')' + (badge ? ', also in ' + plural(badge, 'other kernel') : '')) +
    '</title><rect x="' + x.toFixed(1) + '" y="' + y.toFixed(1) + '" width="' + w.toFixed(1) + '" height="' + h +
    '" rx="3"/><text x="' + (x + lw / 2).toFixed(1) + '" y="' + (y + h / 2 + 4).toFixed(1) + '">' +
    esc(fgLabel(n.name, 26)) + '</text>' + (badge ? '<text class="badge" x="' + (x + w - 4).toFixed(1) + '" y="' +
    (y + h / 2 + 4).toFixed(1) + '">+' + badge + '</text>' : '') + '</g>';
}

/// The bounds of each edge and box of the laid-out graph, to draw those
/// in view; their SVG (every text from the log escaped) is made when
/// first drawn (fusionPaint).
function fusionSVG(m, F, L) {
  L.edgeSVG = L.edges.map(function (e) {
    var b = { x0: Infinity, y0: Infinity, x1: -Infinity, y1: -Infinity, e: e, svg: null };
    e.runs.forEach(function (r) {
      b.x0 = Math.min(b.x0, r[0]); b.x1 = Math.max(b.x1, r[0]);
      b.y0 = Math.min(b.y0, r[1], r[2]); b.y1 = Math.max(b.y1, r[1], r[2]);
    });
    return b;
  });
  L.boxSVG = L.boxes.map(function (b) { return { x0: b.x, y0: b.y, x1: b.x + b.w, y1: b.y + b.h, b: b, svg: null }; });
}
function fusionBoxSVG(m, F, L, b, nodes) {
  if (b.kind === 'n') return fgNodeSVG(nodes[b.i], b.i, b.x, b.y, b.w, b.h, L.badge[b.i]);
  var out = [];
  var K = m.kernels[b.k], mem = F.members[b.k], als = F.alsoOf[b.k].length, tm = kernelTimeText(m, b.k);
  var what = plural(mem.length, 'node') + (als ? ', ' + als + ' shared' : '') + (tm ? ' · ' + tm : '');
  out.push('<g class="k kind-' + esc(K.kind) + (b.open ? '' : ' shut') + '" data-k="' + b.k + '"><title>' +
    esc('kernel ' + K.key + ': ' + plural(mem.length, 'post-grad node') + (als ? ' and ' + plural(als, 'node') + ' drawn in another kernel' : '') +
      (tm ? ', ' + tm : '') + (b.open || !mem.length ? '' : ' (double-click to expand)')) +
    '</title><rect class="kbox" x="' + b.x.toFixed(1) + '" y="' + b.y.toFixed(1) + '" width="' + b.w.toFixed(1) +
    '" height="' + b.h.toFixed(1) + '" rx="6" fill="hsl(' + hue(b.k) + ' 60% 55%)"/>' +
    '<text class="kt" x="' + (b.x + 10).toFixed(1) + '" y="' + (b.y + 14).toFixed(1) + '">' + (!mem.length ? '' : b.open ? '−' : '+') + '</text>' +
    '<text class="kl" x="' + (b.x + 22).toFixed(1) + '" y="' + (b.y + 14).toFixed(1) + '">' + esc(fgLabel(K.key, 40)) + '</text>');
  if (!b.open) {
    out.push('<text class="kn" x="' + (b.x + 22).toFixed(1) + '" y="' + (b.y + 28).toFixed(1) + '">' + esc(what) + '</text>');
  } else {
    mem.forEach(function (i) {
      var a = L.nodeAt;
      out.push(fgNodeSVG(nodes[i], i, a[i * 4], a[i * 4 + 1], a[i * 4 + 2], a[i * 4 + 3], L.badge[i]));
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
  var shown = F.members.filter(function (x, k) { return x.length || F.alsoOf[k].length; }).length;
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
  if (f.cardOf && f.cardOf !== 'k' + f.focus) fusionCard(null);
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
  f.L.edgeSVG.forEach(function (p) { if (inside(p)) out.push(p.svg || (p.svg = fgEdgeSVG(p.e))); });
  out.push('</g>');
  var nodes = f.m.post.data.nodes;
  f.L.boxSVG.forEach(function (p) { if (inside(p)) out.push(p.svg || (p.svg = fusionBoxSVG(f.m, f.F, f.L, p.b, nodes))); });
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
  fusionMarkFocus();
  f.ms.paint = performance.now() - t0;
}

/// The view moved: the new transform, and a new drawing when the view
/// leaves what was drawn (or zooms out of it).
function fusionApply() {
  var f = fusion, r = f.box.getBoundingClientRect();
  f.vp.setAttribute('transform', 'translate(' + f.tx.toFixed(2) + ' ' + f.ty.toFixed(2) + ') scale(' + f.s.toFixed(4) + ')');
  var p = f.painted, W = Math.max(r.width, 100) / f.s, H = Math.max(r.height, 100) / f.s;
  var x0 = -f.tx / f.s, y0 = -f.ty / f.s;
  if (!(p && x0 >= p.x0 && y0 >= p.y0 && x0 + W <= p.x1 && y0 + H <= p.y1 && f.s >= p.s / 2)) fusionPaint();
  if (f.cardOf) fusionCard(f.cardWhat, f.cardI, f.cardWhat === 'k' ? fgBoxOfKernel(f.cardI) : fgBoxOfNode(f.cardI));
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
/// Pan so that the world box (x, y, w, h) is in view (centred if not);
/// \p legible: zoomed in too when labels are too small to read.
function fusionReveal(x, y, w, h, legible) {
  var f = fusion, r = f.box.getBoundingClientRect();
  if (!r.width) return;
  var sx = x * f.s + f.tx, sy = y * f.s + f.ty;
  if (sx >= 0 && sy >= 0 && sx + w * f.s <= r.width && sy + h * f.s <= r.height && !(legible && f.s < 0.4)) return;
  if (f.s < 0.4) f.s = 0.8;
  f.tx = r.width / 2 - (x + w / 2) * f.s;
  f.ty = r.height / 2 - (y + h / 2) * f.s;
  fusionApply();
}

/// Expand or collapse kernel \p k, keeping its box where it was on screen.
function fusionToggle(k) {
  var f = fusion;
  if (!f || !f.L.boxOfKernel.has(k) || !f.F.members[k].length) return;
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
  box.addEventListener('pointerover', fusionHover);
  box.addEventListener('pointerleave', function () { if (fusion.cardOf !== 'k' + fusion.focus) fusionCard(null); });
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
    else if (ev.key === ']' || ev.key === '[') fusionFocus(ev.key === ']' ? 1 : -1);
    else if (ev.key === ' ' && f.focus !== undefined && f.focus !== null) {
      selection.select(kernelItem(f.m, f.focus), { scrollAll: true });
    } else if (ev.key === 'Escape' && f.focus !== undefined && f.focus !== null) {
      f.focus = null;
      fusionMarkFocus();
      fusionCard(null);
    } else if (ev.key === 'Enter' || ev.key === ' ') {
      var it = selection.selected(), k = null;
      if (f.focus !== undefined && f.focus !== null) k = f.focus;
      else if (it && it.kind === 'kernel') k = it.rows[0];
      else if (it && it.kind === 'post') k = f.F.owner[it.index];
      if (k !== null && k >= 0) fusionToggle(k);
    } else return;
    ev.preventDefault();
    ev.stopPropagation();
  });
}

/// The card of a node ('n', its index) or a kernel ('k', its row): lines
/// of text from the page's data (name, op and target, kernels, the type
/// and shape its line of the post-grad graph gives, the time when a
/// profile gives one), put in as text, never as markup.
/// A profile's time of kernel ('k') or post-grad node ('n') \p i as text
/// for the card, or null (time.js; no profile: null).
function fusionTime(m, what, i) {
  if (what === 'k') return kernelTimeText(m, i) || null;
  var t = unitTime(m, page.unit), e = t && t.post.get(i);
  return e ? fmtMs(e[1]) + ', its share of ' + plural(e[2], 'kernel') : null;
}
function fusionCardLines(m, what, i) {
  var F = fusion.F, out = [];
  function ks(list) { return list.map(function (k) { return m.kernels[k].key; }).join(', '); }
  if (what === 'n') {
    var n = m.post.data.nodes[i], ops = (m.d.ops || [])[n.ops], ty = /^\s*[\w.]+: "([^"]*)" =/.exec(m.post.lines[n.line - 1] || '');
    out.push(qualified(n));
    out.push(n.op + (ops && ops.length ? ' ' + ops[0] : ''));
    if (n.kernels && n.kernels.length) {
      out.push('kernel ' + m.kernels[n.kernels[0]].key);
      if (n.kernels.length > 1) out.push('also in ' + ks(n.kernels.slice(1)));
    } else out.push('no kernel');
    if (ty) out.push(ty[1]);
  } else {
    var K = m.kernels[i], mem = F.members[i], als = F.alsoOf[i];
    out.push(K.key);
    out.push(K.kind + ' kernel, ' + plural(mem.length, 'post-grad node') + (als.length ? ', ' + als.length + ' more drawn in other kernels' : ''));
    if (mem.length) out.push(fgLabel(mem.slice(0, 6).map(function (q) { return m.post.data.nodes[q].name; }).join(', ') + (mem.length > 6 ? ', …' : ''), 200));
  }
  var t = fusionTime(m, what, i);
  if (t) out.push('time ' + t);
  return out;
}
/// Show the card of \p what / \p i by the world box (x, y, w, h); none
/// when \p what is null.
function fusionCard(what, i, at) {
  var f = fusion, c = f.card;
  if (!what) { if (c) c.hidden = true; f.cardOf = null; return; }
  if (!c) { c = f.card = make('div', 'fusion-card'); c.setAttribute('role', 'status'); f.box.appendChild(c); }
  f.cardOf = what + i; f.cardWhat = what; f.cardI = i;
  c.textContent = '';
  fusionCardLines(f.m, what, i).forEach(function (s, j) { c.appendChild(make('div', j ? '' : 't', s)); });
  c.hidden = false;
  var r = f.box.getBoundingClientRect(), x = at[0] * f.s + f.tx, y = (at[1] + at[3]) * f.s + f.ty + 6;
  if (y + c.offsetHeight > r.height) y = Math.max(0, at[1] * f.s + f.ty - c.offsetHeight - 6);
  c.style.left = Math.max(0, Math.min(x, r.width - c.offsetWidth)).toFixed(0) + 'px';
  c.style.top = Math.max(0, y).toFixed(0) + 'px';
}
function fgBoxOfKernel(k) { var b = fusion.L.boxes[fusion.L.boxOfKernel.get(k)]; return [b.x, b.y, b.w, b.h]; }
function fgBoxOfNode(i) { var a = fusion.L.nodeAt; return [a[i * 4], a[i * 4 + 1], a[i * 4 + 2], a[i * 4 + 3]]; }

/// The keyboard's focus in the graph: ] / [ the next / previous kernel
/// (by row; from the selected one), shown (focus mark, card, panned to);
/// Enter expands or collapses it, Space selects it.
function fusionFocus(step) {
  var f = fusion, rows = Array.from(f.L.boxOfKernel.keys()).sort(function (a, b) { return a - b; });
  if (!rows.length) return;
  var cur = f.focus, it = selection.selected();
  if (cur === undefined || cur === null) cur = it && it.kind === 'kernel' ? it.rows[0] : it && it.kind === 'post' ? f.F.owner[it.index] : null;
  var j = rows.indexOf(cur);
  j = j < 0 ? (step > 0 ? 0 : rows.length - 1) : (j + step + rows.length) % rows.length;
  f.focus = rows[j];
  var at = fgBoxOfKernel(f.focus);
  fusionReveal(at[0], at[1], at[2], at[3], true);
  fusionMarkFocus();
  fusionCard('k', f.focus, at);
}
function fusionMarkFocus() {
  var f = fusion;
  if (f.focusEl) f.focusEl.classList.remove('focus');
  f.focusEl = f.focus !== null && f.focus !== undefined ? f.kernelEl.get(f.focus) : null;
  if (f.focusEl) f.focusEl.classList.add('focus');
}
/// The pointer over a node or a kernel's box: its card.
function fusionHover(ev) {
  var f = fusion, n = ev.target.closest('g.n'), k = ev.target.closest('g.k');
  if (n) { if (f.cardOf !== 'n' + n.dataset.n) fusionCard('n', Number(n.dataset.n), fgBoxOfNode(Number(n.dataset.n))); }
  else if (k) { if (f.cardOf !== 'k' + k.dataset.k) fusionCard('k', Number(k.dataset.k), fgBoxOfKernel(Number(k.dataset.k))); }
  else if (f.focus === null || f.focus === undefined) fusionCard(null);
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
    focus: f.focus === undefined ? null : f.focus, card: f.card && !f.card.hidden ? Array.from(f.card.children).map(function (e) { return e.textContent; }).join('\n') : null,
    links: f.F.also.length,
    scale: f.s, tx: f.tx, ty: f.ty, w: f.L.w, h: f.L.h, ms: f.ms
  };
}
