// code.js: the generated code panels (the wrapper, and an AOT kernel file
// as a second tab of the same column), and the jump between a kernel's
// launch and its definition.

var codeTab = 'code'; // the code column's tab shown: 'code' or 'kernel'
var jumpBack = null; // {k, panel, row}: the launch a jump to a definition left

function codeView(panel, m, kind) {
  var c = m[kind];
  panel.textContent = '';
  var title = kind === 'code' ? (c && c.data.language === 'cpp' ? 'C++ wrapper' : 'Python wrapper') : 'AOT kernel file';
  if (!c) {
    panelHead(panel, 'generated code');
    noneNote(panel, 'no generated code in this unit (the compile did not reach Inductor\'s code generation)');
    return null;
  }
  var linked = new Set();
  m.kernels.forEach(function (k) {
    var has = k.post.length || k.pre.length || k.sources.length;
    if (!has) return;
    if (kind === 'code') {
      k.calls.forEach(function (l) { linked.add(l); });
      if (k.def_begin) linked.add(k.def_begin);
    } else if (k.kernel_def_begin) linked.add(k.kernel_def_begin);
  });
  panelHead(panel, title, c.data, plural(c.lines.length, 'line'));
  var col = new Colourer(c.lines, c.data.language === 'cpp' ? 'cpp' : 'py'), lines = c.lines;
  return new LineView(panel, {
    count: c.lines.length,
    html: function (i) { return esc(lines[i - 1]); },
    colour: function (i) { return col.html(i); },
    line: function (i) { return i; },
    attrs: kind === 'code' ? function (i) {
      var ks = c.calls.get(i);
      if (!ks || !m.pre) return '';
      var pre = m.kernels[ks[0]].pre;
      return pre.length ? note('pre-grad nodes', pre.map(function (p) { return qualified(m.pre.data.nodes[p]); })) : '';
    } : null,
    cls: function (i) { return linked.has(i) ? 'linked' : (isComment(c.lines[i - 1]) ? 'c' : ''); },
    time: codeTime(m, kind),
    timeWidth: '16ch'
  });
}

/// Show the code column's tab \p t ('code' or 'kernel'), each tab naming
/// how many of its rows the selection highlights; \p initial: build no
/// rows yet (showUnit does).
function setCodeTab(t, initial) {
  var shown = t !== codeTab;
  codeTab = t;
  var tabs = $('code-tabs');
  tabs.innerHTML = '';
  [['code', 'wrapper'], ['kernel', 'kernel file']].forEach(function (x) {
    var b = make('button', '', x[1]);
    b.type = 'button';
    b.dataset.tab = x[0];
    b.setAttribute('aria-selected', String(t === x[0]));
    var v = page.views[x[0]];
    if (v && v.marks.hl.size) b.appendChild(make('span', 'count', ' (' + v.marks.hl.size + ')'));
    b.addEventListener('click', function () { setCodeTab(x[0]); });
    tabs.appendChild(b);
  });
  document.querySelector('[data-panel="code"]').hidden = t !== 'code';
  document.querySelector('[data-panel="kernel"]').hidden = t !== 'kernel';
  // A panel shown builds what is now in view (one already shown has).
  var v = page.views[t];
  if (v && !initial && shown) v.update();
}

// Jump between a kernel's launch and its definition (d, a double click,
// the drawer's button): from a launch to the definition's first line
// (the wrapper's, else the AOT kernel file's); from the definition back
// to the launch the jump came from, else the first launch.
function atDefinition(K, it) {
  if (it.panel === 'kernel') return true;
  return !!(K.def && it.row >= K.def[0] && it.row <= K.def[1]);
}
function jump() {
  var m = page.m, it = selection.selected();
  if (!m || !it || it.kind !== 'kernel') return false;
  var k = it.rows[0], K = m.kernels[k], to;
  if (!atDefinition(K, it)) {
    if (!K.def_begin && !K.kernel_def_begin) return false;
    jumpBack = { k: k, panel: it.panel, row: it.row };
    to = K.def_begin ? { panel: 'code', row: K.def_begin } : { panel: 'kernel', row: K.kernel_def_begin };
  } else {
    var b = jumpBack;
    if (b && b.k === k) to = { panel: b.panel, row: b.row };
    else if (K.calls.length) to = { panel: 'code', row: K.calls[0] };
    else return false;
  }
  if (m.kernel) setCodeTab(to.panel);
  selection.select({ kind: 'kernel', rows: [k], panel: to.panel, row: to.row });
  var v = page.views[to.panel];
  if (v) {
    v.reveal(to.row, null, true);
    var e = v.el(to.row);
    if (e) { e.classList.remove('jump'); void e.offsetWidth; e.classList.add('jump'); }
  }
  return true;
}
