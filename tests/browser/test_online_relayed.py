"""Friends whose direct connection cannot open play through the relays
(issue 54, items 1 and 2): the guest's browser gathers no ICE candidate but
a TURN server's, and has none (every RTCPeerConnection made with
`iceTransportPolicy: "relay"`: no direct channel can open, as behind
carrier-grade NAT; Chromium's `--force-webrtc-ip-handling-policy=
disable_non_proxied_udp` did not stop a channel over 127.0.0.1). The pages
are tests/browser/online_pages.py's `Person`s, played by test_online_play.py's `play`, on a
local relay that refuses long messages (tests/nostr_relay.py's `max_message`). Everything the relay was sent is read afterwards as a
stranger (or another friend holding the link) subscribed to it would: none
of the guest's cards nor the seed is in it. A Werner hand with two friends at
the same table, one direct and one relayed, each asking another to play for
them, every message they were handed checked for hidden cards; and a whole
Dracula game through the relays alone, watched, to its final summary (read
by the guest and the watcher), its review and the friend's statistics
(issue 54's "Done when"). Run with -s
for the timings.
"""

from __future__ import annotations

import json
import os
import time
from statistics import median

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from game.core.transcript import Transcript
from tests.browser.online_pages import Peer, Person
from tests.browser.test_online_play import (HAND_OVER, WERNER, WernerClicks, check_captures,
                                            doctored, host_save, play)
from tests.browser.test_axe import Axe, axe_source  # noqa: F401 (a fixture)
from tests.nostr_relay import NostrRelay
from tests.online_kit import SEED, Capture, leaks

pytestmark = [pytest.mark.browser, pytest.mark.relay_cap(3 * 1024)]
DUEL = {"jvh_role": "J", "jvh_bot": "random"}
# Below the relayed path's first pieces (static/js/wire.mjs's PIECE, 16 KB) and
# a duel's longest messages (4.5 KB): these are refused, then cut smaller.
RELAY_CAP = pytestmark[1].args[0]


class TimedClicks:
    """The guest's clicks, each timed from the click to the host's next table
    on the guest's page (the host's screen drawn between: a move's round trip)."""

    def __init__(self, guest: Person) -> None:
        self.guest, self.times = guest, []

    def __call__(self, person: Person, rng) -> bool:
        if person is not self.guest:
            return person.click_something(rng)
        heard = len(person.captured())
        started = time.monotonic()
        if not person.click_something(rng):
            return False
        try:
            person.page.wait_for_function(
                "n => window.jhgTestCapture.slice(n).some(t => JSON.parse(t).type === 'table')",
                arg=heard, timeout=5000)
        except PlaywrightTimeout:  # a part of a decision: nothing sent yet
            return True
        self.times.append(time.monotonic() - started)
        return True


def strings(value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in strings(v)]
    return []


def opened_table(people, site_url: str, game: str, form: dict[str, str],
                 guests: tuple[tuple[str, str, bool], ...], relays: str = "",
                 seed: str = str(SEED)) -> tuple[Person, list[Person]]:
    """The host (desktop) opens a table; each guest (name, size, direct: whether
    its page may open a direct channel) joins from the link and is in the lobby,
    each page saying how it reaches the other; the time from the link to the
    lobby printed."""
    host = people("desktop", relays=relays)
    host.open(site_url + "?lang=en&speed=instant")
    host.page.select_option("#f-game", game)
    for name, value in form.items():
        host.page.select_option(f'#setup [name="{name}"]', value)
    host.page.fill("#f-seed", seed)
    host.page.click("#online-host")
    host.page.click("#online-open")
    invite = host.page.get_attribute("#invite-link", "href")
    joined = []
    for name, size, direct in guests:
        guest = people(size, direct=direct, relays=relays)
        started = time.monotonic()
        guest.open(invite + "&lang=en")
        guest.page.fill("#online-name", name)
        guest.page.click("#online-join")
        guest.page.wait_for_selector("#online-waiting", timeout=60000)
        host.page.wait_for_selector(f"#online-joined >> text={name}")
        how = "direct" if direct else "relayed"
        print(f"\n{how}: from opening the link to the lobby"
              f" {time.monotonic() - started:.1f} s (load {os.getloadavg()[0]:.1f})")
        said = "direct" if direct else "through the relays"  # each page says how it reaches the other
        host.page.wait_for_selector(f"#online-joined >> text={name} · {said}")
        guest.page.wait_for_selector(f"#online-path >> text={said}")
        joined.append(guest)
    return host, joined


def started_duel(people, site_url: str, direct: bool, relays: str = "") -> tuple[Person, Person]:
    """A duel's host and its guest (phone), seated and dealt."""
    host, (guest,) = opened_table(people, site_url, "jekyll-vs-hyde", DUEL,
                                  (("Ann", "phone", direct),), relays)
    guest.shoot(f"{'direct' if direct else 'relayed'}-guest-lobby")
    host.shoot(f"{'direct' if direct else 'relayed'}-host-lobby")
    host.page.click("#online-start")
    guest.page.wait_for_selector("#online-bar", timeout=30000)
    return host, guest


def test_a_duel_round_played_through_the_relays_alone(people, site_url, relay):
    host, guest = started_duel(people, site_url, direct=False)
    guest.shoot("relayed-guest-table")
    clicks = TimedClicks(guest)
    play(host, [guest], "#next-hand, body[data-to-act=over]", turn=clicks, most_seconds=300)
    host.shoot("relayed-host-round-over")
    print(f"relayed: a move's round trip {median(clicks.times) * 1000:.0f} ms"
          f" (median of {len(clicks.times)})")

    # The direct path never opened: both pages said "relayed" only.
    assert host.paths() and all(host.paths()), host.paths()
    assert guest.paths() and all(guest.paths()), guest.paths()

    # Everything the relay was sent, as anybody subscribed to it would read it.
    contents = [json.loads(e["content"]) for e in relay.events]
    data = [c for c in contents if c.get("y") == "d"]
    assert data, "no message went through the relay"
    seen = json.dumps(relay.events)
    assert str(SEED) not in seen
    # What the guest was handed (its cards among it) is in no event, whole or in part.
    handed = guest.captured() + host.captured()
    secrets = {s for text in handed for s in strings(json.loads(text)) if len(s) >= 12}
    assert len(handed) > 10 and secrets
    assert not [s for s in secrets if s in seen]
    assert not [text for text in handed if text[:40] in seen]
    hands = [json.loads(t) for t in guest.captured() if json.loads(t).get("type") == "table"]
    cards = {c for h in hands for c in strings(h.get("view", {}).get("hand", []))}
    assert not [c for c in cards if f'"{c}"' in seen]

    # A message longer than the relay takes went through in pieces, after a refusal.
    pieces = {}
    for c in data:
        pieces.setdefault((c["f"], c["n"]), set()).add(c["c"])
    cut = [key for key, counts in pieces.items() if max(counts) > 1]
    longest = max(len(json.dumps(e)) for e in relay.events)
    print(f"relayed: {len(pieces)} messages in {len(data)} pieces (copies counted),"
          f" {len(cut)} cut, refused {relay.refused} too long, longest event {longest} characters")
    # (cut to the limit the relay publishes: a refusal, then halving, only if a long
    # message went out before its NIP-11 document was read)
    assert cut and longest <= RELAY_CAP


def test_one_of_two_relays_killed_mid_game_the_relayed_game_goes_on(people, site_url):
    with NostrRelay() as first, NostrRelay() as second:
        host, guest = started_duel(people, site_url, direct=False,
                                   relays=f"{first.url} {second.url}")
        play(host, [guest], lambda: len(guest.captured()) >= 8)
        first.stop()  # down for good: the second carries on alone
        heard = len(guest.captured())
        started = time.monotonic()
        # Eight messages more, and longer than a page unheard on the relayed
        # path takes to be gone (static/js/wire.mjs's GONE_MS, 15 s).
        play(host, [guest], lambda: len(guest.captured()) >= heard + 8
             and time.monotonic() - started > 20)
        print(f"relayed, one of two relays down: {len(guest.captured()) - heard} messages more"
              f" in {time.monotonic() - started:.0f} s (load {os.getloadavg()[0]:.1f})")
        assert guest.paths() and all(guest.paths())
        assert not host.page.locator(".notice >> text=Ann lost the connection.").count()
        for person in (host, guest):  # (the pages trying the dead relay again, as they should)
            person.errors = [e for e in person.errors if "ERR_CONNECTION_REFUSED" not in e]


def test_a_relayed_friends_tab_closed_and_reopened_takes_the_seat_back_through_the_relays(
        people, site_url, relay):
    host, guest = started_duel(people, site_url, direct=False)
    play(host, [guest], lambda: len(guest.captured()) >= 8)
    invite = guest.page.url
    guest.page.close()
    host.page.wait_for_selector(".notice >> text=Ann lost the connection.", timeout=60000)
    guest.new_page()  # (the same browser: the seat token kept)
    started = time.monotonic()
    guest.open(invite)  # the same link: the kept token takes the seat back
    guest.page.wait_for_selector("#online-bar", timeout=90000)
    host.page.wait_for_selector(".notice >> text=Ann is back.", timeout=60000)
    print(f"relayed: a reopened tab back at the table in {time.monotonic() - started:.1f} s"
          f" (load {os.getloadavg()[0]:.1f})")
    assert guest.paths() and all(guest.paths())
    heard = len(guest.captured())  # and the game goes on from the seat taken back
    play(host, [guest], lambda: len(guest.captured()) >= heard + 6)


def paths_by_peer(person: Person) -> list[set[bool]]:
    """Whether each peer's reported paths were relayed, by peer (in the order first heard)."""
    by_peer: dict[str, set[bool]] = {}
    for peer, relayed, _ in person.page.evaluate("window.jhgTestPaths"):
        by_peer.setdefault(peer, set()).add(relayed)
    return list(by_peer.values())


def test_a_werner_hand_with_two_friends_one_direct_and_one_through_the_relays(
        people, site_url, relay):
    """The host, two friends on their own devices and a bot (the host's lobby
    starts only with the host at a seat of its own). Ann's page opens a direct
    channel, Bob's cannot: the host's lobby and strip say so of each, and the
    hand is played to its end, each friend from their own page. Each person
    asks another to play a card for them once, and the friend asked answers
    from their own page. Every message the friends' pages were handed is then
    checked for hidden cards against the host's deal."""
    host, (ann, bob) = opened_table(people, site_url, "jekyll-hyde", WERNER,
                                    (("Ann", "desktop", True), ("Bob", "phone", False)))
    joined = host.page.inner_text("#online-joined")
    assert "Ann · direct" in joined and "Bob · through the relays" in joined, joined
    host.shoot("werner-direct-and-relayed-host-lobby")
    assert [host.page.locator(f"#online-seat-{i} option:checked").inner_text()
            for i in range(4)] == ["Me", "Ann", "Bob", "Bot (beginner)"]
    host.page.click("#online-start")
    for guest in (ann, bob):
        guest.page.wait_for_selector("#online-bar", timeout=30000)
    # At the table too, the host's strip says how each friend is reached.
    strip = host.page.inner_text("#online-seats")
    assert "· direct" in strip and "· through the relays" in strip, strip
    host.shoot("werner-direct-and-relayed-host-table")
    # Each page's table names the people as the strip over it does.
    assert sorted(ann.page.locator("#screen .seat .who").all_inner_texts()) == [
        "Ann (you)", "Bob", "Christian", "Host"]
    assert "Bob (you)" in bob.page.locator("#screen .seat .who").all_inner_texts()
    ann.shoot("werner-guest-table")
    started = time.monotonic()
    clicks = WernerClicks(host, {host: "0", ann: "1", bob: "2"},
                          {host: "1", ann: "2", bob: "1"})
    play(host, [ann, bob], HAND_OVER, clicks, most_seconds=360)
    print(f"werner, one friend direct and one relayed: the hand's end"
          f" {time.monotonic() - started:.0f} s after the deal (load {os.getloadavg()[0]:.1f})")
    assert clicks.clicks.get(ann, 0) > 2 and clicks.clicks.get(bob, 0) > 2, clicks.clicks
    # Neither path changed on the way: Ann direct only, Bob relayed only.
    assert ann.paths() and not any(ann.paths()), ann.paths()
    assert bob.paths() and all(bob.paths()), bob.paths()
    assert sorted(map(sorted, paths_by_peer(host))) == [[False], [True]], paths_by_peer(host)

    save = host_save(host, "jekyll-hyde")
    assert save["setup"]["remote"] == {"1": "Ann", "2": "Bob"}
    actions = save["transcript"]["actions"]
    assert "@1" in actions and "@2" in actions  # each friend was asked, and gave a card
    assert save["transcript"]["seed"] == SEED
    captured = {"1": ann.captured(), "2": bob.captured()}
    assert check_captures(save["transcript"], captured) > 2 * len(actions)
    # The checker is not blind: Ann's update with Bob's hand in it is caught.
    states = Transcript.from_json(save["transcript"]).states()
    update = next(t for t in captured["1"] if json.loads(t)["type"] == "table"
                  and json.loads(t)["state"] == 3)
    assert any(f.startswith("card ") for f in leaks(Capture(doctored(update, states[3], "2"),
                                                            states[3], "1")))
    assert leaks(Capture(update.replace('"v":3', f'"v":3,"note":{SEED}'), states[3], "1"))


def test_a_whole_dracula_game_played_through_the_relays_alone(people, site_url, relay,
                                                             axe_source):
    """Dracula, the quickest whole game (six deals, no option makes it
    shorter), between two pages that cannot open a direct channel, and
    watched by a third: every deal played through the relays, the game's
    final summary on every page; the guest and the watcher each read it (the
    winner, the bonus, the sheet of the six deals; axe finds no violation on
    it), then its score sheet."""
    host, (guest,) = opened_table(people, site_url, "dracula", {"dr_bot": "random"},
                                  (("Ann", "phone", False),))
    watcher = people("phone", direct=False)
    watcher.open(host.page.get_attribute("#watch-link", "href") + "&lang=en")
    watcher.page.fill("#online-name", "Wendy")
    watcher.page.click("#online-join")
    watcher.page.wait_for_selector("#online-waiting >> text=You are watching", timeout=60000)
    host.page.wait_for_selector("#online-joined >> text=Watching: Wendy")
    host.page.click("#online-start")
    for person in (guest, watcher):
        person.page.wait_for_selector("#online-bar", timeout=30000)
    started = time.monotonic()
    play(host, [guest], "body[data-to-act=over]", most_seconds=600)
    print(f"relayed dracula: from Deal to the game's end {time.monotonic() - started:.0f} s"
          f" (load {os.getloadavg()[0]:.1f})")
    final = guest.page.locator("#modal:not([hidden])")
    final.locator("[data-cmd=online-close-final]").wait_for(timeout=60000)
    host.page.wait_for_selector("#modal:not([hidden]) table.dr-scores")
    for person in (host, guest):
        summary = person.page.locator("#modal:not([hidden])")
        assert "Game over" in summary.inner_text()
        assert summary.locator("table.dr-scores tbody tr").count() == 6  # the six deals
    guest.shoot("relayed-dracula-final")
    for person, where in ((guest, "a guest's"), (watcher, "a watcher's")):
        final = person.page.locator("#modal:not([hidden])")
        final.locator("[data-cmd=online-close-final]").wait_for(timeout=60000)
        assert "Game over" in final.inner_text(), where
        winner = final.locator(".winner").inner_text()
        assert winner and (person is guest or "you" not in winner.lower()), (where, winner)
        assert final.locator(".dr-bonus-why").count() == 1, where
        assert final.locator("tr").count() >= 7, where  # the sheet: a head, six deals
        Axe(person.page, axe_source).check(f"{where} final summary of a Dracula game")
        person.page.click("#modal [data-cmd=online-close-final]")
        person.page.wait_for_selector("#modal", state="hidden")
        person.page.click("#side [data-panel=scores]")
        sheet = person.page.locator("#side #panel-scores")
        sheet.wait_for()
        assert sheet.locator("tr").count() >= 7, where  # the six deals scored
        # the whole game to review (a watcher's from no seat)
        person.page.wait_for_selector("#online-review", timeout=30000)
    # Counted on the friend's device too, in the bucket of online games.
    stats = json.loads(guest.page.evaluate("localStorage.getItem('jhg.stats')"))
    assert [g["level"] for g in stats["games"]] == ["online"]
    assert host.paths() and all(host.paths()), host.paths()
    assert guest.paths() and all(guest.paths()), guest.paths()


# -- the relayed path alone, between two raw wire pages (static/js/wire-probe.mjs) ------

@pytest.fixture
def wide_relay():
    """A relay that refuses a message over 64 KB, as some public ones do."""
    with NostrRelay(max_message=64 * 1024) as r:
        yield r


def test_a_95_kb_message_goes_through_in_pieces_once_in_order_and_after_a_relay_outage(
        chromium, site_url, wide_relay):
    host, guest = Peer(chromium, site_url, True), Peer(chromium, site_url, True, direct=False)
    try:
        host.open_relays(wide_relay.url)
        guest.open_relays(wide_relay.url)
        started = time.monotonic()
        guest_name = host.wait_event("PeerJoined")[1]
        host_name = guest.wait_event("PeerJoined")[1]
        print(f"\nrelayed probe: joined after {time.monotonic() - started:.1f} s")
        rejoin = "".join(f"{i:05d} é ♠ " for i in range(9500))  # 95 KB, a late Werner rejoin
        assert len(rejoin) > 90_000
        started = time.monotonic()
        host.send(guest_name, rejoin)
        for i in range(3):
            host.send(guest_name, f"next {i}")
        guest.page.wait_for_function(
            "JSON.parse(wireProbe.events()).filter(e => e[0] === 'Received').length >= 4")
        print(f"relayed probe: 95 KB and three more in {time.monotonic() - started:.1f} s")
        got = [e[2] for e in guest.events() if e[0] == "Received"]
        assert got == [rejoin, "next 0", "next 1", "next 2"]
        assert wide_relay.refused == 0
        assert max(len(json.dumps(e)) for e in wide_relay.events) < 64 * 1024
        wide_relay.stop()  # a relay drops: what is sent meanwhile goes out again once it is back
        guest.send(host_name, "while the relay was down")
        time.sleep(3)
        wide_relay.start()
        back = time.monotonic()
        host.wait_event("Received", timeout=30000)
        print(f"relayed probe: sent while the relay was down, heard {time.monotonic() - back:.1f} s"
              " after it was back")
        assert [e[2] for e in host.events() if e[0] == "Received"] == ["while the relay was down"]
        guest.page.wait_for_timeout(3000)  # nothing handed over twice
        assert len([e for e in guest.events() if e[0] == "Received"]) == 4
        assert not [e for p in (host, guest) for e in p.events() if e[0] == "PeerLeft"]
    finally:
        host.close()
        guest.close()
    for p in (host, guest):
        assert not [e for e in p.errors if "ERR_CONNECTION_REFUSED" not in e], p.errors
