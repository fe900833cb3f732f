// hash.js: navigation by the URL fragment: #unit=ID&sel=REF (a unit of a
// single page, and the selection), #overview (the dashboard) or
// #compile-ID (a compile's row of the dashboard). The fragment follows
// the selection (a listener of the selection) and, when it is changed
// from outside (a link, the address bar, the unit selector), leads it.

var writingHash = false;
/// The fragment of the unit shown and the selection (a listener of the
/// selection), without adding to the history.
function writeHash() {
  var p = new URLSearchParams();
  if (mode === 'single' && page.unit) p.set('unit', page.unit);
  var item = selection.selected();
  if (item) p.set('sel', itemRef(page.m, item));
  var h = p.toString();
  var url = location.pathname + location.search + (h ? '#' + h : '');
  writingHash = true;
  history.replaceState(null, '', url);
  writingHash = false;
}
/// Show what the fragment names: the dashboard, or a unit and the item it
/// selects (a fragment without one clears the selection).
function readHash() {
  var h = location.hash.slice(1);
  if (h === 'overview') { showOverview(); return; }
  // A place in the overview: a compile of the dashboard (#compile-0-1), its
  // guards, metrics or artifacts (#raw-0-1, opened).
  var at = h && !/[=&]/.test(h) && document.getElementById(h);
  if (at && at.closest('#overview')) {
    showOverview();
    if (at.tagName === 'DETAILS') at.open = true;
    at.scrollIntoView();
    return;
  }
  var p = new URLSearchParams(h);
  var id = p.get('unit');
  if (!id || !hasUnit(id))
    id = page.unit || firstUnit();
  if (!id) { showOverview(); return; }
  if (id !== page.unit) showUnit(id);
  var ref = p.get('sel');
  var item = ref ? parseRef(page.m, ref) : null;
  if (item) selection.select(item, { scrollAll: true });
  else if (selection.selected()) selection.clear();
}
