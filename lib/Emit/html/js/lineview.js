// lineview.js: LineView, a panel's rows built lazily, in chunks of CHUNK
// rows as they scroll into view, and their marks (hl, sel, hover, found,
// ...); the idle-time colouring of the chunks built.
//
// Rows are built plain and coloured just after, in idle time, a chunk at
// a time: opening a page or selecting costs what it did without colours,
// which follow within a frame or two. A page's first frame builds only
// the rows it shows (firstHeight); the chunks around them are built in
// the same idle time (fill). Neither runs between a selection and the
// frame that shows it (holdColours): a chunk rebuilt coloured there is
// laid out again in that frame.
var colours = { queue: [], fill: [], scheduled: false, enabled: false, held: false };
function queueColour(view, c) {
  colours.queue.push([view, c]);
  scheduleColour();
}
function scheduleColour() {
  if (colours.scheduled || colours.held || !colours.enabled || !(colours.queue.length || colours.fill.length)) return;
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
  if (colours.held) return; // holdColours schedules it again
  var t0 = performance.now();
  while (colours.queue.length || colours.fill.length) {
    if (colours.queue.length) colourChunk(colours.queue.shift());
    else fillView(colours.fill.shift());
    if (deadline ? deadline.timeRemaining() < 2 : performance.now() - t0 > 8) break;
  }
  scheduleColour();
}
/// Colour nothing until the next frame is painted (a selection's: an idle
/// period can come between a click and its frame).
function holdColours() {
  if (colours.held) return;
  colours.held = true;
  requestAnimationFrame(function () {
    setTimeout(function () {
      colours.held = false;
      scheduleColour();
    }, 0);
  });
}
/// Build the chunks around a view's first frame (a new view is built for
/// what its first frame shows: firstHeight).
function fillView(v) {
  if (v.scroll.isConnected) v.update();
}
/// The height a new view is built for: the window's, less the drawer's
/// (30vh, at least 60px: tlp.css) unless it is folded or resized. The
/// panels are shorter still (the bar above them), so that the first frame
/// lays out the rows it shows and few more, where the window's height
/// built about twice as many; reading the panel's height would lay out
/// the page once per panel.
function firstHeight() {
  var h = window.innerHeight, d = $('details');
  if (!d || d.hidden || folded.has('details') || d.style.height) return h;
  return h - Math.max(60, Math.floor(h * 0.3));
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
  this.soon = null; // where the next frame scrolls the view to (scrollSoon)
  this.soonLeft = false; // and whether it scrolls it back to its left edge
  // The panel's scrollTop and clientHeight as last read (null: not yet),
  // so that a selection need not read them (geometry): reading either
  // lays the page out if a change is pending, the rows a click builds
  // among them. Kept by update() (a scroll, a resize, a fold), by
  // scrollSoon's frame and by a ResizeObserver.
  this.pos = 0; // a new element
  this.height = null;
  this.query = ''; // the search's text, lower case: marked in the found rows
  this.groups = null; // Int16Array of hues + 1, or null
  var self = this;
  var pending = false;
  this.scroll.addEventListener('scroll', function () {
    if (pending) return;
    pending = true;
    requestAnimationFrame(function () { pending = false; self.update(); });
  }, { passive: true });
  if (window.ResizeObserver)
    new ResizeObserver(function () { self.height = self.scroll.clientHeight; }).observe(this.scroll);
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
/// Build the chunks in view. The first render passes no geometry
/// (firstHeight bounds the panel's), so that building five panels does
/// not force five layouts.
LineView.prototype.update = function (initial) {
  if (initial) return this.scrollTo(0, firstHeight(), true);
  var top = this.soon !== null ? this.soon : (this.pos = this.scroll.scrollTop);
  this.height = this.scroll.clientHeight;
  this.build(top, this.height || window.innerHeight, 1);
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
/// Where the panel is scrolled to and its height, as last read where
/// known (a selection then reads no geometry: the page is laid out once,
/// in the frame that shows it, not once per panel).
LineView.prototype.geometry = function () {
  if (this.pos === null && this.soon === null) this.pos = this.scroll.scrollTop;
  if (this.height === null) this.height = this.scroll.clientHeight;
  return { top: this.soon !== null ? this.soon : this.pos, h: this.height };
};
LineView.prototype.isVisible = function (i, g) {
  g = g || this.geometry();
  var y = (i - 1) * LINE_HEIGHT;
  return y >= g.top && y + LINE_HEIGHT <= g.top + g.h;
};
/// Scroll to \p top (px) in a panel \p h px high (\p left: and back to
/// its left edge); \p initial builds only what is in view. The scrollTop
/// is set in the next frame (scrollSoon), whose layout the page needs
/// anyway, unless \p now: setting it lays the page out at once, and again
/// for each panel a selection scrolls after building rows in the one
/// before (a new view, \p initial, at its top, is not even read).
LineView.prototype.scrollTo = function (top, h, initial, left, now) {
  top = Math.max(0, Math.min(top, this.spec.count * LINE_HEIGHT - h));
  if (initial) {
    if (top) scrollSoon(this, top);
    colours.fill.push(this);
    scheduleColour();
  } else if (now) {
    this.soon = null;
    if (left) this.scroll.scrollLeft = 0;
    if (top || this.scroll.scrollTop) this.scroll.scrollTop = top;
    this.pos = this.scroll.scrollTop;
  } else if (top !== this.geometry().top || left) {
    scrollSoon(this, top, left);
  }
  // What is in view, and a chunk more on each side; a scroll in the next
  // frame (a selection's) builds only what is in view: the scroll event
  // that follows it builds the rest (update), a frame after the one that
  // shows the selection.
  this.build(top, h, initial || (!now && this.soon !== null) ? 0 : 1);
};
/// Scroll \p view to \p top (and to its left edge with \p left) in the
/// next frame, all views in one go: the first write lays the page out,
/// the others find it laid out.
var scrollsSoon = [];
function scrollSoon(view, top, left) {
  view.soon = top;
  view.soonLeft = view.soonLeft || !!left;
  if (scrollsSoon.indexOf(view) >= 0 || scrollsSoon.push(view) > 1) return;
  requestAnimationFrame(function () {
    var vs = scrollsSoon;
    scrollsSoon = [];
    vs.forEach(function (v) {
      if (v.soonLeft) v.scroll.scrollLeft = 0;
      if (v.soon !== null) v.scroll.scrollTop = v.soon;
      v.soon = null;
      v.soonLeft = false;
    });
    // Read back once all are set: the page is laid out by then.
    vs.forEach(function (v) { v.pos = v.scroll.scrollTop; });
  });
}
LineView.prototype.top = function (i, initial) {
  this.scrollTo((i - 2) * LINE_HEIGHT, initial ? firstHeight() : this.geometry().h, initial);
};
/// Scroll row \p i to the middle of the panel (\p g: its geometry, read
/// before); in the next frame unless \p now.
LineView.prototype.reveal = function (i, g, now) {
  var h = now ? (this.height = this.scroll.clientHeight) : (g || this.geometry()).h;
  this.scrollTo((i - 1) * LINE_HEIGHT - h / 2 + LINE_HEIGHT / 2, h, false, true, now);
};
