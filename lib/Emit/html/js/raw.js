// raw.js: the events tlp shows raw (a compile's artifacts page, and the
// artifacts of the one page's overview). Each payload is a
// <pre class="raw-text" data-lang="py|cpp|json|text">, coloured (syntax.js)
// when its <details> is first opened, so a page of a hundred graphs costs
// what is read; a download button saves a payload as the file it is
// (fx_graph_runnable as a .py to run).

/// Colour the rows of \p pre once, in its language.
function colourRaw(pre) {
  if (pre.dataset.coloured) return;
  pre.dataset.coloured = '1';
  // JSON's strings, numbers and punctuation colour as Python's do.
  var lang = pre.dataset.lang === 'json' ? 'py' : pre.dataset.lang;
  if (lang !== 'py' && lang !== 'cpp') return;
  var lines = pre.textContent.split('\n'), out = [], st = null;
  for (var i = 0; i < lines.length; i++) {
    var r = colourLine(lines[i], lang, st, false);
    out.push(r.html);
    st = r.st;
  }
  pre.innerHTML = out.join('\n');
  if (lang === 'py' && pre.dataset.lang === 'py') markNodes(pre, lines);
}

// FX graphs shown raw (Dynamo's graph, the AOT graphs, the pass graphs)
// get the panels' node navigation where it fits: a node's name, where it
// is made and wherever it is used, is a span.fx-n; a click lights every
// place of that node, a double click goes to where it is made.
var FX_DEF = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*(?::\s*"[^"]*")?\s*=[^=]/;
// An AOT graph's inputs, one per line: `primals_1: "f32[4]cpu"  # ...`.
var FX_DECL = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*:\s*"[^"]*"\s*(?:#.*)?$/;
var FX_ARG = /\b([A-Za-z_][A-Za-z0-9_]*)\s*:\s*"[^"]*"/g;
var FX_ID = /[A-Za-z_][A-Za-z0-9_]*/g;

/// The node names of the graph text \p lines: the names assigned in a
/// forward body and its arguments; none when the text is not an FX graph.
function fxNames(lines) {
  var names = Object.create(null), n = 0, inForward = false;
  for (var i = 0; i < lines.length; i++) {
    var t = lines[i];
    if (/^\s*def forward\(/.test(t)) {
      inForward = true;
      var m;
      FX_ARG.lastIndex = 0;
      while ((m = FX_ARG.exec(t))) { if (!(m[1] in names)) { names[m[1]] = i; n++; } }
      continue;
    }
    if (!inForward) continue;
    var d = FX_DEF.exec(t) || FX_DECL.exec(t);
    if (d && !(d[1] in names)) { names[d[1]] = i; n++; }
  }
  return n ? names : null;
}

function markNodes(pre, lines) {
  var names = fxNames(lines);
  if (!names) return;
  pre.classList.add('fx');
  var walker = document.createTreeWalker(pre, NodeFilter.SHOW_TEXT), texts = [];
  while (walker.nextNode()) texts.push(walker.currentNode);
  var before = ''; // the character before the current text node
  texts.forEach(function (node) {
    var text = node.nodeValue, prev = before;
    before = text ? text[text.length - 1] : before;
    // Not inside strings and comments: their words are not uses.
    var p = node.parentNode;
    if (p.classList && (p.classList.contains('x-str') || p.classList.contains('x-com'))) return;
    var last = 0, frag = null, m;
    FX_ID.lastIndex = 0;
    while ((m = FX_ID.exec(text))) {
      // An attribute (aten.mm) is not the node mm.
      var c = m.index ? text[m.index - 1] : prev;
      if (!(m[0] in names) || c === '.') continue;
      frag = frag || document.createDocumentFragment();
      frag.appendChild(document.createTextNode(text.slice(last, m.index)));
      var sp = document.createElement('span');
      sp.className = 'fx-n';
      sp.dataset.n = m[0];
      sp.textContent = m[0];
      frag.appendChild(sp);
      last = m.index + m[0].length;
    }
    if (!frag) return;
    frag.appendChild(document.createTextNode(text.slice(last)));
    p.replaceChild(frag, node);
  });
}

/// Light every place of node \p name in \p pre (none: clear).
function lightNode(pre, name) {
  Array.prototype.forEach.call(pre.querySelectorAll('.fx-n.fx-hl'), function (e) { e.classList.remove('fx-hl'); });
  if (!name) return 0;
  var all = pre.querySelectorAll('.fx-n[data-n="' + CSS.escape(name) + '"]');
  Array.prototype.forEach.call(all, function (e) { e.classList.add('fx-hl'); });
  return all.length;
}

/// Save the text of the payload \p btn belongs to as a file.
function downloadRaw(btn) {
  var box = btn.closest('.raw-event');
  var pre = box && box.querySelector('pre.raw-text');
  if (!pre) return;
  var url = URL.createObjectURL(new Blob([pre.textContent], { type: 'text/plain' }));
  var a = document.createElement('a');
  a.href = url;
  a.download = btn.dataset.file || 'artifact.txt';
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(function () { URL.revokeObjectURL(url); }, 0);
}

function initRaw() {
  // A link to one event (raw-log.html#raw-log-0, the export's program):
  // opened.
  var target = location.hash && document.getElementById(location.hash.slice(1));
  if (target && target.matches('details.raw-event')) {
    target.open = true;
    target.scrollIntoView();
  }
  Array.prototype.forEach.call(document.querySelectorAll('details.raw-event'), function (d) {
    var pre = d.querySelector('pre.raw-text');
    if (!pre) return;
    if (d.open) colourRaw(pre);
    d.addEventListener('toggle', function () { if (d.open) colourRaw(pre); });
  });
  document.addEventListener('click', function (ev) {
    var b = ev.target.closest && ev.target.closest('button.raw-download');
    if (b) { ev.preventDefault(); downloadRaw(b); return; }
    var n = ev.target.closest && ev.target.closest('pre.raw-text .fx-n');
    if (n) lightNode(n.closest('pre'), n.dataset.n);
  });
  document.addEventListener('dblclick', function (ev) {
    var n = ev.target.closest && ev.target.closest('pre.raw-text .fx-n');
    if (!n) return;
    var first = n.closest('pre').querySelector('.fx-n[data-n="' + CSS.escape(n.dataset.n) + '"]');
    if (first) first.scrollIntoView({ block: 'center' });
  });
}
