"""Think-time measurements of the strong bot inside the page (benchmarks/think.py).

The page exposes `window.thinkBench(game, seed, count, budget)` when its URL
has `?bench` (installed by the shell; it builds its own positions and never
touches the game on the table). It plays a game with heuristic bots from deal `seed`, and at
each of the first `count` decisions with a real choice runs the strong bot
as the page does (slices of `shell.SLICE` that yield to the browser) under
`budget` seconds. It answers JSON: per move the wall time, the page-clock window of the
search, the iterations,
the longest slice and the observation searched (so CPython can search the same positions).
The module is tiny and imports the game only when called.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from typing import Any, Callable


def positions(game: str, seed: int, count: int) -> list[dict[str, Any]]:
    """Observations of the player to act at the first `count` real choices."""
    from game import new_game
    from game.bots import make_bot

    state = new_game(game, {}, seed)
    bot = make_bot(game, "heuristic")
    rng = random.Random(seed)
    out: list[dict[str, Any]] = []
    while not state.over and len(out) < count:
        legal = state.legal_actions()
        obs = state.observation(state.to_act)
        if len(legal) > 1:
            out.append(obs)
        state = state.apply(bot.choose(obs, legal, rng))
        if state.over:  # play on into a new game for more positions
            seed += 1
            state = new_game(game, {}, seed)
    return out


async def think(game: str, seed: int, count: int, budget: float, slice_s: float) -> str:
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
        for i, obs in enumerate(positions(game, int(seed), int(count))):
            pauses.clear()
            moves.append(await _one(obs, i, budget, slice_s))
            moves[-1]["gc_ms"] = max(pauses, default=0.0)
            moves[-1]["gcs"] = len(pauses)
    finally:
        gc.callbacks.remove(on_gc)
    return json.dumps(moves)


async def _one(obs: dict[str, Any], i: int, budget: float, slice_s: float) -> dict[str, Any]:
    from game.bots.search import SearchBot

    bot = SearchBot(budget=float(budget))
    await asyncio.sleep(0.05)  # let the page settle between moves
    page_t0 = _page_now()
    t0 = time.monotonic()
    search = bot.start(obs, random.Random(i))
    end = t0 + bot.budget
    start_ms = (time.monotonic() - t0) * 1000
    longest = worst = 0.0  # the longest slice and iteration, as Python sees them
    slices = over = 0  # slices, and those over 100 ms
    clock = time.monotonic
    while not search.done(end):
        s0 = clock()
        stop = min(s0 + slice_s, end)
        while clock() < stop:  # Search.step, one iteration at a time under a stopwatch
            i0 = clock()
            search.iterate()
            worst = max(worst, clock() - i0)
        longest = max(longest, clock() - s0)
        slices += 1
        over += clock() - s0 > 0.1
        await asyncio.sleep(0)
    search.best(obs["legal"])
    ms = (time.monotonic() - t0) * 1000
    return {"ms": ms, "window": [page_t0, _page_now()],
            "iterations": search.iterations, "start_ms": start_ms,
            "slice_ms": longest * 1000, "slices": slices, "slices_over_100ms": over,
            "iteration_ms": worst * 1000, "obs": obs}


def _page_now() -> float | None:
    """The page's performance.now() (ms), to tell the search's tasks from the rest."""
    try:
        from js import performance
    except ImportError:  # CPython
        return None
    return float(performance.now())


def install(window: Any, create_proxy: Callable[[Callable[..., Any]], Any],
            slice_s: float) -> None:
    """Set `window.thinkBench` (`window` and `create_proxy` are the page's)."""
    def think_bench(game: str, seed: int = 1, count: int = 10,
                    budget: float = 1.0) -> asyncio.Future[str]:
        return asyncio.ensure_future(think(str(game), int(seed), int(count), float(budget),
                                           slice_s))

    window.thinkBench = create_proxy(think_bench)
