"""The search bot: legal, anytime, cancellable, deterministic under an iteration
cap, and built only from its observation."""

from __future__ import annotations

import random
import threading
import time

import pytest

from game import GAMES, new_game
from game.bots import bot_names, make_bot
from game.bots.search import SearchBot

SEARCHABLE = [g for g in GAMES if "strong" in bot_names(g)]


def positions(game_id, count, seed):
    """Some states of random games, none over."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        state = new_game(game_id, None, seed=rng.getrandbits(31))
        for _ in range(rng.randrange(0, 40)):
            if state.to_act is None:
                break
            state = state.apply(rng.choice(state.legal_actions()))
        if state.to_act is not None:
            found.append(state)
    return found


def test_jekyll_hyde_is_searchable():
    assert "jekyll-hyde" in SEARCHABLE


@pytest.mark.parametrize("game_id", SEARCHABLE)
def test_search_chooses_legal_actions_deterministically(game_id):
    for state in positions(game_id, 6, seed=1):
        obs, legal = state.observation(state.to_act), state.legal_actions()
        a = SearchBot(iterations=60).choose(obs, legal, random.Random(5))
        b = SearchBot(iterations=60).choose(obs, legal, random.Random(5))
        assert a in legal and a == b


@pytest.mark.parametrize("game_id", SEARCHABLE)
def test_sampled_worlds_fit_the_observation(game_id):
    """Every world the bot imagines looks, to its player, exactly like the real one."""
    import importlib

    from game import game_module

    search = importlib.import_module(game_module(game_id).__name__ + ".search")
    rng = random.Random(2)
    for state in positions(game_id, 20, seed=2):
        player = state.to_act
        obs = state.observation(player)
        sampler = search.Sampler(obs)
        for _ in range(5):
            world = sampler.sample(rng)
            assert world.observation(player) == obs
            assert world.legal_actions() == state.legal_actions()


def test_deadline_is_kept():
    """The search stops at its budget, measured on its own clock (a fake one
    here, so a busy machine cannot make the test fail)."""
    state = positions("jekyll-hyde", 1, seed=3)[0]
    ticks = iter(range(10**9))
    bot = SearchBot(budget=0.5, clock=lambda: next(ticks) * 0.001)
    action = bot.choose(state.observation(state.to_act), state.legal_actions(), random.Random(1))
    assert action in state.legal_actions()
    assert 0 < bot.last_iterations < 500
    assert next(ticks) * 0.001 < 0.5 + 0.05  # it looked at the clock until the budget, no longer


def test_cancel_returns_the_best_so_far():
    state = positions("jekyll-hyde", 1, seed=4)[0]
    bot = SearchBot(budget=30)
    threading.Timer(0.2, bot.cancel).start()
    start = time.monotonic()
    action = bot.choose(state.observation(state.to_act), state.legal_actions(), random.Random(1))
    assert time.monotonic() - start < 2 and action in state.legal_actions()


def test_strong_is_offered_with_settings():
    bot = make_bot("jekyll-hyde", "strong:iterations=10")
    assert isinstance(bot, SearchBot) and bot.iterations == 10


def test_the_cheater_is_only_for_matches():
    from game.core.match import simulate
    from game.core.state import GameError

    with pytest.raises(GameError, match="no bot 'cheater'"):
        make_bot("jekyll-hyde", "cheater")
    result = simulate("jekyll-hyde", ["cheater:iterations=20", "random"], 2, seed=1,
                      options={"target": 100})
    assert result.games == 2


class _Worlds:
    """A game reduced to what `Solve` reads: each world is a luck value shared
    by every action (as a good or bad deal is), plus each action's own merit."""

    def __init__(self, merit: dict[str, float], luck: float = 0.5, own: float = 0.0) -> None:
        self.merit, self.luck, self.own = merit, luck, own
        outer = self

        class Sampler:
            def __init__(self, observation) -> None:
                pass

            def sample(self, rng):
                return rng.uniform(-outer.luck, outer.luck), rng

        self.Sampler = Sampler

    def solver(self, world, player):
        luck, rng = world
        return lambda action: self.merit[action] + luck + rng.uniform(-self.own, self.own)


def _solve(rules, legal, iterations):
    from game.bots.search import Solve

    search = Solve(rules, {"legal": legal, "player": 0}, random.Random(5), iterations,
                   time.monotonic)
    while not search.finished():
        search.iterate()
    return search


def test_solve_stops_valuing_actions_clearly_worse_in_the_same_worlds():
    """The luck of a world swamps the merit, yet compared world by world 'bad'
    is always behind: it drops out, and the iterations go to the other two."""
    from game.bots.search import RACE_FROM

    rules = _Worlds({"good": 0.1, "twin": 0.1, "bad": 0.0}, luck=0.5)
    search = _solve(rules, ["bad", "good", "twin"], 60)
    worlds = {a: n for a, n, _ in search.ranking()}
    assert worlds["bad"] == RACE_FROM
    assert worlds["good"] == worlds["twin"] == (60 - 3 * RACE_FROM) // 2 + RACE_FROM
    assert search.best(["bad", "good", "twin"]) in ("good", "twin")
    assert [a for a, _, _ in search.ranking()][-1] == "bad"


def test_solve_keeps_actions_that_are_not_clearly_worse():
    rules = _Worlds({"a": 0.0, "b": 0.01}, luck=0.5, own=0.3)
    search = _solve(rules, ["a", "b"], 40)
    assert {a: n for a, n, _ in search.ranking()} == {"a": 20, "b": 20}


def test_solve_ends_when_one_action_is_left():
    rules = _Worlds({"a": 0.0, "b": 0.2}, luck=0.5)
    search = _solve(rules, ["a", "b"], 1000)
    assert search.iterations < 1000 and search.active == ["b"]
    assert search.best(["a", "b"]) == "b"
