"""Bots for Jekyll vs Hyde: always legal, see only their observation, plan for
their role, and beat the random bot in both roles."""

from __future__ import annotations

import random

import pytest

from game import new_game
from game.bots import bot_names, make_bot
from game.core.match import play_out, simulate
from game.jekyll_vs_hyde.bots import HeuristicBot, resolve

GAME = "jekyll-vs-hyde"


def test_bots_are_registered():
    assert {"random", "heuristic"} <= set(bot_names(GAME))
    assert isinstance(make_bot(GAME, "heuristic"), HeuristicBot)


@pytest.mark.parametrize("options", [
    None, pytest.param({"variant": "return-match"}, marks=pytest.mark.slow)])  # twice as long
def test_heuristic_always_chooses_a_legal_action(options):
    bot = make_bot(GAME, "heuristic")
    rng = random.Random(3)
    for seed in range(8):
        state = new_game(GAME, options, seed=seed)
        while state.to_act is not None:
            legal = state.legal_actions()
            action = bot.choose(state.observation(state.to_act), legal, rng)
            assert action in legal
            state = state.apply(action)


def test_bots_receive_only_the_observation():
    seen = []

    class Spy:
        name = "spy"

        def choose(self, observation, legal, rng, deadline=None):
            seen.append((observation, legal))
            return legal[-1]

    final = play_out(new_game(GAME, seed=9), {"J": Spy(), "H": Spy()},
                     {"J": random.Random(1), "H": random.Random(2)})
    assert final.over and seen
    for observation, legal in seen:
        assert observation["legal"] == legal
        assert "hands" not in observation and "aside" not in observation


def test_heuristic_is_deterministic_given_its_rng():
    s = new_game(GAME, seed=4)
    while s.to_act is not None and len(s.played) < 3:
        obs, legal = s.observation(s.to_act), s.legal_actions()
        a = HeuristicBot().choose(obs, legal, random.Random(7))
        assert a == HeuristicBot().choose(obs, legal, random.Random(7))
        s = s.apply(a)


def test_follower_plans_for_its_role():
    """Following R4 with R2 (loses) or R6 (wins): Jekyll behind takes it, Hyde behind ducks."""
    assert resolve(("R",), "R4", "R6")[0] and not resolve(("R",), "R4", "R2")[0]
    obs = {
        "player": "J", "phase": "play", "hand": ["R2", "R6", "G1", "G7"],
        "tricks": {"J": 2, "H": 3}, "played": [{"leader": "H", "lead": "P5", "named": None,
                                                "follow": "P1", "winner": "H",
                                                "effect": None, "stolen": False}] * 5,
        "ranking": ["P", "R", "G"], "trick": {"leader": "H", "cards": ["R4"], "named": None},
        "exchange": {"gave": [], "got": []}, "swaps": [], "hand_sizes": {"J": 4, "H": 4},
        "marker": 0, "round": 1,
    }
    legal = ["R2", "R6"]
    assert HeuristicBot().choose(obs, legal, random.Random(1)) == "R6"  # level the count
    hyde = dict(obs, player="H", tricks={"J": 3, "H": 2})
    assert HeuristicBot().choose(hyde, legal, random.Random(1)) == "R2"  # widen the gap


@pytest.mark.slow  # a match of 80 games
def test_heuristic_beats_random_in_both_roles():
    result = simulate(GAME, ["heuristic", "random"], 80, seed=5)
    rates = result.side_rates()["heuristic"]
    assert rates["jekyll"] >= 0.6 and rates["hyde"] >= 0.7, rates


def test_simulate_return_match():
    result = simulate(GAME, ["heuristic", "random"], 8, seed=2, options={"variant": "return-match"})
    assert result.games == 8
    assert set(result.side_rates()["heuristic"]) == {"starts-jekyll", "starts-hyde"}


def test_sampled_worlds_fit_the_observation_and_play_to_the_round_end():
    from game.jekyll_vs_hyde import search

    rng = random.Random(5)
    checked = 0
    for seed in range(12):
        s = new_game(GAME, {"variant": "return-match"} if seed % 3 == 0 else None, seed=seed)
        while not s.over:
            role = s.to_act
            obs = s.observation(role)
            if rng.random() < 0.3:
                sampler = search.Sampler(obs)
                for _ in range(3):
                    world = sampler.sample(rng)
                    assert world.observation(role) == obs
                    hidden = world.hands[1 - "JH".index(role)] + world.aside
                    assert not set(hidden) & set(obs["hand"])
                    state = world.apply(rng.choice(world.legal_actions()))
                    while not search.at_horizon(world, state):
                        state.apply_in_place(search.playout_action(state, rng))
                    value = search.utility(world, state, role)
                    assert 0.0 <= value <= 1.0
                    checked += 1
            s = s.apply(rng.choice(s.legal_actions()))
    assert checked > 100


def test_strong_bot_plays_legal_moves():
    bot = make_bot(GAME, "strong:iterations=40")
    rng = random.Random(1)
    s = new_game(GAME, seed=3)
    while not s.over and s.round == 1:
        legal = s.legal_actions()
        action = bot.choose(s.observation(s.to_act), legal, rng)
        assert action in legal
        s = s.apply(action)
