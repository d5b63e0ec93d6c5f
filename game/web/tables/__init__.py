"""Per-game table renderers for the shared shell (game.web.shell).

A renderer module turns one player's observation into HTML and describes
actions in words; it never decides what is legal (the engine does). Every
renderer provides:

    setup_form(t, bots, values) -> str         the game's start-screen fields
    parse_setup(values, bots) -> dict           {"options", "me", "bots"}
    seat_of(state, me) -> player                whose observation to show
    identity_key(state, player) -> str          lasting player behind a seat
    render(obs, ctx) -> str                     the table
    events(before, action, after, ctx) -> list  log events (language-neutral)
    event_text(event, ctx) -> str               one log line
    score_sheet(obs, ctx) -> str                the per-hand score table
    hand_summary(obs, ctx) -> str               end-of-hand panel
    final_summary(obs, ctx) -> str              end-of-game panel
    last_trick(obs, ctx) -> str                 the last finished trick
    first_events(state, ctx) -> list            log events of a new game
    merge_event(log, events)                    append events to the log
    who_decides(obs, ctx) -> str                name of whoever acts now
    thinking_seat(obs) -> player                seat to mark while a bot thinks
    pause_factor(obs) -> float                  longer bot pauses (after a trick)

Optional: error_text(code, params, obs, ctx) -> str | None: a refused move
in the table's own words, from the engine's error code and params (None: the
shared `error.<code>` text is used; see `explain`).

Optional: hint(action, obs, ctx) -> (words, [CSS selectors]) says and highlights
the hint button's suggestion (game.web.hint describes the current tables).

Every function that returns markup returns `game.web.html.Html`, built with
`html()`/`join()`, which escape every value: a save or a URL can hold any
string, so no value reaches the page unescaped.

`ctx` is a `TableContext` (below).

Clickable elements carry `data-act="<action>"` for a one-click action; the
shell sends it to `state.apply`. A decision made of several clicks (a card,
then a cell) is held by the shell: a renderer may define
`parts(action) -> tuple[str, ...]` (the clickable parts of an action, a set:
order does not matter; default `(action,)`) and `confirm(action) -> bool`
(wait for a click on `data-cmd="confirm"` once complete; default False) and
`attempt(picked, obs) -> str | None` (the move picked parts spell even when it
is not legal, so that the engine's coded error can say why).
Elements carry `data-part="<part>"`; the shell toggles the part and reports
`ctx.picked`, `ctx.offers` and `ctx.complete`, computed from
`legal_actions()`. A container with `data-keys="row"` (or `"grid"` with
`data-cols`) gets arrow-key focus movement; Escape clears the picked parts.
An element `id="prompt"` in the table is read out to screen readers when it
changes. Renderers are imported only when their game is chosen.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import Any


@dataclass
class TableContext:
    """What a renderer knows besides the observation."""

    t: Any                      # the Translator
    seat: Any = None            # whose observation is shown
    thinking: Any = None        # the player a bot is thinking for
    log: list[dict[str, Any]] = field(default_factory=list)  # the game's events
    picked: tuple[str, ...] = ()       # parts of a decision chosen so far (sorted)
    offers: frozenset[str] = frozenset()  # parts that can be added and still be legal
    complete: str | None = None        # the action the picked parts make, if any

TABLES: dict[str, str] = {
    "jekyll-hyde": "game.web.tables.jekyll_hyde",
    "jekyll-vs-hyde": "game.web.tables.jekyll_vs_hyde",
    "dracula": "game.web.tables.dracula",
}


def renderer(game_id: str):
    return importlib.import_module(TABLES[game_id])


def explain(table: Any, error: Any, obs: dict[str, Any], ctx: TableContext) -> str:
    """An engine error (`GameError`) in the player's language, by its code: the
    table's own words where it has them, else the catalog's `error.<code>`."""
    own = getattr(table, "error_text", None)
    text = own(error.code, error.params, obs, ctx) if own is not None else None
    if text is not None:
        return text
    t = ctx.t
    key = f"error.{error.code}"
    if not t.has(key):
        key = f"error.{type(error).default_code}"
    words = {k: str(v) for k, v in error.params.items() if not isinstance(v, (list, dict))}
    return t(key, **words)
