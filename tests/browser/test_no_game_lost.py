"""No game is ever lost: two tabs on one game, storage that is full or that
throws, a damaged save with no room to keep it aside, a deal link left in the
address (issue 30, items 1 to 5). Each fault as a browser meets it: two pages
of one persistent profile, storage filled to its real quota, `setItem` or
`localStorage` that throws.
"""

from __future__ import annotations

import json

import pytest

pytestmark = pytest.mark.browser
expect = pytest.importorskip("playwright.sync_api").expect

# Fills the origin's storage to its quota: big items, then ever smaller ones,
# until not even one character more fits. Returns how many items it wrote.
FILL = """() => {
  let n = 0;
  for (let size = 1 << 20; size >= 1; size >>= 1) {
    for (;;) {
      try { localStorage.setItem('fill.' + n, 'x'.repeat(size)); n++; } catch (e) { break; }
    }
  }
  return n;
}"""
RAW = ("QuotaExceeded", "DOMException", "setItem", "SecurityError", "Traceback")


def _saved_actions(page, game: str = "jekyll-hyde") -> int:
    text = page.evaluate(f"localStorage.getItem('jhg.save.{game}')")
    return len(json.loads(text)["transcript"]["actions"]) if text else -1


def _play(page, ui) -> None:
    """The person's next decision (a Werner card), then the bots' replies."""
    ui.click_and_wait(page, ".hand.mine .card.playable")
    ui.wait_settled(page)


def _second_tab(page):
    """Another tab of the same browser profile, watched like the first."""
    other = page.context.new_page()
    other.on("console", page.watch.console)
    other.on("pageerror", lambda e: page.watch.errors.append(f"pageerror: {e}"))
    other.on("request", page.watch.request)
    return other


def _no_raw_text(page) -> None:
    body = page.inner_text("body")
    assert not any(raw in body for raw in RAW), body


# -- item 1: one game, two tabs -------------------------------------------------------

@pytest.mark.parametrize("lang, words", [("en", "This game is open in another tab"),
                                         ("fr", "Cette partie est ouverte dans un autre onglet")])
def test_a_game_open_in_two_tabs_is_played_in_one(page, ui, lang, words):
    ui.open_site(page, f"?speed=instant&lang={lang}")
    ui.start_game(page, seed=21, bots="random")
    ui.wait_settled(page)
    _play(page, ui)
    a = ui.actions(page)
    other = _second_tab(page)
    try:
        other.goto(page.site_url + f"?speed=instant&lang={lang}")
        other.wait_for_selector("#elsewhere", timeout=60000)
        assert words in other.inner_text("#elsewhere")
        assert not page.is_visible("#elsewhere")
        # The second tab neither plays nor writes: its click is refused, and says why.
        other.click(".hand.mine .card.playable")
        expect(other.locator("#message")).to_contain_text(words)  # (the worker's answer)
        _play(page, ui)  # the first tab plays on
        assert _saved_actions(page) == ui.actions(page) > a
        ui.screenshot(other, f"tabs-elsewhere-{lang}")

        # "Play here": the second tab takes the game over, with the first tab's moves.
        other.click("#play-here")
        other.wait_for_selector("#elsewhere", state="detached")
        assert ui.actions(other) == ui.actions(page)
        page.wait_for_selector("#elsewhere")
        n = ui.actions(page)
        page.click(".hand.mine .card.playable")
        expect(page.locator("#message")).to_contain_text(words)  # refused once answered...
        assert ui.actions(page) == n and _saved_actions(page) == n  # ...and nothing written
        _play(other, ui)
        assert _saved_actions(page) == ui.actions(other) > n

        # A reload of the first tab shows the newest game, still played in the other tab.
        page.reload()
        page.wait_for_selector("#elsewhere", timeout=60000)
        assert ui.actions(page) == ui.actions(other)
        _no_raw_text(page)
    finally:
        other.close()


def test_a_new_deal_never_replaces_a_game_another_tab_plays(page, ui):
    ui.open_site(page, "?speed=instant&lang=en")
    ui.start_game(page, seed=21, bots="random")
    ui.wait_settled(page)
    _play(page, ui)
    seed_and_actions = (json.loads(page.evaluate("localStorage.getItem('jhg.save.jekyll-hyde')"))
                        ["transcript"]["seed"], ui.actions(page))
    other = _second_tab(page)
    try:
        other.goto(page.site_url + "?speed=instant&lang=en")
        other.wait_for_selector("#elsewhere", timeout=60000)
        other.click("#new-game")
        ui.start_game(other, seed=77, bots="random")
        other.wait_for_selector("#elsewhere")
        saved = json.loads(page.evaluate("localStorage.getItem('jhg.save.jekyll-hyde')"))
        assert (saved["transcript"]["seed"], len(saved["transcript"]["actions"])) \
            == seed_and_actions
        _play(page, ui)  # the first tab still plays and saves its game
        assert _saved_actions(page) == ui.actions(page)
    finally:
        other.close()


def test_each_tab_reloads_its_own_game(page, ui):
    ui.open_site(page, "?speed=instant&lang=en")
    ui.start_game(page, seed=5, bots="random")
    other = _second_tab(page)
    try:
        other.goto(page.site_url + "?game=dracula&deal=9&speed=instant&lang=en")
        other.wait_for_selector(".dr-table", timeout=60000)
        page.reload()
        page.wait_for_selector("body[data-state=ready]", timeout=60000)
        assert page.locator(".table.jh").count() == 1 and not page.is_visible("#elsewhere")
        other.reload()
        other.wait_for_selector("body[data-state=ready]", timeout=60000)
        assert other.locator(".dr-table").count() == 1 and not other.is_visible("#elsewhere")
    finally:
        other.close()


# -- items 4 and 5: storage that keeps nothing, or is full -------------------------------

@pytest.mark.parametrize("lang, words", [
    ("en", "This browser does not let the site keep anything"),
    ("de", "Dieser Browser erlaubt der Seite nicht, etwas zu speichern")])
def test_no_storage_at_all_is_said_and_the_game_plays(page, ui, lang, words):
    page.add_init_script("Object.defineProperty(window, 'localStorage', {get() {"
                         " throw new DOMException('The operation is insecure.', 'SecurityError');"
                         " }});")
    page.goto(page.site_url + f"?speed=instant&lang={lang}")
    page.wait_for_selector("body[data-state=ready]", timeout=60000)
    assert words in page.inner_text("#unsaved")
    ui.start_game(page, seed=4, bots="random")
    ui.wait_settled(page)
    _play(page, ui)
    assert page.locator("#unsaved #download-unsaved").count() == 1
    assert page.locator("#unsaved").count() == 1  # said once, not once a move
    _no_raw_text(page)
    with page.expect_download() as download:
        page.click("#download-unsaved")
    assert json.loads(open(download.value.path(), encoding="utf-8").read())["game"] == "jekyll-hyde"


@pytest.mark.parametrize("lang, words", [("en", "The browser's storage is full"),
                                         ("it", "La memoria del browser è piena")])
def test_storage_full_mid_game_keeps_the_game_and_its_result(page, ui, lang, words):
    text = ui.save_near_end("jekyll-hyde", {"players": 4, "seating": "A", "target": 100}, 0,
                            seed=1, whole_game=True)
    page.goto(page.site_url + "blank.html")
    page.evaluate("([t]) => { localStorage.clear(); localStorage.setItem('jhg.save.jekyll-hyde', t);"
                  " localStorage.setItem('jhg.current', 'jekyll-hyde'); }", [text])
    assert page.evaluate(FILL) > 0
    page.goto(page.site_url + f"?speed=instant&lang={lang}")
    page.wait_for_selector("body[data-state=ready]", timeout=60000)
    page.wait_for_function("document.body.dataset.toAct === 'over'", timeout=60000)
    assert words in page.inner_text("#unsaved")
    _no_raw_text(page)
    # The end of the game offers the download again, and its result is counted.
    assert page.locator("#modal #file-download-final").count() == 1
    assert page.locator("#modal #stats-note:not(.practice)").count() == 1
    page.click("#stats-note [data-cmd=stats]")
    page.wait_for_selector("body[data-view=stats] #stats")
    assert page.locator('.stats-game[data-game="jekyll-hyde"] tbody tr').count() == 1
    ui.screenshot(page, f"storage-full-{lang}")


def test_a_set_item_that_throws_never_shows_the_browsers_text(page, ui):
    page.goto(page.site_url + "blank.html")
    page.evaluate("localStorage.clear()")
    page.add_init_script("Storage.prototype.setItem = function () {"
                         " throw new DOMException('Failed to execute setItem', 'QuotaExceededError'); };")
    page.goto(page.site_url + "?speed=instant&lang=en")
    page.wait_for_selector("body[data-state=ready]", timeout=60000)
    ui.start_game(page, seed=8, bots="random")
    ui.wait_settled(page)
    _play(page, ui)
    _play(page, ui)
    assert "The browser's storage is full" in page.inner_text("#unsaved")
    assert page.locator("#unsaved").count() == 1
    _no_raw_text(page)


# -- item 2: a damaged save and no room to keep it aside --------------------------------

@pytest.mark.parametrize("lang, stays, kept_aside", [
    ("en", "stays where it is", "kept aside"), ("fr", "reste à sa place", "mise de côté")])
def test_a_damaged_save_with_storage_full_is_never_written_over(page, ui, lang, stays,
                                                                 kept_aside):
    damaged = json.dumps({"format": "jekyll-hyde-games/save", "version": 2, "game": "dracula"})
    page.goto(page.site_url + "blank.html")
    page.evaluate("([t]) => { localStorage.clear(); localStorage.setItem('jhg.save.dracula', t);"
                  " localStorage.setItem('jhg.current', 'dracula'); }", [damaged])
    page.evaluate(FILL)
    page.goto(page.site_url + f"?speed=instant&lang={lang}")
    page.wait_for_selector("#broken-save", timeout=60000)
    notice = page.inner_text("#broken-save")
    assert kept_aside not in notice and stays in notice
    href = page.get_attribute("#broken-save a[download]", "href")
    assert href.endswith(page.evaluate("encodeURIComponent", damaged))  # its download holds it
    assert page.evaluate("Object.keys(localStorage).filter(k => k.startsWith('jhg.broken.'))") == []
    assert page.locator("[data-cmd=switch][data-game=dracula]").count() == 0  # not offered
    ui.choose(page, "#f-game", "dracula")
    page.click("#start")
    page.wait_for_selector("#setup-error")
    assert page.evaluate("localStorage.getItem('jhg.save.dracula')") == damaged
    ui.screenshot(page, f"damaged-save-storage-full-{lang}")
    # Only the player's explicit choice discards it.
    page.click("#discard-broken")  # (removed by the page once the worker answers)
    page.wait_for_function("localStorage.getItem('jhg.save.dracula') === null")
    page.click("#start")
    page.wait_for_selector(".dr-table")


# -- item 3: a deal link left in the address --------------------------------------------

@pytest.mark.parametrize("lang, title", [("en", "Replace the game in progress?"),
                                         ("fr", "Remplacer la partie en cours ?")])
def test_a_deal_link_asks_before_replacing_the_game_in_progress(page, ui, lang, title):
    ui.open_site(page, f"?speed=instant&lang={lang}")
    ui.choose(page, "#f-game", "dracula")  # (its redrawing would draw over the seed)
    page.fill("#f-seed", "5")
    page.click("#start")
    page.wait_for_selector(".dr-table")
    ui.wait_settled(page)
    n = ui.actions(page)
    page.goto(page.site_url + f"?game=dracula&deal=81&speed=instant&lang={lang}")
    page.wait_for_selector("#deal-keep", timeout=60000)
    assert title in page.inner_text("#modal")
    assert page.evaluate("document.activeElement.id") == "deal-keep"  # the default: keep it
    assert "deal=" not in page.url and "game=" not in page.url and f"lang={lang}" in page.url
    for size, name in (((390, 844), "phone"), ((1366, 768), "desktop")):
        page.set_viewport_size({"width": size[0], "height": size[1]})
        ui.screenshot(page, f"deal-link-asks-{lang}-{name}")
    page.set_viewport_size({"width": 1366, "height": 900})
    page.keyboard.press("Enter")
    page.wait_for_selector("#modal", state="hidden")
    saved = json.loads(page.evaluate("localStorage.getItem('jhg.save.dracula')"))
    assert saved["transcript"]["seed"] == 5 and ui.actions(page) == n
    page.reload()  # the address no longer holds the link: the game in progress, unasked
    page.wait_for_selector("body[data-state=ready]", timeout=60000)
    assert page.locator("#deal-keep").count() == 0 and ui.actions(page) == n
    # Asked again, the player may replace it.
    page.goto(page.site_url + f"?game=dracula&deal=81&speed=instant&lang={lang}")
    page.click("#deal-replace")
    page.wait_for_function("JSON.parse(localStorage.getItem('jhg.save.dracula'))"
                           ".transcript.seed === 81")
