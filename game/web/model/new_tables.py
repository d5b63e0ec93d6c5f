"""What a new game on the table is made of, worked out from values alone: a
deal of the start screen's choices, a lesson's coached hand, a game file's
position. Each gives the table's renderer, the state and the save the page
puts on the table (game.web.model.page's reducer); nothing here reads storage, the
clock or a random source: the seed and the time a deal starts come in.
"""

from __future__ import annotations

from typing import Any

from game import new_game
from game.bots import levels
from game.core.state import State
from game.web.model import handover
from game.web.model.coach import Coach, load
from game.web.model.files import OpenedFile, continue_save
from game.web.model.stats import new_game_id
from game.web.draw.tables import Table, renderer
from game.web.draw.tables.common import default_bot

Made = tuple[Table, State, dict[str, Any]]  # the renderer, the state, the save


def dealt(setup: dict[str, str], seed: int, started_ms: int) -> Made:
    """The start screen's choices (`setup`) dealt with `seed`, started at `started_ms`."""
    game = setup["game"]
    table = renderer(game)
    parsed = table.parse_setup(setup, list(levels(game)))
    state = new_game(game, parsed["options"], seed)
    kept = {"me": parsed["me"], "bots": parsed["bots"], "people": parsed.get("people", {})}
    if setup.get("no_takebacks") == "on":
        kept["no_takebacks"] = True
    return table, state, {
        "game": game, "setup": kept,
        "transcript": {"game": game, "options": state.to_json()["options"],
                       "seed": seed, "actions": []},
        "log": handover.log_events(state, kept), "seen_hands": 0,
        "id": new_game_id(seed, started_ms)}


def lesson(game: str) -> tuple[Table, State, dict[str, Any], Coach]:
    """`game`'s lesson, its bots the strongest level; never saved, so no id."""
    chosen = load(game)
    state = chosen.start()
    bot = list(levels(game))[-1]
    setup = {"me": chosen.me, "bots": {str(state.identity(p)): bot for p in state.players
                                       if str(state.identity(p)) != str(chosen.me)}}
    return renderer(game), state, {
        "game": game, "setup": setup,
        "transcript": {"game": game, "options": state.to_json()["options"],
                       "seed": chosen.seed, "actions": []},
        "log": handover.log_events(state, setup), "seen_hands": 0}, Coach(chosen, set())


def continued(opened: OpenedFile, step: int) -> Made:
    """The file's position after `step` actions, the default bot in every other place."""
    game = opened.final.game_id
    bots = list(levels(game))
    save, state = continue_save(opened, step, lambda who: default_bot(bots))
    return renderer(game), state, save
