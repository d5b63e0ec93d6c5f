"""Statistics of finished games: what is recorded, kept, merged and summed up.

Pure Python (no browser import), tested in CPython; `game.web.model.stats_page`
reads and writes it in the page. The record lives in localStorage under
`KEY` as one JSON object:

    {"format": "jekyll-hyde-games/stats", "version": 1,
     "games": [{"id", "game", "mode", "level", "result", "score", "ended"}, ...]}

one entry per finished game, oldest first (at most `MAX_GAMES`: the oldest
go first). Keeping the games rather than totals makes a record easy to check,
lets an import merge without counting a game twice (by `id`), and gives the
streaks and the charts their order.

- `id`: the save's game id (`new_game_id`: the seed and the start time), so a
  reload at the end screen, which sees the same finished game again, adds
  nothing.
- `mode`: how the game was played (`mode_of`): Werner's players, seating and
  target ("4A-1000", "3-300": a score to 300 is no match for one to 1000);
  the duel's variant, and in the standard game the person's role
  ("standard-J", "standard-H", "return-match": Jekyll and Hyde win in
  different ways); Dracula "standard".
- `level`: the bots' strength (`level_of`): the bot name when every bot the
  person played with (Werner's partner too) had the same, else "mixed" (its
  own bucket: "the strongest" would count a random partner as a strong one).
  A game with friends on their own devices (`setup.remote`) is "online",
  a bucket of its own, whatever bots sat with them.
- `result` and `score`: from the engine alone (`outcome`): `state.returns()`
  of the person (1 won, 0 lost, 0.5 drawn; in Werner's team game a team's
  win is each of its players'), and the person's (or team's) total in the
  state's `scores`.

A game with a take-back (`"practice": true` in its save) is not recorded.

Version 2 came with Dracula's ladder one bot lower (`LADDER` in
game/dracula/bots.py): a version-1 record's Dracula games move to the level
their bot plays now (`MOVED_LEVELS`), so each level's figures stay games
against one bot; version-1 records (stored, or a file) are read that way.
"""

from __future__ import annotations

import json
import re
from collections.abc import Hashable
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any, Iterable

from game.web.model.saves import MOVED_IN_2
from game.web.draw.tables import renderer

if TYPE_CHECKING:
    from game.core.state import State

KEY = "jhg.stats"
FORMAT = "jekyll-hyde-games/stats"
VERSION = 2
# Levels that another level plays now, by the version of the record.
MOVED_LEVELS = {1: MOVED_IN_2}
MAX_GAMES = 5000
MAX_TEXT = 4_000_000  # characters: a file or record longer than this is not ours
RESULTS = ("won", "lost", "drawn")
MIXED = "mixed"
ONLINE = "online"  # a game with friends on their own devices: a bucket of its own
_ID = re.compile(r"[A-Za-z0-9:._-]{1,80}")
_MODE = re.compile(r"[A-Za-z0-9-]{1,40}")
_FIELDS = ("id", "game", "mode", "level", "result", "score", "ended")
_BIGGEST = 2**53  # a JSON number every browser reads exactly


class BrokenStats(ValueError):
    """A statistics record (stored or imported) that cannot be read; the message says why."""


@dataclass(frozen=True)
class GameRecord:
    """One finished game as the statistics keep it."""

    id: str
    game: str
    mode: str
    level: str
    result: str  # one of RESULTS
    score: int
    ended: int  # milliseconds since 1970 (the order of games merged from two records)


@dataclass(frozen=True)
class Stats:
    """Every recorded game, oldest first."""

    games: tuple[GameRecord, ...] = ()

    def ids(self) -> set[str]:
        return {g.id for g in self.games}


# -- what a finished game gives ------------------------------------------------

def new_game_id(seed: int, now_ms: int) -> str:
    """The id a new game's save keeps: its deal and when it started.

    >>> new_game_id(7, 1700000000123)
    '7-1700000000123'
    """
    return f"{seed}-{now_ms}"


def valid_id(game_id: Any) -> bool:
    """Whether `game_id` can name a game in the statistics.

    >>> valid_id("7-1700000000123"), valid_id("<b>"), valid_id(7)
    (True, False, False)
    """
    return isinstance(game_id, str) and _ID.fullmatch(game_id) is not None


def mode_of(game: str, options: dict[str, Any], me: Hashable) -> str:
    """The mode a game counts under (see the module's docstring), as its
    table says (`stats_mode`).

    >>> mode_of("jekyll-hyde", {"players": 4, "seating": "B", "target": 300}, 0)
    '4B-300'
    >>> mode_of("jekyll-vs-hyde", {"variant": "standard"}, "H")
    'standard-H'
    >>> mode_of("dracula", {"first_dealer": 1}, 0)
    'standard'
    """
    return renderer(game).stats_mode(options, me)


def rated_options(game: str, mode: str) -> dict[str, Any] | None:
    """The options of `mode` that pick a mode of the bots' ratings (Werner's
    players, the duel's variant), None for a mode this version does not know.

    >>> rated_options("jekyll-hyde", "3-300"), rated_options("jekyll-vs-hyde", "standard-H")
    ({'players': 3}, {'variant': 'standard'})
    >>> rated_options("jekyll-vs-hyde", "return-match"), rated_options("dracula", "standard")
    ({'variant': 'return-match'}, {})
    >>> rated_options("jekyll-hyde", "5C-10") is None
    True
    """
    return renderer(game).rated_options(mode)


def level_of(bots: dict[str, str]) -> str:
    """The bots' strength: theirs if they all play alike, else MIXED.

    >>> level_of({"1": "strong", "2": "strong", "3": "strong"})
    'strong'
    >>> level_of({"1": "strong", "2": "random", "3": "strong"})
    'mixed'
    """
    levels = set(bots.values())
    return levels.pop() if len(levels) == 1 else MIXED


def outcome(state: State, me: Hashable) -> tuple[str, int]:
    """(result, score) of the person `me` (a lasting player) in the finished
    `state`, from the engine's `returns()` and `scores`."""
    from game import game_module

    wanted = str(me)
    share = next((v for k, v in state.returns().items() if str(k) == wanted), None)
    if share is None:
        raise ValueError(f"{me!r} did not play this game")
    result = "won" if share == 1 else "drawn" if share == 0.5 else "lost"
    data = state.to_json()
    scores: dict[str, Any] = data["scores"]
    if wanted in scores:
        return result, int(scores[wanted])
    sides: dict[str, list[Any]] = game_module(state.game_id).sides(data["options"])
    side = next(name for name, members in sides.items() if wanted in map(str, members))
    return result, int(scores[side])


def uncounted(save: dict[str, Any]) -> str | None:
    """Why the game of `save` is left out of the statistics (a catalog key), or
    None: a take-back was used (practice), it was continued from a file (its
    start was not dealt to the person), or several people shared the screen
    (whose record would it be?).

    >>> uncounted({"setup": {"me": 0}}), uncounted({"setup": {"me": 0}, "from_file": True})
    (None, 'stats.from_file')
    >>> uncounted({"setup": {"me": 0, "people": {"0": "Ann", "2": "Bob"}}})
    'stats.people'
    """
    if save.get("practice"):
        return "stats.practice"
    if save.get("from_file"):
        return "stats.from_file"
    if len(save.get("setup", {}).get("people") or {}) > 1:
        return "stats.people"
    return None


def finished_game(save: dict[str, Any], state: State, ended_ms: int) -> GameRecord | None:
    """The record of the finished game of `save`, or None if it does not
    count: not over, `uncounted`, or no game id."""
    game_id = save.get("id")
    if not state.over or uncounted(save) or not valid_id(game_id):
        return None
    me = save["setup"]["me"]
    result, score = outcome(state, me)
    return GameRecord(id=str(game_id), game=state.game_id,
                      mode=mode_of(state.game_id, state.to_json()["options"], me),
                      level=ONLINE if save["setup"].get("remote") else
                      level_of(save["setup"]["bots"]), result=result, score=score,
                      ended=ended_ms)


def finished_online(transcript: dict[str, Any], room: str, seat: str | None,
                    ended_ms: int) -> GameRecord | None:
    """A guest's record of the online game it played as `seat`: the host's
    `transcript` replayed by the engine (a transcript that does not replay, or
    a game not over, counts nothing). Its id is the deal and the room.

    >>> from game.core.transcript import Transcript
    >>> from game import new_game
    >>> state, actions = new_game("dracula", {}, 5), []
    >>> while not state.over:
    ...     actions.append(state.legal_actions()[0])
    ...     state = state.apply(actions[-1])
    >>> t = Transcript("dracula", {}, 5, actions=actions).to_json()
    >>> finished_online(t, "r00m", "1", 0).level, finished_online(t, "r00m", "7", 0)
    ('online', None)
    """
    from game.core.transcript import Transcript, TranscriptError

    try:
        state = Transcript.from_json(transcript).replay()
    except TranscriptError:
        return None
    game_id = f"{transcript.get('seed')}-{room}"[:80]
    players = {str(p) for p in state.returns()}
    if not state.over or seat not in players or not valid_id(game_id):
        return None
    result, score = outcome(state, seat)
    return GameRecord(id=game_id, game=state.game_id,
                      mode=mode_of(state.game_id, state.to_json()["options"], seat),
                      level=ONLINE, result=result, score=score, ended=ended_ms)


def record(stats: Stats, game: GameRecord) -> tuple[Stats, bool]:
    """`stats` with `game` added, and whether it was new (a game already
    recorded, seen again after a reload, is not counted twice)."""
    if game.id in stats.ids():
        return stats, False
    return Stats((*stats.games, game)[-MAX_GAMES:]), True


def merge(mine: Stats, other: Stats) -> Stats:
    """Both records' games, each once (by id; `mine`'s copy wins), in the order they ended."""
    known = mine.ids()
    games = [*mine.games, *(g for g in other.games if g.id not in known)]
    games.sort(key=lambda g: g.ended)  # stable: games that ended together keep their order
    return Stats(tuple(games[-MAX_GAMES:]))


# -- stored and exported as JSON -------------------------------------------------

def dump(stats: Stats) -> str:
    return json.dumps({"format": FORMAT, "version": VERSION,
                       "games": [asdict(g) for g in stats.games]}, separators=(",", ":"))


def load(text: str) -> Stats:
    """Parse and check a record (stored, or a file to import); raise BrokenStats."""
    from game import GAMES
    from game.bots import levels
    from game.web.model.saves import read_record

    if len(text) > MAX_TEXT:
        raise BrokenStats(f"too long ({len(text)} characters)")
    data = read_record(text, FORMAT, VERSION, "statistics", BrokenStats, older=(1,))
    moved = MOVED_LEVELS.get(data["version"], {})
    games = data.get("games")
    if not isinstance(games, list) or len(games) > MAX_GAMES:
        raise BrokenStats(f"'games' is not a list of at most {MAX_GAMES} games")
    records, seen = [], set()
    for n, entry in enumerate(games):
        where = f"games[{n}]"
        if not isinstance(entry, dict) or set(entry) != set(_FIELDS):
            raise BrokenStats(f"{where} does not hold exactly {', '.join(_FIELDS)}")
        game_id, game, mode = entry["id"], entry["game"], entry["mode"]
        if not valid_id(game_id) or game_id in seen:
            raise BrokenStats(f"{where}.id is not a game id, or is there twice")
        if game not in GAMES:
            raise BrokenStats(f"{where}.game is not a game of this site")
        if not isinstance(mode, str) or not _MODE.fullmatch(mode):
            raise BrokenStats(f"{where}.mode is not a mode")
        if entry["level"] not in (MIXED, ONLINE) and entry["level"] not in list(levels(game)):
            raise BrokenStats(f"{where}.level is not a bot of {game}")
        if entry["result"] not in RESULTS:
            raise BrokenStats(f"{where}.result is not one of {', '.join(RESULTS)}")
        for name, lo in (("score", -_BIGGEST), ("ended", 0)):
            value = entry[name]
            if type(value) is not int or not lo <= value <= _BIGGEST:
                raise BrokenStats(f"{where}.{name} is not a whole number in range")
        seen.add(game_id)
        level = moved.get(game, {}).get(entry["level"], entry["level"])
        records.append(GameRecord(**{**entry, "level": level}))
    return Stats(tuple(records))


# -- summed up for the page ------------------------------------------------------

@dataclass
class Bucket:
    """The games of one game, mode and strength, summed up."""

    game: str
    mode: str
    level: str
    results: list[str] = field(default_factory=list)  # oldest first
    scores: list[int] = field(default_factory=list)

    @property
    def played(self) -> int:
        return len(self.results)

    def count(self, result: str) -> int:
        return self.results.count(result)

    @property
    def win_rate(self) -> float:
        return self.count("won") / self.played if self.played else 0.0

    @property
    def streak(self) -> int:
        """Games won in a row, up to the last one."""
        return _runs(self.results)[-1] if self.results else 0

    @property
    def best_streak(self) -> int:
        return max(_runs(self.results), default=0)

    @property
    def best_score(self) -> int | None:
        return max(self.scores, default=None)

    @property
    def average_score(self) -> float | None:
        return sum(self.scores) / len(self.scores) if self.scores else None


def _runs(results: list[str]) -> list[int]:
    """The length of the run of wins ending at each game (0 where it ends otherwise).

    >>> _runs(["won", "won", "lost", "won", "drawn", "won", "won", "won"])
    [1, 2, 0, 1, 0, 1, 2, 3]
    """
    runs, run = [], 0
    for result in results:
        run = run + 1 if result == "won" else 0
        runs.append(run)
    return runs


def buckets(stats: Stats, game: str) -> list[Bucket]:
    """`game`'s buckets (mode, strength), in the order they were first played."""
    found: dict[tuple[str, str], Bucket] = {}
    for g in stats.games:
        if g.game == game:
            bucket = found.setdefault((g.mode, g.level), Bucket(game, g.mode, g.level))
            bucket.results.append(g.result)
            bucket.scores.append(g.score)
    return list(found.values())


def by_level(stats: Stats, game: str, levels: Iterable[str]) -> list[Bucket]:
    """`game`'s games summed up per strength (every mode), weakest first (the
    order of `levels`, MIXED then ONLINE last); strengths never played are left out."""
    order = [*levels, MIXED, ONLINE]
    found: dict[str, Bucket] = {}
    for g in stats.games:
        if g.game == game:
            bucket = found.setdefault(g.level, Bucket(game, "", g.level))
            bucket.results.append(g.result)
            bucket.scores.append(g.score)
    return sorted(found.values(), key=lambda b: order.index(b.level) if b.level in order
                  else len(order))
