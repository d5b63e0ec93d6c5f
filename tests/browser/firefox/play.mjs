// Plays the built site in Firefox (Debian's firefox-esr, driven over WebDriver
// BiDi by puppeteer-core): the page starts, then a Werner hand to its end, a
// few duel decisions with the exchange, and a Dracula deal's first placements,
// all by clicks. Prints one JSON line: what was done, how long start-up took,
// and every page error or console error. Usage: node play.mjs <site url> <firefox>
import puppeteer from 'puppeteer-core';

const [url, firefox] = process.argv.slice(2);
const report = {step: '', started_ms: null, werner_turns: 0, werner_asked: false, werner_hand_over: false, duel_decisions: 0,
                dracula_placements: 0, first_python: null, returning_ms: null,
                returning_python: null, stdlib_import: null, start_misses: [], errors: []};
const browser = await puppeteer.launch({browser: 'firefox', executablePath: firefox,
                                        headless: true});
const timeout = +(process.env.FIREFOX_TIMEOUT_MS || 180000);
try {
  const page = await browser.newPage();
  page.setDefaultTimeout(timeout);
  page.on('pageerror', e => report.errors.push(`pageerror: ${e.message || e}`));
  page.on('console', m => { if (m.type() === 'error') report.errors.push(`console: ${m.text()}`); });

  const t0 = Date.now();
  await page.goto(url + '?speed=instant');
  await page.waitForSelector('body[data-state=ready]');
  report.started_ms = Date.now() - t0;
  report.first_python = await page.evaluate(() => document.documentElement.dataset.python);

  // A returning visit: once the service worker has precached the snapshot, Python starts from it.
  report.step = 'snapshot precached';
  await page.waitForFunction(async () => {
    for (const name of await caches.keys()) {
      for (const req of await (await caches.open(name)).keys()) {
        if (/snapshot-[0-9a-f]+\.bin\.gz$/.test(req.url)) return true;
      }
    }
    return false;
  }, {polling: 500});
  const t1 = Date.now();
  await page.reload();
  await page.waitForSelector('body[data-state=ready]');
  report.returning_ms = Date.now() - t1;
  report.returning_python = await page.evaluate(() => document.documentElement.dataset.python);
  // The standard library read when an import needs it (static/js/python.mjs):
  // tests/browser/stdlib_probe.mjs imports a module the snapshot does not hold.
  report.step = 'standard library';
  report.stdlib_import = await page.evaluate(() => new Promise((resolve) => {
    const worker = new Worker('stdlib_probe.mjs', {type: 'module'});  // (the test copied it there)
    worker.onmessage = (e) => { worker.terminate(); resolve(e.data); };
    worker.onerror = (e) => resolve(`failed: ${e.message}`);
  }));

  // As tests/browser/conftest.py does after every gesture: wait until the game
  // has answered what the page told it (<html data-busy>, static/js/front.mjs),
  // so that no frame of an earlier gesture redraws the form under the next one.
  const answered = () => page.waitForFunction(
    () => !document.documentElement.hasAttribute('data-busy'));
  const actions = () => page.evaluate(() => +document.body.dataset.actions);
  const settled = () => page.waitForFunction(() => document.body.dataset.toAct !== 'bot'
                                             || !document.getElementById('modal').hidden);
  const modal = () => page.evaluate(() => !document.getElementById('modal').hidden);
  const click = async selector => {  // the table may be redrawn between finding and clicking
    for (let tries = 0; ; tries++) {
      try { return await page.click(selector); } catch (e) {
        if (tries > 20 || !/detached|not clickable|No element/.test(e.message)) throw e;
        await new Promise(r => setTimeout(r, 100));
      }
    }
  };
  const clickAccepted = async selector => {  // a click the engine takes as an action
    const n = await actions();
    await click(selector);
    await page.waitForFunction(k => +document.body.dataset.actions !== k, {}, n);
  };
  // A start-screen <select> chosen: the game's worker redraws the form a few ms
  // later (over a field typed meanwhile, and with other fields): wait for it.
  const choose = async (selector, value) => {
    if (await page.$eval(selector, el => el.value) === value) return;
    await page.$eval('#setup', el => { el.dataset.stale = ''; });
    await page.select(selector, value);
    await page.waitForFunction(() => !document.querySelector('#setup[data-stale]'));
    await answered();
  };
  // What lies under the Start button's centre, and the page's state, when a Start click brought no table.
  const whatTheStartShows = () => {
    const start = document.getElementById('start');
    const box = start && start.getBoundingClientRect();
    const under = box && document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
    return {view: document.body.dataset.view, state: document.body.dataset.state,
            busy: document.documentElement.hasAttribute('data-busy'),
            start: box && [box.x, box.y, box.width, box.height].map(Math.round),
            under: under && (under.id || under.className || under.tagName),
            seed: (document.getElementById('f-seed') || {}).value,
            modal: !document.getElementById('modal').hidden,
            said: (document.querySelector('[role=alert], .error') || {}).textContent || null};
  };
  const startGame = async (game, fields, seed) => {
    report.step = `start ${game}`;
    await page.waitForSelector('#f-game');  // the start screen, drawn by the worker's answer
    await choose('#f-game', game);
    for (const [name, value] of Object.entries(fields)) {
      await page.waitForSelector(`#f-${name}`);
      await choose(`#f-${name}`, value);
    }
    for (const name of await page.$$eval('select[name^=bot]', els => els.map(e => e.id))) {
      await choose(`#${name}`, 'random');
    }
    await page.type('#f-seed', String(seed));
    await answered();
    report.step = `deal ${game}`;
    // CI lost this click twice at the duel's deal (no table in 180 s, no page
    // error) and no run here reproduced it: what the page showed is kept
    // (report.start_misses), and the player's next move, a second click, follows.
    for (let tries = 1; ; tries++) {
      await page.$eval('#start', el => new Promise(done => {  // in view, and still, before the click
        el.scrollIntoView({block: 'center'});
        requestAnimationFrame(() => requestAnimationFrame(done));
      }));
      await click('#start');
      try {
        await page.waitForSelector('body[data-view=table]', {timeout: 20000});
        break;
      } catch (e) {
        report.start_misses.push(await page.evaluate(whatTheStartShows));
        if (tries === 3) throw e;
        await answered();
        if (await page.$('body[data-view=table]')) break;  // (only slow)
      }
    }
  };

  // Werner, 4 players: a whole hand, asking another player once.
  await startGame('jekyll-hyde', {players: '4', seating: 'A', me: '0'}, 7);
  for (let turn = 0; turn < 60; turn++) {
    await settled();
    if (await modal()) { report.werner_hand_over = true; break; }
    report.step = `werner turn ${turn}`;
    // Ask another player once, else play a playable card (one is always there when no one can be asked).
    const ask = !report.werner_asked && await page.$('.seat.designatable .plate');
    const mine = await page.$('.hand.mine .card.playable');
    await clickAccepted(ask || !mine ? '.seat.designatable .plate' : '.hand.mine .card.playable');
    if (ask) report.werner_asked = true;
    report.werner_turns++;
  }
  await click('#modal button.primary');
  await answered();

  // The duel, as Jekyll: the exchange (a Potion first when one is owed), then cards.
  report.step = 'new game';
  await click('[data-cmd=new]');
  await answered();
  await startGame('jekyll-vs-hyde', {jvh_role: 'J', variant: 'standard'}, 24);
  for (let i = 0; i < 6; i++) {
    await settled();
    if (await modal()) break;
    if (await page.$('#jvh-pick')) {
      const need = +(await page.$eval('#jvh-pick', e => e.dataset.need));
      const oblige = (await page.$eval('#jvh-pick', e => e.dataset.oblige)) === '1';
      let cards = await page.$$eval('#jvh-pick [data-part]', els => els.map(e => e.dataset.part));
      if (oblige) cards = [...cards.filter(c => c.endsWith('+')).slice(0, 1),
                           ...cards.filter(c => !c.endsWith('+'))];
      for (const c of cards.slice(0, need)) await click(`#jvh-pick [data-part="${c}"]`);
      await clickAccepted('#jvh-confirm');
    } else if (await page.$('.hand.mine .cards > .card.playable[data-part]')) {
      // A card of several actions (a Potion led: its colour to name): once the
      // namer is drawn, a colour; a card that needed none is played at once.
      const n = await actions();
      await click('.hand.mine .cards > .card.playable[data-part]');
      await page.waitForFunction(k => +document.body.dataset.actions !== k
                                 || document.querySelector('.jvh-namer button[data-part]'), {}, n);
      if (await actions() === n) await clickAccepted('.jvh-namer button[data-part]');
    } else {
      await clickAccepted('.hand.mine .cards > .card.playable');
    }
    report.duel_decisions++;
  }

  // Dracula: take the rows, then place cards (card first, then an open cell).
  report.step = 'new game';
  await click('[data-cmd=new]');
  await answered();
  await startGame('dracula', {first: 'me'}, 12);
  report.step = 'dracula';
  await settled();
  await clickAccepted('#way-Q');
  for (let i = 0; i < 4; i++) {
    await settled();
    if (await modal()) break;
    await click('.dr-hand .dc-btn');
    await clickAccepted('.coffin .cell.open');
    report.dracula_placements++;
  }
} catch (e) {
  report.errors.push(`driver: ${e.message}`);
} finally {
  await browser.close();
}
console.log(JSON.stringify(report));
