"""The protocol every game follows, and the errors it raises.

A game is a `State` subclass.  States are values: `apply` returns a new
state and leaves the old one untouched, so bots can search and the UI can
undo.  Everything a player may know comes from `observation(player)`;
`to_json()` is the omniscient view used for saves and replays.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any, Callable, ClassVar, Hashable

Player = Hashable


class GameError(ValueError):
    """Base of every error the engine raises for bad input.

    `str(error)` is the English message the command line prints; `code` (a
    stable snake_case string) and `params` (JSON-ready values) let a page
    say the same thing in any language.

    >>> e = IllegalActionError("HA is not in seat 0's hand", code="card_not_in_hand",
    ...                        params={"card": "HA", "seat": 0})
    >>> (str(e), e.code, e.params["card"])
    ("HA is not in seat 0's hand", 'card_not_in_hand', 'HA')
    >>> BadStateError("no 'game' key").code
    'bad_state'
    """

    default_code: ClassVar[str] = "game_error"

    def __init__(self, message: str, *, code: str | None = None,
                 params: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.code: str = code or self.default_code
        self.params: dict[str, Any] = dict(params or {})

    def to_json(self) -> dict[str, Any]:
        """The error as data: `{"code", "params", "message"}`."""
        return {"code": self.code, "params": self.params, "message": str(self)}


class MalformedActionError(GameError):
    """The action is not written in the game's notation at all."""

    default_code = "malformed_action"


class IllegalActionError(GameError):
    """The action is well formed but not allowed at this moment."""

    default_code = "illegal_action"


class BadOptionsError(GameError):
    """Unknown or invalid options, or a deal that does not fit the game."""

    default_code = "bad_options"


class BadStateError(GameError):
    """A saved state (`to_json` output) that cannot be rebuilt."""

    default_code = "bad_state"


class State(ABC):
    """One moment of one game.

    Subclasses set `game_id` and implement the abstract methods; the rest
    is shared.  `to_act` is the player who decides now, `None` once the game
    is over.
    """

    game_id: ClassVar[str]
    players: ClassVar[tuple[Player, ...]]
    __slots__ = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "_copy" not in cls.__dict__:
            cls._copy = _slot_copier(cls)

    def _copy(self) -> "State":
        """A shallow copy: `apply` copies once and then changes the copy."""
        raise NotImplementedError

    @property
    @abstractmethod
    def to_act(self) -> Player | None:
        """Who decides now, or None when the game is over."""

    @abstractmethod
    def legal_actions(self) -> list[str]:
        """The actions allowed now, in notation, in a stable order."""

    @abstractmethod
    def apply(self, action: str) -> "State":
        """Return the state after `action`; raise a GameError if it is not legal."""

    @abstractmethod
    def observation(self, player: Player) -> dict[str, Any]:
        """Everything `player` may know now, and nothing more."""

    @abstractmethod
    def to_json(self) -> dict[str, Any]:
        """The full state as JSON-ready data; `from_json` rebuilds it."""

    @classmethod
    @abstractmethod
    def from_json(cls, data: dict[str, Any]) -> "State":
        """Rebuild a state from `to_json` output."""

    @property
    def over(self) -> bool:
        return self.to_act is None

    @property
    @abstractmethod
    def winner(self) -> str | None:
        """The winner as a string once the game is over (None until then or for a draw)."""

    def returns(self) -> dict[Player, float]:
        """1 for the winning player(s), 0 for the others, 0.5 each on a draw."""
        if not self.over:
            raise GameError("the game is not over yet")
        winner = self.winner
        return {p: (0.5 if winner is None else float(self.wins(p))) for p in self.players}

    def identity(self, player: Player) -> Hashable:
        """The lasting player behind `player` (a seat can change hands between deals)."""
        return player

    def wins(self, player: Player) -> bool:
        """Whether `player` is on the winning side of a finished game."""
        return str(player) == self.winner


def _slot_copier(cls: type) -> Callable[[Any], Any]:
    """A shallow copy for a `__slots__` class, as one compiled function that
    assigns every slot (as fast as writing it out by hand; dataclasses build
    their methods the same way).

    >>> class Point:
    ...     __slots__ = ("x", "y")
    >>> p = Point(); p.x, p.y = 1, [2]
    >>> q = _slot_copier(Point)(p); (q.x, q.y is p.y, type(q).__name__)
    (1, True, 'Point')
    """
    names = [n for klass in reversed(cls.__mro__) for n in klass.__dict__.get("__slots__", ())]
    lines = ["def _copy(self):", "    s = object.__new__(self.__class__)"]
    lines += [f"    s.{n} = self.{n}" for n in names]
    lines.append("    return s")
    namespace: dict[str, Any] = {}
    exec("\n".join(lines), namespace)  # noqa: S102 - code built from slot names only
    return namespace["_copy"]


def legal_hint(legal: list[str]) -> str:
    """A short 'legal: ...' tail for error messages."""
    return "legal: " + (" ".join(legal) if legal else "nothing (the game is over)")
