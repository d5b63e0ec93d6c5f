"""Exact values of the rest of a round in one world (every card known), for
the card games' last tricks: minimax by alpha-beta between two sides, with
a transposition table, so that a position reached by two orders of play is
valued once.

A game's endgame module subclasses `AlphaBeta` and says where its search
stops (`done`), what a stopped position is worth to the maximising side
(`worth`, 0 to 1: the search's own utility), whose decision a position is
(`maximises`) and what the rest of the round depends on (`key`). The moves
are the state's own (`legal_actions`, `apply`): no rule is re-implemented.
"""

from __future__ import annotations

import math
from typing import Generic, Hashable, Protocol, Self, TypeVar

Bounds = tuple[float, float]  # what is known of a position's value: low <= value <= high


class _Position(Protocol):
    def legal_actions(self) -> list[str]: ...

    def apply(self, action: str) -> Self: ...


S = TypeVar("S", bound=_Position)


class AlphaBeta(Generic[S]):
    """One world's search, position by position, with a table shared by
    every position valued from it (`value` may be called on any of them).
    `window`: the values `worth` can take, so a sure win or loss cuts off."""

    def __init__(self, window: Bounds = (-math.inf, math.inf)) -> None:
        self.window = window
        self.table: dict[Hashable, Bounds] = {}
        self.nodes = 0  # positions searched, for speed measurements

    def done(self, state: S) -> bool:
        raise NotImplementedError

    def worth(self, state: S) -> float:
        raise NotImplementedError

    def maximises(self, state: S) -> bool:
        raise NotImplementedError

    def key(self, state: S) -> Hashable:
        raise NotImplementedError

    def value(self, state: S) -> float:
        """`state`'s exact worth to the maximising side."""
        return self._search(state, *self.window)

    def _search(self, state: S, alpha: float, beta: float) -> float:
        self.nodes += 1
        if self.done(state):
            return self.worth(state)
        key = self.key(state)
        low, high = self.table.get(key, (-math.inf, math.inf))
        if low >= beta or low == high:
            return low
        if high <= alpha:
            return high
        alpha, beta = max(alpha, low), min(beta, high)
        maximising = self.maximises(state)
        best = -math.inf if maximising else math.inf
        a, b = alpha, beta
        for action in state.legal_actions():
            v = self._search(state.apply(action), a, b)
            if maximising:
                best = max(best, v)
                a = max(a, v)
            else:
                best = min(best, v)
                b = min(b, v)
            if a >= b:
                break
        # Outside the window the answer is only a bound on the true value.
        if best <= alpha:
            high = best
        elif best >= beta:
            low = best
        else:
            low = high = best
        self.table[key] = (low, high)
        return best
