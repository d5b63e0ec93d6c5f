"""The regret benchmark's floor (benchmarks/dracula_regret.py --floor): the
least regret a bot blind to the opponent's hand can have; the same with the
worlds weighted by the heuristic's own chance of his placements (--posterior);
and a quick run."""

from __future__ import annotations

import random
import subprocess
import sys

import pytest

from game.dracula.search import Sampler, solver
from tests.benchmark_module import BENCHMARKS, load_benchmark


def _regret():  # type: ignore[no-untyped-def]  # the module's functions, untyped to mypy
    return load_benchmark("dracula_regret")


def test_the_floor_is_the_least_mean_regret_over_the_worlds_it_drew() -> None:
    bench = _regret()
    state = next(s for s in bench.positions(1, 500) if bench._empties(s) == 5)
    best, bound, _ = bench.floor((3, state, 8))
    me, legal = state.to_act, state.legal_actions()
    sampler, rng = Sampler(state.observation(me)), random.Random(3)  # the same worlds
    worths = []
    for _ in range(8):
        worth = solver(sampler.sample(rng), me)
        worths.append({a: worth(a) for a in legal})
    mean_regret = {a: sum(max(w.values()) - w[a] for w in worths) / 8 for a in legal}
    assert best in legal and bound >= 0
    assert abs(bound - mean_regret[best]) < 1e-9
    assert all(bound <= r + 1e-9 for r in mean_regret.values())
    assert max(mean_regret.values()) > bound  # some placement is worse than the best blind one


@pytest.mark.slow  # a regret run, in a process of its own
def test_a_quick_run_prints_the_pimc_and_floor_rows() -> None:
    run = subprocess.run(
        [sys.executable, str(BENCHMARKS / "dracula_regret.py"), "--games", "1", "--caps", "",
         "--floor", "2", "--posterior", "2", "--runs", "2", "--workers", "1"],
        capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    rows = {line.split()[0]: line.split()[1:] for line in run.stdout.splitlines() if line}
    assert {"heuristic", "pimc(2)", "floor(2)", "pimc(2;h)", "floor(2;h)"} <= rows.keys()
    assert all(float(x) >= 0 for x in rows["floor(2)"])


def test_without_his_placements_the_posterior_is_the_uniform_floor() -> None:
    bench = _regret()
    state, deal = next((s, d) for s, d in bench.positions_with_deal(1, 500)
                       if bench._empties(s) == 6)
    assert any(obs["player"] != state.to_act for obs, _ in deal)
    blind = [(obs, a) for obs, a in deal if obs["player"] == state.to_act]
    assert bench.posterior((3, state, blind, 6, 4))[:2] == bench.floor((3, state, 6))[:2]


def test_the_heuristics_likelihood_asks_it_with_his_hand_then(
        monkeypatch: pytest.MonkeyPatch) -> None:
    bench = _regret()
    state, deal = next((s, d) for s, d in bench.positions_with_deal(1, 500)
                       if bench._empties(s) == 5)
    his = 1 - state.to_act
    placed = [(obs, a) for obs, a in deal if obs["player"] == his]
    assert len(placed) == 2
    asked = []

    class Heuristic:  # picks his real placement every other time
        def choose(self, obs, legal, rng):  # type: ignore[no-untyped-def]
            asked.append((tuple(obs["hand"]), legal))
            return placed[0][1] if len(asked) % 2 else legal[0]

    monkeypatch.setattr(bench, "HeuristicBot", Heuristic)
    hand = ("QS", "2H")
    likelihood = bench.heuristic_likelihood(deal, his, hand, 4, random.Random(1))
    first, second = placed[0][1].partition("@")[0], placed[1][1].partition("@")[0]
    then = bench.sort_cards([*hand, first, second])
    assert [h for h, _ in asked] == [then] * 4 + [bench.sort_cards([*hand, second])] * 4
    cells = list(dict.fromkeys(a.partition("@")[2] for a in placed[0][0]["legal"]))
    assert asked[0][1] == [f"{c}@{cell}" for c in then for cell in cells]
    n1, n2 = len(asked[0][1]), len(asked[4][1])
    # His first placement picked 2 times of 4, the second never, each with one
    # uniform choice more.
    expected = (2 + 1 / n1) / 5 * (0 + 1 / n2) / 5
    assert abs(likelihood - expected) < 1e-12
