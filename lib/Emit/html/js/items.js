// items.js: items and their counterparts. An item is what a row stands
// for: a node, kernels (a call or a definition), or a user source line;
// the selection is one (selection.js). Also an item's fragment reference
// (kernel:KEY, pre:NAME, ...), the URL's and window.tlp.select's.
function emptyParts() {
  var c = {};
  PANELS.forEach(function (p) { c[p] = new Set(); });
  c.codeDef = new Set();
  return c;
}
function nodeLines(g, idx, set) {
  if (g) idx.forEach(function (i) { set.add(g.data.nodes[i].line); });
}
function addKernel(m, c, k, full) {
  var K = m.kernels[k];
  K.calls.forEach(function (l) { c.code.add(l); });
  if (K.def_begin) c.codeDef.add(K.def_begin);
  if (K.kernel_def_begin) c.kernel.add(K.kernel_def_begin);
  if (!full) return;
  nodeLines(m.pre, K.pre, c.pre);
  nodeLines(m.post, K.post, c.post);
  K.sources.forEach(function (s) { var r = m.source.rowOf.get(s[0]); if (r) c.source.add(r); });
}
function counterparts(m, item) {
  var c = emptyParts();
  if (item.kind === 'kernel') {
    item.rows.forEach(function (k) { addKernel(m, c, k, true); });
  } else if (item.kind === 'pre' || item.kind === 'post') {
    var g = m[item.kind], other = m[item.kind === 'pre' ? 'post' : 'pre'];
    var n = g.data.nodes[item.index];
    c[item.kind].add(n.line);
    nodeLines(other, n.links || [], c[item.kind === 'pre' ? 'post' : 'pre']);
    (n.kernels || []).forEach(function (k) { addKernel(m, c, k, false); });
    if (n.source !== undefined) { var r = m.source.rowOf.get(n.source); if (r) c.source.add(r); }
  } else if (item.kind === 'src') {
    c.source.add(item.row);
    var row = m.source.rows[item.row];
    row.srcs.forEach(function (s) {
      nodeLines(m.pre, m.source.pre.get(s) || [], c.pre);
      nodeLines(m.post, m.source.post.get(s) || [], c.post);
      (m.source.kernels.get(s) || []).forEach(function (k) { addKernel(m, c, k, false); });
    });
  }
  return c;
}
function itemAt(m, panel, row) {
  if (panel === 'pre' || panel === 'post') {
    var g = m[panel];
    if (!g || !g.nodeAt.has(row)) return null;
    return { kind: panel, index: g.nodeAt.get(row), panel: panel, row: row };
  }
  if (panel === 'code' || panel === 'kernel') {
    var ks = m[panel] && kernelsAt(m[panel], row);
    return ks ? { kind: 'kernel', rows: ks, panel: panel, row: row } : null;
  }
  if (panel === 'source') {
    var r = m.source.rows[row];
    return r && !r.header ? { kind: 'src', row: row, panel: panel } : null;
  }
  return null;
}
function kernelItem(m, k) {
  var K = m.kernels[k];
  var panel = K.calls.length || K.def_begin ? 'code' : 'kernel';
  return { kind: 'kernel', rows: [k], panel: panel,
    row: K.calls[0] || K.def_begin || K.kernel_def_begin || 0 };
}
function nodeItem(m, kind, i) {
  return { kind: kind, index: i, panel: kind, row: m[kind].data.nodes[i].line };
}
function itemLabel(m, item) {
  if (item.kind === 'kernel') return item.rows.map(function (k) { return m.kernels[k].key; }).join(', ');
  if (item.kind === 'pre' || item.kind === 'post') return qualified(m[item.kind].data.nodes[item.index]);
  var r = m.source.rows[item.row];
  return r.file + ':' + r.line;
}
/// The fragment form of an item: kernel:KEY, pre:NAME, post:NAME,
/// src:FILE:LINE, or line:PANEL:N.
function itemRef(m, item) {
  if (item.kind === 'kernel' && item.rows.length === 1 &&
      m.kernelByKey.get(m.kernels[item.rows[0]].key) === item.rows[0])
    return 'kernel:' + m.kernels[item.rows[0]].key;
  if (item.kind === 'pre' || item.kind === 'post') return item.kind + ':' + itemLabel(m, item);
  if (item.kind === 'src') return 'src:' + itemLabel(m, item);
  return 'line:' + item.panel + ':' + item.row;
}
function parseRef(m, ref) {
  var i = ref.indexOf(':');
  if (i < 0) return null;
  var kind = ref.slice(0, i), rest = ref.slice(i + 1);
  if (kind === 'kernel') {
    var k = m.kernelByKey.get(rest);
    return k === undefined ? null : kernelItem(m, k);
  }
  if (kind === 'pre' || kind === 'post') {
    // A fragment may name a graph the unit lacks (an old link, a hand
    // edit): nothing to select.
    var g = m[kind], n = g ? g.byName.get(rest) : undefined;
    return n === undefined ? null : nodeItem(m, kind, n);
  }
  if (kind === 'src') {
    var j = rest.lastIndexOf(':');
    var file = rest.slice(0, j), line = Number(rest.slice(j + 1));
    for (var r = 1; r < m.source.rows.length; ++r) {
      var row = m.source.rows[r];
      if (!row.header && row.file === file && row.line === line) return { kind: 'src', row: r, panel: 'source' };
    }
    return null;
  }
  if (kind === 'line') {
    var p = rest.split(':');
    return itemAt(m, p[0], Number(p[1]));
  }
  return null;
}
