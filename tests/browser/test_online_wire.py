"""Online play's wire between real browsers on one machine, with no internet
(issue 32): pages in separate browser contexts (separate storage, like
separate people's browsers) of one Chromium, on 127.0.0.1.

- Through the relays: a Nostr relay on 127.0.0.1 (the `relay` fixture)
  stands for the public ones; each page's wire is pointed at it through
  `window.wireProbe` (static/js/wire-probe.mjs), which a test installs
  before the page loads. The relay listens on its own port, which the site's
  policy (the published relays only) would refuse: these contexts bypass it.
- By hand: the host's code and the guest's answer carried between the pages,
  no relay and no STUN at all, under the site's own policy.

Chromium hides a page's own addresses behind mDNS names, which nothing
resolves here: the browser of these tests shows them, as a browser does once
a page may use the camera. Timings and the code's length are printed (-s).
"""

from __future__ import annotations

import os
import signal
import time

import pytest

from game.web.online.connection import MAX_MESSAGE
from tests.browser.online_pages import Peer

pytestmark = pytest.mark.browser


@pytest.fixture
def peers(chromium, site_url):
    """Makes raw wire pages (online_pages.Peer), closed at the end; the test fails
    on any page error one saw."""
    made: list[Peer] = []

    def make(bypass_csp: bool = True) -> Peer:
        made.append(Peer(chromium, site_url, bypass_csp))
        return made[-1]

    yield make
    for p in made:
        try:
            p.close()
        except Exception:
            pass
    for p in made:
        assert not p.errors, p.errors


def _exchange(a: Peer, b: Peer) -> None:
    """a and b, joined, send each other a message and each hears the other's."""
    b_name, a_name = a.joined()[-1], b.joined()[-1]
    a.send(b_name, "from a: é ♠")
    b.send(a_name, "from b")
    assert b.wait_event("Received")[1:3] == [a_name, "from a: é ♠"]
    assert a.wait_event("Received")[1:3] == [b_name, "from b"]


def test_two_pages_meet_through_a_relay_and_a_stranger_never_does(peers, relay):
    host, guest = peers(), peers()
    # Until a wire opens, the page has fetched neither the wire nor the library.
    assert not [u for u in host.requests if "wire.mjs" in u or "trystero" in u]
    host.open_relays(relay.url)
    guest.open_relays(relay.url)
    joined = [host.wait_event("PeerJoined"), guest.wait_event("PeerJoined")]
    assert [u for u in host.requests if "/vendor/trystero/nostr/" in u]
    print(f"\nrelay: open() to PeerJoined {joined[0][3]} ms (host), {joined[1][3]} ms (guest)")
    _exchange(host, guest)
    stranger = peers()
    stranger.open_relays(relay.url, secret="not-the-secret")
    time.sleep(8)  # several of Trystero's offers answered in vain
    assert stranger.joined() == []
    assert len(host.joined()) == 1 and len(guest.joined()) == 1
    assert not any(e[0] == "WireFailed" for p in (host, guest, stranger) for e in p.events())


def test_a_page_that_closes_leaves_and_a_reload_comes_back_as_a_new_peer(peers, relay):
    host, guest = peers(), peers()
    host.open_relays(relay.url)
    guest.open_relays(relay.url)
    first = host.wait_event("PeerJoined")[1]
    guest.wait_event("PeerJoined")
    started = time.monotonic()
    guest.page.reload()  # the tab goes: its wire ends with it
    assert host.wait_event("PeerLeft")[1] == first
    print(f"\nrelay: a reloaded page's PeerLeft after {time.monotonic() - started:.1f} s")
    guest.page.wait_for_selector("body[data-state=ready]", timeout=60000)
    guest.page.wait_for_function("window.wireProbe !== undefined")
    guest.open_relays(relay.url)
    again = host.wait_event("PeerJoined", 2)[1]
    assert again != first
    _exchange(host, guest)


def test_four_pages_in_one_room_all_meet(peers, relay):
    pages = [peers() for _ in range(4)]
    for p in pages:
        p.open_relays(relay.url)
    for p in pages:
        p.wait_event("PeerJoined", 3, timeout=60000)
    names = [set(p.joined()) for p in pages]
    assert all(len(n) == 3 for n in names)
    everyone = set().union(*names)
    assert len(everyone) == 4  # each page is known by one name to the three others
    print("\nrelay, four pages: last PeerJoined after",
          [max(e[3] for e in p.events() if e[0] == "PeerJoined") for p in pages], "ms")
    pages[3].page.evaluate("wireProbe.close()")  # the others hear it leave
    for p in pages[:3]:
        p.wait_event("PeerLeft", timeout=10000)
    assert {p.wait_event("PeerLeft")[1] for p in pages[:3]} == everyone - names[3]
    pages[3].page.wait_for_timeout(1000)  # what the closed wire might still hear
    assert not any(e[0] == "PeerLeft" for e in pages[3].events())


def _linked(host: Peer, guest: Peer) -> tuple[str, str]:
    """Join guest to host by hand; (the host's name for the guest, the invitation)."""
    host.page.evaluate("wireProbe.openLink()")
    guest.page.evaluate("wireProbe.openLink()")
    peer, offer = host.page.evaluate("wireProbe.invite()").split(" ")
    answer = guest.page.evaluate("c => wireProbe.answer(c)", offer)
    host.page.evaluate("([p, c]) => wireProbe.accept(p, c)", [peer, answer])
    print(f"\nlink: offer {len(offer)} characters, answer {len(answer)} (base64 SDP)")
    return peer, offer


def test_two_pages_joined_by_hand_with_no_relay(peers):
    host, guest = peers(bypass_csp=False), peers(bypass_csp=False)
    _linked(host, guest)
    print(f"link: PeerJoined {host.wait_event('PeerJoined')[3]} ms after open (host)")
    guest.wait_event("PeerJoined")
    assert guest.joined() == ["host"]
    _exchange(host, guest)
    started = time.monotonic()
    guest.page.close(run_before_unload=True)
    assert host.wait_event("PeerLeft", timeout=3000)[1] == host.joined()[0]
    print(f"link: a closed page's PeerLeft after {time.monotonic() - started:.1f} s")
    assert not [u for p in (host, guest) for u in p.requests if "/vendor/trystero/" in u]


def test_a_message_over_the_limit_never_reaches_python(peers, relay):
    host, guest = peers(), peers()
    host.open_relays(relay.url)
    guest.open_relays(relay.url)
    host.wait_event("PeerJoined")
    guest.wait_event("PeerJoined")
    name = host.joined()[0]
    host.page.evaluate("([p, n]) => wireProbe.send(p, 'x'.repeat(n))", [name, MAX_MESSAGE + 1])
    host.send(name, "after")
    assert guest.wait_event("Received")[2] == "after"
    deadline = time.monotonic() + 30
    while not any("was refused" in w for w in guest.warnings) and time.monotonic() < deadline:
        guest.page.wait_for_timeout(200)
    assert [w for w in guest.warnings if "was refused" in w] == [
        f"online: a message of {MAX_MESSAGE + 1} characters from {guest.joined()[0]} was refused"]
    assert [e[2] for e in guest.events() if e[0] == "Received"] == ["after"]




def _renderers(chromium) -> set[int]:
    info = chromium.new_browser_cdp_session().send("SystemInfo.getProcessInfo")
    return {p["id"] for p in info["processInfo"] if p["type"] == "renderer"}


@pytest.mark.parametrize("way", ["relay", "link"])
def test_a_page_that_crashes_is_heard_gone_within_seconds(chromium, peers, relay, way):
    """No goodbye at all (a crashed tab; a phone that lost its network looks
    the same): the connection's own checks tell the other page."""
    host = peers()
    before = _renderers(chromium)
    guest = peers()
    guest_renderers = _renderers(chromium) - before
    assert guest_renderers
    if way == "relay":
        host.open_relays(relay.url)
        guest.open_relays(relay.url)
    else:
        _linked(host, guest)
    host.wait_event("PeerJoined")
    guest.wait_event("PeerJoined")
    started = time.monotonic()
    for pid in guest_renderers:
        os.kill(pid, signal.SIGKILL)
    host.wait_event("PeerLeft", timeout=20000)
    print(f"\n{way}: a crashed page's PeerLeft after {time.monotonic() - started:.1f} s")
    guest.errors.clear()


def test_no_relay_in_reach_fails_the_wire(peers):
    """Every relay out of reach (a port nothing listens on): the wire says so."""
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        dead = f"ws://127.0.0.1:{s.getsockname()[1]}"
    page = peers()
    page.open_relays(dead)
    failed = page.wait_event("WireFailed", timeout=30000)
    assert failed[1] == "no-relay" and 8000 <= failed[3] < 10000  # said within 10 s
    assert ["RelaysChanged", "0/1"] in [e[:2] for e in page.events()]  # counted from the start
    page.errors[:] = [e for e in page.errors if "WebSocket connection" not in e]


def test_the_policy_keeps_a_page_off_any_relay_not_published(chromium, peers, relay, site_url):
    """Under the site's own policy a wire pointed at another relay reaches
    nothing; and no link installs the tests' probe."""
    page = peers(bypass_csp=False)
    page.open_relays(relay.url)
    assert page.wait_event("WireFailed", timeout=30000)[1] == "no-relay"
    assert not relay.clients and not relay.events
    page.errors[:] = [e for e in page.errors if "Content Security Policy" not in e]
    ctx = chromium.new_context()  # a player's browser: no test script
    try:
        linked = ctx.new_page()
        linked.goto(site_url + "?lang=en&jhgWireProbe=true&bench")
        linked.wait_for_selector("body[data-state=ready]", timeout=60000)
        assert linked.evaluate("typeof window.wireProbe") == "undefined"
    finally:
        ctx.close()
