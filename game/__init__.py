"""Three card games with one engine protocol: Dr. Jekyll & Mr. Hyde,
Jekyll vs Hyde and Dracula.

>>> s = new_game("jekyll-hyde", {"dealer": 0}, seed=3)
>>> s.to_act
1
>>> state_from_json(s.to_json()).to_json() == s.to_json()
True
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import TYPE_CHECKING, Any

from game.core.state import (
    BadOptionsError,
    BadStateError,
    GameError,
    IllegalActionError,
    MalformedActionError,
    State,
)

if TYPE_CHECKING:
    from game.core.options import OptionSpec

# game id -> the module holding its rules (imported on first use: Pyodide
# start-up pays for every import).
GAMES: dict[str, str] = {
    "jekyll-hyde": "game.jekyll_hyde",
    "jekyll-vs-hyde": "game.jekyll_vs_hyde",
    "dracula": "game.dracula",
}


def game_module(game_id: str) -> ModuleType:
    """The package of game `game_id`, which has `new_state` and `State`."""
    if type(game_id) is not str or game_id not in GAMES:
        raise BadOptionsError(f"unknown game {str(game_id)[:40]!r}; games: {', '.join(GAMES)}",
                              code="unknown_game", params={"game": str(game_id)[:40]})
    return importlib.import_module(GAMES[game_id])


def new_game(game_id: str, options: dict[str, Any] | None = None, seed: int | None = None,
             deals: list[Any] | None = None) -> State:
    """A new game. Missing options take their defaults; `deals` fixes the first deals."""
    if options is not None and not isinstance(options, dict):
        raise BadOptionsError(f"options must be an object, not {type(options).__name__}",
                              code="invalid_field", params={"path": "options"})
    if deals is not None and not isinstance(deals, list):
        raise BadOptionsError(f"deals must be a list, not {type(deals).__name__}",
                              code="invalid_field", params={"path": "deals"})
    state: State = game_module(game_id).new_state(options, seed, deals)
    return state


def game_options(game_id: str) -> tuple[OptionSpec, ...]:
    """The options of game `game_id`: a tuple of `game.core.options.OptionSpec`."""
    options: tuple[OptionSpec, ...] = game_module(game_id).rules.OPTIONS
    return options


def state_from_json(data: dict[str, Any]) -> State:
    """Rebuild any game's state from its `to_json()`; a save that is not one
    raises BadStateError naming the field (`path` in its params)."""
    if not isinstance(data, dict) or type(data.get("game")) is not str:
        raise BadStateError("not a saved game: no 'game' key", code="missing_field",
                            params={"path": "game"})
    if data["game"] not in GAMES:
        raise BadStateError(f"not a saved game: unknown game {data['game'][:40]!r}",
                            code="unknown_game", params={"path": "game"})
    state: State = game_module(data["game"]).State.from_json(data)
    return state


__all__ = [
    "GAMES", "BadOptionsError", "BadStateError", "GameError", "IllegalActionError",
    "MalformedActionError", "State", "game_module", "game_options", "new_game",
    "state_from_json",
]
