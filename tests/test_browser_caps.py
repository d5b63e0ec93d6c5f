"""`browser=1`: the search bots stop at the iterations the page reaches at each
stage of a game (game/bots/browser_caps.json, benchmarks/browser_caps.py)."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path
from typing import Any, Iterator

import pytest

from game import GAMES, new_game
from game.bots import make_bot, think_seconds
from game.bots import search
from game.bots.search import ExpertBot, SearchBot, rules_of
from game.core.state import BadOptionsError
from tests.benchmark_module import load_benchmark

positions = load_benchmark("page_think").positions  # (the page's benchmark hook)


@pytest.fixture
def caps_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A caps file of the test's own, in place of the recorded one."""
    path = tmp_path / "browser_caps.json"
    monkeypatch.setattr(search, "BROWSER_CAPS", path)
    search.browser_caps.cache_clear()
    yield path
    search.browser_caps.cache_clear()


def _write(path: Path, games: dict[str, Any]) -> None:
    path.write_text(json.dumps({"games": games}), encoding="utf-8")


def _distinct_caps(game: str, first: int) -> dict[str, int]:
    return {stage: first + 3 * k for k, stage in enumerate(rules_of(game).STAGES)}


@pytest.mark.parametrize("game", ["jekyll-hyde", "jekyll-vs-hyde", "dracula"])
def test_each_stage_gets_its_cap(caps_file: Path, game: str) -> None:
    strong, expert = _distinct_caps(game, 5), _distinct_caps(game, 40)
    _write(caps_file, {game: {"strong": strong, "expert": expert}})
    bots = {"strong": make_bot(game, "strong:browser=1"),
            "expert": make_bot(game, "expert:browser=1")}
    assert isinstance(bots["expert"], ExpertBot)
    seen = set()
    for i, obs in enumerate(positions(game, 3, 1, per_stage=True)):
        stage = rules_of(game).stage(obs)
        seen.add(stage)
        for level, bot in bots.items():
            thinking = rules_of(game).LEVELS[level]
            # A level with fixed iterations plays them in the page too: no caps.
            cap = (strong if level == "strong" else expert)[stage] if "budget" in thinking \
                else thinking["iterations"]
            assert isinstance(bot, SearchBot) and bot.cap(obs) == cap
            bot.choose(obs, obs["legal"], random.Random(i))
            # Dracula's exact search may end sooner, once one placement is clearly best.
            assert bot.last_iterations == cap or (
                game == "dracula" and stage.startswith("exact") and bot.last_iterations < cap)
    assert seen == set(rules_of(game).STAGES)


def test_browser_is_deterministic_without_a_clock(caps_file: Path) -> None:
    _write(caps_file, {"dracula": {"strong": _distinct_caps("dracula", 30)}})
    obs = next(o for o in positions("dracula", 4, 1, per_stage=True)
               if rules_of("dracula").stage(o) == "tree-8")  # the first placement: tree search
    bot = SearchBot(browser=1, clock=lambda: 0.0)  # a stopped clock: only the cap ends it
    a = bot.choose(obs, obs["legal"], random.Random(2))
    assert bot.last_iterations == 33  # "tree-8", the second stage
    assert a == SearchBot(iterations=33).choose(obs, obs["legal"], random.Random(2))


def test_without_the_setting_nothing_changes() -> None:
    bot = make_bot("dracula", "strong")
    assert isinstance(bot, SearchBot)
    assert bot.budget == 1.0 and bot.iterations is None and not bot.browser
    state = new_game("dracula", {}, 1)
    assert bot.cap(state.observation(state.to_act)) is None


@pytest.mark.parametrize("games, why", [
    ({"jekyll-hyde": {"strong": {"early": 5, "late": 6}}}, "no caps for dracula strong"),
    ({"dracula": {"expert": _distinct_caps("dracula", 5)}}, "no caps for dracula strong"),
    ({"dracula": {"strong": {"ways": 5, "tree-8": 5}}}, "no stage 'exact-7'"),
    ({"dracula": {"strong": {**_distinct_caps("dracula", 5), "exact-6": "many"}}},
     "no stage 'exact-6'"),
])
def test_a_missing_game_or_stage_is_a_clear_error(caps_file: Path, games: dict[str, Any],
                                                  why: str) -> None:
    _write(caps_file, games)
    with pytest.raises(BadOptionsError, match=why) as e:
        make_bot("dracula", "strong:browser=1")
    assert e.value.code == "no_browser_caps" and "benchmarks/browser_caps.py" in str(e.value)


def test_an_unreadable_file_is_a_clear_error(caps_file: Path) -> None:
    caps_file.write_text("{not json", encoding="utf-8")
    with pytest.raises(BadOptionsError, match="unreadable") as e:
        make_bot("jekyll-hyde", "expert:browser=1")
    assert e.value.code == "no_browser_caps"


def test_a_stage_the_file_lacks_is_a_clear_error_at_the_move(caps_file: Path) -> None:
    _write(caps_file, {"dracula": {"strong": _distinct_caps("dracula", 5)}})
    with pytest.raises(BadOptionsError, match="no stage 'endgame'"):
        search.browser_cap("dracula", "strong", "endgame")


def test_browser_takes_no_other_cap() -> None:
    with pytest.raises(BadOptionsError, match="browser=1 sets the iteration caps"):
        make_bot("dracula", "strong:browser=1;iterations=50")


def test_the_recorded_caps_cover_every_level_on_a_clock() -> None:
    search.browser_caps.cache_clear()
    recorded = json.loads(search.BROWSER_CAPS.read_text(encoding="utf-8"))
    for game in GAMES:
        clocked = think_seconds(game)
        assert clocked, f"{game}: no level thinks on the page's clock"
        assert recorded["budgets_s"][game] == clocked, f"{game}: caps of other budgets"
        for level in clocked:
            caps = search.browser_caps(game, level)
            assert set(caps) == set(rules_of(game).STAGES) and min(caps.values()) >= 1
        for level in ("strong", "expert"):
            make_bot(game, f"{level}:browser=1")


@pytest.mark.parametrize("game", GAMES)
def test_every_game_says_how_each_search_level_thinks(game: str) -> None:
    levels = rules_of(game).LEVELS
    assert set(levels) == {"strong", "expert"}
    for level, thinking in levels.items():
        (how, amount), = thinking.items()  # one way: a clock or fixed iterations
        assert how in ("budget", "iterations") and amount > 0
        bot = make_bot(game, level)
        assert (bot.budget, bot.iterations) == ((amount, None) if how == "budget"
                                                else (math.inf, amount))


def test_a_level_with_fixed_iterations_plays_them_everywhere(caps_file: Path) -> None:
    _write(caps_file, {})  # no caps at all: none needed
    assert rules_of("jekyll-vs-hyde").LEVELS["strong"] == {"iterations": 100}
    obs = next(iter(positions("jekyll-vs-hyde", 5, 1, per_stage=True)))
    moves = []
    for spec in ("strong", "strong:browser=1"):
        bot = make_bot("jekyll-vs-hyde", spec)
        moves.append(bot.choose(obs, obs["legal"], random.Random(4)))
        assert bot.last_iterations == 100 and bot.cap(obs) == 100
    assert moves[0] == moves[1]


def test_the_cheater_plays_at_the_caps_of_the_pages_strong() -> None:
    from game import new_game
    from game.core.match import _match_bot

    cheater = _match_bot("dracula", "cheater:browser=1")
    strong = make_bot("dracula", "strong:browser=1")
    state = new_game("dracula", {}, 3)
    for _ in range(4):  # the choice of ways, then placements of the first deal
        obs = state.observation(state.to_act)
        assert cheater.cap(obs) == strong.cap(obs) is not None
        state = state.apply(state.legal_actions()[0])
    # where strong thinks fixed iterations, the cheater takes them
    assert _match_bot("jekyll-vs-hyde", "cheater:browser=1").iterations == 100
