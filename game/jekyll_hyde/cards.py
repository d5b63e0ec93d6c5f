"""The 28 cards of Dr. Jekyll & Mr. Hyde: codes, ranks, points, multipliers.

>>> len(DECK), DECK[0], DECK[-1]
(28, 'JT', 'H3')
>>> RANK["JT"] > RANK["HA"] > RANK["JE"] > RANK["HF7"] == RANK["JF3"] > RANK["J3"]
True
>>> POINTS["HF6"], POINTS["JB"], MULTIPLIER["H3"], MULTIPLIER["JF6"]
(6, 1, 3, 0)
"""

from __future__ import annotations

from typing import Iterable

SIDES = ("J", "H")
SIDE_NAME = {"J": "jekyll", "H": "hyde"}

# Within a side: Transformation, characters A-E, locations F3-F7, actions 1-3.
_FACES = ("T", "A", "B", "C", "D", "E", "F3", "F4", "F5", "F6", "F7", "1", "2", "3")

DECK: tuple[str, ...] = tuple(side + face for side in SIDES for face in _FACES)
ORDER: dict[str, int] = {card: i for i, card in enumerate(DECK)}


def _rank(face: str) -> int:
    if face == "T":
        return 7
    if face in "ABCDE":
        return 6 - "ABCDE".index(face)  # A=6 .. E=2
    return 1 if face[0] == "F" else 0


RANK: dict[str, int] = {c: _rank(c[1:]) for c in DECK}
POINTS: dict[str, int] = {
    c: (int(c[2]) if c[1] == "F" else 1 if c[1] in "ABCDE" else 0) for c in DECK
}
MULTIPLIER: dict[str, int] = {c: (int(c[1]) if c[1:].isdigit() else 0) for c in DECK}
TRANSFORMATIONS = frozenset(("JT", "HT"))


def side_of(card: str) -> str:
    """'J' or 'H'."""
    return card[0]


def sort_cards(cards: Iterable[str]) -> tuple[str, ...]:
    """Cards in deck order: side, then rank order within the side."""
    return tuple(sorted(cards, key=ORDER.__getitem__))
