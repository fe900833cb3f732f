#!/usr/bin/env node
// The fusion graph's costs in headless Chromium (docs/performance.md).
//
//   node bench/fusion-load.js [--runs 5] UNIT-PAGE.html
//
// For each run, in a fresh tab: open the page (ready_ms, as the page
// measures it), open the fusion graph's tab (tab_ms: click to drawn, as
// the driver sees it; layout_ms and paint_ms, the page's own), expand
// every kernel and collapse them again (expand_ms, collapse_ms: click to
// drawn), click a node in the graph (click_ms: to its counterparts lit in
// the panels; select_ms the page's own selection time), pick the last
// kernel in the drawer's table (pick_ms: to lit and scrolled to in the
// graph), drag the view 40 steps of 10 px (pan_ms: per step) and zoom
// 10 wheel steps (wheel_ms: per step). Prints the median and the worst.
// Uses test/Integration/Browser's playwright-core and Debian's Chromium.
'use strict';
const path = require('path');
const { launch, fileURL } = require(path.join(__dirname, '..', 'test', 'Integration', 'Browser', 'browser.js'));

function median(xs) { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; }

(async () => {
  const args = process.argv.slice(2);
  let runs = 5, page = null;
  for (let i = 0; i < args.length; ++i) {
    if (args[i] === '--runs') runs = Number(args[++i]);
    else page = args[i];
  }
  const b = await launch();
  const got = {};
  const add = (k, v) => { (got[k] = got[k] || []).push(v); };
  const frame = (p) => p.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0))));
  for (let r = 0; r < runs; ++r) {
    const p = await b.context.newPage();
    await p.goto(fileURL(page));
    await p.waitForSelector('body[data-ready="1"]', { timeout: 60000 });
    add('ready_ms', await p.evaluate(() => window.tlp.readyAt));
    let t = Date.now();
    await p.click('#post-tabs button[data-tab="fusion"]');
    await frame(p);
    add('tab_ms', Date.now() - t);
    const f = await p.evaluate(() => window.tlp.fusion());
    add('layout_ms', f.ms.layout);
    add('paint_ms', f.ms.paint);
    t = Date.now();
    await p.click('.fusion-tools button[data-act="expand-all"]');
    await frame(p);
    add('expand_ms', Date.now() - t);
    t = Date.now();
    await p.click('.fusion-tools button[data-act="collapse-all"]');
    await frame(p);
    add('collapse_ms', Date.now() - t);
    const box = await p.$('.fusion-view');
    const bb = await box.boundingBox();
    t = Date.now();
    await p.evaluate(() => {
      const n = document.querySelector('svg.fusion g.k rect.kbox');
      n.dispatchEvent(new MouseEvent('click', { bubbles: true }));
    });
    await frame(p);
    add('click_ms', Date.now() - t);
    add('select_ms', await p.evaluate(() => window.tlp.selectMs));
    await p.click('#details-tabs button[data-tab="kernels"]');
    t = Date.now();
    await p.click('#details-body table.kernels tbody tr:last-child');
    await frame(p);
    add('pick_ms', Date.now() - t);
    await p.mouse.move(bb.x + bb.width / 2, bb.y + bb.height / 2);
    await p.mouse.down();
    t = Date.now();
    for (let i = 0; i < 40; ++i) { await p.mouse.move(bb.x + bb.width / 2, bb.y + bb.height / 2 - 10 * (i + 1)); await frame(p); }
    add('pan_ms', (Date.now() - t) / 40);
    await p.mouse.up();
    t = Date.now();
    for (let i = 0; i < 10; ++i) { await p.mouse.wheel(0, 100); await frame(p); }
    add('wheel_ms', (Date.now() - t) / 10);
    await p.close();
  }
  console.log(path.basename(page) + ': ' + Object.keys(got).map((k) =>
    `${k} ${median(got[k]).toFixed(0)} (${Math.max(...got[k]).toFixed(0)})`).join(', '));
  await b.close();
})();
