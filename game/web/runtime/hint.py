"""The hint: the 1 s search's choice for the person's own decision (the
expert level's bot in every game).

Pure Python (no browser import), so CPython tests run it as the page does.
A hint is computed from the person's observation alone: `Hint` is handed
`state.observation(seat)` and takes the legal actions from it
(`observation["legal"]`); it never receives the state, so it cannot reveal a
hidden card.  The page advances it in short slices (`step`) and yields to the
browser between them; it stops at its budget (1 s) or when
the person acts meanwhile (the shell drops it).
"""

from __future__ import annotations

import random
import time
from typing import Any, Callable


class Hint:
    """One hint under way for `observation` (the person's)."""

    def __init__(self, observation: dict[str, Any], rng: random.Random,
                 clock: Callable[[], float] = time.monotonic, **bot_settings: Any) -> None:
        from game.bots.search import SearchBot

        self.legal = list(observation["legal"])
        bot = SearchBot(clock=clock, **bot_settings)
        self.clock = clock
        self.end = clock() + bot.budget
        self.search = bot.start(observation, rng) if len(self.legal) > 1 else None

    def done(self) -> bool:
        return self.search is None or self.search.done(self.end)

    def step(self, seconds: float) -> None:
        """Think for about `seconds` (one slice)."""
        if self.search is not None:
            self.search.step(self.clock() + seconds, self.end)

    def best(self) -> str:
        return self.legal[0] if self.search is None else self.search.best(self.legal)

    @property
    def iterations(self) -> int:
        return 0 if self.search is None else self.search.iterations


def suggest(observation: dict[str, Any], rng: random.Random, **bot_settings: Any) -> str:
    """The hint in one go (CPython tests and benchmarks)."""
    hint = Hint(observation, rng, **bot_settings)
    while not hint.done():
        hint.step(0.05)
    return hint.best()


def hint_rng(seed: Any, n_actions: int) -> random.Random:
    """The hint's own random numbers: the same hint for the same position of a game."""
    return random.Random(f"hint:{seed}:{n_actions}")
