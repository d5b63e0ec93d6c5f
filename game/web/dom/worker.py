"""The game in a worker (issue 33): Pyodide runs the page's controller,
views, engine and bots here, off the main thread. The page's front
(game.web.front, on the main thread's MicroPython: game/web/dom/main_thread.py)
posts each gesture here as JSON and applies the frames posted back. Nothing
here touches `window` or `document`: the storage is a mirror
(game.web.runtime.mirror), the tab's locks are the worker's own Web Locks.

The first message is `{"start": {"search", "address", "lang", "local",
"session", "problem", "pending", "form", "test"}}`: what only the page can read (the address,
the browser's language, the storages' `jhg.*` items, whether storage is
refused or too full for a copy of a save (game.web.front.storage.room),
Start pressed before the game was up, the start screen's choices, the
browser tests' hooks). Online play's connections live on the page (no WebRTC
in a worker): game.web.dom.worker_online. embed.html's start says
`"embed": true` (with its search, address and language): its game is
game.web.embed.game's.
"""

from __future__ import annotations

import asyncio
import json
import traceback
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qsl

import js
from pyodide.ffi import create_proxy, jsnull

from game.web.runtime.controller import Controller
from game.web.runtime import online_door as online
from game.web.dom import worker_online
from game.web.dom.tabs import TabLocks
from game.web.draw.frames import Frame, Frames
from game.web.runtime.gestures import carry_out
from game.web.draw.html import Html
from game.web.draw.i18n import pick_language
from game.web.model.links import forget_link, read_link
from game.web.runtime.mirror import MirroredStorage
from game.web.model.page import OpenReview, Page
from game.web.model.saves import PREFS_KEY, read_prefs
from game.web.model.page import FileChosen
from game.web.draw.views import Drawn

if TYPE_CHECKING:  # (embed.html's game: imported by its page only)
    from game.web.embed.game import EmbedGame


def post(frame: Frame) -> None:
    js.postMessage(json.dumps(frame))


class WorkerScreen:
    """The screen driver (game.web.runtime.drivers.Screen) of a game in a worker:
    every effect becomes a frame posted to the page."""

    def __init__(self, search: str, menu: Html | None = None) -> None:
        self.frames = Frames(menu)  # (`menu`: the embed's own, and no side panel)
        self.search = search

    def draw(self, page: Page, drawn: Drawn) -> None:
        post(self.frames.draw(page, drawn))

    def flash(self, message: str) -> None:
        post({"flash": message})

    def focus(self, selector: str) -> None:
        post({"focus": selector})

    def moved(self, game: str, events: list[dict[str, Any]], seat: Any) -> None:
        self.frames.course.note(game, events, seat)

    def still(self) -> None:
        self.frames.course.reset()
        post({"still": True})

    def heard(self, events: int) -> None:
        self.frames.heard(events)

    def error(self, text: str) -> None:
        post({"error": text})

    def download(self, name: str, text: str) -> None:
        post({"download": [name, text]})

    def choose_file(self, purpose: str) -> None:
        post({"choose_file": purpose})

    def forget_link(self) -> None:
        if self.frames.menu is not None:
            return  # the embed's address is its configuration: kept
        search = forget_link(self.search)
        if search is not None:
            self.search = search
            post({"address": search})

    def steps(self, frame: Frame) -> None:
        post({"steps": frame})

    def review(self, host: Any, transcript: dict[str, Any] | None, me: Any) -> None:
        host.dispatch(OpenReview(transcript, me))


class Game:
    """The controller, started by the page's first message, then fed each gesture."""

    def __init__(self) -> None:
        self.ctrl: Controller | None = None
        self.local: MirroredStorage | None = None
        self.screen: WorkerScreen | None = None
        self.embed: EmbedGame | None = None

    def receive(self, text: str, data: Any = None) -> None:
        """A message of the page: a gesture (JSON), or a file chosen with
        its bytes (`data`: an ArrayBuffer, JS null if it was not read)."""
        msg = json.loads(text)
        if "start" in msg:
            if msg["start"].get("embed"):
                from game.web.dom.embed_worker import start_embed

                self.embed = start_embed(msg["start"], post, asyncio.ensure_future,
                                         lambda menu: WorkerScreen("", menu))
            else:
                self.start_guarded(msg["start"])
            return
        if self.embed is not None:
            self.embed.receive(msg)
            return
        ctrl, screen = self.ctrl, self.screen
        if ctrl is None or screen is None:
            return  # (the page sends nothing before its start)
        kind = msg.get("kind")
        if kind == "storage" and self.local is not None:
            self.local.heard(str(msg["key"]), msg.get("value"))  # before the page reads it
        if kind == "steps":
            ctrl.review_message(msg)
        elif kind == "wire":
            ctrl.guarded(lambda: worker_online.heard(msg))
        elif kind == "file":
            # A file over the limit is never read: its data is JS null, Pyodide's jsnull.
            read = data is not None and data is not jsnull
            ctrl.perform(FileChosen(str(msg["purpose"]), str(msg["name"]), int(msg["size"]),
                                    data.to_bytes() if read else None))
        elif kind == "bench":  # benchmarks/think.py's hook (game.web.dom.worker_bench)
            from game.web.dom import worker_bench

            worker_bench.answer(msg, post)
        else:
            carry_out(ctrl, msg)

    def start_guarded(self, init: dict[str, Any]) -> None:
        """Start; nothing stored can stop it: an unexpected error is the
        controller's to report (the start screen says so), or, before there is
        one, the page's, which says the game could not start (not that it
        could not be downloaded: static/js/loader.js)."""
        try:
            self.start(init)
        except Exception as e:
            if self.ctrl is None:
                js.console.error("".join(traceback.format_exception(e)))
                post({"crashed": type(e).__name__})
            else:
                self.ctrl.crashed(e)

    def start(self, init: dict[str, Any]) -> None:
        js.performance.mark("jhg:start message")  # (benchmarks/load.py --trace)
        search = str(init.get("search") or "")
        link = read_link(parse_qsl(search.lstrip("?"), keep_blank_values=True))
        self.local = MirroredStorage("local", init.get("local") or {}, post)
        tab = MirroredStorage("session", init.get("session") or {}, post)
        self.screen = screen = WorkerScreen(search)
        locks = TabLocks(js, lambda game: ctrl.guarded(lambda: ctrl.lost_to_another_tab(game)))
        prefs, _ = read_prefs(self.local.get(PREFS_KEY))  # (what was ignored: the controller says)
        lang = pick_language(link.lang, prefs.get("lang"), str(init.get("lang") or ""))
        problem = init.get("problem")
        ctrl = Controller(self.local, tab, screen, locks, link, lang,
                          problem if problem in ("full", "blocked") else None)
        self.ctrl = ctrl
        worker_online.install(ctrl, str(init.get("address") or ""), init.get("test") or {})
        # An online table's clock: an away friend's grace period is checked every 2 s.
        js.setInterval(create_proxy(lambda: online.tick(ctrl)), 2000)
        post({"limits": {"game": ctrl.file_limit("game"), "stats": ctrl.file_limit("stats")}})
        if link.bench:  # the page's window.thinkBench, for benchmarks/think.py only
            from game.web.dom import worker_bench

            asyncio.ensure_future(worker_bench.install(str(init.get("address") or ""), post))
        ctrl.start(init.get("pending"), init.get("form"))
        js.performance.mark("jhg:first frame posted")


GAME = Game()


def receive(text: str, data: Any = None) -> None:
    """Each message of the page (static/js/engine.mjs calls it)."""
    GAME.receive(text, data)
