"""The Review's modal `<dialog>` over the page (the pure part, `Review`, is
game.web.review): a finished hand replayed move by move with the step player
of game.web.dom.stepper.  It pauses the bots, never writes the save and never
touches the game: closing it leaves the page exactly as it was.

Entry points (`app` is a `ReviewHost`, the page under the dialog):

    start(app, transcript, first_step=0, last_step=None, me=None, step=None)
    from_table(app)    # the summaries' Review button
"""

from __future__ import annotations

import functools
import traceback
from collections.abc import Callable, Hashable
from typing import Any, Protocol

from pyodide.ffi import create_proxy
from pyscript import document, window

from game.core.state import State
from game.core.transcript import Transcript
from game.web.dom.stepper import Stepper
from game.web.html import html, set_html
from game.web.i18n import Translator
from game.web.review import Review, hand_ranges
from game.web.tables import renderer


class ReviewHost(Protocol):
    """What the dialog needs of the page under it."""

    t: Translator

    @property
    def save(self) -> dict[str, Any]:
        """The save record of the game on the table (its transcript, `setup.me`)."""

    def set_message(self, text: str) -> None:
        """Say `text` in the page's message line (why a review does not open)."""

    def halt(self) -> None:
        """The bots wait (the dialog is opening)."""

    def schedule(self) -> None:
        """The bots go on, if it is their turn (the dialog has closed)."""

    def overlay_opened(self, name: str) -> None:
        """The overlay `name` ("review") is now open over the page."""

    def overlay_closed(self, name: str) -> None:
        """The overlay `name` has closed."""


def start(app: ReviewHost, transcript: dict[str, Any], first_step: int = 0,
          last_step: int | None = None, me: Hashable | None = None,
          step: int | None = None) -> bool:
    """Open the review of `transcript` (the JSON form of game.core.transcript)
    over the page: its hands between steps `first_step` and `last_step` (the
    last step by default), from `me`'s seat (a lasting player, as a save's
    `setup.me`; the first seat if None), opened at `step` (the start of the
    range by default).  A transcript that does not replay is reported in the
    app's message line (False); nothing of the game on the table changes."""
    try:
        parsed = Transcript.from_json(transcript)
        states = parsed.states()
    except Exception as e:  # a transcript from outside: say why, change nothing
        app.set_message(app.t("review.failed", reason=str(e)[:300]))
        return False
    return _open(app, parsed, states, first_step, last_step, me, step)


def from_table(app: ReviewHost) -> None:
    """The Review button of a summary: the hand just finished, or at the end of
    the game any hand (opened on the last one)."""
    transcript, me = app.save["transcript"], app.save["setup"]["me"]
    try:
        parsed = Transcript.from_json(transcript)
        states = parsed.states()
    except Exception as e:  # a save's transcript that does not replay
        app.set_message(app.t("review.failed", reason=str(e)[:300]))
        return
    ranges = hand_ranges(states)
    last_hand = ranges[-1][0] if ranges else 0
    if states[-1].over:
        _open(app, parsed, states, me=me, step=last_hand)
    else:
        _open(app, parsed, states, first_step=last_hand, me=me)


def _open(app: ReviewHost, transcript: Transcript, states: list[State], first_step: int = 0,
          last_step: int | None = None, me: Hashable | None = None,
          step: int | None = None) -> bool:
    if document.getElementById("review"):  # one review at a time
        return False
    try:
        view = Review(transcript, states, renderer(transcript.game), app.t, me, first_step,
                      last_step, step)
    except Exception as e:  # a renderer that cannot show it: say so, change nothing
        app.set_message(app.t("review.failed", reason=f"{type(e).__name__}: {e}"[:300]))
        return False
    if not view.hands:
        app.set_message(app.t("review.empty"))
        return False
    return bool(_Dialog(app, view).open())


def _kept(method: Callable[..., Any]) -> Callable[..., Any]:
    """An error in the review closes it and says so: it never reaches the
    shell's guard, which would set the saved game aside."""
    @functools.wraps(method)
    def run(self: "_Dialog", *args: Any) -> Any:
        try:
            return method(self, *args)
        except Exception as e:
            self.failed(e)
            return None
    return run


class _Dialog:
    """The review's modal dialog: the page under it is inert until it closes."""

    def __init__(self, app: ReviewHost, view: Review) -> None:
        self.app, self.view = app, view
        self.proxies: list[Any] = []
        self.opener: Any = None
        self.dialog: Any = None
        self.shown = False  # told the host it is open (so it is told when it closes)

    @_kept
    def open(self) -> bool:
        self.opener = document.activeElement
        self.app.halt()  # the bots wait while the person reviews
        dialog = document.createElement("dialog")
        dialog.id, dialog.className = "review", "review"
        dialog.setAttribute("aria-labelledby", "rv-title")
        set_html(dialog, html(
            '<div class="rv-head" id="rv-head"></div>'
            '<div class="rv-screen screen" id="rv-screen"></div>'
            '<div class="rv-bar ex-bar"><p id="ex-caption" class="ex-caption" '
            'aria-live="polite"></p><div id="ex-controls" class="ex-controls"></div></div>'))
        document.body.append(dialog)
        self.dialog = dialog
        self.stepper = Stepper(self.view, dialog.querySelector("#rv-screen"),
                               dialog.querySelector("#ex-caption"),
                               dialog.querySelector("#ex-controls"), dialog, self.drawn)
        self.proxies = [create_proxy(self.on_click), create_proxy(self.on_key),
                        create_proxy(self.on_change), create_proxy(self.on_close)]
        for kind, proxy in zip(("click", "keydown", "change", "close"), self.proxies):
            dialog.addEventListener(kind, proxy)
        self.stepper.draw()
        dialog.showModal()
        self.shown = True
        self.app.overlay_opened("review")
        first = dialog.querySelector("#ex-next:not([disabled])") or dialog.querySelector("#ex-play")
        first.focus()
        return True

    def drawn(self) -> None:
        """After each step is drawn: the heading, and a table that only shows."""
        view, dialog = self.view, self.dialog
        head = dialog.querySelector("#rv-head")
        if head.getAttribute("data-hand") != str(view.hand):
            set_html(head, view.head_html())
            head.setAttribute("data-hand", str(view.hand))
        dialog.dataset.hand = str(view.hand_number())
        dialog.dataset.first = str(view.first)
        dialog.dataset.last = str(view.last)
        dialog.dataset.open = "true" if view.is_open(view.step) else "false"
        # The renderer's controls play nothing here: out of the tab order and
        # unnamed (ids and actions belong to the live table under the dialog).
        for el in dialog.querySelectorAll("#rv-screen [id], #rv-screen [data-act], "
                                          "#rv-screen [data-part], #rv-screen [data-keys]"):
            for name in ("id", "data-act", "data-part", "data-keys"):
                el.removeAttribute(name)
        for el in dialog.querySelectorAll("#rv-screen button, #rv-screen [tabindex]"):
            el.tabIndex = -1

    def failed(self, error: Exception) -> None:
        window.console.error("".join(traceback.format_exception(error)))
        self.close()
        self.app.set_message(self.app.t("review.failed",
                                        reason=f"{type(error).__name__}: {error}"[:300]))

    @_kept
    def on_click(self, evt: Any) -> None:
        evt.stopPropagation()  # never the live table's handlers
        el = evt.target.closest("[data-rv]")
        if el and el.getAttribute("data-rv") == "close":
            self.close()
            return
        self.stepper.on_click(evt)

    @_kept
    def on_change(self, evt: Any) -> None:
        evt.stopPropagation()
        el = evt.target
        if el.getAttribute("data-rv") == "hand":
            self.stepper.stop()
            self.view.choose(int(str(el.value)))
            self.stepper.draw()

    @_kept
    def on_key(self, evt: Any) -> None:
        evt.stopPropagation()  # the table's keys (Undo, arrows) wait until it closes
        self.stepper.on_key(evt)

    def on_close(self, evt: Any) -> None:
        """Closed (its button or Escape): gone, and the page as it was."""
        self.close()

    def close(self) -> None:
        """Take the dialog away, put the focus back and let the bots go on."""
        stepper = getattr(self, "stepper", None)
        if stepper is not None:
            stepper.stop()
        dialog = getattr(self, "dialog", None)
        if dialog is not None:
            for kind, proxy in zip(("click", "keydown", "change", "close"), self.proxies):
                dialog.removeEventListener(kind, proxy)
            if dialog.open:
                dialog.close()
            dialog.remove()
            self.dialog = None
        for proxy in self.proxies:
            proxy.destroy()
        self.proxies = []
        opener = self.opener
        if opener and opener.isConnected:
            opener.focus()
        if self.shown:
            self.shown = False
            self.app.overlay_closed("review")
        self.app.schedule()  # the bots carry on, if it is their turn
