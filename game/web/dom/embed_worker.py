"""embed.html's game in the page's worker (game.web.embed.game): its
scenario fetched with the worker's own fetch."""

from __future__ import annotations

from typing import Any, Callable

from pyodide.http import pyfetch

from game.web.embed.game import EmbedGame, Post, TableScreen, Unreachable
from game.web.draw.html import Html


async def fetch_text(url: str) -> str:
    resp = await pyfetch(url)
    if not resp.ok:
        raise Unreachable(f"HTTP {resp.status}")
    return str(await resp.string())


def start_embed(init: dict[str, Any], post: Post, spawn: Any,
                screen: Callable[[Html], TableScreen]) -> EmbedGame:
    game = EmbedGame(post, spawn, fetch_text, screen)
    game.start(init)
    return game
