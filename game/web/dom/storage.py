"""The browser's `localStorage` behind game.web.storage's interface (its
reads and writes are game.web.front.storage's, shared with the page whose
game runs in a worker)."""

from __future__ import annotations

from typing import Any

from game.web.front import storage as front
from game.web.storage import FailureKind, MemoryStorage, Storage, StorageFailure

JsObject = Any  # a JavaScript object seen through Pyodide: untyped for mypy


class BrowserStorage:
    def __init__(self, local: JsObject) -> None:
        self.local = local

    def get(self, key: str) -> str | None:
        try:
            value = self.local.getItem(key)
        except Exception:  # blocked since the page started: as if empty
            return None
        return value if isinstance(value, str) else None  # JS null arrives as jsnull

    def set(self, key: str, value: str) -> None:
        failure = front.write(self.local, key, value)
        if failure is not None:
            raise StorageFailure("full" if failure == "full" else "blocked")

    def remove(self, key: str) -> None:
        front.write(self.local, key, None)  # nothing to remove from a storage that keeps nothing

    def keys(self) -> list[str]:
        return front.keys(self.local)


def open_storage(window: JsObject) -> tuple[Storage, FailureKind | None]:
    """The browser's storage; where the browser refuses it (a setting, some
    private modes), one that lives as long as the page, and "blocked"."""
    local, _ = front.opened(window)
    if local is None:
        return MemoryStorage(), "blocked"
    return BrowserStorage(local), None
