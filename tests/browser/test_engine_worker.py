"""The page's split, in Chromium: the game runs in a worker
(static/js/engine.mjs, game/web/dom/worker.py) and only the page's front
on the main thread, in MicroPython (game/web/front/,
game/web/dom/main_thread.py). The table plays, the keys panel opens and
closes, the game is saved and a reload puts it back — and Pyodide is never
loaded by the page itself."""

from __future__ import annotations

import re

import json

import pytest

pytestmark = pytest.mark.browser


def test_the_game_in_a_worker_plays_from_the_front_on_the_main_thread(chromium, site_url):
    ctx = chromium.new_context(viewport={"width": 390, "height": 844})
    page = ctx.new_page()
    errors: list[str] = []
    foreign: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(f"pageerror: {e}"))
    page.on("request", lambda r: None if r.url.startswith(site_url) else foreign.append(r.url))
    page.goto(site_url + "?speed=instant&game=jekyll-hyde")
    page.wait_for_function("document.body.dataset.state === 'ready'", timeout=120_000)
    page.click("#start")
    page.wait_for_function("document.body.dataset.toAct === 'me'", timeout=60_000)
    played = int(page.evaluate("document.body.dataset.actions"))
    card = page.locator(".hand.mine [data-act]:not([data-skip=true]):not([disabled])").first
    card.click()
    page.wait_for_function(f"+document.body.dataset.actions > {played}", timeout=30_000)
    page.keyboard.press("?")
    page.wait_for_function("document.activeElement.dataset.cmd === 'keys-close'")
    page.keyboard.press("Escape")
    page.wait_for_function("!document.querySelector('#keys')")
    saved = json.loads(page.evaluate("localStorage.getItem('jhg.save.jekyll-hyde')"))
    assert len(saved["transcript"]["actions"]) >= played + 1
    # (Chromium lists the worker's module scripts among the page's resources,
    # but not what the worker fetches: Pyodide's wasm is the worker's alone.)
    loaded = page.evaluate("performance.getEntriesByType('resource').map(e => e.name)")
    assert not [u for u in loaded if "pyodide.asm" in u], "the page itself never runs Pyodide"
    assert page.evaluate("typeof loadPyodide === 'undefined' && typeof pyodide === 'undefined'")
    assert any("micropython.wasm" in u for u in loaded)
    page.reload()
    page.wait_for_function("document.body.dataset.state === 'ready'", timeout=120_000)
    assert page.evaluate("document.body.dataset.view") == "table", "the game comes back"
    assert int(page.evaluate("document.body.dataset.actions")) >= played + 1
    ctx.close()
    assert not foreign, foreign
    assert not errors, errors


def test_a_game_that_cannot_start_in_its_worker_says_so_and_offers_to_try_again(
        chromium, site_url):
    ctx = chromium.new_context()
    package = re.compile(r"/game(-rest)?\.zip$")  # the worker fetches one of them
    ctx.route(package, lambda route: route.abort())
    page = ctx.new_page()
    page.goto(site_url)
    page.wait_for_selector("#loader-failed", timeout=120_000)
    assert page.locator("#loader-retry").is_visible()
    assert page.evaluate("document.body.dataset.state") == "loading"
    ctx.unroute(package)
    page.click("#loader-retry")  # the page is loaded again, and starts
    page.wait_for_function("document.body.dataset.state === 'ready'", timeout=120_000)
    ctx.close()


def test_a_gesture_is_in_flight_until_its_answer_is_drawn(page, ui):
    """<html data-busy> goes up with the page's message and comes down only
    after the worker's frames for it are drawn: what every test waits for
    after a gesture (tests/browser/conftest.py)."""
    ui.open_site(page, "?speed=instant")
    seen = page.evaluate("""() => new Promise((done) => {
        const root = document.documentElement;
        new MutationObserver((_, watch) => {
            if (root.hasAttribute('data-busy')) return;
            watch.disconnect();
            done({busyAtOnce, keysDrawn: !!document.querySelector('#keys')});
        }).observe(root, {attributes: true, attributeFilter: ['data-busy']});
        document.body.dispatchEvent(new KeyboardEvent('keydown', {key: '?', bubbles: true}));
        const busyAtOnce = root.hasAttribute('data-busy');
        setTimeout(() => done({busyAtOnce, answered: false}), 30000);
    })""")
    assert seen == {"busyAtOnce": True, "keysDrawn": True}
