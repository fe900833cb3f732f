#!/usr/bin/env node
// First paint and click-to-highlight of tlp unit pages, measured in the
// page (issue 24's goals: first paint under 150 ms, a click under 50 ms).
//
//   node bench/html-click.js [--runs 5] [--no-clicks] PAGE.html...
//
// Each round opens every page in turn, each in a fresh tab of one browser,
// so that several pages (before and after a change) see the browser
// equally warm. For each page and run: load it from file:// and read
//   paint_ms  navigation start to the first paint after the panels are
//             rendered (body[data-ready]; a requestAnimationFrame after
//             window.tlp.readyAt, then the next frame)
// then (unless --no-clicks), for every kernel launch line of the code
// panel (at most 20, spread over the wrapper), scroll it into view (not
// timed), and time
//   click_ms  a click dispatched on the line (performance.now() before
//             dispatchEvent) to the first frame painted after it, by which
//             its counterparts are highlighted in the post-grad panel
// Prints per page the median, quartiles and worst over all runs. The time
// is the page's own: no driver round trip is in it. Uses
// test/Integration/Browser's playwright-core and Debian's Chromium. Never
// part of the test suite.
'use strict';
const path = require('path');
const { launch, fileURL } = require(path.join(__dirname, '..', 'test', 'Integration', 'Browser', 'browser.js'));

/// The value at fraction \p f of \p xs in order (0.5: the median).
function at(xs, f) { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(s.length * f))]; }
function summary(xs) {
  if (!xs.length) return '-';
  const n = (f) => at(xs, f).toFixed(0);
  return `${n(0.5)} (p25 ${n(0.25)}, p75 ${n(0.75)}, max ${n(1)})`;
}

/// Open \p p in a fresh tab; its paint time, and its clicks' unless
/// \p clicks is false (-1: a click that highlighted nothing).
async function measure(b, p, clicks) {
  const page = await b.context.newPage();
  await page.goto(fileURL(p));
  await page.waitForSelector('body[data-ready="1"]', { timeout: 60000 });
  const paint = await page.evaluate(() => new Promise((res) => {
    requestAnimationFrame(() => requestAnimationFrame(() => res(window.tlp.readyAt)));
  }));
  const ms = [];
  const lines = !clicks ? [] : await page.evaluate(() => {
    const ls = window.tlp.data().kernels.filter((k) => k.calls.length).map((k) => k.calls[0]);
    const step = Math.max(1, Math.floor(ls.length / 20));
    return ls.filter((_, i) => i % step === 0).slice(0, 20);
  });
  for (const line of lines) {
    await page.evaluate((l) => window.tlp.reveal('code', l), line);
    await page.waitForSelector(`[data-panel="code"] .r[data-line="${line}"]`, { timeout: 60000 });
    ms.push(await page.evaluate((l) => new Promise((res) => {
      const row = document.querySelector(`[data-panel="code"] .r[data-line="${l}"]`);
      const t0 = performance.now();
      row.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true, clientX: 60, clientY: 8 }));
      requestAnimationFrame(() => setTimeout(() => {
        const hl = document.querySelector('[data-panel="post"] .r.hl');
        res(hl ? performance.now() - t0 : -1);
      }, 0));
    }), line));
  }
  await page.close();
  return { paint, clicks: ms };
}

(async () => {
  const args = process.argv.slice(2);
  let runs = 5, clicks = true;
  const pages = [];
  for (let i = 0; i < args.length; ++i) {
    if (args[i] === '--runs') runs = Number(args[++i]);
    else if (args[i] === '--no-clicks') clicks = false;
    else pages.push(args[i]);
  }
  const b = await launch();
  const res = pages.map(() => ({ paint: [], click: [], missed: 0 }));
  for (let r = 0; r < runs; ++r) {
    for (let k = 0; k < pages.length; ++k) {
      const m = await measure(b, pages[k], clicks);
      res[k].paint.push(m.paint);
      for (const c of m.clicks) if (c < 0) ++res[k].missed; else res[k].click.push(c);
    }
  }
  pages.forEach((p, k) => {
    const x = res[k];
    console.log(`${p}: paint_ms ${summary(x.paint)}` +
                (clicks ? `  click_ms ${summary(x.click)}  clicks ${x.click.length}` : '') +
                (x.missed ? `  without a highlight ${x.missed}` : '') + `  runs ${runs}`);
  });
  await b.close();
})();
