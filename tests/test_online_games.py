"""Whole online games of every game and mode over a loopback wire: each
guest decides from what it received only (a bot reads its page's
observation), and no message a guest received holds a card its seat may
not see, nor the seed, until the game is over."""

from __future__ import annotations

import json

import pytest

from game import new_game, state_from_json
from game.core.transcript import Transcript
from tests.online_kit import SEED, Capture, LoopTable, hidden_cards, leaks
from tests.strength import quick_first

PLANS = {
    "werner-4": ("jekyll-hyde", {"players": 4},
                 {"0": ("guest", "Ann"), "1": ("bot", "random"), "2": ("guest", "Bob"),
                  "3": ("bot", "easy")}),
    "werner-3": ("jekyll-hyde", {"players": 3},
                 {"Adam": ("guest", "Ann"), "Betty": ("bot", "random"),
                  "Christian": ("guest", "Bob")}),
    "duel": ("jekyll-vs-hyde", {}, {"J": ("guest", "Ann"), "H": ("host", "random")}),
    "duel-return": ("jekyll-vs-hyde", {"variant": "return-match"},
                    {"J": ("bot", "random"), "H": ("guest", "Ann")}),
    "dracula": ("dracula", {}, {"0": ("guest", "Ann"), "1": ("guest", "Bob")}),
}
# Werner's plans also as games to 300 points (three or four hands), "-short":
# the quick run plays those, the full run the whole games to 1000 as well.
CASES = {**PLANS, **{f"{name}-short": (game, {**options, "target": 300}, seats)
                     for name, (game, options, seats) in PLANS.items() if game == "jekyll-hyde"}}
WHOLE_WERNER = {"werner-3", "werner-4"}


def cases(*names: str) -> list:
    """`names` of CASES (all of them if none) as parameters, the whole Werner games slow."""
    return [pytest.param(name, marks=pytest.mark.slow) if name in WHOLE_WERNER else name
            for name in names or CASES]


# The quick run plays the duels and Dracula (a host's seat, a bot's, two guests
# at one table: under a second each); the Werner games (seconds each): the full run.
@pytest.fixture(scope="module", params=quick_first(
    ["duel", "duel-return", "dracula", "werner-3", "werner-4"], keep=3))
def played(request):
    game, options, plan = PLANS[request.param]
    table = LoopTable(game, options, plan)
    table.seat_everyone()
    table.play_out()
    return table


def test_guests_play_whole_games_from_what_they_receive(played):
    decided = [e for e in played.effects if type(e).__name__ == "Decided"]
    guests = {who for who, (kind, _) in played.plan.items() if kind == "guest"}
    assert {e.who for e in decided} == guests  # every guest took decisions of its own
    assert played.state.over
    for peer, guest in played.guests.items():
        assert guest.transcript is not None
        assert guest.transcript["seed"] == SEED and guest.transcript["game"] == played.game
        final = Transcript.from_json(guest.transcript).replay()
        assert final.to_json() == played.state.to_json()  # the guest can review the game
        assert guest.observation == played.state.observation(guest.player)
        assert guest.turn is None and guest.log


def test_no_hidden_card_ever_reaches_a_guest(played):
    captures = [c for peer in played.guests for c in played.received[peer]]
    assert len(captures) > 50
    kinds = {json.loads(c.text)["type"] for c in captures}
    assert {"lobby", "seated", "table", "over"} <= kinds
    for capture in captures:
        assert leaks(capture) == [], capture.text[:300]


# -- the checker itself: it must see a leak when there is one ----------------------------

def _midgame(game, options, moves):
    state = new_game(game, options, seed=SEED)
    for _ in range(moves):
        state = state.apply(state.legal_actions()[-1])
    return state


@pytest.mark.parametrize("game,options,who", [
    ("jekyll-hyde", {"players": 4}, "1"), ("jekyll-hyde", {"players": 3}, "Betty"),
    ("jekyll-vs-hyde", {}, "H"), ("dracula", {}, "0")])
def test_the_checker_finds_the_full_state_or_the_seed(game, options, who):
    state = _midgame(game, options, 7)
    player = state.seat_of(who)
    assert hidden_cards(state, who)

    def table(observation, log=()):
        return json.dumps({"v": 3, "type": "table", "game": game, "you": who, "player": player,
                           "observation": observation, "log": [[7, list(log)]], "state": 7,
                           "turn": None, "seats": []})

    fair = Capture(table(state.observation(player), state.events(player)), state, who)
    assert leaks(fair) == []
    full = Capture(table(state.to_json()), state, who)
    assert any(found.startswith("card ") for found in leaks(full))
    assert f"seed {SEED}" in leaks(full)
    dealt = new_game(game, options, seed=SEED)
    if game == "dracula":  # the deal comes after the first dealer's choice
        dealt = dealt.apply(dealt.legal_actions()[0])
    everyone = Capture(table(dealt.observation(dealt.seat_of(who)), dealt.events(None)),
                       dealt, who)  # the deal as the full view has it: every hand
    assert any(found.startswith("card ") for found in leaks(everyone))
    seed_only = Capture(json.dumps({"v": 3, "type": "reaction", "seat": who, "key": SEED}),
                        state, who)
    assert leaks(seed_only) == [f"seed {SEED}"]
    other = next(p for p in state.players if p != player and str(state.identity(p)) != who
                 and (game != "jekyll-hyde" or p != 2))
    assert leaks(Capture(table(state.observation(other)), state, who))


def test_a_werner_ghost_hand_is_open_to_all():
    state = state_from_json(_midgame("jekyll-hyde", {"players": 3}, 3).to_json())
    ghost = set(state.to_json()["hands"]["2"])
    assert ghost and not ghost & hidden_cards(state, "Betty")
