// time.js: measured time on the unit page (tlp-emit --profile;
// docs/html.md, "Time on the unit page"): a time column in every panel,
// each row's figure in milliseconds (three significant digits) on a heat
// background scaled to the unit's largest figure of that panel; rows
// without time stay blank. The figures (docs/profile.md's join and
// sharing rule) are the page's profile data: profile.js
// (window.TLP_PROFILE) in a directory, the <script type="application/json"
// id="tlp-profile"> block of a single page. Everything from the trace or
// the log is text: escaped, never markup.

var timeUnits = null; // Map unit id -> its times, once read

/// Whether the page carries a profile (the time column is shown then,
/// blank for a unit without time).
function hasProfile() {
  return !!(window.TLP_PROFILE || $('tlp-profile'));
}
function readProfile() {
  if (timeUnits) return timeUnits;
  timeUnits = new Map();
  var d = window.TLP_PROFILE;
  if (!d && $('tlp-profile')) {
    try { d = JSON.parse($('tlp-profile').textContent); } catch (e) { d = null; }
  }
  if (d && Array.isArray(d.units))
    d.units.forEach(function (u) {
      if (Array.isArray(u) && typeof u[0] === 'string' && u[1]) timeUnits.set(u[0], u[1]);
    });
  return timeUnits;
}

/// The times of unit \p id (model \p m), by row of each panel, or null
/// without a profile: kernel: row -> {calls, total, self, share};
/// post, pre: node index -> [ns, kernels]; line: "file:line" -> [ns,
/// kernels]; max: the largest figure of each.
function unitTime(m, id) {
  if (m.time !== undefined) return m.time;
  var t = null;
  if (hasProfile()) {
    var u = readProfile().get(id) || {};
    t = { kernel: new Map(), post: new Map(), pre: new Map(), line: new Map(),
      max: { kernel: 0, post: 0, pre: 0, line: 0 } };
    (u.kernels || []).forEach(function (k) {
      t.kernel.set(k[0], { calls: k[1], total: k[2], self: k[3], share: k[4] });
      t.max.kernel = Math.max(t.max.kernel, k[2]);
    });
    ['post', 'pre', 'line'].forEach(function (p) {
      (u[p === 'line' ? 'lines' : p] || []).forEach(function (e) {
        t[p].set(e[0], e);
        t.max[p] = Math.max(t.max[p], e[1]);
      });
    });
  }
  m.time = t;
  return t;
}

/// Nanoseconds as milliseconds, three significant digits: "0.0123 ms".
function fmtMs(ns) {
  var ms = ns / 1e6;
  if (!(ms > 0)) return '0 ms';
  return String(Number(ms.toPrecision(3))) + ' ms';
}
function fmtShare(s) {
  var p = s * 100;
  return (p >= 10 ? String(Math.round(p)) : String(Number(p.toPrecision(2)))) + '%';
}
function heatOf(v, max) { return max > 0 ? Math.max(0, Math.min(1, v / max)) : 0; }

/// A row's time cell: {text, heat (0 to 1), tip}.
function timeCellHTML(c) {
  return '<span class="tm" style="--heat:' + c.heat.toFixed(3) + '" title="' + esc(c.tip) + '">' +
    esc(c.text) + '</span>';
}

/// What a kernel row's cell says: its total time (with the ops it called)
/// and its share of its compiled region's time; calls, mean and self time
/// in the tooltip.
function kernelTimeTip(K, e) {
  return K.key + ': ' + plural(e.calls, 'call') + ', total ' + fmtMs(e.total) + ', mean ' +
    fmtMs(e.calls ? e.total / e.calls : 0) + ', self ' + fmtMs(e.self) +
    (e.share !== null && e.share !== undefined ? ', ' + fmtShare(e.share) + ' of its compiled region\'s time'
      : ' (outside any compiled region)');
}
function kernelCell(m, t, k, max) {
  var e = t.kernel.get(k);
  if (!e) return null;
  return { text: fmtMs(e.total) + (e.share !== null && e.share !== undefined ? ' ' + fmtShare(e.share) : ''),
    heat: heatOf(e.total, max), tip: kernelTimeTip(m.kernels[k], e) };
}

/// The time column of a graph panel (\p kind 'pre' or 'post'): a node's
/// share of its kernels' time.
function graphTime(m, kind) {
  var t = unitTime(m, page.unit), g = m[kind];
  if (!t || !g) return null;
  return function (i) {
    var n = g.nodeAt.get(i);
    var e = n === undefined ? null : t[kind].get(n);
    if (!e) return null;
    return { text: fmtMs(e[1]), heat: heatOf(e[1], t.max[kind]),
      tip: qualified(g.data.nodes[n]) + ': ' + fmtMs(e[1]) + ', its share of the time of ' + plural(e[2], 'kernel') +
        ' (a kernel\'s time split evenly among its nodes)' };
  };
}

/// The time column of a code panel (\p kind 'code': the wrapper, or
/// 'kernel': the AOT kernel file): a kernel's call line shows its row's
/// time, a definition's first line the time of the rows defined there.
function codeTime(m, kind) {
  var t = unitTime(m, page.unit), c = m[kind];
  if (!t || !c) return null;
  var defs = new Map(), max = t.max.kernel, defKey = kind === 'code' ? 'def_begin' : 'kernel_def_begin';
  m.kernels.forEach(function (K, k) {
    var e = t.kernel.get(k), b = K[defKey];
    if (!e || !b) return;
    var d = defs.get(b);
    if (!d) defs.set(b, d = { total: 0, rows: [] });
    d.total += e.total;
    d.rows.push(K.key);
    max = Math.max(max, d.total);
  });
  return function (i) {
    var ks = kind === 'code' ? c.calls.get(i) : null;
    if (ks) return kernelCell(m, t, ks[0], max);
    var d = defs.get(i);
    if (!d) return null;
    return { text: fmtMs(d.total), heat: heatOf(d.total, max),
      tip: 'defined here: ' + d.rows.join(', ') + ': ' + fmtMs(d.total) + ' in all' };
  };
}

/// The time column of the user source panel: a line's share of the time
/// of the kernels it is linked to.
function sourceTime(m) {
  var t = unitTime(m, page.unit), s = m.source;
  if (!t) return null;
  return function (i) {
    var r = s.rows[i];
    var e = r && !r.header ? t.line.get(r.file + ':' + r.line) : null;
    if (!e) return null;
    return { text: fmtMs(e[1]), heat: heatOf(e[1], t.max.line),
      tip: r.file + ':' + r.line + ': ' + fmtMs(e[1]) + ', its share of the time of ' + plural(e[2], 'kernel') +
        ' (a kernel\'s time split evenly among its user lines)' };
  };
}

/// A kernel's time as text for the drawer and the fusion graph ('' when
/// it has none).
function kernelTimeText(m, k) {
  var t = unitTime(m, page.unit), e = t && t.kernel.get(k);
  if (!e) return '';
  return fmtMs(e.total) + (e.share !== null && e.share !== undefined ? ' (' + fmtShare(e.share) + ')' : '');
}
