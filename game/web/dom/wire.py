"""The browser's wires (game.online.wire's `Wire`): WebRTC data channels
between the pages of one online table, opened in one of two ways.

- `RelayWire`: Trystero introduces the pages through public Nostr relays
  (game.web.connection.RELAYS; offers and answers encrypted with the room's
  secret, so a page without it never connects) and STUN tells each page its
  public address.
- `LinkWire`: no third party at all, for one network: the host's offer and the
  guest's answer are carried by hand as short codes (game.web.connection.pack),
  and the pages reach each other through their own addresses (host candidates).

Nothing is fetched or contacted before `open` (RelayWire) or `invite`/`answer`
(LinkWire): importing this module makes no request. A message longer than
MAX_MESSAGE is dropped in static/js/wire.mjs, before Python copies it.
"""

from __future__ import annotations

import asyncio
import base64
from typing import Any, Awaitable, Callable

from pyodide.ffi import create_proxy, to_js
from pyscript import js_import, window

from game.online.proof import BadKey, compress, expand
from game.online.wire import PeerJoined, PeerLeft, Received, WireEvent, WireFailed
from game.web.connection import APP_ID, MAX_MESSAGE, RELAYS, STUN, Description, pack, unpack

JsObject = Any  # a JavaScript object seen through Pyodide: untyped for mypy
Heard = Callable[[WireEvent], None]
# Without a relay after this long, the relays are out of reach (the page says so).
RELAY_WAIT_S = 12.0
# Host candidates are gathered within a second; a page on a network that hides
# them still answers with what it has after this long.
GATHER_WAIT_S = 5.0


def _js(value: Any) -> JsObject:
    return to_js(value, dict_converter=window.Object.fromEntries)


async def _module() -> JsObject:
    (module,) = await js_import(window.URL.new("./static/js/wire.mjs", window.document.baseURI).href)
    return module


def _warn_refused(peer: str, size: int) -> None:
    window.console.warn(f"online: a message of {size} characters from {peer} was refused")


class RelayWire:
    """Pages introduced through public relays; `relays` and `ice_servers` are
    the published ones unless a test gives its own local relay."""

    def __init__(self, relays: tuple[str, ...] = RELAYS, ice_servers: tuple[str, ...] = STUN) -> None:
        self.relays, self.ice_servers = relays, ice_servers
        self.room: JsObject = None
        self.me = ""  # this page's id in the room (Trystero's), once joined
        self.heard: Heard | None = None
        self.proxies: list[JsObject] = []
        self.task: asyncio.Future[None] | None = None

    def open(self, room: str, secret: str, heard: Heard) -> None:
        self.heard = heard
        self.task = asyncio.ensure_future(self._join(room, secret))

    def _tell(self, event: WireEvent) -> None:
        if self.heard is not None:
            self.heard(event)

    async def _join(self, room: str, secret: str) -> None:
        on = {"joined": lambda peer: self._tell(PeerJoined(str(peer))),
              "left": lambda peer: self._tell(PeerLeft(str(peer))),
              "received": lambda peer, text: self._tell(Received(str(peer), str(text))),
              "refused": _warn_refused}
        self.proxies = [create_proxy(f) for f in on.values()]
        try:
            module = await _module()
            options = {"appId": APP_ID, "room": room, "secret": secret, "max": MAX_MESSAGE,
                       "relays": list(self.relays),
                       "iceServers": [{"urls": url} for url in self.ice_servers]}
            joined = await module.joinRelays(_js(options), _js(dict(zip(on, self.proxies))))
        except Exception as e:  # the library missing from the site, a browser without WebRTC
            window.console.warn(f"online: the relays' wire did not open: {e}")
            self._tell(WireFailed("no-webrtc"))
            return
        if self.heard is None:  # closed while the library loaded
            joined.leave()
            return
        self.room, self.me = joined, str(joined.me)
        await asyncio.sleep(RELAY_WAIT_S)
        if self.room is not None and not self.room.relaysUp():
            self._tell(WireFailed("no-relay"))

    def send(self, peer: str, text: str) -> None:
        if self.room is not None:
            self.room.send(peer, text)

    def close(self) -> None:
        self.heard = None
        if self.room is not None:
            self.room.leave()
            self.room = None
        if self.task is not None:
            self.task.cancel()
        for proxy in self.proxies:
            proxy.destroy()
        self.proxies = []


class _Link:
    """One peer connection of a LinkWire and its one data channel."""

    def __init__(self, wire: LinkWire, peer: str, module: JsObject) -> None:
        self.wire, self.peer, self.open = wire, peer, False
        self.pc = window.RTCPeerConnection.new(
            _js({"iceServers": [{"urls": url} for url in wire.ice_servers]}))
        # Both ends make the same channel (negotiated, id 0): nothing to announce.
        self.channel = self.pc.createDataChannel("m", _js({"negotiated": True, "id": 0}))
        self.proxies = [create_proxy(self._opened), create_proxy(self._closed),
                        create_proxy(self._state), create_proxy(self._received),
                        create_proxy(_warn_refused_link)]
        self.channel.onopen, self.channel.onclose = self.proxies[0], self.proxies[1]
        self.pc.onconnectionstatechange = self.proxies[2]
        module.listen(self.channel, MAX_MESSAGE, self.proxies[3], self.proxies[4])

    def _opened(self, _event: JsObject = None) -> None:
        self.open = True
        self.wire._tell(PeerJoined(self.peer))

    def _closed(self, _event: JsObject = None) -> None:
        self.wire._drop(self)

    def _state(self, _event: JsObject = None) -> None:
        # "disconnected" comes seconds before the channel closes when a page
        # vanishes without closing (a crash, a lost network): the peer has left.
        if str(self.pc.connectionState) in ("disconnected", "failed", "closed"):
            self.wire._drop(self)

    def _received(self, text: str) -> None:
        self.wire._tell(Received(self.peer, str(text)))

    async def describe(self, kind: str) -> str:
        """Make this end's offer or answer, wait for its candidates, and pack it."""
        made = await (self.pc.createOffer() if kind == "offer" else self.pc.createAnswer())
        await self.pc.setLocalDescription(made)
        for _ in range(int(GATHER_WAIT_S / 0.05)):
            if str(self.pc.iceGatheringState) == "complete":
                break
            await asyncio.sleep(0.05)
        return pack(Description(kind, str(self.pc.localDescription.sdp)))

    async def take(self, description: Description) -> None:
        await self.pc.setRemoteDescription(_js({"type": description.kind, "sdp": description.sdp}))

    def end(self) -> None:
        # Unhooked first: closing fires the handlers again, and one of them may
        # be running now; its proxy is let go once it has returned.
        self.channel.onopen = self.channel.onclose = self.channel.onmessage = None
        self.pc.onconnectionstatechange = None
        self.channel.close()
        self.pc.close()
        asyncio.get_running_loop().call_soon(self._let_go)

    def _let_go(self) -> None:
        for proxy in self.proxies:
            proxy.destroy()


def _warn_refused_link(size: int) -> None:
    _warn_refused("a linked page", size)


class LinkWire:
    """Pages joined by codes carried by hand: the host `invite`s once per guest
    and `accept`s each guest's answer; a guest `answer`s the host's invitation.
    `open`'s room and secret are not used: a code holds the keys of its own
    connection (the other page's DTLS fingerprint), and only the friend it was
    given to has it."""

    HOST = "host"  # a guest's name for the one page it is joined to

    def __init__(self, ice_servers: tuple[str, ...] = ()) -> None:
        self.ice_servers = ice_servers
        self.me = ""  # (each side names the other its own way: no proof is asked)
        self.heard: Heard | None = None
        self.links: dict[str, _Link] = {}
        self.made = 0
        self.on_hide: JsObject = None

    def open(self, room: str, secret: str, heard: Heard) -> None:
        self.heard = heard
        # A closing tab ends its channels itself: the other pages hear it at
        # once instead of when their connection times out (6 s in Chromium).
        self.on_hide = create_proxy(lambda _event: self._end_links())
        window.addEventListener("pagehide", self.on_hide)

    def _tell(self, event: WireEvent) -> None:
        if self.heard is not None:
            self.heard(event)

    def _drop(self, link: _Link) -> None:
        if self.links.get(link.peer) is link:
            del self.links[link.peer]
            if link.open:
                self._tell(PeerLeft(link.peer))
            link.end()

    async def _new(self, peer: str | None = None) -> _Link:
        if peer is None:
            self.made += 1
            peer = f"link-{self.made}"
        link = _Link(self, peer, await _module())
        self.links[peer] = link
        return link

    def invite(self) -> Awaitable[list[str]]:
        """The host: [the guest's peer name, the code to give that guest]."""
        async def run() -> list[str]:
            link = await self._new()
            return [link.peer, await link.describe("offer")]
        return asyncio.ensure_future(run())

    def accept(self, peer: str, code: str) -> Awaitable[None]:
        """The host: take `peer`'s answer (BadCode if it is not one)."""
        description = unpack(code)
        if description.kind != "answer" or peer not in self.links:
            raise ValueError("not an answer to a waiting invitation")
        return asyncio.ensure_future(self.links[peer].take(description))

    def answer(self, code: str) -> Awaitable[str]:
        """A guest: the code to send back for the host's invitation `code`."""
        description = unpack(code)
        if description.kind != "offer":
            raise ValueError("not an invitation")

        async def run() -> str:
            old = self.links.get(self.HOST)
            if old is not None:
                self._drop(old)
            link = await self._new(self.HOST)
            await link.take(description)
            return await link.describe("answer")
        return asyncio.ensure_future(run())

    def send(self, peer: str, text: str) -> None:
        link = self.links.get(peer)
        if link is not None and link.open:
            link.channel.send(text)

    def _end_links(self) -> None:
        for link in list(self.links.values()):
            link.end()
        self.links = {}

    def close(self) -> None:
        self.heard = None
        self._end_links()
        if self.on_hide is not None:
            window.removeEventListener("pagehide", self.on_hide)
            self.on_hide.destroy()
            self.on_hide = None


class WebKeys:
    """The host's key pair and its proofs (game.online.proof.Keys) through the
    browser's WebCrypto (static/js/wire.mjs): on https and on localhost only."""

    async def make(self) -> list[str]:
        point, private = (await (await _module()).makeKey()).to_py()
        return [compress(base64.urlsafe_b64decode(point + "=" * (-len(point) % 4))), private]

    async def sign(self, private: str, text: str) -> str:
        return str(await (await _module()).sign(private, text))

    async def verify(self, key: str, text: str, signature: str) -> bool:
        try:
            point = base64.urlsafe_b64encode(expand(key)).decode().rstrip("=")
        except BadKey:
            return False
        return bool(await (await _module()).verify(point, text, signature))
