"""Online play's part of the page, as frozen values in `Page.online`: the
host's screen (`HostScreen`: its room, game.online.host, and what its lobby
and strip say) or a guest's (`GuestScreen`: its `Guest`, game.online.guest,
and its table). The reducers that change them are game.web.online.host's and
game.web.online.guest's; the wires, the signer and the clock they need stay
in the runtime (game.web.runtime.online_door's `OnlineDrivers`).

This module imports nothing of the page (game.web.model.page names these types),
so the page and online play's modules import each other in one direction.
"""

from __future__ import annotations

import base64
import hashlib
from dataclasses import dataclass, field
from typing import Any, Literal

from game.web.model.turn import TurnForm
from game.core.state import State
from game.online import guest as g
from game.online import host as h
from game.web.draw.html import Html
from game.web.model.session import Message
from game.web.online.seat_analysis import SeatAnalysis


def derived(fresh: str, label: str) -> str:
    """A seat token, a room's id or secret, a page's challenge: made from the
    runtime's random `fresh` (a reducer draws no random number itself), one
    per label, as unguessable as `fresh` (messages.TOKEN's alphabet)."""
    digest = hashlib.sha256(f"{fresh}:{label}".encode()).digest()
    return base64.urlsafe_b64encode(digest).decode()[:24]


@dataclass(frozen=True)
class HostScreen:
    """The host's page at an online table: the room (game.online.host), the
    deal before it starts, and what the lobby and the strip say."""
    room: h.Room
    state: State  # the deal the lobby seats people for
    seed: int
    levels: tuple[str, ...]
    address: str  # this page's address, for a whole invite link ("": none known)
    signs: bool  # this page can sign (the invite link carries its public key)
    wire: Literal["", "relays", "codes"] = ""  # the wire open now ("codes": carried by hand)
    keying: bool = False  # the key pair is being made: the wire opens next
    invitations: dict[str, str] = field(default_factory=dict)  # peer -> its code, until answered
    invited_for: dict[str, str] = field(default_factory=dict)  # peer -> the away friend's seat
    error: str = ""
    heard: tuple[tuple[str, str], ...] = ()  # (name, reaction key), newest last
    # No relay answers now: the friends here go on directly, nobody new can join.
    relays_down: bool = False
    reach: tuple[int, int] | None = None  # (relays reached, of all), as last counted
    relays_ever: bool = False  # a relay answered since the wire opened
    no_relay: bool = False  # none answered in time: no link would work
    paths: dict[str, str] = field(default_factory=dict)  # peer -> PeerPath.way
    waiting_said: str = ""  # the strip's word on whom the table waits for
    fleeting: tuple[tuple[str, dict[str, str], float], ...] = ()  # (key, words, shown at)
    turn: TurnForm = TurnForm()  # the host's own TURN server, before the table opens

    @property
    def game(self) -> str:
        return self.room.game

    @property
    def by_code(self) -> bool:
        return self.wire == "codes"


@dataclass(frozen=True)
class SeatTable:
    """What the guest's page adds to what the host sent: the parts picked,
    a choice made ahead (sent once this seat is asked), its message, the
    hands whose summary it closed (None before its first table), the
    observation the table had before a hand was scored (the table behind
    that hand's summary: (player, observation)), the hint (for a state id)
    and whether the final summary was closed."""
    picked: tuple[str, ...] = ()
    held: str | None = None
    message: Message | None = None
    seen_hands: int | None = None
    scored_from: tuple[Any, dict[str, Any]] | None = None
    hint: tuple[int, str | None] | None = None  # (state id, action: None while it thinks)
    closed_final: bool = False


@dataclass(frozen=True)
class GuestScreen:
    """A guest's page at an online table: its `Guest` (game.online.guest) and
    its table (`SeatTable`, game.web.online.table)."""
    game: str
    room: str
    guest: g.Guest
    # The key of the link the seat token was issued through (the token goes
    # back only through a link with that key).
    link_key: str = ""
    code: str | None = None  # the host's invitation code: no third party
    wired: bool = False  # its wire is open
    seat: SeatTable = SeatTable()
    verifying: frozenset[tuple[str, str]] = frozenset()  # proofs whose check is under way
    message: str = ""  # a word on the connection (a host this page cannot read)
    answer: str | None = None  # this page's answer code, once made
    reach: tuple[int, int] | None = None  # (relays reached, of all), as last counted
    opened_at: float | None = None  # when the wire opened (the page's clock)
    host_missing: bool = False  # relays reached, and no host answered for HOST_WAIT_S
    path: str = "direct"  # how this page reaches the host (PeerPath.way)
    paths: dict[str, str] = field(default_factory=dict)  # each page met: how it is reached
    analysis: SeatAnalysis = SeatAnalysis()  # this seat's decisions, and their analysis
    # The table as drawn when a message was checked (game.web.online.guest's
    # `drawable`), and from what: the draw after it takes that drawing.
    drawn: tuple[tuple[Any, ...], Html] | None = field(default=None, compare=False)

    @property
    def rejoins(self) -> bool:
        """A token kept from before: join again at once (the person chose to before)."""
        return self.guest.token is not None
