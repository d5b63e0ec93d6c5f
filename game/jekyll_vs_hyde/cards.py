"""The 25 cards of Jekyll vs Hyde: three colours 1-7 and four Potions.

Values are doubled so that a Potion's `+` (one half) stays a whole number:
`3+` is worth 7, between `3` (6) and `4` (8).

>>> len(DECK), DECK[0], DECK[-1]
(25, 'P1', '5+')
>>> VALUE["3+"] > VALUE["G3"], VALUE["3+"] < VALUE["R4"]
(True, True)
>>> colour_of("R5"), colour_of("4+")
('R', None)
"""

from __future__ import annotations

from typing import Iterable

COLOURS = ("P", "R", "G")
COLOUR_NAME = {"P": "purple", "R": "red", "G": "green"}
POTIONS = ("2+", "3+", "4+", "5+")

DECK: tuple[str, ...] = tuple(f"{c}{n}" for c in COLOURS for n in range(1, 8)) + POTIONS
ORDER: dict[str, int] = {card: i for i, card in enumerate(DECK)}
VALUE: dict[str, int] = {
    card: (2 * int(card[0]) + 1 if card.endswith("+") else 2 * int(card[1])) for card in DECK
}
COLOUR: dict[str, str | None] = {card: (None if card.endswith("+") else card[0])
                                 for card in DECK}


def colour_of(card: str) -> str | None:
    """'P', 'R' or 'G'; None for a Potion."""
    return COLOUR[card]


def is_potion(card: str) -> bool:
    return COLOUR[card] is None


def sort_cards(cards: Iterable[str]) -> tuple[str, ...]:
    """Cards in deck order: purple, red, green by number, then the Potions."""
    return tuple(sorted(cards, key=ORDER.__getitem__))
