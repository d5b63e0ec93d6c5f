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
    explain(message, obs, ctx) -> str           an engine error in words
    score_sheet(obs, ctx) -> str                the per-hand score table
    hand_summary(obs, ctx) -> str               end-of-hand panel
    final_summary(obs, ctx) -> str              end-of-game panel
    last_trick(obs, ctx) -> str                 the last finished trick
    first_events(state, ctx) -> list            log events of a new game
    merge_event(log, events)                    append events to the log
    who_decides(obs, ctx) -> str                name of whoever acts now
    thinking_seat(obs) -> player                seat to mark while a bot thinks
    pause_factor(obs) -> float                  longer bot pauses (after a trick)

Optional: hint(action, obs, ctx) -> (words, [CSS selectors]) says and highlights
the hint button's suggestion (game.web.hint describes the current tables).

`ctx` has `t` (the Translator), `seat` (whose observation is shown),
`thinking` (the player a bot is thinking for) and `log` (the game's events).

Clickable elements carry `data-act="<action>"`; the shell sends that action
to `state.apply`. An element `id="prompt"` in the table is read out to
screen readers when it changes. Renderers are imported only when their game
is chosen.
"""

from __future__ import annotations

import importlib

TABLES: dict[str, str] = {
    "jekyll-hyde": "game.web.tables.jekyll_hyde",
    "jekyll-vs-hyde": "game.web.tables.jekyll_vs_hyde",
    "dracula": "game.web.tables.dracula",
}


def renderer(game_id: str):
    return importlib.import_module(TABLES[game_id])
