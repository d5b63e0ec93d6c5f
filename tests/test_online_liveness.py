"""A table never stalls in silence (issue 57, items 2 and 7): the pages beat;
a friend whose channel goes silent while the connection stays up is away,
stood in for after the grace period, and back when heard again; a lost
update is asked for again (numbered updates, the host's beat); the seat the
game waits on is sent its table again; a silent host is said on the guest's
page; a relay lost mid-game is not a failed game. Every clock is the tests'."""

from __future__ import annotations

import json

import pytest

from game.online import guest as g
from game.online import host as h
from game.online import messages as m
from game.online.wire import RelaysChanged, Received
from game.web.runtime import online_door as ol
from game.web.model import session as ts
from tests.online_kit import HOST, LoopTable
from tests.test_online_host import GAMES, WERNER, werner_on_turn
from tests.test_online_play_page import seated

DUEL = {"J": ("guest", "Ann"), "H": ("bot", "random")}


def ticks(table: LoopTable, seconds: float, step: float = 2.0) -> None:
    """Time passes as on the pages: a tick every `step` seconds."""
    end = table.now + seconds
    while table.now < end:
        table.now += step
        table.host_hears(h.Tick())


@pytest.mark.parametrize("game", GAMES)
def test_a_friend_whose_channel_goes_silent_is_away_then_stood_in_for_and_the_table_goes_on(game):
    table = werner_on_turn("0", game)  # the game waits on Ann
    ticks(table, 10)
    assert table.room.seat("0").peer == "peer-0"  # beating: here
    table.silent.add("peer-0")  # her tab freezes; the connection stays up
    ticks(table, m.SILENT_SECONDS + 2)
    seat = table.room.seat("0")
    assert seat.peer is None and seat.away_since is not None
    assert h.Notice("dropped", {"name": "Ann"}) in table.effects
    seen = {s["seat"]: s for s in table.guests["peer-2"].seats}["0"]
    assert seen["kind"] == "away"  # told to the others
    ticks(table, table.grace)
    assert table.stood_in == {"0"} and h.StandIn("0", "random") in table.effects
    moves = table.room.state_id
    for _ in range(8):
        table.step()  # the stand-in plays her seat: nobody waits on her
    assert table.room.state_id > moves
    # Her tab wakes: its next beat takes the seat back, with the whole log.
    table.silent.discard("peer-0")
    table.guests["peer-0"] = g.Guest(table.guests["peer-0"].secret, "Ann",
                                     table.guests["peer-0"].token, status="playing",
                                     host=HOST)
    ticks(table, m.BEAT_SECONDS)
    assert table.room.seat("0").peer == "peer-0" and not table.stood_in
    assert h.HandBack("0") in table.effects
    back = table.guests["peer-0"]
    assert back.state_id == table.room.state_id
    assert list(back.log) == [e for _, events in table.room.logs["0"] for e in events]
    table.play_out()


@pytest.mark.parametrize("game", GAMES)
def test_a_lost_update_is_asked_for_again_when_the_next_one_shows_the_gap(game):
    table = werner_on_turn("0", game)
    deliver = table.deliver
    lost: list[int] = []

    def losing(peer: str, text: str) -> None:  # Bob's channel drops one update
        data = json.loads(text)
        if peer == "peer-2" and not lost and data["type"] == "table" and data["turn"] != "2":
            lost.append(data["state"])
            return
        deliver(peer, text)
    table.deliver = losing  # type: ignore[method-assign]
    while not lost or table.room.state_id <= lost[0] + 1:
        table.step()
    guest = table.guests["peer-2"]
    assert lost[0] in guest.log_ids and guest.state_id == table.room.state_id
    assert list(guest.log) == [e for _, events in table.room.logs["2"] for e in events]
    assert guest.asked == lost[0]  # asked once, from the first state id missing
    table.play_out()


def test_the_last_update_lost_the_hosts_beat_brings_the_guest_back_into_step():
    table = LoopTable("jekyll-vs-hyde", {}, DUEL)
    table.seat_everyone()
    while not (table.room.state_id > 2 and table.state.to_act is not None
               and str(table.state.identity(table.state.to_act)) == "H"):
        table.step()
    table.silent.add("peer-J")  # the update that asks Ann is lost
    table.step()  # the bot moves
    table.silent.discard("peer-J")
    guest = table.guests["peer-J"]
    assert guest.state_id < table.room.state_id  # her page shows the host still to play
    ticks(table, m.BEAT_SECONDS)
    guest = table.guests["peer-J"]
    assert guest.state_id == table.room.state_id
    table.play_out()


def test_the_seat_waited_on_is_sent_its_table_again():
    table = werner_on_turn("0")
    table.host_hears(h.Tick())  # (the beats are out of the way)
    before = len(table.received["peer-0"])
    table.now += table.room.resend
    room, sends, _ = h.reduce(table.room, h.Tick(), table.now)
    tables = [json.loads(s.text) for s in sends if json.loads(s.text)["type"] == "table"]
    assert [t["you"] for t in tables] == ["0"] and tables[0]["state"] == table.room.state_id
    assert len(table.received["peer-0"]) == before
    room, sends, _ = h.reduce(room, h.Tick(), table.now + 1)
    assert not [s for s in sends if json.loads(s.text)["type"] == "table"]  # once a wait


def test_a_guest_beats_and_asks_for_what_a_beat_shows_it_missed():
    guest = g.Guest("room-secret-1234", "Ann", "seat-token-00000001", status="playing",
                    host=HOST, state_id=1, log_ids=frozenset({0, 1}))
    guest, sends = g.reduce(guest, g.Tick(100.0))
    assert [json.loads(text)["type"] for _, text in sends] == ["beat"]
    guest, sends = g.reduce(guest, g.Tick(102.0))
    assert sends == ()  # a beat every few seconds, not every tick
    guest, sends = g.reduce(guest, Received(HOST, m.encode(m.HostBeat(3))))
    assert [json.loads(text) for _, text in sends] == [{"v": m.VERSION, "type": "sync",
                                                        "state": 2}]
    guest, sends = g.reduce(guest, Received(HOST, m.encode(m.HostBeat(1))))
    assert sends == ()  # in step: nothing asked


def test_the_host_answers_a_sync_with_the_log_from_the_state_asked():
    table = werner_on_turn("0")
    table.host_hears(Received("peer-0", m.encode(m.Sync(1))))
    update = json.loads(table.received["peer-0"][-1].text)
    assert update["type"] == "table" and update["state"] == table.room.state_id
    assert [n for n, _ in update["log"]] == list(range(1, table.room.state_id + 1))


def test_a_host_not_heard_for_a_while_is_said_on_the_guests_page_and_cleared_when_back():
    pages = seated("jekyll-vs-hyde", {"jvh_role": "J", "jvh_bot": "random"}, ["Ann"])
    guest, screen = pages.guests[0]
    ol.tick(pages.host)
    ol.tick(guest)
    pages.net.pump()
    assert "not answering" not in pages.screen_html(screen)
    host_wire = pages.host.online.wire
    send = host_wire.send
    host_wire.send = lambda peer, text: None  # the host's page freezes
    for _ in range(9):
        pages.now += 2.0
        ol.tick(guest)
        pages.net.pump()
    assert guest.page.online.guest.host_silent
    assert "The host is not answering" in pages.screen_html(screen)
    host_wire.send = send
    pages.now += 2.0
    ol.tick(pages.host)  # it wakes: its beat
    pages.net.pump()
    ol.tick(guest)
    assert "not answering" not in pages.screen_html(screen)


@pytest.mark.slow  # a whole online game
def test_a_relay_lost_mid_game_says_only_that_nobody_new_can_join_and_is_cleared():
    pages = seated("jekyll-vs-hyde", {"jvh_role": "J", "jvh_bot": "random"}, ["Ann"])
    guest, screen = pages.guests[0]
    host_screen = pages.host_screen
    ol.heard(pages.host, RelaysChanged(False))
    ol.heard(guest, RelaysChanged(False))
    bar = str(host_screen.last.regions)
    assert "new friends cannot join" in bar and "failed" not in bar
    assert "online.wire_failed" not in [key for key, _ in pages.host.page.notices]
    assert guest.page.online.guest.status == "playing"
    assert "failed" not in pages.screen_html(screen)
    pages.play()  # the game goes on meanwhile
    ol.heard(pages.host, RelaysChanged(True))
    assert "new friends cannot join" not in str(host_screen.last.regions)


def test_a_remote_move_still_lands_once_a_silent_friend_is_back():
    """The friend who was away by silence decides again from her own page."""
    pages = seated("jekyll-vs-hyde", {"jvh_role": "H", "jvh_bot": "random"}, ["Ann"])
    guest, _ = pages.guests[0]
    wire = guest.online.wire
    send = wire.send
    wire.send = lambda peer, text: None  # her channel goes silent
    for _ in range(9):
        pages.now += 2.0
        ol.tick(pages.host)
        ol.tick(guest)
        pages.net.pump()
    assert pages.host.page.online.room.seat("J").peer is None
    wire.send = send
    pages.now += m.BEAT_SECONDS
    ol.tick(guest)
    pages.net.pump()
    assert pages.host.page.online.room.seat("J").peer is not None
    s = pages.host.session
    if s.human_to_act:
        pages.host.on_table(ts.Act(s.state.legal_actions()[0]))
    pages.play()
    assert guest.page.online.guest.transcript == pages.host.session.save["transcript"]


def test_the_sites_trystero_drops_stale_offers_instead_of_restarting_them(tmp_path):
    """Item 3's cause (tests/browser/test_online_holds.py shows it between
    browsers): an offer remade by an ICE restart went out without candidates."""
    from game import build

    build._copy_trystero(tmp_path)
    pool = (tmp_path / "trystero" / "core" / "offer-pool.mjs").read_text()
    shift = pool[pool.index("\tshift(n) {"):pool.index("\tclaimLeased(")]
    assert "Date.now() - peer.created > offerTtl" in shift and "peer.destroy()" in shift
    with pytest.raises(build.BuildError, match="_STALE_OFFER"):
        build._patch_pinned("another version", "offer-pool.mjs", "_STALE_OFFER",
                            build._STALE_OFFER, build._FRESH_OFFER)
