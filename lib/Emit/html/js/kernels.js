// kernels.js: the drawer's kernel table: a row per kernel of the unit;
// a click selects the kernel.

function detailsKernels(body) {
  var m = page.m;
  if (!m.kernels.length) { body.appendChild(make('p', 'none', 'no kernels in this unit')); return; }
  var t = make('table', 'kernels');
  var timed = !!unitTime(m, page.unit);
  t.innerHTML = '<thead><tr><th>kernel</th><th>kind</th><th>calls</th><th>post-grad</th><th>pre-grad</th><th>source lines</th><th>autotune info</th>' +
    (timed ? '<th>time</th>' : '') + '</tr></thead>';
  var tb = make('tbody');
  m.kernels.forEach(function (K, k) {
    var tr = make('tr');
    tr.innerHTML = '<td>' + esc(K.key) + '</td><td>' + esc(K.kind) + '</td><td>' + esc(K.calls.join(', ')) +
      '</td><td>' + K.post.length + '</td><td>' + K.pre.length + '</td><td>' + K.sources.length +
      '</td><td>' + (K.info !== null ? 'yes' : '') + '</td>' +
      (timed ? '<td class="time">' + esc(kernelTimeText(m, k)) + '</td>' : '');
    tr.addEventListener('click', function () { selection.select(kernelItem(m, k), { scrollAll: true }); });
    tb.appendChild(tr);
  });
  t.appendChild(tb);
  body.appendChild(t);
}
