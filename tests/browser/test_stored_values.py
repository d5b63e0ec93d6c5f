"""Nothing the browser keeps can stop the site (issue 55, item 10), in Chromium:
every key the site keeps in localStorage (and this tab's sessionStorage)
given garbage, or a huge value near the real quota, before the page starts.
The page becomes playable (a deal, a hand), says what it ignored, and the
saved game beside them is kept and continues. A language of the wrong type
never stops the loader's script; a fault inside the game's worker at start
is told as such, never as a failed download.

Under CPython, through the real controller (tests/test_stored_values.py):
each key alone, and every key of both groups at once with every damage
(another JSON type, fields of the wrong types, the one save of earlier
versions and `jhg.current` damaged too)."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser

DAMAGE = {"garbage": "{[",
          "huge": "x" * 300_000}  # far past anything the site writes; six of them fit the quota
KEYS = {"local": ("jhg.prefs", "jhg.stats", "jhg.save.dracula", "jhg.online.jekyll-hyde",
                  "jhg.online.seat.room1", "jhg.broken.20260101T000000")}
TOLD = {"local": ("Your settings could not all be read", "Your statistics could not be read",
                  "The saved game could not be loaded")}


def put(page, local: dict[str, str], session: dict[str, str]) -> None:
    page.goto(page.site_url + "blank.html")
    page.evaluate("""([local, session]) => {
      localStorage.clear(); sessionStorage.clear();
      for (const [k, v] of Object.entries(local)) localStorage.setItem(k, v);
      for (const [k, v] of Object.entries(session)) sessionStorage.setItem(k, v);
    }""", [local, session])


# Every damage of both groups, each fault told once, the duel kept: under CPython
# (tests/test_stored_values.py::test_every_key_damaged_at_once_the_page_plays_says_so_once_and_keeps_the_game).
# Here the real storage read at start, with garbage, and with values near its real quota.
@pytest.mark.parametrize("damage, group", [("garbage", "local"), ("huge", "local")])
def test_every_stored_key_damaged_at_start_the_page_plays_says_so_and_keeps_the_game(
        page, ui, damage, group):
    duel = ui.save_near_end("jekyll-vs-hyde", {}, "J", 5)
    local = {key: DAMAGE[damage] for key in KEYS[group]}
    local["jhg.save.jekyll-vs-hyde"] = duel
    session = {}
    if group == "local":  # Dracula's damaged save is the game to resume; this tab's own word too
        local["jhg.current"] = "dracula"
        session["jhg.current"] = DAMAGE[damage]
    put(page, local, session)
    ui.open_site(page, "?lang=en", clear=False)
    said = page.inner_text("#notices")
    for words in TOLD[group]:
        assert words in said, (words, said)
    page.click("#start")  # a new game of the start screen's game (Werner's) deals
    page.wait_for_selector("body[data-view=table]")
    assert ui.hand(page)
    assert page.evaluate("localStorage.getItem('jhg.save.jekyll-vs-hyde')") == duel
    ui.open_site(page, "?lang=en", clear=False)  # told once: the next visit says nothing
    said = page.inner_text("#notices")
    assert "Your settings" not in said and "statistics could not" not in said, said
    # The duel was never written over, and goes on.
    page.evaluate("localStorage.setItem('jhg.current', 'jekyll-vs-hyde');"
                  "sessionStorage.removeItem('jhg.current')")
    ui.open_site(page, "?lang=en", clear=False)
    page.wait_for_selector("body[data-view=table]")
    assert page.title() == "Jekyll vs Hyde"
    assert ui.wait_settled(page) == "modal"  # its first hand ends, as the save left it


def test_a_language_of_the_wrong_type_does_not_stop_the_loader(page, ui):
    put(page, {"jhg.prefs": '{"lang": 5}'}, {})
    page.goto(page.site_url + "?lang=")  # (no language in the link: the stored one is read)
    page.wait_for_selector("body[data-state=ready]", timeout=60000)
    # The page fixture fails on the page error the loader's script once threw.


def test_a_fault_inside_the_worker_at_start_is_not_told_as_a_failed_download(
        chromium, site_url):
    """The worker's start message spoiled on its way (its storage items a
    number): Python is up and fails, the page says the game could not start
    (not that it could not be downloaded), in the notices at the top, where it
    covers nothing, and its "Try again" loads the page anew."""
    for width, height in ((390, 844), (1366, 768)):
        ctx = chromium.new_context(viewport={"width": width, "height": height})
        ctx.add_init_script("""(() => {
          const post = Worker.prototype.postMessage;
          Worker.prototype.postMessage = function (data, transfer) {
            if (typeof data === "string" && data.startsWith('{"start"')
                && !sessionStorage.getItem("spoilt")) {
              sessionStorage.setItem("spoilt", "once");
              const msg = JSON.parse(data); msg.start.local = 5; data = JSON.stringify(msg);
            }
            return post.call(this, data, transfer);
          };
        })()""")
        page = ctx.new_page()
        page.goto(site_url + "?lang=en")
        page.wait_for_selector("#loader-failed", state="visible", timeout=60000)
        said = page.inner_text("#loader-failed")
        assert "could not start (TypeError)" in said and "downloaded" not in said, said
        assert page.evaluate("document.body.dataset.state") == "loading"
        note = page.locator("#loader-failed").bounding_box()
        start = page.locator("#start").bounding_box()
        assert note["y"] + note["height"] <= start["y"]  # above the start screen, over nothing
        page.click("#loader-retry")  # loaded anew, unspoilt this time: the game starts
        page.wait_for_selector("body[data-state=ready]", timeout=60000)
        assert page.is_hidden("#loader-failed")
        ctx.close()
