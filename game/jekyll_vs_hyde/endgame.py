"""The duel's last tricks played exactly, in one world (every card known).

`value(world)` is the round's worth to Jekyll (the search's `utility`, 0 to
1) when both players play the rest of the round perfectly in that world:
minimax by alpha-beta (`game.bots.exact`), Jekyll maximising and Hyde
minimising, with a transposition table over normalised states (only what the rest of the round
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

from typing import Any

from game.bots.exact import AlphaBeta
from game.jekyll_vs_hyde.rules import TRACK_END, JekyllVsHydeState


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


class Endgame(AlphaBeta[JekyllVsHydeState]):
    """One world's round, solved position by position with a shared table;
    Jekyll maximises."""

    def __init__(self, root: JekyllVsHydeState) -> None:
        super().__init__()
        self.root = root

    def done(self, state: JekyllVsHydeState) -> bool:
        return at_horizon(self.root, state)

    def worth(self, state: JekyllVsHydeState) -> float:
        return utility(self.root, state, "J")

    def maximises(self, state: JekyllVsHydeState) -> bool:
        return state._to_act == 0

    def key(self, state: JekyllVsHydeState) -> tuple[Any, ...]:
        return _key(state)


def _key(s: JekyllVsHydeState) -> tuple[Any, ...]:
    """What the rest of the round depends on (not the cards of the tricks won:
    only how many; not the round's earlier tricks: only how many were played)."""
    return (s.hands, s.phase, s._to_act, s.leader, s.plays, s.named, s.ranking,
            len(s.piles[0]), len(s.piles[1]), len(s.played), s.pending, s.trick_winner)
