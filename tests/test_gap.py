"""The gap benchmark (benchmarks/gap.py): the share of the heuristic-to-cheater
gap the expert closes, its interval, and a quick run of the script."""

from __future__ import annotations

import json
import math
from types import ModuleType

import pytest

from game.bots.ratings import Z95
from game.core.match import _match_bot, simulate
from tests.benchmark_module import load_benchmark


def _gap():  # type: ignore[no-untyped-def]  # the module's functions, untyped to mypy
    return load_benchmark("gap")


_PLAYED: dict[tuple, object] = {}  # the script's matches, each played once for this module


@pytest.fixture
def gap(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    """The benchmark, its matches shared by the script's tests: they run the
    same matches (the same bots, deals and seed: the same result every time)
    in several combinations, so each is played the first time it is asked."""
    module = _gap()
    real = module.simulate

    def played_once(game, bots, games, seed, options=None, **more):  # type: ignore[no-untyped-def]
        key = (game, tuple(bots), games, seed, json.dumps(options, sort_keys=True),
               tuple(sorted(more.items())))
        if key not in _PLAYED:
            _PLAYED[key] = real(game, bots, games, seed, options, **more)
        return _PLAYED[key]

    monkeypatch.setattr(module, "simulate", played_once)
    return module


def test_a_deal_scores_the_mean_of_its_two_seat_swapped_games() -> None:
    assert _gap().deal_scores([1.0, 0.0, 1.0, 0.5]) == [0.5, 0.75]
    with pytest.raises(ValueError):
        _gap().deal_scores([1.0, 0.0, 1.0])


def test_the_gap_share_and_its_delta_method_interval_on_a_hand_made_table() -> None:
    expert = [1.0, 0.5, 0.5, 1.0]  # mean 0.75: gains 0.25 over a half
    cheater = [1.0, 1.0, 0.5, 1.0]  # mean 0.875: gains 0.375
    share, low, high = _gap().gap_share(expert, cheater)
    assert share == pytest.approx(2 / 3)
    # by hand: deviations e (1/4, -1/4, -1/4, 1/4), c (1/8, 1/8, -3/8, 1/8); n - 1 = 3
    var_e, var_c, cov = (4 / 16) / 3, (3 / 64 + 9 / 64) / 3, (1 / 32 - 1 / 32 + 3 / 32 + 1 / 32) / 3
    r = 2 / 3
    half = Z95 * math.sqrt((var_e + r * r * var_c - 2 * r * cov) / (4 * 0.375 ** 2))
    assert (low, high) == (pytest.approx(r - half), pytest.approx(r + half))
    assert round(half, 4) == 0.6160


def test_the_gap_share_says_nothing_where_there_is_no_gap_or_one_deal() -> None:
    assert all(math.isnan(x) for x in _gap().gap_share([0.5, 1.0], [0.5, 0.5]))
    share, low, high = _gap().gap_share([1.0], [1.0])
    assert share == 1.0 and math.isnan(low) and math.isnan(high)


def test_the_cheater_thinks_as_the_expert_level_does() -> None:
    gap = _gap()
    assert gap.cheater_of("expert:browser=1") == "cheater-expert:browser=1"
    assert gap.cheater_of("strong:iterations=100") == "cheater:iterations=100"
    with pytest.raises(ValueError):
        gap.cheater_of("heuristic")
    from game import new_game

    state = new_game("jekyll-vs-hyde", {}, 3)
    obs = state.observation(state.to_act)
    expert = _match_bot("jekyll-vs-hyde", "expert:browser=1")
    cheater = _match_bot("jekyll-vs-hyde", "cheater-expert:browser=1")
    assert cheater.cap(obs) == expert.cap(obs) > 100  # not strong's 100 iterations


def test_a_match_keeps_each_games_score_for_the_pairing() -> None:
    result = simulate("dracula", ["strong:iterations=3", "heuristic"], 4, 1)
    assert len(result.first_scores) == 4
    assert sum(result.first_scores) == result.points["strong:iterations=3"]


def test_the_script_runs_quickly_with_fixed_iterations(gap: ModuleType) -> None:
    report = gap.run("dracula", {}, 2, 1, 1, iterations=3, head_to_head=True)
    assert "expert (strong:iterations=3) vs heuristic" in report
    assert "cheater (cheater:iterations=3) vs heuristic" in report
    assert "head to head" in report and "load average" in report


def test_settings_are_measured_against_the_expert_without_them(gap: ModuleType) -> None:
    report = gap.run("dracula", {}, 2, 1, 1, iterations=3, head_to_head=False,
                     settings="infer=1")
    assert "expert (strong:iterations=3) vs heuristic" in report
    assert "expert (strong:iterations=3;infer=1) vs heuristic" in report
    assert report.count("cheater (") == 1 and "with the settings minus without" in report


def test_head_to_head_with_settings_also_plays_the_expert_with_them(gap: ModuleType) -> None:
    report = gap.run("dracula", {}, 2, 1, 1, iterations=3, head_to_head=True,
                     settings="infer=1")
    assert "  expert vs cheater head to head" in report  # the plain expert's line, as before
    assert "expert (strong:iterations=3;infer=1) vs cheater head to head" in report
