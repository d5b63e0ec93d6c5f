"""The page's controller (game.web.controller) without a browser: a store in
memory, no tab locks, and a screen that records what it was asked to do.
Bots and hints think when a test runs them (`think`)."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import threading
from typing import Any, Coroutine

from game.web.controller import Controller
from game.web.drivers import NoLocks
from game.web.links import Link
from game.web.page import OpenReview, Page
from game.web.session import Session
from game.web.storage import MemoryStorage
from game.web.tables import renderer
from game.web.views import Drawn


class RecordingScreen:
    def __init__(self) -> None:
        self.drawn: list[Drawn] = []
        self.focused: list[str] = []
        self.flashed: list[str] = []
        self.errors: list[str] = []
        self.downloads: list[tuple[str, str]] = []
        self.chooser: list[str] = []
        self.reviews: list[Any] = []
        self.review_frames: list[dict[str, Any]] = []  # the review dialog's frames
        self.moves = 0

    @property
    def last(self) -> Drawn:
        return self.drawn[-1]

    def draw(self, page: Page, drawn: Drawn) -> None:
        self.drawn.append(drawn)

    def flash(self, message: str) -> None:
        self.flashed.append(message)

    def focus(self, selector: str) -> None:
        self.focused.append(selector)

    def moved(self, game: str, events: list[dict[str, Any]], seat: Any) -> None:
        self.moves += 1

    def still(self) -> None:
        pass

    def heard(self, events: int) -> None:
        pass

    def error(self, text: str) -> None:
        self.errors.append(text)

    def download(self, name: str, text: str) -> None:
        self.downloads.append((name, text))

    def choose_file(self, purpose: str) -> None:
        self.chooser.append(purpose)

    def forget_link(self) -> None:
        pass

    def steps(self, frame: dict[str, Any]) -> None:
        self.review_frames.append(json.loads(json.dumps(frame)))  # as posted

    def review(self, host: Any, transcript: dict[str, Any] | None, me: Any) -> None:
        self.reviews.append((transcript, me))
        host.dispatch(OpenReview(transcript, me))  # as the worker's screen hands it back


class Thinking:
    """The coroutines the controller spawned (bots, hints), run on demand."""

    def __init__(self) -> None:
        self.waiting: list[Coroutine[Any, Any, None]] = []

    def __call__(self, coro: Coroutine[Any, Any, None]) -> None:
        self.waiting.append(coro)

    def run(self, limit: int = 10_000) -> int:
        """Run every spawned coroutine (and those they spawn) to its end: the count run."""
        ran = 0
        while self.waiting and ran < limit:
            run_alone(self.waiting.pop(0))
            ran += 1
        return ran

    def drop(self) -> None:
        for coro in self.waiting:
            coro.close()
        self.waiting = []

    def __del__(self) -> None:
        self.drop()  # never run: closed quietly


def run_alone(coro: Coroutine[Any, Any, None]) -> None:
    """Run `coro` to its end in a thread of its own: its own event loop, even
    when the test process has one running (Playwright's, in a full run)."""
    failed: list[BaseException] = []

    def run() -> None:
        try:
            asyncio.run(coro)
        except BaseException as e:  # handed back to the test
            failed.append(e)

    thread = threading.Thread(target=run)
    thread.start()
    thread.join()
    if failed:
        raise failed[0]


def make_page(stored: dict[str, str] | None = None, lang: str = "en",
              quota: int | None = None, link: Link | None = None,
              speed: str = "instant") -> tuple[Controller, RecordingScreen, Thinking]:
    store = MemoryStorage(quota)
    store.items.update(stored or {})
    if speed:
        store.items.setdefault("jhg.prefs", '{"speed": "%s"}' % speed)
    screen, thinking = RecordingScreen(), Thinking()
    ctrl = Controller(store, MemoryStorage(), screen, NoLocks(), link or Link(), lang,
                      spawn=thinking)
    return ctrl, screen, thinking


def put_on_table(ctrl: Controller, state: Any, save: dict[str, Any]) -> None:
    """A game on the table as a save would put it back (held by this tab)."""
    session = Session.start(renderer(state.game_id), state, save)
    ctrl.page = dataclasses.replace(ctrl.page, session=session, view="table",
                                    hold=dataclasses.replace(ctrl.page.hold,
                                                             owner=save["game"]))


def items(ctrl: Controller) -> dict[str, str]:
    store = ctrl.keeper.store
    assert isinstance(store, MemoryStorage)
    return store.items
