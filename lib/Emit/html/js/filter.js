// filter.js: the filter (/): find a node, kernel, op or source line by
// name, and select it.

var filter = { entries: null, results: [], active: 0 };
/// What the filter finds: kernels by name, nodes by name and by the
/// names of their op (the unit's "ops", from tlp's targetAliases():
/// aten.sigmoid, torch.sigmoid, sigmoid), user source lines by their
/// text, as tlp-emit --node does.
function filterEntries() {
  var m = page.m, e = [], ops = m.d.ops || [];
  m.kernels.forEach(function (k, i) { e.push({ label: k.key, keys: [k.name], what: 'kernel', item: kernelItem(m, i) }); });
  ['pre', 'post'].forEach(function (p) {
    if (m[p]) m[p].data.nodes.forEach(function (n, i) {
      var al = n.ops >= 0 ? ops[n.ops] || [] : [];
      e.push({ label: qualified(n), keys: al, what: p + '-grad ' + n.op + (al.length ? ' ' + al[0] : ''),
        item: nodeItem(m, p, i) });
    });
  });
  for (var r = 1; r < m.source.rows.length; ++r) {
    var row = m.source.rows[r];
    if (row.header) continue;
    e.push({ label: row.file.split('/').pop() + ':' + row.line, keys: [], text: row.code || '', what: 'source',
      item: { kind: 'src', row: r, panel: 'source' } });
  }
  e.forEach(function (x, i) {
    x.order = i;
    x.lower = x.label.toLowerCase();
    x.lkeys = x.keys.map(function (k) { return k.toLowerCase(); });
    if (x.text) x.ltext = x.text.toLowerCase();
  });
  return e;
}
/// How well entry \p x matches \p q (lower case): 0 its name, 1 an op
/// name, 2 a name that starts with q, 3 a name or op holding q, 4 source
/// text holding q; -1 no match.
function filterScore(x, q) {
  if (!q) return 3;
  if (x.lower === q) return 0;
  if (x.lkeys.indexOf(q) >= 0) return 1;
  if (x.lower.startsWith(q)) return 2;
  if (x.lower.indexOf(q) >= 0 || x.lkeys.some(function (k) { return k.indexOf(q) >= 0; })) return 3;
  if (x.ltext && x.ltext.indexOf(q) >= 0) return 4;
  return -1;
}
/// Levenshtein distance, at most \p max + 1.
function editDistance(a, b, max) {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  var prev = [], cur = [];
  for (var j = 0; j <= b.length; ++j) prev[j] = j;
  for (var i = 1; i <= a.length; ++i) {
    cur = [i];
    var best = i;
    for (var k = 1; k <= b.length; ++k) {
      cur[k] = Math.min(prev[k] + 1, cur[k - 1] + 1, prev[k - 1] + (a[i - 1] === b[k - 1] ? 0 : 1));
      best = Math.min(best, cur[k]);
    }
    if (best > max) return max + 1;
    prev = cur;
  }
  return prev[b.length];
}
/// Names close to \p q when nothing matched (as tlp-emit --node says).
function suggestions(q) {
  var max = Math.max(2, Math.floor(q.length / 3)), seen = new Set(), out = [];
  filter.entries.forEach(function (x) {
    [x.label].concat(x.keys).forEach(function (n) {
      var l = n.toLowerCase();
      if (seen.has(l)) return;
      seen.add(l);
      var d = editDistance(l, q, max);
      if (d <= max) out.push([d, n]);
    });
  });
  out.sort(function (a, b) { return a[0] - b[0] || (a[1] < b[1] ? -1 : 1); });
  return out.slice(0, 5).map(function (x) { return x[1]; });
}
function openFilter() {
  if (!page.m) return;
  filter.entries = filter.entries && filter.unit === page.unit ? filter.entries : filterEntries();
  filter.unit = page.unit;
  $('filter').hidden = false;
  var inp = $('filter-input');
  inp.value = '';
  runFilter();
  inp.focus();
}
function closeFilter() {
  $('filter').hidden = true;
  $('filter-input').blur(); // so that the keys work at once
}
function runFilter() {
  var q = $('filter-input').value.trim().toLowerCase(), hits = [];
  for (var i = 0; i < filter.entries.length; ++i) {
    var s = filterScore(filter.entries[i], q);
    if (s >= 0) hits.push([s, filter.entries[i]]);
  }
  hits.sort(function (a, b) { return a[0] - b[0] || a[1].order - b[1].order; });
  var out = hits.slice(0, 200).map(function (h) { return h[1]; });
  filter.results = out;
  filter.active = 0;
  var ol = $('filter-results');
  ol.innerHTML = '';
  $('filter-count').textContent = q ? plural(hits.length, 'match', 'matches') + (hits.length > 200 ? ', the first 200 shown' : '') : '';
  if (q && !hits.length) {
    var close = suggestions(q);
    var li = make('li', 'none', 'no node, kernel, op or source line matches \'' + q + '\'' +
      (close.length ? '; did you mean ' + close.map(function (c) { return '\'' + c + '\''; }).join(', ') + '?' : ''));
    ol.appendChild(li);
    return;
  }
  out.forEach(function (x, j) {
    var li = make('li', j === 0 ? 'active' : '');
    li.innerHTML = esc(x.label) + ' <span class="muted">' + esc(x.what) + '</span>' +
      (x.text ? ' <span class="muted">' + esc(x.text) + '</span>' : '');
    li.addEventListener('click', function () { pickFilter(j); });
    ol.appendChild(li);
  });
}
function pickFilter(j) {
  var x = filter.results[j];
  closeFilter();
  if (x) selection.select(x.item, { scrollAll: true });
}
function moveFilter(d) {
  var lis = $('filter-results').children;
  if (!lis.length) return;
  lis[filter.active].className = '';
  filter.active = (filter.active + d + lis.length) % lis.length;
  lis[filter.active].className = 'active';
  lis[filter.active].scrollIntoView({ block: 'nearest' });
}
