"""embed.html's front: a scripted example's step player — its buttons and
keys sent to the game, each step drawn, the table zoomed to fit — or a
live table, drawn and listened to as the site's own page does; or the
message that says why neither can be shown. The game (game.web.embed.game,
in the worker) says which with its first frame, `{"embed": ...}`. Nothing
here takes the focus or scrolls the page on load: an embed lives in its
reader's page. (MicroPython's subset: see game.web.front.)"""

from game.web.front.events import Events
from game.web.front.markup import put_markup
from game.web.front.steps import Player, command_of

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Callable

    from game.web.front.screen import Front

FIT_MIN = 0.5  # the smallest zoom a scripted example's table is drawn at
ALIASES = {"new": "restart"}  # the live table's "new game" is its own restart


class Embedded:
    """The embed's page: `front` applies the game's frames, `send` posts a
    message to the game."""

    def __init__(self, window: "Any", front: "Front", no_scroll: "Any",
                 send: "Callable[[dict[str, Any]], None]") -> None:
        self.window, self.front, self.send = window, front, send
        doc = self.doc = front.doc
        self.bar = doc.getElementById("ex-bar")
        self.screen = doc.getElementById("screen")
        front.players["example"] = Player(doc, no_scroll, self.screen,
                                          doc.getElementById("ex-caption"),
                                          doc.getElementById("ex-controls"), doc.body, self.fit)
        self.events: "Events | None" = None
        self.up = False

    def apply(self, frame: "dict[str, Any]") -> None:
        """A frame from the game."""
        if "embed" in frame:
            self.open(frame["embed"])
        else:
            self.front.apply(frame)
        if not self.up and ("view" in frame or "steps" in frame):
            self.ready()  # its first drawing is on the page

    def open(self, what: "dict[str, Any]") -> None:
        body = self.doc.body
        self.doc.documentElement.lang = what["lang"]
        body.setAttribute("data-lang", what["lang"])
        view = what["view"]
        if view == "error":
            put_markup(self.screen, what["screen"])
            self.bar.hidden = True
            body.setAttribute("data-view", "error")
            self.ready()
        elif view == "scenario":
            self.bar.addEventListener("click", self.on_step)
            self.doc.addEventListener("keydown", self.on_step)
            self.window.addEventListener("resize", self.fit)
            self.bar.hidden = False
            body.setAttribute("data-view", "scenario")
        else:  # a live table: the site's own page, with the embed's menu
            self.events = Events(self.front, self.window, self.send, self.no_file, ALIASES)
            for kind, handler in self.events.handlers().items():
                self.doc.addEventListener(kind, handler)

    def on_step(self, evt: "Any") -> None:
        """A click on the example's controls, or one of its keys."""
        msg = command_of(evt)
        if msg is not None:
            msg["kind"], msg["name"] = "steps", "example"
            self.send(msg)

    def no_file(self, purpose: str, file: "Any") -> None:
        """(The embed's table has no file panel: nothing asks for a file.)"""

    def fit(self, evt: "Any" = None) -> None:
        """Shrink the table (CSS zoom) until it and the hand fit above the caption
        bar, which keeps its own room: the caption never covers the hand. Only
        a hand's summary, taller than any frame, may still scroll (at half size)."""
        screen = self.screen
        screen.style.zoom = ""
        room = screen.parentElement.clientHeight - 8  # .ex-main's padding
        natural = screen.scrollHeight
        if natural > room > 0:
            screen.style.zoom = "{:.3f}".format(max(FIT_MIN, room / natural))

    def ready(self) -> None:
        self.up = True
        loader = self.doc.getElementById("loader")
        if loader:
            loader.remove()
        self.doc.body.setAttribute("data-state", "ready")
