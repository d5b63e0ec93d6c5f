"""embed.html's main thread (MicroPython, like game/web/dom/main_thread.py
for index.html): the embed's front (game.web.front.embedded) on the page's
document, and its start message to the game's worker (`window.jhgEngine`,
made by static/js/front.mjs), whose embed.html part is game.web.embed_game."""

import json

import js

from game.web.front.embedded import Embedded
from game.web.front.focus import Focus
from game.web.front.live import Live
from game.web.front.motion import Motion
from game.web.front.screen import Front
from game.web.front.steps import ReviewDialog

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

window, document = js.window, js.document


class Listeners:
    """Listeners on the live table's Review: MicroPython wraps each function
    itself, and the dialog goes with them when it closes."""

    def add(self, el: "Any", kind: str, handler: "Any") -> None:
        el.addEventListener(kind, handler)

    def clear(self) -> None:
        pass


class Page:
    def __init__(self, engine: "Any") -> None:
        self.engine = engine
        no_scroll = window.JSON.parse('{"preventScroll": true}')
        front = Front(window, Focus(document, no_scroll),
                      Live(document, window.JSON.parse('{"block": "nearest"}')), Motion(window))
        front.players["review"] = ReviewDialog(document, no_scroll, self.send, Listeners())
        self.embedded = Embedded(window, front, no_scroll, self.send)

    def send(self, msg: "dict[str, Any]") -> None:
        self.engine.postMessage(json.dumps(msg))

    def receive(self, event: "Any") -> None:
        frame = json.loads(str(event.data))
        if "failed" in frame or "python" in frame or "fetched" in frame:
            return  # for the page's first script (front.mjs)
        self.embedded.apply(frame)

    def start(self) -> None:
        self.engine.onmessage = self.receive
        self.send({"start": {"embed": True, "search": str(window.location.search),
                             "address": str(window.location.href),
                             "lang": str(window.navigator.language or "")}})


PAGE = Page(window.jhgEngine)
PAGE.start()
