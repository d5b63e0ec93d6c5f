"""Motion played (issue 15): only a picture over a table that is already
there. The page redraws at once and stays clickable; right after each
redraw the cards the last action moved (planned by game.web.draw.motion and
carried by the frame) are animated (FLIP, with the Web Animations API) from
where they were (the old element's box, or the seat they came from) to
where they are now. Short; any click or key finishes them (`finish`); none
at all under `prefers-reduced-motion: reduce`. (MicroPython's subset: see
game.web.front.)"""

import json

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

DURATION = 250  # milliseconds: short enough never to feel like waiting
REDUCED = "(prefers-reduced-motion: reduce)"
# z-index 10: over the table (whose parts go up to 3), under a dialog (20): a
# card's last flight never crosses the summary that opens as it lands.
COPY_STYLE = ("position:fixed;margin:0;z-index:10;pointer-events:none;box-sizing:border-box;"
              "opacity:0;transform:none;left:{:.1f}px;top:{:.1f}px;width:{:.1f}px;"
              "height:{:.1f}px")  # opacity 0: invisible once its animation ends


def rect(el: "Any") -> "tuple[float, float, float, float]":
    """An element's box: left, top, width, height."""
    r = el.getBoundingClientRect()
    return float(r.left), float(r.top), float(r.width), float(r.height)


def centre(r: "tuple[float, float, float, float]") -> "tuple[float, float]":
    return r[0] + r[2] / 2, r[1] + r[3] / 2


def travel(start: "tuple[float, float, float, float]",
           end: "tuple[float, float, float, float]") -> str:
    """The CSS transform that puts a box drawn at `end` onto `start` (scaled
    about its centre, the default transform origin).

    >>> travel((0, 0, 50, 80), (100, 40, 100, 160))
    'translate(-125.0px, -80.0px) scale(0.5, 0.5)'
    """
    (sx, sy), (ex, ey) = centre(start), centre(end)
    return "translate({:.1f}px, {:.1f}px) scale({:.3g}, {:.3g})".format(
        sx - ex, sy - ey, start[2] / max(end[2], 1), start[3] / max(end[3], 1))


def inside(el: "Any", selector: str) -> bool:
    found = el.closest(selector)
    return found is not None and bool(found)  # JS null: None, or Pyodide's falsy jsnull


class Motion:
    """The page's motion: the moves a frame brings (`moves`: game.web.draw.motion's
    `Move.data()`), played `before` and `after` each redraw of the table,
    `finish`ed on any click or key."""

    def __init__(self, window: "Any") -> None:
        self.window = window
        self.moves: "list[dict[str, Any]]" = []
        # card -> its elements and boxes (a card may show twice: in a trick and a row)
        self.old: "dict[str, list[tuple[Any, tuple[float, float, float, float]]]]" = {}
        self.running: "list[tuple[Any, str, Any]]" = []  # animation, card, copy
        self.resuming: "dict[str, float]" = {}  # card -> ms left, across a redraw

    def reset(self) -> None:
        """A table not reached by play (an undo, a new game): nothing to show moving."""
        self.moves = []
        self.finish()

    def finish(self) -> None:
        """Jump every card to its place now (a click, a key)."""
        for animation, _card, copy in self.running:
            animation.finish()
            if copy is not None:
                copy.remove()
        self.running = []

    def before(self, root: "Any") -> None:
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
        cards = set(self.resuming)
        for move in self.moves:
            cards.add(move["card"])
        for card in cards:  # only those: cheap
            self.old[card] = [(el, rect(el))
                              for el in root.querySelectorAll('[data-card="' + card + '"]')]

    def after(self, root: "Any") -> None:
        """After a redraw: animate what the last action moved, and what was on its way."""
        moves, self.moves = self.moves, []
        resuming, self.resuming = self.resuming, {}
        if not (moves or resuming) or self.window.matchMedia(REDUCED).matches:
            self.old = {}
            return
        for move in moves:
            resuming.pop(move["card"], None)
            if move["kind"] == "arrive":
                self.arrive(root, move)
            else:
                self.send(root, move)
        for card, left in resuming.items():
            old = self.was(card)
            el = root.querySelector('[data-card="' + card + '"]')
            if old is not None and el and left > 0:
                self.animate(el, card, old[1], rect(el), left)
        self.old = {}

    def was(self, card: str, within: str = "") -> "tuple[Any, tuple[float, float, float, float]] | None":
        """The card's element and box before the redraw (the first one inside `within`)."""
        for old in self.old.get(card, ()):
            if not within or inside(old[0], within):
                return old
        return None

    def arrive(self, root: "Any", move: "dict[str, Any]") -> None:
        card = move["card"]
        el = root.querySelector(move["to"] + ' [data-card="' + card + '"]')
        if not el:
            return
        end = rect(el)
        old = self.was(card, move["src"])
        if old is not None:
            start = old[1]
        elif move["seat"] and root.querySelector(move["src"]):
            x, y = centre(rect(root.querySelector(move["src"])))  # out of that hand
            start = (x - end[2] * .3, y - end[3] * .3, end[2] * .6, end[3] * .6)
        else:
            return
        self.animate(el, card, start, end, DURATION)

    def send(self, root: "Any", move: "dict[str, Any]") -> None:
        """A copy flies from the card's old box into `to`: the card itself
        ("leave": it left the table), or a card back ("back")."""
        card = move["card"]
        target = root.querySelector(move["to"])
        if move["kind"] == "leave":
            if root.querySelector('[data-card="' + card + '"]'):
                return  # still on the table
            old = self.was(card)
            if old is None or not target:
                return
            copy = old[0].cloneNode(True)
            for name in ("data-card", "data-act", "data-part", "id", "title"):
                copy.removeAttribute(name)
        else:
            old = self.was(card, move["src"])
            if old is None or not target:
                return
            copy = target.cloneNode(True)  # a back: the card is not named
        start, end = old[1], rect(target)
        copy.setAttribute("aria-hidden", "true")
        copy.setAttribute("tabindex", "-1")
        copy.classList.add("motion-copy")
        copy.setAttribute("style", COPY_STYLE.format(start[0], start[1], start[2], start[3]))
        self.window.document.body.appendChild(copy)
        (x, y), w, h = centre(end), start[2] * .4, start[3] * .4  # into it, shrinking evenly
        shrink = (x - w / 2, y - h / 2, w, h)
        frames: "list[dict[str, Any]]" = [{"transform": "none", "opacity": 1},
                                          {"transform": travel(shrink, start), "opacity": 1}]
        animation = self.run(copy, card, frames, DURATION, copy)
        animation.onfinish = copy.remove.bind(copy)  # gone once there (a JS function: no proxy)

    def animate(self, el: "Any", card: str, start: "tuple[float, float, float, float]",
                end: "tuple[float, float, float, float]", ms: float) -> None:
        # Under a dialog too: the last card of a hand lands on the table behind its summary.
        frames: "list[dict[str, Any]]" = [{"transform": travel(start, end), "zIndex": 10},
                                          {"zIndex": 10}]
        self.run(el, card, frames, ms, None)

    def run(self, el: "Any", card: str, frames: "list[dict[str, Any]]", ms: float,
            copy: "Any") -> "Any":
        parse = self.window.JSON.parse
        timing = {"duration": round(min(ms, DURATION)), "easing": "ease-out", "id": "motion"}
        animation = el.animate(parse(json.dumps(frames)), parse(json.dumps(timing)))
        self.running.append((animation, card, copy))
        return animation
