// search.js: the search (f, Ctrl+F): full text over every panel, in the
// data, so rows not built yet are found too; n / N of matches, Enter /
// Shift+Enter or the arrows go to the next / previous (revealing and
// building it). Its matches are marks (found, found-cur), not a selection.

var search = { hits: [], cur: -1, q: '' };
/// The text of each panel's rows, lower case, made once per unit.
function searchText(m, p) {
  m.lower = m.lower || {};
  if (m.lower[p]) return m.lower[p];
  var t;
  if (p === 'source') {
    t = m.source.rows.slice(1).map(function (r) { return (r.header || (r.code || '') + '  (' + (r.fn || '') + ')').toLowerCase(); });
  } else {
    t = m[p] ? m[p].lines.map(function (l) { return l.toLowerCase(); }) : [];
  }
  return (m.lower[p] = t);
}
function runSearch() {
  var m = page.m, q = $('search-input').value.toLowerCase();
  search.q = q;
  search.hits = [];
  search.cur = -1;
  var per = {};
  PANELS.forEach(function (p) {
    per[p] = new Set();
    if (!q || !page.views[p]) return;
    var t = searchText(m, p);
    for (var i = 0; i < t.length; ++i)
      if (t[i].indexOf(q) >= 0) { search.hits.push([p, i + 1]); per[p].add(i + 1); }
  });
  PANELS.forEach(function (p) {
    var v = page.views[p];
    if (!v) return;
    v.query = q;
    v.mark('found', per[p]);
    v.mark('found-cur', new Set());
  });
  showSearchCount();
}
function showSearchCount() {
  var n = search.hits.length;
  $('search-count').textContent = !search.q ? '' : n ? (search.cur < 0 ? n + ' lines' : (search.cur + 1) + ' / ' + n) : 'no match';
}
function stepSearch(d) {
  var n = search.hits.length;
  if (!n) return;
  search.cur = search.cur < 0 ? (d > 0 ? 0 : n - 1) : (search.cur + d + n) % n;
  var h = search.hits[search.cur], p = h[0];
  PANELS.forEach(function (x) { if (page.views[x] && x !== p) page.views[x].mark('found-cur', new Set()); });
  if ((p === 'code' || p === 'kernel') && page.m.kernel) setCodeTab(p);
  var v = page.views[p];
  v.reveal(h[1], null, true);
  v.mark('found-cur', new Set([h[1]]));
  showSearchCount();
}
function openSearch() {
  if (!page.m) return;
  $('search').hidden = false;
  var inp = $('search-input');
  inp.focus();
  inp.select();
}
function closeSearch() {
  $('search').hidden = true;
  $('search-input').blur();
  $('search-input').value = '';
  runSearch();
}
