"""The first paint (static/js/first.js, and embed.html's embed-start.js): the
screen the visitor will see, drawn from the page's HTML before any runtime
loads, and kept when Python takes over.

Each test holds back the page's runtime (static/js/front.mjs, which starts the
game's worker and MicroPython), so nothing of Python runs until it lets it go.
The page must not be controlled by the service worker for that (Playwright
cannot hold what a service worker answers), so the tests unregister it first;
the next visit registers it again.
"""

from __future__ import annotations

import json

import pytest

UNREGISTER = """async () => {
  for (const r of await navigator.serviceWorker.getRegistrations()) await r.unregister();
}"""


class Held:
    """The page's runtime held back until `release()`."""

    def __init__(self, page) -> None:
        self.page, self.held, self.released = page, [], False
        page.route("**/static/js/front.mjs", self._hold)

    def _hold(self, route) -> None:
        if self.released:
            route.continue_()
        else:
            self.held.append(route)

    def asked(self) -> bool:
        """Wait (up to 10 s) until the page has asked for its runtime."""
        for _ in range(200):
            if self.held:
                return True
            self.page.wait_for_timeout(50)  # (Playwright runs the route's handler meanwhile)
        return False

    def release(self) -> None:
        self.released = True
        for route in self.held:
            route.continue_()


def _open_held(page, query: str = "", storage: dict[str, str] | None = None,
               ready: str = "body[data-first]") -> Held:
    """Open the site with its runtime held back, `storage` in localStorage, no service worker."""
    page.goto(page.site_url + "blank.html")
    page.evaluate(UNREGISTER)
    page.evaluate("s => { localStorage.clear(); for (const k in s) localStorage.setItem(k, s[k]); }",
                  storage or {})
    held = Held(page)
    page.goto(page.site_url + query, wait_until="commit")
    page.wait_for_selector(ready)
    return held


def test_the_start_screen_is_drawn_in_the_visitors_language_before_python(page):
    held = _open_held(page, "", {"jhg.prefs": json.dumps({"lang": "de", "speed": "fast"})})
    assert page.get_attribute("body", "data-state") == "loading"
    assert page.is_visible("#setup") and page.is_visible("#side .help")
    assert page.evaluate("document.documentElement.lang") == "de"
    assert page.text_content("#setup h1") == "Neues Spiel"
    assert page.text_content("#start") == "Wird vorbereitet…"
    assert page.get_attribute("#start", "aria-busy") == "true"
    assert page.input_value("#speed") == "fast"
    assert page.is_visible("#loader")  # the progress indicator, until play is possible
    before = page.inner_html("#setup")
    held.release()
    page.wait_for_selector("body[data-state=ready]", timeout=120000)
    assert page.text_content("#start") == "Karten geben"
    assert page.inner_html("#setup") == before.replace(
        ' aria-busy="true">Wird vorbereitet…', ">Karten geben"), "Python drew another screen"
    assert page.is_hidden("#loader")


# What the progress indicator covers at the top left of the viewport, as the ids
# (or first words) of the start screen's and the menu's fields, words and buttons.
COVERED_BY_LOADER = """() => {
  const box = document.querySelector('#loader .loader-box').getBoundingClientRect();
  const meets = r => r.width > 0 && r.height > 0 && r.left < box.right && box.left < r.right
    && r.top < box.bottom && box.top < r.bottom;
  return [...document.querySelectorAll(
      '#setup :is(h1, label, select, input, button, p), #menu :is(button, select)')]
    .filter(el => meets(el.getBoundingClientRect()))
    .map(el => el.id || el.textContent.trim().slice(0, 40));
}"""


@pytest.mark.parametrize("width,height", [(390, 844), (1366, 768)])
def test_the_progress_covers_nothing_of_the_start_screen(page, width, height):
    """While the runtime downloads (seconds on a first visit), the start screen
    stays whole: Start, "Learn by playing" and "No take-backs" are not hidden
    behind the progress, which still shows."""
    page.set_viewport_size({"width": width, "height": height})
    held = _open_held(page, "?lang=en")
    assert page.get_attribute("body", "data-state") == "loading"
    assert page.is_visible("#loader .bar-track")
    assert page.evaluate(COVERED_BY_LOADER) == []
    held.release()
    page.wait_for_selector("body[data-state=ready]", timeout=120000)


def test_choices_made_before_python_is_ready_are_honoured(page):
    held = _open_held(page, "?lang=en")
    page.select_option("#lang", "it")  # the whole screen in Italian, still before Python
    assert page.text_content("#start") == "Preparazione…"
    page.select_option("#f-game", "dracula")
    page.select_option("#f-first", "bot")
    page.fill("#f-seed", "42")
    page.click("#start")  # not lost: the game starts as soon as Python is up
    assert page.text_content("#start") == "Si parte appena è pronto…"
    assert page.get_attribute("body", "data-state") == "loading"
    held.release()
    page.wait_for_selector("body[data-view=table]", timeout=120000)
    assert page.evaluate("document.documentElement.lang") == "it"
    save = json.loads(page.evaluate("localStorage.getItem('jhg.save.dracula')"))
    assert save["game"] == "dracula"
    assert save["transcript"]["seed"] == 42
    assert save["transcript"]["options"]["first_dealer"] == 1  # the bot deals first
    assert json.loads(page.evaluate("localStorage.getItem('jhg.prefs')"))["lang"] == "it"


@pytest.mark.parametrize("query,keys", [
    ("", ["jhg.save.jekyll-hyde", "jhg.current"]),  # the game last on the table
    ("?game=jekyll-hyde", ["jhg.save.jekyll-hyde"]),  # a link to the game in progress
    ("", ["jhg.save"]),  # the one save of earlier versions
])
def test_a_saved_game_shows_its_table_not_the_start_screen(page, ui, query, keys):
    ui.open_site(page, "?speed=instant")
    ui.start_game(page, seed=3)
    save = ui.saved(page, "jekyll-hyde")  # (read too early, "null": the start screen)
    held = _open_held(page, query, {k: "jekyll-hyde" if k == "jhg.current" else save
                                    for k in keys})
    assert page.is_visible("#screen .table.skeleton")
    assert not page.query_selector("#setup")
    held.release()
    page.wait_for_selector("body[data-state=ready]", timeout=120000)
    assert page.get_attribute("body", "data-view") == "table"
    assert ui.hand(page)


def test_learn_by_playing_pressed_before_python_starts_the_lesson(page):
    held = _open_held(page, "?lang=fr&game=dracula")
    page.click("#lesson")  # not lost: the lesson starts as soon as Python is up
    assert page.get_attribute("#lesson", "aria-busy") == "true"
    held.release()
    page.wait_for_selector("body[data-lesson=dracula]", timeout=120000)
    assert page.is_visible("#coach-next")
    assert page.evaluate("localStorage.getItem('jhg.save.dracula')") is None  # never saved


def test_an_embedded_table_is_painted_before_python_and_drawn_again_in_place(page):
    held = _open_held(page, "embed.html?game=jekyll-hyde&lang=fr", ready="#screen .ex-skeleton")
    assert held.asked(), "the page never asked for its runtime"
    legend = page.locator("#screen .table.jh .jh-legend")
    assert legend.is_visible()  # the order of the cards, which no deal changes
    assert legend.text_content().startswith("Force")
    assert page.get_attribute("body", "data-state") == "loading"
    waiting = legend.bounding_box()
    held.release()
    page.wait_for_selector("body[data-state=ready]", timeout=120000)
    assert page.locator(".jh-legend").count() == 1 and not page.query_selector(".ex-skeleton")
    assert page.locator("#screen .hand .card").count() > 0  # the deal, drawn
    drawn = legend.bounding_box()  # the same size: the reader's largest paint stays the first
    assert (drawn["width"], drawn["height"]) == (waiting["width"], waiting["height"])


def test_an_embed_of_a_game_without_a_waiting_table_paints_its_skeleton(page):
    held = _open_held(page, "embed.html?game=dracula", ready="#screen .ex-skeleton")
    assert held.asked(), "the page never asked for its runtime"  # embed-start.js has run
    assert not page.query_selector("#screen .table")
    assert page.is_visible("#screen .ex-skeleton")


# The page's layout shifts so far (the browser's own record), as [value, what moved].
SHIFTS = """() => new Promise((done) => {
  const seen = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      seen.push([e.value, e.sources.map((s) => s.node ? s.node.className || s.node.nodeName : "")]);
    }
  }).observe({type: "layout-shift", buffered: true});
  setTimeout(() => done(seen), 200);
})"""


@pytest.mark.parametrize("size", [(390, 844), (1366, 768)])
@pytest.mark.parametrize("game", ["jekyll-hyde", "dracula"])
def test_a_live_embed_does_not_move_when_its_game_comes(page, game, size):
    # Its bar (Restart, Open the full game) is filled only then: its room is
    # kept from the first paint (embed-start.js, embed.css). It was 33-37 px.
    page.set_viewport_size({"width": size[0], "height": size[1]})
    held = _open_held(page, f"embed.html?game={game}", ready="#screen .ex-skeleton")
    assert held.asked()
    page.wait_for_timeout(300)  # painted as it waits
    top = page.locator("main.ex-main").bounding_box()["y"]
    held.release()
    page.wait_for_selector("body[data-state=ready]", timeout=120000)
    assert page.locator("#menu button").count() > 0  # the bar is filled
    assert page.locator("main.ex-main").bounding_box()["y"] == top
    assert page.evaluate(SHIFTS) == []


# Where "How to play" is, on the start screen: the panel's box, the form's, and the
# link to the panel if one shows (its box and the scroll to the panel it leads to).
HOW_TO_PLAY = """() => {
  const box = el => el ? el.getBoundingClientRect().toJSON() : null;
  const link = document.querySelector('#setup a[href="#side"]');
  return {help: box(document.querySelector('#side .help h2')), form: box(document.getElementById('setup')),
          link: link && link.offsetParent ? box(link) : null, innerHeight};
}"""


@pytest.mark.parametrize("width,height", [(390, 844), (1366, 768)])
def test_how_to_play_is_in_sight_of_the_start_screen(page, ui, width, height):
    """On a phone the way to "How to play" is on the first screen, under the
    game picker, and leads to it; on a desktop the panel stands right beside
    the form, not in a far column across an empty gap."""
    page.set_viewport_size({"width": width, "height": height})
    ui.open_site(page, "?lang=en")
    where = page.evaluate(HOW_TO_PLAY)
    if where["help"]["top"] < height and where["help"]["left"] >= where["form"]["right"]:
        assert where["help"]["left"] - where["form"]["right"] < 32, where  # beside the form
        assert abs(where["help"]["top"] - where["form"]["top"]) < 40, where
        return
    assert width < 1000, f"at {width}×{height} the panel is not beside the form: {where}"
    link = where["link"]
    assert link and 0 <= link["top"] and link["bottom"] <= height, f"no link to it in sight: {where}"
    page.click('#setup a[href="#side"]')
    page.wait_for_function("(r => r.top >= 0 && r.bottom <= innerHeight)"
                           "(document.querySelector('#side .help h2').getBoundingClientRect())")
