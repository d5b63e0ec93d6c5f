"""Bots by name, weakest first. `random` plays every game; each game package
adds its own bots in a `BOTS` dict (name -> class) of its `bots` module (and
`easy`, its heuristic with a share of random moves: `EASY_RANDOM_SHARE` there,
tuned per game so that each level clearly beats the one below), and
`strong` and `expert` (the search bot, thinking as the game's `search.LEVELS`
says: seconds a move, or a fixed number of iterations) play every game whose
package has a `search` module; with the setting `browser=1` a level that
thinks on a clock stops at the iterations the page reaches in that time
instead (game/bots/browser_caps.json).

The ladder a player picks from has five levels, beginner, easy, normal,
strong and expert (`LEVEL_NAMES`), whose ids are the bots that play them by
default: random, easy, heuristic, strong and expert. A game whose bots space out differently says which bot plays a level
in a `LADDER` dict of its `bots` module (`levels`).

>>> make_bot("jekyll-hyde", "random").name
'random'
>>> bot_names("jekyll-hyde")
['random', 'easy', 'heuristic', 'strong', 'expert']
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import math
from types import ModuleType
from typing import Callable

from game import game_module
from game.bots.base import Bot, EasyBot, RandomBot
from game.core.state import BadOptionsError

GENERIC_BOTS: dict[str, Callable[..., Bot]] = {"random": RandomBot}
LEVELS = ("random", "easy", "heuristic", "strong", "expert")  # the ladder, weakest first
# What players call each level (the ratings file and the ladder benchmark use
# these names; the page keeps the ids above, which saved games and stats hold).
LEVEL_NAMES = {"random": "beginner", "easy": "easy", "heuristic": "normal",
               "strong": "strong", "expert": "expert"}


def _game_bots(game_id: str) -> dict[str, Callable[..., Bot]]:
    package = game_module(game_id).__name__
    bots: dict[str, Callable[..., Bot]] = {}
    bots_module = _optional(package + ".bots")
    if bots_module:
        heuristic = bots_module.BOTS.get("heuristic")
        if heuristic:
            share = getattr(bots_module, "EASY_RANDOM_SHARE", EasyBot.default_random_share)
            bots["easy"] = lambda random_share=share: EasyBot(heuristic(), random_share)
        bots.update(bots_module.BOTS)
    if importlib.util.find_spec(package + ".search"):
        from game.bots.search import level_bot

        bots["strong"] = level_bot(game_id, "strong")
        bots["expert"] = level_bot(game_id, "expert")
    return bots


def _optional(name: str) -> ModuleType | None:
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as e:
        if e.name != name:
            raise
        return None


def bot_names(game_id: str) -> list[str]:
    """The bots that can play `game_id`, weakest first."""
    return list({**GENERIC_BOTS, **_game_bots(game_id)})


def levels(game_id: str) -> dict[str, str]:
    """The ladder of `game_id`: each level, weakest first, and the bot spec that
    plays it (`make_bot`).

    >>> levels("dracula")["strong"], levels("jekyll-hyde")["strong"]
    ('heuristic', 'strong')
    """
    bots_module = _optional(game_module(game_id).__name__ + ".bots")
    ladder = getattr(bots_module, "LADDER", {})
    return {level: ladder.get(level, level) for level in LEVELS}


def make_bot(game_id: str, spec: str) -> Bot:
    """A new bot for game `game_id` from `name` or `name:key=value,...`.

    >>> make_bot("jekyll-hyde", "strong:iterations=50").iterations
    50
    """
    name, _, settings = spec.partition(":")
    bots = {**GENERIC_BOTS, **_game_bots(game_id)}
    if name not in bots:
        raise BadOptionsError(f"no bot {name!r} for {game_id}; bots: {', '.join(bots)}")
    kwargs: dict[str, float] = {}
    for setting in filter(None, settings.split(";")):
        key, _, value = setting.partition("=")
        key = key.strip()
        if key not in _settings(bots[name]):
            known = ", ".join(_settings(bots[name])) or "none"
            raise BadOptionsError(f"bot {name!r} has no setting {key!r}; settings: {known}",
                                  code="unknown_bot_setting",
                                  params={"bot": name, "setting": key})
        try:
            number = float(value) if "." in value or "e" in value.lower() else int(value)
        except ValueError:
            number = math.nan
        if not 0 <= number <= 1e7:  # also refuses nan and inf
            raise BadOptionsError(f"bot setting {setting[:40]!r}: write key=number, a number "
                                  "from 0 to 10000000", code="invalid_bot_setting",
                                  params={"bot": name, "setting": key})
        kwargs[key] = number
    bot = bots[name](**kwargs)
    if getattr(bot, "browser", False):  # a missing cap says so now, not at some later move
        from game.bots.search import browser_caps

        browser_caps(game_id, getattr(bot, "page_level"))
    return bot


def think_seconds(game_id: str) -> dict[str, float]:
    """Seconds a move of each bot of `game_id` that thinks on a clock (by bot,
    not level: see `levels`).

    >>> think_seconds("dracula"), think_seconds("jekyll-vs-hyde")
    ({'strong': 1.0, 'expert': 3.0}, {'expert': 1.0})
    """
    seconds = {}
    for name in bot_names(game_id):
        budget = getattr(make_bot(game_id, name), "budget", math.inf)
        if budget < math.inf:
            seconds[name] = budget
    return seconds


def _settings(make: Callable[..., Bot]) -> list[str]:
    """The settings a bot takes: its numeric keyword arguments (not, say, a clock)."""
    try:
        parameters = inspect.signature(make).parameters.values()
    except (TypeError, ValueError):
        return []
    return [p.name for p in parameters if p.default is None or (
        type(p.default) in (int, float))]


__all__ = ["LEVELS", "LEVEL_NAMES", "Bot", "EasyBot", "RandomBot", "bot_names", "levels", "make_bot",
           "think_seconds"]
