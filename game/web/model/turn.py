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
game.web.model.turn.BadTurn: online.turn_bad_address
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

TURN_KEY = "jhg.turn"  # where this browser keeps it
from typing import Any


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


def read(text: str | None) -> Turn | None:
    """The TURN server kept in this browser (`text`, as stored under TURN_KEY;
    None: none kept, or not one any more)."""
    if not text:
        return None
    try:
        kept: Any = json.loads(text)
        return parse(str(kept["address"]), str(kept["user"]), str(kept["credential"]))
    except (ValueError, TypeError, KeyError):  # damaged: as if none were kept
        return None


@dataclass(frozen=True)
class TurnForm:
    """The host's TURN settings as the intro shows them: the one kept, why
    the last try was refused (a catalog key) and what was typed then, and
    whether it was kept or forgotten here (the part then stays unfolded)."""
    kept: Turn | None = None
    error: str = ""
    typed: tuple[str, str] = ("", "")  # (address, user) refused, shown again
    used: bool = False


def kept_as(form: TurnForm, address: str, user: str, credential: str) -> tuple[TurnForm, str | None]:
    """The form once the host chose Keep, and the text to keep under
    TURN_KEY (None: refused, the form says why).

    >>> form, text = kept_as(TurnForm(), "turn:example.org", "ann", "pw")
    >>> form.kept.host, form.used, json.loads(text)["user"]
    ('example.org', True, 'ann')
    >>> kept_as(TurnForm(), "http://example.org", "ann", "pw")[0].error
    'online.turn_bad_address'
    """
    try:
        turn = parse(address, user, credential)
    except BadTurn as e:
        return TurnForm(form.kept, str(e), (address, user), True), None
    text = json.dumps({"address": turn.address, "user": turn.user, "credential": turn.credential})
    return TurnForm(turn, used=True), text
