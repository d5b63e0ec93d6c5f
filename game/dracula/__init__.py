"""Dracula (David Parlett), game id `dracula`."""

import importlib
from types import ModuleType

from game.dracula.rules import GAME_ID, DraculaState, new_state, sides

State = DraculaState
__all__ = ["GAME_ID", "DraculaState", "State", "new_state", "sides"]


def __getattr__(name: str) -> ModuleType:
    # `text` and `bots` load on first use (Pyodide start-up pays for every import).
    if name in ("text", "bots"):
        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
