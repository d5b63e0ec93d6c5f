"""The one reader of numbers that come from outside: a URL, a form, a save.

`int()` accepts more than a player means ("²" passes `isdigit()`, "1_000",
" 7", a 5,000-digit number raises); this accepts ASCII digits only, within
a range, and otherwise raises `BadNumber` with a message for the player.

>>> read_int("42", "seed")
42
>>> read_int("²", "seed")
Traceback (most recent call last):
  ...
game.web.model.inputs.BadNumber: seed: '²' is not a number of digits 0-9
>>> read_int("9" * 20, "seed", hi=2**31 - 1)
Traceback (most recent call last):
  ...
game.web.model.inputs.BadNumber: seed: '99999999999…' is not between 0 and 2147483647
>>> check_int(True, "seen_hands")
Traceback (most recent call last):
  ...
game.web.model.inputs.BadNumber: seen_hands: True is not a whole number
"""

from __future__ import annotations

from typing import Any

MAX_DIGITS = 18  # far below int()'s 4,300-digit limit, far above any deal number
SEED_MAX = 2**63 - 1


class BadNumber(ValueError):
    """A number from outside that is not what it should be: `code` ("digits",
    "range" or "whole") and `params` (the value as shown, the range's ends)
    for the page to word; the message, in English, for the command line."""

    def __init__(self, message: str, code: str, **params: Any) -> None:
        super().__init__(message)
        self.code, self.params = code, params


def _shown(text: str) -> str:
    return text if len(text) <= 12 else text[:11] + "…"


def read_int(text: str, name: str, lo: int = 0, hi: int = SEED_MAX) -> int:
    """`text` (surrounding spaces allowed) as an int in [lo, hi], or BadNumber."""
    digits = text.strip()
    if not digits or not digits.isascii() or not digits.isdigit():
        raise BadNumber(f"{name}: {_shown(text)!r} is not a number of digits 0-9", "digits",
                        shown=_shown(text))
    if len(digits) > MAX_DIGITS or not lo <= int(digits) <= hi:
        raise BadNumber(f"{name}: {_shown(digits)!r} is not between {lo} and {hi}", "range",
                        shown=_shown(digits), lo=lo, hi=hi)
    return int(digits)


def check_int(value: Any, name: str, lo: int = 0, hi: int = SEED_MAX) -> int:
    """A number read from JSON: an int (not a bool) in [lo, hi], or BadNumber."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadNumber(f"{name}: {value!r:.20} is not a whole number", "whole",
                        shown=f"{value!r:.20}")
    if not lo <= value <= hi:
        raise BadNumber(f"{name}: {value} is not between {lo} and {hi}", "range",
                        shown=str(value), lo=lo, hi=hi)
    return value
