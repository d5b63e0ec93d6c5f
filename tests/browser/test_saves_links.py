"""One save per game, the deal number as a link and the rules link (issue
15, items 7, 10 and 11), where the browser itself is what is checked: the
real localStorage across navigations and reloads (another game's save kept,
the one save of earlier versions moved, for one game), the address read and
a link followed, a rules page opened in a new tab, layout at two sizes.

The rest under CPython, through the real controller:
tests/test_stored_values.py (the old save moved for every game, or kept
aside beside a newer one), tests/test_web_page_values.py (every bad
parameter in one notice, the same deal twice, each table's rules link and
its page's Play link, How to play's link, pace and strength sharing no word
in every language), tests/test_page_steps_as_effects.py and
tests/test_web_page.py (switching games).

The `page` fixture (conftest.py) also fails a test on any console error or
any request to another host.
"""

from __future__ import annotations

import json

import pytest

pytestmark = pytest.mark.browser


def _new_game(page, ui, game: str, seed: int) -> None:
    """New game, then `game` dealt with its default choices."""
    page.click("#new-game")
    page.wait_for_selector("#setup")
    ui.start(page, game, seed=seed)


def _on_table(page) -> tuple[str, int, int]:
    """(game, deal number, actions) of the game on the table, from its save."""
    game = page.evaluate("localStorage.getItem('jhg.current')")
    save = json.loads(page.evaluate(f"localStorage.getItem('jhg.save.{game}')"))
    return save["game"], save["transcript"]["seed"], len(save["transcript"]["actions"])


def _drawn(page) -> str:
    """The table as drawn, without the focus the shell moved since (it makes
    the prompt focusable to keep the focus on the table)."""
    return page.inner_html("#screen").replace(' id="prompt" tabindex="-1"', ' id="prompt"')


def _goto(page, query: str) -> None:
    page.goto(page.site_url + query)
    page.wait_for_selector("body[data-state=ready]", timeout=60000)


# -- item 10: one save per game ---------------------------------------------------

def test_a_new_game_of_one_game_keeps_the_others_game(page, ui):
    ui.open_site(page, "?speed=instant&lang=en")
    ui.start_game(page, seed=21)
    assert ui.wait_settled(page) == "me"
    ui.click_and_wait(page, ".hand.mine .card.playable")
    ui.wait_settled(page)  # the bots' replies are saved too
    werner = _on_table(page)
    assert werner[0] == "jekyll-hyde" and werner[2] >= 1
    _new_game(page, ui, "dracula", 5)
    assert _on_table(page)[:2] == ("dracula", 5)
    # The rules page's "Play" link opens Dracula, never the saved Werner game.
    _goto(page, "index.html?game=dracula&lang=en")
    page.wait_for_selector(".dr-table")
    assert _on_table(page)[:2] == ("dracula", 5)
    # Werner's game is where it was, and the start screen switches back to it.
    page.click("#new-game")
    page.click("[data-cmd=switch][data-game=jekyll-hyde]")
    page.wait_for_selector(".table.jh")
    assert _on_table(page) == werner
    ui.screenshot(page, "saves-switched-back")
    # From there, back to Dracula the same way.
    page.click("#new-game")
    page.wait_for_selector("#setup")  # the start screen comes with the worker's answer
    assert page.locator("[data-cmd=switch]").count() == 1  # only the other game
    page.click("[data-cmd=switch][data-game=dracula]")
    page.wait_for_selector(".dr-table")
    keys = page.evaluate("Object.keys(localStorage).filter(k => k.startsWith('jhg.save'))")
    assert sorted(keys) == ["jhg.save.dracula", "jhg.save.jekyll-hyde"]


def test_the_play_link_of_a_game_without_a_save_opens_its_start_screen(page, ui):
    ui.open_site(page, "?speed=instant&lang=en")
    ui.start_game(page, seed=3)
    _goto(page, "index.html?game=dracula&lang=fr")
    assert page.evaluate("document.body.dataset.view") == "setup"
    assert page.input_value("#f-game") == "dracula"
    # Werner's game in progress is offered, not discarded.
    assert "Reprendre : Dr Jekyll" in page.inner_text("[data-cmd=switch][data-game=jekyll-hyde]")
    assert page.evaluate("localStorage.getItem('jhg.save.jekyll-hyde')")
    page.set_viewport_size({"width": 390, "height": 844})
    ui.screenshot(page, "saves-start-screen-other-game-390")
    page.set_viewport_size({"width": 1366, "height": 900})


@pytest.mark.parametrize("game", ["dracula"])
def test_the_one_save_of_earlier_versions_moves_to_its_games_key(page, ui, game):
    """An old `jhg.save` of any game is resumed as it was, then kept under its game's key."""
    ui.open_site(page, "?speed=instant")
    _new_game(page, ui, game, 8)
    ui.wait_settled(page)
    text = page.evaluate(f"localStorage.getItem('jhg.save.{game}')")
    before = (ui.actions(page), _drawn(page))
    page.evaluate("t => { localStorage.clear(); localStorage.setItem('jhg.save', t); }", text)
    _goto(page, "?speed=instant")
    assert ui.wait_settled(page) in ("me", "modal")
    assert (ui.actions(page), _drawn(page)) == before
    assert page.evaluate("localStorage.getItem('jhg.save')") is None
    assert page.evaluate(f"localStorage.getItem('jhg.save.{game}')") == text
    assert not page.is_visible("#broken-save")


# -- item 11: the deal number and its link -------------------

def test_a_deal_link_deals_that_deal_and_a_reload_resumes_it(page, ui):
    ui.open_site(page, "?game=jekyll-vs-hyde&deal=1234&speed=instant&lang=en")
    page.wait_for_selector("body[data-view=table]")
    assert _on_table(page)[:2] == ("jekyll-vs-hyde", 1234)
    assert page.inner_text("#deal-link") == "Shuffle #1234"
    href = page.get_attribute("#deal-link", "href")
    assert href == "?game=jekyll-vs-hyde&deal=1234"
    assert ui.wait_settled(page) in ("me", "modal")
    n = ui.actions(page)
    # The link itself (a reload, or the header's link) resumes the deal in progress.
    page.click("#deal-link")
    page.wait_for_selector("body[data-state=ready]", timeout=60000)
    assert ui.wait_settled(page) in ("me", "modal")
    assert ui.actions(page) == n and _on_table(page)[1] == 1234
    for size in ((390, 844), (1366, 768)):
        page.set_viewport_size({"width": size[0], "height": size[1]})
        assert page.is_visible("#deal-link") and page.is_visible("#rules-link")
        ui.screenshot(page, f"deal-link-{size[0]}")
    page.set_viewport_size({"width": 1366, "height": 900})


# -- item 7: the rules, from a table --------------

@pytest.mark.parametrize("game", ["dracula"])
def test_every_table_links_its_rules_page(page, ui, game):
    ui.open_site(page, f"?game={game}&deal=3&speed=instant&lang=it")
    page.wait_for_selector("body[data-view=table]")
    href = page.get_attribute("#rules-link", "href")
    assert href == f"./static/rules/{game}.it.html"
    page.set_viewport_size({"width": 390, "height": 844})
    assert page.is_visible("#rules-link") and page.is_visible("#deal-link")
    ui.screenshot(page, f"rules-link-{game}-390")
    page.set_viewport_size({"width": 1366, "height": 900})
    with page.context.expect_page() as opened:
        page.click("#rules-link")
    rules = opened.value
    rules.wait_for_load_state()
    assert rules.url.endswith(f"/static/rules/{game}.it.html")
    assert rules.locator(f"a.play[href$='index.html?game={game}&lang=it']").count() >= 1
    rules.close()
