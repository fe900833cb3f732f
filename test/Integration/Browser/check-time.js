// The time column of a unit page (tlp-emit --html --profile; time.js,
// docs/html.md "Time on the unit page") in headless Chromium, against the
// figures of tlp-emit --json --profile of the same trace and log:
//
//  - code: each timed kernel's launch lines show its total time (ms, three
//    significant digits) and its share of the region, a definition's first
//    line the total of the rows defined there; every other line is blank;
//  - post, pre: each node the JSON gives time shows it, every other node
//    line is blank;
//  - source (when the JSON's lines are this unit's alone): each line the
//    JSON gives time shows it, every other line is blank;
//  - heat: each cell's --heat is its figure over the panel's largest, the
//    largest is 1 and has a visible background; a row's text less its cell
//    is still the log's line;
//  - the drawer's kernel table has a time per timed kernel;
//  - the search marks no time cell; the fusion graph's kernel boxes
//    carry their kernel's time in their tooltip;
//  - --hostile TEXT: some tooltip holds TEXT as text, no element of the
//    page was made from it; no console error (the harness).
//
//   node check-time.js (--page PAGE.html | --dir DIR) --json TLP.json
//                      --unit ID [--hostile TEXT]
'use strict';
const fs = require('fs');
const path = require('path');
const { fileURL, parseArgs, checks, runChecks } = require('./browser');

const args = parseArgs('check-time.js (--page PAGE.html | --dir DIR) --json TLP.json --unit ID [--hostile TEXT]',
  { required: ['json', 'unit'] });
const fail = checks.fail.bind(checks);

function fmtMs(ns) {
  const ms = ns / 1e6;
  if (!(ms > 0)) return '0 ms';
  return String(Number(ms.toPrecision(3))) + ' ms';
}
function fmtShare(s) {
  const p = s * 100;
  return (p >= 10 ? String(Math.round(p)) : String(Number(p.toPrecision(2)))) + '%';
}

runChecks(async ({ newPage, open }) => {
  const prof = JSON.parse(fs.readFileSync(args.json, 'utf8')).profile;
  const unit = args.unit;
  const page = await newPage();
  const url = args.page ? fileURL(args.page) + '#unit=' + encodeURIComponent(unit)
    : fileURL(path.join(args.dir, unit + '.html'));
  await open(page, url);
  const d = await page.evaluate(() => {
    const d = window.tlp.data();
    const g = (x) => x ? { nodes: x.data.nodes.map((n) => [n.scope ? n.scope + '.' + n.name : n.name, n.line]), text: x.data.text } : null;
    return {
      kernels: d.kernels.map((k) => ({ key: k.key, calls: k.calls, def_begin: k.def_begin || 0 })),
      post: d.post ? g({ data: d.post }) : null, pre: d.pre ? g({ data: d.pre }) : null,
    };
  });
  if ((await page.evaluate(() => window.tlp.unit())) !== unit) fail('unit shown', await page.evaluate(() => window.tlp.unit()), unit);
  // A row's cell: [text, heat, title, row text less the cell] or null.
  const cell = (panel, line) => page.evaluate(([panel, line]) => {
    window.tlp.reveal(panel, line);
    const sec = document.querySelector('[data-panel="' + panel + '"]');
    const rows = sec.querySelectorAll('.r[data-line="' + line + '"]');
    const r = rows[0];
    if (!r) return 'no row';
    const tm = r.querySelector('span.tm');
    if (!tm) return null;
    const c = r.cloneNode(true);
    c.querySelector('span.tm').remove();
    return [tm.textContent, Number(tm.style.getPropertyValue('--heat')), tm.getAttribute('title'), c.textContent,
      getComputedStyle(tm).backgroundColor, r.firstElementChild === tm];
  }, [panel, line]);
  const near = (a, b) => Math.abs(a - b) < 0.0015;

  // The code panel: launches and definitions.
  const mine = prof.kernels.filter((k) => k.unit === unit);
  const byKey = new Map(mine.map((k) => [k.kernel, k]));
  const want = new Map(); // line -> [text, value]
  const defs = new Map();
  d.kernels.forEach((K) => {
    const k = byKey.get(K.key);
    if (!k) return;
    const text = fmtMs(k.total_ns) + (k.share !== null ? ' ' + fmtShare(k.share) : '');
    K.calls.forEach((l) => want.set(l, [text, k.total_ns]));
    if (K.def_begin) defs.set(K.def_begin, (defs.get(K.def_begin) || 0) + k.total_ns);
  });
  defs.forEach((v, l) => { if (!want.has(l)) want.set(l, [fmtMs(v), v]); });
  const codeLines = await page.evaluate(() => window.tlp.data().code.text.split('\n').length);
  let max = 0;
  want.forEach((w) => { max = Math.max(max, w[1]); });
  let cells = 0, blank = 0, hottest = null;
  for (let l = 1; l <= codeLines; ++l) {
    const c = await cell('code', l);
    const w = want.get(l);
    if (c === 'no row') { fail('code row ' + l, c, 'a row'); continue; }
    if (!w) { if (c) fail('code line ' + l + ' cell', c[0], 'none'); else ++blank; continue; }
    if (!c) { fail('code line ' + l + ' cell', null, w[0]); continue; }
    ++cells;
    if (c[0] !== w[0]) fail('code line ' + l + ' text', c[0], w[0]);
    if (!near(c[1], w[1] / max)) fail('code line ' + l + ' heat', c[1], w[1] / max);
    if (!c[5]) fail('code line ' + l + ' cell first in its row', false, true);
    if (c[1] === 1) hottest = c;
  }
  if (mine.length && !hottest) fail('code: a hottest cell', null, 'heat 1');
  if (hottest && /rgba\(\d+, \d+, \d+, 0(\.[0-4]\d*)?\)|transparent/.test(hottest[4]))
    fail('code: the hottest cell\'s background', hottest[4], 'visible');
  console.log(`${unit}: code: ${cells} cells as the JSON (${mine.length} kernels), ${blank} lines blank, heat to the hottest`);

  // The graphs.
  for (const kind of ['post', 'pre']) {
    const g = d[kind];
    if (!g) continue;
    const times = new Map(prof[kind + '_nodes'].filter((n) => n.unit === unit).map((n) => [n.node, Math.round(n.time_ns)]));
    let gmax = 0;
    times.forEach((t) => { gmax = Math.max(gmax, t); });
    const lines = g.text.split('\n');
    let n = 0, b = 0;
    for (const [name, line] of g.nodes) {
      const c = await cell(kind, line);
      const t = times.get(name);
      if (c === 'no row') { fail(kind + ' row ' + line, c, 'a row'); continue; }
      if (t === undefined) { if (c) fail(kind + ' ' + name + ' cell', c[0], 'none'); else ++b; continue; }
      if (!c) { fail(kind + ' ' + name + ' cell', null, fmtMs(t)); continue; }
      ++n;
      if (c[0] !== fmtMs(t)) fail(kind + ' ' + name + ' text', c[0], fmtMs(t));
      if (!near(c[1], t / gmax)) fail(kind + ' ' + name + ' heat', c[1], t / gmax);
      if (c[3] !== lines[line - 1]) fail(kind + ' ' + name + ' row text', c[3], lines[line - 1]);
      if (!c[2].startsWith(name + ': ' + fmtMs(t))) fail(kind + ' ' + name + ' tooltip', c[2], name + ': ...');
    }
    if (n !== times.size) fail(kind + ' nodes with a cell', n, times.size);
    console.log(`${unit}: ${kind}: ${n} node cells as the JSON, ${b} nodes blank`);
  }

  // The user source, when the JSON's lines are this unit's alone.
  const units = new Set(prof.kernels.map((k) => k.unit));
  if (units.size === 1) {
    const lines = new Map(prof.lines.map((l) => [l.line, Math.round(l.time_ns)]));
    const rows = await page.evaluate(() => {
      const out = [];
      const sec = document.querySelector('[data-panel="source"]');
      const n = sec.querySelectorAll('.r').length;
      for (let i = 1; i <= n; ++i) {
        const r = sec.querySelectorAll('.r')[i - 1];
        if (!r.dataset.file) continue;
        const tm = r.querySelector('span.tm');
        out.push([r.dataset.file + ':' + r.dataset.line, tm ? tm.textContent : null, tm ? tm.getAttribute('title') : null]);
      }
      return out;
    });
    let n = 0, b = 0;
    for (const [key, text, title] of rows) {
      const t = lines.get(key);
      if (t === undefined) { if (text !== null) fail('source ' + key, text, 'none'); else ++b; continue; }
      ++n;
      if (text !== fmtMs(t)) fail('source ' + key + ' text', text, fmtMs(t));
      if (!title || !title.startsWith(key + ': ')) fail('source ' + key + ' tooltip', title, key + ': ...');
    }
    if (n !== lines.size) fail('source lines with a cell', n, lines.size);
    console.log(`${unit}: source: ${n} line cells as the JSON, ${b} lines blank`);
  }

  // The drawer's kernel table.
  await page.click('#details-tabs button[data-tab="kernels"]');
  const times = await page.evaluate(() => Array.from(document.querySelectorAll('table.kernels td.time')).map((t) => t.textContent));
  const filled = times.filter((t) => t).length;
  if (filled !== mine.length) fail('drawer kernel times', filled, mine.length);
  console.log(`${unit}: drawer: ${filled} kernel times of ${times.length} kernels`);

  // The search marks what it finds in a row's text, not in its time
  // cell: "0" is in every cell and in rows with time (buf0, ...).
  await page.click('#search-open');
  await page.fill('#search-input', '0');
  const marks = await page.evaluate(() => [document.querySelectorAll('span.tm mark.hit').length,
    document.querySelectorAll('.r.found span.tm').length, document.querySelectorAll('.r.found mark.hit').length]);
  if (marks[0]) fail('search marks in time cells', marks[0], 0);
  if (!marks[1] || !marks[2]) fail('found rows with a time cell, and marks', marks.slice(1), 'some');
  await page.keyboard.press('Escape');
  console.log(`${unit}: search: ${marks[2]} marks, none in the time cells of ${marks[1]} rows found`);

  // The fusion graph's kernel boxes: the time in each timed kernel's
  // tooltip.
  await page.evaluate(() => window.tlp.postTab('fusion'));
  await page.waitForSelector('[data-panel="fusion"] svg.fusion g.k', { state: 'attached' });
  const boxes = await page.evaluate(() => Array.from(document.querySelectorAll('svg.fusion g.k')).map((g) =>
    [window.tlp.data().kernels[Number(g.dataset.k)].key, g.querySelector('title').textContent]));
  let timedBoxes = 0;
  for (const [key, title] of boxes) {
    const k = byKey.get(key);
    const want = k ? fmtMs(k.total_ns) + (k.share !== null ? ' (' + fmtShare(k.share) + ')' : '') : null;
    if (want && !title.includes(', ' + want)) fail('fusion box ' + key, title, want);
    if (!want && / ms/.test(title)) fail('fusion box ' + key + ' without time', title, 'no time');
    if (want) ++timedBoxes;
  }
  console.log(`${unit}: fusion graph: ${timedBoxes} of ${boxes.length} kernel boxes with their time`);

  if (args.hostile) {
    const h = await page.evaluate((text) => {
      const titles = Array.from(document.querySelectorAll('span.tm')).map((t) => t.getAttribute('title'));
      return { inTitle: titles.some((t) => t.includes(text)), injected: document.querySelectorAll('proj').length };
    }, args.hostile);
    if (!h.inTitle) fail('hostile text in a tooltip', false, true);
    if (h.injected) fail('elements made from the log', h.injected, 0);
    console.log('hostile text: in tooltips as text, nothing made of it');
  }
});
