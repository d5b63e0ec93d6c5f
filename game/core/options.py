"""Game options declared as data: one `OptionSpec` per option, one tuple per game.

The engine checks options with `read_options`, the command line prints
them in `--help`, and a page can build its start screen from `to_json()`.

>>> players = OptionSpec("players", "int", 4, choices=(3, 4), help="players at the table")
>>> read_options("demo", (players,), {"players": 3})
{'players': 3}
>>> read_options("demo", (players,), {"players": 3.0})
Traceback (most recent call last):
...
game.core.state.BadOptionsError: options.players must be 3 or 4, not 3.0
>>> players.to_json()["catalog_key"], players.summary()
('option.players', 'players: 3 or 4 (default 4) - players at the table')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from game.core.state import BadOptionsError
from game.core.validate import at, describe, fail

Kind = Literal["int", "choice", "names"]


@dataclass(frozen=True)
class OptionSpec:
    """One option of a game.

    `kind` is `int` (a whole number in `[lo, hi]`, or one of `choices`),
    `choice` (one of `choices`, strings) or `names` (a list of different
    non-empty names, or null).  A `default` of None means the option is
    absent unless given.
    """

    name: str
    kind: Kind
    default: Any
    choices: tuple[Any, ...] = ()
    lo: int | None = None
    hi: int | None = None
    help: str = ""

    def __post_init__(self) -> None:
        if self.kind == "int" and not self.choices and (self.lo is None or self.hi is None):
            raise ValueError(f"option {self.name!r}: an int option needs choices or lo and hi")

    @property
    def catalog_key(self) -> str:
        """The key of the option's label in the page's translations."""
        return f"option.{self.name}"

    def fits(self, value: Any) -> bool:
        """Whether `value` is allowed (types count: 3.0 is not 3, true is not 1)."""
        if self.kind == "names":
            return value is None or (
                type(value) is list and 0 < len(value) <= 10
                and all(type(n) is str and 0 < len(n) <= 40 for n in value))
        if self.choices:
            return any(type(value) is type(c) and value == c for c in self.choices)
        return (type(value) is int and self.lo is not None and self.hi is not None
                and self.lo <= value <= self.hi)

    def read(self, value: Any, path: str) -> Any:
        """`value` if it fits this option, else raise BadOptionsError naming `path`."""
        if not self.fits(value):
            raise BadOptionsError(
                f"{path} must be {self.values()}, not {describe(value)}",
                code="invalid_option", params={"option": self.name, "path": path,
                                               "expected": self.values(),
                                               "got": describe(value)})
        return value

    def values(self) -> str:
        """The values allowed, in words."""
        if self.kind == "names":
            return "a list of names"
        if self.choices:
            words = [describe(c) for c in self.choices]
            return ", ".join(words[:-1]) + " or " + words[-1] if len(words) > 1 else words[0]
        return f"a whole number {self.lo}-{self.hi}"

    def summary(self) -> str:
        default = "" if self.default is None else f" (default {self.default})"
        return f"{self.name}: {self.values()}{default}" + (f" - {self.help}" if self.help else "")

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "kind": self.kind, "default": self.default,
                "choices": list(self.choices), "lo": self.lo, "hi": self.hi,
                "catalog_key": self.catalog_key, "help": self.help}


def read_options(game_id: str, specs: tuple[OptionSpec, ...],
                 given: Any) -> dict[str, Any]:
    """The options of a new game: each given one checked, the others at their
    defaults (defaults first, in declaration order, then the given ones)."""
    if given is None:
        given = {}
    if type(given) is not dict:
        fail(BadOptionsError, "options", "an object", given)
    by_name = {spec.name: spec for spec in specs}
    for name in given:
        if name not in by_name:
            raise BadOptionsError(
                f"unknown option {name!r} for {game_id}; options: {', '.join(by_name)}",
                code="unknown_option", params={"option": str(name), "options": list(by_name)})
    options = {spec.name: spec.default for spec in specs if spec.default is not None}
    for name, value in given.items():
        options[name] = by_name[name].read(value, at("options", name))
    return options
