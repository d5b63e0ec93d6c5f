"""Online play that holds, between real browsers (issue 57): a relay stopped
and started mid-game, a friend whose channel goes silent while connected, a
page joining a room open for over a minute (a reload late in a deal, on the
wire), and the seat token kept from pages that are
not the host (a page holding the link alone, a page posing as the host, a
second tab). The host and guests are tests/browser/test_online_play.py's
(`people`, `host_and_guests`, `play`), on the local relay of the `relay`
fixture, which this file also stops and starts (tests/nostr_relay.py).
Screenshots (SCREENSHOTS folder) of what each page says meanwhile.
"""

from __future__ import annotations

import json
import time

import pytest

from game.online import proof

from tests.browser.online_pages import Peer, Person
from tests.browser.test_online_play import host_and_guests, play

pytestmark = pytest.mark.browser
DUEL = {"jvh_role": "J", "jvh_bot": "random"}
FAILED = "The connection to the other players failed."


def moves(host: Person) -> int:
    return int(host.page.get_attribute("body", "data-actions") or 0)


def started_duel(people, site_url: str) -> tuple[Person, Person]:
    host, (guest,) = host_and_guests(people, site_url, "jekyll-vs-hyde", DUEL)
    host.page.click("#online-start")
    guest.page.wait_for_selector("#online-bar", timeout=30000)
    return host, guest


def play_on(host: Person, guests: list[Person], more: int = 2) -> None:
    """A few more moves of the game, whoever makes them."""
    goal = moves(host) + more
    play(host, guests, lambda: moves(host) >= goal or host.page.locator(
        "#next-hand, body[data-to-act=over]").count() > 0, most_seconds=120)


def test_a_relay_stopped_and_started_mid_game_is_no_failed_game(people, site_url, relay):
    host, guest = started_duel(people, site_url)
    play_on(host, [guest])
    relay.stop()
    down = time.monotonic()
    host.page.wait_for_selector("#online-status >> text=new friends cannot join", timeout=20000)
    print(f"\nrelay stopped: said on the host's page after {time.monotonic() - down:.1f} s")
    host.page.wait_for_timeout(6000)  # (the old page said "failed" within 3-5 s)
    for person in (host, guest):
        assert FAILED not in person.page.inner_text("body")
    assert guest.page.locator("#online-status").count() == 0  # nothing to tell a guest
    host.shoot("relay-down-host")
    guest.shoot("relay-down-guest")
    play_on(host, [guest])  # the game goes on over the pages' own channel
    relay.start()
    up = time.monotonic()
    host.page.wait_for_selector("#online-status", state="detached", timeout=60000)
    print(f"relay back: cleared after {time.monotonic() - up:.1f} s")
    for person in (host, guest):
        assert FAILED not in person.page.inner_text("body")
        # (the browser's own words on the relay refusing its sockets meanwhile)
        person.errors = [e for e in person.errors if "ERR_CONNECTION_REFUSED" not in e]
    play_on(host, [guest])


def test_a_friend_whose_channel_goes_silent_is_away_and_the_table_goes_on(people, site_url):
    host, guest = started_duel(people, site_url)
    play_on(host, [guest])
    guest.page.evaluate("window.jhgTestMute = true")  # connected, but nothing gets through
    silent = time.monotonic()
    host.page.wait_for_selector("#online-seats >> text=(away", timeout=40000)
    print(f"\nsilent: away on the host's page after {time.monotonic() - silent:.1f} s")
    guest.page.wait_for_selector("#online-status >> text=The host is not answering",
                                 timeout=30000)
    host.page.wait_for_selector("#online-seats >> text=a bot plays", timeout=30000)
    guest.shoot("silent-guest")
    host.shoot("silent-host")
    before = moves(host)
    play_on(host, [])  # the host and the stand-in play on; nobody waits on her
    assert moves(host) > before
    guest.page.evaluate("window.jhgTestMute = false")
    host.page.wait_for_selector("#online-seats >> text=(away", state="detached", timeout=30000)
    guest.page.wait_for_selector("#online-status", state="detached", timeout=30000)
    play_on(host, [guest])


# -- the seat token goes only to the host it was issued by (items 1 and 5) -------------

ROGUE_KEY = """async () => {
  window.rogueKey = await crypto.subtle.generateKey({name: "ECDSA", namedCurve: "P-256"},
                                                    true, ["sign", "verify"]);
  const raw = new Uint8Array(await crypto.subtle.exportKey("raw", window.rogueKey.publicKey));
  return Array.from(raw);
}"""
ROGUE_SIGN = """async (text) => {
  const signed = await crypto.subtle.sign({name: "ECDSA", hash: "SHA-256"},
                                          window.rogueKey.privateKey, new TextEncoder().encode(text));
  return btoa(String.fromCharCode(...new Uint8Array(signed)))
    .replace(/\\+/g, "-").replace(/\\//g, "_").replace(/=+$/, "");
}"""


def kept_token(person: Person, invite: str) -> str:
    room = invite.split("?join=")[1].split(".")[1]
    kept = person.page.evaluate("k => localStorage.getItem(k)", "jhg.online.seat." + room)
    return json.loads(kept)["token"]


def rogue_in_room(chromium, site_url: str, relay, invite: str):
    from tests.browser.test_online_rogue import Rogue

    return Rogue(Person(chromium, relay.url, probe=True), site_url, relay.url, invite)


def test_a_page_with_the_link_alone_or_another_key_never_gets_the_seat_token(
        people, site_url, relay, chromium):
    host, guest = started_duel(people, site_url)
    invite = guest.page.url.split("&lang=")[0]  # (the link she opened)
    token = kept_token(guest, invite)
    rogue = rogue_in_room(chromium, site_url, relay, invite)
    try:
        base, key = invite.rsplit(".", 1)
        assert proof.KEY.fullmatch(key)
        guest.new_page()  # Ann opens the link with the key cut off: nothing is sent by itself
        guest.open(base + "&lang=en")
        guest.page.wait_for_selector("#online-join")
        guest.shoot("link-without-key")
        # A page posing as the host with a key of its own, which it can prove.
        point = bytes(rogue.page.evaluate(ROGUE_KEY))
        other = proof.compress(point)
        # Its relayed key signed with it too, as a host's is: her page agrees a key with it.
        rogue.page.evaluate(
            "async ([r, s, u]) => wireProbe.openRelays(r, s, JSON.stringify([u]), '[]', JSON.stringify("
            "{sign: JSON.stringify(await crypto.subtle.exportKey('jwk', window.rogueKey.privateKey))}))",
            [rogue.room, rogue.secret, rogue.relay_url])
        guest.new_page()
        guest.open(f"{base}.{other}&lang=en")
        guest.page.wait_for_selector("#online-join")  # no rejoin by itself either
        guest.page.fill("#online-name", "Ann")
        guest.page.click("#online-join")  # she joins as a new friend would
        ends, answered, joins = time.monotonic() + 30, set(), []
        while not joins and time.monotonic() < ends:
            for event in rogue.events():
                if event[0] != "Received" or (event[1], event[2]) in answered:
                    continue
                message = json.loads(event[2])
                if message.get("type") == "challenge":  # proved, under the link's other key
                    answered.add((event[1], event[2]))
                    room = invite.split("?join=")[1].split(".")[1]
                    signature = rogue.page.evaluate(
                        ROGUE_SIGN, proof.proof_text(room, message["nonce"], event[1]))
                    rogue.send(event[1], json.dumps({"v": 3, "type": "proof",
                                                     "signature": signature}))
                elif message.get("type") == "join":
                    joins.append(message)
            rogue.page.wait_for_timeout(200)
        assert joins and all(j["token"] is None for j in joins)  # her join, without the token
        assert not [e for e in rogue.events() if token in str(e[2])]
    finally:
        rogue.person.ctx.close()


def test_a_second_tab_takes_the_seat_and_the_first_says_so_with_play_here(people, site_url):
    host, guest = started_duel(people, site_url)
    first = guest.page
    invite = first.url
    guest.new_page()  # the same browser: the token kept rejoins from the second tab
    guest.open(invite)
    guest.page.wait_for_selector("#online-bar", timeout=30000)
    first.wait_for_selector("#online-play-here", timeout=30000)
    assert "This seat is played in another tab or device" in first.inner_text("#screen")
    host.page.wait_for_selector("text=Ann now plays from another tab or device")
    second, guest.page = guest.page, first
    guest.shoot("seat-elsewhere")
    first.click("#online-play-here")
    first.wait_for_selector("#online-bar", timeout=30000)
    second.wait_for_selector("#online-play-here", timeout=30000)
    play_on(host, [guest])


# -- a room open for over a minute still introduces newcomers (item 3) ------------------

TRYSTERO_ID = "import('./static/vendor/trystero/nostr/index.mjs').then(m => m.selfId)"
# Trystero draws a page's id from Math.random once, as its module loads (20 draws
# of its alphabet, whose first letter is "0"): the next 20 draws made 0 give the
# lowest id there is, above which every newcomer's id falls.
LOWEST_ID = """() => { const drawn = Math.random; let zeros = 20;
  Math.random = () => (zeros-- > 0 ? 0 : drawn()); }"""


def test_a_page_joining_a_room_open_for_over_a_minute_meets_the_page_that_offers(
        chromium, site_url, relay):
    """The cause of a late rejoin that never found the host: Trystero's offers
    older than 57 s were remade by an ICE restart and sent without their
    candidates, so a newcomer whose id made the old page the one to offer
    never connected (game/build.py's _STALE_OFFER). The old page's id is the
    lowest, so that every newcomer meets that order (with both ids drawn, all
    eight newcomers fell on the other side in about one run in nine: the only
    failure of the full run, 2026-12-02); those that would not are skipped."""
    old = Peer(chromium, site_url, True)
    try:
        old.page.evaluate(LOWEST_ID)  # before Trystero loads, with the relays
        old.open_relays(relay.url)
        old_id = old.page.evaluate(TRYSTERO_ID)
        assert old_id == "0" * 20, old_id
        old.page.wait_for_timeout(62000)  # its pool of offers is older than their 57 s
        offered = 0
        for _ in range(8):
            newcomer = Peer(chromium, site_url, True)
            try:
                if old_id > newcomer.page.evaluate(TRYSTERO_ID):
                    continue  # the newcomer would offer: not the case that failed
                offered += 1
                started = time.monotonic()
                newcomer.open_relays(relay.url)
                newcomer.wait_event("PeerJoined", timeout=20000)
                print(f"\nmet the page open for a minute: {time.monotonic() - started:.2f} s")
                if offered == 2:
                    break
            finally:
                newcomer.close()
        assert offered
    finally:
        old.close()
