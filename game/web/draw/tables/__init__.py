"""Per-game table renderers for the shared shell (game.web.draw.views, game.web.model.session).

A renderer module turns one player's observation into HTML and the engine's
events into words; it never decides what is legal (the engine does). What it
provides is the `Table` protocol below; its inputs about the game are
observations, the engine's events (`ctx.log`) and coded errors.

Every function that returns markup returns `game.web.draw.html.Html`, built with
`html()`/`join()`, which escape every value: a save or a URL can hold any
string, so no value reaches the page unescaped.

`ctx` is a `TableContext` (below).

Clickable elements carry `data-act="<action>"` for a one-click action; the
shell sends it to `state.apply`. A decision made of several clicks (a card,
then a cell) is held by the shell: the renderer's `parts`, `confirm` and
`attempt` say how (see `Table`), and `finished` draws the table behind a
hand's summary.
Elements carry `data-part="<part>"`; the shell toggles the part and reports
`ctx.picked`, `ctx.offers` and `ctx.complete`, computed from
`legal_actions()`. A container with `data-keys="row"` (or `"grid"` with
`data-cols`) gets arrow-key focus movement, which passes an element marked
`data-skip="true"` (give it `tabindex="-1"` too: a card the person may not
play now); Escape clears the picked parts.
The shell reads out to screen readers (the polite live region `#live`) the
`event_text` of each new event once, then the text of the element
`id="prompt"` on the person's turn; it focuses the prompt when the focused
control is gone.
Every hook is declared on `Table`, and every renderer provides each one: a
hook most games leave as it is has its default in game.web.draw.tables.common
(`parts`: game.web.model.choice.single), which a renderer takes as its own
(`confirm = never_confirm`). mypy checks every renderer against the protocol
(game.web.draw.tables.checked).
Renderers are imported only when their game is chosen.
"""

from __future__ import annotations

import importlib
from collections.abc import Hashable, Iterable
from dataclasses import dataclass, field
from typing import Any, Protocol

from game import GAMES
from game.core.state import GameError
from game.web.draw.html import EMPTY, Html, html, join
from game.web.draw.i18n import Translator
from game.web.draw.tables.common import Event, OptionField, Pick, Plan


@dataclass
class TableContext:
    """What a renderer knows besides the observation."""

    t: Translator
    seat: Any = None            # whose observation is shown
    thinking: Any = None        # the player a bot is thinking for
    log: list[dict[str, Any]] = field(default_factory=list)  # the game's events
    picked: tuple[str, ...] = ()       # parts of a decision chosen so far (sorted)
    offers: frozenset[str] = frozenset()  # parts that can be added and still be legal
    complete: str | None = None        # the action the picked parts make, if any
    # A simultaneous choice the engine asks the other player for first: the
    # person may choose now (`ahead`, the parts from the observation's
    # `ahead`), and the page holds what they chose (`held`) until it is asked.
    ahead: bool = False
    held: str | None = None
    # Every player's cards (str(player) -> cards), to show face up: set only by
    # the Review of a finished hand (game.web.model.review), never at a live table.
    open_hands: dict[str, list[str]] | None = None
    # Pass-and-play: the people's names by their seat now (as text); empty
    # when one person plays the bots, who are then "the bot".
    people: dict[str, str] = field(default_factory=dict)
    spectator: bool = False  # a scripted example: `seat` is watched, nobody is "you"
    paused: bool = False  # a lesson's note holds the hand: nobody is deciding

class Table(Protocol):
    """What the shell needs from a game's renderer module (each function a module attribute)."""

    # The engine options the start screen shows, each a <select> named after
    # the option (and a live embed's URL parameter).
    OPTION_FIELDS: tuple[OptionField, ...]
    # The seat a watcher's table is drawn from (at the bottom, its hand as backs:
    # game.web.online.table), as the engine names players.
    WATCH_SEAT: Any

    def setup_form(self, t: Translator, bots: list[str], values: dict[str, str]) -> Html:
        """The game's start-screen fields."""

    def parse_setup(self, values: dict[str, str], bots: list[str]) -> dict[str, Any]:
        """{"options", "me", "bots"} from the start screen's values."""

    def render(self, obs: dict[str, Any], ctx: TableContext) -> Html:
        """The table."""

    def hint_text(self, action: str, obs: dict[str, Any], ctx: TableContext) -> str:
        """The suggested `action` in words (the shell highlights what to click)."""

    def event_text(self, event: dict[str, Any], ctx: TableContext) -> str:
        """One log line for one engine event ("" if there is nothing to say)."""

    def score_sheet(self, obs: dict[str, Any], ctx: TableContext) -> Html:
        """The per-hand score table."""

    def hand_summary(self, obs: dict[str, Any], ctx: TableContext) -> Html:
        """The end-of-hand panel."""

    def final_summary(self, obs: dict[str, Any], ctx: TableContext) -> Html:
        """The end-of-game panel."""

    def last_trick(self, obs: dict[str, Any], ctx: TableContext) -> Html:
        """The last finished trick (or deal)."""

    def who_decides(self, obs: dict[str, Any], ctx: TableContext) -> str:
        """The name of whoever acts now."""

    def thinking_seat(self, obs: dict[str, Any]) -> Any:
        """The seat to mark while a bot thinks."""

    def pause_factor(self, obs: dict[str, Any]) -> float:
        """How much longer a bot pauses here (after a trick, so people see it)."""

    def error_text(self, code: str, params: dict[str, Any], obs: dict[str, Any],
                   ctx: TableContext) -> str | None:
        """An engine error in the table's own words, by its code and params;
        None: the catalog's `error.<code>` says it (`explain`)."""

    # -- decisions of several clicks, held by the shell (game.web.model.choice) --------

    def parts(self, action: str) -> tuple[str, ...]:
        """The clickable parts of an action, a set: order does not matter
        (default `choice.single`: the action itself)."""

    def confirm(self, action: str) -> bool:
        """Whether `action`, once complete, waits for a click on
        `data-cmd="confirm"` (default `common.never_confirm`)."""

    def attempt(self, picked: tuple[str, ...], obs: dict[str, Any]) -> str | None:
        """The move the picked parts spell even when it is not legal, so that
        the engine's coded error can say why (default `common.no_attempt`)."""

    def finished(self, before: dict[str, Any], obs: dict[str, Any],
                 ctx: TableContext) -> Html | None:
        """The table as a hand just scored left it, drawn behind the hand's
        summary while the engine has already dealt the next hand (`obs`), from
        the observation `before` the action that scored it; None: the next
        hand is drawn there."""

    def motion(self, events: Iterable[Event], me: Any) -> Plan:
        """The cards an action's `events` (as `me` sees them) move
        (game.web.draw.motion)."""

    def waiting(self, t: Translator) -> Html | None:
        """The part of the table that no deal changes, which an embed paints
        before its game is up (game.build); None: nothing (default
        `common.no_waiting`)."""

    def online_options(self, options: dict[str, Any], people: dict[str, str]) -> dict[str, Any]:
        """An online table's options once its seats are taken (`people`: seat
        -> name); default `common.same_options`."""

    # -- the game's facts in words, for the panels (statistics, files, online) ----

    # Whether the game's rules know a drawn game: the statistics' "drawn" column.
    DRAWS: bool

    def stats_mode(self, options: dict[str, Any], me: Hashable) -> str:
        """The mode a finished game counts under in the statistics
        (game.web.model.stats), from its options and the person's lasting player."""

    def rated_options(self, mode: str) -> dict[str, Any] | None:
        """The options of a statistics `mode` that pick a mode of the bots'
        ratings; None for a mode this version does not know."""

    def mode_text(self, t: Translator, mode: str) -> str:
        """A statistics mode in words (an unknown one, from another version's
        export, as it is)."""

    def player_name(self, identity: Hashable, t: Translator) -> str:
        """A lasting player (`State.identity`) in words."""

    def winner_text(self, winner: str, t: Translator) -> str:
        """Who won a finished game (`State.winner`, not None) in words."""

    def seat_word(self, who: str, t: Translator) -> str:
        """A seat of an online room (game.online.host's `who`) in words."""

    def every_bot(self, level: str) -> dict[str, str]:
        """The start-screen values that seat a bot of strength `level` in
        every place a bot sits (a live embed's `bots=`)."""

    def seat_params(self, values: dict[str, str], pick: Pick) -> dict[str, str]:
        """The start-screen values that say which player the person is, from a
        live embed's URL (game.web.embed.options; `values`: its engine options read
        already)."""


# game id -> its renderer: game/web/draw/tables/ holds one module per game package,
# with the package's name (game.dracula -> game.web.draw.tables.dracula).
TABLES: dict[str, str] = {game_id: "game.web.draw.tables." + package.rpartition(".")[2]
                          for game_id, package in GAMES.items()}


def renderer(game_id: str) -> Table:
    """The renderer module of `game_id` (imported on first use)."""
    module: Table = importlib.import_module(TABLES[game_id])
    return module


def event_lines(table: Table, events: list[dict[str, Any]], ctx: TableContext) -> list[str]:
    """`events` as lines in the person's language, as the log shows them (an
    odd entry of an old save, or one with nothing to say, gives no line)."""
    return [text for text in (event_line(table, ev, ctx) for ev in events) if text]


def event_line(table: Table, event: dict[str, Any], ctx: TableContext) -> str:
    try:
        return table.event_text(event, ctx)
    except Exception:  # an odd entry in an old save: no line
        return ""


class WordedLog:
    """A log's lines, each event worded once: the side panel's log is drawn
    again after every move, and wording it all each time was most of a
    redraw. An event's line depends on the events before it, the seat it is
    read from, the people's names and the language: another of those words
    it all again, and a log cut back (an undo) from where it changed."""

    def __init__(self) -> None:
        self.words: tuple[Any, ...] = ()
        self.events: list[dict[str, Any]] = []  # the events worded, in the log's order
        # Each one's <li> (EMPTY: it has nothing to say; None: not worded yet).
        self.items: list[Html | None] = []
        self.drawn: tuple[int, Html] | None = None  # (`last`, the markup) of the last call

    def markup(self, table: Table, ctx: TableContext, last: int) -> Html:
        """The `<li>` lines of the last `last` events of `ctx.log` (only those are worded)."""
        log = ctx.log
        words = (table, ctx.t.lang, ctx.t.touch, ctx.seat, ctx.spectator,
                 tuple(ctx.people.items()))
        if words != self.words:
            self.words, self.events, self.items, self.drawn = words, [], [], None
        kept = 0
        for before, now in zip(self.events, log):  # (the same objects: a log only grows)
            if before is not now:
                break
            kept += 1
        if kept < len(self.events) or kept < len(log):
            del self.events[kept:], self.items[kept:]
            self.events += log[kept:]
            self.items += [None] * (len(log) - kept)
            self.drawn = None
        if self.drawn is None or self.drawn[0] != last:
            start = max(0, len(log) - last)
            for i in range(start, len(log)):
                if self.items[i] is None:
                    text = event_line(table, log[i], ctx)
                    self.items[i] = html("<li>{}</li>", text) if text else EMPTY
            self.drawn = (last, join(self.items[start:]))
        return self.drawn[1]


def explain(table: Table, error: GameError, obs: dict[str, Any], ctx: TableContext) -> str:
    """An engine error in the player's language, by its code: the table's own
    words (its `error_text`) where it has them, else the catalog's `error.<code>`."""
    text = table.error_text(error.code, error.params, obs, ctx)
    if text is not None:
        return text
    t = ctx.t
    key = f"error.{error.code}"
    if not t.has(key):
        key = f"error.{type(error).default_code}"
    words = {k: str(v) for k, v in error.params.items() if not isinstance(v, (list, dict))}
    return t(key, **words)
