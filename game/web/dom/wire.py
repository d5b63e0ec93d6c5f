"""The game's wires (game.online.wire's `Wire`) as the worker holds them: the
connections themselves are WebRTC data channels, and a dedicated worker has
no WebRTC, so they live on the page's main thread (static/js/wire-host.mjs).
Here each wire is a number on a `Switchboard`: what it is told to do is
posted to the page as a frame `{"wire": {"id": n, ...}}`, and what the page
hears comes back as a gesture `{"kind": "wire", "id": n, ...}`
(game/web/dom/worker.py routes it to `Switchboard.heard`).

- `RelayWire`: Trystero introduces the pages through public Nostr relays
  (game.web.online.connection.RELAYS; offers and answers encrypted with the room's
  secret, so a page without it never connects) and STUN tells each page its
  public address.
- `LinkWire`: no third party at all, for one network: the host's offer and the
  guest's answer are carried by hand as short codes (game.web.online.connection.pack,
  made here from the descriptions the page gathers), and the pages reach each
  other through their own addresses (host candidates).

Nothing is fetched or contacted before `open`: the page loads its side with
the first wire frame. A message longer than MAX_MESSAGE is dropped on the
page (static/js/wire.mjs), before it is posted here. `WebKeys` signs in the
worker itself: WebCrypto is there too.
"""

from __future__ import annotations

import asyncio
import base64
import json
from typing import Any, Awaitable, Callable

from game.online.proof import BadKey, compress, expand
from game.online.wire import (PeerJoined, PeerLeft, PeerPath, Received, RelaysChanged, WireEvent,
                              WireFailed)
from game.web.online.connection import APP_ID, MAX_MESSAGE, RELAYS, STUN, Description, pack, unpack

Heard = Callable[[WireEvent], None]
Post = Callable[[dict[str, Any]], None]
# Without a relay after this long, the relays are out of reach (the page says
# so: within 10 s of opening, counting the 2 s between two looks at the relays).
RELAY_WAIT_S = 8.0


class WireError(OSError):
    """The page could not do what a wire asked (no WebRTC, a link gone)."""


class Switchboard:
    """The worker's end of the page's wires: orders out as frames, the
    page's events and answers routed back to the wire they are for."""

    def __init__(self, post: Post) -> None:
        self.post = post
        self.wires: dict[int, PageWire] = {}
        self.made = 0

    def plug(self, wire: PageWire) -> int:
        self.made += 1
        self.wires[self.made] = wire
        return self.made

    def unplug(self, number: int) -> None:
        self.wires.pop(number, None)

    def order(self, number: int, **order: Any) -> None:
        self.post({"wire": {"id": number, **order}})

    def heard(self, msg: dict[str, Any]) -> None:
        """A gesture `{"kind": "wire", "id", ...}`: dropped if its wire is closed."""
        number = msg.get("id")
        wire = self.wires.get(number) if isinstance(number, int) else None
        if wire is not None:
            wire.take(msg)


def _post_to_page(frame: dict[str, Any]) -> None:
    import js  # the worker's global scope

    js.postMessage(json.dumps(frame))


def _wire_module() -> Any:
    """static/js/wire.mjs, imported in the worker (static/js/engine.mjs's import)."""
    import js

    return js.jhgWireModule()


BOARD = Switchboard(_post_to_page)  # the worker's wires (game/web/dom/worker.py)


class PageWire:
    """A wire whose connections the page holds; `heard` gets its events."""

    def __init__(self, board: Switchboard | None) -> None:
        self.board = board or BOARD
        self.number = 0  # on the board, once open
        self.me = ""
        self.heard: Heard | None = None
        self.asked: dict[int, asyncio.Future[Any]] = {}
        self.asks = 0
        self.relayed: set[str] = set()  # the joined peers whose messages go through the relays

    def _open(self, heard: Heard, **order: Any) -> None:
        self.heard = heard
        self.number = self.board.plug(self)
        self.board.order(self.number, **order)

    def _ask(self, **order: Any) -> asyncio.Future[Any]:
        """Something the page answers (`{"reply": k, "value"}` or `"error"`)."""
        self.asks += 1
        future: asyncio.Future[Any] = asyncio.get_event_loop().create_future()
        self.asked[self.asks] = future
        self.board.order(self.number, ask=self.asks, **order)
        return future

    def take(self, msg: dict[str, Any]) -> None:
        """What the page heard or answers for this wire."""
        if "reply" in msg:
            future = self.asked.pop(msg["reply"], None)
            if future is not None and not future.done():
                if "error" in msg:
                    future.set_exception(WireError(str(msg["error"])))
                else:
                    future.set_result(msg.get("value"))
            return
        event, peer = msg.get("event"), str(msg.get("peer", ""))
        if event == "me":
            self.me = peer
        elif event == "joined":
            self._tell(PeerJoined(peer))
        elif event == "left":
            self.relayed.discard(peer)
            self._tell(PeerLeft(peer))
        elif event == "received":
            self._tell(Received(peer, str(msg.get("text", ""))))
        elif event == "failed":
            self._tell(WireFailed(str(msg.get("code", ""))))
        elif event == "relays":
            reached, of = msg.get("reached", -1), msg.get("of", 0)
            if type(reached) is not int or type(of) is not int:
                reached, of = -1, 0  # not counted
            self._tell(RelaysChanged(msg.get("up") is True, reached, of))
        elif event == "path":
            relayed = msg.get("relayed") is True
            if relayed:
                self.relayed.add(peer)
            else:
                self.relayed.discard(peer)
            self._tell(PeerPath(peer, relayed, not relayed and msg.get("turn") is True))

    def _tell(self, event: WireEvent) -> None:
        if self.heard is not None:
            self.heard(event)

    def send(self, peer: str, text: str) -> None:
        if self.number and self.heard is not None:
            self.board.order(self.number, send=[peer, text])

    def close(self) -> None:
        self.heard = None
        if self.number:
            self.board.order(self.number, close=True)
            self.board.unplug(self.number)
        for future in self.asked.values():
            future.cancel()
        self.asked = {}


class RelayWire(PageWire):
    """Pages introduced through public relays; `relays` and `ice_servers` are
    the published ones unless a test gives its own local relay. A peer whose
    direct channel does not open is joined on the relayed path (static/js/wire.mjs's
    relayPath): its key agreed with the host's relayed key, which the host
    signs with the table's key (`keyed`) and a guest checks against the link's."""

    def __init__(self, relays: tuple[str, ...] = RELAYS, ice_servers: tuple[str, ...] = STUN,
                 board: Switchboard | None = None) -> None:
        super().__init__(board)
        self.relays, self.ice_servers = relays, ice_servers
        self.key: dict[str, str] | None = None  # relayPath's: {"sign": JWK} or {"verify": point}
        # The host's own TURN server (an RTCIceServer: game.web.model.turn), or None.
        self.turn: dict[str, str] | None = None

    def use_turn(self, server: dict[str, str]) -> None:
        """The host's page: its direct channels may go through `server`, and
        each friend met on the relayed path is handed it, sealed for them."""
        self.turn = server

    def keyed(self, public: str, private: str = "") -> None:
        if private:
            self.key = {"sign": private}
            return
        try:
            self.key = {"verify": base64.urlsafe_b64encode(expand(public)).decode().rstrip("=")}
        except BadKey:
            self.key = None

    def open(self, room: str, secret: str, heard: Heard) -> None:
        self._open(heard, open="relays", appId=APP_ID, room=room, secret=secret,
                   relays=list(self.relays), iceServers=[{"urls": u} for u in self.ice_servers],
                   max=MAX_MESSAGE, wait=round(RELAY_WAIT_S * 1000), key=self.key, turn=self.turn)


class LinkWire(PageWire):
    """Pages joined by codes carried by hand: the host `invite`s once per guest
    and `accept`s each guest's answer; a guest `answer`s the host's invitation.
    `open`'s room and secret are not used: a code holds the keys of its own
    connection (the other page's DTLS fingerprint), and only the friend it was
    given to has it. The page names a guest's link `link-<n>` and a guest's
    one link "host"."""

    def __init__(self, ice_servers: tuple[str, ...] = (), board: Switchboard | None = None) -> None:
        super().__init__(board)
        self.ice_servers = ice_servers
        self.invited: set[str] = set()  # (each side names the other its own way: no proof, me "")

    def open(self, room: str, secret: str, heard: Heard) -> None:
        self._open(heard, open="link", iceServers=[{"urls": u} for u in self.ice_servers],
                   max=MAX_MESSAGE)

    def invite(self) -> Awaitable[list[str]]:
        """The host: [the guest's peer name, the code to give that guest]."""
        async def run() -> list[str]:
            peer, sdp = await self._ask(invite=True)
            self.invited.add(str(peer))
            return [str(peer), pack(Description("offer", str(sdp)))]
        return asyncio.ensure_future(run())

    def accept(self, peer: str, code: str) -> Awaitable[None]:
        """The host: take `peer`'s answer (BadCode if it is not one)."""
        description = unpack(code)
        if description.kind != "answer" or peer not in self.invited:
            raise ValueError("not an answer to a waiting invitation")
        self.invited.discard(peer)
        return self._ask(accept=[peer, description.sdp])

    def answer(self, code: str) -> Awaitable[str]:
        """A guest: the code to send back for the host's invitation `code`."""
        description = unpack(code)
        if description.kind != "offer":
            raise ValueError("not an invitation")

        async def run() -> str:
            return pack(Description("answer", str(await self._ask(answer=description.sdp))))
        return asyncio.ensure_future(run())


class WebKeys:
    """The host's key pair and its proofs (game.online.proof.Keys) through
    WebCrypto (static/js/wire.mjs, which `module` imports: in the worker);
    on https and on localhost only."""

    def __init__(self, module: Callable[[], Awaitable[Any]] = _wire_module) -> None:
        self.module = module

    async def make(self) -> list[str]:
        point, private = (await (await self.module()).makeKey()).to_py()
        return [compress(base64.urlsafe_b64decode(point + "=" * (-len(point) % 4))), private]

    async def sign(self, private: str, text: str) -> str:
        return str(await (await self.module()).sign(private, text))

    async def verify(self, key: str, text: str, signature: str) -> bool:
        try:
            point = base64.urlsafe_b64encode(expand(key)).decode().rstrip("=")
        except BadKey:
            return False
        return bool(await (await self.module()).verify(point, text, signature))
