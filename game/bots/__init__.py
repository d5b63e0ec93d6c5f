"""Bots by name, weakest first. `random` plays every game; each game package
adds its own bots in a `BOTS` dict (name -> class) of its `bots` module, and
`strong` (the search bot) plays every game whose package has a `search` module.

>>> make_bot("jekyll-hyde", "random").name
'random'
>>> bot_names("jekyll-hyde")
['random', 'easy', 'heuristic', 'strong']
"""

from __future__ import annotations

import importlib
import importlib.util
from typing import Callable

from game import game_module
from game.bots.base import Bot, EasyBot, RandomBot
from game.core.state import BadOptionsError

GENERIC_BOTS: dict[str, Callable[..., Bot]] = {"random": RandomBot}


def _game_bots(game_id: str) -> dict[str, Callable[..., Bot]]:
    package = game_module(game_id).__name__
    bots: dict[str, Callable[..., Bot]] = {}
    bots_module = _optional(package + ".bots")
    if bots_module:
        heuristic = bots_module.BOTS.get("heuristic")
        if heuristic:
            bots["easy"] = lambda random_share=0.3: EasyBot(heuristic(), random_share)
        bots.update(bots_module.BOTS)
    if importlib.util.find_spec(package + ".search"):
        from game.bots.search import SearchBot

        bots["strong"] = SearchBot
    return bots


def _optional(name: str):
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as e:
        if e.name != name:
            raise
        return None


def bot_names(game_id: str) -> list[str]:
    """The bots that can play `game_id`, weakest first."""
    return list({**GENERIC_BOTS, **_game_bots(game_id)})


def make_bot(game_id: str, spec: str) -> Bot:
    """A new bot for game `game_id` from `name` or `name:key=value,...`.

    >>> make_bot("jekyll-hyde", "strong:iterations=50").iterations
    50
    """
    name, _, settings = spec.partition(":")
    bots = {**GENERIC_BOTS, **_game_bots(game_id)}
    if name not in bots:
        raise BadOptionsError(f"no bot {name!r} for {game_id}; bots: {', '.join(bots)}")
    kwargs = {}
    for setting in filter(None, settings.split(";")):
        key, _, value = setting.partition("=")
        try:
            kwargs[key.strip()] = float(value) if "." in value else int(value)
        except ValueError:
            raise BadOptionsError(f"bot setting {setting!r}: write key=number") from None
    try:
        return bots[name](**kwargs)
    except TypeError:
        raise BadOptionsError(f"bot {name!r} does not take {', '.join(kwargs)}") from None


__all__ = ["Bot", "EasyBot", "RandomBot", "bot_names", "make_bot"]
