// layout.js: the panels' frame: a panel's head, folding a panel or the
// drawer, the dividers that resize the panels, a panel's notes.

function panelHead(panel, title, a, extra) {
  var h = make('div', 'panel-head');
  h.innerHTML = '<b>' + esc(title) + '</b>' +
    (a ? ' <span class="muted">' + esc(a.artifact) + ', log line ' + a.log_line + '</span>' : '') +
    (extra ? ' <span class="muted">' + esc(extra) + '</span>' : '');
  h.insertBefore(foldButton(panel.dataset.panel), h.firstChild);
  panel.appendChild(h);
}

// Collapsible panels: a panel folds to a narrow strip (the code and
// kernel file fold together, as one column); the drawer to its tabs.
var folded = new Set(); // collapsed panels: pre, post, code, source, details
function foldTarget(name) {
  if (name === 'code' || name === 'kernel') return $('code-column');
  if (name === 'post' || name === 'fusion') return $('post-column');
  if (name === 'details') return $('details');
  return document.querySelector('[data-panel="' + name + '"]');
}
function foldKey(name) { return name === 'kernel' ? 'code' : name === 'fusion' ? 'post' : name; }
function foldButton(name) {
  var b = make('button', 'fold');
  b.type = 'button';
  b.dataset.fold = foldKey(name);
  var shut = folded.has(foldKey(name));
  b.textContent = shut ? '+' : '−';
  b.title = shut ? 'expand' : 'collapse';
  b.setAttribute('aria-expanded', String(!shut));
  b.addEventListener('click', function (ev) { ev.stopPropagation(); fold(name); });
  return b;
}
function applyFolds() {
  ['pre', 'post', 'code', 'source', 'details'].forEach(function (n) {
    var el = foldTarget(n);
    if (el) el.classList.toggle('collapsed', folded.has(n));
  });
  Array.prototype.forEach.call(document.querySelectorAll('button.fold'), function (b) {
    var shut = folded.has(b.dataset.fold);
    b.textContent = shut ? '+' : '−';
    b.title = shut ? 'expand' : 'collapse';
    b.setAttribute('aria-expanded', String(!shut));
  });
}
function fold(name) {
  var k = foldKey(name);
  if (folded.has(k)) folded.delete(k); else folded.add(k);
  applyFolds();
  updateViews();
}

/// A row's tooltip: the kernels of a node, the pre-grad nodes of a launch.
function note(what, names) {
  var shown = names.slice(0, 8).join(', ');
  if (names.length > 8) shown += ' +' + (names.length - 8);
  return ' title="' + esc(what + ': ' + shown) + '"';
}
function noneNote(panel, text) { panel.appendChild(make('div', 'none', text)); }

function dividers() {
  var main = $('panels');
  Array.prototype.forEach.call(main.querySelectorAll('.divider'), function (d) {
    d.addEventListener('pointerdown', function (ev) {
      var a = d.previousElementSibling, b = d.nextElementSibling;
      var kids = Array.prototype.filter.call(main.children, function (x) { return !x.classList.contains('divider'); });
      kids.forEach(function (k) { k.style.flex = '0 0 ' + k.getBoundingClientRect().width + 'px'; });
      kids[kids.length - 1].style.flex = '1 1 0';
      var x0 = ev.clientX, wa = a.getBoundingClientRect().width, wb = b.getBoundingClientRect().width;
      d.setPointerCapture(ev.pointerId);
      d.classList.add('dragging');
      function move(e) {
        var dx = Math.max(60 - wa, Math.min(wb - 60, e.clientX - x0));
        a.style.flex = '0 0 ' + (wa + dx) + 'px';
        if (b !== kids[kids.length - 1]) b.style.flex = '0 0 ' + (wb - dx) + 'px';
      }
      function up() {
        d.classList.remove('dragging');
        d.removeEventListener('pointermove', move);
        d.removeEventListener('pointerup', up);
        updateViews();
      }
      d.addEventListener('pointermove', move);
      d.addEventListener('pointerup', up);
      ev.preventDefault();
    });
  });
}
