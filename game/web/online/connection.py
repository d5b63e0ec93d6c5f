"""Online play's connection as data, with no browser import: the hosts the
page contacts when a player chooses to be introduced through public relays
(the one list the page's wire, the Content-Security-Policy and the sentence
telling the player all read), and the short code that carries a WebRTC offer
or answer by hand when the players choose no third party at all.

The browser's wire is game.web.dom.wire; docs/DESIGN.md, "Online play: the
connection", says why these relays and this library.

>>> connect_sources().split()[:2]
["'self'", 'wss://nos.lol']
>>> relay_hosts()[0], stun_hosts()[0]
('nos.lol', 'stun.cloudflare.com')
"""

from __future__ import annotations

import base64
import re
from dataclasses import dataclass

# Trystero's application id: rooms of other sites on the same relays never meet ours.
APP_ID = "jekyll-hyde-games"
# Public Nostr relays that introduce the pages to each other (Trystero's Nostr
# strategy, which signs and encrypts what it posts there as ephemeral events,
# kinds 20000-29999, that a relay forwards and keeps nothing of). Six long-running
# relays of six operators, all from the list Trystero's maintainers keep of relays
# that accept those events (its defaultRelayUrls): the page posts to all, so
# one reached is enough and the others down cost nothing (README, "Play with
# friends", says why these).
RELAYS = ("wss://nos.lol", "wss://relay.mostr.pub", "wss://purplerelay.com",
          "wss://nostr.vulpem.com", "wss://yabu.me/v2", "wss://nostr.data.haus")
# STUN servers of two operators that tell a page its public address, for
# friends on other networks: either one answering is enough.
STUN = ("stun:stun.cloudflare.com:3478", "stun:stun.l.google.com:19302")
# The longest message the wire passes on (characters): a whole game's record is
# far below it; a longer one is refused before it reaches Python's parsing.
MAX_MESSAGE = 256 * 1024


def relay_hosts() -> tuple[str, ...]:
    """The relays' host names, as the page tells the player."""
    return tuple(url.split("://", 1)[1].split("/", 1)[0] for url in RELAYS)


def stun_hosts() -> tuple[str, ...]:
    return tuple(url.split(":")[1] for url in STUN)


def info_urls() -> tuple[str, ...]:
    """Each relay's NIP-11 document (its limits), at the relay's own address
    over https (static/js/wire.mjs's relayLimit)."""
    return tuple("http" + url[2:] for url in RELAYS)


def connect_sources() -> str:
    """The Content-Security-Policy's connect-src: the site itself and the
    relays (their sockets and their NIP-11 documents), nothing else. STUN and
    TURN servers are WebRTC's, which no connect-src governs (w3c/webrtc-pc#1727)."""
    return " ".join(("'self'",) + RELAYS + info_urls())


# ---- the hand-carried offer and answer -------------------------------------
#
# A data-channel-only SDP of Chromium or Firefox differs from one page to the
# next only in its ICE credentials, its DTLS fingerprint, its role and its
# candidates; the code keeps those and the page rebuilds the rest. With host
# candidates only it is about 120 characters (a deflated SDP: about 600).

_FIELD = "~"
_SDP_TEMPLATE = (
    "v=0\r\no=- 1 2 IN IP4 127.0.0.1\r\ns=-\r\nt=0 0\r\na=group:BUNDLE 0\r\n"
    "a=msid-semantic: WMS\r\nm=application 9 UDP/DTLS/SCTP webrtc-datachannel\r\n"
    "c=IN IP4 0.0.0.0\r\n{candidates}a=ice-ufrag:{ufrag}\r\na=ice-pwd:{pwd}\r\n"
    "a=ice-options:trickle\r\na=fingerprint:sha-256 {fingerprint}\r\na=setup:{setup}\r\n"
    "a=mid:0\r\na=sctp-port:5000\r\na=max-message-size:262144\r\n")
# An offer's role is actpass; an answer's active (or passive, read back as such).
_SETUPS = {"o": "actpass", "a": "active", "p": "passive"}
_ICE_CHARS = re.compile(r"^[A-Za-z0-9+/]+$")
_ADDRESS = re.compile(r"^[0-9A-Za-z.:\-]+$")
_LONGEST_CODE = 1000


class BadCode(ValueError):
    """Not a code this page made (mistyped, cut short, or from something else)."""


@dataclass(frozen=True)
class Description:
    kind: str  # "offer" or "answer", as RTCSessionDescription's type
    sdp: str


def _line(sdp: str, name: str) -> str:
    match = re.search(rf"^a={name}:(.*?)\s*$", sdp, re.M)
    if match is None:
        raise BadCode(f"no a={name} in the description")
    return match.group(1)


def _host_candidates(sdp: str) -> list[str]:
    """'address_port' of each UDP host candidate of component 1."""
    out = []
    for match in re.finditer(r"^a=candidate:\S+ 1 udp \d+ (\S+) (\d+) typ host\b", sdp, re.M | re.I):
        if _ADDRESS.match(match.group(1)):
            out.append(f"{match.group(1)}_{match.group(2)}")
    return list(dict.fromkeys(out))


def pack(description: Description) -> str:
    """The short code of a gathered offer or answer (its host candidates only).

    >>> sdp = ("a=candidate:9 1 udp 2122 192.0.2.2 50000 typ host generation 0\\r\\n"
    ...        "a=ice-ufrag:Ab+c\\r\\na=ice-pwd:p/wd\\r\\na=fingerprint:sha-256 0A:FF\\r\\n"
    ...        "a=setup:actpass\\r\\n")
    >>> pack(Description("offer", sdp))
    'o~Ab+c~p/wd~Cv8~192.0.2.2_50000'
    """
    sdp = description.sdp
    setup = _line(sdp, "setup")
    role = "o" if description.kind == "offer" else "p" if setup == "passive" else "a"
    algorithm, _, hexes = _line(sdp, "fingerprint").partition(" ")
    if algorithm.lower() != "sha-256":
        raise BadCode(f"a {algorithm} fingerprint")
    fingerprint = base64.urlsafe_b64encode(bytes.fromhex(hexes.replace(":", ""))).decode()
    candidates = _host_candidates(sdp)
    if not candidates:
        raise BadCode("no host candidate")
    return _FIELD.join((role, _line(sdp, "ice-ufrag"), _line(sdp, "ice-pwd"),
                        fingerprint.rstrip("="), ",".join(candidates)))


def unpack(code: str) -> Description:
    """The description a code stands for; BadCode if it is none of ours.

    >>> d = unpack('o~Ab+c~p/wd~Cv8~192.0.2.2_50000')
    >>> d.kind, "a=fingerprint:sha-256 0A:FF" in d.sdp, "192.0.2.2 50000 typ host" in d.sdp
    ('offer', True, True)
    """
    parts = code.strip().split(_FIELD)
    if len(code) > _LONGEST_CODE or len(parts) != 5 or parts[0] not in _SETUPS:
        raise BadCode("not five fields")
    role, ufrag, pwd, fingerprint, candidates = parts
    if not (_ICE_CHARS.match(ufrag) and _ICE_CHARS.match(pwd)):
        raise BadCode("bad ICE credentials")
    try:
        digest = base64.b64decode(fingerprint + "=" * (-len(fingerprint) % 4), b"-_", validate=True)
    except ValueError as e:
        raise BadCode("bad fingerprint") from e
    if not 0 < len(digest) <= 64:
        raise BadCode("bad fingerprint")
    lines = []
    for n, candidate in enumerate(candidates.split(",")[:8]):
        address, _, port = candidate.rpartition("_")
        if not (_ADDRESS.match(address) and port.isdigit() and 0 < int(port) < 65536):
            raise BadCode("bad candidate")
        lines.append(f"a=candidate:{n + 1} 1 udp {2122260223 - n} {address} {port} typ host\r\n")
    sdp = _SDP_TEMPLATE.format(
        candidates="".join(lines), ufrag=ufrag, pwd=pwd,
        fingerprint=":".join(f"{b:02X}" for b in digest), setup=_SETUPS[role])
    return Description("offer" if role == "o" else "answer", sdp)
