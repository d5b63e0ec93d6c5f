"""Friends whose direct connection cannot open play through the relays
(issue 54, items 1 and 2): the guest's browser gathers no ICE candidate but
a TURN server's, and has none (every RTCPeerConnection made with
`iceTransportPolicy: "relay"`: no direct channel can open, as behind
carrier-grade NAT; Chromium's `--force-webrtc-ip-handling-policy=
disable_non_proxied_udp` did not stop a channel over 127.0.0.1). The pages
are tests/browser/test_online_play.py's (`host_and_guests`, `play`), on a
local relay that refuses long messages (tests/nostr_relay.py's `max_message`). Everything the relay was sent is read afterwards as a
stranger (or another friend holding the link) subscribed to it would: none
of the guest's cards nor the seed is in it. Run with -s for the timings.
"""

from __future__ import annotations

import json
import time

import pytest

from tests.browser.test_online_play import Person, host_and_guests, play
from tests.nostr_relay import NostrRelay
from tests.online_kit import SEED

pytestmark = pytest.mark.browser
DUEL = {"jvh_role": "J", "jvh_bot": "random"}
# Below the relayed path's first pieces (static/js/wire.mjs's PIECE, 16 KB) and
# a duel's longest messages (4.5 KB): these are refused, then cut smaller.
RELAY_CAP = 3 * 1024


# Every peer connection of the page may use a TURN server's candidates only (it has none).
NO_DIRECT = """{
  const Native = RTCPeerConnection;
  window.RTCPeerConnection = class extends Native {
    constructor(config = {}, ...rest) { super({ ...config, iceTransportPolicy: "relay" }, ...rest); }
  };
}"""


@pytest.fixture
def relay():
    with NostrRelay(max_message=RELAY_CAP) as r:
        yield r


@pytest.fixture
def people(chromium, site_url, relay):
    made: list[Person] = []

    def make(size: str = "desktop", bypass_csp: bool = True) -> Person:
        person = Person(chromium, relay.url, size, bypass_csp)
        person.ctx.add_init_script("window.jhgTestPaths = []")  # (static/js/wire-host.mjs)
        if made:  # a guest: no direct channel
            person.ctx.add_init_script(NO_DIRECT)
        made.append(person)
        return person

    yield make
    for p in made:
        p.ctx.close()
    for p in made:
        assert not p.errors, p.errors


def paths(person: Person) -> list[bool]:
    """Whether each path the page's wire reported was relayed."""
    return [relayed for _, relayed in person.page.evaluate("window.jhgTestPaths")]


def strings(value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in strings(v)]
    return []


def test_a_duel_round_played_through_the_relays_alone(people, site_url, relay):
    started = time.monotonic()
    host, (guest,) = host_and_guests(people, site_url, "jekyll-vs-hyde", DUEL, seed=str(SEED))
    print(f"\nrelayed: from the link to the lobby {time.monotonic() - started:.1f} s")
    host.page.click("#online-start")
    guest.page.wait_for_selector("#online-bar", timeout=30000)
    play(host, [guest], "#next-hand, body[data-to-act=over]", most_seconds=300)

    # The direct path never opened: both pages said "relayed" only.
    assert paths(host) and all(paths(host)), paths(host)
    assert paths(guest) and all(paths(guest)), paths(guest)

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
    assert relay.refused > 0 and cut and longest <= RELAY_CAP
