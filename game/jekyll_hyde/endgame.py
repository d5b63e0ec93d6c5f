"""Werner's last tricks played exactly, in one world (every card known).

`value(world)` is the rest of the hand's worth to the Jekyll team (the
search's `utility`, 0 to 1: the hand-score difference, scaled) when all
seats play it perfectly in that world: minimax by alpha-beta over the two
teams (`game.bots.exact`), with a transposition table over normalised
states (only what the rest of the hand depends on, see `Endgame.key`), so a
position reached by two orders of play is valued once. The rules are the state's own
(`legal_actions`, `apply`): nothing is re-implemented here.

Each decision belongs to the team of the seat that makes it (`to_act`), not
of the seat on turn: a designated opponent picks the card he gives to
minimise the other team's worth, and with 3 players the soloist decides for
the ghost (both Hyde). Jekyll's team maximises, Hyde's minimises; partners
are one side, as if they shared every card, which in one known world they
do.

The search bot uses it through `search.solver` on worlds sampled from its
observation (never the real deal, except the cheater's), in the last tricks
of a hand (`search.exact_at`).
"""

from __future__ import annotations

from typing import Any

from game.bots.exact import AlphaBeta
from game.jekyll_hyde.cards import MULTIPLIER, POINTS
from game.jekyll_hyde.rules import JekyllHydeState

Tally = tuple[int, int, int]  # points, Jekyll multipliers, Hyde multipliers of a heap of cards

SCORE_SCALE = 250.0  # a hand-score difference that counts as a sure win


def at_horizon(root: JekyllHydeState, state: JekyllHydeState) -> bool:
    """The search (and this solver) stops when the hand it started in is scored."""
    return state.hand_number != root.hand_number or state._to_act is None


def utility(root: JekyllHydeState, state: JekyllHydeState, seat: int) -> float:
    """How good the finished hand is for `seat`'s team, from 0 to 1."""
    score: dict[str, int] = state.history[len(root.history)]["score"]
    team = root.table.side[seat]
    mine, theirs = (score["jekyll"], score["hyde"]) if team == 0 else (score["hyde"], score["jekyll"])
    return min(1.0, max(0.0, 0.5 + (mine - theirs) / (2 * SCORE_SCALE)))


def value(world: JekyllHydeState) -> float:
    """The hand's exact worth to the Jekyll team from `world` on (see the module)."""
    return Endgame(world).value(world)


class Endgame(AlphaBeta[JekyllHydeState]):
    """One world's hand, solved position by position with a shared table;
    the Jekyll team maximises, in the utility's range (a sure win cuts off)."""

    def __init__(self, root: JekyllHydeState) -> None:
        super().__init__(window=(0.0, 1.0))
        self.root = root
        self.jekyll_seat = root.table.side.index(0)  # whose utility is the Jekyll team's
        self.tallies: dict[tuple[str, ...], Tally] = {}  # the same heaps recur in many positions

    def done(self, state: JekyllHydeState) -> bool:
        return at_horizon(self.root, state)

    def worth(self, state: JekyllHydeState) -> float:
        return utility(self.root, state, self.jekyll_seat)

    def maximises(self, state: JekyllHydeState) -> bool:
        assert state._to_act is not None  # not done
        return state.table.side[state._to_act] == 0

    def key(self, s: JekyllHydeState) -> tuple[Any, ...]:
        """What the rest of the hand depends on: the hands, whose turn and who
        was designated, the trick under way (seats and cards, not whose hand
        each came from), how many tricks are left, and of the cards taken or
        left on the table only what the score reads: their points and each
        side's multipliers. (Who acts follows from the turn and the designated
        seat.)"""
        return (s.hands, s.turn, s.designated, tuple((seat, card) for seat, card, _ in s.plays),
                len(s.tricks), self._tally(s.carried), self._tally(s.won[0]),
                self._tally(s.won[1]))

    def _tally(self, cards: tuple[str, ...]) -> Tally:
        """What a heap of cards adds to a team's score: its points, and the
        multipliers of its Jekyll and its Hyde actions (a team counts only its own)."""
        tally = self.tallies.get(cards)
        if tally is None:
            tally = self.tallies[cards] = (
                sum(POINTS[c] for c in cards), sum(MULTIPLIER[c] for c in cards if c[0] == "J"),
                sum(MULTIPLIER[c] for c in cards if c[0] == "H"))
        return tally
