"""The page's main thread (the game runs in a worker):
MicroPython runs this and the page's front (game.web.front). DOM events
become gestures posted to the worker (game/web/dom/worker.py); the frames
it posts back are applied here, and its storage writes made for real.
(MicroPython's subset: see game.web.front.)

The page's first script has made the worker (`window.jhgEngine`) and gives
`window.jhgReadFile(file, purpose, limit)`, which reads a chosen file and
posts it to the worker itself (awaiting the file is JavaScript's part).
"""

import json

import js

from game.web.front import storage
from game.web.front.assemble import assemble, frame_of
from game.web.front.events import Events, read_form

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

window, document = js.window, js.document


class MainThread:
    def __init__(self, engine: "Any") -> None:
        self.engine = engine
        self.front, _ = assemble(window, self.send)
        self.events = Events(self.front, window, self.send, self.read_file)
        # front.mjs reads the areas: a refused one throws, which MicroPython cannot catch.
        self.local = window.jhgStorageArea("localStorage")  # None where refused
        self.problem = None if self.local is not None else "blocked"
        self.session = window.jhgStorageArea("sessionStorage")
        self.limits = {"game": 0, "stats": 0}
        self.up = False

    def send(self, msg: "dict[str, Any]") -> None:
        self.engine.postMessage(json.dumps(msg))

    def read_file(self, purpose: str, file: "Any") -> None:
        window.jhgReadFile(file, purpose, self.limits.get(purpose, 0))

    def receive(self, event: "Any") -> None:
        """A frame from the game."""
        text = str(event.data)
        if text.startswith('{"wire"'):
            return  # online play's connections: front.mjs hands it to static/js/wire-host.mjs
        frame = frame_of(text)
        if frame is None:
            return
        if "store" in frame:
            area = frame["store"][0]
            where = self.local if area == "local" else self.session
            failure = storage.store(window.jhgStorageWrite, where, frame)  # (front.mjs: it may throw)
            if failure is not None and area == "local":
                self.send({"kind": "refused", "failure": failure})
            return
        if "limits" in frame:
            self.limits = frame["limits"]
            return
        self.front.apply(frame)
        if not self.up and "view" in frame:
            self.ready()

    def ready(self) -> None:
        """The game's first drawing is on the page."""
        self.up = True
        loader = document.getElementById("loader")
        if loader:
            loader.remove()
        document.body.removeAttribute("data-start-pending")
        document.body.removeAttribute("data-lesson-pending")
        document.body.setAttribute("data-state", "ready")
        window.performance.mark("jhg:first frame drawn")  # (benchmarks/load.py --trace)

    def start(self) -> None:
        """Listen, and tell the game what only the page can read."""
        for kind, handler in self.events.handlers().items():
            document.addEventListener(kind, handler)
        window.addEventListener("storage", self.events.on_storage)
        self.engine.onmessage = self.receive
        pending = None
        for name, what in (("data-lesson-pending", "lesson"), ("data-start-pending", "start")):
            if document.body.hasAttribute(name):
                pending = pending or what
        form = read_form(document) if document.getElementById("setup") else None
        local = storage.items(self.local) if self.local else {}
        problem = self.problem or storage.room(window.jhgStorageWrite, self.local, local)
        self.send({"start": {"search": str(window.location.search),
                             "address": str(window.location.origin) + str(window.location.pathname),
                             "lang": str(window.navigator.language or ""),
                             "local": local,
                             "session": storage.items(self.session) if self.session else {},
                             "problem": problem, "pending": pending, "form": form,
                             "test": read_test_hooks()}})
        # A touch screen's words from the start: a phone's first tap comes too late for them.
        self.events.uses_touch(bool(window.matchMedia("(pointer: coarse)").matches))


def read_test_hooks() -> "dict[str, Any]":
    """The browser tests' own relay and grace period (game.web.dom.worker_online),
    which only a test's script sets before the page loads: a link cannot."""
    hooks = {}  # type: dict[str, Any]
    for key, name in (("relay", "jhgTestRelay"), ("grace", "jhgTestGrace")):
        value = getattr(window, name, None)
        if isinstance(value, (str, int, float)):
            hooks[key] = value
    return hooks


def start() -> None:
    """The page's front, listening: static/js/front.mjs calls this in a task of
    its own, after the module's import (two short tasks, not one long one)."""
    MainThread(window.jhgEngine).start()
