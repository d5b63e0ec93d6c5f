"""What a person did on the page, as data: the messages the page's front
(game.web.front.events, on the main thread) makes of DOM events and posts to
the game's worker (game.web.dom.worker), carried out here by the controller,
each by its kind (MESSAGES); a command by the controller's routing table.

    {"kind": "command", "cmd": "start", "data": {...}, "form": {...}}
    {"kind": "decide", "act": "J5"} / {"kind": "decide", "part": "c4"}
    {"kind": "setup", "form": {...}}   {"kind": "lang", "value": "fr"}
    {"kind": "pace", "value": "slow"}  {"kind": "escape"}
    {"kind": "touch", "value": true}   (a tap; false: a click or a key of a keyboard)
    {"kind": "storage", "key": "jhg.prefs", "value": "..." or None}
    {"kind": "refused", "failure": "full" | "blocked"}   (a write, game.web.runtime.mirror)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from game.web.runtime import online_door as ol
from game.web.model import page as pg
from game.web.model import session as ts
from game.web.model.page import StorageChanged

if TYPE_CHECKING:  # (the controller imports this module: its type only, no cycle)
    from game.web.runtime.controller import Controller

Message = dict[str, Any]


def carry_out(ctrl: Controller, msg: Message) -> None:
    """One message from the front; one the page does not know is reported,
    never raised (the front and the game may be of different versions)."""
    ctrl.guarded(lambda: _carry_out(ctrl, msg))


def _carry_out(ctrl: Controller, msg: Message) -> None:
    kind = msg.get("kind")
    take = MESSAGES.get(kind) if isinstance(kind, str) else None
    if take is None:
        ctrl.screen.error(f"the page sent a message the game does not know: {kind!r}")
    else:
        take(ctrl, msg)


def _command(ctrl: Controller, msg: Message) -> None:
    """A `data-cmd`, by the controller's routing table (ROUTES)."""
    if isinstance(msg.get("form"), dict):  # the start screen's values as they are now
        ctrl.dispatch(pg.SetupChanged(_texts(msg["form"])))
    ctrl.command(str(msg["cmd"]), _texts(msg.get("data") or {}))


def _decide(ctrl: Controller, msg: Message) -> None:
    """A card, a seat, a button of the table's decision."""
    act, part = msg.get("act") or None, msg.get("part") or None
    if ctrl.page.view == "online":  # a guest's table: the host decides
        ol.event(ctrl, ol.Decide(act, part))
    elif act:
        ctrl.on_table(ts.Act(str(act)))
    elif part:
        ctrl.on_table(ts.Pick(str(part)))


def _escape(ctrl: Controller, _: Message) -> None:
    """Escape: the half-made choice is dropped (at a guest's table, the guest's)."""
    if ctrl.page.view == "online":
        ol.event(ctrl, ol.ClearChoice())
    else:
        ctrl.on_table(ts.ClearChoice())


def _storage(ctrl: Controller, msg: Message) -> None:
    value = msg.get("value")
    ctrl.perform(StorageChanged(str(msg["key"]), value if isinstance(value, str) else None))


def _refused(ctrl: Controller, msg: Message) -> None:
    failure = msg.get("failure")
    if failure in ("full", "blocked"):
        ctrl.dispatch(pg.StorageRefused(failure))
    else:
        ctrl.screen.error("the page sent a message the game does not know: 'refused'")


# Each message of the front by its kind; its commands go on to the
# controller's routing table, and its keys come as commands or "escape".
MESSAGES: dict[str, Callable[[Controller, Message], None]] = {
    "command": _command, "decide": _decide,
    "setup": lambda ctrl, msg: ctrl.dispatch(pg.SetupChanged(_texts(msg["form"]))),
    "lang": lambda ctrl, msg: ctrl.dispatch(pg.SetLanguage(str(msg["value"]))),
    "pace": lambda ctrl, msg: ctrl.dispatch(pg.SetPace(str(msg["value"]))),
    "touch": lambda ctrl, msg: ctrl.dispatch(pg.SetTouch(msg.get("value") is True)),
    "escape": _escape,
    "storage": _storage, "refused": _refused}


def _texts(values: Any) -> dict[str, str]:
    return {str(k): str(v) for k, v in dict(values).items()}
