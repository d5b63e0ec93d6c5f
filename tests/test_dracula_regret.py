"""The regret benchmark's floor (benchmarks/dracula_regret.py --floor): the
least regret a bot blind to the opponent's hand can have, and a quick run."""

from __future__ import annotations

import random
import subprocess
import sys

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


def test_a_quick_run_prints_the_pimc_and_floor_rows() -> None:
    run = subprocess.run(
        [sys.executable, str(BENCHMARKS / "dracula_regret.py"), "--games", "1", "--caps", "",
         "--floor", "2", "--workers", "1"], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    rows = {line.split()[0]: line.split()[1:] for line in run.stdout.splitlines() if line}
    assert {"heuristic", "pimc(2)", "floor(2)"} <= rows.keys()
    assert all(float(x) >= 0 for x in rows["floor(2)"])
