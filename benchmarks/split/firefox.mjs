// Does the prototype run in Firefox? One cold visit of split.html in a fresh
// Debian firefox-esr profile (puppeteer-core over WebDriver BiDi, as
// benchmarks/firefox_visits.mjs): ready, Start, the keys panel opened and
// closed `clicks` times. Prints one JSON line: ready (ms from navigation),
// crossOriginIsolated, how the worker started, and from main.py's hops of
// each action: click -> applied, applying, Python's action in the worker.
// Usage: node firefox.mjs <url of split.html> <firefox> [clicks]
import puppeteer from 'puppeteer-core';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const [url, firefox, clicks = '20'] = process.argv.slice(2);
const profile = mkdtempSync(join(tmpdir(), 'ff-split-'));
const browser = await puppeteer.launch({browser: 'firefox', executablePath: firefox,
                                        headless: true, userDataDir: profile});
try {
  const page = await browser.newPage();
  page.setDefaultTimeout(120000);
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(url, {waitUntil: 'load'});
  await page.waitForFunction(() => document.body.dataset.state === 'ready', {polling: 'raf'});
  const ready = await page.evaluate(() =>
    performance.getEntriesByName('split:worker-ready')[0].startTime);
  await page.click('#start');
  await page.waitForSelector('body[data-view=table]');
  for (let i = 0; i < Number(clicks); i++) {
    const selector = i % 2 === 0 ? '#keys-button' : '#modal [data-cmd=keys-close]';
    await page.waitForSelector(selector, {visible: true});
    await page.click(selector);
  }
  await page.waitForFunction((n) => window.splitTimes.length >= n, {}, Number(clicks) + 1);
  console.log(JSON.stringify(await page.evaluate((ready, errors) => ({
    ready, errors, isolated: self.crossOriginIsolated, worker: window.splitWorker,
    times: Array.from(window.splitTimes,
                      (h) => [h.applied - h.click, h.applied - h.resumed, h.py_end - h.py_start]),
  }), ready, errors)));
} finally {
  await browser.close();
  rmSync(profile, {recursive: true, force: true});
}
