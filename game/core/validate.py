"""Typed readers for data from outside: saves, deals, transcripts, options.

Each reader takes the value, its path in the document (such as
`hands.2[3]`) and the error class to raise, checks the type exactly (a
bool is not a whole number, 3.0 is not 3, a number is finite and in range)
and returns the value.  A wrong value raises that `GameError` subclass with
a message naming the path and what was expected, code `invalid_field` and
params `{"path", "expected", "got"}`.

>>> read_int(3, "players", BadOptionsError, 3, 4)
3
>>> read_int(3.0, "players", BadOptionsError, 3, 4)
Traceback (most recent call last):
...
game.core.state.BadOptionsError: players: expected a whole number 3-4, not 3.0
>>> read_list(["JA", 7], "hands.2", BadStateError)[1]
7
>>> read_card(7, "hands.2[1]", BadStateError, {"JA": 0})
Traceback (most recent call last):
...
game.core.state.BadStateError: hands.2[1]: 7 is not a card
"""

from __future__ import annotations

from typing import Any, Callable, Mapping, NoReturn, TypeVar

from game.core.state import BadOptionsError, BadStateError, GameError

__all__ = ["SEED_LIMIT", "as_bad_state", "at", "check_rebuilt", "describe", "fail",
           "first_difference", "load_save", "read_bool", "read_card", "read_cards", "read_choice",
           "read_int", "read_list", "read_object", "read_seed", "read_str"]

E = TypeVar("E", bound=GameError)
S = TypeVar("S")
T = TypeVar("T")
# Seeds are whole numbers of at most 100 digits: the site takes any deal number
# a player types, and a seed is written into each deal's generator key.
SEED_LIMIT = 10**100


def at(path: str, key: str | int) -> str:
    """The path of a member: `at("hands", "2")` is `hands.2`, `at("hands.2", 3)` `hands.2[3]`.

    >>> at("", "hands"), at("hands", "2"), at("hands.2", 3)
    ('hands', 'hands.2', 'hands.2[3]')
    """
    if isinstance(key, int):
        return f"{path}[{key}]"
    return f"{path}.{key}" if path else key


def describe(value: Any) -> str:
    """A short, safe description of any value for an error message (never
    the whole of a huge value, never a crash on a 5000-digit number).

    >>> describe(True), describe(float("inf")), describe([1, 2]), describe(10**5000)
    ('true', 'inf', 'a list', 'a number of about 5001 digits')
    >>> describe("x" * 100)
    "'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...'"
    """
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        if abs(value) >= 10**30:
            # str() of a number over 4300 digits raises: count them from the bits.
            return f"a number of about {int(value.bit_length() * 0.30103) + 1} digits"
        return str(value)
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, str):
        return repr(value[:40] + "...") if len(value) > 40 else repr(value)
    if isinstance(value, (list, tuple)):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return f"a {type(value).__name__}"


def fail(error: type[E], path: str, expected: str, value: Any,
         code: str = "invalid_field") -> NoReturn:
    """Raise `error` saying that `path` should be `expected` and is `value`."""
    where = f"{path}: " if path else ""
    raise error(f"{where}expected {expected}, not {describe(value)}", code=code,
                params={"path": path, "expected": expected, "got": describe(value)})


def read_int(value: Any, path: str, error: type[E], lo: int, hi: int) -> int:
    """A whole number in [lo, hi]: not a bool, not a float."""
    if type(value) is not int or not lo <= value <= hi:
        fail(error, path, f"a whole number {lo}-{hi}", value)
    return value


def read_seed(value: Any, path: str, error: type[E]) -> int:
    """A seed: a whole number of at most 100 digits."""
    if type(value) is not int or not -SEED_LIMIT < value < SEED_LIMIT:
        fail(error, path, "a whole number of at most 100 digits", value)
    return value


def read_bool(value: Any, path: str, error: type[E]) -> bool:
    if type(value) is not bool:
        fail(error, path, "true or false", value)
    return value


def read_str(value: Any, path: str, error: type[E], max_length: int = 100) -> str:
    """A non-empty string of at most `max_length` characters."""
    if type(value) is not str or not 0 < len(value) <= max_length:
        fail(error, path, f"a text of 1-{max_length} characters", value)
    return value


def read_choice(value: Any, path: str, error: type[E], choices: tuple[Any, ...]) -> Any:
    """One of `choices` (compared with its type: 1.0 is not 1, true is not 1)."""
    for choice in choices:
        if type(value) is type(choice) and value == choice:
            return choice
    fail(error, path, "one of " + ", ".join(describe(c) for c in choices), value)


def read_list(value: Any, path: str, error: type[E], lo: int = 0, hi: int = 10_000) -> list[Any]:
    """A list of `lo` to `hi` items (the items are the caller's to read)."""
    if type(value) is not list or not lo <= len(value) <= hi:
        size = f"{lo}" if lo == hi else f"{lo}-{hi}"
        fail(error, path, f"a list of {size} items", value)
    return value


def read_object(value: Any, path: str, error: type[E], required: tuple[str, ...] = (),
                optional: tuple[str, ...] | None = ()) -> dict[str, Any]:
    """An object holding every key of `required`; with `optional` not None,
    no key outside `required + optional`."""
    if type(value) is not dict:
        fail(error, path, "an object", value)
    for key in required:
        if key not in value:
            where = at(path, key)
            raise error(f"{where}: missing", code="missing_field", params={"path": where})
    if optional is not None:
        allowed = set(required) | set(optional)
        for key in value:
            if key not in allowed:
                where = at(path, str(key))
                raise error(f"{where}: unknown key; expected only "
                            + ", ".join(required + optional), code="unknown_field",
                            params={"path": where, "expected": list(required + optional)})
    return value


def read_card(value: Any, path: str, error: type[E], order: Mapping[str, int],
              hint: str = "") -> str:
    """A card code of the game (a key of its `ORDER`); `hint` lists the cards."""
    if type(value) is not str or value not in order:
        raise error(f"{path}: {describe(value)} is not a card{hint}", code="invalid_card",
                    params={"path": path, "got": describe(value)})
    return value


def read_cards(value: Any, path: str, error: type[E], order: Mapping[str, int],
               lo: int = 0, hi: int | None = None) -> list[str]:
    """A list of `lo` to `hi` different card codes."""
    cards = read_list(value, path, error, lo, len(order) if hi is None else hi)
    seen: set[str] = set()
    for i, card in enumerate(cards):
        read_card(card, at(path, i), error, order)
        if card in seen:
            where = at(path, i)
            raise error(f"{where}: {card} is already in {path}", code="duplicate_card",
                        params={"path": where, "card": card})
        seen.add(card)
    return cards


def first_difference(saved: Any, rebuilt: Any, path: str = "") -> tuple[str, Any, Any] | None:
    """Where `saved` first differs from `rebuilt` (JSON-ready data; types
    count: 1.0 is not 1): (path, saved value, rebuilt value), or None if equal.

    Recursion follows `rebuilt`, which is shallow, so a deeply nested
    `saved` costs nothing.

    >>> first_difference({"a": [1, 2]}, {"a": [1, 2]}) is None
    True
    >>> first_difference({"a": [1, 2.0]}, {"a": [1, 2]}), first_difference({}, {"b": 1})
    (('a[1]', 2.0, 2), ('b', None, 1))
    """
    if type(saved) is not type(rebuilt):
        return path, saved, rebuilt
    if isinstance(rebuilt, dict):
        for key, value in rebuilt.items():
            if key not in saved:
                return at(path, key), None, value
            found = first_difference(saved[key], value, at(path, key))
            if found is not None:
                return found
        extra = [k for k in saved if k not in rebuilt]
        return (at(path, str(extra[0])), saved[extra[0]], None) if extra else None
    if isinstance(rebuilt, list):
        for i, (a, b) in enumerate(zip(saved, rebuilt)):
            found = first_difference(a, b, at(path, i))
            if found is not None:
                return found
        if len(saved) == len(rebuilt):
            return None
        return path, f"{len(saved)} items", f"{len(rebuilt)} items"
    return None if saved == rebuilt else (path, saved, rebuilt)


def load_save(game_id: str, data: Any, keys: tuple[str, ...], table: Callable[..., T],
              rebuild: Callable[[dict[str, Any], T], S]) -> S:
    """`rebuild(data, table(options, seed, deals))` for a save of `game_id` holding
    `game`, `options`, `seed` and `keys`; any GameError on the way comes out as a
    BadStateError."""
    try:
        read_object(data, "", BadStateError, ("game", "options", "seed") + keys, None)
        if data["game"] != game_id:
            fail(BadStateError, "game", repr(game_id), data["game"])
        seed = read_seed(data["seed"], "seed", BadStateError)
        return rebuild(data, table(data["options"], seed, data.get("deals")))
    except GameError as e:
        raise as_bad_state(game_id, e) from e


def as_bad_state(game_id: str, error: GameError) -> BadStateError:
    """`error` (met while rebuilding a save) as a BadStateError with the same code and params."""
    if isinstance(error, BadStateError) and str(error).startswith("not a saved"):
        return error
    return BadStateError(f"not a saved {game_id} state: {error}", code=error.code,
                         params=error.params)


def check_rebuilt(data: dict[str, Any], state: Any, read: tuple[str, ...] = ()) -> None:
    """Raise BadStateError unless the save `data` holds every key of
    `state.to_json()` and says the same, and the player on turn has a legal action.

    Saves are rebuilt from the few facts that decide a game (options, seed,
    deals, the actions of the deal under way); everything else a save holds
    must follow from them.  Keys in `read` were read to rebuild the state in
    an order of the save's own and are not compared.
    """
    rebuilt = state.to_json()
    for key, value in rebuilt.items():
        if key not in data:
            raise BadStateError(f"not a saved {state.game_id} state: {key}: missing",
                                code="missing_field", params={"path": key})
        # `legal` is a convenience for readers of a save, never read back.
        if key != "legal" and key not in read:
            found = first_difference(data[key], value, key)
            if found is not None:
                path, saved, expected = (found[0], *map(_brief, found[1:]))
                raise BadStateError(
                    f"not a saved {state.game_id} state: {path} is {saved}, but the rest of "
                    f"the save gives {expected}", code="inconsistent_state",
                    params={"path": path, "got": saved, "expected": expected})
    if state.to_act is not None and not state.legal_actions():
        raise BadStateError(f"not a saved {state.game_id} state: the player on turn has "
                            "no legal action", code="no_legal_action", params={"path": "to_act"})


def _brief(value: Any) -> str:
    return value if isinstance(value, str) and value.endswith(" items") else describe(value)
