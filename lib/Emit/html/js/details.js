// details.js: the details drawer: its tabs (the selection, the kernel
// table of kernels.js, what is not linked, the links) and the chips that
// select what they name.

var drawerTab = 'selection'; // the drawer's tab shown
function chip(m, item, cls) {
  var b = make('span', 'chip' + (cls ? ' ' + cls : ''), itemLabel(m, item));
  b.addEventListener('click', function () { selection.select(item, { scrollAll: true }); });
  return b;
}
function chips(parent, m, items, cls) {
  if (!items.length) { parent.appendChild(document.createTextNode('none')); return; }
  items.slice(0, 500).forEach(function (it) { parent.appendChild(chip(m, it, cls)); });
  if (items.length > 500) parent.appendChild(document.createTextNode(' … ' + (items.length - 500) + ' more'));
}
function dl(parent, pairs) {
  var d = make('dl');
  pairs.forEach(function (p) {
    d.appendChild(make('dt', '', p[0]));
    var dd = make('dd');
    if (typeof p[1] === 'function') p[1](dd); else dd.textContent = p[1];
    d.appendChild(dd);
  });
  parent.appendChild(d);
}
function srcText(m, s) {
  var x = m.d.sources[s];
  return x[0] + ':' + x[1] + ' in ' + x[2] + (x[3] ? ': ' + x[3] : '') +
    (x[5] ? '  (underlined: ' + underlined(x) + ')' : '');
}
/// The part of a source entry's code its kernel stack trace underlined
/// (x[5], [begin, end) in the code; absent when the trace had none).
function underlined(x) { return x[5] ? (x[3] || '').slice(x[5][0], x[5][1]) : ''; }
function excerptPre(lines, range, max) {
  var out = [], last = Math.min(range[1], range[0] + max - 1);
  var w = String(last).length;
  for (var l = range[0]; l <= last; ++l) {
    var n = String(l);
    out.push(' '.repeat(w - n.length) + n + '  ' + lines[l - 1]);
  }
  if (last < range[1]) out.push('… ' + (range[1] - last) + ' more lines');
  return make('pre', '', out.join('\n'));
}
function infoText(info) {
  try { return JSON.stringify(JSON.parse(info), null, 2); } catch (e) { return info; }
}

/// One edge as a drawer row: the other end (a chip that selects it),
/// the edge's origin and confidence; inferred edges dashed.
function edgeRow(m, e, from, to) {
  var div = make('div', 'edge' + (e.conf < 100 ? ' inferred' : ''));
  div.dataset.origin = e.origin;
  div.dataset.confidence = String(e.conf);
  [from, to].forEach(function (k, j) {
    if (k === null) return;
    if (j && from !== null) div.appendChild(document.createTextNode(' → '));
    var it = endItem(m, k);
    var c = make('span', 'chip' + (e.conf < 100 ? ' inf' : ''), endLabel(m, k));
    if (it) c.addEventListener('click', function () { selection.select(it, { scrollAll: true }); });
    div.appendChild(c);
  });
  div.appendChild(make('span', 'origin', ' ' + e.origin + ', ' + e.conf + '%' + (e.conf < 100 ? ' (inferred)' : '')));
  return div;
}
/// The edges of \p ends (the selection), each with the other end.
/// A scan of the flat lists, not the index: a selection in a unit of
/// 40,000 edges costs a millisecond, not the index's 100.
function edgeList(dd, m, ends) {
  var mine = new Set(ends), rows = [];
  (m.d.edges || []).forEach(function (g) {
    var f = g[2];
    for (var i = 0; i + 3 < f.length; i += 4) {
      var from = endKey(f[i], f[i + 1]), to = endKey(f[i + 2], f[i + 3]);
      var inTo = mine.has(to), inFrom = mine.has(from);
      if (!inTo && !inFrom) continue;
      var e = { from: from, to: to, origin: g[0], conf: g[1] };
      if (inTo) rows.push([e, from, null]);
      if (inFrom) rows.push([e, null, to]);
    }
  });
  rows.sort(function (a, b) { return (a[1] === null) - (b[1] === null); });
  if (!rows.length) { dd.textContent = 'none'; return; }
  rows.slice(0, 300).forEach(function (r) {
    var div = edgeRow(m, r[0], r[1], r[2]);
    div.insertBefore(document.createTextNode(r[1] === null ? '→ ' : '← '), div.firstChild);
    dd.appendChild(div);
  });
  if (rows.length > 300) dd.appendChild(document.createTextNode('… ' + (rows.length - 300) + ' more'));
}
function jumpButton(parent, K, it) {
  var toDef = !atDefinition(K, it);
  if (toDef ? !(K.def_begin || K.kernel_def_begin) : !K.calls.length) return;
  var b = make('button', 'jump-button', toDef ? 'go to definition (d)' : 'back to launch (d)');
  b.type = 'button';
  b.addEventListener('click', function () { jump(); });
  parent.appendChild(b);
}

/// The scheduler nodes (ir_post_fusion.txt) kernel row \p k runs: for
/// each, the nodes it fused, the nodes before fusion it came from, the
/// buffers it reads and writes, and each fused node's post-grad nodes
/// (d.scheduler: [name, class, fused, reads, writes, kernel row, how,
/// pre-fusion names or null, [[fused node, post-grad nodes, how, why
/// unknown]]]).
function schedulerRows(m, k) {
  var rows = [];
  function postName(i) { return m.post ? qualified(m.post.data.nodes[i]) : '#' + i; }
  (m.d.scheduler || []).forEach(function (n) {
    if (n[5] !== k) return;
    rows.push(['scheduler node ' + n[0], function (dd) {
      dd.appendChild(make('div', '', n[1] + (n[2].length ? ' fusing ' + n[2].join(', ') : '') + ' (found by ' + n[6] + ')'));
      if (n[7]) dd.appendChild(make('div', '', 'before fusion ' + (n[7].join(', ') || 'not in ir_pre_fusion.txt')));
      dd.appendChild(make('div', '', 'reads ' + (n[3].join(', ') || 'nothing')));
      dd.appendChild(make('div', '', 'writes ' + (n[4].join(', ') || 'nothing')));
      (n[8] || []).forEach(function (s) {
        dd.appendChild(make('div', '', s[0] + ': ' + (s[3] !== null ? 'post-grad nodes unknown (' + s[3] + ')' :
          s[1].map(postName).join(', ') + ' (' + s[2] + ')')));
      });
    }]);
  });
  return rows;
}
function detailsSelection(body) {
  var m = page.m, it = selection.selected();
  if (!it) {
    body.appendChild(make('p', 'none', 'Click a bold line to select it and its counterparts in every panel; hover to preview. ' +
      'n / p step through the kernel groups, / finds a node or kernel, d jumps from a launch to its definition and back, ' +
      'c colours each kernel group, t switches the theme, Esc clears. Dashed: reached only through inferred links.'));
    return;
  }
  if (it.kind === 'kernel') {
    it.rows.forEach(function (k) {
      var K = m.kernels[k];
      body.appendChild(make('h3', '', 'kernel ' + K.key));
      jumpButton(body, K, it);
      dl(body, [
        ['kind', K.kind + (K.in_mapping ? '' : ' (not in the provenance mapping)')],
        ['calls', K.calls.length ? 'line ' + K.calls.join(', ') : 'none'],
        ['post-grad nodes', function (dd) { chips(dd, m, K.post.map(function (i) { return nodeItem(m, 'post', i); })); }],
        ['pre-grad nodes', function (dd) { chips(dd, m, K.pre.map(function (i) { return nodeItem(m, 'pre', i); })); }],
        ['user source', function (dd) {
          if (!K.sources.length) { dd.textContent = 'none'; return; }
          K.sources.forEach(function (s) {
            var r = m.source.rowOf.get(s[0]);
            var c = make('span', 'chip', srcText(m, s[0]) + '  [' + s[1] + ']');
            c.addEventListener('click', function () { selection.select({ kind: 'src', row: r, panel: 'source' }, { scrollAll: true }); });
            dd.appendChild(c);
            dd.appendChild(make('br'));
          });
        }],
        ['links', function (dd) { edgeList(dd, m, [endKey(2, k)]); }]
      ].concat(schedulerRows(m, k)));
      if (K.def && m.code) {
        body.appendChild(make('h4', '', 'definition (wrapper lines ' + K.def[0] + '-' + K.def[1] + ')'));
        body.appendChild(excerptPre(m.code.lines, K.def, 400));
      }
      if (K.kernel_def && m.kernel) {
        body.appendChild(make('h4', '', 'definition (kernel file lines ' + K.kernel_def[0] + '-' + K.kernel_def[1] + ')'));
        body.appendChild(excerptPre(m.kernel.lines, K.kernel_def, 400));
      }
      if (K.info !== null) {
        body.appendChild(make('h4', '', 'triton_kernel_info (autotuning)'));
        body.appendChild(make('pre', '', infoText(K.info)));
      }
    });
    return;
  }
  if (it.kind === 'pre' || it.kind === 'post') {
    var g = m[it.kind], n = g.data.nodes[it.index], other = it.kind === 'pre' ? 'post' : 'pre';
    body.appendChild(make('h3', '', (it.kind === 'pre' ? 'pre-grad node ' : 'post-grad node ') + qualified(n)));
    var kernels = (n.kernels || []).map(function (k) { return kernelItem(m, k); });
    var links = (n.links || []).map(function (i) { return nodeItem(m, other, i); });
    dl(body, [
      ['op', n.op], ['line ' + n.line, (g.lines[n.line - 1] || '').trim()],
      [other === 'post' ? 'post-grad nodes' : 'pre-grad nodes', function (dd) { chips(dd, m, links); }],
      ['kernels', function (dd) { chips(dd, m, kernels, 'k'); }],
      ['user source', n.source !== undefined ? srcText(m, n.source) : 'none'],
      ['links', function (dd) { edgeList(dd, m, itemEnds(m, it)); }]
    ]);
    if (!links.length && !kernels.length)
      body.appendChild(make('p', 'none', 'Mapped to nothing: fused away, constant-folded, dead, or not covered by the provenance data.'));
    return;
  }
  var row = m.source.rows[it.row];
  body.appendChild(make('h3', '', row.file + ':' + row.line));
  var ks = new Set(), pre = new Set(), post = new Set();
  row.srcs.forEach(function (s) {
    (m.source.kernels.get(s) || []).forEach(function (k) { ks.add(k); });
    (m.source.pre.get(s) || []).forEach(function (k) { pre.add(k); });
    (m.source.post.get(s) || []).forEach(function (k) { post.add(k); });
  });
  // The calls of the line that kernel stack traces underline, each with
  // its kernels (entries with a span; the C++ kernelsOfSource).
  var calls = new Map();
  row.srcs.forEach(function (s) {
    var x = m.d.sources[s];
    if (!x[5]) return;
    var key = x[5][0] + '-' + x[5][1], c = calls.get(key);
    if (!c) calls.set(key, c = { b: x[5][0], e: x[5][1], text: underlined(x), ks: new Set() });
    (x[4] || []).forEach(function (k) { c.ks.add(k); });
  });
  var callPairs = Array.from(calls.values()).sort(function (a, b) { return a.b - b.b || a.e - b.e; })
    .map(function (c) {
      return [c.text + '  (characters ' + (c.b + 1) + '-' + c.e + ')', function (dd) {
        chips(dd, m, Array.from(c.ks).map(function (k) { return kernelItem(m, k); }), 'k');
      }];
    });
  if (callPairs.length) callPairs.unshift(['calls (underlined by the kernels\' stack traces)', '']);
  dl(body, [
    ['code', row.code || ''], ['function', row.fn || ''],
    ['kernels', function (dd) { chips(dd, m, Array.from(ks).map(function (k) { return kernelItem(m, k); }), 'k'); }]
  ].concat(callPairs, [
    ['pre-grad nodes', function (dd) { chips(dd, m, Array.from(pre).map(function (i) { return nodeItem(m, 'pre', i); })); }],
    ['post-grad nodes', function (dd) { chips(dd, m, Array.from(post).map(function (i) { return nodeItem(m, 'post', i); })); }]
  ]));
}

/// True if the log had node mappings for the unit (any version, or the
/// older separate artifacts); without, links come from code comments.
function hasMapping(d) {
  return d.provenance.some(function (p) { return p[0] === 'mapping' || p[0] === 'node_tree' || p[0] === 'kernel_nodes'; });
}
function unlinkedCount(m) {
  var u = m.d.unlinked;
  return u.pre.length + u.post.length + u.kernels_without_nodes.length + u.kernels_without_source.length;
}
function detailsUnlinked(body) {
  var m = page.m, u = m.d.unlinked;
  body.appendChild(make('p', 'none', 'What provenance does not cover, so that a missing highlight is not mistaken for a link. ' +
    'Nodes count when they compute (not placeholders, attributes or the output).'));
  if (!hasMapping(m.d))
    body.appendChild(make('p', 'note', 'This unit has no provenance mapping in the log, so links come only from the comments ' +
      'Inductor writes into the generated code and graphs. Run with INDUCTOR_PROVENANCE=1 (and TORCH_TRACE) to get ' +
      'inductor_provenance_tracking_node_mappings.'));
  m.d.provenance.forEach(function (p) {
    body.appendChild(make('p', 'none', 'provenance from ' + p[1] + ' (log line ' + p[2] + ')'));
  });
  function section(title, items, cls) {
    body.appendChild(make('h4', '', title + ' (' + items.length + ')'));
    var p = make('div');
    chips(p, m, items, cls);
    body.appendChild(p);
  }
  section('pre-grad nodes mapped to nothing', u.pre.map(function (i) { return nodeItem(m, 'pre', i); }));
  section('post-grad nodes mapped to nothing', u.post.map(function (i) { return nodeItem(m, 'post', i); }));
  section('kernels with no graph node', u.kernels_without_nodes.map(function (k) { return kernelItem(m, k); }), 'k');
  section('kernels with no user source', u.kernels_without_source.map(function (k) { return kernelItem(m, k); }), 'k');
}

/// The links tab: the unit's edges by origin and confidence, then every
/// inferred edge with its confidence.
function detailsLinks(body) {
  var m = page.m, E = edgeModel(m);
  body.appendChild(make('p', 'none', 'Where each link comes from: the provenance mapping and the comments and stack ' +
    'traces PyTorch writes (100%), or inferred from shared source lines and op names (less; drawn dashed). ' +
    'See docs/inference.md.'));
  var t = make('table', 'kernels');
  t.id = 'edge-origins';
  t.innerHTML = '<thead><tr><th>origin</th><th>confidence</th><th>links</th></tr></thead>';
  var tb = make('tbody');
  (m.d.edges || []).forEach(function (g) {
    var tr = make('tr', g[1] < 100 ? 'inferred' : '');
    tr.innerHTML = '<td>' + esc(g[0]) + '</td><td>' + g[1] + '%</td><td>' + g[2].length / 4 + '</td>';
    tb.appendChild(tr);
  });
  t.appendChild(tb);
  body.appendChild(t);
  var inf = E.list.filter(function (e) { return e.conf < 100; });
  body.appendChild(make('h4', '', 'inferred links (' + inf.length + ')'));
  inf.slice(0, 500).forEach(function (e) { body.appendChild(edgeRow(m, e, e.from, e.to)); });
  if (inf.length > 500) body.appendChild(make('p', 'none', '… ' + (inf.length - 500) + ' more'));
}

/// The selection in the drawer (a listener of the selection): its tab.
function showSelectionDetails() {
  drawerTab = 'selection';
  renderDetails();
}

function renderDetails() {
  var m = page.m;
  if (!m) return;
  var tabs = $('details-tabs'), body = $('details-body');
  tabs.innerHTML = '';
  [['selection', 'selection'], ['kernels', 'kernels (' + m.kernels.length + ')'],
    ['unlinked', 'not linked (' + unlinkedCount(m) + ')'],
    ['links', 'links (' + (m.d.edges || []).reduce(function (a, g) { return a + g[2].length / 4; }, 0) + ')']].forEach(function (t) {
    var b = make('button', '', t[1]);
    b.type = 'button';
    b.dataset.tab = t[0];
    b.setAttribute('aria-selected', String(drawerTab === t[0]));
    b.addEventListener('click', function () { drawerTab = t[0]; renderDetails(); });
    tabs.appendChild(b);
  });
  tabs.appendChild(foldButton('details'));
  body.textContent = '';
  body.dataset.tab = drawerTab;
  if (drawerTab === 'kernels') detailsKernels(body);
  else if (drawerTab === 'unlinked') detailsUnlinked(body);
  else if (drawerTab === 'links') detailsLinks(body);
  else detailsSelection(body);
}
