"""Bots read only their player's observation: two games that differ only in
cards the deciding player cannot see give every bot the same observation,
and so the same decision (the search bot included, whose worlds are drawn
from the observation alone)."""

from __future__ import annotations

import random

import pytest

from game import new_game
from game.bots import make_bot
from tests.strength import examples
from tests.test_dracula_properties import reshuffled_twin
from tests.test_jekyll_hyde_properties import _swap_hidden
from tests.test_jekyll_vs_hyde_properties import hidden_twin

BOTS = ("heuristic", "strong:iterations=40")
# Settings only some games' searches read: their worlds come from the observation too.
GAME_BOTS = {"dracula": ("strong:iterations=40;infer=1",),
             "jekyll-hyde": ("expert:iterations=40;endgame=2;enumerate=1",
                             "expert:iterations=40;infer=1"),
             "jekyll-vs-hyde": ("expert:iterations=40;enumerate=1",
                                "expert:iterations=40;endgame=3;enumerate=1")}


def jekyll_hyde_twins(count, rng):
    while count:
        state = new_game("jekyll-hyde", {"dealer": rng.randrange(4)}, seed=rng.getrandbits(31))
        for _ in range(rng.randrange(0, 30)):
            state = state.apply(rng.choice(state.legal_actions()))
        me = state.to_act
        if me is None:
            continue
        twin, changed = _swap_hidden(state, [s for s in range(4) if s != me])
        if changed:
            count -= 1
            yield state, twin, me


def duel_twins(count, rng):
    while count:
        state = new_game("jekyll-vs-hyde", None, seed=rng.getrandbits(31))
        for _ in range(rng.randrange(0, 30)):
            state = state.apply(rng.choice(state.legal_actions()))
        role = state.to_act
        if role is None:
            continue
        me = "JH".index(role)
        if state.hands[1 - me]:
            count -= 1
            yield state, hidden_twin(state, me), role


def dracula_twins(count, rng):
    while count:
        state = new_game("dracula", None, seed=rng.getrandbits(31))
        actions = []
        for _ in range(rng.randrange(1, 40)):
            actions.append(rng.choice(state.legal_actions()))
            state = state.apply(actions[-1])
        if state.to_act is None or state.ways is None:
            continue
        count -= 1
        yield state, reshuffled_twin(state, actions, state.to_act, rng.getrandbits(31)), \
            state.to_act


TWINS = {"jekyll-hyde": jekyll_hyde_twins, "jekyll-vs-hyde": duel_twins,
         "dracula": dracula_twins}


@pytest.mark.parametrize("game_id", TWINS)
def test_hidden_cards_never_change_a_decision(game_id):
    # Eight random positions (the quick run's strength: the first two of them).
    for state, twin, me in TWINS[game_id](examples(8), random.Random(7)):
        assert twin.to_json() != state.to_json()  # the hidden cards really differ
        obs = state.observation(me)
        assert twin.observation(me) == obs
        for spec in BOTS + GAME_BOTS.get(game_id, ()):
            a = make_bot(game_id, spec).choose(obs, state.legal_actions(), random.Random(3))
            b = make_bot(game_id, spec).choose(twin.observation(me), twin.legal_actions(),
                                               random.Random(3))
            assert a == b
