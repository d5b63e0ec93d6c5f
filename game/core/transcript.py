"""Transcripts: a JSON record that replays a game action by action.

    {"game": "jekyll-hyde", "options": {...}, "seed": 7,
     "deals": [...], "actions": ["@3", "HF4", ...], "captions": [...], "me": 0}

`deals`, `captions`, `me` (the lasting player the person at the screen
played, as in a save's `setup.me`; a replay ignores it) and `analysis` (the
page's hand analysis kept with the game, game.analysis's `read_stored`
checks it where it is used, so a damaged one is dropped and the game kept;
a replay ignores it) are optional; a missing seed is 0, so a transcript
without one still replays the same way everywhere.  A transcript is data from
outside: one over `MAX_BYTES` or `MAX_ACTIONS` is refused before anything is
replayed, and every field is checked (`TranscriptError` names it).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from game import GAMES, new_game
from game.core.state import GameError, State
from game.core.validate import at, fail, read_list, read_seed, read_str

MAX_BYTES = 1_000_000
MAX_ACTIONS = 20_000  # a game to the highest target takes a few thousand
# A transcript nests a few levels (deals, hands, cards).  Deeper JSON is refused
# before the parser, whose recursion overflows the browser's stack (Pyodide
# dies of it) long before Python's recursion limit.
MAX_DEPTH = 100
_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"')
_BRACKET = re.compile(r"[\[\]{}]")


class TranscriptError(GameError):
    """A transcript that is malformed or does not replay."""

    default_code = "bad_transcript"


@dataclass
class Transcript:
    game: str
    options: dict[str, Any] = field(default_factory=dict)
    seed: int = 0
    deals: list[Any] | None = None
    actions: list[str] = field(default_factory=list)
    captions: list[dict[str, str] | None] | None = None
    me: int | str | None = None
    analysis: Any = None  # as read: game.analysis.read_stored checks it before use

    @classmethod
    def from_json(cls, data: Any) -> "Transcript":
        """Check the shape of a parsed transcript."""
        if type(data) is not dict:
            raise TranscriptError("a transcript is a JSON object with 'game' and 'actions'",
                                  code="not_a_transcript")
        unknown = sorted(str(k) for k in set(data) - {"game", "options", "seed", "deals",
                                                      "actions", "captions", "me",
                                                      "analysis"})
        if unknown:
            raise TranscriptError(f"unknown transcript key {unknown[0]!r}", code="unknown_field",
                                  params={"path": unknown[0]})
        game = data.get("game")
        if type(game) is not str or game not in GAMES:
            fail(TranscriptError, "game", "one of " + ", ".join(GAMES), game)
        options = data.get("options")
        if options is None:
            options = {}
        if type(options) is not dict:
            fail(TranscriptError, "options", "an object", options)
        seed = read_seed(data.get("seed", 0), "seed", TranscriptError)
        actions = data.get("actions", [])
        if type(actions) is list and len(actions) > MAX_ACTIONS:
            raise TranscriptError(f"{len(actions)} actions: a transcript holds at most "
                                  f"{MAX_ACTIONS}", code="too_many_actions",
                                  params={"path": "actions", "most": MAX_ACTIONS})
        for i, action in enumerate(read_list(actions, "actions", TranscriptError, 0,
                                             MAX_ACTIONS)):
            read_str(action, at("actions", i), TranscriptError, 100)
        deals = data.get("deals")
        if deals is not None and type(deals) is not list:
            fail(TranscriptError, "deals", "a list", deals)
        captions = data.get("captions")
        if captions is not None:
            _check_captions(captions, len(actions))
        me = data.get("me")
        if not (me is None or (type(me) is int and 0 <= me < 100)
                or (type(me) is str and 0 < len(me) <= 40)):
            fail(TranscriptError, "me", "a seat number or a player's name", me)
        return cls(game, options, seed, deals, actions, captions, me, data.get("analysis"))

    @classmethod
    def parse(cls, text: str | bytes, source: str = "the transcript") -> "Transcript":
        """A transcript from the text of a file: at most MAX_BYTES of UTF-8 JSON."""
        return cls.from_json(read_json(text, source))

    @classmethod
    def load(cls, path: str | Path) -> "Transcript":
        try:
            with open(path, "rb") as file:
                raw = file.read(MAX_BYTES + 1)
        except OSError as e:
            raise TranscriptError(f"cannot read {path}: {e.strerror or e}",
                                  code="cannot_read") from e
        return cls.parse(raw, str(path))

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"game": self.game, "options": self.options, "seed": self.seed}
        if self.deals is not None:
            data["deals"] = self.deals
        data["actions"] = list(self.actions)
        if self.captions is not None:
            data["captions"] = self.captions
        if self.me is not None:
            data["me"] = self.me
        if self.analysis is not None:
            data["analysis"] = self.analysis
        return data

    def caption(self, step: int, lang: str) -> str:
        """The caption of step `step` (after that many actions) in `lang`, or ''."""
        if not self.captions or not 0 <= step < len(self.captions):
            return ""
        text = self.captions[step] or {}
        return text.get(lang) or text.get("en", "")

    def start(self) -> State:
        """The state before the first action."""
        try:
            return new_game(self.game, self.options, self.seed, self.deals)
        except GameError as e:
            raise TranscriptError(str(e), code=e.code, params=e.params) from e

    def states(self) -> list[State]:
        """The state before each action and after the last one."""
        states = [self.start()]
        for i, action in enumerate(self.actions):
            states.append(self._apply(states[-1], i, action))
        return states

    def replay(self) -> State:
        """The state after the last action."""
        state = self.start()
        for i, action in enumerate(self.actions):
            state = self._apply(state, i, action)
        return state

    @staticmethod
    def _apply(state: State, index: int, action: str) -> State:
        try:
            return state.apply(action)
        except GameError as e:
            raise TranscriptError(f"action {index} {action!r}: {e}", code=e.code,
                                  params={**e.params, "action_index": index,
                                          "action": action}) from e


def read_json(text: str | bytes, source: str = "the transcript") -> Any:
    """The JSON value in the text of a file of at most MAX_BYTES of UTF-8
    (a transcript, or a save someone took for one); TranscriptError if it is none."""
    size = len(text) if isinstance(text, bytes) else len(text.encode("utf-8", "replace"))
    if size > MAX_BYTES:
        raise TranscriptError(f"{source} is larger than {MAX_BYTES // 1_000_000} MB",
                              code="transcript_too_large", params={"most": MAX_BYTES})
    if isinstance(text, bytes):
        if text[:2] in (b"\xff\xfe", b"\xfe\xff"):  # a byte-order mark: UTF-16
            raise TranscriptError(f"{source} is UTF-16 text, not UTF-8", code="not_utf8",
                                  params={"byte": 0, "encoding": "UTF-16"})
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as e:
            raise TranscriptError(f"{source} is not UTF-8 text (byte {e.start})",
                                  code="not_utf8", params={"byte": e.start}) from e
    if too_deep(text):
        raise TranscriptError(f"{source} is not JSON we can read: nested too deeply",
                              code="not_json", params={"why": "nested"})
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise TranscriptError(f"{source} is not JSON: {e.msg} at line {e.lineno}",
                              code="not_json",
                              params={"line": e.lineno, "column": e.colno}) from e
    except (ValueError, RecursionError) as e:  # a 4301-digit number, 100,000 brackets
        nested = isinstance(e, RecursionError)
        why = "nested too deeply" if nested else "a number too long"
        raise TranscriptError(f"{source} is not JSON we can read: {why}", code="not_json",
                              params={"why": "nested" if nested else "number"}) from e
    return data


def too_deep(text: str, most: int = MAX_DEPTH) -> bool:
    """Whether JSON `text` opens more than `most` arrays or objects inside one
    another (counted outside its strings; malformed text is the parser's to refuse).

    >>> too_deep('{"a": [[1], "[[[["]}', 3), too_deep("[[[]]]", 2)
    (False, True)
    """
    depth = 0
    for bracket in _BRACKET.finditer(_STRING.sub("", text)):
        depth += 1 if bracket.group() in "[{" else -1
        if depth > most:
            return True
    return False


def _check_captions(captions: Any, actions: int) -> None:
    """Captions: one per step, step 0 before the first action; each maps a
    language code to a text, or is null for a step without one."""
    if not isinstance(captions, list) or len(captions) != actions + 1:
        raise TranscriptError(
            f"'captions' must be a list of {actions + 1} entries: one before the first "
            "action and one after each action", code="invalid_field",
            params={"path": "captions"})
    for step, caption in enumerate(captions):
        if caption is None:
            continue
        if not isinstance(caption, dict) or not all(
                isinstance(k, str) and isinstance(v, str) for k, v in caption.items()):
            raise TranscriptError(
                f"caption {step} must map languages to texts, e.g. {{\"en\": \"...\"}}",
                code="invalid_field", params={"path": f"captions[{step}]"})
