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
  Array.prototype.forEach.call(document.querySelectorAll('details.raw-event'), function (d) {
    var pre = d.querySelector('pre.raw-text');
    if (!pre) return;
    if (d.open) colourRaw(pre);
    d.addEventListener('toggle', function () { if (d.open) colourRaw(pre); });
  });
  document.addEventListener('click', function (ev) {
    var b = ev.target.closest && ev.target.closest('button.raw-download');
    if (b) { ev.preventDefault(); downloadRaw(b); }
  });
}
