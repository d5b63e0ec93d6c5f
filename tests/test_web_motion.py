"""Motion's plan (game.web.draw.motion.plan), from the engine's own events over
whole games: every card played or placed travels to its place, a trick won
leaves the table later, and no card the person has not seen is ever named
(a card that goes face down travels as a back, and only the person's own)."""

from __future__ import annotations

import json
import random

import pytest

from game import new_game
from game.bots import levels
from game.web.draw.motion import plan
from game.web.draw.tables import renderer
from game.web.model.undo import seat_of

MODES = [
    ("jekyll-hyde", {"players": "4", "seating": "A", "me": "0", "target": "100"}),
    ("jekyll-hyde", {"players": "3", "me": "0", "target": "100"}),  # the soloist plays the ghost
    ("jekyll-hyde", {"players": "3", "me": "1", "target": "100"}),
    ("jekyll-vs-hyde", {"variant": "standard", "jvh_role": "J"}),
    ("jekyll-vs-hyde", {"variant": "standard", "jvh_role": "H"}),
    ("dracula", {"first": "bot"}),
]
PLACED = {"played", "placed"}


@pytest.mark.parametrize("game,values", MODES)
def test_every_move_names_only_cards_the_person_sees(game, values):
    setup = renderer(game).parse_setup(values, list(levels(game)))
    state = new_game(game, setup["options"], 5)
    rng = random.Random(5)
    kinds: set[str] = set()
    left = False
    for _ in range(400):
        if state.over:
            break
        me = seat_of(state, setup["me"])
        seen_before = json.dumps(state.observation(me))
        after = state.apply(rng.choice(state.legal_actions()))
        me = seat_of(after, setup["me"])
        events = after.events(me)
        seen_after = json.dumps(after.observation(me))
        moves, leaving = plan(game, events, me)
        arrivals = [m.card for m in moves if m.kind == "arrive"]
        for ev in events:
            if ev["kind"] in PLACED:
                assert ev["card"] in arrivals, ev
        for m in moves:
            kinds.add(m.kind)
            if m.kind == "back":  # the person's own card, gone face down to the other hand
                assert f'"{m.card}"' in seen_before and m.src == ".hand.mine"
            elif m.kind == "arrive":
                assert f'"{m.card}"' in seen_after, (m, events)
        for card in leaving:  # still on show until the next action
            assert f'"{card}"' in seen_after
            left = True
        state = after
    assert "arrive" in kinds and (left or game == "dracula")
    assert ("back" in kinds) == (game == "jekyll-vs-hyde")  # the duel's gifts


def test_a_trick_leaves_for_its_winner_at_the_next_action():
    state = new_game("jekyll-vs-hyde", {}, 3)
    leaving: dict[str, str] = {}
    while not leaving:
        state = state.apply(state.legal_actions()[0])
        won = [ev for ev in state.events("J") if ev["kind"] == "trick_won"]
        moves, leaving = plan("jekyll-vs-hyde", state.events("J"), "J")
    winner = won[0]["winner"]
    assert set(leaving) == set(won[0]["cards"])
    assert all(to == f'.jvh-seat[data-role="{winner}"] .jvh-pile' for to in leaving.values())


def test_a_game_without_a_planner_moves_nothing():
    assert plan("chess", [{"kind": "played", "card": "e4"}], 0) == ([], {})


def test_a_finished_trick_waits_for_a_card_to_move_before_it_leaves():
    from game.web.draw.motion import Course

    motion = Course()
    won = [{"kind": "played", "seat": 3, "card": "H5", "from": 3},
           {"kind": "trick_won", "winner": 1, "taken": ["H5", "J3"]}]
    motion.note("jekyll-hyde", won, 0)
    assert motion.leaving == {"H5": '[data-seat="1"]', "J3": '[data-seat="1"]'}
    # The winner designates someone: no card moves, the trick is still on show.
    motion.note("jekyll-hyde", [{"kind": "designated", "by": 1, "whom": 2}], 0)
    assert motion.moves == [] and motion.leaving
    # The next card played: then the trick leaves for its winner.
    motion.note("jekyll-hyde", [{"kind": "played", "seat": 1, "card": "J7", "from": 2}], 0)
    assert [(m["card"], m["kind"]) for m in motion.take()] == [
        ("H5", "leave"), ("J3", "leave"), ("J7", "arrive")]
    assert motion.leaving == {} and motion.take() == []
