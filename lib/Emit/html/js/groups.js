// groups.js: the kernel groups: n / p step the selection through them,
// c colours each (a hue per kernel on its rows in every panel).

var kernelGroups = { list: null, at: -1 }; // the unit's groups; the one n / p selected last
var groupColours = false; // c: colour the groups

/// Forget the groups (another unit is shown) and where n / p were.
function resetGroups() {
  kernelGroups.list = null;
  kernelGroups.at = -1;
}
/// n / p start again from the first / last group (after Escape).
function restartGroups() { kernelGroups.at = -1; }

// Groups: kernels with a counterpart, in table order, then linked
// pre-grad nodes that went into no kernel.
function groupList() {
  if (kernelGroups.list) return kernelGroups.list;
  var m = page.m, g = [];
  m.kernels.forEach(function (k, i) {
    if (k.post.length || k.pre.length || k.sources.length) g.push(kernelItem(m, i));
  });
  if (m.pre) m.pre.data.nodes.forEach(function (n, i) {
    if (n.links && n.links.length && !(n.kernels && n.kernels.length)) g.push(nodeItem(m, 'pre', i));
  });
  return (kernelGroups.list = g);
}
function step(delta) {
  var g = groupList();
  if (!g.length) return;
  if (kernelGroups.at < 0) kernelGroups.at = delta > 0 ? 0 : g.length - 1;
  else kernelGroups.at = (kernelGroups.at + delta + g.length) % g.length;
  selection.select(g[kernelGroups.at], { scrollAll: true });
}

function toggleColours() {
  groupColours = !groupColours;
  applyColours();
}
function applyColours() {
  var m = page.m;
  $('colour-toggle').setAttribute('aria-pressed', String(groupColours));
  var arrays = {};
  PANELS.forEach(function (p) {
    var v = page.views[p];
    if (v) arrays[p] = groupColours ? new Int16Array(v.spec.count + 1) : null;
  });
  if (groupColours) {
    var put = function (p, row, k) { var a = arrays[p]; if (a && row > 0 && row < a.length && !a[row]) a[row] = hue(k) + 1; };
    m.kernels.forEach(function (K, k) {
      if (!(K.post.length || K.pre.length || K.sources.length)) return;
      K.calls.forEach(function (l) { put('code', l, k); });
      if (K.def) for (var l = K.def[0]; l <= K.def[1]; ++l) put('code', l, k);
      if (K.kernel_def) for (var l2 = K.kernel_def[0]; l2 <= K.kernel_def[1]; ++l2) put('kernel', l2, k);
      if (m.pre) K.pre.forEach(function (i) { put('pre', m.pre.data.nodes[i].line, k); });
      if (m.post) K.post.forEach(function (i) { put('post', m.post.data.nodes[i].line, k); });
      K.sources.forEach(function (s) { put('source', m.source.rowOf.get(s[0]), k); });
    });
  }
  PANELS.forEach(function (p) { if (page.views[p]) page.views[p].setGroups(arrays[p]); });
}
