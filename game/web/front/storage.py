"""The page's storage written for real (a `store` frame from a game in a
worker: game.web.runtime.mirror), and its items read to hand them over at start.
(MicroPython's subset: see game.web.front.)"""

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def keys(storage: "Any") -> "list[str]":
    """The keys of a `Storage` (none if the browser refuses it)."""
    try:
        return [str(storage.key(i)) for i in range(int(storage.length))]
    except Exception:
        return []


SITE_PREFIX = "jhg."  # the site's keys: the only ones the game reads


def items(storage: "Any") -> "dict[str, str]":
    """The site's items of a `Storage` (none if the browser refuses it); others
    of its origin are none of the game's, and may be megabytes to hand over."""
    found = {}
    try:
        for key in keys(storage):
            if key.startswith(SITE_PREFIX):
                found[key] = str(storage.getItem(key))
    except Exception:
        return {}
    return found


ROOM_PROBE = "jhg.room"  # written and removed at once: is there room for a save's copy?


def room(write: "Any", storage: "Any", found: "dict[str, str]") -> "str | None":
    """None where a copy of the biggest save fits, else why not ("full"): the
    page then tells the game at start, which never sets a damaged save aside
    (its copy, then its removal: game.web.runtime.keeper) without room for the copy, as a
    refused write heard later would come too late, the original gone.
    `write`: front.mjs's `jhgStorageWrite` (or `write` below), `found`: the items."""
    size = 0
    for key in found:
        if key.startswith("jhg.save"):
            size = max(size, len(found[key]))
    if storage is None or size == 0:
        return None
    failure = write(storage, ROOM_PROBE, "x" * size)  # type: str | None
    write(storage, ROOM_PROBE, None)
    return failure


def write(storage: "Any", key: str, value: "str | None") -> "str | None":
    """Write (or, value None, remove) an item: None once done, else why not:
    "full" (its quota) or "blocked" (the browser keeps nothing for this site)."""
    if storage is None:
        return "blocked"
    try:
        if value is None:
            storage.removeItem(key)
        else:
            storage.setItem(key, value)
        return None
    except Exception as e:
        words = (str(getattr(e, "name", "")) + " " + str(e)).lower()
        if "quota" in words:
            return "full"
        try:
            int(storage.length)
        except Exception:
            return "blocked"
        return "full"


def store(write: "Any", where: "Any", frame: "dict[str, Any]") -> "str | None":
    """A `store` frame written for real: its item (`[area, key, value]`,
    value None: a removal) and, when it sets a damaged save aside
    (`"then_remove"`: the save's own key), the original's removal only once
    the copy is kept, as one step: a copy refused leaves the save where it
    is. None once done, else why not. `write`: front.mjs's `jhgStorageWrite`."""
    _, key, value = frame["store"]
    failure = write(where, key, value)  # type: str | None
    then_remove = frame.get("then_remove")
    if failure is None and then_remove:
        failure = write(where, then_remove, None)
    return failure
