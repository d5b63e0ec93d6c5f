"""Online play's state is a value in the page (`Page.online`, game.web.online.state),
changed only by the dispatch loop: a host's and a guest's pages, the real
controllers on a loopback net (tests/test_online_play_page.py's `Pages`),
through a join, a seat chosen, the start, a drop, a bot standing in after
the grace period and the seat handed back; each step read from the values."""

from __future__ import annotations

import dataclasses

import pytest

from game.web.runtime import online_door as ol
from game.web.online.state import GuestScreen, HostScreen
from tests.page_kit import items
from tests.test_online_play_page import Pages


def host_screen(pages: Pages) -> HostScreen:
    screen = pages.host.page.online
    assert isinstance(screen, HostScreen)
    return screen


def guest_screen(ctrl) -> GuestScreen:
    screen = ctrl.page.online
    assert isinstance(screen, GuestScreen)
    return screen


def test_a_friend_joins_is_seated_drops_is_stood_in_for_and_takes_the_seat_back():
    pages = Pages("jekyll-vs-hyde", {"jvh_role": "J", "jvh_bot": "random"})
    lobby = host_screen(pages)
    assert pages.host.page.view == "online" and lobby.wire == "" and not lobby.room.started
    assert [(s.who, s.kind) for s in lobby.room.seats] == [("J", "host"), ("H", "bot")]

    pages.host.command("online-open", {})
    assert host_screen(pages).wire == "relays" and pages.host.online.wire is not None
    assert lobby.wire == ""  # a value: the lobby before is as it was

    # A join: the invite opened (nothing contacted), then Join.
    guest, _ = pages.guest("Ann")
    assert guest.page.view == "online" and not guest_screen(guest).wired
    assert guest.online.wire is None
    guest.command("online-join", {"name": "Ann"})
    pages.net.pump()
    assert guest_screen(guest).wired and guest_screen(guest).guest.status == "seated"
    assert host_screen(pages).relays_ever and host_screen(pages).reach == (1, 1)
    ann = host_screen(pages).room.seat("H")
    assert ann is not None and (ann.kind, ann.name) == ("person", "Ann")  # the bot's seat

    # A seat choice: a second person at the host's screen takes Ann's seat
    # (no seat left for her), then the seat is Ann's again.
    pages.host.command("online-seat", {"seat": "H", "value": "here"})
    pages.net.pump()
    assert host_screen(pages).room.seat("H").kind == "host"
    assert guest_screen(guest).guest.seat is None
    pages.host.command("online-seat", {"seat": "H", "value": f"peer:{ann.peer}"})
    pages.net.pump()
    assert host_screen(pages).room.seat("H").kind == "person"
    assert guest_screen(guest).guest.seat == "H"

    # The start: the game is the host page's own, Ann's seat remote.
    pages.host.command("online-start", {})
    pages.net.pump()
    started = host_screen(pages)
    assert started.room.started and pages.host.page.view == "table"
    assert pages.host.session.save["setup"]["remote"] == {"H": "Ann"}
    assert guest_screen(guest).guest.observation is not None
    assert guest_screen(guest).guest.status == "playing"
    assert ol.room_key("jekyll-vs-hyde") in items(pages.host)  # kept beside the save

    # A drop: Ann's tab goes; her seat waits for her through the grace period.
    kept = dict(items(guest))
    pages.guests.remove(next(g for g in pages.guests if g[0] is guest))
    guest.online.wire.close()
    pages.net.pump()
    away = host_screen(pages).room.seat("H")
    assert away.peer is None and away.away_since is not None and not away.stood_in
    if pages.host.session.remote_on_turn == "H":
        assert "Ann" in host_screen(pages).waiting_said

    # The grace period over: a bot plays her seat.
    pages.now += 6.0  # past the grace the test pages set (5 s)
    ol.tick(pages.host)
    assert host_screen(pages).room.seat("H").stood_in
    setup = pages.host.session.save["setup"]
    assert setup["stood_in"] == ["H"] and setup["bots"]["H"] == "random"

    # Ann back (her kept seat token): the seat is hers again.
    back, _ = pages.guest("Ann", stored=kept)
    pages.net.pump()
    seat = host_screen(pages).room.seat("H")
    assert seat.peer is not None and not seat.stood_in
    setup = pages.host.session.save["setup"]
    assert setup["stood_in"] == [] and "H" not in setup["bots"]
    assert guest_screen(back).guest.status == "playing" and guest_screen(back).guest.seat == "H"
    pages.play()
    assert guest_screen(back).guest.transcript == pages.host.session.save["transcript"]


def test_the_online_screens_are_frozen_values_the_runtime_holds_no_page_state():
    pages = Pages("dracula", {"dr_bot": "random"})
    pages.host.command("online-open", {})
    guest, _ = pages.guest("Bo")
    guest.command("online-join", {"name": "Bo"})
    pages.net.pump()
    with pytest.raises(dataclasses.FrozenInstanceError):
        host_screen(pages).error = "changed in place"  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        guest_screen(guest).message = "changed in place"  # type: ignore[misc]
    # The drivers hold the wire and the clock, nothing the page shows.
    assert not {"host", "guest", "room", "ctrl"} & set(vars(pages.host.online))


def test_a_lobby_error_is_a_value_in_the_page_and_leaving_clears_the_online_screen():
    pages = Pages("jekyll-vs-hyde", {"jvh_role": "J", "jvh_bot": "random"})
    pages.host.command("online-open", {})
    pages.host.command("online-seat", {"seat": "H", "value": "open"})
    pages.host.command("online-start", {})  # a seat nobody holds: refused
    assert host_screen(pages).error == pages.host.t("online.need_seats")
    assert host_screen(pages).room.seat("H").kind == "open"
    assert not host_screen(pages).room.started
    pages.host.command("online-leave", {})
    pages.net.pump()
    assert pages.host.page.online is None and pages.host.page.view == "start"
    assert pages.host.online.wire is None
    assert ol.room_key("jekyll-vs-hyde") not in items(pages.host)
