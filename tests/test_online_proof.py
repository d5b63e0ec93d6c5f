"""A guest knows its host (game.online.proof): the key's short form in the
link, the host's answer to a challenge, the guest that takes as its host
only the page whose proof it verified, and the pages doing so through a
loopback mesh in which another friend's page pretends to be the host. The
signer here is a stand-in for WebCrypto's (tests/browser/test_online_rogue.py
has the browser's own), binding each proof to its text as ECDSA does."""

from __future__ import annotations

import base64
import hashlib
import json

import pytest

from game.online import guest as g
from game.online import host as h
from game.online import messages as m
from game.online.proof import BadKey, compress, expand, proof_text
from game.online.wire import PeerJoined, PeerLeft, Received
from game.web.model.links import Link
from tests.online_kit import SECRET
from tests.page_kit import items, make_page
from tests.test_online_play_page import Pages

# -- P-256 points, for the key's short form -------------------------------------------

P = 2**256 - 2**224 + 2**192 + 2**96 - 1
G = (0x6B17D1F2E12C4247F8BCE6E563A440F277037D812DEB33A0F4A13945D898C296,
     0x4FE342E2FE1A7F9B8EE7EB4A7C0F9E162BCE33576B315ECECBB6406837BF51F5)


def _add(a, b):
    if a is None:
        return b
    if b is None:
        return a
    if a[0] == b[0] and (a[1] + b[1]) % P == 0:
        return None
    if a == b:
        slope = (3 * a[0] * a[0] - 3) * pow(2 * a[1], -1, P)
    else:
        slope = (b[1] - a[1]) * pow(b[0] - a[0], -1, P)
    x = (slope * slope - a[0] - b[0]) % P
    return x, (slope * (a[0] - x) - a[1]) % P


def _times(k: int):
    point, result = G, None
    while k:
        if k & 1:
            result = _add(result, point)
        point, k = _add(point, point), k >> 1
    return result


def _uncompressed(point) -> bytes:
    return b"\x04" + point[0].to_bytes(32, "big") + point[1].to_bytes(32, "big")


@pytest.mark.parametrize("k", [1, 2, 3, 7, 12345678901234567890, P // 3])
def test_a_public_key_in_the_link_is_the_same_point_once_expanded(k):
    point = _uncompressed(_times(k))
    key = compress(point)
    assert len(key) == 44 and expand(key) == point


def test_what_is_not_a_key_is_refused():
    point = bytearray(_uncompressed(_times(5)))
    with pytest.raises(BadKey):
        compress(bytes(point[:64]))
    for bad in ("", "C" + "A" * 43, "A" + "_" * 43, "A" * 45):
        with pytest.raises(BadKey):
            expand(bad)


# -- a stand-in signer ------------------------------------------------------------------

class FakeKeys:
    """Signs by hashing with the key (no one without `private` can make one)."""

    made = 0

    async def make(self) -> list[str]:
        FakeKeys.made += 1
        key = compress(_uncompressed(_times(1000 + FakeKeys.made)))
        return [key, "private-of-" + key]

    @staticmethod
    def _signature(key: str, text: str) -> str:
        return base64.urlsafe_b64encode(hashlib.sha512((key + text).encode()).digest()).decode()[:86]

    async def sign(self, private: str, text: str) -> str:
        return self._signature(private.removeprefix("private-of-"), text)

    async def verify(self, key: str, text: str, signature: str) -> bool:
        return signature == self._signature(key, text)


# -- the reducers ------------------------------------------------------------------------

KEY = compress(_uncompressed(_times(99)))
NONCE = "nonce-of-the-guest-1"


def test_the_host_answers_a_challenge_with_a_proof_for_the_asker():
    room = h.Room("room-1", SECRET, "dracula", (h.Seat("0", "host"), h.Seat("1")),
                  key=KEY, private="p")
    _, sends, effects = h.reduce(room, Received("ann", m.encode(m.Challenge(NONCE))), 0.0)
    assert sends == () and effects == (h.Prove("ann", proof_text("room-1", NONCE, "ann")),)
    keyless = h.Room("room-1", SECRET, "dracula", room.seats)
    _, sends, effects = h.reduce(keyless, Received("ann", m.encode(m.Challenge(NONCE))), 0.0)
    assert effects == () and json.loads(sends[0].text)["code"] == "no_key"


def test_a_guest_with_the_hosts_key_reads_only_a_proven_page():
    guest = g.Guest(SECRET, "Ann", token="seat-token-00000001", key=KEY, nonce=NONCE)
    guest, sends = g.reduce(guest, PeerJoined("eve"))
    assert sends == (("eve", m.encode(m.Challenge(NONCE))),)  # no secret, no token
    lobby = m.encode(m.Lobby("dracula", [], None))
    guest, sends = g.reduce(guest, Received("eve", lobby))
    assert sends == () and guest.status == "connecting" and guest.host is None
    guest, _ = g.reduce(guest, Received("eve", m.encode(m.Proof("s" * 86))))
    assert guest.checking == (("eve", "s" * 86),)
    guest, sends = g.reduce(guest, g.Proven("eve", "s" * 86, False))
    assert sends == () and guest.host is None and guest.checking == ()
    guest, _ = g.reduce(guest, PeerJoined("hal"))
    guest, _ = g.reduce(guest, Received("hal", m.encode(m.Proof("h" * 86))))
    guest, sends = g.reduce(guest, g.Proven("hal", "h" * 86, True))
    assert guest.host == "hal" and [p for p, _ in sends] == ["hal"]
    assert json.loads(sends[0][1])["token"] == "seat-token-00000001"
    guest, _ = g.reduce(guest, Received("hal", lobby))
    assert guest.status == "lobby"
    guest, _ = g.reduce(guest, Received("eve", m.encode(m.HostLeft())))
    assert guest.status == "lobby"  # another page's word is not the host's
    guest, _ = g.reduce(guest, PeerLeft("hal"))  # the host drops: it proves itself again
    guest, sends = g.reduce(guest, PeerJoined("hal-2"))
    assert sends == (("hal-2", m.encode(m.Challenge(NONCE))),)


def test_a_guest_without_a_key_trusts_the_page_that_answers():
    """By codes: the one page at the other end is the host's."""
    guest, sends = g.reduce(g.Guest(SECRET, "Ann"), PeerJoined("host"))
    assert json.loads(sends[0][1])["type"] == "join"


# -- the pages, in a mesh with a pretender ---------------------------------------------------

def keyed_guest(pages: Pages, name: str):
    ctrl, screen, thinking = pages.page(Link(join=pages.invite()))
    ctrl.online.keys = FakeKeys()
    ctrl.start(None)
    ctrl.command("online-join", {"name": name})
    pages.guests.append((ctrl, screen))
    return ctrl, screen, thinking


def settle(pages: Pages, *thinkings) -> None:
    """Deliver every message and finish every signing and verifying."""
    for _ in range(50):
        pages.net.pump()
        if not sum(t.run() for t in (pages.host_thinking, *thinkings)):
            pages.net.pump()
            return
    raise AssertionError("the pages never settled")


def test_a_friend_who_pretends_to_be_the_host_is_ignored():
    pages = Pages("jekyll-vs-hyde", {"jvh_role": "J", "jvh_bot": "random"})
    pages.host.online.keys = FakeKeys()
    pages.host.command("online-open", {})
    settle(pages)
    room = pages.host.page.online.room
    assert pages.invite().endswith("." + room.key) and len(room.key) == 44
    host_peer = pages.host.online.wire.me
    # Another friend's page, in the room before Ann: it answers her as a host would,
    # and passes her challenge on to the real host to borrow its proof. (The host
    # does not hear Ann herself meanwhile: the borrowed proof is all she gets.)
    peers = pages.net.rooms[room.room_id]
    host_hears = peers[host_peer]
    peers[host_peer] = lambda e: None if getattr(e, "peer", "").startswith("p3") else host_hears(e)
    eve = pages.net.wire()
    heard: list = []
    eve.open(room.room_id, room.secret, heard.append)
    settle(pages)
    guest, screen, thinking = keyed_guest(pages, "Ann")
    pages.net.pump()
    ann = guest.online.wire.me
    assert ann.startswith("p3")
    eve.send(ann, m.encode(m.Lobby("jekyll-vs-hyde", [], "H")))
    challenge = next(e.text for e in heard if isinstance(e, Received) and e.peer == ann)
    assert json.loads(challenge)["type"] == "challenge"
    eve.send(host_peer, challenge)
    settle(pages, thinking)
    borrowed = next(e.text for e in heard if isinstance(e, Received) and e.peer == host_peer
                    and json.loads(e.text)["type"] == "proof")
    eve.send(ann, borrowed)
    eve.send(ann, m.encode(m.TableUpdate("jekyll-vs-hyde", "H", 1, {}, [], 0, "H", [])))
    settle(pages, thinking)
    online = guest.page.online
    assert online.guest.host is None and online.guest.status == "connecting"
    assert 'id="online-bar"' not in pages.screen_html(screen)
    assert [json.loads(e.text)["type"] for e in heard if isinstance(e, Received)
            and e.peer == ann] == ["challenge"]  # no name, no secret, no token
    # Bob, whom the host hears, proves it and sits down.
    bob, bob_screen, bob_thinking = keyed_guest(pages, "Bob")
    settle(pages, thinking, bob_thinking)
    assert bob.page.online.guest.host == host_peer
    assert bob.page.online.guest.status == "seated"
    pages.host.command("online-start", {})
    settle(pages, thinking, bob_thinking)
    assert 'id="online-bar"' in pages.screen_html(bob_screen)


def test_the_hosts_key_survives_a_reload_of_its_page_and_older_rooms_still_open():
    room = h.Room("room-1", SECRET, "dracula", (h.Seat("0", "host"), h.Seat("1", "bot")),
                  key=KEY, private='{"kty":"EC"}')
    again = h.room_from_json(json.loads(json.dumps(h.room_to_json(room))), None, 0.0)
    assert (again.key, again.private) == (KEY, '{"kty":"EC"}')
    older = {k: v for k, v in h.room_to_json(room).items() if k not in ("key", "private")}
    assert h.room_from_json(older, None, 0.0).key == ""  # its guests trust who answers
    with pytest.raises(h.BadStateError):
        h.room_from_json({**h.room_to_json(room), "key": "not a key"}, None, 0.0)


def test_a_seat_token_goes_back_only_through_a_link_with_the_key_it_was_issued_under():
    """Issue 57, item 1: Ann's browser keeps her seat token. The same
    invitation with the key removed, or with another key, never rejoins by
    itself (a page holding the link alone could answer first and take her
    seat): she is asked to join like a new friend, and her token stays kept
    for the real link, through which she is seated again at once."""
    pages = Pages("jekyll-vs-hyde", {"jvh_role": "J", "jvh_bot": "random"})
    pages.host.online.keys = FakeKeys()
    pages.host.command("online-open", {})
    settle(pages)
    link = pages.invite()
    ann, _, thinking = keyed_guest(pages, "Ann")
    settle(pages, thinking)
    assert ann.page.online.guest.status == "seated"
    kept = dict(items(ann))
    token_key = f"jhg.online.seat.{pages.host.page.online.room.room_id}"
    another = compress(_uncompressed(_times(4242)))
    for spoilt in (link.rsplit(".", 1)[0], link.rsplit(".", 1)[0] + "." + another):
        ctrl, screen, _ = pages.page(Link(join=spoilt), stored=dict(kept))
        ctrl.online.keys = FakeKeys()
        ctrl.start(None)
        pages.net.pump()
        guest = ctrl.page.online.guest
        assert guest.token is None, spoilt  # nothing to hand to whoever answers
        assert 'id="online-join"' in pages.screen_html(screen)  # asked, as a new friend
        assert items(ctrl)[token_key] == kept[token_key]  # kept for the real link
        assert ctrl.online.wire is None  # nothing contacted before Join
    assert json.loads(kept[token_key])["key"] == link.rsplit(".", 1)[1]
    again, _, thinking = pages.page(Link(join=link), stored=dict(kept))
    again.online.keys = FakeKeys()
    again.start(None)
    settle(pages, thinking)
    assert again.page.online.guest.token is not None
    assert again.page.online.guest.status == "seated"  # her seat back, no Join pressed
