"""The step-by-step player of a replayed game, shared by embed.html's scripted
examples (game.web.embed.options) and the Review of finished hands (game.web.model.review).

A transcript replays into the list of its states (the state before each
action and after the last one); step `n` shows the state after `n` actions.
`Steps` is the pure view of one step (HTML strings, tested under CPython);
game.web.runtime.step_player drives it (first, previous, next, last, autoplay) and
game.web.front.steps draws it into the page and takes its buttons and keys
(Left/Right, Home/End).  Undo (game.web.model.undo) replays through
`replay_states` too.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Protocol, Union

from game.web.draw.html import EMPTY, Html, html

if TYPE_CHECKING:
    from game.core.state import Player, State
    from game.core.transcript import Transcript
    from game.web.draw.i18n import Translator
    from game.web.draw.tables import Table, TableContext

AUTOPLAY_SECONDS = 2.5


def replay_states(transcript: dict[str, Any]) -> list[State]:
    """The state before each action of `transcript` (its JSON form, checked
    like any transcript from outside) and after the last one."""
    from game.core.transcript import Transcript

    return Transcript.from_json(transcript).states()


def word(lang: str, key: str, **kw: Any) -> str:
    """A player text (`embed.<key>` in the language catalogs)."""
    from game.web.draw.i18n import Translator

    return Translator(lang)("embed." + key, **kw)


class Steps:
    """The view of a replayed game at one step, between `first` and `last`
    (pure: HTML strings).  As is, it is a scripted example's view: the table
    as one player sees it throughout, watched as a spectator, the transcript's
    own captions."""

    def __init__(self, transcript: Transcript, states: list[State], table: Table,
                 t: Translator, seat: str | None = None, step: int = 0) -> None:
        self.transcript, self.states, self.table, self.t = transcript, states, table, t
        self.fixed = None if seat is None else self._seat(seat)
        self.first, self.last = 0, len(states) - 1
        self.step = max(self.first, min(step, self.last))

    def _seat(self, seat: str) -> Player | None:
        state = self.states[0]
        for p in (0, 1, 2, 3, "J", "H"):
            if str(p) == str(seat):
                try:
                    state.observation(p)
                    return p
                except Exception:
                    break
        return None

    def move(self, where: str) -> None:
        """Go to the "first", "prev", "next" or "last" step (MOVES)."""
        self.step = MOVES[where](self)

    def viewer(self, step: int) -> Player | None:
        """Whose observation is shown, the same at every step so that the seats
        never change sides: `seat=`, else the first player to decide."""
        if self.fixed is not None:
            return self.fixed
        return next((s.to_act for s in self.states if s.to_act is not None), None)

    def context(self, step: int) -> TableContext:
        """What the renderer knows besides the observation at `step`: a scripted
        example is watched, not played (nobody is "you")."""
        from game.web.draw.tables import TableContext

        return TableContext(t=self.t, seat=self.viewer(step), spectator=True)

    def observation(self, step: int) -> dict[str, Any]:
        return self.states[step].observation(self.viewer(step))

    def ends_hand(self, step: int) -> bool:
        """Whether the action that led to `step` finished a hand (round, deal)."""
        return step > 0 and (self.states[step].hands_scored
                             > self.states[step - 1].hands_scored)

    def table_html(self) -> Html:
        state = self.states[self.step]
        ctx = self.context(self.step)
        obs = self.observation(self.step)
        table = self.table.render(obs, ctx)
        summary = EMPTY
        if state.over:
            summary = self.table.final_summary(obs, ctx)
        elif self.ends_hand(self.step):
            summary = self.table.hand_summary(obs, ctx)
        if summary:  # the point of this step: above the table (the next deal is below)
            summary = html('<div class="ex-summary sheet">{}</div>', summary)
        own = f"{state.game_id}/app.title"  # the page's heading, for screen readers
        title = self.t(own) if self.t.has(own) else self.t("app.title")
        return html('<h1 class="sr">{}</h1>{}{}', title, summary, table)

    def caption(self) -> str:
        return self.transcript.caption(self.step, self.t.lang)

    def step_label(self) -> str:
        n, total = self.step - self.first, self.last - self.first
        return word(self.t.lang, "start") if n == 0 else word(self.t.lang, "step", n=n,
                                                                total=total)

    def controls_html(self, playing: bool) -> Html:
        lang = self.t.lang
        disabled = html(" disabled")
        at_first = disabled if self.step <= self.first else EMPTY
        at_last = disabled if self.step >= self.last else EMPTY
        return html(
            '<button type="button" data-ex="first" id="ex-first"{at_first} aria-label="{first}" '
            'title="{first}" aria-keyshortcuts="Home">|◀</button>'
            '<button type="button" data-ex="prev" id="ex-prev"{at_first} aria-label="{prev}" '
            'aria-keyshortcuts="ArrowLeft">◀ <span>{prev}</span></button>'
            '<button type="button" data-ex="play" id="ex-play" aria-pressed="{pressed}">'
            '{icon} <span>{play}</span></button>'
            '<button type="button" data-ex="next" id="ex-next"{at_last} aria-label="{next}" '
            'aria-keyshortcuts="ArrowRight"><span>{next}</span> ▶</button>'
            '<button type="button" data-ex="last" id="ex-last"{at_last} aria-label="{last}" '
            'title="{last}" aria-keyshortcuts="End">▶|</button>'
            '<span class="ex-step" id="ex-step">{label}</span>',
            at_first=at_first, first=word(lang, "first"), prev=word(lang, "prev"),
            pressed="true" if playing else "false", icon="❚❚" if playing else "▶▶",
            play=word(lang, "pause" if playing else "play"), at_last=at_last,
            next=word(lang, "next"), last=word(lang, "last"), label=self.step_label())


def error_html(lang: str, message: str) -> Html:
    return html('<div class="ex-error" role="alert" id="ex-error"><h1>{}</h1><p>{}</p></div>',
                word(lang, "err.title"), message)


class Span(Protocol):
    """A step between `first` and `last` (a view, or a player's `Playing`)."""

    @property
    def first(self) -> int: ...

    @property
    def last(self) -> int: ...

    @property
    def step(self) -> int: ...


# The step each move of the step player goes to (its commands; "play" is the autoplay).
MOVES: dict[str, Callable[[Span], int]] = {
    "first": lambda view: view.first, "prev": lambda view: max(view.step - 1, view.first),
    "next": lambda view: min(view.step + 1, view.last), "last": lambda view: view.last}


# -- the step player as data: where it is, and a pure reducer ------------------------

@dataclass(frozen=True)
class Playing:
    """A step player's place: its step between `first` and `last`, whether
    it plays by itself, and which run of that autoplay is current (a tick of
    an older run is dropped)."""

    step: int
    first: int
    last: int
    playing: bool = False
    run: int = 0


@dataclass(frozen=True)
class Command:
    """A command of the player's controls (`COMMANDS`); `keep`: the control
    (an id) to focus again, since the controls are drawn anew."""
    cmd: str
    keep: str | None = None


@dataclass(frozen=True)
class Tick:
    """The autoplay's next step is due (for its run `run`)."""
    run: int


@dataclass(frozen=True)
class Draw:
    """Draw the player (a frame), focusing `keep` again."""
    keep: str | None = None


@dataclass(frozen=True)
class Wait:
    """A `Tick(run)` after AUTOPLAY_SECONDS."""
    run: int


PlayAction = Union[Command, Tick]
PlayEffect = Union[Draw, Wait]
Played = tuple[Playing, tuple[PlayEffect, ...]]


def play(at: Playing, action: PlayAction) -> Played:
    """The player after `action`; a command it does not know changes nothing."""
    if isinstance(action, Tick):
        if not at.playing or action.run != at.run:
            return at, ()
        if at.step >= at.last:
            return dataclasses.replace(at, playing=False), (Draw(),)
        return dataclasses.replace(at, step=at.step + 1), (Draw(), Wait(at.run))
    do = COMMANDS.get(action.cmd)
    if do is None:
        return at, ()
    at, effects = do(at)
    return at, (Draw(action.keep), *effects)


def _toggle_play(at: Playing) -> tuple[Playing, tuple[PlayEffect, ...]]:
    """Autoplay on (from the first step, at the last) or off."""
    at = dataclasses.replace(at, playing=not at.playing, run=at.run + 1)
    if not at.playing:
        return at, ()
    if at.step >= at.last:
        at = dataclasses.replace(at, step=at.first)
    return at, (Wait(at.run),)


def _go(where: str) -> Callable[[Playing], tuple[Playing, tuple[PlayEffect, ...]]]:
    """A step chosen (MOVES): the autoplay stops."""
    return lambda at: (dataclasses.replace(stopped(at), step=MOVES[where](at)), ())


def stopped(at: Playing) -> Playing:
    """The autoplay ended (the person took over, or the player is closing)."""
    return dataclasses.replace(at, playing=False, run=at.run + 1)


# The step player's commands (game.web.front.steps sends them): a move, or the autoplay.
COMMANDS: dict[str, Callable[[Playing], tuple[Playing, tuple[PlayEffect, ...]]]] = {
    "play": _toggle_play, **{where: _go(where) for where in MOVES}}
