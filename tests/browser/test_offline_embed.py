"""Offline, updates and embedding in headless Chromium.

- a first visit, a new deployment offered (never forced) and the saved game
  resumed after it, then the server stopped: a reload still starts and plays;
- embed.html steps through a scenario by a click and a key (the wiring test;
  its Python in a worker, none on the page's thread) and plays offline from
  the precache;
- the rules pages load with their embedded examples and no console error.

What an embed shows and refuses is checked under CPython through its real
game and front: tests/test_embed_front.py (a scenario stepped by buttons and
keys, what cannot be shown, including a scenario from another origin, a live
table that writes nothing) and tests/test_embed.py.

The update test has its own copy of the site on its own server (its own
origin, so its own service worker and storage).
"""

from __future__ import annotations

import os
import re
import tempfile
from pathlib import Path

import pytest

from game.web.draw.i18n import LANGUAGES

pytestmark = pytest.mark.browser
SHOTS = Path(os.environ.get("SCREENSHOTS", Path(tempfile.gettempdir()) / "jekyll-hyde-shots"))
GAMES_LANGS = [(g, lang) for g in ("jekyll-hyde", "jekyll-vs-hyde", "dracula")
               for lang in LANGUAGES]


def test_update_is_offered_the_save_survives_and_it_plays_with_the_server_stopped(
        browser_context, ui, own_site):
    page = browser_context.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.site_url = own_site.url
    try:
        ui.open_site(page, "?speed=instant")
        ui.start_game(page, seed=5, bots="random")
        ui.wait_settled(page)
        assert page.evaluate("navigator.serviceWorker.ready.then(r => !!r.active)")
        # Registered after Python was up: the wasm came from the server once.
        assert sum("pyodide.asm.wasm" in p for p in own_site.hits) == 1, own_site.hits
        hand, actions = ui.hand(page), ui.actions(page)

        new_cache = own_site.deploy_a_new_version()
        page.evaluate("window.sameDocument = true")
        page.evaluate("navigator.serviceWorker.getRegistration().then(r => r.update())")
        page.wait_for_selector("#update:not([hidden])", timeout=60000)
        assert "A new version is ready" in page.inner_text("#update")
        page.wait_for_timeout(500)
        assert page.evaluate("window.sameDocument === true"), "the page reloaded by itself"
        assert ui.hand(page) == hand and ui.actions(page) == actions

        page.click("#update button")
        page.wait_for_selector("body[data-state=ready]", timeout=60000)
        assert page.evaluate("window.sameDocument === undefined")
        assert ui.hand(page) == hand and ui.actions(page) == actions  # the save survived
        assert page.evaluate("caches.keys()") == [new_cache]  # the old cache is gone

        # Now the server is gone (a plane's wifi with no internet): still starts and plays.
        own_site.stop()
        page.reload()
        page.wait_for_selector("body[data-state=ready]", timeout=60000)
        assert ui.hand(page) == hand
        assert ui.wait_settled(page) == "me"
        ui.click_and_wait(page, ".hand.mine .card.playable, .seat.designatable")
        assert ui.actions(page) > actions
    finally:
        page.close()
    assert not [e for e in errors if "ERR_CONNECTION_REFUSED" not in e], errors


def _played(page) -> list[str]:
    return page.eval_on_selector_all(".centre .slot .card", "els => els.map(e => e.dataset.card)")


def test_embed_steps_through_a_scenario(page):
    page.goto(page.site_url + "embed.html?game=jekyll-hyde&scenario=designation&step=6&lang=fr")
    page.wait_for_selector("body[data-state=ready]", timeout=60000)
    # Nothing in the frame took the focus on load.
    assert page.evaluate("document.activeElement === document.body")
    assert page.get_attribute("body", "data-step") == "6"
    assert _played(page) == ["HF4", "JE", "H1"]
    assert "Étape 6 sur 7" in page.inner_text("#ex-step")
    page.click("#ex-next")
    page.wait_for_selector("body[data-step='7']")
    assert _played(page) == ["HF4", "JE", "H1", "JD"]
    assert page.inner_text("#ex-caption").startswith("Doris")
    assert page.is_disabled("#ex-next")
    page.click("#ex-prev")
    page.wait_for_selector("body[data-step='6']")
    page.keyboard.press("ArrowLeft")
    page.wait_for_selector("body[data-step='5']")
    assert _played(page) == ["HF4", "JE"]
    # No game was saved by the example.
    assert page.evaluate("Object.keys(localStorage).filter(k => k.startsWith('jhg.save'))") == []
    # Its Python runs in a worker: the reader's page thread only loaded MicroPython's front.
    loaded = page.evaluate("performance.getEntriesByType('resource').map(e => e.name)")
    assert any(url.endswith("/micropython.wasm") for url in loaded), loaded
    assert not [url for url in loaded if "pyodide.asm.wasm" in url or "pyscript" in url], loaded


def test_an_embedded_example_plays_offline_from_the_precache(browser_context, ui, own_site):
    page = browser_context.new_page()
    page.site_url = own_site.url
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        ui.open_site(page)  # the site's page installs the service worker
        page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=60000)
        own_site.stop()
        page.goto(own_site.url + "embed.html?game=jekyll-hyde&scenario=designation&step=6&lang=fr")
        page.wait_for_selector("body[data-state=ready]", timeout=60000)
        assert page.get_attribute("body", "data-view") == "scenario", page.inner_text("body")
        assert _played(page) == ["HF4", "JE", "H1"]
        page.click("#ex-next")
        page.wait_for_selector("body[data-step='7']")
        assert _played(page) == ["HF4", "JE", "H1", "JD"]
    finally:
        page.close()
    assert not errors, errors


def test_rules_pages_load_with_their_examples(page, ui):
    # Every game in every language: the pages' content, example frames and links (the
    # examples themselves are stubbed here; every scenario is drawn at every step in every
    # language under CPython, tests/test_embed.py).
    # A service worker left by an earlier test would fetch the frames itself, past
    # the stub (the real examples then load in every frame: slow, and timed out).
    page.goto(page.site_url + "blank.html")
    page.evaluate("navigator.serviceWorker.getRegistrations()"
                  ".then(rs => Promise.all(rs.map(r => r.unregister())))")
    stub = "<!doctype html><title>example</title>"
    page.route("**/embed.html?*", lambda route: route.fulfill(body=stub, content_type="text/html"))
    for game, lang in GAMES_LANGS:
        page.goto(page.site_url + f"static/rules/{game}.{lang}.html")
        frames = page.eval_on_selector_all("figure.example iframe", "els => els.map(e => e.src)")
        assert frames, f"{game}.{lang}: no example"
        for src in frames:
            assert f"embed.html?game={game}&scenario=" in src and f"lang={lang}" in src
            name = re.search(r"scenario=([a-z0-9-]+)", src).group(1)
            assert page.request.get(page.site_url + f"static/scenarios/{game}/{name}.json").ok
        play = page.get_attribute("a.play", "href")
        assert play.endswith(f"index.html?game={game}&lang={lang}")
    page.unroute("**/embed.html?*")
    # One page with its examples running, in a phone-sized window: each frame
    # is about 360x480. The frames must not move the page.
    page.set_viewport_size({"width": 392, "height": 800})
    page.goto(page.site_url + "static/rules/jekyll-hyde.fr.html")
    frames = page.locator("figure.example iframe")
    assert frames.count() == 3
    for i in range(frames.count()):
        frames.nth(i).scroll_into_view_if_needed()
        y = page.evaluate("window.scrollY")
        body = frames.nth(i).content_frame.locator("body")
        frames.nth(i).content_frame.locator("body[data-state=ready]").wait_for(timeout=90000)
        assert body.get_attribute("data-view") == "scenario", body.inner_text()
        assert frames.nth(i).content_frame.locator("html").get_attribute("lang") == "fr"
        assert page.evaluate("window.scrollY") == y, "an example scrolled the page"
        if i == 0:  # the page as the reader sees it, the example in view
            SHOTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(SHOTS / "rules-page-small-embed.png"))
    assert page.evaluate("document.activeElement === document.body")
    page.set_viewport_size({"width": 1366, "height": 900})
