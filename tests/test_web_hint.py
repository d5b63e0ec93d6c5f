"""The hint under CPython: it is computed from the person's observation only,
so two deals that look the same to the person get the same hint, and the
shell hands the hint nothing but that observation. (The hint button in the
browser: tests/browser/test_hint.py.)
"""

from __future__ import annotations

import inspect
import random
import re
from pathlib import Path

import pytest

from game import new_game
from game.web.runtime import hint as hint_module

GAMES = ("jekyll-hyde", "jekyll-vs-hyde", "dracula")
ROOT = Path(__file__).resolve().parents[1]


def _position(game: str, seed: int, moves: int):
    state = new_game(game, {}, seed)
    rng = random.Random(seed)
    for _ in range(moves):
        state = state.apply(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("game", GAMES)
def test_same_view_same_hint(game):
    """Two deals that differ only in cards the person cannot see get the same hint."""
    from importlib import import_module

    from game import game_module

    state = _position(game, 11, 3)
    me = state.to_act
    obs = state.observation(me)
    sampler = import_module(game_module(game).__name__ + ".search").Sampler(obs)
    other = sampler.sample(random.Random(5))  # the hidden cards dealt otherwise
    assert other.observation(me) == obs
    if hasattr(other, "to_json") and hasattr(state, "to_json"):
        assert other.to_json() != state.to_json(), "the sample should hide other cards"
    picks = [hint_module.suggest(s.observation(me), random.Random(1), iterations=60)
             for s in (state, other)]
    assert picks[0] == picks[1]
    assert picks[0] in state.legal_actions()


def test_the_shell_hands_the_hint_only_the_observation():
    # Hint takes an observation (and random numbers), never a state.
    params = list(inspect.signature(hint_module.Hint).parameters)
    assert params[:2] == ["observation", "rng"]
    src = (ROOT / "game" / "web" / "runtime/thinking.py").read_text()
    body = src[src.index("async def hint_turn"):]
    assert "obs = s.observation  #" in body
    session = (ROOT / "game" / "web" / "model/session.py").read_text()
    assert "return self.state.observation(self.my_seat)" in session
    calls = re.findall(r"Hint\(([^\n]*)", body)
    assert calls and all(c.startswith("obs,") for c in calls), calls
    assert "legal_actions" not in body and "to_json" not in body and "s.apply" not in body
