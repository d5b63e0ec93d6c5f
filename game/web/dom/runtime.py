"""The page in the browser: DOM events become the controller's actions and
commands (game.web.controller), and what it draws (game.web.views) goes
to the page's front as frames (game.web.frames, game.web.front.screen),
patched in region by region — only where the markup changed — with the
focus kept, the news read out and the cards moving.
"""

from __future__ import annotations

import asyncio
from typing import Any

from pyodide.ffi import create_proxy
from pyscript import document, window

from game.web.controller import Controller
from game.web.dom.focus import FOCUS
from game.web.dom.live import live_region
from game.web.frames import Frames
from game.web.front.events import Events
from game.web.front.motion import Motion
from game.web.front.screen import Front
from game.web.front.steps import ReviewDialog
from game.web.gestures import carry_out
from game.web.links import forget_link
from game.web.page import Page
from game.web.steps import FileChosen
from game.web.views import Drawn

JsObject = Any  # a JavaScript object seen through Pyodide (a JsProxy): untyped for mypy


class DomScreen:
    """The screen driver (game.web.drivers.Screen) of a browser page: each
    draw becomes a frame (game.web.frames) that the page's front
    (game.web.front.screen) applies."""

    def __init__(self) -> None:
        self.frames = Frames()
        self.front = Front(window, FOCUS, live_region(), Motion(window))
        self.front.players["review"] = ReviewDialog(document, FOCUS.no_scroll,
                                                    self.review_message, Listeners())
        # The review open over the page (game.web.step_player's ReviewPlayer): its
        # code is imported when a review first opens, not at the page's start.
        self.reviewing: Any = None

    def draw(self, page: Page, drawn: Drawn) -> None:
        self.front.apply(self.frames.draw(page, drawn))

    # -- the other effects ----------------------------------------------------------

    def flash(self, message: str) -> None:
        self.front.apply({"flash": message})

    def focus(self, selector: str) -> None:
        self.front.apply({"focus": selector})

    def moved(self, game: str, events: list[dict[str, Any]], seat: Any) -> None:
        self.frames.course.note(game, events, seat)

    def still(self) -> None:
        self.frames.course.reset()
        self.front.apply({"still": True})

    def heard(self, events: int) -> None:
        self.frames.heard(events)

    def error(self, text: str) -> None:
        self.front.apply({"error": text})

    def download(self, name: str, text: str) -> None:
        self.front.apply({"download": [name, text]})

    def choose_file(self, purpose: str) -> None:
        self.front.apply({"choose_file": purpose})

    def forget_link(self) -> None:
        search = forget_link(str(window.location.search))
        if search is not None:
            self.front.apply({"address": search})

    def review(self, host: Any, transcript: dict[str, Any] | None, me: Any) -> None:
        if self.reviewing is not None and self.reviewing.open:
            return  # one review at a time
        from game.web.step_player import open_review  # (the review's code: when first opened)

        self.reviewing = open_review(host, transcript, self.front.apply, asyncio.ensure_future, me)

    def review_message(self, msg: dict[str, Any]) -> None:
        """A command from the review's dialog (game.web.front.steps)."""
        if self.reviewing is not None:
            self.reviewing.message(msg)


class Listeners:
    """Event listeners added through Pyodide's proxies, and taken away with them."""

    def __init__(self) -> None:
        self.added: list[tuple[JsObject, str, JsObject]] = []

    def add(self, el: JsObject, kind: str, handler: Any) -> None:
        proxy = create_proxy(handler)
        el.addEventListener(kind, proxy)
        self.added.append((el, kind, proxy))

    def clear(self) -> None:
        for el, kind, proxy in self.added:
            el.removeEventListener(kind, proxy)
            proxy.destroy()
        self.added = []


async def read_file(ctrl: Controller, purpose: str, file: JsObject) -> None:
    name, size = str(file.name), int(file.size)
    data: bytes | None = None
    if size <= ctrl.file_limit(purpose):  # never read a huge file into memory
        try:
            data = (await file.arrayBuffer()).to_bytes()
        except Exception as e:  # the browser could not read it; never a crash
            window.console.error(f"file read: {type(e).__name__}: {e}")
    ctrl.perform(FileChosen(purpose, name, size, data))


def listen(ctrl: Controller, screen: DomScreen, aliases: dict[str, str]) -> Events:
    """The page's DOM events (game.web.front.events), each message carried
    out by the controller (game.web.gestures) at once."""
    def chosen(purpose: str, file: JsObject) -> None:
        asyncio.ensure_future(read_file(ctrl, purpose, file))

    events = Events(screen.front, window, lambda msg: carry_out(ctrl, msg), chosen, aliases)

    def guard(handler: Any) -> Any:
        def run(evt: JsObject) -> None:
            ctrl.guarded(lambda: handler(evt))
        return create_proxy(run)

    proxies = {kind: guard(handler) for kind, handler in events.handlers().items()}
    for kind, proxy in proxies.items():
        document.addEventListener(kind, proxy)
    window.addEventListener("storage", guard(events.on_storage))
    return events
