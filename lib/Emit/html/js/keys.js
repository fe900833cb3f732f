// keys.js: the keys, and the help box (?) that lists them.

var HELP = [
  ['click', 'select a bold line: its counterparts are highlighted in every panel and scrolled to'],
  ['hover', 'preview the counterparts of a line'],
  ['Esc', 'clear the selection (or close this box)'],
  ['n / p', 'next / previous linked group (a kernel and what it came from)'],
  ['/', 'find a node, kernel, op (aten.sigmoid, torch.sigmoid) or source line'],
  ['f, Ctrl+F', 'search the text of every panel; Enter / Shift+Enter: next / previous'],
  ['g', 'the post-grad column: its text or the fusion graph (kernels as boxes around their nodes; drag, wheel, + / −, 0 to fit, Enter or a double click to expand or collapse a kernel)'],
  ['] / [', 'in the fusion graph: focus the next / previous kernel (its card shown; Enter expands or collapses it, Space selects it); hover a node or kernel for its card'],
  ['d', 'from a kernel launch to its definition and back (or double-click the line)'],
  ['c', 'toggle a colour per kernel group'],
  ['t', 'dark / light theme (remembered)'],
  ['− / +', 'collapse / expand a panel (its head\'s button)'],
  ['?', 'this help']
];
function toggleHelp() {
  var h = $('help');
  if (!h.hidden) { h.hidden = true; return; }
  h.innerHTML = '<dl>' + HELP.map(function (x) { return '<dt>' + esc(x[0]) + '</dt><dd>' + esc(x[1]) + '</dd>'; }).join('') + '</dl>';
  h.hidden = false;
}

function onKey(ev) {
  if (ev.target === $('search-input')) {
    if (ev.key === 'Escape') { closeSearch(); ev.preventDefault(); }
    else if (ev.key === 'Enter' || ev.key === 'ArrowDown' || ev.key === 'ArrowUp') {
      stepSearch(ev.shiftKey || ev.key === 'ArrowUp' ? -1 : 1);
      ev.preventDefault();
    }
    return;
  }
  if ((ev.ctrlKey || ev.metaKey) && ev.key === 'f' && page.m) { openSearch(); ev.preventDefault(); return; }
  if (ev.target === $('filter-input')) {
    if (ev.key === 'Escape') { closeFilter(); ev.preventDefault(); }
    else if (ev.key === 'Enter') { pickFilter(filter.active); ev.preventDefault(); }
    else if (ev.key === 'ArrowDown') { moveFilter(1); ev.preventDefault(); }
    else if (ev.key === 'ArrowUp') { moveFilter(-1); ev.preventDefault(); }
    return;
  }
  if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
  var t = ev.target.tagName;
  if (t === 'INPUT' || t === 'SELECT' || t === 'TEXTAREA') return;
  if (ev.key === 'Escape') {
    if (!$('help').hidden) $('help').hidden = true;
    else if (page.m) { selection.clear(); restartGroups(); }
  } else if (!page.m) {
    return;
  } else if (ev.key === 'n') step(1);
  else if (ev.key === 'p') step(-1);
  else if (ev.key === '/') { openFilter(); ev.preventDefault(); }
  else if (ev.key === 'c') toggleColours();
  else if (ev.key === 'd') jump();
  else if (ev.key === 'g' && page.m.post) togglePostTab();
  else if (ev.key === 'f') { openSearch(); ev.preventDefault(); }
  else if (ev.key === 't') toggleTheme();
  else if (ev.key === '?') toggleHelp();
  else return;
}
