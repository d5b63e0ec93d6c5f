"""Faults a real browser meets while the site starts (issue 30, items 6 to 8).

- a first visit whose runtime download fails says so, with "Try again", and
  recovers when asked or when the browser is back online;
- a service-worker install cut short says that offline play is not ready,
  the next visit finishes it (fetching only what was missing), and an offline
  reload then starts and plays;
- a new deployment is noticed while the tab stays open and seen, without the
  tab being hidden and shown again, and accepting it keeps the game.

Each test has a copy of the site on a server of its own: a first visit to an
origin with nothing cached and no service worker.
"""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser


@pytest.fixture
def site(own_site, browser_context):
    """The built site on a server of its own (the browser conftest's `own_site`:
    `broken` and `cut` paths fail) and a page for it, its errors kept."""
    page = browser_context.new_page()
    own_site.errors = []
    page.on("console", lambda m: own_site.errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: own_site.errors.append(f"pageerror: {e}"))
    page.site_url = own_site.url
    own_site.page = page
    yield own_site
    page.close()


# -- 6: the runtime's download fails on a first visit ---------------------------

WASM = "**/pyodide.asm.wasm"


def _failed_start(page, query: str) -> str:
    """Open the site with the wasm's download failing; what the loader says."""
    page.route(WASM, lambda route: route.abort())
    page.goto(page.site_url + query)
    page.wait_for_selector("#loader-retry", state="visible", timeout=60000)
    assert page.get_attribute("body", "data-state") == "loading"
    return page.inner_text("#loader-failed")


def test_a_failed_runtime_download_says_so_and_try_again_starts_the_game(site, ui):
    page = site.page
    told = _failed_start(page, "?lang=en&speed=instant")
    assert "The game could not be downloaded" in told
    assert "as soon as the connection is back" in told
    assert page.inner_text("#loader-retry") == "Try again"
    ui.screenshot(page, "startup-failed-en")
    page.set_viewport_size({"width": 390, "height": 844})
    ui.screenshot(page, "startup-failed-en-phone")
    page.set_viewport_size({"width": 1366, "height": 900})
    page.unroute(WASM)
    page.click("#loader-retry")
    page.wait_for_selector("body[data-state=ready]", timeout=60000)
    assert page.is_hidden("#loader-failed")
    assert ui.start(page)
    assert [e for e in site.errors if "ERR_FAILED" not in e] == []


def test_a_failed_runtime_download_starts_by_itself_back_online(site, ui, browser_context):
    page = site.page
    told = _failed_start(page, "?lang=fr&speed=instant")
    assert "Le jeu n’a pas pu être téléchargé" in told
    assert page.inner_text("#loader-retry") == "Réessayer"
    page.unroute(WASM)
    browser_context.set_offline(True)
    browser_context.set_offline(False)  # the browser's "online" event
    page.wait_for_selector("body[data-state=ready]", timeout=60000)
    assert ui.start(page)


def test_start_pressed_after_a_failed_download_is_no_dead_button(site, ui):
    page = site.page
    _failed_start(page, "?lang=en&speed=instant")
    page.unroute(WASM)
    page.click("#start")  # it asks again, and deals once Python is up
    page.wait_for_selector("body[data-view=table]", timeout=60000)
    assert ui.hand(page)


def test_a_runtime_module_that_did_not_load_is_told_and_try_again_reloads(site, ui):
    # A module that failed cannot be imported again in the same page.
    page = site.page
    core = "**/static/js/engine.mjs"  # the game's worker
    page.route(core, lambda route: route.abort())
    page.goto(page.site_url + "?lang=it&speed=instant")
    page.wait_for_selector("#loader-retry", state="visible", timeout=60000)
    assert "Non è stato possibile scaricare il gioco" in page.inner_text("#loader-failed")
    assert page.inner_text("#loader-retry") == "Riprova"
    page.unroute(core)
    page.click("#loader-retry")
    page.wait_for_selector("body[data-state=ready]", timeout=60000)
    assert ui.start(page)


def test_a_runtime_download_cut_off_midway_is_told_and_try_again_reloads(site, ui):
    page = site.page
    wasm = "/own/static/vendor/pyodide/pyodide.asm.wasm"
    site.cut.add(wasm)
    page.goto(page.site_url + "?lang=de&speed=instant")
    page.wait_for_selector("#loader-retry", state="visible", timeout=60000)
    assert "Das Spiel konnte nicht geladen werden" in page.inner_text("#loader-failed")
    assert page.inner_text("#loader-retry") == "Erneut versuchen"
    site.cut.clear()
    page.click("#loader-retry")
    page.wait_for_selector("body[data-state=ready]", timeout=60000)
    assert ui.start(page)


# -- 7: a service-worker install cut short ---------------------------------------

# A file that only the service worker's install asks for.
ONLY_PRECACHED = "static/rules/dracula.de.html"


def test_an_install_cut_short_is_told_finished_next_visit_and_then_plays_offline(site, ui):
    page = site.page
    site.broken.add("/own/" + ONLY_PRECACHED)
    ui.open_site(page, "?lang=en&speed=instant")
    page.wait_for_selector("#offline-status[data-offline=notReady]", timeout=60000)
    assert page.inner_text("#offline-status") == (
        "Offline play is not ready yet: it will be finished on your next visit.")
    asked = {p: site.hits.count(p) for p in set(site.hits)}

    site.broken.clear()
    page.goto(page.site_url + "?lang=fr&speed=instant")  # the next visit
    page.wait_for_selector("body[data-state=ready]", timeout=60000)
    page.wait_for_selector("#offline-status[data-offline=ready]", timeout=60000)
    assert page.inner_text("#offline-status") == (
        "Le jeu hors connexion est prêt : plus besoin de connexion pour jouer.")
    ui.screenshot(page, "offline-ready-fr")
    page.set_viewport_size({"width": 390, "height": 844})
    ui.screenshot(page, "offline-ready-fr-phone")
    page.set_viewport_size({"width": 1366, "height": 900})
    # The install went on from where it stopped: what it had cached was not asked again.
    rules = "/own/static/rules/jekyll-hyde.en.html"
    assert asked.get(rules) == 1 and site.hits.count(rules) == 1, site.hits

    site.stop()  # no network: the precache answers
    page.reload()
    page.wait_for_selector("body[data-state=ready]", timeout=60000)
    assert page.get_attribute("body", "data-view") == "setup"
    assert ui.start(page)


# -- 8: a new deployment while the tab is open ----------------------------------

# The page's update check, "every few minutes", made every second: the test
# cannot wait minutes. A longer period (half an hour) is left as it is.
FAST_CHECKS = """
const every = window.setInterval;
window.setInterval = function (callback, ms, ...rest) {
  return every.call(this, callback, ms >= 60000 && ms <= 5 * 60000 ? 1000 : ms, ...rest);
};
"""


@pytest.mark.parametrize("lang, told", [("en", "A new version is ready."),
                                        ("de", "Eine neue Version ist da.")])
def test_a_new_version_is_noticed_while_the_tab_is_open_and_keeps_the_game(
        site, ui, lang, told):
    page = site.page
    page.add_init_script(FAST_CHECKS)
    ui.open_site(page, f"?lang={lang}&speed=instant")
    ui.start_game(page, seed=5, bots="random")
    ui.wait_settled(page)
    assert page.evaluate("navigator.serviceWorker.ready.then(r => !!r.active)")
    hand, actions = ui.hand(page), ui.actions(page)

    site.deploy_a_new_version()
    page.evaluate("window.sameDocument = true")
    page.wait_for_selector("#update:not([hidden])", timeout=60000)
    assert page.evaluate("document.visibilityState") == "visible"
    assert page.inner_text("#update span") == told
    assert page.evaluate("window.sameDocument === true"), "the page reloaded by itself"
    assert ui.hand(page) == hand and ui.actions(page) == actions

    page.click("#update button")
    page.wait_for_selector("body[data-state=ready]", timeout=60000)
    assert page.evaluate("window.sameDocument === undefined")
    assert ui.hand(page) == hand and ui.actions(page) == actions  # the game goes on
    assert page.is_hidden("#update")  # the page is the new version: nothing more to offer
    assert site.errors == []
