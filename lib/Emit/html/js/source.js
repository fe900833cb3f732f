// source.js: the user source panel: the lines of user code the unit's
// nodes and kernels name, by file.

function sourceView(panel, m) {
  var s = m.source;
  panel.textContent = '';
  panelHead(panel, 'user source', null,
    plural(s.rows.length - 1 - s.files, 'line') + ' in ' + plural(s.files, 'file'));
  if (s.rows.length === 1) {
    noneNote(panel, 'no user source lines: the graphs have no "# File:" comments and there are no kernel stack traces');
    return null;
  }
  return new LineView(panel, {
    count: s.rows.length - 1,
    maxLine: s.rows.reduce(function (a, r) { return r && !r.header ? Math.max(a, r.line) : a; }, 0),
    html: function (i) {
      var r = s.rows[i];
      if (r.header) return esc(r.header);
      return esc(r.code || '') + (r.fn ? '<span class="fn">  (' + esc(r.fn) + ')</span>' : '');
    },
    colour: function (i) {
      var r = s.rows[i];
      if (r.header) return esc(r.header);
      return colourLine(r.code || '', 'py', null, false).html + (r.fn ? '<span class="fn">  (' + esc(r.fn) + ')</span>' : '');
    },
    line: function (i) { return s.rows[i].header ? null : s.rows[i].line; },
    attrs: function (i) { var r = s.rows[i]; return r.header ? '' : ' data-file="' + esc(r.file) + '"'; },
    cls: function (i) { return s.rows[i].header ? 'file' : 'linked'; },
    time: sourceTime(m)
  });
}
