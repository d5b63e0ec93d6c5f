"""The host's own TURN server, optional: an address (turn: or turns:), a
user name and a credential, typed in on the host's page before the table
opens, checked here, kept in that browser only (`TURN_KEY`), never in the
invite link. The host's page uses it for its direct channels from the start;
each friend gets it only inside the channel encrypted for them alone
(static/js/wire.mjs's relayPath), and their page uses it for the direct
channels it opens afterwards. README, "Play with friends", says what TURN
is and when a player needs it.

>>> parse("turns:turn.example.org:5349?transport=tcp", "ann", "s3cret").host
'turn.example.org'
>>> parse("stun:turn.example.org", "ann", "s3cret")
Traceback (most recent call last):
...
game.web.turn.BadTurn: online.turn_bad_address
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from game.web.controller import Controller

TURN_KEY = "jhg.turn"
# turn[s]:host[:port][?transport=udp|tcp] (RFC 7065); a host name, an IPv4
# address or a bracketed IPv6 one.
_ADDRESS = re.compile(r"^turns?:(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?)"
                      r"(?::(\d{1,5}))?(?:\?transport=(?:udp|tcp))?$")
_LONGEST = 256  # characters of each field: a real one is far shorter
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


class BadTurn(ValueError):
    """Not a TURN server's settings; the message is the catalog key that says why."""


@dataclass(frozen=True)
class Turn:
    address: str
    user: str
    credential: str

    @property
    def host(self) -> str:
        """The server's host, as the page names what it contacts."""
        found = _ADDRESS.match(self.address)
        return found.group(1) if found else ""

    def ice_server(self) -> dict[str, str]:
        """As an RTCIceServer."""
        return {"urls": self.address, "username": self.user, "credential": self.credential}


def parse(address: str, user: str, credential: str) -> Turn:
    address, user = address.strip(), user.strip()
    if not address:
        raise BadTurn("online.turn_no_address")
    found = _ADDRESS.match(address)
    if len(address) > _LONGEST or found is None or not 0 < int(found.group(2) or 3478) < 65536:
        raise BadTurn("online.turn_bad_address")
    for value, missing in ((user, "online.turn_no_user"), (credential, "online.turn_no_credential")):
        if not value:
            raise BadTurn(missing)
        if len(value) > _LONGEST or _CONTROL.search(value):
            raise BadTurn("online.turn_bad_text")
    return Turn(address, user, credential)


def stored(ctrl: Controller) -> Turn | None:
    """The TURN server kept in this browser (None: none, or not one any more)."""
    text = ctrl.stored(TURN_KEY)
    if not text:
        return None
    try:
        kept: Any = json.loads(text)
        return parse(str(kept["address"]), str(kept["user"]), str(kept["credential"]))
    except (ValueError, TypeError, KeyError):  # damaged: as if none were kept
        return None


class TurnForm:
    """The host's TURN settings as the intro shows them: what is kept, and
    why the last try was refused."""

    def __init__(self) -> None:
        self.error = ""  # a catalog key
        self.typed: tuple[str, str] = ("", "")  # (address, user) refused, shown again
        self.used = False  # kept or forgotten here: the part stays unfolded, saying so

    def keep(self, ctrl: Controller, data: dict[str, str]) -> None:
        address, user = data.get("address", ""), data.get("user", "")
        self.used = True
        try:
            turn = parse(address, user, data.get("credential", ""))
        except BadTurn as e:
            self.error, self.typed = str(e), (address, user)
            return
        self.error, self.typed = "", ("", "")
        ctrl.keep(TURN_KEY, json.dumps({"address": turn.address, "user": turn.user,
                                        "credential": turn.credential}))

    def forget(self, ctrl: Controller) -> None:
        self.error, self.typed, self.used = "", ("", ""), True
        ctrl.forget(TURN_KEY)


def hand_to(wire: object, turn: Turn | None) -> None:
    """The host's wire uses `turn` (a wire that carries no TURN server: nothing)."""
    use = getattr(wire, "use_turn", None)
    if turn is not None and use is not None:
        use(turn.ice_server())
