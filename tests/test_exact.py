"""The games' exact endgames share one alpha-beta (game.bots.exact): checked
here on a game small enough to know by heart, the one-pile take-away game.
Each game's own solver is checked against plain minimax in its tests."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from game.bots.exact import AlphaBeta


@dataclass(frozen=True)
class Pile:
    """Take 1 or 2 counters; who takes the last wins. Player 0 maximises."""

    counters: int
    to_move: int = 0

    def legal_actions(self) -> list[str]:
        return [str(n) for n in (1, 2) if n <= self.counters]

    def apply(self, action: str) -> "Pile":
        return Pile(self.counters - int(action), 1 - self.to_move)


class Solver(AlphaBeta[Pile]):
    def done(self, state: Pile) -> bool:
        return state.counters == 0

    def worth(self, state: Pile) -> float:
        return 1.0 if state.to_move == 1 else 0.0  # player 0 took the last

    def maximises(self, state: Pile) -> bool:
        return state.to_move == 0

    def key(self, state: Pile) -> tuple[int, int]:
        return state.counters, state.to_move


@pytest.mark.parametrize("window", [(float("-inf"), float("inf")), (0.0, 1.0)])
def test_a_pile_is_lost_by_the_player_to_move_when_it_is_a_multiple_of_three(window):
    for counters in range(1, 25):
        for to_move in (0, 1):
            solver = Solver(window)
            wins_for_mover = counters % 3 != 0
            expected = 1.0 if wins_for_mover == (to_move == 0) else 0.0
            assert solver.value(Pile(counters, to_move)) == expected, (counters, to_move)


def test_the_table_values_a_position_once():
    solver = Solver()
    solver.value(Pile(24))
    assert solver.nodes < 3 * 25 * 2  # each of the 50 positions a few times, not ~10**5
    again = solver.nodes
    solver.value(Pile(24))
    assert solver.nodes == again + 1  # known: read from the table
