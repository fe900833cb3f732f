#!/usr/bin/env node
// First paint of tlp pages, A/B: the pages are opened in turn, each in a
// fresh tab of one browser, for --runs rounds, so that every page sees
// the browser equally warm (bench/html-click.js opens one page's runs
// together).
//
//   node bench/html-ready.js [--runs 40] BEFORE.html AFTER.html ...
//
// For each page prints the median, quartiles and worst of readyAt
// (navigation start to the first frame painted with the panels, as in
// html-click.js). Uses test/Integration/Browser's playwright-core and
// Debian's Chromium. Never part of the test suite.
'use strict';
const path = require('path');
const { launch, fileURL } = require(path.join(__dirname, '..', 'test', 'Integration', 'Browser', 'browser.js'));

(async () => {
  const args = process.argv.slice(2);
  let runs = 40;
  const pages = [];
  for (let i = 0; i < args.length; ++i) {
    if (args[i] === '--runs') runs = Number(args[++i]);
    else pages.push(args[i]);
  }
  const b = await launch();
  const res = pages.map(() => []);
  for (let r = 0; r < runs; ++r) {
    for (let k = 0; k < pages.length; ++k) {
      const page = await b.context.newPage();
      await page.goto(fileURL(pages[k]));
      await page.waitForSelector('body[data-ready="1"]', { timeout: 60000 });
      res[k].push(await page.evaluate(() => window.tlp.readyAt));
      await page.close();
    }
  }
  const at = (xs, f) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(s.length * f))]; };
  pages.forEach((p, k) => console.log(`${p}: ready_ms ${at(res[k], 0.5).toFixed(0)} (p25 ${at(res[k], 0.25).toFixed(0)}, ` +
    `p75 ${at(res[k], 0.75).toFixed(0)}, max ${at(res[k], 1).toFixed(0)})  runs ${runs}`));
  await b.close();
})();
