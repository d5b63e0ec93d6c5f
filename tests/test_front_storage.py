"""The page's storage seen from a worker (game.web.runtime.mirror) and written for
real by the front (game.web.front.storage): a refused write comes back and
the page says so once, playing on."""

from __future__ import annotations

import json
from typing import Any

from game.web.model import saves
from game.web.runtime.controller import Controller
from game.web.runtime.drivers import NoLocks
from game.web.front import storage as front
from game.web.runtime.gestures import carry_out
from game.web.model.links import Link
from game.web.runtime.mirror import MirroredStorage
from game.web.model.page import SetupChanged
from tests.page_kit import RecordingScreen, Thinking, make_page


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


def test_the_front_finds_at_start_whether_a_copy_of_a_save_fits() -> None:
    save = "s" * 30
    roomy, full = LocalStorage(quota=100), LocalStorage(quota=50)
    for local in (roomy, full):
        local.setItem(saves.key("dracula"), save)
    assert front.room(front.write, roomy, front.items(roomy)) is None
    assert front.room(front.write, full, front.items(full)) == "full"
    assert front.room(front.write, full, {"jhg.prefs": "{}"}) is None  # no save: no copy to make
    assert front.keys(roomy) == front.keys(full) == [saves.key("dracula")]  # the probe is gone


def test_a_damaged_save_in_a_full_storage_stays_where_it_is_from_a_worker() -> None:
    """The worker's mirror takes every write at once; the page's storage, full,
    would refuse the copy only later: the page said at start there is no room
    (front.room), so the damaged save is neither copied nor removed."""
    damaged = '{"not": "a save"}'
    local = LocalStorage(quota=len(damaged) + len("dracula"))
    local.setItem(saves.key("dracula"), damaged)
    local.setItem(saves.CURRENT_KEY, "dracula")
    found = front.items(local)
    problem = front.room(front.write, local, found)

    def page_writes(frame: dict[str, Any]) -> None:
        area, key, value = frame["store"]
        if area == "local":
            front.write(local, key, value)

    screen = RecordingScreen()
    ctrl = Controller(MirroredStorage("local", found, page_writes),
                      MirroredStorage("session", {}, page_writes), screen, NoLocks(), Link(),
                      "en", problem, spawn=Thinking())
    ctrl.start(None)
    broken = ctrl.page.broken
    assert broken is not None and broken.in_place and broken.where == saves.key("dracula")
    assert local.getItem(saves.key("dracula")) == damaged
    assert not [k for k in front.keys(local) if k.startswith(saves.BROKEN_PREFIX)]
    assert "stays where it is" in screen.last.regions["notices"]


def test_the_front_hands_over_only_the_sites_items() -> None:
    """Another page of the origin may fill its storage with megabytes (a full
    storage is often full of them): the game's start carries only its own."""
    local = LocalStorage(quota=10**6)
    local.setItem(saves.key("dracula"), "{}")
    local.setItem("fill.0", "x" * 1000)
    assert front.items(local) == {saves.key("dracula"): "{}"}


def test_another_tabs_write_is_passed_on_only_for_the_sites_keys() -> None:
    # Another page of the origin may write megabytes: MicroPython ran out of
    # memory copying a test's 1 MB filler from a `storage` event.
    from types import SimpleNamespace

    from game.web.front.events import Events

    sent: list[dict[str, Any]] = []
    front_ = SimpleNamespace(keys=None, doc=None)
    events = Events(front_, None, sent.append, lambda purpose, file: None)  # type: ignore[arg-type]
    events.on_storage(SimpleNamespace(key="filler-1", newValue="x" * 1000))
    assert sent == []
    events.on_storage(SimpleNamespace(key="jhg.save.dracula", newValue="{}"))
    events.on_storage(SimpleNamespace(key=None, newValue=None))  # another tab cleared it all
    assert sent == [{"kind": "storage", "key": "jhg.save.dracula", "value": "{}"},
                    {"kind": "storage", "key": "None", "value": None}]


def test_a_damaged_save_stays_when_storage_fills_after_the_start() -> None:
    """The page found room for a copy at start; by the time the damaged save
    is set aside, another page has filled the storage. The worker's mirror
    takes the move at once; the page, refused the copy, keeps the original
    (one `store` frame: the removal only once the copy is kept)."""
    damaged = '{"not": "a save"}'
    local = LocalStorage(quota=3 * len(damaged))
    local.setItem(saves.key("dracula"), damaged)
    local.setItem(saves.CURRENT_KEY, "dracula")
    found = front.items(local)
    assert front.room(front.write, local, found) is None  # room, at start
    local.setItem("another-page", "x" * len(damaged))  # gone, by the copy
    refused: list[str | None] = []

    def page_writes(frame: dict[str, Any]) -> None:  # as game/web/dom/main_thread.py
        if frame["store"][0] == "local":
            refused.append(front.store(front.write, local, frame))

    ctrl = Controller(MirroredStorage("local", found, page_writes),
                      MirroredStorage("session", {}, page_writes), RecordingScreen(), NoLocks(),
                      Link(), "en", None, spawn=Thinking())
    ctrl.start(None)
    assert ctrl.page.broken is not None  # set aside, as far as the worker knows
    assert "full" in refused
    assert local.getItem(saves.key("dracula")) == damaged  # the original stays
    assert not [k for k in front.keys(local) if k.startswith(saves.BROKEN_PREFIX)]


def test_a_move_with_room_copies_then_removes() -> None:
    local = LocalStorage(quota=100)
    local.setItem("jhg.save.dracula", "old")
    sent: list[dict[str, Any]] = []
    mirror = MirroredStorage("local", front.items(local), sent.append)
    assert mirror.move("jhg.save.dracula", "jhg.broken.1") is None
    assert mirror.keys() == ["jhg.broken.1"] and len(sent) == 1
    assert front.store(front.write, local, sent[0]) is None
    assert front.items(local) == {"jhg.broken.1": "old"}
