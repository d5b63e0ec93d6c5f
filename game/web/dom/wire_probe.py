"""`window.wireProbe` of the old page (game/web/dom/boot.py, which only the
embed still loads, for its live table: this goes with boot.py's `start`).
index.html's probe is static/js/wire-probe.mjs. Installed only when a test set
`window.jhgWireProbe` before the page loaded. A link cannot set it, so no
link can point a page at another relay; the player's own page uses the
published relays only (game.web.connection).
"""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

from pyodide.ffi import create_proxy, to_js

from game.online.wire import PeerJoined, PeerLeft, Received, WireEvent, WireFailed
from game.web.dom.wire import LinkWire, RelayWire


class Probe:
    def __init__(self) -> None:
        self.wire: RelayWire | LinkWire | None = None
        self.heard: list[list[Any]] = []  # [kind, peer or code, text, ms since open]
        self.opened = 0.0

    def hear(self, event: WireEvent) -> None:
        at = round((time.monotonic() - self.opened) * 1000)
        if isinstance(event, (PeerJoined, PeerLeft)):
            self.heard.append([type(event).__name__, event.peer, "", at])
        elif isinstance(event, Received):
            self.heard.append(["Received", event.peer, event.text, at])
        elif isinstance(event, WireFailed):
            self.heard.append(["WireFailed", event.code, "", at])

    def open_relays(self, room: str, secret: str, relays: str, ice: str) -> None:
        self.wire = RelayWire(tuple(json.loads(relays)), tuple(json.loads(ice)))
        self.opened = time.monotonic()
        self.wire.open(room, secret, self.hear)

    def open_link(self) -> None:
        self.wire = LinkWire()
        self.opened = time.monotonic()
        self.wire.open("", "", self.hear)

    def link(self) -> LinkWire:
        assert isinstance(self.wire, LinkWire)
        return self.wire

    def invite(self) -> asyncio.Future[str]:
        """'peer code' (a JavaScript caller gets a string, not a Python list)."""
        async def run() -> str:
            return " ".join(await self.link().invite())
        return asyncio.ensure_future(run())

    def send(self, peer: str, text: str) -> None:
        assert self.wire is not None
        self.wire.send(peer, text)

    def close(self) -> None:
        if self.wire is not None:
            self.wire.close()

    def events(self) -> str:
        return json.dumps(self.heard)


def install(window: Any) -> None:
    probe = Probe()
    calls = {"openRelays": probe.open_relays, "openLink": probe.open_link,
             "invite": probe.invite,
             "accept": lambda peer, code: probe.link().accept(peer, code),
             "answer": lambda code: probe.link().answer(code),
             "send": probe.send, "close": probe.close, "events": probe.events}
    window.wireProbe = to_js({k: create_proxy(f) for k, f in calls.items()},
                             dict_converter=window.Object.fromEntries)
