// One fresh Firefox profile's three visits for benchmarks/load.py --browser
// firefox: cold, warm (after the service worker has precached) and offline
// (the browser's network switched off). Firefox (Debian's firefox-esr) is
// driven by puppeteer-core over WebDriver BiDi. Prints one JSON line
// {cold, warm, offline}, each what MEASURE (argument 3, JavaScript source) returns,
// its bytes with those of the page's workers (WORKER_BYTES, argument 5).
// A returning visit of the site also waits for the inflated snapshot its first
// visit keeps (load.py's KEPT_SNAPSHOT, argument 6).
// Usage: node firefox_visits.mjs <url> <firefox> <measure> <"site"|"bare"> <worker bytes> <kept>
import puppeteer from 'puppeteer-core';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const [url, firefox, measure, kind, workerBytes, keptSnapshot] = process.argv.slice(2);
const profile = mkdtempSync(join(tmpdir(), 'ff-load-'));
const browser = await puppeteer.launch({browser: 'firefox', executablePath: firefox,
                                        headless: true, userDataDir: profile});
try {
  const page = await browser.newPage();
  page.setDefaultTimeout(120000);
  const visit = async () => {
    await page.goto(url, {waitUntil: 'commit'});
    await page.waitForFunction(() => document.body && document.body.dataset.state === 'ready',
                               {polling: 'raf'});
    const got = await page.evaluate(`(${measure})()`);
    // A worker's downloads are in its own timeline (index.html's game worker
    // fetches the runtime): load.py's WORKER_BYTES, as in Chromium. Firefox ESR's
    // WebDriver BiDi (153) cannot evaluate in a module worker ("no such frame"):
    // then the bytes are unknown (null), not the page's alone.
    for (const worker of page.workers()) {
      try {
        got.bytes += await worker.evaluate(workerBytes);
      } catch (e) {
        console.error(`worker ${worker.url()}: ${String(e).split("\n")[0]}`);
        got.bytes = null;
        break;
      }
    }
    return got;
  };
  const out = {cold: await visit()};
  if (kind === 'site') {  // leave a game in progress: the warm visit resumes the table
    await page.click('#start');
    await page.waitForSelector('body[data-view=table]');
  }
  // A returning visitor comes back after the service worker has precached.
  await page.evaluate(() => Promise.race([navigator.serviceWorker.ready.then(() => 1),
    new Promise((_, no) => setTimeout(() => no(new Error('no service worker within 120 s')), 120000))]));
  if (kind === 'site') await page.evaluate(`(${keptSnapshot})()`);
  await new Promise(r => setTimeout(r, 500));
  out.warm = await visit();
  await page.setOfflineMode(true);
  out.offline = await visit();
  console.log(JSON.stringify(out));
} finally {
  await browser.close();
  rmSync(profile, {recursive: true, force: true});
}
