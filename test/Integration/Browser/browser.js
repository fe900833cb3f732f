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

module.exports = { launch, fileURL };
