"""The saved-game format (versioned), independent of the browser.

Each game keeps its own save, one JSON object in localStorage under
`key(game)` ("jhg.save.dracula"), so starting one game never discards
another's; `CURRENT_KEY` names the game last on the table. A save is:

    {"format": "jekyll-hyde-games/save", "version": 2,
     "game": "jekyll-hyde",
     "setup": {"me": ..., "bots": {identity: bot name}, "no_takebacks": bool?,
               "people": {identity: name}?},
     "at_screen": identity?,
     "transcript": {"game", "options", "seed", "actions"},
     "state": state.to_json(),
     "log": [events], "seen_hands": n, "practice": bool?, "from_file": bool?,
     "id": str?, "revision": n?}

`practice` marks a game in which the person took a decision back (undo);
`from_file` one continued from a game file (game.web.model.files), not from a deal.
`people` lists the people sharing the screen (pass-and-play, game.web.model.handover)
and `at_screen` the one whose view the table shows.
`id` names the game for the statistics (its seed and start time), so a
finished game is counted once however often it is loaded.
`revision` counts the writes under the game's key (a new game goes on from
the count of the one it replaces), so a tab never writes over a newer save
than the one it holds (game.web.tabs).

Version 2 changed what some levels play (`MOVED_IN_2`); a version-1 save is
read with its bots moved to the level that plays the same bot now, so a game
goes on against the opponent it began with.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, Callable

if TYPE_CHECKING:
    from game.core.state import State

FORMAT = "jekyll-hyde-games/save"
VERSION = 2
OLDER_VERSIONS = (1,)  # read too, and brought up to date
# Version 1's levels that another level plays since version 2 (of the saves
# and the statistics alike), by game: Dracula's normal was the heuristic (now
# strong), its strong the 1 s search (now expert), its expert that search
# thinking 3 s (now the 1 s search as well: 3 s played no better).
MOVED_IN_2 = {"dracula": {"heuristic": "strong", "strong": "expert"}}
LEGACY_KEY = "jhg.save"  # the one save of every game, before each game kept its own
CURRENT_KEY = "jhg.current"
BROKEN_PREFIX = "jhg.broken."
PREFS_KEY = "jhg.prefs"


def key(game: str) -> str:
    """The localStorage key of `game`'s save.

    >>> key("dracula")
    'jhg.save.dracula'
    """
    return f"{LEGACY_KEY}.{game}"


def game_of(text: str) -> str | None:
    """The known game a save says it holds, without checking the rest; None
    when it names none (such a save stays where it is, to be refused and kept).

    >>> game_of('{"format": "jekyll-hyde-games/save", "game": "dracula"}')
    'dracula'
    >>> game_of('{"game": "dracula"') is None
    True
    """
    from game import GAMES
    from game.core.transcript import too_deep

    if too_deep(text):  # not a save; and its parsing would overflow Pyodide's stack
        return None
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return None
    game = data.get("game") if isinstance(data, dict) else None
    return game if isinstance(game, str) and game in GAMES else None


def revision_of(text: str | None) -> int:
    """The revision of a stored save (0 for none, or for one that names none).

    >>> revision_of('{"format": "jekyll-hyde-games/save", "revision": 7}'), revision_of(None)
    (7, 0)
    >>> revision_of('{"revision": true}'), revision_of('not json')
    (0, 0)
    """
    from game.core.transcript import too_deep

    if not text or too_deep(text):
        return 0
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return 0
    value = data.get("revision") if isinstance(data, dict) else None
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else 0


PREFS_LIMIT = 64 * 1024  # characters; the page writes a few hundred


def read_prefs(text: str | None) -> tuple[dict[str, Any], str | None]:
    """The stored preferences as the page may use them, and why something of
    them was ignored (None when nothing was): a value of a known field that is
    not one the page offers is dropped, anything else unreadable means none.
    Fields this version does not know (a newer version's) are kept.

    >>> read_prefs('{"lang": "fr", "speed": "warp", "theme": 1}')
    ({'lang': 'fr', 'theme': 1}, "'speed' is not a pace of this site")
    >>> read_prefs('{[')
    ({}, 'not JSON')
    >>> read_prefs(None)
    ({}, None)
    """
    from game import GAMES
    from game.core.transcript import too_deep
    from game.web.draw.i18n import LANGUAGES
    from game.web.draw.start_screen import SPEEDS

    if not text:
        return {}, None
    if len(text) > PREFS_LIMIT:
        return {}, f"{len(text):,} characters, far more than preferences take"
    if too_deep(text):
        return {}, "nested too deeply"
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return {}, "not JSON"
    if not isinstance(data, dict):
        return {}, "not an object"
    def choices(setup: Any) -> bool:
        return (isinstance(setup, dict)
                and all(isinstance(v, str) and len(v) <= 40 for v in setup.values())
                and setup.get("game", next(iter(GAMES))) in GAMES)

    checks: dict[str, tuple[Callable[[Any], bool], str]] = {
        "lang": (lambda v: v in LANGUAGES, "a language of this site"),
        "speed": (lambda v: isinstance(v, str) and v in SPEEDS, "a pace of this site"),
        "setup": (choices, "a start screen's choices")}
    bad = [k for k, (ok, _) in checks.items() if k in data and not ok(data[k])]
    kept = {k: v for k, v in data.items() if k not in bad}
    return kept, "; ".join(f"'{k}' is not {checks[k][1]}" for k in bad) or None


class BrokenSave(ValueError):
    """A save that cannot be loaded; the message says why."""


def dump(save: dict[str, Any]) -> str:
    return json.dumps({"format": FORMAT, "version": VERSION, **save}, separators=(",", ":"))


def read_record(text: str, fmt: str, version: int, what: str,
                broken: type[ValueError], older: tuple[int, ...] = ()) -> dict[str, Any]:
    """`text` as a record of this site, `{"format": fmt, "version": version, ...}`
    (a save, the statistics; or one of the `older` versions its reader
    brings up to date), or `broken` saying why not (`what` names the kind).

    >>> read_record('{"format": "f", "version": 2}', "f", 1, "a save", BrokenSave)
    Traceback (most recent call last):
    ...
    game.web.model.saves.BrokenSave: written by another version (2, this site reads 1)
    """
    from game.core.transcript import too_deep

    if too_deep(text):  # its parsing would overflow Pyodide's stack
        raise broken("nested too deeply")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as e:
        raise broken(f"not JSON ({e})") from e
    if not isinstance(data, dict) or data.get("format") != fmt:
        raise broken(f"not {what} of this site")
    if data.get("version") != version and (isinstance(data.get("version"), bool)
                                           or data.get("version") not in older):
        raise broken(f"written by another version ({data.get('version')!r:.20}, "
                     f"this site reads {version})")
    return data


def load(text: str) -> tuple[dict[str, Any], State]:
    """Parse a save and rebuild its state: (save dict, state), or raise BrokenSave."""
    from game import GAMES, GameError, state_from_json

    data = read_record(text, FORMAT, VERSION, "a saved game", BrokenSave,
                       older=OLDER_VERSIONS)
    game = data.get("game")
    if game not in GAMES:
        raise BrokenSave(f"unknown game {game!r:.40}")
    if data["version"] == 1:
        _move_levels(data, MOVED_IN_2.get(game, {}))
    for key, kind in (("setup", dict), ("transcript", dict), ("state", dict), ("log", list)):
        if not isinstance(data.get(key), kind):
            raise BrokenSave(f"'{key}' is missing or malformed")
    try:
        state = state_from_json(data["state"])
    except GameError as e:
        raise BrokenSave(str(e)) from e
    except Exception as e:  # a save is data from outside: never crash on it
        raise BrokenSave(f"{type(e).__name__}: {e}") from e
    if state.game_id != game:
        raise BrokenSave("the state is of another game")
    _check_shell_parts(data, state)
    return data, state


def _move_levels(data: dict[str, Any], moved: dict[str, str]) -> None:
    """Bring a version-1 save up to date: its bots to the levels that play
    them now (whatever is not a level is left for the checks to refuse)."""
    setup = data.get("setup")
    if isinstance(setup, dict) and isinstance(setup.get("bots"), dict):
        setup["bots"] = {seat: moved.get(bot, bot) if isinstance(bot, str) else bot
                         for seat, bot in setup["bots"].items()}
    data["version"] = VERSION  # written back as it is read now: moved once only


MAX_ACTIONS = 100_000  # far more than any game: a longer list is not a save of ours
MAX_LOG = 20_000


def _check_shell_parts(data: dict[str, Any], state: State) -> None:
    """Everything the shell reads besides the engine state, checked before use."""
    from game.bots import levels
    from game.web.model.inputs import BadNumber, check_int

    setup, transcript = data["setup"], data["transcript"]
    me = setup.get("me")
    if isinstance(me, bool) or not isinstance(me, (int, str)) or len(str(me)) > 40:
        raise BrokenSave("'setup.me' does not say who plays")
    bots = setup.get("bots")
    known = list(levels(data["game"]))
    if not isinstance(bots, dict) or not all(
            isinstance(k, str) and len(k) <= 40 and v in known for k, v in bots.items()):
        raise BrokenSave("'setup.bots' is not a map of seats to known bots")
    people = setup.get("people", {})
    if not isinstance(people, dict) or not all(
            isinstance(k, str) and len(k) <= 40 and isinstance(v, str) and len(v) <= 40
            for k, v in people.items()):
        raise BrokenSave("'setup.people' is not a map of players to names")
    at_screen = data.get("at_screen", "")
    if not isinstance(at_screen, str) or len(at_screen) > 40:
        raise BrokenSave("'at_screen' does not name a person")
    if transcript.get("game", data["game"]) != data["game"]:
        raise BrokenSave("'transcript.game' is another game")
    if not isinstance(transcript.get("options", {}), dict):
        raise BrokenSave("'transcript.options' is not an object")
    actions = transcript.get("actions", [])
    if (not isinstance(actions, list) or len(actions) > MAX_ACTIONS
            or not all(isinstance(a, str) and len(a) <= 40 for a in actions)):
        raise BrokenSave("'transcript.actions' is not a list of actions")
    log = data["log"]
    if len(log) > MAX_LOG or not all(isinstance(e, dict) for e in log):
        raise BrokenSave("'log' is not a list of events")
    try:
        check_int(transcript.get("seed", 0), "transcript.seed")
        check_int(data.get("seen_hands", 0), "seen_hands",
                  hi=state.hands_scored)
        check_int(data.get("revision", 0), "revision")
    except BadNumber as e:
        raise BrokenSave(str(e)) from e
    if not isinstance(data.get("id", ""), str) or len(data.get("id", "")) > 80:
        raise BrokenSave("'id' is not a game id")
    for where, key in ((data, "closed_final"), (data, "practice"), (data, "from_file"),
                       (setup, "no_takebacks")):
        if not isinstance(where.get(key, False), bool):
            raise BrokenSave(f"'{key}' is not true or false")
