#!/usr/bin/env node
// Open a tlp page at URL fragments that name what its unit lacks and check
// that the page ignores them: no error, no selection, the page still
// works (a valid selection afterwards highlights).
//
//   node check-fragment.js PAGE.html UNIT VALID-REF FRAGMENT...
//
// Each FRAGMENT is opened as PAGE.html#unit=UNIT&sel=FRAGMENT, then the
// same reference is passed to window.tlp.select (which must answer false),
// then VALID-REF is selected (which must answer true). Prints one line per
// fragment and exits 1 on any failure.
'use strict';
const { launch, fileURL } = require('./browser.js');

async function main() {
  const [page0, unit, valid, ...frags] = process.argv.slice(2);
  if (!frags.length) {
    console.error('usage: check-fragment.js PAGE.html UNIT VALID-REF FRAGMENT...');
    process.exit(2);
  }
  let failures = 0;
  const { context, close } = await launch();
  try {
    for (const f of frags) {
      const page = await context.newPage();
      const errors = [];
      page.on('pageerror', (e) => errors.push(String(e)));
      page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
      await page.goto(fileURL(page0) + '#unit=' + encodeURIComponent(unit) + '&sel=' + encodeURIComponent(f));
      await page.waitForFunction(() => window.tlp && !document.getElementById('panels').hidden);
      const selected = await page.$$eval('.r.sel, .r.hl', (els) => els.length);
      let api;
      try {
        api = await page.evaluate((r) => window.tlp.select(r), f);
      } catch (e) {
        errors.push(String(e));
      }
      const ok = await page.evaluate((r) => window.tlp.select(r), valid);
      const lit = await page.$$eval('.r.sel, .r.hl', (els) => els.length);
      const bad = errors.length || selected || api !== false || !ok || !lit;
      if (bad) ++failures;
      console.log(`${bad ? 'FAIL' : 'ok'}: sel=${f}: ${errors.length} errors, ${selected} rows selected, select() ${api}, then ${valid}: ${ok} (${lit} rows)` +
                  (errors.length ? ' ' + JSON.stringify(errors) : ''));
      await page.close();
    }
  } finally {
    await close();
  }
  console.log(failures ? `${failures} failures` : 'all checks passed');
  process.exit(failures ? 1 : 0);
}

main().catch((e) => { console.error(e); process.exit(1); });
