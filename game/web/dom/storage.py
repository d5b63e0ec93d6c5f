"""The browser's `localStorage` behind game.web.storage's interface."""

from __future__ import annotations

from typing import Any

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
        try:
            self.local.setItem(key, value)
        except Exception as e:
            raise StorageFailure(self._kind(e)) from None

    def remove(self, key: str) -> None:
        try:
            self.local.removeItem(key)
        except Exception:  # nothing to remove from a storage that keeps nothing
            pass

    def keys(self) -> list[str]:
        try:
            return [str(self.local.key(i)) for i in range(int(self.local.length))]
        except Exception:
            return []

    def _kind(self, error: Exception) -> FailureKind:
        """Why a write failed. The exception's name says it where Pyodide
        keeps it ("QuotaExceededError"); where it does not (a DOMException
        arrives as "a value of type object"), storage that still reads is full."""
        words = f"{getattr(error, 'name', '')} {error}".lower()
        if "quota" in words:
            return "full"
        try:
            int(self.local.length)
        except Exception:
            return "blocked"
        return "full"


def open_storage(window: JsObject) -> tuple[Storage, FailureKind | None]:
    """The browser's storage; where the browser refuses it (a setting, some
    private modes), one that lives as long as the page, and "blocked"."""
    try:
        local = window.localStorage
        local.getItem("jhg.prefs")  # some browsers refuse only the first use
    except Exception:
        return MemoryStorage(), "blocked"
    if local is None or not local:
        return MemoryStorage(), "blocked"
    return BrowserStorage(local), None
