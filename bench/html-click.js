#!/usr/bin/env node
// First paint and click-to-highlight of a tlp unit page, measured in the
// page (issue 24's goals: first paint under 150 ms, a click under 50 ms).
//
//   node bench/html-click.js [--runs 5] PAGE.html
//
// For each run, in a fresh tab: load the page from file:// and read
//   paint_ms  navigation start to the first paint after the panels are
//             rendered (body[data-ready]; a requestAnimationFrame after
//             window.tlp.readyAt, then the next frame)
// then, for every kernel launch line of the code panel (at most 20, spread
// over the wrapper), scroll it into view (not timed), and time
//   click_ms  a click dispatched on the line (performance.now() before
//             dispatchEvent) to the first frame painted after it, by which
//             its counterparts are highlighted in the post-grad panel
// Prints the median and the worst over all runs. The time is the page's
// own: no driver round trip is in it. Uses test/Integration/Browser's
// playwright-core and Debian's Chromium. Never part of the test suite.
'use strict';
const path = require('path');
const { launch, fileURL } = require(path.join(__dirname, '..', 'test', 'Integration', 'Browser', 'browser.js'));

function median(xs) { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; }

(async () => {
  const args = process.argv.slice(2);
  let runs = 5;
  const pages = [];
  for (let i = 0; i < args.length; ++i) {
    if (args[i] === '--runs') runs = Number(args[++i]);
    else pages.push(args[i]);
  }
  const b = await launch();
  for (const p of pages) {
    const paint = [], click = [];
    let missed = 0;
    for (let r = 0; r < runs; ++r) {
      const page = await b.context.newPage();
      await page.goto(fileURL(p));
      await page.waitForSelector('body[data-ready="1"]', { timeout: 60000 });
      paint.push(await page.evaluate(() => new Promise((res) => {
        requestAnimationFrame(() => requestAnimationFrame(() => res(window.tlp.readyAt)));
      })));
      const lines = await page.evaluate(() => {
        const ls = window.tlp.data().kernels.filter((k) => k.calls.length).map((k) => k.calls[0]);
        const step = Math.max(1, Math.floor(ls.length / 20));
        return ls.filter((_, i) => i % step === 0).slice(0, 20);
      });
      for (const line of lines) {
        await page.evaluate((l) => window.tlp.reveal('code', l), line);
        await page.waitForSelector(`[data-panel="code"] .r[data-line="${line}"]`, { timeout: 60000 });
        const ms = await page.evaluate((l) => new Promise((res) => {
          const row = document.querySelector(`[data-panel="code"] .r[data-line="${l}"]`);
          const t0 = performance.now();
          row.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true, clientX: 60, clientY: 8 }));
          requestAnimationFrame(() => setTimeout(() => {
            const hl = document.querySelector('[data-panel="post"] .r.hl');
            res(hl ? performance.now() - t0 : -1);
          }, 0));
        }), line);
        if (ms < 0) ++missed; else click.push(ms);
      }
      await page.close();
    }
    const f = (xs) => xs.length ? `${median(xs).toFixed(0)} (max ${Math.max(...xs).toFixed(0)})` : '-';
    console.log(`${p}: paint_ms ${f(paint)}  click_ms ${f(click)}  clicks ${click.length}` +
                (missed ? `  without a highlight ${missed}` : '') + `  runs ${runs}`);
  }
  await b.close();
})();
