"""The duel's worlds listed rather than sampled (the search bot's
`enumerate=1`): every hand the opponent may hold, each once, and none that
contradicts the observation; the search draws each once before any again,
and an exact decision over all of them is their plain average."""

from __future__ import annotations

import math
import random
from collections import Counter
from typing import Any

import pytest

from game import new_game
from game.bots import make_bot
from game.bots.search import Enumerated, Solve, searcher
from game.jekyll_vs_hyde.bots import Knowledge
from game.jekyll_vs_hyde.cards import COLOUR
from game.jekyll_vs_hyde.rules import PLAY, JekyllVsHydeState
from game.jekyll_vs_hyde.search import Sampler, solver
from tests.test_duel_endgame import _late


def _played(seed: int, moves: int) -> JekyllVsHydeState:
    """A random game after `moves` random actions (fewer if it ended)."""
    state: Any = new_game("jekyll-vs-hyde", {}, seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if state.to_act is None:
            break
        state = state.apply(rng.choice(state.legal_actions()))
    return state


def _void_position() -> JekyllVsHydeState:
    """A real first round in which the player to act led a colour and the
    other, who still holds cards, did not follow it: a void he showed."""
    for seed in range(500):
        s: Any = new_game("jekyll-vs-hyde", {}, seed=seed)
        rng = random.Random(seed)
        while s.to_act is not None and s.round == 1:
            if s.phase == PLAY and not s.plays and s.hands[1 - s._to_act]:
                if Knowledge(s.observation(s.to_act)).voids and len(s.hands[0]) >= 3:
                    return s
            s = s.apply(rng.choice(s.legal_actions()))
    raise AssertionError("no deal showed a void")


def _hands(state: JekyllVsHydeState) -> tuple[dict[str, Any], list[tuple[str, ...]] | None]:
    obs = state.observation(state.to_act)
    return obs, Sampler(obs).hands(10_000)


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("moves", [4, 10, 16])
def test_every_hand_the_opponent_may_hold_is_listed_once(seed: int, moves: int) -> None:
    state = _played(seed, moves)
    if state.to_act is None:
        pytest.skip("the game ended")
    me = "JH".index(state.to_act)
    obs, hands = _hands(state)
    if hands is None:  # Hyde to choose while Jekyll's choice is unknown: guessed, not listed
        assert obs["phase"] in ("give", "swap") and me == 1
        return
    assert len(hands) == len(set(hands)) == Knowledge(obs).hand_count()
    assert tuple(sorted(state.hands[1 - me])) in {tuple(sorted(h)) for h in hands}
    sampler = Sampler(obs)
    for hand in hands:
        world = sampler.world(hand)
        assert len(hand) == obs["hand_sizes"]["HJ"[me]]
        assert not set(hand) & set(obs["hand"])
        # the world shows its player exactly what the real game showed him
        assert world.observation(obs["player"]) == obs
    # and the sampler draws from these hands only
    listed = {tuple(sorted(h)) for h in hands}
    rng = random.Random(seed)
    for _ in range(50):
        assert tuple(sorted(sampler.sample(rng).hands[1 - me])) in listed


def test_no_listed_hand_holds_a_colour_the_opponent_showed_he_lacks() -> None:
    state = _void_position()
    obs, hands = _hands(state)
    voids = Knowledge(obs).voids
    assert hands and voids
    me = "JH".index(state.to_act)
    known = Knowledge(obs).known  # the cards he was given can be of any colour
    for hand in hands:
        assert not [c for c in hand if COLOUR[c] in voids and c not in known]
    # without that knowledge there would be more hands
    k = Knowledge(obs)
    assert math.comb(len(k.pool), k.hidden) > len(hands)
    assert tuple(sorted(state.hands[1 - me])) in {tuple(sorted(h)) for h in hands}


def test_too_many_hands_are_not_listed() -> None:
    state = _late(4, 3)
    obs = state.observation(state.to_act)
    count = Knowledge(obs).hand_count()
    assert count > 1
    assert Sampler(obs).hands(count - 1) is None
    assert Sampler(obs).hands(count) is not None


def test_each_world_is_drawn_once_before_any_again() -> None:
    state = _late(4, 1)
    obs = state.observation(state.to_act)
    sampler = Sampler(obs)
    hands = sampler.hands(10_000)
    assert hands is not None and len(hands) > 2
    worlds = Enumerated(sampler, list(hands))
    rng = random.Random(4)
    n = len(hands)
    me = "JH".index(obs["player"])
    drawn = [worlds.sample(rng).hands[1 - me] for _ in range(2 * n)]
    assert Counter(drawn[:n]) == Counter(drawn[n:]) == Counter(tuple(h) for h in hands)
    assert drawn[:n] != drawn[n:]  # reshuffled for the second pass


def test_an_exact_decision_over_every_world_is_their_average() -> None:
    state = _late(3, 2)
    obs = state.observation(state.to_act)
    sampler = Sampler(obs)
    hands = sampler.hands(10_000)
    assert hands is not None
    search = searcher(obs, random.Random(1), 100_000, lambda: 0.0, endgame=3, enumerate=True)
    assert isinstance(search, Solve) and isinstance(search.sampler, Enumerated)
    search.step(1.0, 1.0)  # the clock stands still: only finishing stops it
    assert search.finished() and search.worlds == len(hands)
    for action in search.active:  # those still racing were valued in every world
        expected = [solver(sampler.world(h), obs["player"])(action) for h in hands]
        assert sorted(search.values[action]) == pytest.approx(sorted(expected))
    # without the listing, the same cap draws worlds until the cap
    sampled = searcher(obs, random.Random(1), 500, lambda: 0.0, endgame=3)
    sampled.step(1.0, 1.0)
    assert not isinstance(sampled.sampler, Enumerated)
    assert sampled.iterations == 500 or len(sampled.active) == 1


def test_the_bot_lists_only_when_the_hands_fit_its_cap() -> None:
    state = _late(4, 3)
    obs = state.observation(state.to_act)
    count = Knowledge(obs).hand_count()
    fits = searcher(obs, random.Random(1), count, lambda: 0.0, enumerate=True)
    assert isinstance(fits.sampler, Enumerated)
    too_few = searcher(obs, random.Random(1), count - 1, lambda: 0.0, enumerate=True)
    assert not isinstance(too_few.sampler, Enumerated)
    off = searcher(obs, random.Random(1), count, lambda: 0.0)
    assert not isinstance(off.sampler, Enumerated)
    bot = make_bot("jekyll-vs-hyde", "expert:iterations=60;endgame=3;enumerate=1")
    first = bot.choose(obs, state.legal_actions(), random.Random(5))
    assert first in state.legal_actions()
    assert bot.choose(obs, state.legal_actions(), random.Random(5)) == first
