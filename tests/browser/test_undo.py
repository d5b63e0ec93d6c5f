"""Undo in headless Chromium, its wiring: in Dracula two decisions taken back
one by one (the button, then Ctrl+Z) restore exactly the saved positions
before them — state, transcript and log, read from localStorage — the game is
then marked as practice, also after a reload; in a duel started with "no
take-backs" there is no Undo, and its keys do nothing.

Every game and mode, again and again back to the start of the hand, and "no
take-backs" in each game are checked through the real controller in
tests/test_web_undo.py."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser

# The save of `game`, whatever its key in localStorage.
SAVE = """game => {
    for (let i = 0; i < localStorage.length; i++) {
        try {
            const d = JSON.parse(localStorage.getItem(localStorage.key(i)));
            if (d && d.format === 'jekyll-hyde-games/save' && d.game === game) return d;
        } catch (e) {}
    }
    return null;
}"""


def _duel(page, ui, no_takebacks: bool) -> None:
    ui.choose(page, "#f-game", "jekyll-vs-hyde")
    _no_takebacks(page, no_takebacks)
    ui.start(page, "jekyll-vs-hyde", {"jvh_role": "J", "jvh_bot": "random"}, 5, ".table.jvh")


def _duel_move(page, ui) -> None:
    if page.locator("#jvh-pick").count():  # the exchange: a Potion first if one must go
        need = int(page.get_attribute("#jvh-pick", "data-need"))
        cards = page.eval_on_selector_all("#jvh-pick [data-part]",
                                          "els => els.map(e => e.dataset.part)")
        cards.sort(key=lambda c: not c.endswith("+"))
        for card in cards[:need]:
            page.click(f'#jvh-pick [data-part="{card}"]')
        ui.click_and_wait(page, "#jvh-confirm")
        return
    ui.duel_play_first(page)


def _dracula(page, ui, no_takebacks: bool) -> None:
    ui.choose(page, "#f-game", "dracula")
    _no_takebacks(page, no_takebacks)
    ui.start(page, "dracula", {"first": "bot", "dr_bot": "random"}, 12, ".dr-table")


def _dracula_move(page, ui) -> None:
    way = page.locator("#screen [data-act]:not([disabled])")
    if way.count():  # the dealer chooses the way
        ui.click_and_wait(page, "#screen [data-act]:not([disabled])")
        return
    card = page.get_attribute(".dr-hand .dc-btn", "data-card")
    cell = page.get_attribute(".cell.open", "data-cell")
    page.click(f'.dr-hand .dc-btn[data-card="{card}"]')
    ui.click_and_wait(page, f'.cell[data-cell="{cell}"]')


GAMES = {"jekyll-vs-hyde": (_duel, _duel_move), "dracula": (_dracula, _dracula_move)}


def _no_takebacks(page, on: bool) -> None:
    page.set_checked("#f-no-takebacks", on)


def _saved(page, game: str) -> dict:
    save = page.evaluate(SAVE, game)
    assert save is not None, "no save in localStorage"
    return save


def _position(save: dict) -> tuple:
    return save["state"], save["transcript"]["actions"], save["log"]


def _undo(page, ui, how: str) -> None:
    n = ui.actions(page)
    if how == "button":
        page.click("#undo")
    else:
        page.locator("body").press(how)
    page.wait_for_function(f"document.body.dataset.actions !== '{n}'")
    assert ui.wait_settled(page) == "me"


@pytest.mark.parametrize("game", ["dracula"])
def test_undo_restores_the_saved_positions_and_marks_practice(page, ui, game):
    start, move = GAMES[game]
    ui.open_site(page, "?speed=instant&lang=en")
    start(page, ui, no_takebacks=False)
    assert ui.wait_settled(page) == "me"
    assert page.is_disabled("#undo")  # nothing of mine to take back yet
    assert page.locator("#practice").count() == 0
    positions = []
    for _ in range(2):
        positions.append(_position(_saved(page, game)))
        move(page, ui)
        assert ui.wait_settled(page) == "me"
        assert page.is_enabled("#undo")
    after = _saved(page, game)
    assert _position(after) != positions[-1]
    assert len(after["transcript"]["actions"]) > len(positions[-1][1])
    _undo(page, ui, "button")
    assert _position(_saved(page, game)) == positions[1]
    assert page.is_enabled("#undo")
    assert page.inner_text("#practice") == "practice — take-backs used"
    assert _saved(page, game)["practice"] is True
    _undo(page, ui, "Control+z")
    assert _position(_saved(page, game)) == positions[0]
    assert page.is_disabled("#undo")  # back at my first decision of the hand
    for width, height in ((390, 844), (1366, 768)):
        page.set_viewport_size({"width": width, "height": height})
        ui.screenshot(page, f"undo-{game}-{width}")
    page.set_viewport_size({"width": 1366, "height": 900})
    # The game plays on from there, and the mark stays after a reload.
    move(page, ui)
    ui.open_site(page, "?speed=instant&lang=en", clear=False)
    assert page.inner_text("#practice") == "practice — take-backs used"
    assert page.is_enabled("#undo")


@pytest.mark.parametrize("game", ["jekyll-vs-hyde"])
def test_no_take_backs_hides_undo(page, ui, game):
    start, move = GAMES[game]
    ui.open_site(page, "?speed=instant&lang=fr")
    start(page, ui, no_takebacks=True)
    assert ui.wait_settled(page) == "me"
    move(page, ui)
    assert ui.wait_settled(page) == "me"
    assert page.locator("#undo").count() == 0
    before = _saved(page, game)
    assert before["setup"]["no_takebacks"] is True
    page.locator("body").press("Control+z")  # (each press waits for the game's answer)
    page.locator("body").press("u")
    assert _position(_saved(page, game)) == _position(before)
    assert "practice" not in _saved(page, game)
    page.click("#new-game")  # the choice is kept for the next game
    assert page.is_checked("#f-no-takebacks")
