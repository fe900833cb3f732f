// lineview.js: LineView, a panel's rows built lazily, in chunks of CHUNK
// rows as they scroll into view, and their marks (hl, sel, hover, found,
// ...); the idle-time colouring of the chunks built.
//
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
//   spec.time(i)     row i's time cell {text, heat, tip} or null
//                    (optional: a time column, time.js)
//   spec.timeWidth   the time column's width (CSS length)
function LineView(panel, spec) {
  this.panel = panel;
  this.spec = spec;
  this.scroll = make('div', 'scroll');
  this.sizer = make('div', 'sizer');
  this.sizer.style.height = spec.count * LINE_HEIGHT + 'px';
  var digits = String(spec.maxLine || spec.count).length;
  this.sizer.style.setProperty('--gutter', Math.max(3, digits) + 'ch');
  if (spec.time) {
    this.sizer.classList.add('timed');
    this.sizer.style.setProperty('--tcol', spec.timeWidth || '12ch');
  }
  this.scroll.appendChild(this.sizer);
  panel.appendChild(this.scroll);
  this.chunks = new Array(Math.ceil(spec.count / CHUNK));
  this.marks = { hl: new Set(), sel: new Set(), 'hl-def': new Set(), hover: new Set(), inf: new Set(),
    found: new Set(), 'found-cur': new Set() };
  this.soon = null; // where the next frame scrolls a new view to (scrollSoon)
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
  s += '>';
  if (this.spec.time) {
    var t = this.spec.time(i);
    if (t) s += timeCellHTML(t);
  }
  return s + (coloured ? this.spec.colour(i) : this.spec.html(i)) + '</div>';
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
  // Not the time cell's text (time.js): it is not the row's.
  var w = document.createTreeWalker(e, NodeFilter.SHOW_TEXT, {
    acceptNode: function (n) {
      return n.parentNode.closest('.tm') ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT;
    }
  });
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
  var top = this.soon !== null ? this.soon : this.scroll.scrollTop;
  var h = this.scroll.clientHeight || window.innerHeight;
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
  var top = this.soon !== null ? this.soon : this.scroll.scrollTop;
  return { top: top, h: this.scroll.clientHeight };
};
LineView.prototype.isVisible = function (i, g) {
  g = g || this.geometry();
  var y = (i - 1) * LINE_HEIGHT;
  return y >= g.top && y + LINE_HEIGHT <= g.top + g.h;
};
/// Scroll to \p top (px) in a panel \p h px high; \p initial builds
/// only what is in view. A new view (\p initial) is at the top: its
/// scrollTop is neither read nor set now but in the next frame
/// (scrollSoon), whose layout the page needs anyway; reading or setting it
/// here would lay out the whole page once per panel as it is built.
LineView.prototype.scrollTo = function (top, h, initial) {
  top = Math.max(0, Math.min(top, this.spec.count * LINE_HEIGHT - h));
  if (initial) {
    if (top) scrollSoon(this, top);
  } else {
    this.soon = null;
    if (top || this.scroll.scrollTop) this.scroll.scrollTop = top;
  }
  this.build(top, h, initial ? 0 : 1);
};
var scrollsSoon = [];
function scrollSoon(view, top) {
  view.soon = top;
  if (scrollsSoon.push(view) > 1) return;
  requestAnimationFrame(function () {
    var vs = scrollsSoon;
    scrollsSoon = [];
    vs.forEach(function (v) {
      if (v.soon !== null) v.scroll.scrollTop = v.soon;
      v.soon = null;
    });
  });
}
LineView.prototype.top = function (i, initial) {
  this.scrollTo((i - 2) * LINE_HEIGHT, initial ? window.innerHeight : this.scroll.clientHeight, initial);
};
LineView.prototype.reveal = function (i, g) {
  var h = g ? g.h : this.scroll.clientHeight;
  this.scroll.scrollLeft = 0;
  this.scrollTo((i - 1) * LINE_HEIGHT - h / 2 + LINE_HEIGHT / 2, h);
};
