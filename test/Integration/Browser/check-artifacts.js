#!/usr/bin/env node
// Check the artifacts tlp shows raw (docs/html.md, "Artifacts") in
// headless Chromium, against the JSON and the log itself.
//
//   node check-artifacts.js --json prov.json --log LOG (--dir DIR | --page FILE.html)
//
// prov.json is `tlp-emit --json` of LOG. For each compile of the JSON with
// artifacts:
//  - its dashboard row (tr#compile-ID) links them: a.raw-link "artifacts (N)";
//  - following the link (a page of the directory, or the one page's
//    overview scrolled to the compile's section) shows N events: a
//    details.raw-event per event with a payload, a row of table.raw-meta
//    per event without one;
//  - each event with a payload, opened, shows the event line and the
//    payload exactly as LOG holds them (the tab of each payload line
//    dropped), coloured when it is Python or C++; in an FX graph, a click
//    on a node's name lights its places (no more than the name occurs);
//  - the first payload's download button saves a file with the same text;
// no page error, nothing fetched. Prints what it checked; exits 1 on any
// failure.
'use strict';
const fs = require('fs');
const { fileURL, parseArgs, checks, runChecks } = require('./browser.js');

const a = parseArgs('check-artifacts.js --json prov.json --log LOG (--dir DIR | --page FILE.html)',
                    { required: ['json', 'log'] });
if (!a.dir && !a.page) {
  console.error('usage: check-artifacts.js --json prov.json --log LOG (--dir DIR | --page FILE.html)');
  process.exit(2);
}
const fail = checks.fail.bind(checks);
const J = JSON.parse(fs.readFileSync(a.json, 'utf8'));
const logLines = fs.readFileSync(a.log, 'utf8').split('\n');
/// The event line \p n (1-based) of the log and its payload.
function fromLog(n) {
  const line = logLines[n - 1].replace(/\r$/, '');
  const payload = [];
  for (let i = n; i < logLines.length && logLines[i].startsWith('\t'); ++i)
    payload.push(logLines[i].replace(/\r$/, '').slice(1));
  // A control character shows as '?' (docs/security.md).
  const shown = (t) => t.replace(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/g, '?');
  return { line: shown(line), payload: shown(payload.join('\n')) };
}

runChecks(async ({ newPage }) => {
  const page = await newPage();
  const index = a.dir ? fileURL(a.dir + '/index.html') : fileURL(a.page) + '#overview';
  let compiles = 0, events = 0, payloads = 0, coloured = 0, downloads = 0, nodes = 0;
  for (const c of J.compiles) {
    if (!c.artifacts || !c.artifacts.length) continue;
    ++compiles;
    await page.goto(index);
    const row = '#compile-' + c.id;
    const link = await page.$(row + ' a.raw-link');
    if (!link) { fail(c.id + ' raw link', null, 'a.raw-link'); continue; }
    const text = (await link.textContent()).trim();
    if (text !== `artifacts (${c.artifacts.length})`) fail(c.id + ' link text', text, `artifacts (${c.artifacts.length})`);
    await link.click();
    let box;
    if (a.dir) {
      await page.waitForSelector('main#raw');
      box = 'main#raw';
    } else {
      const href = await link.getAttribute('href');
      box = href;
      await page.waitForFunction((h) => !document.getElementById('overview').hidden &&
                                 document.getElementById(h.slice(1)), href);
    }
    const shown = await page.$$eval(box + ' details.raw-event, ' + box + ' table.raw-meta tr', (els) => els.length);
    if (shown !== c.artifacts.length) fail(c.id + ' events shown', shown, c.artifacts.length);
    events += shown;
    const boxes = await page.$$(box + ' details.raw-event');
    const withPayload = c.artifacts.filter((x) => x.payload_lines > 0);
    if (boxes.length !== withPayload.length) fail(c.id + ' payloads shown', boxes.length, withPayload.length);
    for (let i = 0; i < Math.min(boxes.length, withPayload.length, 25); ++i) {
      const art = withPayload[i], d = boxes[i];
      const want = fromLog(art.line);
      const summary = await d.$eval('summary', (s) => s.textContent);
      if (!summary.includes(art.name) || !summary.includes('line ' + art.line))
        fail(`${c.id} event ${i} summary`, summary, `${art.name} line ${art.line}`);
      if (await d.evaluate((el) => el.open)) fail(`${c.id} event ${i} closed`, true, false);
      await d.$eval('summary', (s) => s.click());
      const got = await d.evaluate((el) => ({
        open: el.open,
        visible: el.querySelector('pre.raw-text').getBoundingClientRect().height > 0,
        line: el.querySelector('pre.raw-line').textContent,
        text: el.querySelector('pre.raw-text').textContent,
        lang: el.querySelector('pre.raw-text').dataset.lang,
        spans: el.querySelectorAll('pre.raw-text span[class^="x-"]').length,
      }));
      if (!got.open || !got.visible) fail(`${c.id} event ${i} opens`, got.open, true);
      if (got.line !== want.line) fail(`${c.id} ${art.name} event line`, got.line.slice(0, 80), want.line.slice(0, 80));
      if (got.text !== want.payload) fail(`${c.id} ${art.name} payload`, got.text.length, want.payload.length);
      if ((got.lang === 'py' || got.lang === 'cpp') && want.payload.trim()) {
        if (!got.spans) fail(`${c.id} ${art.name} coloured`, 0, '> 0');
        else ++coloured;
      }
      ++payloads;
      // An FX graph's node: a click lights where it is made and used.
      const node = await d.$('pre.raw-text.fx .fx-n');
      if (node) {
        const nm = await node.evaluate((e) => e.dataset.n);
        const occurs = want.payload.split(/[^A-Za-z0-9_]+/).filter((w) => w === nm).length;
        await node.click();
        const lit = await d.$$eval('.fx-n.fx-hl', (es) => es.length);
        const same = await d.$$eval('.fx-n.fx-hl', (es, n) => es.every((e) => e.dataset.n === n), nm);
        if (lit < 2 || !same || lit > occurs) fail(`${c.id} ${art.name} node ${nm} lit`, lit, `2..${occurs}`);
        else ++nodes;
      }
      if (!downloads) {
        const [dl] = await Promise.all([page.waitForEvent('download'),
                                        d.$eval('button.raw-download', (b) => b.click())]);
        const p = await dl.path();
        const saved = fs.readFileSync(p, 'utf8');
        const name = dl.suggestedFilename();
        const wantName = await d.$eval('button.raw-download', (b) => b.dataset.file);
        if (saved !== want.payload) fail(`${c.id} ${art.name} download`, saved.length, want.payload.length);
        if (name !== wantName) fail(`${c.id} download name`, name, wantName);
        ++downloads;
      }
    }
  }
  // The events of no compile: their own page, or the one page's section.
  if (J.artifacts && J.artifacts.length) {
    await page.goto(a.dir ? fileURL(a.dir + '/raw-log.html') : fileURL(a.page) + '#raw-log');
    const box = a.dir ? 'main#raw' : '#raw-log';
    await page.waitForSelector(box);
    const shown = await page.$$eval(box + ' details.raw-event, ' + box + ' table.raw-meta tr', (els) => els.length);
    if (shown !== J.artifacts.length) fail('events of no compile', shown, J.artifacts.length);
    events += shown;
  }
  // The export report's links to its programs: the event, opened.
  let programs = 0;
  await page.goto(index);
  const links = await page.$$eval('a.program', (as) => as.map((x) => x.getAttribute('href')));
  for (const href of links) {
    await page.goto(a.dir ? fileURL(a.dir + '/' + href.split('#')[0]) + '#' + href.split('#')[1]
                          : fileURL(a.page) + href);
    const id = href.split('#')[1];
    await page.waitForFunction((i) => document.getElementById(i), id);
    const open = await page.evaluate((i) => {
      const d = document.getElementById(i);
      return d.open && d.querySelector('pre.raw-text').textContent.startsWith('ExportedProgram:');
    }, id);
    if (!open) fail('export program ' + href, false, 'opened, its text');
    else ++programs;
  }
  if (programs) console.log(`export programs: ${programs} opened from the index`);
  console.log(`artifacts: ${compiles} compiles, ${events} events shown, ${payloads} payloads as logged, ${coloured} coloured, ${nodes} graphs with node navigation, ${downloads} downloads`);
});
