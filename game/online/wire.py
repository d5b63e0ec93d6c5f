"""The connection between the pages of one online table, as the rest of the
program sees it: peers that come and go, and text messages between them.

The browser's wire (WebRTC data channels, introduced through public relays
or by an exchanged link) is in game.web.dom; the tests use a loopback in
plain Python. Nothing in a message is trusted: the host checks every one
(game.online.messages) before it reaches the game.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Awaitable, Callable, Protocol, Union, runtime_checkable


@dataclass(frozen=True)
class PeerJoined:
    peer: str  # the wire's name for a connected page; a new one after every reconnect


@dataclass(frozen=True)
class PeerLeft:
    peer: str


@dataclass(frozen=True)
class Received:
    peer: str
    text: str


@dataclass(frozen=True)
class WireFailed:
    """The wire could not open or was lost for good (no relay reachable, the
    exchanged link expired...): `code` is a catalog key's last part."""
    code: str


@dataclass(frozen=True)
class RelaysChanged:
    """The relays that introduce new pages are out of reach (`up` False) or
    back: the pages already joined go on talking directly, but nobody new
    can join meanwhile. `reached` of `of` relays answer now (-1: not counted)."""
    up: bool
    reached: int = -1
    of: int = 0


@dataclass(frozen=True)
class PeerPath:
    """How a joined peer's messages travel now: over a direct channel
    (`relayed` False) or through the relays, encrypted for that peer alone
    (when no direct channel opened). Said after PeerJoined and on every change.
    `turn`: the channel, a device's own, goes through the host's TURN server
    (which passes it on: not direct, though as encrypted)."""
    peer: str
    relayed: bool
    turn: bool = False

    @property
    def way(self) -> str:
        """"direct", "turn" (through the host's TURN server) or "relayed"."""
        return "relayed" if self.relayed else "turn" if self.turn else "direct"


WireEvent = Union[PeerJoined, PeerLeft, Received, WireFailed, RelaysChanged, PeerPath]


class Wire(Protocol):
    # This page's id as the other pages' wires name it ("" where they name it
    # otherwise, as by codes): what the host's proof is signed for (game.online.proof).
    me: str

    def open(self, room: str, secret: str, heard: Callable[[WireEvent], None]) -> None:
        """Join `room` (strangers without `secret` cannot connect); every
        event afterwards is passed to `heard`."""

    def send(self, peer: str, text: str) -> None:
        """Send `text` to one peer (dropped silently if it has left)."""

    def close(self) -> None:
        """Leave the room; no event is heard afterwards."""


@runtime_checkable
class KeyedWire(Protocol):
    """A wire that can carry messages through the relays, encrypted for one
    reader: it is told the table's signing key before `open`, so that a guest
    agrees a key with the host only (game.web.dom.wire.RelayWire)."""

    def keyed(self, public: str, private: str = "") -> None:
        """The link's public key (a guest), or the host's own pair."""


@runtime_checkable
class TurnWire(Protocol):
    """A wire whose direct channels may go through the host's own TURN server
    (game.web.model.turn; the browser's game.web.dom.wire.RelayWire): the host's
    page uses it from the start and hands it to each friend, sealed for them."""

    def use_turn(self, server: dict[str, str]) -> None:
        """`server` as an RTCIceServer (urls, username, credential)."""


class CodeWire(Wire, Protocol):
    """A wire with no third party (the browser's is game.web.dom.wire.LinkWire):
    each guest is joined by the host's invitation code and the guest's
    answer code, carried by hand."""

    def invite(self) -> Awaitable[list[str]]:
        """The host: [the guest's peer, the invitation code for that guest]."""

    def accept(self, peer: str, code: str) -> Awaitable[None]:
        """The host: `peer`'s answer (ValueError if it is not one)."""

    def answer(self, code: str) -> Awaitable[str]:
        """A guest: the answer code to the invitation `code` (ValueError if none)."""
