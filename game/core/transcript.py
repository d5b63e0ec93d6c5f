"""Transcripts: a JSON record that replays a game action by action.

    {"game": "jekyll-hyde", "options": {...}, "seed": 7,
     "deals": [...], "actions": ["@3", "HF4", ...], "captions": [...]}

`deals` and `captions` are optional; a missing seed is 0, so a transcript
without one still replays the same way everywhere.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from game import GAMES, new_game
from game.core.state import GameError, State


class TranscriptError(GameError):
    """A transcript that is malformed or does not replay."""


@dataclass
class Transcript:
    game: str
    options: dict[str, Any] = field(default_factory=dict)
    seed: int = 0
    deals: list | None = None
    actions: list[str] = field(default_factory=list)
    captions: list | None = None

    @classmethod
    def from_json(cls, data: Any) -> "Transcript":
        """Check the shape of a parsed transcript."""
        if not isinstance(data, dict):
            raise TranscriptError("a transcript is a JSON object with 'game' and 'actions'")
        unknown = sorted(set(data) - {"game", "options", "seed", "deals", "actions", "captions"})
        if unknown:
            raise TranscriptError(f"unknown transcript key {unknown[0]!r}")
        game = data.get("game")
        if game not in GAMES:
            raise TranscriptError(f"'game' must be one of {', '.join(GAMES)}, not {game!r}")
        options = data.get("options") or {}
        seed = data.get("seed", 0)
        actions = data.get("actions", [])
        if not isinstance(options, dict):
            raise TranscriptError("'options' must be an object")
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise TranscriptError(f"'seed' must be a whole number, not {seed!r}")
        if not isinstance(actions, list):
            raise TranscriptError("'actions' must be a list of strings")
        for i, action in enumerate(actions):
            if not isinstance(action, str):
                raise TranscriptError(f"action {i} {action!r}: actions are strings")
        deals = data.get("deals")
        if deals is not None and not isinstance(deals, list):
            raise TranscriptError("'deals' must be a list")
        captions = data.get("captions")
        if captions is not None:
            _check_captions(captions, len(actions))
        return cls(game, options, seed, deals, actions, captions)

    @classmethod
    def load(cls, path: str | Path) -> "Transcript":
        try:
            text = Path(path).read_text(encoding="utf-8")
        except OSError as e:
            raise TranscriptError(f"cannot read {path}: {e.strerror or e}") from e
        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
            raise TranscriptError(f"{path} is not JSON: {e.msg} at line {e.lineno}") from e
        return cls.from_json(data)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"game": self.game, "options": self.options, "seed": self.seed}
        if self.deals is not None:
            data["deals"] = self.deals
        data["actions"] = list(self.actions)
        if self.captions is not None:
            data["captions"] = self.captions
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
            raise TranscriptError(str(e)) from e

    def states(self) -> list[State]:
        """The state before each action and after the last one."""
        states = [self.start()]
        for i, action in enumerate(self.actions):
            try:
                states.append(states[-1].apply(action))
            except GameError as e:
                raise TranscriptError(f"action {i} {action!r}: {e}") from e
        return states

    def replay(self) -> State:
        """The state after the last action."""
        state = self.start()
        for i, action in enumerate(self.actions):
            try:
                state = state.apply(action)
            except GameError as e:
                raise TranscriptError(f"action {i} {action!r}: {e}") from e
        return state


def _check_captions(captions: Any, actions: int) -> None:
    """Captions: one per step, step 0 before the first action; each maps a
    language code to a text, or is null for a step without one."""
    if not isinstance(captions, list) or len(captions) != actions + 1:
        raise TranscriptError(
            f"'captions' must be a list of {actions + 1} entries: one before the first "
            "action and one after each action")
    for step, caption in enumerate(captions):
        if caption is None:
            continue
        if not isinstance(caption, dict) or not all(
                isinstance(k, str) and isinstance(v, str) for k, v in caption.items()):
            raise TranscriptError(
                f"caption {step} must map languages to texts, e.g. {{\"en\": \"...\"}}")
