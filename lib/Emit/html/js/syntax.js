// syntax.js: the syntax colouring of a row.
//
// Syntax colouring: a small tokenizer for Python (graphs, wrapper, user
// source, Triton kernels) and C++ (AOT wrapper and kernel file, C++
// kernels). It runs on a row only when the row is built, so a 50,000-line
// wrapper costs what is drawn. A line's colouring depends on where the
// lines above leave off (inside a ''' string, a /* comment); that state
// is found lazily, by a scan that tokenizes only lines holding a marker.
// In a Python wrapper, a ''' string passed to async_compile.triton is
// coloured as Python (Triton), one passed to cpp_pybinding / cpp as C++.
function wordSet(s) { var o = Object.create(null); s.split(' ').forEach(function (w) { o[w] = 1; }); return o; }
var PY_KW = wordSet('False None True and as assert async await break class continue def del elif else except ' +
  'finally for from global if import in is lambda nonlocal not or pass raise return try while with yield');
var PY_BI = wordSet('tl triton torch aten libdevice math self super len range int float bool str print ' +
  'isinstance tuple list dict set type');
var CPP_KW = wordSet('alignas auto bool break case catch char const constexpr continue default delete do double ' +
  'else enum extern false float for goto if inline int int8_t int16_t int32_t int64_t long namespace new nullptr ' +
  'private public return short signed size_t sizeof static static_cast reinterpret_cast struct switch template ' +
  'this throw true try typedef typename uint8_t uint16_t uint32_t uint64_t union unsigned using virtual void ' +
  'volatile while half bfloat16');
var CPP_BI = wordSet('std at c10 torch AtenTensorHandle RAIIAtenTensorHandle AOTI_TORCH_ERROR_CODE_CHECK ' +
  'cudaStream_t CUDA_DRIVER_CHECK launchKernel');

function isIdStart(c) { return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c > 127; }
function isDigit(c) { return c >= 48 && c <= 57; }
function isId(c) { return isIdStart(c) || isDigit(c); }
function copyState(st) { return st && { q: st.q, inner: st.inner, sub: st.sub, block: st.block }; }

/// Colour one line of \p lang ('py' or 'cpp'), starting in state \p st:
/// null, {q: quote, inner: 'py' | 'cpp' | null, sub: inner state} inside
/// a Python ''' string, or {block: 1} inside a C++ comment. Returns
/// {html, st}, the escaped HTML and the state the next line starts in;
/// with \p scanOnly, the state alone.
function colourLine(text, lang, st, scanOnly) {
  var out = scanOnly ? null : [], i = 0, n = text.length;
  function put(cls, a, b) {
    if (scanOnly || a >= b) return;
    var t = esc(text.slice(a, b));
    out.push(cls ? '<span class="x-' + cls + '">' + t + '</span>' : t);
  }
  // Inside a ''' string: up to its end, coloured as its inner language.
  function inString() {
    var end = text.indexOf(st.q, i), stop = end < 0 ? n : end;
    if (st.inner) {
      var r = colourLine(text.slice(i, stop), st.inner, st.sub || null, scanOnly);
      if (!scanOnly) out.push(r.html);
      st.sub = r.st;
    } else put('str', i, stop);
    if (end < 0) { i = n; return; }
    put('str', end, end + 3);
    i = end + 3;
    st = null;
  }
  if (st && st.q) inString();
  while (i < n) {
    var c = text.charCodeAt(i);
    if (st && st.block) { // inside a C++ /* comment */
      var e = text.indexOf('*/', i), to = e < 0 ? n : e + 2;
      put('com', i, to);
      i = to;
      if (e >= 0) st = null;
      continue;
    }
    if (lang === 'py' ? c === 35 : c === 47 && text.charCodeAt(i + 1) === 47) { put('com', i, n); break; }
    if (lang === 'cpp' && c === 47 && text.charCodeAt(i + 1) === 42) { st = { block: 1 }; continue; }
    if (lang === 'cpp' && c === 35 && !text.slice(0, i).trim()) { put('pp', i, n); break; }
    if (c === 34 || c === 39) { // a string
      var q = text[i];
      if (lang === 'py' && text.substr(i, 3) === q + q + q) {
        var before = text.slice(0, i);
        var inner = before.indexOf('async_compile.triton(') >= 0 ? 'py'
          : before.indexOf('cpp_pybinding(') >= 0 || before.indexOf('async_compile.cpp(') >= 0 ? 'cpp' : null;
        put('str', i, i + 3);
        i += 3;
        st = { q: q + q + q, inner: inner, sub: null };
        inString();
        continue;
      }
      var j = i + 1;
      while (j < n && text[j] !== q) j += text.charCodeAt(j) === 92 ? 2 : 1;
      j = Math.min(n, j + 1);
      put('str', i, j);
      i = j;
      continue;
    }
    if (isDigit(c)) {
      var k = i + 1;
      while (k < n && (isId(text.charCodeAt(k)) || text.charCodeAt(k) === 46)) ++k;
      put('num', i, k);
      i = k;
      continue;
    }
    if (c === 64 && lang === 'py' && isIdStart(text.charCodeAt(i + 1))) { // @decorator
      var d = i + 1;
      while (d < n && (isId(text.charCodeAt(d)) || text.charCodeAt(d) === 46)) ++d;
      put('dec', i, d);
      i = d;
      continue;
    }
    if (isIdStart(c)) {
      var w = i + 1;
      while (w < n && isId(text.charCodeAt(w))) ++w;
      var word = text.slice(i, w);
      var kw = lang === 'py' ? PY_KW : CPP_KW, bi = lang === 'py' ? PY_BI : CPP_BI;
      put(kw[word] ? 'kw' : bi[word] ? 'bi' : text.charCodeAt(w) === 40 ? 'fn' : '', i, w);
      i = w;
      continue;
    }
    // Anything else, up to the next character that can start a token.
    var o = i + 1;
    while (o < n) {
      var x = text.charCodeAt(o);
      if (isId(x) || x === 34 || x === 39 || x === 35 || x === 47 || x === 64) break;
      ++o;
    }
    put('', i, o);
    i = o;
  }
  return { html: scanOnly ? '' : out.join(''), st: st };
}
/// Whether a line can change the tokenizer's state; the scan for the
/// state of line 40,000 tests most lines with two indexOf.
function hasMarker(text, lang) {
  if (text.indexOf("'''") >= 0 || text.indexOf('"""') >= 0) return true;
  return lang === 'cpp' && (text.indexOf('/*') >= 0 || text.indexOf('*/') >= 0);
}
/// The colouring of one panel's \p lines (lang 'py' or 'cpp'): html(i)
/// is the escaped, coloured HTML of 1-based line i.
function Colourer(lines, lang) {
  this.lines = lines;
  this.lang = lang;
  this.states = [null]; // states[k]: the state 0-based line k starts in
}
Colourer.prototype.stateAt = function (k) {
  var s = this.states;
  while (s.length <= k) {
    var j = s.length - 1, st = s[j], t = this.lines[j];
    var lang = st && st.inner === 'cpp' ? 'cpp' : this.lang;
    s.push(hasMarker(t, lang) ? colourLine(t, this.lang, copyState(st), true).st : st);
  }
  return s[k];
};
Colourer.prototype.html = function (i) {
  return colourLine(this.lines[i - 1], this.lang, copyState(this.stateAt(i - 1)), false).html;
};
