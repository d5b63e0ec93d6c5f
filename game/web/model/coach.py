"""Learn by playing: a coached first hand on a fixed deal.

A lesson is a JSON file, `static/lessons/<game id>.json` (shipped in game.zip
as `game/web/lessons/`), holding one whole hand of a game as a transcript
(`game`, `options`, `seed`, `actions`: every action of the hand, the
person's and the bots') plus who the person is (`me`) and the coach's
`steps`. Each step is `{"at": n, ...}`, n being the number of actions played
when it shows, and one of:

- `"note": key` — an explanation; the hand waits until the person presses
  Continue (at `len(actions)`, the last note explains the hand's scoring
  beside the end-of-hand summary);
- `"do": key` — the person's decision at n, explained; `"why": key`
  (optional) says why the lesson's action is better when the person makes
  another legal choice. Every decision of the person has its own "do"
  step (tests/test_web_coach.py checks it): the lesson explains each move.

The bots play the file's actions, so every lesson replays the same. The
person's choice is checked by the engine first (an illegal one gets the
engine's own coded error); a legal choice other than the lesson's changes
nothing and gets the coach's reason instead. A lesson is practice: the shell
never saves it and never counts it.

Pure Python (no browser import): tests replay every lesson under CPython.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from game.web.draw.html import EMPTY, Html, html

if TYPE_CHECKING:
    from game.core.state import State
    from game.web.draw.i18n import Translator
    from game.web.draw.tables import Table, TableContext

_HERE = os.path.dirname(__file__)
# Beside this module when shipped (game.zip); static/lessons in a source checkout.
_DIRS = (os.path.join(_HERE, "lessons"), os.path.join(_HERE, "..", "..", "..", "static", "lessons"))


class BadLesson(ValueError):
    """A lesson file that does not fit its format."""


@dataclass(frozen=True)
class Step:
    at: int
    kind: str  # "note" or "do"
    key: str
    why: str | None = None


@dataclass
class Lesson:
    game: str
    options: dict[str, Any]
    seed: int
    me: Any
    actions: list[str]
    steps: list[Step]

    @classmethod
    def from_json(cls, data: Any) -> "Lesson":
        if not isinstance(data, dict):
            raise BadLesson("a lesson is a JSON object")
        try:
            actions = list(data["actions"])
            steps = [Step(int(s["at"]), "note" if "note" in s else "do",
                          str(s["note"] if "note" in s else s["do"]),
                          str(s["why"]) if "why" in s else None)
                     for s in data["steps"]]
            lesson = cls(str(data["game"]), dict(data.get("options", {})),
                         int(data.get("seed", 0)), data["me"], actions, steps)
        except (KeyError, TypeError, ValueError) as e:
            raise BadLesson(f"{type(e).__name__}: {e}") from e
        if not all(isinstance(a, str) for a in actions):
            raise BadLesson("every action is a string")
        if any(not 0 <= s.at <= len(actions) for s in steps):
            raise BadLesson("a step is out of the hand")
        return lesson

    def start(self) -> State:
        """The lesson's deal."""
        from game import new_game

        return new_game(self.game, self.options, self.seed)

    def expected(self, played: int) -> str | None:
        """The lesson's action after `played` actions (None once the hand is over)."""
        return self.actions[played] if played < len(self.actions) else None

    def note(self, played: int, read: set[int]) -> int | None:
        """The index of the note to show after `played` actions, not yet in `read`."""
        for i, step in enumerate(self.steps):
            if step.at == played and step.kind == "note" and i not in read:
                return i
        return None

    def task(self, played: int) -> Step | None:
        """The explained decision of the person after `played` actions, if any."""
        return next((s for s in self.steps if s.at == played and s.kind == "do"), None)

    def ending(self) -> Step | None:
        """The note that explains the hand's scoring."""
        return next((s for s in self.steps if s.at == len(self.actions) and s.kind == "note"),
                    None)


def load(game: str) -> Lesson:
    """The lesson of `game` (KeyError if it has none)."""
    for d in _DIRS:
        try:
            # `__loader__` reads inside game.zip as well; mypy does not know it.
            data = __loader__.get_data(os.path.join(d, f"{game}.json"))  # type: ignore[name-defined]
        except OSError:
            continue
        return Lesson.from_json(json.loads(data.decode("utf-8")))
    raise KeyError(game)


@dataclass
class Coach:
    """A lesson under way in the page: which notes were read, and the coach's
    last objection to a choice (its catalog key, worded by the bubble; cleared
    by the next accepted action)."""

    lesson: Lesson
    read: set[int]
    objection: str = ""

    def waiting(self, played: int) -> bool:
        """Whether a note holds the hand (the bots wait for Continue)."""
        return played < len(self.lesson.actions) and self.lesson.note(played, self.read) is not None

    def next_note(self, played: int) -> None:
        index = self.lesson.note(played, self.read)
        if index is not None:
            self.read.add(index)
        self.objection = ""

    def check(self, played: int, action: str) -> str | None:
        """None if `action` is the lesson's; else the catalog key of the
        coach's reason (the engine has already accepted it as legal)."""
        expected = self.lesson.expected(played)
        if action == expected:
            self.objection = ""
            return None
        task = self.lesson.task(played)
        self.objection = task.why if task is not None and task.why else "coach.why"
        return self.objection

    def text(self, played: int, mine: bool, t: Translator) -> str:
        """The bubble's explanation now (plain text; "" when it has none)."""
        lesson = self.lesson
        index = lesson.note(played, self.read) if played < len(lesson.actions) else None
        if index is not None:
            return t(lesson.steps[index].key)
        if not mine:
            return ""
        task = lesson.task(played)
        return t(task.key) if task is not None else ""

    def bubble(self, played: int, mine: bool, table: Table, obs: dict[str, Any],
               ctx: TableContext) -> Html:
        """The coach's bubble: the explanation, what to do (or Continue), and
        its objection to the person's last choice."""
        t = ctx.t
        text = self.text(played, mine, t)
        if not text:
            return EMPTY
        waiting = self.waiting(played)
        expected = self.lesson.expected(played)
        todo = EMPTY
        if waiting:
            todo = html('<button type="button" class="primary" data-cmd="coach-next" '
                        'id="coach-next">{}</button>', t("coach.next"))
        elif expected is not None:
            todo = html('<p class="coach-do" id="coach-do" data-action="{}">{}</p>', expected,
                        t("coach.do", what=table.hint_text(expected, obs, ctx)))
        objection = EMPTY
        if self.objection and not waiting:
            objection = html('<p class="coach-why" id="coach-why">{}</p>', t(self.objection))
        return html('<section class="coach" id="coach" aria-labelledby="coach-title" '
                    'tabindex="0"><h2 class="coach-title" id="coach-title">{title}</h2>'
                    '<p class="coach-text">{text}</p>{objection}{todo}</section>',
                    title=t("coach.title"), text=text, objection=objection, todo=todo)


def lesson_button(t: Translator) -> Html:
    """The start screen's "Learn by playing" button."""
    return html('<button type="button" data-cmd="lesson" id="lesson" class="secondary">{}</button>',
                t("coach.start"))
