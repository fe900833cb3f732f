/* tlp provenance highlighter (docs/html.md). Embedded into every page.
 *
 * The page carries each unit as JSON (<script type="application/json"
 * class="tlp-unit">). This script renders the unit's panels (pre-grad
 * graph, post-grad graph, generated code, AOT kernel file, user source)
 * lazily: every panel is a tall scroller and its rows are built in chunks
 * as they scroll into view, so a 50,000-line wrapper opens at once. The
 * selection state lives in sets of row numbers; a chunk built later gets
 * the same classes.
 *
 * Test hooks (stable): panels carry data-panel="pre|post|code|kernel|
 * source"; rows carry data-line (1-based, as in tlp's JSON); rows with a
 * counterpart have class "linked"; rows highlighted by the selection have
 * class "hl" (the selected row also "sel"). window.tlp has reveal(),
 * select() and clear().
 */
(function () {
  'use strict';

  var LINE_HEIGHT = 16; // px, as --lh in tlp.css
  var CHUNK = 100; // rows built at a time
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

  // ------------------------------------------------------------------
  // Rows are built plain and coloured just after, in idle time, a chunk at
  // a time: opening a page or selecting costs what it did without colours,
  // which follow within a frame or two.
  var colours = { queue: [], scheduled: false, enabled: false };
  function queueColour(view, c) {
    colours.queue.push([view, c]);
    scheduleColour();
  }
  function scheduleColour() {
    if (colours.scheduled || !colours.enabled || !colours.queue.length) return;
    colours.scheduled = true;
    var idle = window.requestIdleCallback || function (f) { return setTimeout(function () { f(null); }, 16); };
    idle(runColour, { timeout: 100 });
  }
  /// Rebuild a chunk coloured: one innerHTML for its rows, with the
  /// classes they have now.
  function colourChunk(x) {
    var v = x[0], c = x[1], ch = v.chunks[c];
    if (!ch || !ch.parentNode) return;
    var first = c * CHUNK + 1, last = Math.min(v.spec.count, first + CHUNK - 1), parts = [];
    for (var i = first; i <= last; ++i) parts.push(v.rowHTML(i, true));
    ch.innerHTML = parts.join('');
    v.markChunkText(c);
  }
  function runColour(deadline) {
    colours.scheduled = false;
    var t0 = performance.now();
    while (colours.queue.length) {
      colourChunk(colours.queue.shift());
      if (deadline ? deadline.timeRemaining() < 2 : performance.now() - t0 > 8) break;
    }
    scheduleColour();
  }
  /// Colour every row built so far now (tests, and before a screenshot).
  function colourNow() {
    while (colours.queue.length) colourChunk(colours.queue.shift());
  }

  // ------------------------------------------------------------------
  // A lazily rendered list of rows.
  //   spec.count       number of rows (1-based)
  //   spec.html(i)     escaped inner HTML of row i
  //   spec.colour(i)   the same, coloured (optional; applied in idle time)
  //   spec.line(i)     data-line of row i (null: none)
  //   spec.cls(i)      base classes of row i
  //   spec.attrs(i)    extra attributes (optional)
  function LineView(panel, spec) {
    this.panel = panel;
    this.spec = spec;
    this.scroll = make('div', 'scroll');
    this.sizer = make('div', 'sizer');
    this.sizer.style.height = spec.count * LINE_HEIGHT + 'px';
    var digits = String(spec.maxLine || spec.count).length;
    this.sizer.style.setProperty('--gutter', Math.max(3, digits) + 'ch');
    this.scroll.appendChild(this.sizer);
    panel.appendChild(this.scroll);
    this.chunks = new Array(Math.ceil(spec.count / CHUNK));
    this.marks = { hl: new Set(), sel: new Set(), 'hl-def': new Set(), hover: new Set(), inf: new Set(),
      found: new Set(), 'found-cur': new Set() };
    this.query = ''; // the search's text, lower case: marked in the found rows
    this.groups = null; // Int16Array of hues + 1, or null
    var self = this;
    var pending = false;
    this.scroll.addEventListener('scroll', function () {
      if (pending) return;
      pending = true;
      requestAnimationFrame(function () { pending = false; self.update(); });
    }, { passive: true });
  }
  LineView.prototype.rowClass = function (i) {
    var c = 'r';
    var base = this.spec.cls(i);
    if (base) c += ' ' + base;
    for (var m in this.marks) if (this.marks[m].has(i)) c += ' ' + m;
    if (this.groups && this.groups[i]) c += ' grp';
    return c;
  };
  LineView.prototype.rowHTML = function (i, coloured) {
    var line = this.spec.line(i);
    var s = '<div class="' + this.rowClass(i) + '"';
    if (line !== null) s += ' data-line="' + line + '"';
    if (this.spec.attrs) s += this.spec.attrs(i);
    if (this.groups && this.groups[i])
      s += ' style="--gh:' + (this.groups[i] - 1) + '"';
    return s + '>' + (coloured ? this.spec.colour(i) : this.spec.html(i)) + '</div>';
  };
  LineView.prototype.render = function (c) {
    if (c < 0 || c >= this.chunks.length || this.chunks[c]) return;
    var first = c * CHUNK + 1, last = Math.min(this.spec.count, first + CHUNK - 1);
    var parts = [];
    for (var i = first; i <= last; ++i) parts.push(this.rowHTML(i));
    var div = make('div', 'chunk');
    div.style.top = (first - 1) * LINE_HEIGHT + 'px';
    div.innerHTML = parts.join('');
    this.chunks[c] = div;
    this.sizer.appendChild(div);
    this.markChunkText(c);
    if (this.spec.colour) queueColour(this, c);
  };
  /// Mark the search's matches in the found rows of chunk \p c (built, or
  /// rebuilt coloured).
  LineView.prototype.markChunkText = function (c) {
    if (!this.query || !this.marks.found.size) return;
    var first = c * CHUNK + 1, last = Math.min(this.spec.count, first + CHUNK - 1);
    for (var i = first; i <= last; ++i) if (this.marks.found.has(i)) this.markText(i);
  };
  /// Wrap every occurrence of the search's text in row \p i in
  /// <mark class="hit"> (across the colouring's spans), after removing the
  /// marks of an earlier search; rows not found get none.
  LineView.prototype.markText = function (i) {
    var e = this.el(i);
    if (!e) return;
    var old = e.querySelectorAll('mark.hit');
    if (old.length) {
      old.forEach(function (mk) { mk.replaceWith.apply(mk, Array.from(mk.childNodes)); });
      e.normalize();
    }
    var q = this.query;
    if (!q || !this.marks.found.has(i)) return;
    var nodes = [], text = '';
    var w = document.createTreeWalker(e, NodeFilter.SHOW_TEXT);
    for (var n = w.nextNode(); n; n = w.nextNode()) { nodes.push([n, text.length]); text += n.data; }
    // Lower case one UTF-16 unit at a time, so that offsets stay those of
    // the text (a few characters grow when lowered: they are left as are).
    var low = '';
    for (var j = 0; j < text.length; ++j) {
      var l = text[j].toLowerCase();
      low += l.length === 1 ? l : text[j];
    }
    var at = [];
    for (var k = low.indexOf(q); k >= 0; k = low.indexOf(q, k + q.length)) at.push(k);
    // Last first: splitting a text node keeps its head, where the earlier
    // matches are.
    for (var m = at.length - 1; m >= 0; --m) wrapText(nodes, at[m], at[m] + q.length);
  };
  function wrapText(nodes, a, b) {
    for (var k = nodes.length - 1; k >= 0; --k) {
      var n = nodes[k][0], off = nodes[k][1], len = n.data.length;
      if (off >= b || off + len <= a) continue;
      var s = Math.max(a, off) - off, t = Math.min(b, off + len) - off;
      if (t < len) n.splitText(t);
      if (s > 0) n = n.splitText(s);
      var mk = document.createElement('mark');
      mk.className = 'hit';
      n.parentNode.replaceChild(mk, n);
      mk.appendChild(n);
    }
  }
  /// Build the chunks in view. The first render passes no geometry (the
  /// window's height bounds the panel's), so that building five panels
  /// does not force five layouts.
  LineView.prototype.update = function (initial) {
    if (initial) return this.scrollTo(0, window.innerHeight, true);
    var top = this.scroll.scrollTop, h = this.scroll.clientHeight || window.innerHeight;
    this.build(top, h, 1);
  };
  /// Build the chunks that rows [top, top + h) (in px) fall in, and
  /// \p margin more on each side.
  LineView.prototype.build = function (top, h, margin) {
    var a = Math.floor(top / LINE_HEIGHT / CHUNK) - margin;
    var b = Math.floor((top + h - 1) / LINE_HEIGHT / CHUNK) + margin;
    for (var c = Math.max(0, a); c <= b && c < this.chunks.length; ++c) this.render(c);
  };
  LineView.prototype.el = function (i) {
    var ch = this.chunks[Math.floor((i - 1) / CHUNK)];
    return ch ? ch.children[(i - 1) % CHUNK] : null;
  };
  LineView.prototype.rowOf = function (el) {
    var ch = el.parentNode, c = this.chunks.indexOf(ch);
    if (c < 0) return 0;
    return c * CHUNK + Array.prototype.indexOf.call(ch.children, el) + 1;
  };
  LineView.prototype.refreshRow = function (i) {
    var e = this.el(i);
    if (!e) return;
    e.className = this.rowClass(i);
    if (this.groups && this.groups[i])
      e.style.setProperty('--gh', String(this.groups[i] - 1));
  };
  /// Mark rows with a class; marks other than hover and found (the search's
  /// matches, which can be thousands) build their chunks, so every
  /// highlighted row is in the document.
  LineView.prototype.mark = function (name, rows) {
    var old = this.marks[name];
    this.marks[name] = rows;
    var self = this;
    var text = name === 'found';
    old.forEach(function (i) {
      if (rows.has(i)) return;
      self.refreshRow(i);
      if (text) self.markText(i);
    });
    rows.forEach(function (i) {
      if (i < 1 || i > self.spec.count) return;
      if (name !== 'hover' && name !== 'found') self.render(Math.floor((i - 1) / CHUNK));
      self.refreshRow(i);
      if (text) self.markText(i);
    });
  };
  LineView.prototype.setGroups = function (groups) {
    this.groups = groups;
    for (var c = 0; c < this.chunks.length; ++c) {
      var ch = this.chunks[c];
      if (!ch) continue;
      for (var j = 0; j < ch.children.length; ++j) {
        var i = c * CHUNK + j + 1, e = ch.children[j];
        e.className = this.rowClass(i);
        if (groups && groups[i]) e.style.setProperty('--gh', String(groups[i] - 1));
        else e.style.removeProperty('--gh');
      }
    }
  };
  /// Where the panel is scrolled to; read all panels' geometry before
  /// changing any, so that a selection costs one layout, not five.
  LineView.prototype.geometry = function () {
    return { top: this.scroll.scrollTop, h: this.scroll.clientHeight };
  };
  LineView.prototype.isVisible = function (i, g) {
    g = g || this.geometry();
    var y = (i - 1) * LINE_HEIGHT;
    return y >= g.top && y + LINE_HEIGHT <= g.top + g.h;
  };
  /// Scroll to \p top (px) in a panel \p h px high, without reading the
  /// layout; \p initial builds only what is in view.
  LineView.prototype.scrollTo = function (top, h, initial) {
    top = Math.max(0, Math.min(top, this.spec.count * LINE_HEIGHT - h));
    if (top || this.scroll.scrollTop) this.scroll.scrollTop = top;
    this.build(top, h, initial ? 0 : 1);
  };
  LineView.prototype.top = function (i, initial) {
    this.scrollTo((i - 2) * LINE_HEIGHT, initial ? window.innerHeight : this.scroll.clientHeight, initial);
  };
  LineView.prototype.reveal = function (i, g) {
    var h = g ? g.h : this.scroll.clientHeight;
    this.scroll.scrollLeft = 0;
    this.scrollTo((i - 1) * LINE_HEIGHT - h / 2 + LINE_HEIGHT / 2, h);
  };

  // ------------------------------------------------------------------
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

  // ------------------------------------------------------------------
  // The unit model: the data plus the lookups the panels need.
  function splitLines(text) { return text.split('\n'); }
  function isComment(line) {
    var t = line.trimStart();
    return t.startsWith('#') || t.startsWith('//');
  }
  function qualified(n) { return n.scope ? n.scope + '.' + n.name : n.name; }

  /// Nodes come as [name, line, op, source or -1, links, kernels, scope?].
  function graphModel(g) {
    if (!g) return null;
    g.nodes = g.nodes.map(function (a) {
      var n = { name: a[0], line: a[1], op: a[2], links: a[4], kernels: a[5], ops: a[6] };
      if (a[3] >= 0) n.source = a[3];
      if (a.length > 7) n.scope = a[7];
      return n;
    });
    var m = { data: g, lines: splitLines(g.text), nodeAt: new Map(), byName: new Map() };
    g.nodes.forEach(function (n, i) {
      if (!m.nodeAt.has(n.line)) m.nodeAt.set(n.line, i);
      var q = qualified(n);
      if (!m.byName.has(q)) m.byName.set(q, i);
    });
    return m;
  }

  function codeModel(c, kernels, defKey) {
    if (!c) return null;
    var m = { data: c, lines: splitLines(c.text), calls: new Map(), ranges: [] };
    // Definitions, by first line; several kernel rows can share one.
    var byRange = new Map();
    kernels.forEach(function (k, i) {
      var d = k[defKey];
      if (!d) return;
      var key = d[0] + '-' + d[1], r = byRange.get(key);
      if (!r) { r = { b: d[0], e: d[1], ks: [] }; byRange.set(key, r); m.ranges.push(r); }
      r.ks.push(i);
    });
    m.ranges.sort(function (x, y) { return x.b - y.b; });
    // A call line stands for its kernel alone.
    if (defKey === 'def')
      kernels.forEach(function (k, i) { k.calls.forEach(function (l) { m.calls.set(l, [i]); }); });
    return m;
  }
  /// The kernel rows a code line stands for: a call, or a line inside a
  /// definition; undefined for other lines.
  function kernelsAt(cm, row) {
    var c = cm.calls.get(row);
    if (c) return c;
    var lo = 0, hi = cm.ranges.length - 1, hit = null;
    while (lo <= hi) {
      var mid = (lo + hi) >> 1;
      if (cm.ranges[mid].b <= row) { hit = cm.ranges[mid]; lo = mid + 1; } else hi = mid - 1;
    }
    return hit && row <= hit.e ? hit.ks : undefined;
  }

  function sourceModel(d) {
    var byFile = new Map();
    d.sources.forEach(function (s, i) {
      var f = byFile.get(s[0]);
      if (!f) byFile.set(s[0], f = new Map());
      var r = f.get(s[1]);
      if (!r) f.set(s[1], r = { file: s[0], line: s[1], fn: s[2], code: s[3], srcs: [] });
      r.srcs.push(i);
    });
    var rows = [null], rowOf = new Map(), files = Array.from(byFile.keys()).sort();
    files.forEach(function (f) {
      rows.push({ header: f });
      Array.from(byFile.get(f).values()).sort(function (a, b) { return a.line - b.line; })
        .forEach(function (r) {
          rows.push(r);
          r.srcs.forEach(function (s) { rowOf.set(s, rows.length - 1); });
        });
    });
    var pre = new Map(), post = new Map(), ker = new Map();
    function push(map, key, v) { var a = map.get(key); if (!a) map.set(key, a = []); a.push(v); }
    if (d.pre) d.pre.nodes.forEach(function (n, i) { if (n.source !== undefined) push(pre, n.source, i); });
    if (d.post) d.post.nodes.forEach(function (n, i) { if (n.source !== undefined) push(post, n.source, i); });
    // The kernels of each line come with it (kernelsOfSource in C++): edges
    // to the line and the kernels of its pre-grad and post-grad nodes.
    d.sources.forEach(function (s, i) { (s[4] || []).forEach(function (k) { push(ker, i, k); }); });
    return { rows: rows, rowOf: rowOf, files: files.length, pre: pre, post: post, kernels: ker };
  }

  // Edges, with their origin and confidence: d.edges is a list of
  // [origin, confidence, [from kind, from index, to kind, to index, ...]]
  // (kinds 0 pre, 1 post, 2 kernel, 3 source). Indexed on first use.
  var END_KINDS = ['pre', 'post', 'kernel', 'source'];
  function endKey(kind, index) { return kind * 16777216 + index; }
  function inferredCount(d) {
    return (d.edges || []).reduce(function (a, g) { return a + (g[1] < 100 ? g[2].length / 4 : 0); }, 0);
  }
  function edgeModel(m) {
    if (m.edges) return m.edges;
    var E = { list: [], out: new Map(), into: new Map(), inferred: 0 };
    function push(map, k, e) { var a = map.get(k); if (!a) map.set(k, a = []); a.push(e); }
    (m.d.edges || []).forEach(function (g) {
      var f = g[2];
      for (var i = 0; i + 3 < f.length; i += 4) {
        var e = { from: endKey(f[i], f[i + 1]), to: endKey(f[i + 2], f[i + 3]), origin: g[0], conf: g[1] };
        E.list.push(e);
        push(E.out, e.from, e);
        push(E.into, e.to, e);
        if (e.conf < 100) ++E.inferred;
      }
    });
    return (m.edges = E);
  }
  /// The ends reached from \p starts only through some inferred edge:
  /// downstream (pre -> post -> kernel -> source) and upstream apart, as
  /// the counterparts are; null when the unit has no inferred edge.
  function inferredEnds(m, starts) {
    if (!inferredCount(m.d)) return null; // before indexing every edge
    var E = edgeModel(m);
    var res = new Set();
    [['out', 'to'], ['into', 'from']].forEach(function (dir) {
      function walk(sure) {
        var seen = new Set(starts), todo = starts.slice();
        while (todo.length) {
          (E[dir[0]].get(todo.pop()) || []).forEach(function (e) {
            var k = e[dir[1]];
            if ((sure && e.conf < 100) || seen.has(k)) return;
            seen.add(k);
            todo.push(k);
          });
        }
        return seen;
      }
      var sure = walk(true);
      walk(false).forEach(function (k) { if (!sure.has(k)) res.add(k); });
    });
    return res;
  }
  function endLabel(m, k) {
    var kind = Math.floor(k / 16777216), i = k % 16777216;
    if (kind === 0 || kind === 1) {
      var g = m[END_KINDS[kind]];
      return (kind ? 'post:' : 'pre:') + (g && g.data.nodes[i] ? qualified(g.data.nodes[i]) : '#' + i);
    }
    if (kind === 2) return 'kernel:' + (m.kernels[i] ? m.kernels[i].key : '#' + i);
    var s = m.d.sources[i];
    return 'source:' + (s ? s[0] + ':' + s[1] : '#' + i);
  }
  /// The item an edge end stands for, to select it from a chip.
  function endItem(m, k) {
    var kind = Math.floor(k / 16777216), i = k % 16777216;
    if ((kind === 0 || kind === 1) && m[END_KINDS[kind]] && m[END_KINDS[kind]].data.nodes[i])
      return nodeItem(m, END_KINDS[kind], i);
    if (kind === 2 && m.kernels[i]) return kernelItem(m, i);
    if (kind === 3 && m.source.rowOf.has(i)) return { kind: 'src', row: m.source.rowOf.get(i), panel: 'source' };
    return null;
  }
  /// The edge ends an item stands for.
  function itemEnds(m, item) {
    if (item.kind === 'kernel') return item.rows.map(function (k) { return endKey(2, k); });
    if (item.kind === 'pre' || item.kind === 'post') return [endKey(item.kind === 'pre' ? 0 : 1, item.index)];
    return m.source.rows[item.row].srcs.map(function (s) { return endKey(3, s); });
  }
  /// Rows, per panel, of the ends in \p ends.
  function endRows(m, ends) {
    var c = emptyParts();
    ends.forEach(function (k) {
      var kind = Math.floor(k / 16777216), i = k % 16777216;
      if (kind === 0 || kind === 1) {
        var g = m[END_KINDS[kind]];
        if (g && g.data.nodes[i]) c[END_KINDS[kind]].add(g.data.nodes[i].line);
      } else if (kind === 2 && m.kernels[i]) {
        addKernel(m, c, i, false);
      } else if (kind === 3 && m.source.rowOf.has(i)) c.source.add(m.source.rowOf.get(i));
    });
    return c;
  }

  function buildModel(d) {
    var m = { d: d, kernels: d.kernels };
    m.pre = graphModel(d.pre);
    m.post = graphModel(d.post);
    m.code = codeModel(d.code, d.kernels, 'def');
    m.kernel = codeModel(d.kernel_code, d.kernels, 'kernel_def');
    m.source = sourceModel(d);
    m.kernelByKey = new Map();
    d.kernels.forEach(function (k, i) { if (!m.kernelByKey.has(k.key)) m.kernelByKey.set(k.key, i); });
    return m;
  }

  // ------------------------------------------------------------------
  // Items and their counterparts. An item is what a row stands for: a
  // node, kernels (a call or a definition), or a user source line.
  function emptyParts() {
    var c = {};
    PANELS.forEach(function (p) { c[p] = new Set(); });
    c.codeDef = new Set();
    return c;
  }
  function nodeLines(g, idx, set) {
    if (g) idx.forEach(function (i) { set.add(g.data.nodes[i].line); });
  }
  function addKernel(m, c, k, full) {
    var K = m.kernels[k];
    K.calls.forEach(function (l) { c.code.add(l); });
    if (K.def_begin) c.codeDef.add(K.def_begin);
    if (K.kernel_def_begin) c.kernel.add(K.kernel_def_begin);
    if (!full) return;
    nodeLines(m.pre, K.pre, c.pre);
    nodeLines(m.post, K.post, c.post);
    K.sources.forEach(function (s) { var r = m.source.rowOf.get(s[0]); if (r) c.source.add(r); });
  }
  function counterparts(m, item) {
    var c = emptyParts();
    if (item.kind === 'kernel') {
      item.rows.forEach(function (k) { addKernel(m, c, k, true); });
    } else if (item.kind === 'pre' || item.kind === 'post') {
      var g = m[item.kind], other = m[item.kind === 'pre' ? 'post' : 'pre'];
      var n = g.data.nodes[item.index];
      c[item.kind].add(n.line);
      nodeLines(other, n.links || [], c[item.kind === 'pre' ? 'post' : 'pre']);
      (n.kernels || []).forEach(function (k) { addKernel(m, c, k, false); });
      if (n.source !== undefined) { var r = m.source.rowOf.get(n.source); if (r) c.source.add(r); }
    } else if (item.kind === 'src') {
      c.source.add(item.row);
      var row = m.source.rows[item.row];
      row.srcs.forEach(function (s) {
        nodeLines(m.pre, m.source.pre.get(s) || [], c.pre);
        nodeLines(m.post, m.source.post.get(s) || [], c.post);
        (m.source.kernels.get(s) || []).forEach(function (k) { addKernel(m, c, k, false); });
      });
    }
    return c;
  }
  function itemAt(m, panel, row) {
    if (panel === 'pre' || panel === 'post') {
      var g = m[panel];
      if (!g || !g.nodeAt.has(row)) return null;
      return { kind: panel, index: g.nodeAt.get(row), panel: panel, row: row };
    }
    if (panel === 'code' || panel === 'kernel') {
      var ks = m[panel] && kernelsAt(m[panel], row);
      return ks ? { kind: 'kernel', rows: ks, panel: panel, row: row } : null;
    }
    if (panel === 'source') {
      var r = m.source.rows[row];
      return r && !r.header ? { kind: 'src', row: row, panel: panel } : null;
    }
    return null;
  }
  function kernelItem(m, k) {
    var K = m.kernels[k];
    var panel = K.calls.length || K.def_begin ? 'code' : 'kernel';
    return { kind: 'kernel', rows: [k], panel: panel,
      row: K.calls[0] || K.def_begin || K.kernel_def_begin || 0 };
  }
  function nodeItem(m, kind, i) {
    return { kind: kind, index: i, panel: kind, row: m[kind].data.nodes[i].line };
  }
  function itemLabel(m, item) {
    if (item.kind === 'kernel') return item.rows.map(function (k) { return m.kernels[k].key; }).join(', ');
    if (item.kind === 'pre' || item.kind === 'post') return qualified(m[item.kind].data.nodes[item.index]);
    var r = m.source.rows[item.row];
    return r.file + ':' + r.line;
  }
  /// The fragment form of an item: kernel:KEY, pre:NAME, post:NAME,
  /// src:FILE:LINE, or line:PANEL:N.
  function itemRef(m, item) {
    if (item.kind === 'kernel' && item.rows.length === 1 &&
        m.kernelByKey.get(m.kernels[item.rows[0]].key) === item.rows[0])
      return 'kernel:' + m.kernels[item.rows[0]].key;
    if (item.kind === 'pre' || item.kind === 'post') return item.kind + ':' + itemLabel(m, item);
    if (item.kind === 'src') return 'src:' + itemLabel(m, item);
    return 'line:' + item.panel + ':' + item.row;
  }
  function parseRef(m, ref) {
    var i = ref.indexOf(':');
    if (i < 0) return null;
    var kind = ref.slice(0, i), rest = ref.slice(i + 1);
    if (kind === 'kernel') {
      var k = m.kernelByKey.get(rest);
      return k === undefined ? null : kernelItem(m, k);
    }
    if (kind === 'pre' || kind === 'post') {
      // A fragment may name a graph the unit lacks (an old link, a hand
      // edit): nothing to select.
      var g = m[kind], n = g ? g.byName.get(rest) : undefined;
      return n === undefined ? null : nodeItem(m, kind, n);
    }
    if (kind === 'src') {
      var j = rest.lastIndexOf(':');
      var file = rest.slice(0, j), line = Number(rest.slice(j + 1));
      for (var r = 1; r < m.source.rows.length; ++r) {
        var row = m.source.rows[r];
        if (!row.header && row.file === file && row.line === line) return { kind: 'src', row: r, panel: 'source' };
      }
      return null;
    }
    if (kind === 'line') {
      var p = rest.split(':');
      return itemAt(m, p[0], Number(p[1]));
    }
    return null;
  }

  // ------------------------------------------------------------------
  // The page.
  var state = {
    units: [], // {id, name, file?, el?}
    unit: null, // current unit id
    cache: new Map(), // id -> model
    m: null,
    views: {},
    sel: null, // selected item
    hover: null,
    colours: false,
    group: -1,
    groups: null,
    tab: 'selection',
    codeTab: 'code',
    folded: new Set(), // collapsed panels: pre, post, code, source, details
    jumpBack: null // {k, panel, row}: the launch a jump to a definition left
  };
  var mode = document.body.dataset.mode;

  function unitModel(id) {
    if (state.cache.has(id)) return state.cache.get(id);
    var u = state.units.find(function (x) { return x.id === id; });
    if (!u || !u.el) return null;
    var m = buildModel(JSON.parse(u.el.textContent));
    state.cache.set(id, m);
    return m;
  }

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
  function foldTarget(name) {
    if (name === 'code' || name === 'kernel') return $('code-column');
    if (name === 'details') return $('details');
    return document.querySelector('[data-panel="' + name + '"]');
  }
  function foldKey(name) { return name === 'kernel' ? 'code' : name; }
  function foldButton(name) {
    var b = make('button', 'fold');
    b.type = 'button';
    b.dataset.fold = foldKey(name);
    var shut = state.folded.has(foldKey(name));
    b.textContent = shut ? '+' : '−';
    b.title = shut ? 'expand' : 'collapse';
    b.setAttribute('aria-expanded', String(!shut));
    b.addEventListener('click', function (ev) { ev.stopPropagation(); fold(name); });
    return b;
  }
  function applyFolds() {
    ['pre', 'post', 'code', 'source', 'details'].forEach(function (n) {
      var el = foldTarget(n);
      if (el) el.classList.toggle('collapsed', state.folded.has(n));
    });
    Array.prototype.forEach.call(document.querySelectorAll('button.fold'), function (b) {
      var shut = state.folded.has(b.dataset.fold);
      b.textContent = shut ? '+' : '−';
      b.title = shut ? 'expand' : 'collapse';
      b.setAttribute('aria-expanded', String(!shut));
    });
  }
  function fold(name) {
    var k = foldKey(name);
    if (state.folded.has(k)) state.folded.delete(k); else state.folded.add(k);
    applyFolds();
    PANELS.forEach(function (p) { if (state.views[p]) state.views[p].update(); });
  }

  // The theme: the system's (prefers-color-scheme) until the theme button
  // picks one, which localStorage keeps for every page (the page's head
  // applies it before the first paint).
  function theme() {
    var t = document.documentElement.dataset.theme;
    if (t === 'dark' || t === 'light') return t;
    return window.matchMedia && window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
  }
  function showTheme() {
    var b = $('theme-toggle');
    if (!b) return;
    var dark = theme() === 'dark';
    b.setAttribute('aria-pressed', String(dark));
    b.textContent = dark ? 'light' : 'dark';
    b.title = dark ? 'light theme (t)' : 'dark theme (t)';
  }
  function toggleTheme() {
    var t = theme() === 'dark' ? 'light' : 'dark';
    document.documentElement.dataset.theme = t;
    try { localStorage.setItem('tlp-theme', t); } catch (e) { /* storage off: this page only */ }
    showTheme();
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
    var m = state.m, it = state.sel;
    if (!m || !it || it.kind !== 'kernel') return false;
    var k = it.rows[0], K = m.kernels[k], to;
    if (!atDefinition(K, it)) {
      if (!K.def_begin && !K.kernel_def_begin) return false;
      state.jumpBack = { k: k, panel: it.panel, row: it.row };
      to = K.def_begin ? { panel: 'code', row: K.def_begin } : { panel: 'kernel', row: K.kernel_def_begin };
    } else {
      var b = state.jumpBack;
      if (b && b.k === k) to = { panel: b.panel, row: b.row };
      else if (K.calls.length) to = { panel: 'code', row: K.calls[0] };
      else return false;
    }
    if (m.kernel) setCodeTab(to.panel);
    select({ kind: 'kernel', rows: [k], panel: to.panel, row: to.row });
    var v = state.views[to.panel];
    if (v) {
      v.reveal(to.row);
      var e = v.el(to.row);
      if (e) { e.classList.remove('jump'); void e.offsetWidth; e.classList.add('jump'); }
    }
    return true;
  }
  /// A row's tooltip: the kernels of a node, the pre-grad nodes of a launch.
  function note(what, names) {
    var shown = names.slice(0, 8).join(', ');
    if (names.length > 8) shown += ' +' + (names.length - 8);
    return ' title="' + esc(what + ': ' + shown) + '"';
  }
  function noneNote(panel, text) { panel.appendChild(make('div', 'none', text)); }

  function graphView(panel, m, kind) {
    var g = m[kind];
    var title = kind === 'pre' ? 'pre-grad graph' : 'post-grad graph';
    panel.textContent = '';
    if (!g) {
      panelHead(panel, title);
      noneNote(panel, 'no ' + title + ' in this unit');
      return null;
    }
    var linked = new Set();
    g.data.nodes.forEach(function (n) {
      if ((n.links && n.links.length) || (n.kernels && n.kernels.length)) linked.add(n.line);
    });
    panelHead(panel, title, g.data, plural(g.data.nodes.length, 'node'));
    var col = new Colourer(g.lines, 'py'), lines = g.lines;
    return new LineView(panel, {
      count: g.lines.length,
      html: function (i) { return esc(lines[i - 1]); },
      colour: function (i) { return col.html(i); },
      line: function (i) { return i; },
      attrs: function (i) {
        var n = g.nodeAt.get(i);
        if (n === undefined) return '';
        var ks = g.data.nodes[n].kernels;
        return ks.length ? note('kernels', ks.map(function (k) { return m.kernels[k].key; })) : '';
      },
      cls: function (i) { return linked.has(i) ? 'linked' : (isComment(g.lines[i - 1]) ? 'c' : ''); }
    });
  }

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
      cls: function (i) { return linked.has(i) ? 'linked' : (isComment(c.lines[i - 1]) ? 'c' : ''); }
    });
  }

  function sourceView(panel, m) {
    var s = m.source;
    panel.textContent = '';
    panelHead(panel, 'user source', null,
      plural(s.rows.length - 1 - s.files, 'line') + ' in ' + plural(s.files, 'file'));
    if (s.rows.length === 1) {
      noneNote(panel, 'no user source lines: the graphs have no "# File:" comments and there are no kernel stack traces');
      return null;
    }
    return new LineView(panel, {
      count: s.rows.length - 1,
      maxLine: s.rows.reduce(function (a, r) { return r && !r.header ? Math.max(a, r.line) : a; }, 0),
      html: function (i) {
        var r = s.rows[i];
        if (r.header) return esc(r.header);
        return esc(r.code || '') + (r.fn ? '<span class="fn">  (' + esc(r.fn) + ')</span>' : '');
      },
      colour: function (i) {
        var r = s.rows[i];
        if (r.header) return esc(r.header);
        return colourLine(r.code || '', 'py', null, false).html + (r.fn ? '<span class="fn">  (' + esc(r.fn) + ')</span>' : '');
      },
      line: function (i) { return s.rows[i].header ? null : s.rows[i].line; },
      attrs: function (i) { var r = s.rows[i]; return r.header ? '' : ' data-file="' + esc(r.file) + '"'; },
      cls: function (i) { return s.rows[i].header ? 'file' : 'linked'; }
    });
  }

  function showUnit(id) {
    var m = unitModel(id);
    if (!m) return false;
    state.unit = id;
    state.m = m;
    state.sel = null;
    state.hover = null;
    state.group = -1;
    state.groups = null;
    $('overview') && ($('overview').hidden = true);
    $('panels').hidden = false;
    $('details').hidden = false;
    var sel = $('unit-select');
    if (sel) sel.value = id;
    var d = m.d;
    var facts = '<b>' + esc(d.name) + '</b>';
    // Back to the unit's compile in the dashboard (its row in the index).
    if (d.compile)
      facts += ' · <a id="compile-link" href="' + (mode === 'single' ? '#' : 'index.html#') +
        esc(d.compile) + '" title="this compile in the dashboard">compile ' +
        esc(d.compile_name || d.compile_id || d.compile) + '</a>';
    if (d.frame) facts += ' · ' + esc(d.frame[0] + ':' + d.frame[1] + ' in ' + d.frame[2]);
    var cv = d.coverage;
    function pct(x) { return x[1] ? x[0] + '/' + x[1] : '-'; }
    facts += ' · linked: pre-grad ' + pct(cv.pre_grad) + ', post-grad ' + pct(cv.post_grad) +
      ', kernels ' + pct(cv.kernels);
    if (d.discarded) facts += ' · <b class="discarded" title="' + esc(d.discarded) + '">discarded attempt</b>';
    if (!hasMapping(d)) facts += ' · <b>no provenance mapping</b>';
    var inferred = inferredCount(d);
    if (inferred) facts += ' · ' + plural(inferred, 'inferred link') + ' (dashed)';
    if (d.log) facts += ' · log <code>' + esc(d.log.replace(/^.*[\\/]/, '')) + '</code>';
    $('unit-facts').innerHTML = facts;
    $('unit-facts').title = d.log;
    document.title = 'tlp: ' + d.name;
    state.views = {};
    function panel(p) { return document.querySelector('[data-panel="' + p + '"]'); }
    state.views.pre = graphView(panel('pre'), m, 'pre');
    state.views.post = graphView(panel('post'), m, 'post');
    state.views.code = codeView(panel('code'), m, 'code');
    state.views.kernel = m.kernel ? codeView(panel('kernel'), m, 'kernel') : null;
    if (!m.kernel) panel('kernel').textContent = '';
    state.views.source = sourceView(panel('source'), m);
    // The wrapper opens at its entry function (call / run_impl), where the
    // launches are.
    PANELS.forEach(function (p) {
      var v = state.views[p];
      if (!v) return;
      if (p === 'code' && d.code.entry) v.top(d.code.entry[0], true);
      else if (p !== 'kernel') v.update(true);
    });
    setCodeTab('code', true);
    $('code-tabs').hidden = !m.kernel;
    state.jumpBack = null;
    applyFolds();
    applyColours();
    renderDetails();
    return true;
  }

  function setCodeTab(t, initial) {
    state.codeTab = t;
    var tabs = $('code-tabs');
    tabs.innerHTML = '';
    [['code', 'wrapper'], ['kernel', 'kernel file']].forEach(function (x) {
      var b = make('button', '', x[1]);
      b.type = 'button';
      b.dataset.tab = x[0];
      b.setAttribute('aria-selected', String(t === x[0]));
      var v = state.views[x[0]];
      if (v && v.marks.hl.size) b.appendChild(make('span', 'count', ' (' + v.marks.hl.size + ')'));
      b.addEventListener('click', function () { setCodeTab(x[0]); });
      tabs.appendChild(b);
    });
    document.querySelector('[data-panel="code"]').hidden = t !== 'code';
    document.querySelector('[data-panel="kernel"]').hidden = t !== 'kernel';
    var v = state.views[t];
    if (v && !initial) v.update();
  }

  // Selection and hover.
  function highlight(item, markName) {
    var m = state.m;
    var c = item ? counterparts(m, item) : emptyParts();
    var infEnds = item && markName !== 'hover' ? inferredEnds(m, itemEnds(m, item)) : null;
    var infRows = infEnds ? endRows(m, infEnds) : null;
    PANELS.forEach(function (p) {
      var v = state.views[p];
      if (!v) return;
      if (markName === 'hover') {
        var h = new Set(c[p]);
        if (p === 'code') c.codeDef.forEach(function (l) { h.add(l); });
        v.mark('hover', h);
        return;
      }
      v.mark('hl', c[p]);
      v.mark('hl-def', p === 'code' ? c.codeDef : new Set());
      var inf = new Set();
      var keep = function (r) { if (c[p].has(r) || (p === 'code' && c.codeDef.has(r))) inf.add(r); };
      if (infRows) infRows[p].forEach(keep);
      if (infRows && p === 'code') infRows.codeDef.forEach(keep);
      v.mark('inf', inf);
      v.mark('sel', item && item.panel === p && item.row ? new Set([item.row]) : new Set());
    });
    return c;
  }

  function select(item, opts) {
    var t0 = performance.now();
    opts = opts || {};
    state.sel = item;
    var geo = {};
    PANELS.forEach(function (p) { if (state.views[p]) geo[p] = state.views[p].geometry(); });
    var c = highlight(item, 'hl');
    if (item) {
      PANELS.forEach(function (p) {
        var v = state.views[p];
        if (!v || (p === item.panel && !opts.scrollAll)) return;
        var rows = Array.from(c[p]);
        if (p === 'code' && !rows.length) rows = Array.from(c.codeDef);
        if (!rows.length) return;
        if (p === item.panel && item.row) rows = [item.row];
        if (rows.some(function (r) { return v.isVisible(r, geo[p]); })) return;
        v.reveal(Math.min.apply(null, rows), geo[p]);
      });
      if (item.panel === 'kernel' && state.codeTab !== 'kernel' && !c.code.size) setCodeTab('kernel');
    }
    if (state.m.kernel) setCodeTab(state.codeTab);
    state.tab = 'selection';
    renderDetails();
    writeHash();
    window.tlp.selectMs = performance.now() - t0;
  }

  function setHover(item) {
    if (item === state.hover) return;
    state.hover = item;
    highlight(item, 'hover');
  }

  // Groups: kernels with a counterpart, in table order, then linked
  // pre-grad nodes that went into no kernel.
  function groupList() {
    if (state.groups) return state.groups;
    var m = state.m, g = [];
    m.kernels.forEach(function (k, i) {
      if (k.post.length || k.pre.length || k.sources.length) g.push(kernelItem(m, i));
    });
    if (m.pre) m.pre.data.nodes.forEach(function (n, i) {
      if (n.links && n.links.length && !(n.kernels && n.kernels.length)) g.push(nodeItem(m, 'pre', i));
    });
    return (state.groups = g);
  }
  function step(delta) {
    var g = groupList();
    if (!g.length) return;
    if (state.group < 0) state.group = delta > 0 ? 0 : g.length - 1;
    else state.group = (state.group + delta + g.length) % g.length;
    select(g[state.group], { scrollAll: true });
  }

  function applyColours() {
    var m = state.m;
    $('colour-toggle').setAttribute('aria-pressed', String(state.colours));
    var arrays = {};
    PANELS.forEach(function (p) {
      var v = state.views[p];
      if (v) arrays[p] = state.colours ? new Int16Array(v.spec.count + 1) : null;
    });
    if (state.colours) {
      var put = function (p, row, k) { var a = arrays[p]; if (a && row > 0 && row < a.length && !a[row]) a[row] = hue(k) + 1; };
      m.kernels.forEach(function (K, k) {
        if (!(K.post.length || K.pre.length || K.sources.length)) return;
        K.calls.forEach(function (l) { put('code', l, k); });
        if (K.def) for (var l = K.def[0]; l <= K.def[1]; ++l) put('code', l, k);
        if (K.kernel_def) for (var l2 = K.kernel_def[0]; l2 <= K.kernel_def[1]; ++l2) put('kernel', l2, k);
        if (m.pre) K.pre.forEach(function (i) { put('pre', m.pre.data.nodes[i].line, k); });
        if (m.post) K.post.forEach(function (i) { put('post', m.post.data.nodes[i].line, k); });
        K.sources.forEach(function (s) { put('source', m.source.rowOf.get(s[0]), k); });
      });
    }
    PANELS.forEach(function (p) { if (state.views[p]) state.views[p].setGroups(arrays[p]); });
  }

  // ------------------------------------------------------------------
  // Details drawer: the selection, the kernel table, what is not linked.
  function chip(m, item, cls) {
    var b = make('span', 'chip' + (cls ? ' ' + cls : ''), itemLabel(m, item));
    b.addEventListener('click', function () { select(item, { scrollAll: true }); });
    return b;
  }
  function chips(parent, m, items, cls) {
    if (!items.length) { parent.appendChild(document.createTextNode('none')); return; }
    items.slice(0, 500).forEach(function (it) { parent.appendChild(chip(m, it, cls)); });
    if (items.length > 500) parent.appendChild(document.createTextNode(' … ' + (items.length - 500) + ' more'));
  }
  function dl(parent, pairs) {
    var d = make('dl');
    pairs.forEach(function (p) {
      d.appendChild(make('dt', '', p[0]));
      var dd = make('dd');
      if (typeof p[1] === 'function') p[1](dd); else dd.textContent = p[1];
      d.appendChild(dd);
    });
    parent.appendChild(d);
  }
  function srcText(m, s) {
    var x = m.d.sources[s];
    return x[0] + ':' + x[1] + ' in ' + x[2] + (x[3] ? ': ' + x[3] : '') +
      (x[5] ? '  (underlined: ' + underlined(x) + ')' : '');
  }
  /// The part of a source entry's code its kernel stack trace underlined
  /// (x[5], [begin, end) in the code; absent when the trace had none).
  function underlined(x) { return x[5] ? (x[3] || '').slice(x[5][0], x[5][1]) : ''; }
  function excerptPre(lines, range, max) {
    var out = [], last = Math.min(range[1], range[0] + max - 1);
    var w = String(last).length;
    for (var l = range[0]; l <= last; ++l) {
      var n = String(l);
      out.push(' '.repeat(w - n.length) + n + '  ' + lines[l - 1]);
    }
    if (last < range[1]) out.push('… ' + (range[1] - last) + ' more lines');
    return make('pre', '', out.join('\n'));
  }
  function infoText(info) {
    try { return JSON.stringify(JSON.parse(info), null, 2); } catch (e) { return info; }
  }

  /// One edge as a drawer row: the other end (a chip that selects it),
  /// the edge's origin and confidence; inferred edges dashed.
  function edgeRow(m, e, from, to) {
    var div = make('div', 'edge' + (e.conf < 100 ? ' inferred' : ''));
    div.dataset.origin = e.origin;
    div.dataset.confidence = String(e.conf);
    [from, to].forEach(function (k, j) {
      if (k === null) return;
      if (j && from !== null) div.appendChild(document.createTextNode(' → '));
      var it = endItem(m, k);
      var c = make('span', 'chip' + (e.conf < 100 ? ' inf' : ''), endLabel(m, k));
      if (it) c.addEventListener('click', function () { select(it, { scrollAll: true }); });
      div.appendChild(c);
    });
    div.appendChild(make('span', 'origin', ' ' + e.origin + ', ' + e.conf + '%' + (e.conf < 100 ? ' (inferred)' : '')));
    return div;
  }
  /// The edges of \p ends (the selection), each with the other end.
  /// A scan of the flat lists, not the index: a selection in a unit of
  /// 40,000 edges costs a millisecond, not the index's 100.
  function edgeList(dd, m, ends) {
    var mine = new Set(ends), rows = [];
    (m.d.edges || []).forEach(function (g) {
      var f = g[2];
      for (var i = 0; i + 3 < f.length; i += 4) {
        var from = endKey(f[i], f[i + 1]), to = endKey(f[i + 2], f[i + 3]);
        var inTo = mine.has(to), inFrom = mine.has(from);
        if (!inTo && !inFrom) continue;
        var e = { from: from, to: to, origin: g[0], conf: g[1] };
        if (inTo) rows.push([e, from, null]);
        if (inFrom) rows.push([e, null, to]);
      }
    });
    rows.sort(function (a, b) { return (a[1] === null) - (b[1] === null); });
    if (!rows.length) { dd.textContent = 'none'; return; }
    rows.slice(0, 300).forEach(function (r) {
      var div = edgeRow(m, r[0], r[1], r[2]);
      div.insertBefore(document.createTextNode(r[1] === null ? '→ ' : '← '), div.firstChild);
      dd.appendChild(div);
    });
    if (rows.length > 300) dd.appendChild(document.createTextNode('… ' + (rows.length - 300) + ' more'));
  }
  function jumpButton(parent, K, it) {
    var toDef = !atDefinition(K, it);
    if (toDef ? !(K.def_begin || K.kernel_def_begin) : !K.calls.length) return;
    var b = make('button', 'jump-button', toDef ? 'go to definition (d)' : 'back to launch (d)');
    b.type = 'button';
    b.addEventListener('click', function () { jump(); });
    parent.appendChild(b);
  }

  function detailsSelection(body) {
    var m = state.m, it = state.sel;
    if (!it) {
      body.appendChild(make('p', 'none', 'Click a bold line to select it and its counterparts in every panel; hover to preview. ' +
        'n / p step through the kernel groups, / finds a node or kernel, d jumps from a launch to its definition and back, ' +
        'c colours each kernel group, t switches the theme, Esc clears. Dashed: reached only through inferred links.'));
      return;
    }
    if (it.kind === 'kernel') {
      it.rows.forEach(function (k) {
        var K = m.kernels[k];
        body.appendChild(make('h3', '', 'kernel ' + K.key));
        jumpButton(body, K, it);
        dl(body, [
          ['kind', K.kind + (K.in_mapping ? '' : ' (not in the provenance mapping)')],
          ['calls', K.calls.length ? 'line ' + K.calls.join(', ') : 'none'],
          ['post-grad nodes', function (dd) { chips(dd, m, K.post.map(function (i) { return nodeItem(m, 'post', i); })); }],
          ['pre-grad nodes', function (dd) { chips(dd, m, K.pre.map(function (i) { return nodeItem(m, 'pre', i); })); }],
          ['user source', function (dd) {
            if (!K.sources.length) { dd.textContent = 'none'; return; }
            K.sources.forEach(function (s) {
              var r = m.source.rowOf.get(s[0]);
              var c = make('span', 'chip', srcText(m, s[0]) + '  [' + s[1] + ']');
              c.addEventListener('click', function () { select({ kind: 'src', row: r, panel: 'source' }, { scrollAll: true }); });
              dd.appendChild(c);
              dd.appendChild(make('br'));
            });
          }],
          ['links', function (dd) { edgeList(dd, m, [endKey(2, k)]); }]
        ]);
        if (K.def && m.code) {
          body.appendChild(make('h4', '', 'definition (wrapper lines ' + K.def[0] + '-' + K.def[1] + ')'));
          body.appendChild(excerptPre(m.code.lines, K.def, 400));
        }
        if (K.kernel_def && m.kernel) {
          body.appendChild(make('h4', '', 'definition (kernel file lines ' + K.kernel_def[0] + '-' + K.kernel_def[1] + ')'));
          body.appendChild(excerptPre(m.kernel.lines, K.kernel_def, 400));
        }
        if (K.info !== null) {
          body.appendChild(make('h4', '', 'triton_kernel_info (autotuning)'));
          body.appendChild(make('pre', '', infoText(K.info)));
        }
      });
      return;
    }
    if (it.kind === 'pre' || it.kind === 'post') {
      var g = m[it.kind], n = g.data.nodes[it.index], other = it.kind === 'pre' ? 'post' : 'pre';
      body.appendChild(make('h3', '', (it.kind === 'pre' ? 'pre-grad node ' : 'post-grad node ') + qualified(n)));
      var kernels = (n.kernels || []).map(function (k) { return kernelItem(m, k); });
      var links = (n.links || []).map(function (i) { return nodeItem(m, other, i); });
      dl(body, [
        ['op', n.op], ['line ' + n.line, (g.lines[n.line - 1] || '').trim()],
        [other === 'post' ? 'post-grad nodes' : 'pre-grad nodes', function (dd) { chips(dd, m, links); }],
        ['kernels', function (dd) { chips(dd, m, kernels, 'k'); }],
        ['user source', n.source !== undefined ? srcText(m, n.source) : 'none'],
        ['links', function (dd) { edgeList(dd, m, itemEnds(m, it)); }]
      ]);
      if (!links.length && !kernels.length)
        body.appendChild(make('p', 'none', 'Mapped to nothing: fused away, constant-folded, dead, or not covered by the provenance data.'));
      return;
    }
    var row = m.source.rows[it.row];
    body.appendChild(make('h3', '', row.file + ':' + row.line));
    var ks = new Set(), pre = new Set(), post = new Set();
    row.srcs.forEach(function (s) {
      (m.source.kernels.get(s) || []).forEach(function (k) { ks.add(k); });
      (m.source.pre.get(s) || []).forEach(function (k) { pre.add(k); });
      (m.source.post.get(s) || []).forEach(function (k) { post.add(k); });
    });
    // The calls of the line that kernel stack traces underline, each with
    // its kernels (entries with a span; the C++ kernelsOfSource).
    var calls = new Map();
    row.srcs.forEach(function (s) {
      var x = m.d.sources[s];
      if (!x[5]) return;
      var key = x[5][0] + '-' + x[5][1], c = calls.get(key);
      if (!c) calls.set(key, c = { b: x[5][0], e: x[5][1], text: underlined(x), ks: new Set() });
      (x[4] || []).forEach(function (k) { c.ks.add(k); });
    });
    var callPairs = Array.from(calls.values()).sort(function (a, b) { return a.b - b.b || a.e - b.e; })
      .map(function (c) {
        return [c.text + '  (characters ' + (c.b + 1) + '-' + c.e + ')', function (dd) {
          chips(dd, m, Array.from(c.ks).map(function (k) { return kernelItem(m, k); }), 'k');
        }];
      });
    if (callPairs.length) callPairs.unshift(['calls (underlined by the kernels\' stack traces)', '']);
    dl(body, [
      ['code', row.code || ''], ['function', row.fn || ''],
      ['kernels', function (dd) { chips(dd, m, Array.from(ks).map(function (k) { return kernelItem(m, k); }), 'k'); }]
    ].concat(callPairs, [
      ['pre-grad nodes', function (dd) { chips(dd, m, Array.from(pre).map(function (i) { return nodeItem(m, 'pre', i); })); }],
      ['post-grad nodes', function (dd) { chips(dd, m, Array.from(post).map(function (i) { return nodeItem(m, 'post', i); })); }]
    ]));
  }

  function detailsKernels(body) {
    var m = state.m;
    if (!m.kernels.length) { body.appendChild(make('p', 'none', 'no kernels in this unit')); return; }
    var t = make('table', 'kernels');
    t.innerHTML = '<thead><tr><th>kernel</th><th>kind</th><th>calls</th><th>post-grad</th><th>pre-grad</th><th>source lines</th><th>autotune info</th></tr></thead>';
    var tb = make('tbody');
    m.kernels.forEach(function (K, k) {
      var tr = make('tr');
      tr.innerHTML = '<td>' + esc(K.key) + '</td><td>' + esc(K.kind) + '</td><td>' + esc(K.calls.join(', ')) +
        '</td><td>' + K.post.length + '</td><td>' + K.pre.length + '</td><td>' + K.sources.length +
        '</td><td>' + (K.info !== null ? 'yes' : '') + '</td>';
      tr.addEventListener('click', function () { select(kernelItem(m, k), { scrollAll: true }); });
      tb.appendChild(tr);
    });
    t.appendChild(tb);
    body.appendChild(t);
  }

  /// True if the log had node mappings for the unit (any version, or the
  /// older separate artifacts); without, links come from code comments.
  function hasMapping(d) {
    return d.provenance.some(function (p) { return p[0] === 'mapping' || p[0] === 'node_tree' || p[0] === 'kernel_nodes'; });
  }
  function unlinkedCount(m) {
    var u = m.d.unlinked;
    return u.pre.length + u.post.length + u.kernels_without_nodes.length + u.kernels_without_source.length;
  }
  function detailsUnlinked(body) {
    var m = state.m, u = m.d.unlinked;
    body.appendChild(make('p', 'none', 'What provenance does not cover, so that a missing highlight is not mistaken for a link. ' +
      'Nodes count when they compute (not placeholders, attributes or the output).'));
    if (!hasMapping(m.d))
      body.appendChild(make('p', 'note', 'This unit has no provenance mapping in the log, so links come only from the comments ' +
        'Inductor writes into the generated code and graphs. Run with INDUCTOR_PROVENANCE=1 (and TORCH_TRACE) to get ' +
        'inductor_provenance_tracking_node_mappings.'));
    m.d.provenance.forEach(function (p) {
      body.appendChild(make('p', 'none', 'provenance from ' + p[1] + ' (log line ' + p[2] + ')'));
    });
    function section(title, items, cls) {
      body.appendChild(make('h4', '', title + ' (' + items.length + ')'));
      var p = make('div');
      chips(p, m, items, cls);
      body.appendChild(p);
    }
    section('pre-grad nodes mapped to nothing', u.pre.map(function (i) { return nodeItem(m, 'pre', i); }));
    section('post-grad nodes mapped to nothing', u.post.map(function (i) { return nodeItem(m, 'post', i); }));
    section('kernels with no graph node', u.kernels_without_nodes.map(function (k) { return kernelItem(m, k); }), 'k');
    section('kernels with no user source', u.kernels_without_source.map(function (k) { return kernelItem(m, k); }), 'k');
  }

  /// The links tab: the unit's edges by origin and confidence, then every
  /// inferred edge with its confidence.
  function detailsLinks(body) {
    var m = state.m, E = edgeModel(m);
    body.appendChild(make('p', 'none', 'Where each link comes from: the provenance mapping and the comments and stack ' +
      'traces PyTorch writes (100%), or inferred from shared source lines and op names (less; drawn dashed). ' +
      'See docs/inference.md.'));
    var t = make('table', 'kernels');
    t.id = 'edge-origins';
    t.innerHTML = '<thead><tr><th>origin</th><th>confidence</th><th>links</th></tr></thead>';
    var tb = make('tbody');
    (m.d.edges || []).forEach(function (g) {
      var tr = make('tr', g[1] < 100 ? 'inferred' : '');
      tr.innerHTML = '<td>' + esc(g[0]) + '</td><td>' + g[1] + '%</td><td>' + g[2].length / 4 + '</td>';
      tb.appendChild(tr);
    });
    t.appendChild(tb);
    body.appendChild(t);
    var inf = E.list.filter(function (e) { return e.conf < 100; });
    body.appendChild(make('h4', '', 'inferred links (' + inf.length + ')'));
    inf.slice(0, 500).forEach(function (e) { body.appendChild(edgeRow(m, e, e.from, e.to)); });
    if (inf.length > 500) body.appendChild(make('p', 'none', '… ' + (inf.length - 500) + ' more'));
  }

  function renderDetails() {
    var m = state.m;
    if (!m) return;
    var tabs = $('details-tabs'), body = $('details-body');
    tabs.innerHTML = '';
    [['selection', 'selection'], ['kernels', 'kernels (' + m.kernels.length + ')'],
      ['unlinked', 'not linked (' + unlinkedCount(m) + ')'],
      ['links', 'links (' + (m.d.edges || []).reduce(function (a, g) { return a + g[2].length / 4; }, 0) + ')']].forEach(function (t) {
      var b = make('button', '', t[1]);
      b.type = 'button';
      b.dataset.tab = t[0];
      b.setAttribute('aria-selected', String(state.tab === t[0]));
      b.addEventListener('click', function () { state.tab = t[0]; renderDetails(); });
      tabs.appendChild(b);
    });
    tabs.appendChild(foldButton('details'));
    body.textContent = '';
    body.dataset.tab = state.tab;
    if (state.tab === 'kernels') detailsKernels(body);
    else if (state.tab === 'unlinked') detailsUnlinked(body);
    else if (state.tab === 'links') detailsLinks(body);
    else detailsSelection(body);
  }

  // ------------------------------------------------------------------
  // Filter (/): find a node or kernel by name.
  var filter = { entries: null, results: [], active: 0 };
  /// What the filter finds: kernels by name, nodes by name and by the
  /// names of their op (the unit's "ops", from tlp's targetAliases():
  /// aten.sigmoid, torch.sigmoid, sigmoid), user source lines by their
  /// text, as tlp-emit --node does.
  function filterEntries() {
    var m = state.m, e = [], ops = m.d.ops || [];
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
    if (!state.m) return;
    filter.entries = filter.entries && filter.unit === state.unit ? filter.entries : filterEntries();
    filter.unit = state.unit;
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
    if (x) select(x.item, { scrollAll: true });
  }
  function moveFilter(d) {
    var lis = $('filter-results').children;
    if (!lis.length) return;
    lis[filter.active].className = '';
    filter.active = (filter.active + d + lis.length) % lis.length;
    lis[filter.active].className = 'active';
    lis[filter.active].scrollIntoView({ block: 'nearest' });
  }

  // ------------------------------------------------------------------
  // Search (f, Ctrl+F): full text over every panel, in the data, so rows
  // not built yet are found too; n / N of matches, Enter / Shift+Enter or
  // the arrows go to the next / previous (revealing and building it).
  var search = { hits: [], cur: -1, q: '' };
  /// The text of each panel's rows, lower case, made once per unit.
  function searchText(m, p) {
    m.lower = m.lower || {};
    if (m.lower[p]) return m.lower[p];
    var t;
    if (p === 'source') {
      t = m.source.rows.slice(1).map(function (r) { return (r.header || (r.code || '') + '  (' + (r.fn || '') + ')').toLowerCase(); });
    } else {
      t = m[p] ? m[p].lines.map(function (l) { return l.toLowerCase(); }) : [];
    }
    return (m.lower[p] = t);
  }
  function runSearch() {
    var m = state.m, q = $('search-input').value.toLowerCase();
    search.q = q;
    search.hits = [];
    search.cur = -1;
    var per = {};
    PANELS.forEach(function (p) {
      per[p] = new Set();
      if (!q || !state.views[p]) return;
      var t = searchText(m, p);
      for (var i = 0; i < t.length; ++i)
        if (t[i].indexOf(q) >= 0) { search.hits.push([p, i + 1]); per[p].add(i + 1); }
    });
    PANELS.forEach(function (p) {
      var v = state.views[p];
      if (!v) return;
      v.query = q;
      v.mark('found', per[p]);
      v.mark('found-cur', new Set());
    });
    showSearchCount();
  }
  function showSearchCount() {
    var n = search.hits.length;
    $('search-count').textContent = !search.q ? '' : n ? (search.cur < 0 ? n + ' lines' : (search.cur + 1) + ' / ' + n) : 'no match';
  }
  function stepSearch(d) {
    var n = search.hits.length;
    if (!n) return;
    search.cur = search.cur < 0 ? (d > 0 ? 0 : n - 1) : (search.cur + d + n) % n;
    var h = search.hits[search.cur], p = h[0];
    PANELS.forEach(function (x) { if (state.views[x] && x !== p) state.views[x].mark('found-cur', new Set()); });
    if ((p === 'code' || p === 'kernel') && state.m.kernel) setCodeTab(p);
    var v = state.views[p];
    v.reveal(h[1]);
    v.mark('found-cur', new Set([h[1]]));
    showSearchCount();
  }
  function openSearch() {
    if (!state.m) return;
    $('search').hidden = false;
    var inp = $('search-input');
    inp.focus();
    inp.select();
  }
  function closeSearch() {
    $('search').hidden = true;
    $('search-input').blur();
    $('search-input').value = '';
    runSearch();
  }

  // ------------------------------------------------------------------
  // URL fragment: #unit=ID&sel=REF.
  var writingHash = false;
  function writeHash() {
    var p = new URLSearchParams();
    if (mode === 'single' && state.unit) p.set('unit', state.unit);
    if (state.sel) p.set('sel', itemRef(state.m, state.sel));
    var h = p.toString();
    var url = location.pathname + location.search + (h ? '#' + h : '');
    writingHash = true;
    history.replaceState(null, '', url);
    writingHash = false;
  }
  function readHash() {
    var h = location.hash.slice(1);
    if (h === 'overview') { showOverview(); return; }
    // A compile id of the overview's dashboard (#compile-0-1).
    if (/^compile-/.test(h) && document.getElementById(h)) {
      showOverview();
      document.getElementById(h).scrollIntoView();
      return;
    }
    var p = new URLSearchParams(h);
    var id = p.get('unit');
    if (!id || !state.units.some(function (u) { return u.id === id && u.el; }))
      id = state.unit || (state.units.find(function (u) { return u.el; }) || {}).id;
    if (!id) { showOverview(); return; }
    if (id !== state.unit) showUnit(id);
    var ref = p.get('sel');
    var item = ref ? parseRef(state.m, ref) : null;
    if (item) select(item, { scrollAll: true });
    else if (state.sel) select(null);
  }
  function showOverview() {
    var o = $('overview');
    if (!o) return;
    o.hidden = false;
    $('panels').hidden = true;
    $('details').hidden = true;
    $('unit-select').value = '';
    state.unit = null;
    $('unit-facts').textContent = '';
  }

  // ------------------------------------------------------------------
  // Wiring.
  function viewOf(el) {
    var sec = el.closest('[data-panel]');
    return sec ? sec.dataset.panel : null;
  }
  function onPanelEvent(ev, kind) {
    var r = ev.target.closest('.r');
    if (!r || !state.m) return;
    var p = viewOf(r), v = state.views[p];
    if (!v) return;
    var item = itemAt(state.m, p, v.rowOf(r));
    if (kind === 'click') select(item);
    else if (kind === 'dblclick') { if (item && item.kind === 'kernel') jump(); }
    else setHover(item);
  }

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
          PANELS.forEach(function (p) { if (state.views[p]) state.views[p].update(); });
        }
        d.addEventListener('pointermove', move);
        d.addEventListener('pointerup', up);
        ev.preventDefault();
      });
    });
  }

  var HELP = [
    ['click', 'select a bold line: its counterparts are highlighted in every panel and scrolled to'],
    ['hover', 'preview the counterparts of a line'],
    ['Esc', 'clear the selection (or close this box)'],
    ['n / p', 'next / previous linked group (a kernel and what it came from)'],
    ['/', 'find a node, kernel, op (aten.sigmoid, torch.sigmoid) or source line'],
    ['f, Ctrl+F', 'search the text of every panel; Enter / Shift+Enter: next / previous'],
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
    if ((ev.ctrlKey || ev.metaKey) && ev.key === 'f' && state.m) { openSearch(); ev.preventDefault(); return; }
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
      else if (state.m) { select(null); state.group = -1; }
    } else if (!state.m) {
      return;
    } else if (ev.key === 'n') step(1);
    else if (ev.key === 'p') step(-1);
    else if (ev.key === '/') { openFilter(); ev.preventDefault(); }
    else if (ev.key === 'c') { state.colours = !state.colours; applyColours(); }
    else if (ev.key === 'd') jump();
    else if (ev.key === 'f') { openSearch(); ev.preventDefault(); }
    else if (ev.key === 't') toggleTheme();
    else if (ev.key === '?') toggleHelp();
    else return;
  }

  function init() {
    var blocks = document.querySelectorAll('script.tlp-unit');
    var here = new Map();
    Array.prototype.forEach.call(blocks, function (b) { here.set(b.dataset.unit, b); });
    var listed = window.TLP_UNITS; // units.js, directory output
    if (mode === 'unit' && Array.isArray(listed)) {
      state.units = listed.map(function (u) { return { id: u[0], name: u[1], file: u[2], el: here.get(u[0]) }; });
      if (!state.units.some(function (u) { return u.el; }))
        here.forEach(function (el, id) { state.units.push({ id: id, name: id, el: el }); });
    } else {
      here.forEach(function (el, id) {
        state.units.push({ id: id, name: id, el: el });
      });
      // Names come from the data; read them cheaply from the overview.
      Array.prototype.forEach.call(document.querySelectorAll('#overview tr[data-unit] a'), function (a) {
        var id = a.closest('tr').dataset.unit;
        var u = state.units.find(function (x) { return x.id === id; });
        if (u) u.name = a.textContent;
      });
    }
    var sel = $('unit-select');
    if (mode === 'single') {
      var o = make('option', '', 'overview: all units');
      o.value = '';
      sel.appendChild(o);
    }
    state.units.forEach(function (u) {
      var o = make('option', '', u.name);
      o.value = u.id;
      sel.appendChild(o);
    });
    sel.addEventListener('change', function () {
      var id = sel.value;
      if (mode === 'unit') {
        var u = state.units.find(function (x) { return x.id === id; });
        if (u && u.file && !u.el) location.href = encodeURI(u.file);
        return;
      }
      location.hash = id ? 'unit=' + encodeURIComponent(id) : 'overview';
      sel.blur(); // so that the keys work at once
    });
    if (mode === 'single') $('home').href = '#overview';
    var main = $('panels');
    main.addEventListener('click', function (ev) { onPanelEvent(ev, 'click'); });
    main.addEventListener('dblclick', function (ev) { onPanelEvent(ev, 'dblclick'); });
    main.addEventListener('mouseover', function (ev) { onPanelEvent(ev, 'hover'); });
    main.addEventListener('mouseleave', function () { setHover(null); });
    dividers();
    document.addEventListener('keydown', onKey);
    $('colour-toggle').addEventListener('click', function () { state.colours = !state.colours; applyColours(); });
    $('filter-open').addEventListener('click', openFilter);
    $('help-open').addEventListener('click', toggleHelp);
    $('theme-toggle').addEventListener('click', toggleTheme);
    showTheme();
    $('filter-input').addEventListener('input', runFilter);
    $('search-open').addEventListener('click', openSearch);
    $('search-input').addEventListener('input', runSearch);
    $('search-next').addEventListener('click', function () { stepSearch(1); });
    $('search-prev').addEventListener('click', function () { stepSearch(-1); });
    window.addEventListener('hashchange', function () { if (!writingHash) readHash(); });
    window.addEventListener('resize', function () {
      PANELS.forEach(function (p) { if (state.views[p]) state.views[p].update(); });
    });
    readHash();
    // Ready once the first frame with the panels is painted.
    requestAnimationFrame(function () {
      setTimeout(function () {
        window.tlp.readyAt = performance.now();
        document.body.dataset.ready = '1';
        colours.enabled = true;
        scheduleColour();
      }, 0);
    });
  }

  // For tests and scripts: reveal(panel, line) scrolls a row into view
  // (building it); select(ref) selects by fragment reference; clear();
  // unit() is the unit shown, data() its data.
  window.tlp = {
    reveal: function (panel, line) {
      var v = state.views[panel];
      if (!v) return false;
      if (panel === 'code' || panel === 'kernel') setCodeTab(panel);
      v.reveal(line);
      return true;
    },
    select: function (ref) {
      var it = state.m && parseRef(state.m, ref);
      if (it) select(it, { scrollAll: true });
      return !!it;
    },
    clear: function () { select(null); },
    jump: jump,
    colourNow: colourNow,
    colourPending: function () { return colours.queue.length; },
    unit: function () { return state.unit; },
    data: function () { return state.m && state.m.d; }
  };

  init();
})();
