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

import functools
import http.server
import re
import threading

import pytest

pytestmark = pytest.mark.browser


@pytest.fixture
def own_site(tmp_path, copy_site, browser_context):
    """A copy of the built site on its own server and a page for it. The server
    logs the paths asked for, answers 503 for those in `site.broken` and cuts
    those in `site.cut` off halfway."""
    from game.build import SiteHandler

    site = type("Site", (), {})()
    site.dir = copy_site(tmp_path / "site")
    site.hits, site.broken, site.cut = [], set(), set()

    class Handler(SiteHandler):
        prefix = "/own/"

        def do_GET(self):  # noqa: N802
            path = self.path.split("?")[0]
            site.hits.append(path)
            if path in site.broken:
                self.send_error(503)
                return
            if path in site.cut:  # the connection lost halfway through the file
                size = (site.dir / path.removeprefix("/own/")).stat().st_size
                self.send_response(200)
                self.send_header("Content-Type", "application/wasm")
                self.send_header("Content-Length", str(size))
                self.end_headers()
                with open(site.dir / path.removeprefix("/own/"), "rb") as f:
                    self.wfile.write(f.read(size // 2))
                self.close_connection = True
                return
            super().do_GET()

    site.server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(Handler, directory=str(site.dir)))
    site.server.daemon_threads = True
    threading.Thread(target=site.server.serve_forever, daemon=True).start()
    site.url = f"http://127.0.0.1:{site.server.server_address[1]}/own/"
    page = browser_context.new_page()
    site.errors = []
    page.on("console", lambda m: site.errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: site.errors.append(f"pageerror: {e}"))
    page.site_url = site.url
    site.page = page
    yield site
    page.close()
    site.server.shutdown()
    site.server.server_close()


# -- 6: the runtime's download fails on a first visit ---------------------------

WASM = "**/pyodide.asm.wasm"


def _failed_start(page, query: str) -> str:
    """Open the site with the wasm's download failing; what the loader says."""
    page.route(WASM, lambda route: route.abort())
    page.goto(page.site_url + query)
    page.wait_for_selector("#loader-retry", state="visible", timeout=60000)
    assert page.get_attribute("body", "data-state") == "loading"
    return page.inner_text("#loader-failed")


def test_a_failed_runtime_download_says_so_and_try_again_starts_the_game(own_site, ui):
    page = own_site.page
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
    assert [e for e in own_site.errors if "ERR_FAILED" not in e] == []


def test_a_failed_runtime_download_starts_by_itself_back_online(own_site, ui, browser_context):
    page = own_site.page
    told = _failed_start(page, "?lang=fr&speed=instant")
    assert "Le jeu n’a pas pu être téléchargé" in told
    assert page.inner_text("#loader-retry") == "Réessayer"
    page.unroute(WASM)
    browser_context.set_offline(True)
    browser_context.set_offline(False)  # the browser's "online" event
    page.wait_for_selector("body[data-state=ready]", timeout=60000)
    assert ui.start(page)


def test_start_pressed_after_a_failed_download_is_no_dead_button(own_site, ui):
    page = own_site.page
    _failed_start(page, "?lang=en&speed=instant")
    page.unroute(WASM)
    page.click("#start")  # it asks again, and deals once Python is up
    page.wait_for_selector("body[data-view=table]", timeout=60000)
    assert ui.hand(page)


def test_a_runtime_module_that_did_not_load_is_told_and_try_again_reloads(own_site, ui):
    # A module that failed cannot be imported again in the same page.
    page = own_site.page
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


def test_a_runtime_download_cut_off_midway_is_told_and_try_again_reloads(own_site, ui):
    page = own_site.page
    wasm = "/own/static/vendor/pyodide/pyodide.asm.wasm"
    own_site.cut.add(wasm)
    page.goto(page.site_url + "?lang=de&speed=instant")
    page.wait_for_selector("#loader-retry", state="visible", timeout=60000)
    assert "Das Spiel konnte nicht geladen werden" in page.inner_text("#loader-failed")
    assert page.inner_text("#loader-retry") == "Erneut versuchen"
    own_site.cut.clear()
    page.click("#loader-retry")
    page.wait_for_selector("body[data-state=ready]", timeout=60000)
    assert ui.start(page)


# -- 7: a service-worker install cut short ---------------------------------------

# A file that only the service worker's install asks for.
ONLY_PRECACHED = "static/rules/dracula.de.html"


def test_an_install_cut_short_is_told_finished_next_visit_and_then_plays_offline(own_site, ui):
    page = own_site.page
    own_site.broken.add("/own/" + ONLY_PRECACHED)
    ui.open_site(page, "?lang=en&speed=instant")
    page.wait_for_selector("#offline-status[data-offline=notReady]", timeout=60000)
    assert page.inner_text("#offline-status") == (
        "Offline play is not ready yet: it will be finished on your next visit.")
    asked = {p: own_site.hits.count(p) for p in set(own_site.hits)}

    own_site.broken.clear()
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
    assert asked.get(rules) == 1 and own_site.hits.count(rules) == 1, own_site.hits

    own_site.server.shutdown()  # no network: the precache answers
    own_site.server.server_close()
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


def _deploy_a_new_version(site_dir) -> None:
    """What a rebuilt site looks like to the browser: changed files, a new sw.js."""
    css = site_dir / "static" / "css" / "site.css"
    css.write_text(css.read_text() + "\n/* the next version */\n")
    sw = site_dir / "sw.js"
    text = sw.read_text()
    old = re.search(r'const CACHE = "(jhg-[0-9a-f]+)"', text).group(1)
    sw.write_text(text.replace(old, "jhg-0123456789abcdef"))
    update = site_dir / "static" / "js" / "update.js"
    update.write_text(update.read_text().replace(old, "jhg-0123456789abcdef"))


@pytest.mark.parametrize("lang, told", [("en", "A new version is ready."),
                                        ("de", "Eine neue Version ist da.")])
def test_a_new_version_is_noticed_while_the_tab_is_open_and_keeps_the_game(
        own_site, ui, lang, told):
    page = own_site.page
    page.add_init_script(FAST_CHECKS)
    ui.open_site(page, f"?lang={lang}&speed=instant")
    ui.start_game(page, seed=5, bots="random")
    ui.wait_settled(page)
    assert page.evaluate("navigator.serviceWorker.ready.then(r => !!r.active)")
    hand, actions = ui.hand(page), ui.actions(page)

    _deploy_a_new_version(own_site.dir)
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
    assert own_site.errors == []
