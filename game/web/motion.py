"""Motion (issue 15): a played card travels to its place, a finished trick
slides to its winner, the duel's gifts cross the table, a Transformation's
cards visibly stay, Dracula's card flies to its cell.

Only a picture over a table that is already there: the shell redraws at once
and stays clickable; right after each redraw the cards the engine's last
events moved are animated (FLIP, with the Web Animations API) from where they
were (the old element's box, or the seat they came from) to where they are
now. Short; any click or key finishes them (`finish`); none at all under
`prefers-reduced-motion: reduce`. Planned from the events the person at the
screen sees (`state.events(seat)`): a card never shown is never named, and a
card that ends face down travels as a card back.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Callable, Iterable

JsObject = Any  # a JavaScript object seen through Pyodide: untyped for mypy
Rect = tuple[float, float, float, float]  # left, top, width, height
Event = dict[str, Any]

DURATION = 250  # milliseconds: short enough never to feel like waiting
REDUCED = "(prefers-reduced-motion: reduce)"
# z-index 10: over the table (whose parts go up to 3), under a dialog (20): a
# card's last flight never crosses the summary that opens as it lands.
COPY_STYLE = ("position:fixed;margin:0;z-index:10;pointer-events:none;box-sizing:border-box;"
              "opacity:0;transform:none;left:{:.1f}px;top:{:.1f}px;width:{:.1f}px;"
              "height:{:.1f}px")  # opacity 0: invisible once its animation ends


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


# -- playing: moves -> animations (in the page) --------------------------------------

def _rect(el: JsObject) -> Rect:
    r = el.getBoundingClientRect()
    return float(r.left), float(r.top), float(r.width), float(r.height)


def _centre(r: Rect) -> tuple[float, float]:
    return r[0] + r[2] / 2, r[1] + r[3] / 2


def travel(start: Rect, end: Rect) -> str:
    """The CSS transform that puts a box drawn at `end` onto `start` (scaled
    about its centre, the default transform origin).

    >>> travel((0, 0, 50, 80), (100, 40, 100, 160))
    'translate(-125.0px, -80.0px) scale(0.5, 0.5)'
    """
    (sx, sy), (ex, ey) = _centre(start), _centre(end)
    return (f"translate({sx - ex:.1f}px, {sy - ey:.1f}px) "
            f"scale({start[2] / max(end[2], 1):.3g}, {start[3] / max(end[3], 1):.3g})")


def _closest(el: JsObject, selector: str) -> bool:
    found = el.closest(selector)
    return found is not None and bool(found)  # JS null arrives as jsnull, which is falsy


class Motion:
    """The shell's motion: `note` an action's events, `before` and `after` each
    redraw of the table, `finish` on any click or key."""

    def __init__(self, window: JsObject) -> None:
        self.window = window
        self.moves: list[Move] = []
        self.leaving: dict[str, str] = {}
        # card -> its elements and boxes (a card may show twice: in a trick and a row)
        self.old: dict[str, list[tuple[JsObject, Rect]]] = {}
        self.running: list[tuple[JsObject, str, JsObject]] = []  # animation, card, copy
        self.resuming: dict[str, float] = {}  # card -> ms left, across a redraw

    def note(self, game: str, events: list[Event], me: Any) -> None:
        """An action was taken: its events say what the next redraw shows moving."""
        moves, leaving = plan(game, events, me)
        if not (moves or leaving):  # no card moved (a designation): a finished trick stays
            self.moves = []
            return
        self.moves = [Move(c, to, kind="leave") for c, to in self.leaving.items()] + moves
        self.leaving = leaving

    def reset(self) -> None:
        """A table not reached by play (an undo, a new game): nothing to show moving."""
        self.moves, self.leaving = [], {}
        self.finish()

    def finish(self) -> None:
        """Jump every card to its place now (a click, a key)."""
        for animation, _card, copy in self.running:
            animation.finish()
            if copy is not None:
                copy.remove()
        self.running = []

    def before(self, root: JsObject) -> None:
        """Before a redraw: where the cards about to move are (mid-flight ones too)."""
        self.old, self.resuming = {}, {}
        busy = []
        for animation, card, copy in self.running:
            if str(animation.playState) == "finished":
                if copy is not None:
                    copy.remove()
                continue
            busy.append((animation, card, copy))
            if copy is None:  # the element flying is about to be redrawn: resume it after
                total = float(animation.effect.getTiming().duration)
                self.resuming[card] = total - float(animation.currentTime or 0)
        self.running = busy
        for card in {m.card for m in self.moves} | set(self.resuming):  # only those: cheap
            self.old[card] = [(el, _rect(el))
                              for el in root.querySelectorAll(f'[data-card="{card}"]')]

    def after(self, root: JsObject) -> None:
        """After a redraw: animate what the last action moved, and what was on its way."""
        moves, self.moves = self.moves, []
        resuming, self.resuming = self.resuming, {}
        if not (moves or resuming) or self.window.matchMedia(REDUCED).matches:
            self.old = {}
            return
        for move in moves:
            resuming.pop(move.card, None)
            if move.kind == "arrive":
                self._arrive(root, move)
            else:
                self._send(root, move)
        for card, left in resuming.items():
            old = self._was(card)
            el = root.querySelector(f'[data-card="{card}"]')
            if old is not None and el and left > 0:
                self._animate(el, card, old[1], _rect(el), left)
        self.old = {}

    def _was(self, card: str, inside: str = "") -> tuple[JsObject, Rect] | None:
        """The card's element and box before the redraw (the first one inside `inside`)."""
        return next((old for old in self.old.get(card, ()) if not inside
                     or _closest(old[0], inside)), None)

    def _arrive(self, root: JsObject, move: Move) -> None:
        el = root.querySelector(f'{move.to} [data-card="{move.card}"]')
        if not el:
            return
        end = _rect(el)
        old = self._was(move.card, move.src)
        if old is not None:
            start = old[1]
        elif move.seat and root.querySelector(move.src):
            x, y = _centre(_rect(root.querySelector(move.src)))  # out of that hand
            start = (x - end[2] * .3, y - end[3] * .3, end[2] * .6, end[3] * .6)
        else:
            return
        self._animate(el, move.card, start, end, DURATION)

    def _send(self, root: JsObject, move: Move) -> None:
        """A copy flies from the card's old box into `to`: the card itself
        ("leave": it left the table), or a card back ("back")."""
        target = root.querySelector(move.to)
        if move.kind == "leave":
            if root.querySelector(f'[data-card="{move.card}"]'):
                return  # still on the table
            old = self._was(move.card)
            if old is None or not target:
                return
            copy = old[0].cloneNode(True)
            for name in ("data-card", "data-act", "data-part", "id", "title"):
                copy.removeAttribute(name)
        else:
            old = self._was(move.card, move.src)
            if old is None or not target:
                return
            copy = target.cloneNode(True)  # a back: the card is not named
        start, end = old[1], _rect(target)
        copy.setAttribute("aria-hidden", "true")
        copy.setAttribute("tabindex", "-1")
        copy.classList.add("motion-copy")
        copy.setAttribute("style", COPY_STYLE.format(*start))
        self.window.document.body.appendChild(copy)
        (x, y), w, h = _centre(end), start[2] * .4, start[3] * .4  # into it, shrinking evenly
        shrink = (x - w / 2, y - h / 2, w, h)
        frames: list[dict[str, Any]] = [{"transform": "none", "opacity": 1},
                                        {"transform": travel(shrink, start), "opacity": 1}]
        animation = self._run(copy, move.card, frames, DURATION, copy)
        animation.onfinish = copy.remove.bind(copy)  # gone once there (a JS function: no proxy)

    def _animate(self, el: JsObject, card: str, start: Rect, end: Rect, ms: float) -> None:
        # Under a dialog too: the last card of a hand lands on the table behind its summary.
        frames: list[dict[str, Any]] = [{"transform": travel(start, end), "zIndex": 10},
                                        {"zIndex": 10}]
        self._run(el, card, frames, ms, None)

    def _run(self, el: JsObject, card: str, frames: list[dict[str, Any]], ms: float,
             copy: JsObject) -> JsObject:
        parse = self.window.JSON.parse
        timing = {"duration": round(min(ms, DURATION)), "easing": "ease-out", "id": "motion"}
        animation = el.animate(parse(json.dumps(frames)), parse(json.dumps(timing)))
        self.running.append((animation, card, copy))
        return animation
