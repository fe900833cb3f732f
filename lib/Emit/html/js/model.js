// model.js: the unit model: a unit's data (the JSON the page carries)
// plus the lookups the panels need, and its edges.
function splitLines(text) { return text.split('\n'); }
function isComment(line) {
  var t = line.trimStart();
  return t.startsWith('#') || t.startsWith('//');
}
function qualified(n) { return n.scope ? n.scope + '.' + n.name : n.name; }

/// Nodes come as [name, line, op, source or -1, links, kernels, scope?].
function graphModel(g) {
  if (!g) return null;
  g.nodes = g.nodes.map(function (a) {
    var n = { name: a[0], line: a[1], op: a[2], links: a[4], kernels: a[5], ops: a[6] };
    if (a[3] >= 0) n.source = a[3];
    if (a.length > 7) n.scope = a[7];
    return n;
  });
  var m = { data: g, lines: splitLines(g.text), nodeAt: new Map(), byName: new Map() };
  g.nodes.forEach(function (n, i) {
    if (!m.nodeAt.has(n.line)) m.nodeAt.set(n.line, i);
    var q = qualified(n);
    if (!m.byName.has(q)) m.byName.set(q, i);
  });
  return m;
}

function codeModel(c, kernels, defKey) {
  if (!c) return null;
  var m = { data: c, lines: splitLines(c.text), calls: new Map(), ranges: [] };
  // Definitions, by first line; several kernel rows can share one.
  var byRange = new Map();
  kernels.forEach(function (k, i) {
    var d = k[defKey];
    if (!d) return;
    var key = d[0] + '-' + d[1], r = byRange.get(key);
    if (!r) { r = { b: d[0], e: d[1], ks: [] }; byRange.set(key, r); m.ranges.push(r); }
    r.ks.push(i);
  });
  m.ranges.sort(function (x, y) { return x.b - y.b; });
  // A call line stands for its kernel alone.
  if (defKey === 'def')
    kernels.forEach(function (k, i) { k.calls.forEach(function (l) { m.calls.set(l, [i]); }); });
  return m;
}
/// The kernel rows a code line stands for: a call, or a line inside a
/// definition; undefined for other lines.
function kernelsAt(cm, row) {
  var c = cm.calls.get(row);
  if (c) return c;
  var lo = 0, hi = cm.ranges.length - 1, hit = null;
  while (lo <= hi) {
    var mid = (lo + hi) >> 1;
    if (cm.ranges[mid].b <= row) { hit = cm.ranges[mid]; lo = mid + 1; } else hi = mid - 1;
  }
  return hit && row <= hit.e ? hit.ks : undefined;
}

function sourceModel(d) {
  var byFile = new Map();
  d.sources.forEach(function (s, i) {
    var f = byFile.get(s[0]);
    if (!f) byFile.set(s[0], f = new Map());
    var r = f.get(s[1]);
    if (!r) f.set(s[1], r = { file: s[0], line: s[1], fn: s[2], code: s[3], srcs: [] });
    r.srcs.push(i);
  });
  var rows = [null], rowOf = new Map(), files = Array.from(byFile.keys()).sort();
  files.forEach(function (f) {
    rows.push({ header: f });
    Array.from(byFile.get(f).values()).sort(function (a, b) { return a.line - b.line; })
      .forEach(function (r) {
        rows.push(r);
        r.srcs.forEach(function (s) { rowOf.set(s, rows.length - 1); });
      });
  });
  var pre = new Map(), post = new Map(), ker = new Map();
  function push(map, key, v) { var a = map.get(key); if (!a) map.set(key, a = []); a.push(v); }
  if (d.pre) d.pre.nodes.forEach(function (n, i) { if (n.source !== undefined) push(pre, n.source, i); });
  if (d.post) d.post.nodes.forEach(function (n, i) { if (n.source !== undefined) push(post, n.source, i); });
  // The kernels of each line come with it (kernelsOfSource in C++): edges
  // to the line and the kernels of its pre-grad and post-grad nodes.
  d.sources.forEach(function (s, i) { (s[4] || []).forEach(function (k) { push(ker, i, k); }); });
  return { rows: rows, rowOf: rowOf, files: files.length, pre: pre, post: post, kernels: ker };
}

// Edges, with their origin and confidence: d.edges is a list of
// [origin, confidence, [from kind, from index, to kind, to index, ...]]
// (kinds 0 pre, 1 post, 2 kernel, 3 source). Indexed on first use.
var END_KINDS = ['pre', 'post', 'kernel', 'source'];
function endKey(kind, index) { return kind * 16777216 + index; }
function inferredCount(d) {
  return (d.edges || []).reduce(function (a, g) { return a + (g[1] < 100 ? g[2].length / 4 : 0); }, 0);
}
function edgeModel(m) {
  if (m.edges) return m.edges;
  var E = { list: [], out: new Map(), into: new Map(), inferred: 0 };
  function push(map, k, e) { var a = map.get(k); if (!a) map.set(k, a = []); a.push(e); }
  (m.d.edges || []).forEach(function (g) {
    var f = g[2];
    for (var i = 0; i + 3 < f.length; i += 4) {
      var e = { from: endKey(f[i], f[i + 1]), to: endKey(f[i + 2], f[i + 3]), origin: g[0], conf: g[1] };
      E.list.push(e);
      push(E.out, e.from, e);
      push(E.into, e.to, e);
      if (e.conf < 100) ++E.inferred;
    }
  });
  return (m.edges = E);
}
/// The ends reached from \p starts only through some inferred edge:
/// downstream (pre -> post -> kernel -> source) and upstream apart, as
/// the counterparts are; null when the unit has no inferred edge.
function inferredEnds(m, starts) {
  if (!inferredCount(m.d)) return null; // before indexing every edge
  var E = edgeModel(m);
  var res = new Set();
  [['out', 'to'], ['into', 'from']].forEach(function (dir) {
    function walk(sure) {
      var seen = new Set(starts), todo = starts.slice();
      while (todo.length) {
        (E[dir[0]].get(todo.pop()) || []).forEach(function (e) {
          var k = e[dir[1]];
          if ((sure && e.conf < 100) || seen.has(k)) return;
          seen.add(k);
          todo.push(k);
        });
      }
      return seen;
    }
    var sure = walk(true);
    walk(false).forEach(function (k) { if (!sure.has(k)) res.add(k); });
  });
  return res;
}
function endLabel(m, k) {
  var kind = Math.floor(k / 16777216), i = k % 16777216;
  if (kind === 0 || kind === 1) {
    var g = m[END_KINDS[kind]];
    return (kind ? 'post:' : 'pre:') + (g && g.data.nodes[i] ? qualified(g.data.nodes[i]) : '#' + i);
  }
  if (kind === 2) return 'kernel:' + (m.kernels[i] ? m.kernels[i].key : '#' + i);
  var s = m.d.sources[i];
  return 'source:' + (s ? s[0] + ':' + s[1] : '#' + i);
}
/// The item an edge end stands for, to select it from a chip.
function endItem(m, k) {
  var kind = Math.floor(k / 16777216), i = k % 16777216;
  if ((kind === 0 || kind === 1) && m[END_KINDS[kind]] && m[END_KINDS[kind]].data.nodes[i])
    return nodeItem(m, END_KINDS[kind], i);
  if (kind === 2 && m.kernels[i]) return kernelItem(m, i);
  if (kind === 3 && m.source.rowOf.has(i)) return { kind: 'src', row: m.source.rowOf.get(i), panel: 'source' };
  return null;
}
/// The edge ends an item stands for.
function itemEnds(m, item) {
  if (item.kind === 'kernel') return item.rows.map(function (k) { return endKey(2, k); });
  if (item.kind === 'pre' || item.kind === 'post') return [endKey(item.kind === 'pre' ? 0 : 1, item.index)];
  return m.source.rows[item.row].srcs.map(function (s) { return endKey(3, s); });
}
/// Rows, per panel, of the ends in \p ends.
function endRows(m, ends) {
  var c = emptyParts();
  ends.forEach(function (k) {
    var kind = Math.floor(k / 16777216), i = k % 16777216;
    if (kind === 0 || kind === 1) {
      var g = m[END_KINDS[kind]];
      if (g && g.data.nodes[i]) c[END_KINDS[kind]].add(g.data.nodes[i].line);
    } else if (kind === 2 && m.kernels[i]) {
      addKernel(m, c, i, false);
    } else if (kind === 3 && m.source.rowOf.has(i)) c.source.add(m.source.rowOf.get(i));
  });
  return c;
}

function buildModel(d) {
  var m = { d: d, kernels: d.kernels };
  m.pre = graphModel(d.pre);
  m.post = graphModel(d.post);
  m.code = codeModel(d.code, d.kernels, 'def');
  m.kernel = codeModel(d.kernel_code, d.kernels, 'kernel_def');
  m.source = sourceModel(d);
  m.kernelByKey = new Map();
  d.kernels.forEach(function (k, i) { if (!m.kernelByKey.has(k.key)) m.kernelByKey.set(k.key, i); });
  return m;
}
