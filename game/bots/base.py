"""The one interface every bot (and the human at the screen) sits behind.

A bot sees only its player's observation and the legal actions, and owns
its own `random.Random`: it never touches the state, so it cannot cheat.
"""

from __future__ import annotations

import random
from typing import Any, Protocol


class Bot(Protocol):
    """Chooses one of `legal` from what its player may see."""

    name: str

    def choose(self, observation: dict[str, Any], legal: list[str], rng: random.Random,
               deadline: float | None = None) -> str:
        """Return one action of `legal`; `deadline` is a `time.monotonic()` bound."""
        ...


class RandomBot:
    """Uniform over the legal actions: the baseline and the fuzz driver."""

    name = "random"

    def choose(self, observation: dict[str, Any], legal: list[str], rng: random.Random,
               deadline: float | None = None) -> str:
        return rng.choice(legal)


class EasyBot:
    """A gentler opponent: the game's heuristic, but a share of its moves random."""

    name = "easy"
    default_random_share = 0.3  # a game's bots module may set its own (EASY_RANDOM_SHARE)

    def __init__(self, heuristic: Bot, random_share: float = default_random_share) -> None:
        self.heuristic = heuristic
        self.random_share = random_share

    def choose(self, observation: dict[str, Any], legal: list[str], rng: random.Random,
               deadline: float | None = None) -> str:
        if rng.random() < self.random_share:
            return rng.choice(legal)
        return self.heuristic.choose(observation, legal, rng, deadline)
