"""Review: a finished hand (round, deal) replayed move by move, every card face up.

At the end of a hand the summary offers "Review" (that hand); at the end of
the game, any hand of the game.  The review is the same player as embed.html's
scripted examples (game.web.model.replay): first, previous, next, last, autoplay,
Left/Right and Home/End; each step's caption is the engine's events of that
step in the table's words (`event_text`), as the person saw them.

It is not a live game: its states are replayed from the transcript, and a
hand is shown open only once the transcript has finished it, so the hand in
progress (the next deal, under the summary) is never shown but as the person
sees it.

This module is the pure part (`Review`, `hand_ranges`; tested under CPython)
and the review as data: `Reviewing`, a frozen value inside the page
(`Page.review`, opened by `opened`, also for a transcript opened from a
file) with its reducer `review`. It is played over the page — pausing the
bots, never writing the save, never touching the game — in the modal
`<dialog>` of game.web.front.steps, drawn by game.web.runtime.step_player's
`review_frame`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Hashable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable

from game.core.transcript import Transcript
from game.web.model import analysing, replay
from game.web.model.analysing import Analysing
from game.web.draw.html import EMPTY, Html, html, join
from game.web.model.replay import Playing, Steps
from game.web.draw.start_screen import say
from game.web.draw.tables import Table, TableContext, event_lines, renderer
from game.web.model.undo import hands_scored, seat_of

if TYPE_CHECKING:
    from game.core.state import Event, Player, State
    from game.web.draw.i18n import Translator


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


def hand_spans(states: list[State], first_step: int = 0,
               last_step: int | None = None) -> list[tuple[int, int, int]]:
    """The hands between `first_step` and `last_step`: (first step, last step, its number)."""
    end = len(states) - 1 if last_step is None else max(0, min(last_step, len(states) - 1))
    begin = max(0, min(first_step, end))
    return [(max(a, begin), min(b, end), k)
            for k, (a, b) in enumerate(hand_ranges(states)) if a < end and b > begin]


def hand_at(hands: list[tuple[int, int, int]], step: int) -> int:
    """The index in `hands` of the hand that `step` belongs to (its deal, or a move of it)."""
    for i, (a, b, _) in enumerate(hands):
        if a <= step < b:
            return i
    return len(hands) - 1


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
        self.hands = hand_spans(states, first_step, last_step)
        # The hands the transcript has finished (all of a game over): only
        # these are ever shown open, never the one under way.
        self.finished = hands_scored(states[-1])
        self._events: dict[int, list[Event]] = {}
        self.hand = 0
        self.choose(self._hand_at(begin if step is None else step))
        if step is not None:
            self.step = max(self.first, min(step, self.last))

    def _hand_at(self, step: int) -> int:
        return hand_at(self.hands, step)

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
        log = [event for k in range(step + 1) for event in self.events(k)]
        hands = None
        if self.is_open(step):
            hands = {str(p): list(cards)
                     for p, cards in self.states[step].to_json()["hands"].items()}
        return TableContext(t=self.t, seat=self.viewer(step), log=log, open_hands=hands)

    def caption_lines(self, step: int | None = None) -> list[str]:
        """The step's events in words: at a hand's first step only its deal, at
        its last step not the next deal."""
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
        return say(self.t, self.transcript.game, "review.hand", n=k + 1)

    def head_html(self) -> Html:
        """The title and, when the range holds several hands, a choice of hand."""
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


# -- the review as data ----------------------------------------------------------------

@dataclass(frozen=True)
class Reviewing:
    """A review over the page: the transcript replayed (`states`), from
    `me`'s seat, the hands from `begin` on, the hand reviewed, where its step
    player is, and the hand whose heading the dialog shows."""

    transcript: Transcript
    states: tuple[State, ...]
    me: Hashable | None
    begin: int
    hand: int
    at: Playing
    headed: int | None = None
    # Hand analysis (game.web.model.analysis_view): each hand's, kept or under way;
    # the count of runs begun; whether this is the game on the table (a
    # finished analysis is then kept in its save); why a kept one was dropped.
    analyses: tuple[Analysing, ...] = ()
    runs: int = 0
    of_table: bool = False
    dropped: str | None = None

    def view(self, t: Translator) -> Review:
        """The pure view of where it is (game.web.runtime.step_player draws it)."""
        view = Review(self.transcript, list(self.states), renderer(self.transcript.game), t,
                      self.me, self.begin)
        view.choose(self.hand)
        view.step = self.at.step
        return view


@dataclass(frozen=True)
class ReviewCommand:
    """A command from the dialog: a step, the autoplay, a hand chosen, close."""
    cmd: str
    keep: str | None = None
    value: str | None = None


Refusal = tuple[str, dict[str, Any]]  # why a review does not open: a catalog key, its params


def opened(transcript: dict[str, Any], me: Hashable | None,
           on_table: bool) -> Reviewing | Refusal:
    """The review of `transcript` (its JSON form) from `me`'s seat; of the
    game on the table (`on_table`): the hand just finished, or at the end of
    the game any hand (opened on the last one)."""
    try:
        parsed = Transcript.from_json(transcript)
        states = parsed.states()
    except Exception as e:  # a transcript from outside, or a save's that does not replay
        return "review.failed", {"reason": str(e)[:300]}
    begin, step = 0, None
    if on_table:
        ranges = hand_ranges(states)
        last_hand = ranges[-1][0] if ranges else 0
        begin, step = (0, last_hand) if states[-1].over else (last_hand, None)
    try:
        renderer(parsed.game)
        hands = hand_spans(states, begin)
    except Exception as e:  # a renderer that cannot show it: say so, change nothing
        return "review.failed", {"reason": f"{type(e).__name__}: {e}"[:300]}
    if not hands:
        return "review.empty", {}
    hand = hand_at(hands, begin if step is None else step)
    first, last, _ = hands[hand]
    at = Playing(first if step is None else max(first, min(step, last)), first, last)
    kept, dropped = _kept_analyses(parsed, states)
    return Reviewing(parsed, tuple(states), me, begin, hand, at, analyses=kept,
                     of_table=on_table, dropped=dropped)


def _kept_analyses(transcript: Transcript, states: list[State]) -> tuple[
        tuple[Analysing, ...], str | None]:
    """The hand analyses kept with the game, checked against it; a damaged
    field is dropped whole, saying why (the game itself is kept)."""
    from game.analysis import AnalysisError, read_stored

    if transcript.analysis is None:
        return (), None
    try:
        return tuple(analysing.of_kept(h) for h in read_stored(transcript.analysis, states,
                                                     transcript.actions)), None
    except AnalysisError as e:
        return (), str(e)[:200]


Reviewed = tuple["Reviewing | None", tuple["replay.PlayEffect | analysing.Effect", ...]]


def review(r: Reviewing, action: ReviewCommand | replay.Tick) -> Reviewed:
    """The review after `action` (None: closed); its player's effects (and
    the analysis's commands are game.web.model.analysis_view's, routed by the page)."""
    step: replay.PlayAction = action if isinstance(action, replay.Tick) else \
        replay.Command(action.cmd, action.keep)
    if isinstance(action, ReviewCommand):
        own = REVIEW_COMMANDS.get(action.cmd)
        if own is not None:
            return own(r, action)
    at, effects = replay.play(r.at, step)
    return dataclasses.replace(r, at=at), effects


def _choose_hand(r: Reviewing, act: ReviewCommand) -> Reviewed:
    """Another hand of the game (its number in the dialog's choice)."""
    hands = hand_spans(list(r.states), r.begin)
    hand = max(0, min(int(str(act.value)), len(hands) - 1))
    first, last, _ = hands[hand]
    at = dataclasses.replace(replay.stopped(r.at), step=first, first=first, last=last)
    return dataclasses.replace(r, hand=hand, at=at), (replay.Draw(),)


# The Review's own commands besides the step player's (its dialog's message).
REVIEW_COMMANDS: dict[str, Callable[[Reviewing, ReviewCommand], Reviewed]] = {
    "close": lambda r, _: (None, ()), "hand": _choose_hand}
