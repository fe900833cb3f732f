// Print what a unit page's details say of a user source line: its calls
// as the kernel stack traces underline them, each with its kernels
// (docs/html.md), and of each kernel its user source; then any console
// error. For FileCheck (test/Integration/Browser/calls.test).
//
//   node check-calls.js PAGE.html LINE
'use strict';
const path = require('path');
const { launch } = require('./browser');

(async () => {
  const [page_, line] = process.argv.slice(2);
  const { context, close } = await launch();
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  await page.goto('file://' + path.resolve(page_));
  await page.waitForSelector(`[data-panel="source"] .r[data-line="${line}"]`);
  await page.click(`[data-panel="source"] .r[data-line="${line}"]`, { position: { x: 60, y: 8 } });
  const pairs = await page.evaluate(() => Array.from(document.querySelectorAll('dl dt')).map((dt) => {
    const dd = dt.nextElementSibling;
    const chips = dd ? Array.from(dd.querySelectorAll('.chip')).map((c) => c.textContent) : [];
    return dt.textContent + ': ' + (chips.length ? chips.join(', ') : (dd ? dd.textContent : ''));
  }));
  pairs.forEach((p) => console.log('source: ' + p));
  // Each kernel's details name its call.
  const keys = await page.evaluate(() => Array.from(document.querySelectorAll('dl dt'))
    .filter((dt) => dt.textContent === 'kernels')
    .map((dt) => Array.from(dt.nextElementSibling.querySelectorAll('.chip')).map((c) => c.textContent))[0] || []);
  for (const k of keys) {
    await page.click(`[data-panel="source"] .r[data-line="${line}"]`, { position: { x: 60, y: 8 } });
    await page.evaluate((key) => {
      const c = Array.from(document.querySelectorAll('dl dd .chip')).find((x) => x.textContent === key);
      if (c) c.click();
    }, k);
    const src = await page.evaluate(() => {
      const dt = Array.from(document.querySelectorAll('dl dt')).find((x) => x.textContent === 'user source');
      return dt ? dt.nextElementSibling.innerText.trim().replace(/\s*\n\s*/g, ' | ') : 'none';
    });
    console.log('kernel ' + k + ': ' + src);
  }
  console.log('console errors: ' + errors.length);
  await close();
})().catch((e) => { console.error(e); process.exit(1); });
