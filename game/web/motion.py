"""Motion (issue 15): a played card travels to its place, a finished trick
slides to its winner, the duel's gifts cross the table, a Transformation's
cards visibly stay, Dracula's card flies to its cell.

Planned here from the events the person at the screen sees
(`state.events(seat)`): a card never shown is never named, and a card that
ends face down travels as a card back. The plan goes to the page with the
next frame (game.web.frames) as plain data, and the page's front plays it
(game.web.front.motion).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterable

Event = dict[str, Any]


@dataclass(frozen=True)
class Move:
    """One card's travel to the element `to`.

    "arrive": the card's new element (`to [data-card=…]`) comes from the box its
    old element had inside `src`, or else (`seat`) from the box of `src` in the
    new table: the hand it came from. "leave": the card left the table: a copy
    of its old element flies to `to`. "back": the card went face down into
    `to` (a card back there): a back flies from its old box.
    """
    card: str
    to: str
    src: str = ""
    kind: str = "arrive"
    seat: bool = False

    def data(self) -> dict[str, Any]:
        """As a frame carries it (game.web.front.motion plays it)."""
        return {"card": self.card, "to": self.to, "src": self.src, "kind": self.kind,
                "seat": self.seat}


# -- planning: events -> moves (pure, tested in CPython) -------------------------------

Plan = tuple[list[Move], dict[str, str]]  # moves now; cards leaving later -> where to


def _jekyll_hyde(events: Iterable[Event], me: Any) -> Plan:
    moves: list[Move] = []
    leaving: dict[str, str] = {}
    for ev in events:
        kind = ev["kind"]
        if kind == "played":  # a designated player plays for the designator: from its hand
            src = ev["from"]
            origin = ".hand.mine" if src == me else f'[data-seat="{src}"]'
            moves.append(Move(ev["card"], f'[data-slot="{ev["seat"]}"]', origin, seat=True))
        elif kind == "trick_won":  # shown until the next lead, then off to its winner
            leaving = {c: f'[data-seat="{ev["winner"]}"]' for c in ev["taken"]}
        elif kind == "transformation":  # the cards stay: into the row carried on
            moves += [Move(c, ".carried", "[data-slot]") for c in ev["staying"]]
    return moves, leaving


def _jekyll_vs_hyde(events: Iterable[Event], me: Any) -> Plan:
    opp = "H" if me == "J" else "J"
    seat = f'.jvh-seat[data-role="{opp}"]'
    moves: list[Move] = []
    leaving: dict[str, str] = {}
    for ev in events:
        kind = ev["kind"]
        if kind == "played":
            p = ev["player"]
            origin = ".hand.mine" if p == me else f'.jvh-seat[data-role="{p}"]'
            moves.append(Move(ev["card"], f'[data-slot="{p}"]', origin, seat=True))
        elif kind == "exchange":  # the gifts (or a green swap) cross the table
            moves += [Move(c, seat + " .back", ".hand.mine", "back") for c in ev[me]]
            moves += [Move(c, ".hand.mine", seat, seat=True) for c in ev[opp]]
        elif kind == "trick_won":
            leaving = {c: f'.jvh-seat[data-role="{ev["winner"]}"] .jvh-pile'
                       for c in ev["cards"]}
    return moves, leaving


def _dracula(events: Iterable[Event], me: Any) -> Plan:
    moves = [Move(ev["card"], f'[data-cell="{ev["cell"]}"]',
                  ".dr-hand" if ev["player"] == me else f'.plate[data-player="{ev["player"]}"]',
                  seat=True)
             for ev in events if ev["kind"] == "placed"]
    return moves, {}


PLANNERS: dict[str, Callable[[Iterable[Event], Any], Plan]] = {
    "jekyll-hyde": _jekyll_hyde, "jekyll-vs-hyde": _jekyll_vs_hyde, "dracula": _dracula}


def plan(game: str, events: Iterable[Event], me: Any) -> Plan:
    """The moves an action's `events` (as `me` sees them) show, and the cards that
    stay on show for now and leave the table at a later redraw (a finished trick)."""
    planner = PLANNERS.get(game)
    return planner(events, me) if planner else ([], {})


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
