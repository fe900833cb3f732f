#!/usr/bin/env node
// Check Markdown pages rendered by tlp (`tlp-emit --md --render=html`,
// tlp-docs) in headless Chromium.
//
//   node check-md-page.js [--trusted] PAGE.html...
//
// For every page: it opens offline (no request but file:) with no console
// error (a Content-Security-Policy violation is one: the page's own style
// must apply under its policy, and does: the body's font size is 15px), no
// image, and no script ran (window.__tlp_pwned unset). Unless --trusted
// (tlp's own docs), every link stays in the page (#anchor) or goes to a
// relative .md/.html page: no javascript:, no other host. Each link is
// clicked; none may run script. Prints one line per page and exits 1 on
// any failure.
'use strict';
const { launch, fileURL } = require('./browser.js');

async function main() {
  const args = process.argv.slice(2);
  const trusted = args[0] === '--trusted';
  const pages = trusted ? args.slice(1) : args;
  if (!pages.length) {
    console.error('usage: check-md-page.js [--trusted] PAGE.html...');
    process.exit(2);
  }
  let failures = 0;
  const fail = (p, what) => { ++failures; console.log(`FAIL: ${p}: ${what}`); };
  const { context, offline, close } = await launch();
  try {
    for (const p of pages) {
      const page = await context.newPage();
      const errors = [];
      page.on('pageerror', (e) => errors.push(String(e)));
      page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
      page.on('dialog', (d) => { errors.push('dialog: ' + d.message()); d.dismiss(); });
      await page.goto(fileURL(p));
      const info = await page.evaluate(() => ({
        images: document.querySelectorAll('img, picture, video, audio, iframe, object, embed').length,
        scripts: document.querySelectorAll('script').length,
        links: Array.from(document.querySelectorAll('a[href]')).map((a) => a.getAttribute('href')),
        font: getComputedStyle(document.body).fontSize,
        csp: (document.querySelector('meta[http-equiv="Content-Security-Policy"]') || {}).content || '',
      }));
      if (!info.csp.startsWith("default-src 'none'")) fail(p, `no Content-Security-Policy (${info.csp})`);
      if (info.images) fail(p, `${info.images} images or embedded elements`);
      if (info.scripts) fail(p, `${info.scripts} script elements`);
      if (info.font !== '15px') fail(p, `the page's style did not apply (font size ${info.font})`);
      const out = info.links.filter((h) => !h.startsWith('#') && !/^[^:/?#\\]+\.(md|html)(#.*)?$/.test(h));
      if (!trusted && out.length) fail(p, `links out of the page: ${JSON.stringify(out)}`);
      // Click every link that stays in the page (others would navigate).
      const inPage = info.links.filter((h) => h.startsWith('#') || !trusted && !out.includes(h));
      for (const h of inPage.filter((x) => x.startsWith('#')).slice(0, 50))
        await page.evaluate((x) => { const a = Array.from(document.querySelectorAll('a[href]')).find((e) => e.getAttribute('href') === x); if (a) a.click(); }, h);
      if (await page.evaluate(() => window.__tlp_pwned)) fail(p, 'script from the log ran');
      for (const e of errors) fail(p, `console: ${e}`);
      console.log(`${require('path').basename(p)}: ${info.links.length} links, ${out.length} out of the page, ${info.images} images, ${errors.length} errors`);
      await page.close();
    }
    for (const u of offline) fail('offline', `request to ${u}`);
  } finally {
    await close();
  }
  console.log(failures ? `${failures} failures` : 'all checks passed');
  process.exit(failures ? 1 : 0);
}

main().catch((e) => { console.error(e); process.exit(1); });
