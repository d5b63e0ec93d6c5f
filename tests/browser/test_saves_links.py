"""One save per game, the deal number as a link, page parameters, the rules
links and the words of the header (issue 15, items 7, 9, 10 and 11).

The `page` fixture (conftest.py) also fails a test on any console error or
any request to another host.
"""

from __future__ import annotations

import json
import re

import pytest

from game.web.draw.i18n import LANGUAGES

pytestmark = pytest.mark.browser
GAMES = ("jekyll-hyde", "jekyll-vs-hyde", "dracula")


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


@pytest.mark.parametrize("game", GAMES)
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


def test_an_old_save_beside_a_newer_one_of_its_game_is_kept_aside(page, ui):
    ui.open_site(page, "?speed=instant")
    _new_game(page, ui, "dracula", 8)
    old = page.evaluate("localStorage.getItem('jhg.save.dracula')")
    _new_game(page, ui, "dracula", 9)
    page.evaluate("t => localStorage.setItem('jhg.save', t)", old)
    _goto(page, "?speed=instant")
    page.wait_for_selector("#broken-save")
    assert _on_table(page)[:2] == ("dracula", 9)
    kept = page.evaluate("Object.keys(localStorage).filter(k => k.startsWith('jhg.broken.'))"
                         ".map(k => localStorage.getItem(k))")
    assert kept == [old]
    assert page.evaluate("localStorage.getItem('jhg.save')") is None


# -- item 11: the deal number, its link and the page parameters -------------------

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


def test_the_same_deal_twice_gives_the_same_cards(page, ui):
    hands = []
    for _ in range(2):
        ui.open_site(page, "?game=jekyll-hyde&deal=77&speed=instant")
        page.wait_for_selector("body[data-view=table]")
        hands.append(page.evaluate(
            "JSON.parse(localStorage.getItem('jhg.save.jekyll-hyde')).transcript.seed"))
        hands.append(ui.hand(page))
    assert hands[0] == hands[2] == 77 and hands[1] == hands[3] and hands[1]


def test_every_bad_parameter_is_reported_in_one_notice(page, ui):
    ui.open_site(page, "?game=nope&lang=xx&deal=abc&utm_source=x&speed=warp")
    assert page.locator("#notices .notice").count() == 1
    notice = page.inner_text("#notices .notice")
    for bad in ("game=nope", "lang=xx", "deal=abc", "utm_source", "speed=warp"):
        assert bad in notice
    assert page.evaluate("document.body.dataset.view") == "setup"  # nothing was dealt
    assert page.evaluate("document.documentElement.lang") == "en"
    ui.screenshot(page, "bad-parameters")
    # Good values of the same parameters are not reported.
    ui.open_site(page, "?game=dracula&lang=fr-CA&deal=12&speed=fast")
    page.wait_for_selector(".dr-table")
    assert page.locator("#notices .notice").count() == 0
    # Dracula has six deals of its own: its number is a shuffle's, named apart.
    assert page.inner_text("#deal-link") == "Mélange n° 12"
    assert "Donne 1 sur 6" in page.inner_text(".dr-table")


# -- item 7: the rules, from every table and from the start screen --------------

@pytest.mark.parametrize("game", GAMES)
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


def test_how_to_play_links_the_chosen_games_illustrated_rules(page, ui):
    ui.open_site(page, "?lang=de")
    for game in GAMES:
        page.select_option("#f-game", game)
        page.wait_for_function(
            f"document.getElementById('rules-page').getAttribute('href')"
            f".endsWith('{game}.de.html')")
        assert page.inner_text("#rules-page") == "Die bebilderten Regeln, mit Beispielen"
    page.set_viewport_size({"width": 390, "height": 844})
    ui.screenshot(page, "how-to-play-rules-link-390")
    page.set_viewport_size({"width": 1366, "height": 900})


# -- item 9: a pace is not a strength -------------------------------------------

def _words(texts: list[str]) -> set[str]:
    return {w for t in texts for w in re.findall(r"\w{3,}", t.lower())}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_bots_pace_and_strength_share_no_word(page, ui, lang):
    ui.open_site(page, f"?game=jekyll-hyde&lang={lang}")
    paces = page.eval_on_selector_all("#speed option", "els => els.map(e => e.textContent)")
    strengths = page.eval_on_selector_all("#setup select[name^=bot] option",
                                          "els => els.map(e => e.textContent)")
    assert len(paces) == 4 and len(strengths) >= 4
    assert not _words(paces) & _words(strengths), (paces, strengths)
