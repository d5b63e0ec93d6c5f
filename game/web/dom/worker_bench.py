"""benchmarks/think.py's hook (`?bench`) in the game's worker: the page's
`window.thinkBench(...)` (static/js/bench.mjs) posts `{"kind": "bench", "id",
"args", "origin"}` here and gets `{"bench": {"id", "result"}}` back (or
`{"bench": {"id", "error"}}`); `{"bench": "ready"}` tells the page the hook is
there. The measurements are benchmarks/page_think.py's, fetched as a part of
their own (`page_think` in bench.zip: no player's page downloads it).
Times are put on the page's clock: the
worker's `performance.now()` counts from its own start, the page's
(`origin`, its `performance.timeOrigin`) from the page's.
"""

from __future__ import annotations

import asyncio
import importlib
from typing import Any, Callable

import js

from game.web.dom.parts import load_part

Post = Callable[[dict[str, Any]], None]


async def install(address: str, post: Post) -> None:
    """Fetch the bench part (beside the page at `address`), then tell the page."""
    await load_part("bench", address)
    post({"bench": "ready"})


def answer(msg: dict[str, Any], post: Post) -> None:
    """A call of the page's `thinkBench`: measured, then answered."""
    asyncio.ensure_future(_answer(msg, post))


async def _answer(msg: dict[str, Any], post: Post) -> None:
    bench = importlib.import_module("page_think")  # (not in the game package)
    from game.web.runtime.thinking import SLICE

    shift = float(js.performance.timeOrigin) - float(msg["origin"])

    def page_now() -> float:
        return float(js.performance.now()) + shift

    try:
        result = await bench.call(list(msg["args"]), SLICE, page_now)
    except Exception as e:  # the page's promise fails with it
        post({"bench": {"id": msg["id"], "error": f"{type(e).__name__}: {e}"}})
        return
    post({"bench": {"id": msg["id"], "result": result}})
