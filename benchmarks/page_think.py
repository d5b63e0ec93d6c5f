"""Think-time measurements of the strong bot inside the page (benchmarks/think.py).

It lives with the benchmarks, not in the game package: the build ships it
as `page_think` in `bench.zip`, a part no player's page ever fetches.

The page exposes `window.thinkBench(game, seed, count, budget, marks, per_stage)` when its URL
has `?bench` (static/js/bench.mjs: each call is answered by the game's worker,
game.web.dom.worker_bench; it builds its own positions and never touches the
game on the table). It plays a game with heuristic bots from deal `seed`, and at
each of the first `count` decisions with a real choice runs the strong bot
as the page does (slices of `thinking.SLICE` that yield to the browser) under
`budget` seconds (counted, as on the table, from the search's start). It answers JSON:
per move the wall time, the page-clock window of the search, the iterations, the longest
slice, the decision's stage (the game's `search.stage`), the iterations reached at each of
the `marks` (seconds into the search, for benchmarks/browser_caps.py: one 3 s search
also says what 1 s reaches, the same search being a prefix of the longer one) and the
observation searched (so CPython can search the same positions).
The module is tiny and imports the game only when called; it is given the page's
clock (performance.now() of the page, where the browser times its tasks).
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from typing import Any, Callable


def positions(game: str, seed: int, count: int, per_stage: bool = False) -> list[dict[str, Any]]:
    """Observations of the player to act at the first `count` real choices; with
    `per_stage`, at the first `count` of each stage of the game's `search.stage`
    (within `_MAX_GAMES` games)."""
    from game import new_game
    from game.bots import make_bot
    from game.bots.search import rules_of

    rules = rules_of(game)
    stages = dict.fromkeys(rules.STAGES, 0) if per_stage else {None: 0}
    state = new_game(game, {}, seed)
    bot = make_bot(game, "heuristic")
    rng = random.Random(seed)
    out: list[dict[str, Any]] = []
    games = 1
    while min(stages.values()) < count and games <= _MAX_GAMES:
        legal = state.legal_actions()
        obs = state.observation(state.to_act)
        stage = rules.stage(obs) if per_stage else None
        if len(legal) > 1 and stages[stage] < count:
            out.append(obs)
            stages[stage] += 1
        state = state.apply(bot.choose(obs, legal, rng))
        if state.over:  # play on into a new game for more positions
            seed += 1
            games += 1
            state = new_game(game, {}, seed)
    return out


_MAX_GAMES = 20  # games played to find a stage's positions, at most


async def think(game: str, seed: int, count: int, budget: float, slice_s: float,
                page_now: Callable[[], float], marks: tuple[float, ...] = (),
                per_stage: bool = False) -> str:
    """The JSON list of the moves' measurements; `page_now` is the page's clock (ms)."""
    import gc

    moves: list[dict[str, Any]] = []
    pauses: list[float] = []  # Python's garbage collections while searching (ms)
    began: list[float] = []

    def on_gc(phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            began[:] = [time.monotonic()]
        elif began:
            pauses.append((time.monotonic() - began[0]) * 1000)

    gc.callbacks.append(on_gc)
    try:
        for i, obs in enumerate(positions(game, int(seed), int(count), per_stage)):
            pauses.clear()
            moves.append(await _one(obs, i, budget, slice_s, page_now, marks))
            moves[-1]["gc_ms"] = max(pauses, default=0.0)
            moves[-1]["gcs"] = len(pauses)
    finally:
        gc.callbacks.remove(on_gc)
    return json.dumps(moves)


async def _one(obs: dict[str, Any], i: int, budget: float, slice_s: float,
               page_now: Callable[[], float], marks: tuple[float, ...]) -> dict[str, Any]:
    from game.bots.search import SearchBot, rules_of

    bot = SearchBot(budget=float(budget))
    await asyncio.sleep(0.05)  # let the page settle between moves
    page_t0 = page_now()  # to tell the search's tasks from the rest
    t0 = time.monotonic()
    search = bot.start(obs, random.Random(i))
    began = time.monotonic()
    end = began + bot.budget
    start_ms = (began - t0) * 1000
    longest = worst = 0.0  # the longest slice and iteration, as Python sees them
    slices = over = 0  # slices, and those over 100 ms
    pending = sorted(marks)
    reached: dict[str, int] = {}  # mark (s) -> iterations begun before it, as the page counts
    clock = time.monotonic
    while not search.done(end):
        s0 = clock()
        stop = min(s0 + slice_s, end)
        while clock() < stop and not search.finished():  # Search.step, timed per iteration
            i0 = clock()
            while pending and i0 - began >= pending[0]:
                reached[f"{pending.pop(0):g}"] = search.iterations
            search.iterate()
            worst = max(worst, clock() - i0)
        longest = max(longest, clock() - s0)
        slices += 1
        over += clock() - s0 > 0.1
        await asyncio.sleep(0)
    searched = clock() - began
    if not search.finished():  # out of time: the marks up to the budget saw it all
        reached.update((f"{m:g}", search.iterations) for m in pending if m <= bot.budget)
    search.best(obs["legal"])
    ms = (time.monotonic() - t0) * 1000
    rules = rules_of(obs["game"])
    return {"ms": ms, "window": [page_t0, page_now()],
            "iterations": search.iterations, "start_ms": start_ms, "search_s": searched,
            "finished": search.finished(), "reached": reached,
            "stage": rules.stage(obs) if hasattr(rules, "stage") else None,
            "slice_ms": longest * 1000, "slices": slices, "slices_over_100ms": over,
            "iteration_ms": worst * 1000, "obs": obs}


DEFAULTS = (1, 10, 1.0, "", False)  # thinkBench's seed, count, budget, marks, per_stage


def call(args: list[Any], slice_s: float, page_now: Callable[[], float]) -> asyncio.Future[str]:
    """One call of `thinkBench(game, seed, count, budget, marks, per_stage)`, its
    arguments as the page gave them (those left out: `DEFAULTS`). `marks`: seconds
    into each search, comma-separated ("1,3"); `per_stage`: `count` decisions of
    each stage."""
    given: list[Any] = [*args, *DEFAULTS[len(args) - 1:]]
    game, seed, count, budget, marks, per_stage = given
    at = tuple(float(m) for m in str(marks).split(",") if m.strip())
    return asyncio.ensure_future(think(str(game), int(seed), int(count), float(budget),
                                       slice_s, page_now, at, bool(per_stage)))

