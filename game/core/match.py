"""Bots playing games: one game, and seat-swapped duplicate matches.

A match gives two bots the two camps of `sides(options)` (teams, roles or
players) on a seeded deal, then plays the same deals again with the camps
exchanged, so luck of the cards cancels out.
"""

from __future__ import annotations

import argparse
import contextlib
import math
import multiprocessing
import os
import random
import re
import signal
import threading
from dataclasses import dataclass, field
from typing import Any, Callable, Hashable, Iterator, NamedTuple, Sequence, TypeVar

from game import game_module, new_game
from game.bots import make_bot
from game.bots.search import CheatingBot, SearchBot
from game.bots.base import Bot
from game.core.cluster import DaskScheduler, map_on_cluster, parse_scheduler
from game.core.state import BadOptionsError, State

T = TypeVar("T")
R = TypeVar("R")
# Who plays the games: this many processes here, or a Dask cluster's workers.
Workers = int | DaskScheduler


def play_out(state: State, bots: dict[Hashable, Bot], rngs: dict[Hashable, random.Random],
             on_action: Callable[[State, str], None] | None = None,
             until: Callable[[State], bool] | None = None) -> State:
    """Play `state` to the end, or until `until(state)`; `bots` and `rngs`
    are keyed by lasting player."""
    while state.to_act is not None and not (until and until(state)):
        player = state.to_act
        who = state.identity(player)
        bot = bots[who]
        if isinstance(bot, CheatingBot):  # the benchmark's yardstick only
            action = bot.choose_seeing_everything(state, rngs[who])
        else:
            action = bot.choose(state.observation(player), state.legal_actions(), rngs[who])
        if on_action:
            on_action(state, action)
        state = state.apply(action)
    return state


def wilson95(wins: float, n: int) -> tuple[float, float]:
    """The Wilson score interval at 95% for `wins` out of `n`.

    >>> lo, hi = wilson95(70, 100)
    >>> round(lo, 3), round(hi, 3)
    (0.604, 0.781)
    """
    if n == 0:
        return (0.0, 1.0)
    z = 1.959963984540054
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass
class MatchResult:
    """Wins of each bot, overall and per camp; draws count one half. With
    `unit` "hands" each game is one hand (see `simulate`)."""

    game: str
    bots: tuple[str, str]
    unit: str = "games"
    games: int = 0
    points: dict[str, float] = field(default_factory=dict)
    by_side: dict[str, dict[str, list[float]]] = field(default_factory=dict)
    # the first bot's score in each game, in order: games 2k and 2k+1 share a
    # deal, so two matches with the same seed can be compared deal by deal
    first_scores: list[float] = field(default_factory=list)

    def win_rate(self) -> dict[str, float]:
        return {b: self.points[b] / self.games if self.games else 0.0 for b in self.points}

    def ci95(self) -> dict[str, list[float]]:
        return {b: [round(x, 4) for x in wilson95(self.points[b], self.games)]
                for b in self.points}

    def side_rates(self) -> dict[str, dict[str, float]]:
        return {b: {side: won / played if played else 0.0
                    for side, (won, played) in sides.items()}
                for b, sides in self.by_side.items()}

    def to_json(self) -> dict[str, Any]:
        return {"games": self.games,
                "win_rate": {b: round(r, 4) for b, r in self.win_rate().items()},
                "ci95": self.ci95(),
                "by_side": {b: {s: round(r, 4) for s, r in sides.items()}
                            for b, sides in self.side_rates().items()}}

    def table(self) -> str:
        lines = [f"{self.game}: {self.games} {self.unit}, seat-swapped duplicate deals"]
        ci = self.ci95()
        for b, rate in self.win_rate().items():
            sides = ", ".join(f"as {s} {r:.1%}" for s, r in self.side_rates()[b].items())
            lines.append(f"  {b:<12} wins {rate:6.1%}  95% CI [{ci[b][0]:.1%}, {ci[b][1]:.1%}]"
                         f"  ({sides})")
        return "\n".join(lines)


def simulate(game_id: str, bot_names: list[str], games: int, seed: int,
             options: dict[str, Any] | None = None,
             progress: Callable[[int], None] | None = None,
             workers: Workers = 1, unit: str = "games") -> MatchResult:
    """Play `games` games between two bots, each deal twice with camps swapped.

    With `unit` "hands" (games of several hands that say so: Werner's) each
    game is the deal's first hand alone, won by the camp that scores more in
    it (a draw when equal): a unit far quicker than a game to 1000 points,
    though not the same measure (a game adds many hands up).

    With `workers` > 1 the games are shared among that many processes, or
    among a Dask cluster's workers (a `DaskScheduler`); each game depends only
    on its deal's seed, so the result is the same for any workers.
    `progress` gets the count of games finished so far.
    """
    if len(bot_names) != 2:
        raise BadOptionsError(f"a match takes two bots, not {len(bot_names)}: {bot_names}",
                              code="bot_count", params={"bots": list(bot_names)})
    if games < 1:
        raise BadOptionsError(f"games must be at least 1, not {games}",
                              code="game_count", params={"games": games})
    if isinstance(workers, int):
        check_workers(workers)
    check_unit(game_id, unit)
    labels = _labels(bot_names)
    camps = list(game_module(game_id).sides(options))
    deal_seeds = random.Random(seed)
    seeds = [deal_seeds.getrandbits(31) for _ in range((games + 1) // 2)]
    orders = [labels if number % 2 == 0 else labels[::-1] for number in range(games)]
    tasks = [_Game(game_id, options, seeds[number // 2],
                   tuple(_names_for(order, labels, bot_names)), unit)
             for number, order in enumerate(orders)]
    for name in bot_names:  # a bad bot or option is one error here, not one per process
        _match_bot(game_id, name)
    new_game(game_id, options, seed=seeds[0])
    result = MatchResult(game_id, (labels[0], labels[1]), unit)
    result.points = {label: 0.0 for label in labels}
    result.by_side = {label: {camp: [0.0, 0] for camp in camps} for label in labels}
    for order, scores in zip(orders, map_in_order(_play, tasks, workers, progress)):
        for camp, label, score in zip(camps, order, scores):
            result.points[label] += score
            result.by_side[label][camp][0] += score
            result.by_side[label][camp][1] += 1
            if label == labels[0]:
                result.first_scores.append(score)
        result.games += 1
    return result


UNITS = ("games", "hands")


def check_unit(game_id: str, unit: str) -> None:
    """Refuse a unit other than games and hands, and hands where a game has
    no hands to score one by one (`hand_gains` in its module).

    >>> check_unit("dracula", "hands")
    Traceback (most recent call last):
    ...
    game.core.state.BadOptionsError: dracula is not scored hand by hand: its unit is games
    """
    if unit not in UNITS:
        raise BadOptionsError(f"unit must be one of {', '.join(UNITS)}, not {unit!r}",
                              code="invalid_option", params={"option": "unit"})
    if unit == "hands" and not hasattr(game_module(game_id), "hand_gains"):
        raise BadOptionsError(f"{game_id} is not scored hand by hand: its unit is games",
                              code="invalid_option", params={"option": "unit"})


def default_workers() -> int:
    """All the cores of this machine."""
    return os.cpu_count() or 1


def max_workers() -> int:
    """More processes than this only cost memory: 4 per core."""
    return 4 * default_workers()


def check_workers(workers: int) -> None:
    """Refuse a number of worker processes below 1 or above `max_workers()`."""
    if not 1 <= workers <= max_workers():
        raise BadOptionsError(_workers_message(str(workers)), code="worker_count",
                              params={"workers": workers, "max": max_workers()})


def parse_workers(text: str | None) -> int:
    """`--workers` from a command line: a whole number of processes (None: one per core).

    >>> parse_workers("1")
    1
    >>> parse_workers("two")
    Traceback (most recent call last):
    ...
    game.core.state.BadOptionsError: --workers must be a whole number from 1 to ...
    """
    if text is None:
        return default_workers()
    if not re.fullmatch("[0-9]{1,6}", text):
        raise BadOptionsError(_workers_message(repr(text)), code="worker_count",
                              params={"workers": text, "max": max_workers()})
    workers = int(text)
    check_workers(workers)
    return workers


def add_workers_arguments(parser: argparse.ArgumentParser) -> None:
    """`--workers N` or `--scheduler ADDRESS`, one of them; `workers_from_args` reads them."""
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--workers", metavar="N",
                       help="processes on this machine; any number gives the same result "
                            "(default: one per core)")
    where.add_argument("--scheduler", metavar="ADDRESS",
                       help="play on a Dask cluster instead, e.g. tcp://192.168.1.10:8786, "
                            "with the same result (needs pip install '.[distributed]')")


def workers_from_args(args: argparse.Namespace) -> Workers:
    """What `simulate` and `map_in_order` take, from `add_workers_arguments`' options."""
    if args.scheduler is not None:
        return parse_scheduler(args.scheduler)
    return parse_workers(args.workers)


def _workers_message(given: str) -> str:
    return (f"--workers must be a whole number from 1 to {max_workers()} "
            f"(this machine has {default_workers()} cores), not {given}")


class _Game(NamedTuple):
    """One game of a match: everything a worker process needs to play it."""

    game_id: str
    options: dict[str, Any] | None
    deal_seed: int
    bot_names: tuple[str, ...]  # in the order of the camps
    unit: str = "games"


def _play(game: _Game) -> tuple[float, ...]:
    """Play one game; each camp's score in the order of the camps (draws one half)."""
    sides = game_module(game.game_id).sides(game.options)
    bots: dict[Hashable, Bot] = {}
    rngs: dict[Hashable, random.Random] = {}
    for camp, name in zip(sides, game.bot_names):
        for who in sides[camp]:
            bots[who] = _match_bot(game.game_id, name)
            rngs[who] = random.Random(f"{game.deal_seed}/{camp}/{who}")
    start = new_game(game.game_id, game.options, seed=game.deal_seed)
    if game.unit == "hands":
        module = game_module(game.game_id)
        hand = play_out(start, bots, rngs, until=lambda state: module.hand_gains(state) is not None)
        gains = module.hand_gains(hand)
        # The members of a camp gain alike: its first member's gain is the camp's.
        first, second = (gains[members[0]] for members in sides.values())
        return (0.5, 0.5) if first == second else (float(first > second), float(second > first))
    final = play_out(start, bots, rngs)
    return tuple(0.5 if final.winner is None else float(any(final.wins(m) for m in members))
                 for members in sides.values())


def map_in_order(function: Callable[[T], R], items: Sequence[T], workers: Workers = 1,
                 progress: Callable[[int], None] | None = None) -> list[R]:
    """`[function(item) for item in items]`, computed by `workers` processes
    or by a Dask cluster's workers.

    `function` must be picklable (a module's top-level function) and depend
    only on its item, and then the list is the same for any `workers`.
    `progress` gets the count of items done so far.
    """
    if isinstance(workers, DaskScheduler):
        return map_on_cluster(function, items, workers, progress)
    workers = min(workers, len(items))
    if workers <= 1:
        results = []
        for item in items:
            results.append(function(item))
            if progress is not None:
                progress(len(results))
        return results
    # Spawned (not forked) workers are safe beside threads and the same on
    # every system; small chunks keep every worker busy to the end.
    chunk = max(1, min(50, len(items) // (workers * 16)))
    calls = ((function, number, item) for number, item in enumerate(items))
    done: dict[int, R] = {}
    with _stopped_by_sigterm(), \
            multiprocessing.get_context("spawn").Pool(workers, _ignore_interrupts) as pool:
        for number, result in pool.imap_unordered(_call_numbered, calls, chunk):
            done[number] = result
            if progress is not None:
                progress(len(done))
    return [done[number] for number in range(len(items))]


@contextlib.contextmanager
def _stopped_by_sigterm() -> Iterator[None]:
    """Make a SIGTERM (`kill`, a job's timeout) leave like Ctrl-C does, through
    the pool's `with`, which ends the workers: the default would kill this
    process alone and leave them playing on."""
    if threading.current_thread() is not threading.main_thread():
        yield  # only the main thread may set a handler
        return

    def leave(signum: int, frame: object) -> None:
        raise SystemExit(128 + signum)

    before = signal.signal(signal.SIGTERM, leave)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, before)


def _call_numbered(call: tuple[Callable[[T], R], int, T]) -> tuple[int, R]:
    function, number, item = call
    return number, function(item)


def _ignore_interrupts() -> None:
    """Ctrl-C stops the parent, which ends the workers; they print nothing."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _match_bot(game_id: str, spec: str) -> Bot:
    """Any bot of the game, or the cheater (a benchmark yardstick, never in
    `make_bot`): `cheater` thinks as strong does with the same settings,
    `cheater-expert` as expert does (its caps, its clock or its iterations).

    >>> _match_bot("jekyll-vs-hyde", "cheater-expert:browser=1").page_level
    'expert'
    """
    name, _, settings = spec.partition(":")
    if name not in CHEATERS:
        return make_bot(game_id, spec)
    copied = make_bot(game_id, CHEATERS[name] + (":" + settings if settings else ""))
    assert isinstance(copied, SearchBot)
    if copied.browser:  # the caps of the page's level, at each decision's stage
        cheater = CheatingBot(browser=1, endgame=copied.endgame)
        cheater.page_level = copied.page_level
        return cheater
    return CheatingBot(budget=copied.budget, iterations=copied.iterations,
                       endgame=copied.endgame)


CHEATERS = {"cheater": "strong", "cheater-expert": "expert"}  # the search each copies


def _labels(bot_names: list[str]) -> list[str]:
    """Labels that tell the two bots apart even when they are the same bot."""
    if bot_names[0] == bot_names[1]:
        return [bot_names[0] + "#1", bot_names[1] + "#2"]
    return list(bot_names)


def _names_for(order: list[str], labels: list[str], bot_names: list[str]) -> list[str]:
    return [bot_names[labels.index(label)] for label in order]
