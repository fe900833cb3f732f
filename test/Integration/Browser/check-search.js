#!/usr/bin/env node
// Check the page's filter and full-text search in headless Chromium
// (docs/html.md, "Finding").
//
//   node check-search.js --page FILE.html [--unit ID] --search TEXT
//                        [--filter Q=EXPECTED ...]
//
//  - each --filter Q=EXPECTED: typing Q in the filter (/) lists EXPECTED
//    (a node, kernel or source label) first; EXPECTED '?NAME' means no
//    entry matches and NAME is suggested;
//  - --search TEXT: the search (f) counts the lines of every panel that
//    hold TEXT (case-insensitive), as the unit's data has them, rows not
//    built included; Enter goes to each match in turn (the row is built,
//    in view, marked found-cur), Shift+Enter goes back, the last wraps to
//    the first; Escape clears the marks; in every row built, the search
//    marks the text it matched, not the line: a <mark class="hit"> per
//    occurrence (case-insensitive, across the colouring's spans) in the
//    rows found and none elsewhere, the row's text unchanged;
//  - no page error or console error.
'use strict';
const { fileURL, parseArgs, checks, runChecks } = require('./browser.js');

const a = parseArgs('check-search.js --page FILE.html [--unit ID] [--search TEXT] [--filter Q=EXPECTED ...]',
                    { required: ['page'], lists: ['filter'] });
const fail = checks.fail.bind(checks);

runChecks(async ({ newPage, open }) => {
    const page = await newPage();
    await open(page, fileURL(a.page) + (a.unit ? '#unit=' + encodeURIComponent(a.unit) : ''));

    for (const f of a.filter) {
      const eq = f.indexOf('=');
      const q = f.slice(0, eq), want = f.slice(eq + 1);
      await page.keyboard.press('/');
      await page.fill('#filter-input', q);
      const items = await page.$$eval('#filter-results li', (els) => els.map((e) => e.textContent));
      if (want.startsWith('?')) {
        const ok = items.length === 1 && items[0].includes('did you mean') && items[0].includes(`'${want.slice(1)}'`);
        if (!ok) fail(`filter '${q}'`, items, `a suggestion of '${want.slice(1)}'`);
        else console.log(`filter '${q}': no match; ${items[0].slice(items[0].indexOf('did you mean'))}`);
      } else {
        const first = items[0] || '';
        if (!first.startsWith(want + ' ')) fail(`filter '${q}'`, items.slice(0, 3), want + ' first');
        else console.log(`filter '${q}': ${first}`);
      }
      await page.keyboard.press('Escape');
    }

    if (a.search) {
      const q = a.search.toLowerCase();
      // What the data holds, panel by panel.
      const want = await page.evaluate((q) => {
        const d = window.tlp.data(), out = [];
        const lines = (t) => (t ? t.split('\n') : []);
        for (const [p, t] of [['pre', d.pre && d.pre.text], ['post', d.post && d.post.text], ['code', d.code && d.code.text],
          ['kernel', d.kernel_code && d.kernel_code.text]])
          lines(t).forEach((l, i) => { if (l.toLowerCase().includes(q)) out.push(p + ':' + (i + 1)); });
        return out;
      }, q);
      const builtBefore = await page.$$eval('.r', (els) => els.length);
      await page.keyboard.press('f');
      await page.fill('#search-input', a.search);
      const count = await page.textContent('#search-count');
      // The marks, row by row: each occurrence of the text, and only it.
      const checkMarks = () => page.evaluate((q) => {
        const bad = [];
        let marks = 0, rows = 0;
        for (const r of document.querySelectorAll('.r')) {
          const text = r.textContent.toLowerCase();
          let want = 0;
          for (let k = text.indexOf(q); k >= 0 && q; k = text.indexOf(q, k + q.length)) ++want;
          const got = Array.from(r.querySelectorAll('mark.hit'));
          const found = r.classList.contains('found') || r.classList.contains('found-cur');
          if (!found) want = 0;
          if (got.length) ++rows;
          if (found) marks += want;
          // A match across the colouring's spans is marked a piece a span:
          // the marks' texts, joined, are the text once per occurrence.
          const texts = got.map((m) => m.textContent.toLowerCase()).join('');
          if (found && (want === 0 || texts !== q.repeat(want)))
            bad.push({ line: r.dataset.line, text: r.textContent, marks: got.map((m) => m.textContent), want });
          if (!found && got.length) bad.push({ line: r.dataset.line, unexpected: got.length });
        }
        return { bad: bad.slice(0, 3), marks, rows };
      }, q);
      const marked = await checkMarks();
      if (marked.bad.length) fail('search marks the matched text', marked.bad, 'a mark per occurrence of ' + JSON.stringify(q));
      const n = want.length;
      if (!count.startsWith(String(n) + ' lines') && !(n === 0 && count === 'no match')) fail('search count', count, n + ' lines (and source rows)');
      const seen = [];
      const total = Number(count.split(' ')[0]);
      for (let i = 0; i < total && i < 40; ++i) {
        await page.keyboard.press('Enter');
        const at = await page.evaluate(() => {
          const e = document.querySelector('.r.found-cur');
          if (!e) return null;
          const sc = e.closest('.scroll').getBoundingClientRect(), r = e.getBoundingClientRect();
          return { where: e.closest('[data-panel]').dataset.panel + ':' + e.dataset.line, inView: r.top >= sc.top && r.bottom <= sc.bottom,
            text: e.textContent, count: document.getElementById('search-count').textContent };
        });
        if (!at || !at.inView || !at.text.toLowerCase().includes(q) || at.count !== `${i + 1} / ${total}`)
          fail(`search match ${i + 1}`, at, `row ${want[i]} in view, '${i + 1} / ${total}'`);
        else seen.push(at.where);
      }
      const wantSeen = want.slice(0, Math.min(40, want.length));
      if (JSON.stringify(seen.slice(0, wantSeen.length)) !== JSON.stringify(wantSeen)) fail('search order', seen, wantSeen);
      if (total > 1) {
        await page.keyboard.press('Shift+Enter');
        const back = await page.textContent('#search-count');
        const wantBack = total <= 40 ? `${total - 1} / ${total}` : `${Math.min(40, total) - 1} / ${total}`;
        if (back !== wantBack) fail('Shift+Enter', back, wantBack);
      }
      const builtAfter = await page.$$eval('.r', (els) => els.length);
      const markedAfter = await checkMarks();
      if (markedAfter.bad.length) fail('search marks the matched text in rows built by Enter', markedAfter.bad, 'a mark per occurrence');
      await page.keyboard.press('Escape');
      const left = await page.$$eval('.r.found, .r.found-cur, mark.hit', (els) => els.length);
      if (left) fail('Escape clears the search', left, 0);
      if (!checks.failures) console.log(`search '${a.search}': ${total} lines, ${seen.length} visited (rows built ${builtBefore} -> ${builtAfter}); ${markedAfter.marks} matches marked in ${markedAfter.rows} rows`);
    }
    await page.close();
});
