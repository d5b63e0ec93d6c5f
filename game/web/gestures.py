"""What a person did on the page, as data: the messages the page's front
(game.web.front.events) makes of DOM events, carried out here by the
controller. The front runs on the page's main thread and the controller in
the game's worker (game.web.dom.worker): the messages are what the page posts
to the worker.

    {"kind": "command", "cmd": "start", "data": {...}, "form": {...}}
    {"kind": "decide", "act": "J5"} / {"kind": "decide", "part": "c4"}
    {"kind": "setup", "form": {...}}   {"kind": "lang", "value": "fr"}
    {"kind": "pace", "value": "slow"}  {"kind": "escape"}
    {"kind": "touch", "value": true}   (a tap; false: a click or a key of a keyboard)
    {"kind": "storage", "key": "jhg.prefs", "value": "..." or None}
    {"kind": "refused", "failure": "full" | "blocked"}   (a write, game.web.mirror)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from game.web import page as pg
from game.web import session as ts
from game.web.steps import StorageChanged

if TYPE_CHECKING:  # (the controller is the page's own program, read from game.zip at start)
    from game.web.controller import Controller

Message = dict[str, Any]


def carry_out(ctrl: Controller, msg: Message) -> None:
    """One message from the front; one the page does not know is reported,
    never raised (the front and the game may be of different versions)."""
    ctrl.guarded(lambda: _carry_out(ctrl, msg))


def _carry_out(ctrl: Controller, msg: Message) -> None:
    kind = msg.get("kind")
    if kind == "command":
        if isinstance(msg.get("form"), dict):  # the start screen's values as they are now
            ctrl.dispatch(pg.SetupChanged(_texts(msg["form"])))
        command(ctrl, str(msg["cmd"]), _texts(msg.get("data") or {}))
    elif kind == "decide":
        act, part = msg.get("act") or None, msg.get("part") or None
        if ctrl.page.view == "online":  # a guest's table: the host decides
            ctrl.online.decide(act, part)
        elif act:
            ctrl.on_table(ts.Act(str(act)))
        elif part:
            ctrl.on_table(ts.Pick(str(part)))
    elif kind == "setup":
        ctrl.dispatch(pg.SetupChanged(_texts(msg["form"])))
    elif kind == "lang":
        ctrl.dispatch(pg.SetLanguage(str(msg["value"])))
    elif kind == "pace":
        ctrl.dispatch(pg.SetPace(str(msg["value"])))
    elif kind == "touch":
        ctrl.dispatch(pg.SetTouch(msg.get("value") is True))
    elif kind == "escape":
        ctrl.on_table(ts.ClearChoice())
    elif kind == "storage":
        value = msg.get("value")
        ctrl.perform(StorageChanged(str(msg["key"]), value if isinstance(value, str) else None))
    elif kind == "refused" and msg.get("failure") in ("full", "blocked"):
        ctrl.dispatch(pg.StorageRefused(msg["failure"]))
    else:
        ctrl.screen.error(f"the page sent a message the game does not know: {kind!r}")


def command(ctrl: Controller, cmd: str, data: dict[str, str]) -> None:
    if cmd == "confirm" and ctrl.page.view == "online":
        cmd = "online-confirm"  # a guest's decision of several parts: the host's
    ctrl.command(cmd, data)


def _texts(values: Any) -> dict[str, str]:
    return {str(k): str(v) for k, v in dict(values).items()}
