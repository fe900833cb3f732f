// Launch Debian's Chromium through playwright-core (no browser download).
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');

let chromium;
try {
  ({ chromium } = require('playwright-core'));
} catch (e) {
  console.error('error: playwright-core is not installed; run `npm ci` in ' + __dirname +
                ' (utils/install-deps.sh --test does)');
  process.exit(2);
}

const EXECUTABLE = process.env.TLP_CHROMIUM || '/usr/bin/chromium';
// How long a check waits for the page (ready, a switch, colouring) before
// it fails: long, since it only catches a hang; a busy 2-core machine
// running the suite (two lit workers, two browsers) has taken seconds to
// lay out a large unit's page.
const WAIT_MS = 60000;

async function launch() {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'tlp-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: EXECUTABLE,
    headless: true,
    viewport: { width: 1600, height: 900 },
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
           '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  // Pages must work offline: fail on any request that is not file: or data:.
  const offline = [];
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith('file:') || url.startsWith('data:') || url.startsWith('about:')) return route.continue();
    offline.push(url);
    return route.abort();
  });
  const close = async () => {
    await context.close();
    fs.rmSync(profile, { recursive: true, force: true });
  };
  return { context, offline, close };
}

function fileURL(p) {
  return 'file://' + path.resolve(p);
}

/// The command line as { name: value }: `--name value`; a name in
/// \p opts.flags takes no value (true), one in \p opts.lists may repeat
/// (an array). Exits 2 with \p usage when one of \p opts.required is
/// missing.
function parseArgs(usage, opts = {}) {
  const { required = [], flags = [], lists = [] } = opts;
  const a = {};
  for (const k of lists) a[k] = [];
  for (let i = 2; i < process.argv.length; ++i) {
    const k = process.argv[i].replace(/^--/, '');
    if (flags.includes(k)) a[k] = true;
    else if (lists.includes(k)) a[k].push(process.argv[++i]);
    else a[k] = process.argv[++i];
  }
  if (required.some((k) => !a[k])) {
    console.error('usage: ' + usage);
    process.exit(2);
  }
  return a;
}

/// A check script's failures: fail() prints one line and counts it.
const checks = {
  failures: 0,
  fail(what, got, want) {
    ++this.failures;
    console.log(`FAIL: ${what}: got ${JSON.stringify(got)}, want ${JSON.stringify(want)}`);
  },
};

/// Run \p body with a browser: body({ newPage, open }) where newPage()
/// opens a tab whose page errors and console errors fail the run, and
/// open(page, url) loads a tlp page and waits until it is ready. An
/// exception in body, a page error or any network request is a failure;
/// then the summary line and exit status 1 on any failure, 0 otherwise.
async function runChecks(body) {
  const fail = checks.fail.bind(checks);
  const b = await launch();
  const errors = [];
  const newPage = async () => {
    const p = await b.context.newPage();
    p.on('pageerror', (e) => errors.push(String(e)));
    p.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
    return p;
  };
  const open = async (page, url) => {
    await page.goto(url);
    await page.waitForSelector('body[data-ready="1"]', { timeout: WAIT_MS });
  };
  try {
    await body({ newPage, open });
  } catch (e) {
    fail('run', String(e && e.stack || e), 'none');
  }
  if (errors.length) fail('page errors', errors, []);
  if (b.offline.length) fail('network requests', b.offline, []);
  await b.close();
  console.log(checks.failures ? `${checks.failures} checks failed` : 'all checks passed');
  process.exit(checks.failures ? 1 : 0);
}

module.exports = { launch, fileURL, parseArgs, checks, runChecks, WAIT_MS };
