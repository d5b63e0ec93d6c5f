"""The small interfaces behind which the page's effects happen: the screen
(drawing, focus, motion, the live region, files), this tab's locks on games,
and the thinking of bots and the clock they think on. The browser's are in
game.web.dom; the tests' are plain Python objects.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any, Callable, Coroutine, Protocol

from game.core.state import Player
from game.web.model.page import Page
from game.web.draw.views import Drawn


class Screen(Protocol):
    def draw(self, page: Page, drawn: Drawn) -> None:
        """Patch the regions whose markup changed; keep the focus; read out the news."""

    def flash(self, message: str) -> None:
        """Show the message under the table again, with a flash."""

    def focus(self, selector: str) -> None:
        """Focus the first element matching `selector` ("fallback": the table's prompt)."""

    def moved(self, game: str, events: list[dict[str, Any]], seat: Player) -> None:
        """The cards the events moved travel on the next draw."""

    def still(self) -> None:
        """Nothing in flight (a new table, an undo, the start screen)."""

    def heard(self, events: int) -> None:
        """The live region takes the log's first `events` entries as read."""

    def error(self, text: str) -> None:
        """A developer's message (the console)."""

    def download(self, name: str, text: str) -> None: ...

    def choose_file(self, purpose: str) -> None:
        """Open the browser's file chooser; its file comes back to the
        controller's `file_chosen(purpose, ...)`."""

    def forget_link(self) -> None:
        """Take the game, deal and lesson out of the address (they were read)."""

    def steps(self, frame: dict[str, Any]) -> None:
        """Draw the review's dialog (a frame of game.web.runtime.step_player)."""

    def review(self, host: Any, transcript: dict[str, Any] | None, me: Any) -> None:
        """Open the review over `host`'s page (online play's record, game.web.runtime.online_door:
        it asks the screen, which hands it back to the page as `OpenReview`)."""


class Locks(Protocol):
    def hold(self, game: str, steal: bool, done: Callable[[bool], None]) -> None: ...

    def release(self, game: str) -> None: ...


class NoLocks:
    """Every game is this tab's (the embed, a browser without Web Locks, the tests)."""

    def hold(self, game: str, steal: bool, done: Callable[[bool], None]) -> None:
        done(True)

    def release(self, game: str) -> None:
        pass


Spawn = Callable[[Coroutine[Any, Any, None]], Any]  # runs a coroutine beside the page


class Clock:
    """What bots and hints think on (`now`, seconds) and pause with (`sleep`):
    the machine's; a test's moves on by itself, so no test waits on it."""

    def now(self) -> float:
        return time.monotonic()

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds)
