"""Bots by name. `random` plays every game; each game package adds its own
bots in a `BOTS` dict (name -> class) of its `bots` module.

>>> make_bot("jekyll-hyde", "random").name
'random'
>>> sorted(bot_names("jekyll-hyde"))
['heuristic', 'random']
"""

from __future__ import annotations

import importlib

from game import game_module
from game.bots.base import Bot, RandomBot
from game.core.state import BadOptionsError

GENERIC_BOTS: dict[str, type] = {"random": RandomBot}


def _game_bots(game_id: str) -> dict[str, type]:
    package = game_module(game_id).__name__
    try:
        module = importlib.import_module(package + ".bots")
    except ModuleNotFoundError as e:
        if e.name != package + ".bots":
            raise
        return {}
    return dict(module.BOTS)


def bot_names(game_id: str) -> list[str]:
    """The bots that can play `game_id`, weakest first."""
    return list({**GENERIC_BOTS, **_game_bots(game_id)})


def make_bot(game_id: str, name: str) -> Bot:
    """A new bot called `name` for game `game_id`."""
    bots = {**GENERIC_BOTS, **_game_bots(game_id)}
    if name not in bots:
        raise BadOptionsError(f"no bot {name!r} for {game_id}; bots: {', '.join(bots)}")
    return bots[name]()


__all__ = ["Bot", "RandomBot", "bot_names", "make_bot"]
