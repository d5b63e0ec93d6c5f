"""The 54 cards of Dracula, the coffin's cells and the value of a line.

Cards are a standard pack (`AS` .. `KC`, rank then suit) and two Vampires
`V1`, `V2`.  The coffin is a 3x3 square of cells `00` .. `22` (row, column),
stored as indexes 0..8 (`3 * row + col`); the nail is the centre, `11`.

>>> len(DECK), DECK[0], DECK[12], DECK[-1]
(54, 'AS', 'KS', 'V2')
>>> line_value(("QH", "10H", "5H"), "Q"), line_value(("QH", "10H", "5H"), "K")
(125, 75)
>>> line_value(("KS", "9C", "AS"), "K"), line_value(("KS", "V1", "AS"), "K")
(60, 0)
"""

from __future__ import annotations

from typing import Any, Iterable, Sequence

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = ("S", "H", "D", "C")
SUIT_NAME = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
RANK_NAME = {"A": "Ace", "J": "Jack", "Q": "Queen", "K": "King"}
RED = frozenset("HD")
VAMPIRES = ("V1", "V2")

DECK: tuple[str, ...] = tuple(r + s for s in SUITS for r in RANKS) + VAMPIRES
ORDER: dict[str, int] = {card: i for i, card in enumerate(DECK)}

WAYS = ("Q", "K")  # the Queen's way scores the rows, the King's way the columns
WAY_NAME = {"Q": "rows (the Queen's way)", "K": "columns (the King's way)"}

NAIL = 4  # the centre cell, 11
CELLS: tuple[str, ...] = tuple(f"{r}{c}" for r in range(3) for c in range(3))
CELL_INDEX: dict[str, int] = {name: i for i, name in enumerate(CELLS)}
NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(
    tuple(3 * rr + cc for rr, cc in ((r - 1, c), (r, c - 1), (r, c + 1), (r + 1, c))
          if 0 <= rr < 3 and 0 <= cc < 3)
    for r in range(3) for c in range(3))
ROWS: tuple[tuple[int, int, int], ...] = ((0, 1, 2), (3, 4, 5), (6, 7, 8))
COLUMNS: tuple[tuple[int, int, int], ...] = ((0, 3, 6), (1, 4, 7), (2, 5, 8))
LINES = {"Q": ROWS, "K": COLUMNS}


def _value(card: str, way: str) -> int:
    if card in VAMPIRES:
        return 0
    rank = card[:-1]
    if rank == "A":
        return 1
    if rank == "J":
        return 0
    if rank == "Q":
        return 10 if way == "Q" else 0
    if rank == "K":
        return 10 if way == "K" else 0
    return int(rank)


# VALUE[way][card]: what a card adds to a line of that way.
VALUE: dict[str, dict[str, int]] = {w: {c: _value(c, w) for c in DECK} for w in WAYS}
SUIT: dict[str, str] = {c: ("" if c in VAMPIRES else c[-1]) for c in DECK}


def is_vampire(card: str) -> bool:
    return card in VAMPIRES


def multiplier(cards: Iterable[str]) -> int:
    """x5 one suit, else x3 one colour, else x2 two of a suit, else x1 (no Vampire).

    >>> multiplier(("2H", "9H", "KH")), multiplier(("2H", "9D", "KH")), multiplier(("2H", "9S", "KH"))
    (5, 3, 2)
    >>> multiplier(("2H", "9S", "KD")), multiplier(("2S", "9C", "KC"))
    (1, 3)
    """
    a, b, c = (SUIT[x] for x in cards)
    if a == b == c:
        return 5
    if (a in RED) == (b in RED) == (c in RED):
        return 3
    if a == b or b == c or a == c:
        return 2
    return 1


def line_value(cards: Sequence[str], way: str) -> int:
    """The value of a full line of three cards for the player scoring `way`.

    A Vampire anywhere in the line makes it worth 0.
    """
    if any(c in VAMPIRES for c in cards):
        return 0
    values = VALUE[way]
    return sum(values[c] for c in cards) * multiplier(cards)


def line_values(grid: Sequence[str], way: str) -> list[int]:
    """The three line values of a full coffin (9 codes, row by row) for `way`.

    A Vampire zeroes its row and its column, for both ways.

    >>> grid = ["QH", "10H", "5H", "2S", "V1", "KC", "AD", "3D", "KD"]
    >>> line_values(grid, "Q"), line_values(grid, "K")
    ([125, 0, 20], [3, 0, 25])
    """
    return [line_value([grid[i] for i in line], way) for line in LINES[way]]


def line_detail(cards: Sequence[str | None], way: str) -> dict[str, Any]:
    """How a line scores for `way` so far, as JSON-ready data (`cards` may
    hold None for empty cells): each card's value, their sum, the multiplier
    (of a full line; so far at least: 2 for two of a suit, else 1; None with
    a Vampire) and the value (of a full line; 0 with a Vampire; else None).

    >>> d = line_detail(("QH", "10H", "5H"), "Q")
    >>> d["state"], d["values"], d["sum"], d["multiplier"], d["value"]
    ('full', [10, 10, 5], 25, 5, 125)
    >>> d = line_detail(("QH", None, "5H"), "K")
    >>> d["state"], d["values"], d["sum"], d["multiplier"], d["value"]
    ('open', [0, None, 5], 5, 2, None)
    >>> line_detail(("KS", "V1", None), "K")["state"], line_detail((None,) * 3, "K")["state"]
    ('vampire', 'empty')
    """
    placed = [c for c in cards if c is not None]
    total = sum(VALUE[way][c] for c in placed)
    factor: int | None
    if any(c in VAMPIRES for c in placed):
        state, factor, value = "vampire", None, 0
    elif len(placed) == 3:
        factor = multiplier(placed)
        state, value = "full", total * factor
    else:
        two = len(placed) == 2 and SUIT[placed[0]] == SUIT[placed[1]]
        state, factor, value = ("open" if placed else "empty"), (2 if two else 1), None
    return {"state": state, "cards": list(cards),
            "values": [None if c is None else VALUE[way][c] for c in cards],
            "sum": total, "multiplier": factor, "value": value}


def scored_rank(lines_a: list[int], lines_b: list[int]) -> int:
    """Which line each player scores by the tie rule: 0 the best, 1 the
    second-best (the best are equal), 2 the third-best.

    >>> scored_rank([30, 60, 10], [45, 0, 0]), scored_rank([60, 40, 10], [60, 20, 20])
    (0, 1)
    """
    a = sorted(lines_a, reverse=True)
    b = sorted(lines_b, reverse=True)
    i = 0
    while i < 2 and a[i] == b[i]:
        i += 1
    return i


def deal_scores(lines_a: list[int], lines_b: list[int]) -> tuple[int, int]:
    """What two players score from their line values, with the tie rule.

    Each scores his best line; if the two best are equal, each scores his
    second-best; if those are equal too, each scores his third-best.

    >>> deal_scores([30, 60, 10], [45, 0, 0])
    (60, 45)
    >>> deal_scores([60, 40, 10], [60, 20, 20])
    (40, 20)
    >>> deal_scores([60, 40, 10], [40, 60, 5])
    (10, 5)
    """
    i = scored_rank(lines_a, lines_b)
    return sorted(lines_a, reverse=True)[i], sorted(lines_b, reverse=True)[i]


def sort_cards(cards: Iterable[str]) -> tuple[str, ...]:
    """Cards in pack order: spades, hearts, diamonds, clubs (Ace to King), Vampires."""
    return tuple(sorted(cards, key=ORDER.__getitem__))


def card_name(card: str) -> str:
    """An English name for a card code.

    >>> card_name("QH"), card_name("10S"), card_name("V2")
    ('Queen of hearts', '10 of spades', 'Vampire')
    """
    if card in VAMPIRES:
        return "Vampire"
    rank = card[:-1]
    return f"{RANK_NAME.get(rank, rank)} of {SUIT_NAME[card[-1]]}"
