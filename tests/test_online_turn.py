"""The host's own TURN server (issue 54, item 3), in CPython through the real
pages: its settings checked with a reason the player reads, kept in that
browser only (`jhg.turn`), named in the sentence shown before anything is
contacted, handed to the host's wire, and never in the invite link. The
friends get it inside the channel sealed for each of them alone
(static/js/wire.mjs's relayPath: tests/test_online_relayed_parts.py)."""

from __future__ import annotations

import json
import re

import pytest

from game.web.dom.wire import RelayWire, Switchboard
from game.web.model.turn import TURN_KEY, BadTurn, parse
from tests.front_kit import dealt
from tests.test_online_play_page import Pages
from tests.test_online_status_page import DUEL, text

def contacts(page: str) -> str:
    """The sentence saying what the page contacts."""
    found = re.search(r'<p class="online-contacts" id="online-contacts">(.*?)</p>', page)
    assert found is not None
    return found.group(1)


SERVER = {"address": "turns:turn.example.org:5349", "user": "ann-turn", "credential": "pa55-word"}


@pytest.mark.parametrize("address", ["turn:turn.example.org", "turns:turn.example.org:5349",
                                     "turn:192.0.2.7:3478?transport=tcp", "turn:[2001:db8::1]:3478"])
def test_a_turn_address_is_taken(address):
    assert parse(address, "u", "c").ice_server() == {"urls": address, "username": "u",
                                                     "credential": "c"}


@pytest.mark.parametrize(("address", "user", "credential", "why"), [
    ("", "u", "c", "online.turn_no_address"),
    ("stun:stun.example.org", "u", "c", "online.turn_bad_address"),
    ("https://turn.example.org", "u", "c", "online.turn_bad_address"),
    ("turn:turn.example.org:99999", "u", "c", "online.turn_bad_address"),
    ("turn:bad host", "u", "c", "online.turn_bad_address"),
    ("turn:turn.example.org?transport=sctp", "u", "c", "online.turn_bad_address"),
    ("turn:turn.example.org", " ", "c", "online.turn_no_user"),
    ("turn:turn.example.org", "u", "", "online.turn_no_credential"),
    ("turn:turn.example.org", "u", "c\n", "online.turn_bad_text"),
    ("turn:turn.example.org", "u" * 300, "c", "online.turn_bad_text")])
def test_a_setting_that_is_no_turn_servers_is_refused_with_why(address, user, credential, why):
    with pytest.raises(BadTurn, match=why):
        parse(address, user, credential)


def test_the_turn_server_is_checked_kept_in_this_browser_and_named_before_anything_is_contacted():
    pages = Pages(*DUEL)
    intro = pages.screen_html(pages.host_screen)
    assert 'id="online-turn"' in intro and "Your own TURN server (optional)" in intro
    assert '<details class="online-turn" id="online-turn">' in intro  # (folded at first)
    assert "None set" in text(intro) and "TURN" not in contacts(intro)
    pages.host.command("online-turn", {**SERVER, "address": "turn.example.org"})
    intro = pages.screen_html(pages.host_screen)
    assert 'id="online-turn-error"' in intro and "This is not a TURN address" in text(intro)
    assert '<details class="online-turn" id="online-turn" open>' in intro  # (the reason is seen)
    assert pages.host.stored(TURN_KEY) is None

    pages.host.command("online-turn", SERVER)
    kept = json.loads(pages.host.stored(TURN_KEY))
    assert kept == SERVER
    assert '<details class="online-turn" id="online-turn" open>' in pages.screen_html(
        pages.host_screen)  # (what was done is seen)
    intro = text(pages.screen_html(pages.host_screen))
    assert "Kept in this browser: turn.example.org." in intro
    assert "your own TURN server (turn.example.org)" in contacts(pages.screen_html(pages.host_screen))
    assert "pa55-word" not in pages.screen_html(pages.host_screen)  # (never drawn back)

    pages.host.command("online-open", {})
    link = pages.invite()
    lobby = pages.screen_html(pages.host_screen)
    for value in SERVER.values():
        assert value not in link and value.split(":")[-1] not in link
    assert "turn.example.org" not in link and "turn.example.org" in lobby  # (the lobby's sentence)

    pages.host.command("online-leave", {})
    pages.host.command("online-host", {})
    pages.host.command("online-turn-forget", {})
    assert pages.host.stored(TURN_KEY) is None
    assert "None set" in text(pages.screen_html(pages.host_screen))


def test_the_hosts_wire_is_opened_with_its_turn_server_and_the_friends_page_says_it_may_use_it():
    pages = Pages(*DUEL)
    frames: list[dict] = []
    pages.host.online.make_wire = lambda: RelayWire(("ws://127.0.0.1:1",), (),
                                                    board=Switchboard(frames.append))
    pages.host.command("online-turn", SERVER)
    pages.host.command("online-open", {})
    opened = next(f["wire"] for f in frames if f["wire"].get("open") == "relays")
    assert opened["turn"] == {"urls": SERVER["address"], "username": SERVER["user"],
                              "credential": SERVER["credential"]}

    pages = Pages(*DUEL)  # no TURN server kept: the wire has none
    pages.host.command("online-open", {})
    _, screen = pages.guest("Ann")
    said = text(pages.screen_html(screen))
    assert "If the host set up their own TURN server, this page may use it too" in said
    frames.clear()
    pages.host.online.make_wire = lambda: RelayWire(("ws://127.0.0.1:1",), (),
                                                    board=Switchboard(frames.append))
    pages.host.command("online-leave", {})
    pages.host.command("online-host", {})
    pages.host.command("online-open", {})
    assert next(f["wire"] for f in frames if f["wire"].get("open"))["turn"] is None


def test_the_page_reads_the_three_fields_and_a_damaged_setting_counts_as_none():
    ctrl, screen, _ = dealt()
    ctrl.command("online-host", {})
    doc = screen.doc
    for name, value in zip(("address", "user", "credential"), SERVER.values()):
        doc.querySelector("#online-turn-" + name).value = value
    doc.dispatch("click", doc.querySelector("#online-turn-keep"))
    assert json.loads(ctrl.stored(TURN_KEY)) == SERVER
    ctrl.keep(TURN_KEY, '{"address": "stun:x", "user": "u"}')
    ctrl.command("online-host", {})
    assert "None set" in text(str(screen.last.regions["screen"]))
