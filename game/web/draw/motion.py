"""Motion: a played card travels to its place, a finished trick
slides to its winner, the duel's gifts cross the table, a Transformation's
cards visibly stay, Dracula's card flies to its cell.

Planned by the game's table (its `motion`) from the events the person at the
screen sees (`state.events(seat)`): a card never shown is never named, and a
card that ends face down travels as a card back. The plan goes to the page with the
next frame (game.web.draw.frames) as plain data, and the page's front plays it
(game.web.front.motion).
"""

from __future__ import annotations

from typing import Any, Iterable

from game.web.draw.tables import TABLES, renderer
from game.web.draw.tables.common import Event, Move, Plan

__all__ = ["Course", "Event", "Move", "Plan", "plan"]


def plan(game: str, events: Iterable[Event], me: Any) -> Plan:
    """The moves an action's `events` (as `me` sees them) show, and the cards that
    stay on show for now and leave the table at a later redraw (a finished trick):
    the game's table plans them (its `motion`)."""
    return renderer(game).motion(events, me) if game in TABLES else ([], {})


class Course:
    """What the next redraw shows moving: `note` each action's events,
    `take` the moves with the next frame. A finished trick stays on show
    until a card moves again, then leaves for its winner."""

    def __init__(self) -> None:
        self.moves: list[Move] = []
        self.leaving: dict[str, str] = {}

    def note(self, game: str, events: list[Event], me: Any) -> None:
        moves, leaving = plan(game, events, me)
        if not (moves or leaving):  # no card moved (a designation): a finished trick stays
            self.moves = []
            return
        self.moves = [Move(c, to, kind="leave") for c, to in self.leaving.items()] + moves
        self.leaving = leaving

    def take(self) -> list[dict[str, Any]]:
        moves, self.moves = self.moves, []
        return [m.data() for m in moves]

    def reset(self) -> None:
        """A table not reached by play (an undo, a new game): nothing to show moving."""
        self.moves, self.leaving = [], {}
