"""The duel's last tricks played exactly, in one world (every card known).

`value(world)` is the round's worth to Jekyll (the search's `utility`, 0 to
1) when both players play the rest of the round perfectly in that world:
minimax by alpha-beta, Jekyll maximising and Hyde minimising, with a
transposition table over normalised states (only what the rest of the round
depends on: the hands, the trick under way, the colour ranking, the trick
counts, whose turn), so a position reached by two orders of play is valued
once. The rules are the state's own (`legal_actions`, `apply`): nothing is
re-implemented here. A green Potion's swap, a hidden simultaneous choice in
the game, is taken in turn (Hyde's choice knowing Jekyll's), as a
determinized search does.

The search bot uses it through `search.solver` on worlds sampled from its
observation (never the real deal, except the cheater's), once each hand
holds at most a few cards (`search.exact_at`).
"""

from __future__ import annotations

import math
from typing import Any, Callable

from game.jekyll_vs_hyde.rules import TRACK_END, JekyllVsHydeState

Bounds = tuple[float, float]  # what is known of a position's value: low <= value <= high


def at_horizon(root: JekyllVsHydeState, state: JekyllVsHydeState) -> bool:
    """The search (and this solver) stops when the round it started in is over."""
    return len(state.history) > len(root.history) or state._to_act is None


def utility(root: JekyllVsHydeState, state: JekyllVsHydeState, role: str) -> float:
    """How good the finished round is for `role`, from 0 to 1."""
    entry = state.history[len(root.history)]
    marker = entry["marker"]
    if marker >= TRACK_END:
        jekyll = 0.0
    elif entry["round"] == 3:
        jekyll = 0.95 + 0.05 * (1 - entry["moved"] / TRACK_END)
    else:
        jekyll = 1.0 - marker / TRACK_END
    return jekyll if role == "J" else 1.0 - jekyll


def value(world: JekyllVsHydeState) -> float:
    """The round's exact worth to Jekyll from `world` on (see the module)."""
    return Endgame(world).value(world)


class Endgame:
    """One world's round, solved position by position with a shared table."""

    def __init__(self, root: JekyllVsHydeState) -> None:
        self.root = root
        self.at_horizon: Callable[[Any, Any], bool] = at_horizon
        self.utility: Callable[[Any, Any, str], float] = utility
        self.table: dict[tuple[Any, ...], Bounds] = {}
        self.nodes = 0  # positions searched, for speed measurements

    def value(self, state: JekyllVsHydeState) -> float:
        return self._search(state, -math.inf, math.inf)

    def _search(self, state: JekyllVsHydeState, alpha: float, beta: float) -> float:
        self.nodes += 1
        if self.at_horizon(self.root, state):
            return self.utility(self.root, state, "J")
        key = _key(state)
        low, high = self.table.get(key, (-math.inf, math.inf))
        if low >= beta or low == high:
            return low
        if high <= alpha:
            return high
        alpha, beta = max(alpha, low), min(beta, high)
        jekyll = state._to_act == 0
        best = -math.inf if jekyll else math.inf
        a, b = alpha, beta
        for action in state.legal_actions():
            v = self._search(state.apply(action), a, b)
            if jekyll:
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


def _key(s: JekyllVsHydeState) -> tuple[Any, ...]:
    """What the rest of the round depends on (not the cards of the tricks won:
    only how many; not the round's earlier tricks: only how many were played)."""
    return (s.hands, s.phase, s._to_act, s.leader, s.plays, s.named, s.ranking,
            len(s.piles[0]), len(s.piles[1]), len(s.played), s.pending, s.trick_winner)
