"""Seeded randomness that replays identically on every platform.

Each deal of a game gets its own generator derived from the game's seed and
the deal's number, so a state never has to carry a generator's internal
state to be saved or copied: `(seed, deal number)` is enough.
"""

from __future__ import annotations

import random
import secrets


def fresh_seed() -> int:
    """A new seed for a game started without one (recorded in the state)."""
    return secrets.randbelow(2**31)


def deal_rng(game_id: str, seed: int, deal_number: int) -> random.Random:
    """The generator for deal `deal_number` (0-based) of a game.

    String seeds are hashed with SHA-512 by `random.Random`, which is the
    same on CPython and Pyodide.

    >>> deal_rng("x", 7, 0).random() == deal_rng("x", 7, 0).random()
    True
    >>> deal_rng("x", 7, 0).random() == deal_rng("x", 7, 1).random()
    False
    """
    return random.Random(f"{game_id}/{seed}/{deal_number}")


def shuffled(cards: list[str] | tuple[str, ...], rng: random.Random) -> list[str]:
    """A shuffled copy of `cards`."""
    deck = list(cards)
    rng.shuffle(deck)
    return deck
