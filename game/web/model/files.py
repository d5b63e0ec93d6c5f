"""Games as files: a game downloaded as a transcript, a transcript opened
from disk and continued against bots.  Pure Python (tested in CPython); the
page's side is `game.web.model.file_panel`.

Every check of a file is the engine's: `game.core.transcript` reads the JSON
and its fields, `new_game` the options and deals, `State.apply` each action.
This module only says in the person's words what the engine found, and where:

>>> from game.web.draw.i18n import Translator
>>> try:
...     read_file(b'{"game": "dracula", "actions": ["ZZ"]}', "a.json")
... except FileProblem as problem:
...     print(problem.text(Translator("en")))
Step 1 (“ZZ”): That is not a move of this game.
>>> opened = read_file(b'{"game": "dracula", "seed": 3}', "a.json")
>>> opened.steps, opened.final.over, opened.me
(0, False, 0)
>>> download_name("jekyll-hyde", 7, "2026-11-25")
'jekyll-hyde-deal-7-2026-11-25.json'
"""

from __future__ import annotations

import json
import re
import string
from dataclasses import dataclass
from typing import Any, Callable

from game.core.state import GameError, State
from game.core.transcript import MAX_BYTES, Transcript, TranscriptError, read_json
from game.core.validate import describe
from game.web.model import saves
from game.web.draw.i18n import Translator
from game.web.draw.tables import TableContext, explain, renderer
from game.web.model.undo import seat_of

Identity = Any  # a lasting player: a seat, a role, a name (`State.identity`)


class FileProblem(ValueError):
    """A file that is not a game we can open: the engine's coded error (or
    one of the file's own: empty, too large, a save of another version), and
    where it was found (`step`, `path`, `line`)."""

    def __init__(self, code: str, params: dict[str, Any] | None = None,
                 cause: GameError | None = None, before: State | None = None) -> None:
        self.code, self.params = code, dict(params or {})
        self.cause = cause    # the engine's error, for its own words
        self.before = before  # the position where an action was refused
        super().__init__(f"{code} {self.params}")

    def where(self, t: Translator) -> str:
        """The place in the file, in words ("" if it is the whole file)."""
        p = self.params
        if "action_index" in p:
            return t("file.at_step", n=int(p["action_index"]) + 1, action=str(p["action"]))
        if "line" in p:
            return t("file.at_line", line=p["line"], column=p.get("column", 1))
        if p.get("path"):
            return t("file.at_path", path=str(p["path"]))
        return ""

    def what(self, t: Translator) -> str:
        """What is wrong, in words: the file's own texts, else the engine's
        error in the words of the game's table."""
        p, code = self.params, self.code
        if "action_index" in p and self.cause is not None and self.before is not None:
            return _engine_words(self.cause, self.before, t)
        if code == "not_json" and p.get("why"):
            return t(f"file.not_json.{p['why']}")
        if code == "not_utf8" and p.get("encoding") == "UTF-16":
            return t("file.utf16")
        if code == "invalid_field" and p.get("path") in ("game", "transcript.game"):
            return t("file.unknown_game", got=p.get("got", ""))
        if code == "invalid_field" and "got" not in p:
            return t("file.bad_value")
        text = _said(t, f"file.{code}", p)
        if text is None and self.cause is not None:
            text = _said(t, f"error.{self.cause.code}", self.cause.params)
        return t("file.unreadable") if text is None else text

    def text(self, t: Translator) -> str:
        """The one message the person reads: where, then what."""
        where, what = self.where(t), self.what(t)
        return t("file.problem", where=where, what=what) if where else what


def _said(t: Translator, key: str, params: dict[str, Any]) -> str | None:
    """The catalog's text `key` with `params`, or None if it has no such text
    or needs a word the params do not give."""
    if not t.has(key):
        return None
    words = {k: str(v) for k, v in params.items() if not isinstance(v, (list, dict))}
    needed = {name for _, name, _, _ in string.Formatter().parse(t(key)) if name}
    return t(key, **words) if needed <= words.keys() else None


def _engine_words(error: GameError, before: State, t: Translator) -> str:
    """A refused action in the words the table uses for a refused click."""
    seat = before.to_act if before.to_act is not None else before.players[0]
    try:
        return explain(renderer(before.game_id), error, before.observation(seat),
                       TableContext(t=t, seat=seat))
    except Exception:  # an odd code or params: still a message, never a crash
        return t("error.game_error")


@dataclass(frozen=True)
class OpenedFile:
    """A file that replays to its last action: what the panel shows."""

    name: str
    transcript: Transcript
    me: Identity      # the lasting player the person continues as
    final: State      # the position after the last action

    @property
    def steps(self) -> int:
        return len(self.transcript.actions)


def read_file(raw: bytes, name: str) -> OpenedFile:
    """The file's transcript, replayed; FileProblem naming what and where if
    it is not one (a save of this site is read for its transcript)."""
    if len(raw) > MAX_BYTES:
        raise FileProblem("too_large", {"mb": MAX_BYTES // 1_000_000})
    if not raw.strip():
        raise FileProblem("empty")
    try:
        data = read_json(raw, name)
        prefix, me = "", None
        if isinstance(data, dict) and "format" in data:
            data, me = _transcript_of_save(data)
            prefix = "transcript."
        try:
            transcript = Transcript.from_json(data)
        except TranscriptError as e:
            path = e.params.get("path")
            if path and prefix:
                raise FileProblem(e.code, {**e.params, "path": prefix + str(path)}, e) from e
            raise
        start = transcript.start()
    except TranscriptError as e:
        cause = e.__cause__ if isinstance(e.__cause__, GameError) else e
        raise FileProblem(e.code, e.params, cause) from e
    state = start
    for index, action in enumerate(transcript.actions):
        try:
            state = state.apply(action)
        except GameError as e:
            raise FileProblem(e.code, {**e.params, "action_index": index, "action": action},
                              e, state) from e
    me = transcript.me if me is None else me
    if me is None:
        me = start.identity(start.players[0])
    elif start.seat_of(me) is None:
        raise FileProblem("not_a_player", {"path": "setup.me" if prefix else "me",
                                           "got": describe(me)})
    return OpenedFile(name, transcript, me, state)


def _transcript_of_save(data: dict[str, Any]) -> tuple[Any, Identity]:
    """A save of this site (a file someone kept from localStorage): its
    transcript and its player; a save of another version or format is refused."""
    if data.get("format") != saves.FORMAT:
        raise FileProblem("other_format", {"format": describe(data.get("format"))})
    version = data.get("version")
    if isinstance(version, bool) or version not in (saves.VERSION, *saves.OLDER_VERSIONS):
        raise FileProblem("other_version", {"version": describe(version),
                                            "ours": saves.VERSION})
    transcript, setup = data.get("transcript"), data.get("setup")
    if not isinstance(transcript, dict):
        raise FileProblem("missing_field", {"path": "transcript"})
    me = setup.get("me") if isinstance(setup, dict) else None
    if me is not None and (isinstance(me, bool) or not isinstance(me, (int, str))):
        raise FileProblem("invalid_field", {"path": "setup.me", "got": describe(me)})
    return transcript, me


# -- the panel's words ---------------------------------------------------------

def players_text(opened: OpenedFile, t: Translator) -> str:
    """Every lasting player of the file, the person's marked."""
    state = opened.final
    table = renderer(state.game_id)
    names = []
    for identity in dict.fromkeys(state.identity(p) for p in state.players):
        name = table.player_name(identity, t)
        names.append(t("file.you", name=name) if str(identity) == str(opened.me) else name)
    return ", ".join(names)


def result_text(opened: OpenedFile, t: Translator) -> str:
    """Who won, once the file's game is over (as its table says it); "in
    progress" before."""
    state = opened.final
    if not state.over:
        return t("file.in_progress")
    winner = state.winner
    if winner is None:
        return t("file.draw")
    return renderer(state.game_id).winner_text(winner, t)


# -- continuing a file against bots -------------------------------------------

def check_continuable(opened: OpenedFile) -> None:
    """FileProblem if the page cannot keep the file's game as a save: its deal
    number out of the range of the page's deals (a transcript may hold any seed)."""
    from game.web.model.inputs import SEED_MAX, BadNumber, check_int

    try:
        check_int(opened.transcript.seed, "seed")
    except BadNumber as e:
        raise FileProblem("seed_out_of_range", {"path": "seed", "most": SEED_MAX}) from e


def continue_save(opened: OpenedFile, step: int,
                  bot_for: Callable[[str], str]) -> tuple[dict[str, Any], State]:
    """A new game at the position after the file's first `step` actions, the
    person as the file's player, `bot_for(identity)` in every other place:
    (the save, without format and version; the state).  The log is rebuilt
    as the table would have written it; `from_file` marks the game (it did
    not start from a fresh deal: statistics leave it out)."""
    check_continuable(opened)
    transcript = opened.transcript
    step = max(0, min(step, opened.steps))
    state = transcript.start()
    me = opened.me
    log = list(state.events(seat_of(state, me)))
    for action in transcript.actions[:step]:
        state = state.apply(action)
        log.extend(state.events(seat_of(state, me)))
    others = dict.fromkeys(str(state.identity(p)) for p in state.players
                           if str(state.identity(p)) != str(me))
    part: dict[str, Any] = {"game": state.game_id, "options": state.to_json()["options"],
                            "seed": transcript.seed, "actions": transcript.actions[:step]}
    if transcript.deals is not None:
        part["deals"] = transcript.deals
    save = {"game": state.game_id,
            "setup": {"me": me, "bots": {who: bot_for(who) for who in others}},
            "transcript": part, "log": log,
            "seen_hands": state.hands_scored, "from_file": True}
    return save, state


# -- downloading the game on the table ------------------------------------------

def transcript_of(save: dict[str, Any]) -> dict[str, Any]:
    """The game of a save as a transcript file (`python -m game replay` reads
    it), with the person's player as `me` and the hand analysis it keeps."""
    part = save["transcript"]
    data: dict[str, Any] = {"game": save["game"], "options": part.get("options", {}),
                            "seed": part.get("seed", 0)}
    if part.get("deals") is not None:
        data["deals"] = part["deals"]
    data["actions"] = list(part.get("actions", []))
    data["me"] = save["setup"]["me"]
    if part.get("analysis") is not None:  # the hand analysis, kept (game.analysis.read_stored)
        data["analysis"] = part["analysis"]
    return data


def transcript_text(save: dict[str, Any]) -> str:
    """The file's text: the transcript, indented so that a person can read it."""
    return json.dumps(transcript_of(save), indent=1, ensure_ascii=False) + "\n"


def download_name(game: str, seed: int, date: str) -> str:
    """`<game>-deal-<seed>-<date>.json`, a name safe on every system."""
    return re.sub(r"[^A-Za-z0-9.-]", "-", f"{game}-deal-{seed}-{date}") + ".json"
