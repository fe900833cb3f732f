// panels.js: the unit shown and its five panels (the views), and what the
// selection and the hover look like in them: the counterparts of the
// selected item highlighted in every panel and scrolled to.

/// The unit shown: its id, its model and its panels' LineViews (null for a
/// panel the unit lacks). Only showUnit() and showOverview() change it.
var page = {
  unit: null, // current unit id
  m: null,
  views: {}
};

/// Build the chunks in view of every panel (after a resize or a fold).
function updateViews() {
  PANELS.forEach(function (p) { if (page.views[p]) page.views[p].update(); });
  fusionResized();
}

/// Show unit \p id: its panels built anew, nothing selected; false if the
/// page does not carry it.
function showUnit(id) {
  var m = unitModel(id);
  if (!m) return false;
  page.unit = id;
  page.m = m;
  selection.reset();
  resetGroups();
  $('overview') && ($('overview').hidden = true);
  $('panels').hidden = false;
  $('details').hidden = false;
  var sel = $('unit-select');
  if (sel) sel.value = id;
  var d = m.d;
  var facts = '<b>' + esc(d.name) + '</b>';
  // Back to the unit's compile in the dashboard (its row in the index).
  if (d.compile)
    facts += ' · <a id="compile-link" href="' + (mode === 'single' ? '#' : 'index.html#') +
      esc(d.compile) + '" title="this compile in the dashboard">compile ' +
      esc(d.compile_name || d.compile_id || d.compile) + '</a>';
  // The compile's other artifacts, shown raw (raw.js).
  if (d.raw)
    facts += ' · <a id="raw-link" href="' + (mode === 'single' ? '#raw-' + esc(d.raw[0]) : 'raw-' + esc(d.raw[0]) + '.html') +
      '" title="what the compile logged that tlp shows raw">artifacts (' + d.raw[1] + ')</a>';
  // A depyf dump's pass timeline and files (a page of their own).
  if (d.timeline)
    facts += ' · <a id="timeline-link" href="' + (mode === 'single' ? '#timeline-' + esc(d.timeline[0]) : 'timeline-' + esc(d.timeline[0]) + '.html') +
      '" title="the graph stage after stage, and what each pass changed">pass timeline (' + d.timeline[1] + ')</a>';
  if (d.frame) facts += ' · ' + esc(d.frame[0] + ':' + d.frame[1] + ' in ' + d.frame[2]);
  var cv = d.coverage;
  function pct(x) { return x[1] ? x[0] + '/' + x[1] : '-'; }
  facts += ' · linked: pre-grad ' + pct(cv.pre_grad) + ', post-grad ' + pct(cv.post_grad);
  // Post-grad nodes whose pre-grad node the mapping names, with no
  // pre-grad graph to show it (a cache hit).
  if (cv.post_grad[2])
    facts += ' <span title="not linked: the provenance mapping names their pre-grad node, but the unit has no pre-grad graph (an AOTAutograd cache hit logs none)">(+' +
      cv.post_grad[2] + ' by pre-grad name only)</span>';
  facts += ', kernels ' + pct(cv.kernels);
  if (d.discarded) facts += ' · <b class="discarded" title="' + esc(d.discarded) + '">discarded attempt</b>';
  if (!hasMapping(d)) facts += ' · <b>no provenance mapping</b>';
  var inferred = inferredCount(d);
  if (inferred) facts += ' · ' + plural(inferred, 'inferred link') + ' (dashed)';
  if (d.log) facts += ' · log <code>' + esc(d.log.replace(/^.*[\\/]/, '')) + '</code>';
  $('unit-facts').innerHTML = facts;
  $('unit-facts').title = d.log;
  document.title = 'tlp: ' + d.name;
  page.views = {};
  function panel(p) { return document.querySelector('[data-panel="' + p + '"]'); }
  page.views.pre = graphView(panel('pre'), m, 'pre');
  page.views.post = graphView(panel('post'), m, 'post');
  page.views.code = codeView(panel('code'), m, 'code');
  page.views.kernel = m.kernel ? codeView(panel('kernel'), m, 'kernel') : null;
  if (!m.kernel) panel('kernel').textContent = '';
  page.views.source = sourceView(panel('source'), m);
  // The wrapper opens at its entry function (call / run_impl), where the
  // launches are.
  PANELS.forEach(function (p) {
    var v = page.views[p];
    if (!v) return;
    if (p === 'code' && d.code.entry) v.top(d.code.entry[0], true);
    else if (p !== 'kernel') v.update(true);
  });
  setCodeTab('code', true);
  resetFusion();
  $('code-tabs').hidden = !m.kernel;
  jumpBack = null;
  applyFolds();
  applyColours();
  renderDetails();
  return true;
}

/// Show the overview (the dashboard) of a single page instead of a unit.
function showOverview() {
  var o = $('overview');
  if (!o) return;
  o.hidden = false;
  $('panels').hidden = true;
  $('details').hidden = true;
  $('unit-select').value = '';
  page.unit = null;
  $('unit-facts').textContent = '';
}

/// Mark \p item's counterparts in every panel: \p markName 'hl' (the
/// selection: also hl-def, inf and sel) or 'hover'.
function highlight(item, markName) {
  var m = page.m;
  var c = item ? counterparts(m, item) : emptyParts();
  var infEnds = item && markName !== 'hover' ? inferredEnds(m, itemEnds(m, item)) : null;
  var infRows = infEnds ? endRows(m, infEnds) : null;
  PANELS.forEach(function (p) {
    var v = page.views[p];
    if (!v) return;
    if (markName === 'hover') {
      var h = new Set(c[p]);
      if (p === 'code') c.codeDef.forEach(function (l) { h.add(l); });
      v.mark('hover', h);
      return;
    }
    v.mark('hl', c[p]);
    v.mark('hl-def', p === 'code' ? c.codeDef : new Set());
    var inf = new Set();
    var keep = function (r) { if (c[p].has(r) || (p === 'code' && c.codeDef.has(r))) inf.add(r); };
    if (infRows) infRows[p].forEach(keep);
    if (infRows && p === 'code') infRows.codeDef.forEach(keep);
    v.mark('inf', inf);
    v.mark('sel', item && item.panel === p && item.row ? new Set([item.row]) : new Set());
  });
  return c;
}

/// The selection in the panels (a listener of the selection): the
/// counterparts highlighted, and every other panel (with opts.scrollAll,
/// the item's own too) scrolled to them unless some are in view; the code
/// column shows the AOT kernel file when only it has the item.
function showSelection(item, opts) {
  holdColours();
  var geo = {};
  PANELS.forEach(function (p) { if (page.views[p]) geo[p] = page.views[p].geometry(); });
  var c = highlight(item, 'hl');
  if (item) {
    PANELS.forEach(function (p) {
      var v = page.views[p];
      if (!v || (p === item.panel && !opts.scrollAll)) return;
      var rows = Array.from(c[p]);
      if (p === 'code' && !rows.length) rows = Array.from(c.codeDef);
      if (!rows.length) return;
      if (p === item.panel && item.row) rows = [item.row];
      if (rows.some(function (r) { return v.isVisible(r, geo[p]); })) return;
      v.reveal(Math.min.apply(null, rows), geo[p]);
    });
    if (item.panel === 'kernel' && codeTab !== 'kernel' && !c.code.size) setCodeTab('kernel');
  }
  if (page.m.kernel) setCodeTab(codeTab);
}

/// The hovered item's counterparts, marked "hover" (a listener of the
/// selection's hover).
function showHover(item) {
  highlight(item, 'hover');
}
