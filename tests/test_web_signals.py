"""Werner's table says who is thinking and who asked whom (issue 15, item 6),
pure: the renderer's HTML for observations of seeded games; the duel's lead
marked "winning so far", through the real controller and front."""

from __future__ import annotations

import random
import re

import pytest

from game import new_game
from game.web.draw.i18n import Translator
from game.web.draw.tables import TableContext
from game.web.draw.tables import jekyll_hyde as jh
from game.web.model.page import SetLanguage
from game.web.model.session import Act
from tests.front_kit import dealt
from tests.page_kit import my_turn


def _designations(options: dict, seed: int):
    """Every state of a seeded random game in which a seat was just asked for a card."""
    state = new_game("jekyll-hyde", options, seed)
    rng = random.Random(seed)
    while not state.over:
        state = state.apply(rng.choice(state.legal_actions()))
        if state.observation(0)["designated"] is not None:
            yield state


def _tags(markup: str) -> dict[int, str]:
    """The ask-tag of each seat in the table's HTML: {seat: "asks|asked text"}."""
    found = {}
    for seat, body in re.findall(r'data-seat="(\d)".*?</button>(.*?)(?=<div class="seat|'
                                 r'<div class="centre)', markup, re.S):
        m = re.search(r'<span class="ask-tag (asks|asked)">([^<]*)</span>', body)
        if m:
            found[int(seat)] = f"{m.group(1)}|{m.group(2)}"
    return found


# The quick run draws the first game's designations; the full run five games'.
@pytest.mark.parametrize("seeds", [pytest.param(range(1, 2), id="first"),
                                   pytest.param(range(2, 6), id="more", marks=pytest.mark.slow)])
def test_the_dots_go_to_the_asked_seat_and_both_seats_show_the_designation(seeds: range):
    t = Translator("en")
    seen_bot_asks_bot = seen_i_ask = 0
    for seed in seeds:
        for state in _designations({"players": 4}, seed):
            obs = state.observation(0)
            turn, asked = obs["turn"], obs["designated"]
            # The seat that must now give a card thinks, never the one that asked.
            assert jh.thinking_seat(state.observation(state.to_act)) == asked != turn
            ctx = TableContext(t=t, seat=0, thinking=asked)
            markup = jh.render(obs, ctx)
            name = {s: jh.seat_name(obs, s) for s in range(4)}
            tags = _tags(markup)
            asker_word = "asks you" if asked == 0 else f"asks {name[asked]}"
            asked_word = "asked by you" if turn == 0 else f"asked by {name[turn]}"
            assert tags == {turn: f"asks|{asker_word}", asked: f"asked|{asked_word}"}, tags
            thinking = re.findall(r'class="seat [^"]*\bthinking\b[^"]*" data-seat="(\d)"', markup)
            assert thinking == [str(asked)]
            seen_bot_asks_bot += turn != 0 and asked != 0
            seen_i_ask += turn == 0
    assert seen_bot_asks_bot and seen_i_ask


def test_three_players_the_soloist_thinks_for_the_ghost():
    for state in _designations({"players": 3}, 3):
        obs = state.observation(0)
        if obs["designated"] == 2:  # the ghost was asked: the soloist picks its card
            assert jh.thinking_seat(state.observation(state.to_act)) == 0 == state.to_act
            return
    raise AssertionError("no designation of the ghost in this game")


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_duels_lead_is_marked_winning_so_far_on_the_persons_turn(lang):
    """The page (the real controller and front): Hyde on turn to follow
    Jekyll's lead sees that card, and it alone, marked "winning so far" in
    the page's language."""
    ctrl, screen, thinking = dealt("jekyll-vs-hyde", seed=5, jvh_role="H", jvh_bot="random")
    ctrl.dispatch(SetLanguage(lang))
    for _ in range(40):
        s = my_turn(ctrl, thinking)
        trick = s.observation.get("trick") or {}
        if s.observation["phase"] == "play" and len(trick.get("cards", [])) == 1:
            break
        ctrl.on_table(Act(s.state.legal_actions()[0]))
    else:
        pytest.fail("never on turn with the lead lying")
    doc = screen.doc
    marked = doc.querySelectorAll("#screen .jvh-trick .card.winning")
    assert [c.getAttribute("data-card") for c in marked] == list(trick["cards"])
    words = Translator(lang)("jvh.winning_so_far")
    assert doc.querySelector("#screen .jvh-slot .who .mark").textContent == words
    assert ("gagne pour" in words) == (lang == "fr")
