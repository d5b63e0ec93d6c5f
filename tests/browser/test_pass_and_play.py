"""Friends at one screen (pass-and-play) in headless Chromium: Werner's game
with two people and two bots, and with three players (the soloist also
plays the open ghost hand; the names key the seats), played for several
turns. At every hand-over neither the page's markup nor its accessibility
tree holds any card of any hand (the cards are read from the save's full
state), a reload stays at the hand-over, the tap (Enter on the focused
button) shows the hand of the person on turn with the focus on the table;
undo never takes back another person's decision. Dracula between two
people: the hand-over at once to the one who chooses first, and the whole
page names the other person, never "the bot".

Checked in CPython instead (the duel between two people went):
tests/test_web_duel_ahead.py::test_pass_and_play_hyde_chooses_first_and_the_device_goes_round_once
(the duel's exchange, the hand-over, nothing of the other's choice shown, no undo);
tests/test_web_handover.py::test_the_device_goes_to_whoever_decides_and_only_then[jekyll-vs-hyde],
::test_the_log_never_shows_one_person_another_persons_cards[jekyll-vs-hyde],
::test_the_other_person_is_named_never_called_the_bot[jekyll-vs-hyde-*];
tests/test_web_page.py::test_pass_and_play_hands_the_device_over_and_shows_no_card_meanwhile.
"""

from __future__ import annotations

import json
import re

import pytest

from game.web.draw.i18n import Translator
from game.web.draw.tables import jekyll_hyde as jh
from game.web.draw.tables import jekyll_vs_hyde as jvh

pytestmark = pytest.mark.browser
EN = Translator("en")
PHONE, DESKTOP = {"width": 390, "height": 844}, {"width": 1366, "height": 768}


def _shots(page, ui, name: str) -> None:
    """The screen as it is, at a phone's and a desktop's size."""
    for size, viewport in (("phone", PHONE), ("desktop", DESKTOP)):
        page.set_viewport_size(viewport)
        ui.screenshot(page, f"{name}-{size}")
    page.set_viewport_size({"width": 1366, "height": 900})


def _no_hand_shown(page, ui, game: str) -> dict:
    """At the hand-over: no card of any hand, by code or by name, in the
    markup or the accessibility tree. Returns the save."""
    assert page.get_attribute("body", "data-view") == "handover"
    save = json.loads(ui.saved(page, game))
    card_name = jh.card_name if game == "jekyll-hyde" else jvh.card_name
    cards = {card for hand in save["state"]["hands"].values() for card in hand}
    assert cards
    markup = page.content()
    for card in cards:
        assert f'"{card}"' not in markup, card  # no data-card, data-act, data-part
    # By name: the page but its title and header (the game is called "Dr. Jekyll
    # & Mr. Hyde", like two cards) and the first paint's inert <template>s (the
    # start screens' help names the Transformation as a rule).
    for part in (r"<head\b.*?</head>", r"<header\b.*?</header>", r"<template\b.*?</template>"):
        markup = re.sub(part, "", markup, flags=re.S)
    assert "handover-ready" in markup
    tree = "\n".join(page.locator(where).aria_snapshot()
                     for where in ("main", "#notices", "#modal", "#live"))
    for card in cards:
        name = card_name(card, EN)
        assert name not in markup and name not in tree, (card, name)
    assert page.locator(".card").count() == 0
    assert page.locator("#handover-ready").is_visible()
    return save


def _take_over(page, ui, game: str, names: dict[str, str]) -> str:
    """Check the hand-over panel, tap, and check that the table shows the
    hand of the person it named. Returns that person."""
    save = _no_hand_shown(page, ui, game)
    state = save["state"]
    who = next(p for p, name in names.items() if name in page.inner_text("#handover-title"))
    # Where that person sits: their seat or role, or with 3 players the seat their name has.
    seat = next((s for s, name in state.get("names", {}).items() if name == who), who)
    assert str(state["to_act"]) == seat  # the engine's player on turn
    assert page.evaluate("document.activeElement.id") == "handover-ready"  # Enter taps
    page.keyboard.press("Enter")
    page.wait_for_selector("body[data-view=table]")
    assert ui.wait_settled(page) == "me"
    assert page.evaluate("!!document.activeElement.closest('#screen')")  # not lost on <body>
    assert sorted(ui.hand(page)) == sorted(state["hands"][seat])
    # Undo cannot reach back past the other person's decision.
    assert page.is_disabled("#undo")
    return who


def _werner_move(page, ui, asked: dict) -> None:
    """Ann (seat 0) makes Bob (seat 2) give a card once; otherwise play."""
    table = page.locator(".table")
    me, designated = table.get_attribute("data-me"), table.get_attribute("data-designated")
    bob = page.locator(".seat[data-seat='2'].designatable")
    if me == "0" and designated != "0" and not asked["bob"] and bob.count():
        ui.click_and_wait(page, ".seat[data-seat='2'].designatable")
        asked["bob"] = 1
        return
    # A card of one's hand, or (the soloist, with 3 players) of the open ghost hand.
    if page.locator("#screen .card.playable").count():
        ui.click_and_wait(page, "#screen .card.playable")
    else:
        ui.click_and_wait(page, ".seat.designatable")


def test_werner_two_people_two_bots(page, ui):
    ui.open_site(page, "?speed=instant")
    ui.choose(page, "#f-players", "4")
    ui.choose(page, "#f-seating", "A")
    ui.choose(page, "#f-me", "0")
    ui.choose(page, "#f-bot2", "person")
    page.fill("#f-name0", "Ann")
    page.fill("#f-name2", "Bob")
    for seat in ("1", "3"):
        ui.choose(page, f"#f-bot{seat}", "random")
    page.fill("#f-seed", "11")
    page.click("#start")
    page.wait_for_selector("body[data-view=table], body[data-view=handover]")
    names = {"0": "Ann", "2": "Bob"}
    at_screen, handovers, reloaded, asked = "0", 0, False, {"bob": 0}
    moved, undoable = False, 0  # the person at the screen has played since the last tap
    for _ in range(60):
        where = ui.wait_settled(page)
        if where == "modal":  # the hand's summary, for everyone: no hand behind it
            assert page.locator("#screen .card").count() == 0
            break
        if where == "handover":
            if not reloaded:  # a reload keeps the hand-over up
                ui.open_site(page, "?speed=instant", clear=False)
                assert ui.wait_settled(page) == "handover"
                reloaded = True
            if handovers == 0:
                _shots(page, ui, "pass-werner-handover")
            who = _take_over(page, ui, "jekyll-hyde", names)
            assert who != at_screen
            at_screen, handovers, moved = who, handovers + 1, False
            if handovers == 1:
                _shots(page, ui, "pass-werner-turn")
            continue
        assert where == "me"
        assert page.get_attribute(".table", "data-me") == at_screen
        if moved:  # again, with only bots between: no hand-over, and the person may undo
            assert not page.is_disabled("#undo")
            undoable += 1
        _werner_move(page, ui, asked)
        moved = True
    assert where == "modal" and handovers >= 3 and reloaded and undoable
    assert asked["bob"], "Ann never could make Bob give a card (choose another seed)"
    assert json.loads(ui.saved(page, "jekyll-hyde"))["setup"]["people"] == names


def test_werner_three_players(page, ui):
    """Zoe the soloist (she also plays the open ghost hand: no hand-over for
    it) and Yan are people, Christian a bot; the names key the seats."""
    ui.open_site(page, "?speed=instant")
    ui.choose(page, "#f-players", "3")
    ui.choose(page, "#f-me", "0")
    ui.choose(page, "#f-bot1", "person")
    page.fill("#f-name0", "Zoe")
    page.fill("#f-name1", "Yan")
    ui.choose(page, "#f-bot2", "random")
    page.fill("#f-seed", "4")
    page.click("#start")
    page.wait_for_selector("body[data-view=table], body[data-view=handover]")
    names = {"Zoe": "Zoe", "Yan": "Yan"}
    at_screen, handovers, asked = "Zoe", 0, {"bob": 1}
    for _ in range(60):
        where = ui.wait_settled(page)
        if where == "modal":
            break
        if where == "handover":
            who = _take_over(page, ui, "jekyll-hyde", names)
            assert who != at_screen
            at_screen, handovers = who, handovers + 1
            continue
        assert where == "me"
        assert names[at_screen] in page.inner_text(".seat.p-bottom")
        _werner_move(page, ui, asked)
    assert where == "modal" and handovers >= 3
    assert json.loads(ui.saved(page, "jekyll-hyde"))["setup"]["people"] == names


def test_dracula_two_people_name_each_other(page, ui):
    """The other player deals and chooses first: a hand-over at once; then
    each person's table names the other, never "the bot"."""
    ui.open_site(page, "?game=dracula&speed=instant")
    ui.choose(page, "#f-first", "bot")
    ui.choose(page, "#f-dr_bot", "person")
    page.fill("#f-dr_name", "Ann")
    page.fill("#f-dr_name_other", "Bob")
    page.fill("#f-seed", "12")
    page.click("#start")
    assert ui.wait_settled(page) == "handover"
    assert "Bob" in page.inner_text("#handover-title")
    page.click("#handover-ready")
    assert ui.wait_settled(page) == "me"
    ui.click_and_wait(page, "#way-Q")  # Bob chooses his way
    assert ui.wait_settled(page) == "handover"  # Ann places the first card
    assert "Ann" in page.inner_text("#handover-title")
    page.click("#handover-ready")
    assert ui.wait_settled(page) == "me"
    _shots(page, ui, "pass-dracula-turn")
    words = page.inner_text("main")
    assert "Bob" in words and not re.search(r"\bbot\b", words, re.IGNORECASE), words
