// util.js: the numbers and small helpers every module uses.
//
// The page script is these modules (lib/Emit/html/js) joined in a fixed
// order by lib/Emit/html/Concat.cmake inside one function, in strict
// mode: a module's top-level names are the whole script's, and a name
// declared at the top level of two modules fails the build. The order and
// what each module holds: docs/html.md, "The page script".

var LINE_HEIGHT = 16; // px, as --lh in tlp.css
var CHUNK = 40; // rows built at a time (a panel is about 40 rows high)
var PANELS = ['pre', 'post', 'code', 'kernel', 'source'];

var ESC = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
function esc(s) {
  return String(s).replace(/[&<>"']/g, function (c) { return ESC[c]; });
}
function $(id) { return document.getElementById(id); }
function make(tag, cls, text) {
  var e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}
function plural(n, one, many) { return n + ' ' + (n === 1 ? one : (many || one + 's')); }
function hue(k) { return Math.round((k * 137.508) % 360); }
