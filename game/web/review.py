"""Review: a finished hand (round, deal) replayed move by move, every card face up.

At the end of a hand the summary offers "Review" (that hand); at the end of
the game, any hand of the game.  The review is the same player as embed.html's
scripted examples (game.web.replay): first, previous, next, last, autoplay,
Left/Right and Home/End; each step's caption is the engine's events of that
step in the table's words (`event_text`), as the person saw them.

It is not a live game: its states are replayed from the transcript, and a
hand is shown open only once the transcript has finished it, so the hand in
progress (the next deal, under the summary) is never shown but as the person
sees it.  It draws into its own modal `<dialog>` over the page, pauses the
bots, never writes the save and never touches the game: closing it leaves
the page exactly as it was.

Entry point (also for a transcript opened from a file):

    start(app, transcript, first_step=0, last_step=None, me=None, step=None)
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Hashable
from typing import TYPE_CHECKING, Any

from game.web.html import EMPTY, Html, html, join, set_html
from game.web.replay import Steps
from game.web.undo import hands_scored, seat_of

if TYPE_CHECKING:
    from game.core.state import Event, Player, State
    from game.core.transcript import Transcript
    from game.web.i18n import Translator
    from game.web.tables import Table, TableContext


def hand_ranges(states: list[State]) -> list[tuple[int, int]]:
    """The steps of each hand: (its deal, the step after its last action).
    A hand still under way ends at the last step; one with no action yet is left out.

    >>> from game import new_game
    >>> s = new_game("dracula", seed=1)
    >>> hand_ranges([s])
    []
    >>> hand_ranges([s, s.apply(s.legal_actions()[0])])
    [(0, 1)]
    """
    ranges, start = [], 0
    for i in range(1, len(states)):
        if hands_scored(states[i]) != hands_scored(states[i - 1]):
            ranges.append((start, i))
            start = i
    if start < len(states) - 1:
        ranges.append((start, len(states) - 1))
    return ranges


class Review(Steps):
    """A replayed game's hands, one at a time, between `first_step` and
    `last_step`: the table from the person's seat (`me`, a lasting player;
    the first seat if None) with every hand the transcript has finished face
    up, and the engine's events as captions."""

    def __init__(self, transcript: Transcript, states: list[State], table: Table,
                 t: Translator, me: Hashable | None = None, first_step: int = 0,
                 last_step: int | None = None, step: int | None = None) -> None:
        super().__init__(transcript, states, table, t)
        self.me = me
        end = len(states) - 1 if last_step is None else max(0, min(last_step, len(states) - 1))
        begin = max(0, min(first_step, end))
        self.hands = [(max(a, begin), min(b, end), k)
                      for k, (a, b) in enumerate(hand_ranges(states)) if a < end and b > begin]
        # The hands the transcript has finished (all of a game over): only
        # these are ever shown open, never the one under way.
        self.finished = hands_scored(states[-1])
        self._events: dict[int, list[Event]] = {}
        self.hand = 0
        self.choose(self._hand_at(begin if step is None else step))
        if step is not None:
            self.step = max(self.first, min(step, self.last))

    def _hand_at(self, step: int) -> int:
        """The index in `hands` of the hand that `step` belongs to (its deal, or a move of it)."""
        for i, (a, b, _) in enumerate(self.hands):
            if a <= step < b:
                return i
        return len(self.hands) - 1

    def choose(self, hand: int) -> None:
        """Review the `hand`-th hand of the range, from its first step."""
        if not self.hands:
            return
        self.hand = max(0, min(hand, len(self.hands) - 1))
        self.first, self.last, _ = self.hands[self.hand]
        self.step = self.first

    def hand_number(self) -> int:
        """The reviewed hand's number in the game (0 for the first)."""
        return self.hands[self.hand][2] if self.hands else 0

    def viewer(self, step: int) -> Player:
        return seat_of(self.states[step], self.me)

    def is_open(self, step: int) -> bool:
        """Whether every hand may be shown at `step`: its state belongs to the
        reviewed hand, and the transcript has finished that hand."""
        hand = hands_scored(self.states[step])
        return hand == self.hand_number() and hand < self.finished

    def observation(self, step: int) -> dict[str, Any]:
        obs = dict(self.states[step].observation(self.viewer(step)))
        obs["legal"] = []  # nothing to decide in a review
        return obs

    def events(self, step: int) -> list[Event]:
        """The events of the action that led to `step` (of the deal at step 0)
        as the person saw them: the log's words, "you" for the person."""
        if step not in self._events:
            self._events[step] = self.states[step].events(self.viewer(step))
        return self._events[step]

    def context(self, step: int) -> TableContext:
        from game.web.tables import TableContext

        log = [event for k in range(step + 1) for event in self.events(k)]
        hands = None
        if self.is_open(step):
            hands = {str(p): list(cards)
                     for p, cards in self.states[step].to_json()["hands"].items()}
        return TableContext(t=self.t, seat=self.viewer(step), log=log, open_hands=hands)

    def caption_lines(self, step: int | None = None) -> list[str]:
        """The step's events in words: at a hand's first step only its deal, at
        its last step not the next deal."""
        from game.web.tables import event_lines

        step = self.step if step is None else step
        ctx = self.context(step)
        own = self.events(step)
        if step == self.first:
            dealt = [i for i, ev in enumerate(own) if ev.get("kind") == "dealt"]
            own = own[dealt[-1]:] if dealt else own
        elif step == self.last and self.ends_hand(step):
            dealt = [i for i, ev in enumerate(own) if ev.get("kind") == "dealt"]
            own = own[:dealt[0]] if dealt else own
        return event_lines(self.table, own, ctx)

    def caption(self) -> str:
        return "\n".join(self.caption_lines())  # one line per event (the CSS keeps them)

    def hand_label(self, k: int) -> str:
        from game.web.start_screen import say

        return say(self.t, self.transcript.game, "review.hand", n=k + 1)

    def head_html(self) -> Html:
        """The title and, when the range holds several hands, a choice of hand."""
        from game.web.start_screen import say

        title = say(self.t, self.transcript.game, "review.title",
                    hand=self.hand_label(self.hand_number()))
        choice = EMPTY
        if len(self.hands) > 1:
            options = join(html('<option value="{}"{}>{}</option>', i,
                                html(" selected") if i == self.hand else EMPTY,
                                self.hand_label(k))
                           for i, (_, _, k) in enumerate(self.hands))
            choice = html('<label class="rv-choose">{}<select id="rv-hand" data-rv="hand">'
                          '{}</select></label>', self.t("review.choose"), options)
        return html('<h2 id="rv-title">{}</h2>{}<button type="button" data-rv="close" '
                    'id="rv-close" aria-keyshortcuts="Escape">{}</button>',
                    title, choice, self.t("review.close"))


# -- the browser part ------------------------------------------------------------

def start(app: Any, transcript: dict[str, Any], first_step: int = 0,
          last_step: int | None = None, me: Hashable | None = None,
          step: int | None = None) -> bool:
    """Open the review of `transcript` (the JSON form of game.core.transcript)
    over the page: its hands between steps `first_step` and `last_step` (the
    last step by default), from `me`'s seat (a lasting player, as a save's
    `setup.me`; the first seat if None), opened at `step` (the start of the
    range by default).  A transcript that does not replay is reported in the
    app's message line (False); nothing of the game on the table changes.

    `app` is the shell's App: its `t` (the language), `set_message(text)`,
    `gen` (bumped: the bots wait) and `schedule()` (on closing: they go on)."""
    from game.core.transcript import Transcript

    try:
        parsed = Transcript.from_json(transcript)
        states = parsed.states()
    except Exception as e:  # a transcript from outside: say why, change nothing
        app.set_message(app.t("review.failed", reason=str(e)[:300]))
        return False
    return _open(app, parsed, states, first_step, last_step, me, step)


def from_table(app: Any) -> None:
    """The Review button of a summary: the hand just finished, or at the end of
    the game any hand (opened on the last one)."""
    from game.core.transcript import Transcript

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


def _open(app: Any, transcript: Transcript, states: list[State], first_step: int = 0,
          last_step: int | None = None, me: Hashable | None = None,
          step: int | None = None) -> bool:
    from pyscript import document

    from game.web.tables import renderer

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

    def __init__(self, app: Any, view: Review) -> None:
        self.app, self.view = app, view
        self.proxies: list[Any] = []
        self.opener: Any = None
        self.dialog: Any = None

    @_kept
    def open(self) -> bool:
        from pyodide.ffi import create_proxy
        from pyscript import document

        from game.web.replay import Stepper

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
        import traceback

        from pyscript import window

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
        self.app.schedule()  # the bots carry on, if it is their turn
