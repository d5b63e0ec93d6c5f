"""The front on a page's document, as index.html's and embed.html's main
threads both make it (game/web/dom/main_thread.py, embed_front.py)."""

import json

from game.web.front.focus import Focus
from game.web.front.live import Live
from game.web.front.motion import Motion
from game.web.front.screen import Front
from game.web.front.steps import ReviewDialog

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Callable


# The worker's messages for the page's first script (static/js/front.mjs: a start
# that failed, how Python started, its downloads, a message answered), not for the front.
FOR_THE_SCRIPT = ("handled", "failed", "python", "fetched", "offline")


def frame_of(text: str) -> "dict[str, Any] | None":
    """The frame a message of the worker carries, or None if it is the script's."""
    for key in FOR_THE_SCRIPT:  # engine.mjs's own (one per gesture, one per download): not parsed
        if text.startswith('{"' + key + '"'):
            return None
    frame: "dict[str, Any]" = json.loads(text)
    return None if any(key in frame for key in FOR_THE_SCRIPT) else frame


class Listeners:
    """Listeners on the review's dialog: MicroPython wraps each function
    itself, and the dialog goes with them when it closes."""

    def add(self, el: "Any", kind: str, handler: "Any") -> None:
        el.addEventListener(kind, handler)

    def clear(self) -> None:
        pass


def assemble(window: "Any", send: "Callable[[dict[str, Any]], None]") -> "tuple[Front, Any]":
    """The front (with the review's dialog, which posts with `send`) and the
    focus options that never scroll."""
    document = window.document
    no_scroll = window.JSON.parse('{"preventScroll": true}')
    front = Front(window, Focus(document, no_scroll),
                  Live(document, window.JSON.parse('{"block": "nearest"}')), Motion(window))
    front.players["review"] = ReviewDialog(document, no_scroll, send, Listeners())
    return front, no_scroll
