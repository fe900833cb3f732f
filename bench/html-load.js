#!/usr/bin/env node
// Time to interactive of tlp HTML pages in headless Chromium.
//
//   node bench/html-load.js [--runs 5] PAGE.html [PAGE.html ...]
//
// For each page, --runs times in a fresh tab: load it from file:// and wait
// until the script has rendered the first unit (body[data-ready]); then
// click a kernel launch line far down the wrapper and wait until its
// counterparts are highlighted. Prints the median and the worst of:
//   ready_ms   navigation start to ready, as the page measures it
//              (performance.now() when the panels are rendered)
//   wall_ms    goto() to ready, as the driver sees it
//   click_ms   reveal + click of the last kernel's launch to highlighted,
//              as the driver sees it
//   select_ms  the page's own time to handle that click (tlp.selectMs)
// Uses test/Integration/Browser's playwright-core and Debian's Chromium.
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
    const ready = [], wall = [], click = [], sel = [];
    for (let r = 0; r < runs; ++r) {
      const page = await b.context.newPage();
      const t0 = Date.now();
      await page.goto(fileURL(p));
      await page.waitForSelector('body[data-ready="1"]', { timeout: 60000 });
      wall.push(Date.now() - t0);
      ready.push(await page.evaluate(() => window.tlp.readyAt));
      // The last launch line of the wrapper.
      const line = await page.evaluate(() => {
        const k = window.tlp.data().kernels.filter((x) => x.calls.length).pop();
        return k ? k.calls[0] : 0;
      });
      if (line) {
        const t1 = Date.now();
        await page.evaluate((l) => window.tlp.reveal('code', l), line);
        await page.click(`[data-panel="code"] .r[data-line="${line}"]`, { position: { x: 60, y: 8 } });
        await page.waitForSelector('[data-panel="post"] .r.hl', { timeout: 60000 });
        click.push(Date.now() - t1);
        sel.push(await page.evaluate(() => window.tlp.selectMs));
      }
      await page.close();
    }
    const f = (xs) => xs.length ? `${median(xs).toFixed(0)} (max ${Math.max(...xs).toFixed(0)})` : '-';
    console.log(`${p}: ready_ms ${f(ready)}  wall_ms ${f(wall)}  click_ms ${f(click)}  select_ms ${f(sel)}  runs ${runs}`);
  }
  await b.close();
})();
