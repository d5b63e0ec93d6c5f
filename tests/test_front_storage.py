"""The page's storage seen from a worker (game.web.mirror) and written for
real by the front (game.web.front.storage): a refused write comes back and
the page says so once, playing on."""

from __future__ import annotations

import json
from typing import Any

from game.web import saves
from game.web.front import storage as front
from game.web.gestures import carry_out
from game.web.mirror import MirroredStorage
from game.web.page import SetupChanged
from tests.page_kit import make_page


class LocalStorage:
    """The browser's `localStorage` with a quota, raising as browsers do."""

    def __init__(self, quota: int) -> None:
        self.data: dict[str, str] = {}
        self.quota = quota

    @property
    def length(self) -> int:
        return len(self.data)

    def key(self, i: int) -> str:
        return list(self.data)[i]

    def getItem(self, key: str) -> str | None:
        return self.data.get(key)

    def setItem(self, key: str, value: str) -> None:
        if sum(map(len, self.data.values())) + len(value) > self.quota:
            error = Exception("The quota has been exceeded.")
            error.name = "QuotaExceededError"  # type: ignore[attr-defined]
            raise error
        self.data[key] = value

    def removeItem(self, key: str) -> None:
        self.data.pop(key, None)


def test_a_write_refused_by_the_browser_comes_back_and_the_page_says_so_once() -> None:
    ctrl, screen, thinking = make_page()
    local = LocalStorage(quota=50)
    refusals: list[dict[str, Any]] = []

    def page_writes(frame: dict[str, Any]) -> None:  # the front, on the main thread
        area, key, value = frame["store"]
        failure = front.write(local, key, value)
        if failure is not None:
            refusals.append({"kind": "refused", "failure": failure})

    ctrl.keeper.store = MirroredStorage("local", {}, page_writes)
    ctrl.dispatch(SetupChanged({"game": "dracula", "seed": "7"}))
    ctrl.command("start", {})
    assert saves.key("dracula") in ctrl.keeper.store.keys(), "the game reads its own write"
    assert refusals and refusals[0] == {"kind": "refused", "failure": "full"}
    assert ctrl.page.store_problem is None  # not known until the page says so
    for refusal in refusals:
        carry_out(ctrl, json.loads(json.dumps(refusal)))
    assert ctrl.page.store_problem == "full"
    notices = screen.last.regions["notices"]
    assert "download" in notices.lower() and notices.count("notice") >= 1


def test_the_front_reads_and_writes_the_browsers_storage() -> None:
    local = LocalStorage(quota=100)
    assert front.write(local, "jhg.a", "1") is None and front.items(local) == {"jhg.a": "1"}
    assert front.write(local, "jhg.b", "x" * 200) == "full"
    assert front.write(None, "jhg.a", "1") == "blocked"
    assert front.write(local, "jhg.a", None) is None and front.keys(local) == []


def test_the_front_hands_over_only_the_sites_items() -> None:
    """Another page of the origin may fill its storage with megabytes (a full
    storage is often full of them): the game's start carries only its own."""
    local = LocalStorage(quota=10**6)
    local.setItem(saves.key("dracula"), "{}")
    local.setItem("fill.0", "x" * 1000)
    assert front.items(local) == {saves.key("dracula"): "{}"}
