"""The page's storage as the game sees it from its worker: a copy
of `localStorage` (or `sessionStorage`) handed over when the page starts,
read at once; each write changes the copy and goes to the page as a frame
(`{"store": [area, key, value]}`, value None: removed), whose front writes it
for real. A write the browser refuses comes back as a gesture (`{"kind":
"refused", "failure": "full" | "blocked"}`): the page then says so, and the
game plays on, as when a write fails on the main thread.

>>> sent = []
>>> store = MirroredStorage("local", {"jhg.prefs": "{}"}, sent.append)
>>> store.set("jhg.save.dracula", "{...}")
>>> store.get("jhg.save.dracula"), sent
('{...}', [{'store': ['local', 'jhg.save.dracula', '{...}']}])
>>> store.heard("jhg.prefs", None)  # another tab removed it
>>> store.keys()
['jhg.save.dracula']
"""

from __future__ import annotations

from typing import Any, Callable


class MirroredStorage:
    """`area`: "local" or "session", the page's storage it mirrors."""

    def __init__(self, area: str, items: dict[str, str],
                 send: Callable[[dict[str, Any]], None]) -> None:
        self.area, self.items, self.send = area, dict(items), send

    def get(self, key: str) -> str | None:
        return self.items.get(key)

    def set(self, key: str, value: str) -> None:
        self.items[key] = value
        self.send({"store": [self.area, key, value]})

    def remove(self, key: str) -> None:
        self.items.pop(key, None)
        self.send({"store": [self.area, key, None]})

    def move(self, key: str, to: str) -> None:
        """One frame: the page removes `key` only once its copy under `to`
        is kept (game.web.front.storage.store); a refused copy comes back
        as any refused write, and the original stays."""
        value = self.items.pop(key, None)
        if value is None:
            return
        self.items[to] = value
        self.send({"store": [self.area, to, value], "then_remove": key})

    def keys(self) -> list[str]:
        return list(self.items)

    def heard(self, key: str, value: str | None) -> None:
        """Another tab wrote `key` (the page's `storage` event)."""
        if value is None:
            self.items.pop(key, None)
        else:
            self.items[key] = value
