"""The saved-game format (versioned), independent of the browser.

A save is one JSON object in localStorage:

    {"format": "jekyll-hyde-games/save", "version": 1,
     "game": "jekyll-hyde",
     "setup": {"me": ..., "bots": {identity: bot name}},
     "transcript": {"game", "options", "seed", "actions"},
     "state": state.to_json(),
     "log": [events], "seen_hands": n}
"""

from __future__ import annotations

import json
from typing import Any

FORMAT = "jekyll-hyde-games/save"
VERSION = 1
KEY = "jhg.save"
BROKEN_PREFIX = "jhg.broken."
PREFS_KEY = "jhg.prefs"


class BrokenSave(ValueError):
    """A save that cannot be loaded; the message says why."""


def dump(save: dict[str, Any]) -> str:
    return json.dumps({"format": FORMAT, "version": VERSION, **save}, separators=(",", ":"))


def load(text: str) -> tuple[dict[str, Any], Any]:
    """Parse a save and rebuild its state: (save dict, state), or raise BrokenSave."""
    from game import GAMES, GameError, state_from_json

    try:
        data = json.loads(text)
    except ValueError as e:
        raise BrokenSave(f"not JSON ({e})") from e
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise BrokenSave("not a saved game of this site")
    if data.get("version") != VERSION:
        raise BrokenSave(f"saved by another version ({data.get('version')!r}, "
                         f"this site reads {VERSION})")
    game = data.get("game")
    if game not in GAMES:
        raise BrokenSave(f"unknown game {game!r}")
    for key, kind in (("setup", dict), ("transcript", dict), ("state", dict), ("log", list)):
        if not isinstance(data.get(key), kind):
            raise BrokenSave(f"'{key}' is missing or malformed")
    setup, transcript = data["setup"], data["transcript"]
    if "me" not in setup or not isinstance(setup.get("bots"), dict):
        raise BrokenSave("'setup' does not say who plays")
    if not isinstance(transcript.get("actions", []), list):
        raise BrokenSave("'transcript' has no action list")
    try:
        state = state_from_json(data["state"])
    except GameError as e:
        raise BrokenSave(str(e)) from e
    except Exception as e:  # a save is data from outside: never crash on it
        raise BrokenSave(f"{type(e).__name__}: {e}") from e
    if state.game_id != game:
        raise BrokenSave("the state is of another game")
    return data, state
