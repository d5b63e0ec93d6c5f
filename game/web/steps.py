"""The page's actions that need more than its reducers: storage, this tab's
locks or the browser's help (a new game, a lesson, a file, another tab's
write). Each is a small frozen value; the controller (game.web.controller)
carries it out, and the router turns a `data-cmd` into one."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Union


@dataclass(frozen=True)
class NewGame:
    """Deal the start screen's choices."""


@dataclass(frozen=True)
class DealAgain:
    """The same options dealt anew (the embed's Restart)."""


@dataclass(frozen=True)
class SwitchGame:
    """Back to another game in progress."""
    game: str


@dataclass(frozen=True)
class StartLesson:
    pass


@dataclass(frozen=True)
class EndLesson:
    pass


@dataclass(frozen=True)
class OpenReview:
    """Review the hands of the game on the table."""


@dataclass(frozen=True)
class PlayHere:
    """Take the game back from the tab that plays it."""


@dataclass(frozen=True)
class ReplaceDeal:
    """A deal link's deal, instead of the game in progress."""


@dataclass(frozen=True)
class DiscardBroken:
    """A damaged save left in place goes, by the player's choice."""


@dataclass(frozen=True)
class FileChosen:
    """A file the person chose: `data` None if too big to read, or unreadable."""
    purpose: str  # "game" (the file panel) or "stats"
    name: str
    size: int
    data: bytes | None


@dataclass(frozen=True)
class StorageChanged:
    """Another tab wrote `key`."""
    key: str
    value: str | None


Step = Union[NewGame, DealAgain, SwitchGame, StartLesson, EndLesson, OpenReview, PlayHere,
             ReplaceDeal, DiscardBroken, FileChosen, StorageChanged]
