"""embed.html's main thread (MicroPython, like game/web/dom/main_thread.py
for index.html): the embed's front (game.web.front.embedded) on the page's
document, and its start message to the game's worker (`window.jhgEngine`,
made by static/js/front.mjs), whose embed.html part is game.web.embed.game."""

import json

import js

from game.web.front.assemble import assemble, frame_of
from game.web.front.embedded import Embedded

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

window, document = js.window, js.document


class EmbedMainThread:
    def __init__(self, engine: "Any") -> None:
        self.engine = engine
        front, no_scroll = assemble(window, self.send)
        self.embedded = Embedded(window, front, no_scroll, self.send)

    def send(self, msg: "dict[str, Any]") -> None:
        self.engine.postMessage(json.dumps(msg))

    def receive(self, event: "Any") -> None:
        frame = frame_of(str(event.data))
        if frame is None:
            return
        self.embedded.apply(frame)

    def start(self) -> None:
        self.engine.onmessage = self.receive
        self.send({"start": {"embed": True, "search": str(window.location.search),
                             "address": str(window.location.href),
                             "lang": str(window.navigator.language or "")}})


def start() -> None:
    """The page's front, listening: static/js/front.mjs calls this in a task of
    its own, after the module's import (two short tasks, not one long one)."""
    EmbedMainThread(window.jhgEngine).start()
