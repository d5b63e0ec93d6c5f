// One fresh Firefox profile's three visits for benchmarks/load.py --browser
// firefox: cold, warm (after the service worker has precached) and offline
// (the browser's network switched off). Firefox (Debian's firefox-esr) is
// driven by puppeteer-core over WebDriver BiDi. Prints one JSON line
// {cold, warm, offline}, each what MEASURE (argument 3, JavaScript source) returns.
// Usage: node firefox_visits.mjs <url> <firefox> <measure> <"site"|"bare">
import puppeteer from 'puppeteer-core';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const [url, firefox, measure, kind] = process.argv.slice(2);
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
    return page.evaluate(`(${measure})()`);
  };
  const out = {cold: await visit()};
  if (kind === 'site') {  // leave a game in progress: the warm visit resumes the table
    await page.click('#start');
    await page.waitForSelector('body[data-view=table]');
  }
  // A returning visitor comes back after the service worker has precached.
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => 1));
  await new Promise(r => setTimeout(r, 500));
  out.warm = await visit();
  await page.setOfflineMode(true);
  out.offline = await visit();
  console.log(JSON.stringify(out));
} finally {
  await browser.close();
  rmSync(profile, {recursive: true, force: true});
}
