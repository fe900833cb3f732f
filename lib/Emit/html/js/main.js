// main.js: the wiring: the views subscribe to the selection, the page's
// events lead to the modules, window.tlp for tests and scripts; then the
// page starts (init()).

function viewOf(el) {
  var sec = el.closest('[data-panel]');
  return sec ? sec.dataset.panel : null;
}
/// A click selects what a row stands for (nothing: clears), a double click
/// on a kernel's line jumps, the pointer over a row hovers it.
function onPanelEvent(ev, kind) {
  var r = ev.target.closest('.r');
  if (!r || !page.m) return;
  var p = viewOf(r), v = page.views[p];
  if (!v) return;
  var item = itemAt(page.m, p, v.rowOf(r));
  if (kind === 'click') selection.select(item);
  else if (kind === 'dblclick') { if (item && item.kind === 'kernel') jump(); }
  else selection.hover(item);
}

function init() {
  initRaw();
  // A compile's artifacts page: no panels.
  if (mode === 'raw') return;
  loadUnits();
  // The views of the selection, told in this order: the panels, the
  // drawer, the URL fragment.
  selection.onSelect(showSelection);
  selection.onSelect(fusionShowSelection);
  selection.onSelect(showSelectionDetails);
  selection.onSelect(writeHash);
  selection.onHover(showHover);
  var sel = $('unit-select');
  if (mode === 'single') {
    var o = make('option', '', 'overview: all units');
    o.value = '';
    sel.appendChild(o);
  }
  units.forEach(function (u) {
    var o = make('option', '', u.name);
    o.value = u.id;
    sel.appendChild(o);
  });
  sel.addEventListener('change', function () {
    var id = sel.value;
    if (mode === 'unit') {
      var u = findUnit(id);
      if (u && u.file && !u.el) location.href = encodeURI(u.file);
      return;
    }
    location.hash = id ? 'unit=' + encodeURIComponent(id) : 'overview';
    sel.blur(); // so that the keys work at once
  });
  if (mode === 'single') $('home').href = '#overview';
  var main = $('panels');
  main.addEventListener('click', function (ev) { onPanelEvent(ev, 'click'); });
  main.addEventListener('dblclick', function (ev) { onPanelEvent(ev, 'dblclick'); });
  main.addEventListener('mouseover', function (ev) { onPanelEvent(ev, 'hover'); });
  main.addEventListener('mouseleave', function () { selection.hover(null); });
  dividers();
  document.addEventListener('keydown', onKey);
  $('colour-toggle').addEventListener('click', toggleColours);
  $('filter-open').addEventListener('click', openFilter);
  $('help-open').addEventListener('click', toggleHelp);
  $('theme-toggle').addEventListener('click', toggleTheme);
  showTheme();
  $('filter-input').addEventListener('input', runFilter);
  $('search-open').addEventListener('click', openSearch);
  $('search-input').addEventListener('input', runSearch);
  $('search-next').addEventListener('click', function () { stepSearch(1); });
  $('search-prev').addEventListener('click', function () { stepSearch(-1); });
  window.addEventListener('hashchange', function () { if (!writingHash) readHash(); });
  window.addEventListener('resize', updateViews);
  readHash();
  // Ready once the first frame with the panels is painted.
  requestAnimationFrame(function () {
    setTimeout(function () {
      window.tlp.readyAt = performance.now();
      document.body.dataset.ready = '1';
      colours.enabled = true;
      scheduleColour();
    }, 0);
  });
}

// For tests and scripts: reveal(panel, line) scrolls a row into view
// (building it); select(ref) selects by fragment reference; clear();
// unit() is the unit shown, data() its data; selectMs what the last
// selection took; fusion() the fusion graph drawn (fusion.js), postTab(t)
// shows the post-grad column's tab.
window.tlp = {
  reveal: function (panel, line) {
    var v = page.views[panel];
    if (!v) return false;
    if (panel === 'code' || panel === 'kernel') setCodeTab(panel);
    v.reveal(line, null, true);
    return true;
  },
  select: function (ref) {
    var it = page.m && parseRef(page.m, ref);
    if (it) selection.select(it, { scrollAll: true });
    return !!it;
  },
  clear: function () { selection.clear(); },
  jump: jump,
  colourNow: colourNow,
  colourPending: function () { return colours.queue.length; },
  unit: function () { return page.unit; },
  data: function () { return page.m && page.m.d; },
  get selectMs() { return selection.ms; },
  fusion: fusionState,
  postTab: setPostTab
};

init();
