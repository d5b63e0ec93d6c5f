"""A replayed game played step by step: embed.html's scripted examples and
the Review of finished hands (the pure views are game.web.replay's `Steps`
and game.web.review's `Review`). Commands — first, previous, next, last,
autoplay, a hand chosen, close — come as messages from the page's front
(game.web.front.steps); each drawing goes back as a frame, `{"steps": ...}`:
the table's markup, the caption, the controls, the step, and the control to
keep the focus on.
"""

from __future__ import annotations

import asyncio
import traceback
from collections.abc import Hashable
from typing import Any, Callable, Protocol

from game.core.state import State
from game.core.transcript import Transcript
from game.web.drivers import Spawn
from game.web.frames import Frame, markup
from game.web.i18n import Translator
from game.web.replay import AUTOPLAY_SECONDS, MOVES, Steps, error_html
from game.web.review import Review, hand_ranges
from game.web.tables import renderer

Show = Callable[[Frame], None]


class StepPlayer:
    """A `Steps` view driven by commands, drawn through `show`; autoplay
    runs beside the page (`spawn`). `name`: which player the page shows
    ("example", "review")."""

    def __init__(self, view: Steps, show: Show, spawn: Spawn, name: str = "example") -> None:
        self.view, self.show, self.spawn, self.name = view, show, spawn, name
        self.playing = False
        self.gen = 0  # which run of the autoplay is current

    def frame(self, keep: str | None = None) -> Frame:
        view = self.view
        try:
            screen = markup(view.table_html())
        except Exception as e:  # a renderer that cannot show this step
            screen = markup(error_html(view.t.lang, f"{type(e).__name__}: {e}"))
        return {"name": self.name, "screen": screen, "caption": view.caption(),
                "controls": markup(view.controls_html(self.playing)), "step": view.step,
                "keep": keep}

    def draw(self, keep: str | None = None) -> None:
        self.show({"steps": self.frame(keep)})

    async def autoplay(self, gen: int) -> None:
        while self.playing and gen == self.gen:
            await asyncio.sleep(AUTOPLAY_SECONDS)
            if not self.playing or gen != self.gen:
                return
            if self.view.step >= self.view.last:
                self.playing = False
            else:
                self.view.step += 1
            self.draw()

    def stop(self) -> None:
        """End the autoplay (the view is closing, or the person took over)."""
        self.playing = False
        self.gen += 1

    def command(self, cmd: str, keep: str | None = None) -> None:
        """Run a command (COMMANDS; another does nothing); then the page focuses
        `keep` (an id) again, since the controls are drawn anew (the play
        button if that one is now disabled)."""
        do = COMMANDS.get(cmd)
        if do is not None:
            do(self)
            self.draw(keep)

    def toggle_play(self) -> None:
        """Autoplay on (from the first step, at the last) or off."""
        self.playing = not self.playing
        self.gen += 1
        if self.playing:
            if self.view.step >= self.view.last:
                self.view.step = self.view.first
            self.spawn(self.autoplay(self.gen))

    def go(self, where: str) -> None:
        """A step chosen (game.web.replay's MOVES): the autoplay stops."""
        self.stop()
        self.view.move(where)


def _go(where: str) -> Callable[[StepPlayer], None]:
    return lambda player: player.go(where)


# The step player's commands (game.web.front.steps sends them): a move, or
# the autoplay. Its own table: embed.html's example plays without a controller.
COMMANDS: dict[str, Callable[[StepPlayer], None]] = {
    "play": StepPlayer.toggle_play, **{where: _go(where) for where in MOVES}}


class ReviewHost(Protocol):
    """What the review needs of the page under it."""

    t: Translator

    @property
    def save(self) -> dict[str, Any]:
        """The save record of the game on the table (its transcript, `setup.me`)."""

    def set_message(self, key: str, **params: Any) -> None:
        """Say the catalog's `key` in the page's message line (why a review does not open)."""

    def halt(self) -> None:
        """The bots wait (the review is opening)."""

    def schedule(self) -> None:
        """The bots go on, if it is their turn (the review has closed)."""

    def overlay_opened(self, name: str) -> None:
        """The overlay `name` ("review") is now open over the page."""

    def overlay_closed(self, name: str) -> None:
        """The overlay `name` has closed."""


class ReviewPlayer(StepPlayer):
    """The Review over the page, a modal dialog: it pauses the bots, never
    writes the save and never touches the game; closing it leaves the page
    exactly as it was. Its frames add the heading (when the hand changed)
    and the hand's facts; `{"steps": {"name": "review", "closed": true}}`
    takes it away."""

    view: Review

    def __init__(self, host: ReviewHost, view: Review, show: Show, spawn: Spawn) -> None:
        super().__init__(view, show, spawn, "review")
        self.host = host
        self.headed: int | None = None  # the hand whose heading the page shows
        self.open = False

    def frame(self, keep: str | None = None) -> Frame:
        frame = super().frame(keep)
        view = self.view
        if self.headed != view.hand:
            frame["head"] = markup(view.head_html())
            self.headed = view.hand
        frame["data"] = {"hand": str(view.hand_number()), "first": str(view.first),
                         "last": str(view.last),
                         "open": "true" if view.is_open(view.step) else "false"}
        return frame

    def start(self) -> None:
        self.host.halt()  # the bots wait while the person reviews
        self.open = True
        self.draw()
        self.host.overlay_opened("review")

    def message(self, msg: dict[str, Any]) -> None:
        """A command from the dialog: a step, a hand chosen, close. An error
        closes the review and says so: it never reaches the page's guard,
        which would set the saved game aside."""
        try:
            cmd = str(msg.get("cmd"))
            own = REVIEW_COMMANDS.get(cmd)
            if own is not None:
                own(self, msg)
            else:
                self.command(cmd, msg.get("keep"))
        except Exception as e:
            self.failed(e)

    def choose_hand(self, value: object) -> None:
        """Another hand of the game (its number in the dialog's choice)."""
        self.stop()
        self.view.choose(int(str(value)))
        self.draw()

    def failed(self, error: Exception) -> None:
        self.host.set_message("review.failed", reason=f"{type(error).__name__}: {error}"[:300])
        traceback.print_exception(error)
        self.close()

    def close(self) -> None:
        """Gone (its button, Escape), the page as it was, the bots going on."""
        self.stop()
        if not self.open:
            return
        self.open = False
        self.show({"steps": {"name": "review", "closed": True}})
        self.host.overlay_closed("review")
        self.host.schedule()  # the bots carry on, if it is their turn


# The Review's own commands besides the step player's (its dialog's message).
REVIEW_COMMANDS: dict[str, Callable[[ReviewPlayer, dict[str, Any]], None]] = {
    "close": lambda player, _: player.close(),
    "hand": lambda player, msg: player.choose_hand(msg.get("value"))}


def open_review(host: ReviewHost, transcript: dict[str, Any] | None, show: Show,
                spawn: Spawn, me: Hashable | None = None) -> ReviewPlayer | None:
    """The review of `transcript` (the JSON form of game.core.transcript) from
    `me`'s seat (a lasting player, as a save's `setup.me`; the first seat if
    None), or (None) of the game on the table: the hand just finished, or at
    the end of the game any hand (opened on the last one). One that cannot
    open says why in the page's message line (None); nothing of the game on
    the table changes."""
    on_table = transcript is None
    if transcript is None:
        transcript, me = host.save["transcript"], host.save["setup"]["me"]
    try:
        parsed = Transcript.from_json(transcript)
        states = parsed.states()
    except Exception as e:  # a transcript from outside, or a save's that does not replay
        host.set_message("review.failed", reason=str(e)[:300])
        return None
    first, step = 0, None
    if on_table:
        ranges = hand_ranges(states)
        last_hand = ranges[-1][0] if ranges else 0
        first, step = (0, last_hand) if states[-1].over else (last_hand, None)
    return _opened(host, parsed, states, show, spawn, me, first, step)


def _opened(host: ReviewHost, transcript: Transcript, states: list[State], show: Show,
            spawn: Spawn, me: Hashable | None, first: int, step: int | None) -> ReviewPlayer | None:
    try:
        view = Review(transcript, states, renderer(transcript.game), host.t, me, first, None,
                      step)
    except Exception as e:  # a renderer that cannot show it: say so, change nothing
        host.set_message("review.failed", reason=f"{type(e).__name__}: {e}"[:300])
        return None
    if not view.hands:
        host.set_message("review.empty")
        return None
    player = ReviewPlayer(host, view, show, spawn)
    player.start()
    return player
