"""Think-time measurements of the strong bot inside the page (benchmarks/think.py).

The page exposes `window.thinkBench(game, seed, count, budget)` (installed by
the shell, harmless: it builds its own positions and never touches the game
on the table). It plays a game with heuristic bots from deal `seed`, and at
each of the first `count` decisions with a real choice runs the strong bot
as the page does (slices of `shell.SLICE` that yield to the browser) under
`budget` seconds. It answers JSON: per move the wall time, the iterations
and the observation searched (so CPython can search the same positions).
The module is tiny and imports the game only when called.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from typing import Any


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
    from game.bots.search import SearchBot

    moves = []
    for i, obs in enumerate(positions(game, int(seed), int(count))):
        bot = SearchBot(budget=float(budget))
        await asyncio.sleep(0.05)  # let the page settle between moves
        t0 = time.monotonic()
        search = bot.start(obs, random.Random(i))
        end = t0 + bot.budget
        while not search.done(end):
            search.step(time.monotonic() + slice_s, end)
            await asyncio.sleep(0)
        search.best(obs["legal"])
        ms = (time.monotonic() - t0) * 1000
        moves.append({"ms": ms, "iterations": search.iterations, "obs": obs})
    return json.dumps(moves)


def install(window, create_proxy, slice_s: float) -> None:
    def think_bench(game, seed=1, count=10, budget=1.0):
        return asyncio.ensure_future(think(str(game), int(seed), int(count), float(budget),
                                           slice_s))

    window.thinkBench = create_proxy(think_bench)
