"""Where the page keeps saves, preferences and statistics: a small interface,
so the browser's `localStorage` (mirrored in the worker: game.web.runtime.mirror), a blocked browser's
stand-in and the tests' store are alike to the page.

A write that fails raises `StorageFailure` with its kind, never the browser's
own text, so the page can say in the player's language what happened and
that nothing was lost.
"""

from __future__ import annotations

from typing import Literal, Protocol

FailureKind = Literal["full", "blocked"]


class StorageFailure(Exception):
    """A write the storage refused: "full" (its quota) or "blocked" (the
    browser keeps nothing for this site)."""

    def __init__(self, kind: FailureKind) -> None:
        super().__init__(kind)
        self.kind: FailureKind = kind


class Storage(Protocol):
    def get(self, key: str) -> str | None: ...

    def set(self, key: str, value: str) -> None:
        """Keep `value` under `key`, or raise StorageFailure (nothing changed)."""

    def remove(self, key: str) -> None: ...

    def move(self, key: str, to: str) -> FailureKind | None:
        """Keep `key`'s value under `to` too, then remove `key`: only once
        the copy is kept (a refused copy changes nothing). None, else why not."""

    def keys(self) -> list[str]: ...


class MemoryStorage:
    """A store that lives as long as the page: the embed's (it must not touch
    the site's saves), a blocked browser's, and the tests'. `quota` (in
    characters of keys and values, like a browser's) makes it fill up.

    >>> store = MemoryStorage(quota=10)
    >>> store.set("a", "12345")
    >>> store.set("b", "123456")
    Traceback (most recent call last):
    ...
    game.web.runtime.storage.StorageFailure: full
    >>> store.get("b") is None and store.keys()
    ['a']
    """

    def __init__(self, quota: int | None = None) -> None:
        self.items: dict[str, str] = {}
        self.quota = quota

    def get(self, key: str) -> str | None:
        return self.items.get(key)

    def set(self, key: str, value: str) -> None:
        if self.quota is not None:
            used = sum(len(k) + len(v) for k, v in self.items.items() if k != key)
            if used + len(key) + len(value) > self.quota:
                raise StorageFailure("full")
        self.items[key] = value

    def remove(self, key: str) -> None:
        self.items.pop(key, None)

    def move(self, key: str, to: str) -> FailureKind | None:
        value = self.items.get(key)
        failed = None if value is None else write(self, to, value)
        if value is not None and failed is None:
            self.remove(key)
        return failed

    def keys(self) -> list[str]:
        return list(self.items)


def write(store: Storage, key: str, value: str) -> FailureKind | None:
    """Keep `value` under `key`: None once it is kept (read back), else why not.

    >>> write(MemoryStorage(quota=3), "key", "value")
    'full'
    """
    try:
        store.set(key, value)
    except StorageFailure as failure:
        return failure.kind
    return None if store.get(key) == value else "full"
