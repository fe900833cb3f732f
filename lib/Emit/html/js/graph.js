// graph.js: the pre-grad and post-grad graph panels.

function graphView(panel, m, kind) {
  var g = m[kind];
  var title = kind === 'pre' ? 'pre-grad graph' : 'post-grad graph';
  panel.textContent = '';
  if (!g) {
    panelHead(panel, title);
    noneNote(panel, 'no ' + title + ' in this unit');
    return null;
  }
  var linked = new Set();
  g.data.nodes.forEach(function (n) {
    if ((n.links && n.links.length) || (n.kernels && n.kernels.length)) linked.add(n.line);
  });
  panelHead(panel, title, g.data, plural(g.data.nodes.length, 'node'));
  var col = new Colourer(g.lines, 'py'), lines = g.lines;
  return new LineView(panel, {
    count: g.lines.length,
    html: function (i) { return esc(lines[i - 1]); },
    colour: function (i) { return col.html(i); },
    line: function (i) { return i; },
    attrs: function (i) {
      var n = g.nodeAt.get(i);
      if (n === undefined) return '';
      var ks = g.data.nodes[n].kernels;
      return ks.length ? note('kernels', ks.map(function (k) { return m.kernels[k].key; })) : '';
    },
    cls: function (i) { return linked.has(i) ? 'linked' : (isComment(g.lines[i - 1]) ? 'c' : ''); },
    time: graphTime(m, kind)
  });
}
