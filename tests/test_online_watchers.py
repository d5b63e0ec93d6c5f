"""Watchers at an online table (game.online.host, `m.Watch`): over whole games
of all five modes, one watcher from the lobby on and one who comes mid-game;
nothing a watcher receives names a card hidden from someone not at the table
(hands, the duel's aside and exchanged cards, Dracula's stock) or the seed
before the game is over; the one who comes late is sent the public log so
far; watchers are capped, listed, never seated and never decide."""

from __future__ import annotations

import json

import pytest

from game import new_game
from game.online import guest as g
from game.online import host as h
from game.online import messages as m
from game.online.wire import PeerJoined, PeerLeft, Received
from tests.online_kit import HOST, SECRET, SEED, Capture, LoopTable, leaks, token
from tests.test_online_games import CASES, cases
from tests.test_public_view import hidden


def watcher_leaks(capture: Capture) -> list[str]:
    """What a watcher's message shows that nobody outside the table may see."""
    return leaks(capture, hidden(capture.state) if capture.state is not None else set())


def messages(table: LoopTable, peer: str, kind: str) -> list[dict]:
    return [d for c in table.received.get(peer, ()) if (d := json.loads(c.text))["type"] == kind]


def public_log(table: LoopTable) -> list[list]:
    """Every state's public events by state id, replayed from the seed and the
    actions: what a watcher's log must hold, built without the room."""
    state = new_game(table.game, table.options, seed=SEED)
    log = [[0, state.public_events()]]
    for n, action in enumerate(table.room.transcript["actions"], 1):
        state = state.apply(action)
        log.append([n, state.public_events()])
    return log


@pytest.fixture(scope="module", params=cases())
def watched(request):
    game, options, plan = CASES[request.param]
    table = LoopTable(game, options, plan)
    table.watch("watch-early", "Wendy")
    table.seat_everyone()
    for _ in range(25):
        table.step()
    table.late_at = table.room.state_id
    table.watch("watch-late", "Walt")
    table.play_out()
    return table


def test_no_hidden_card_ever_reaches_a_watcher(watched):
    for peer in ("watch-early", "watch-late"):
        captures = watched.received[peer]
        assert len(captures) > 20
        kinds = {json.loads(c.text)["type"] for c in captures}
        assert {"watching", "over"} <= kinds and "table" not in kinds and "seated" not in kinds
        for capture in captures:
            assert watcher_leaks(capture) == [], capture.text[:300]
    assert messages(watched, "watch-early", "lobby")[0]["you"] is None


def test_a_watcher_follows_the_public_view_to_the_end(watched):
    updates = messages(watched, "watch-early", "watching")
    assert updates[-1]["observation"] == json.loads(json.dumps(
        watched.state.public_observation()))
    assert updates[-1]["turn"] is None and updates[-1]["state"] == watched.room.state_id
    seen = {n: events for update in updates for n, events in update["log"]}
    assert sorted(seen.items()) == [tuple(e) for e in json.loads(json.dumps(public_log(watched)))]
    assert updates[-1]["watchers"] == ["Wendy", "Walt"]


def test_a_watcher_joining_mid_game_gets_the_public_log_so_far(watched):
    first = messages(watched, "watch-late", "watching")[0]
    assert first["state"] == watched.late_at > 0
    so_far = public_log(watched)[:watched.late_at + 1]
    assert first["log"] == json.loads(json.dumps(so_far))
    assert first["watchers"] == ["Wendy", "Walt"]


# -- the room's rules for watchers ---------------------------------------------------------

def _duel(grace: float = 30.0) -> LoopTable:
    table = LoopTable("jekyll-vs-hyde", {}, {"J": ("guest", "Ann"), "H": ("bot", "random")},
                      grace=grace)
    table.seat_everyone()
    return table


def _refusals(table: LoopTable, peer: str) -> list[str]:
    return [d["code"] for d in messages(table, peer, "refused")]


def test_watchers_are_capped_and_listed():
    table = _duel()
    for n in range(h.WATCHERS_MAX):
        table.watch(f"w{n}", f"Watcher {n}")
    assert table.room.watchers() == [f"Watcher {n}" for n in range(h.WATCHERS_MAX)]
    table.watch("one-too-many", "Zed")
    assert _refusals(table, "one-too-many") == ["watchers_full"]
    assert messages(table, "one-too-many", "watching") == []
    assert len(table.room.watchers()) == h.WATCHERS_MAX
    table.host_hears(PeerLeft("w0"))  # leaving is just leaving: a place opens
    assert "Watcher 0" not in table.room.watchers()
    assert h.Notice("watcher_left", {"name": "Watcher 0"}) in table.effects
    table.watch("one-more", "Zoe")
    assert _refusals(table, "one-more") == []
    assert messages(table, "one-more", "watching")[0]["watchers"][-1] == "Zoe"


def test_a_watcher_needs_the_secret_and_a_free_name():
    table = _duel()
    table.watchers.add("w")
    table.host_hears(PeerJoined("w"))
    table.host_hears(Received("w", m.encode(m.Watch("wrong-secret-1", "Wendy"))))
    table.host_hears(Received("w", m.encode(m.Watch(SECRET, "Ann"))))  # Ann has a seat
    table.host_hears(Received("w", m.encode(m.Watch(SECRET, "Hyde"))))
    assert _refusals(table, "w") == ["bad_secret", "name_taken", "name_reserved"]
    assert table.room.watchers() == []


def test_a_watcher_never_decides_nor_sits():
    table = _duel()
    table.watch("w", "Wendy")
    while str(table.state.identity(table.state.to_act)) != "J":
        table.step()
    before = table.room
    decide = m.Decide(table.state.legal_actions()[0], table.room.state_id, token(0))
    table.host_hears(Received("w", m.encode(decide)))
    table.host_hears(Received("w", m.encode(m.React("wow"))))
    table.host_hears(Received("w", m.encode(m.Join(SECRET, "Wendy", token(0)))))
    assert _refusals(table, "w") == ["watching", "watching", "watching"]
    assert not any(isinstance(e, h.Decided) and e.action == decide.action
                   for e in table.effects[-3:])
    assert table.room.state_id == before.state_id and table.room.seats == before.seats
    table.host_hears(h.SeatPerson("J", "w", token(7)))  # the host cannot seat a watcher
    assert table.room.seats == before.seats
    assert messages(table, "w", "seated") == []


def test_a_watcher_who_missed_updates_asks_for_them():
    table = _duel()
    table.watch("w", "Wendy")
    for _ in range(4):
        table.step()
    table.host_hears(Received("w", m.encode(m.Sync(2))))
    answer = messages(table, "w", "watching")[-1]
    assert [n for n, _ in answer["log"]] == list(range(2, table.room.state_id + 1))


def test_a_watcher_is_told_reactions_and_beats():
    table = _duel()
    table.watch("w", "Wendy")
    table.host_hears(h.HostReacts("H", "wow"))
    table.now += h.BEAT_SECONDS
    table.host_hears(h.Tick())
    assert messages(table, "w", "reaction") == [{"v": m.VERSION, "type": "reaction",
                                                 "seat": "H", "key": "wow"}]
    assert messages(table, "w", "beat")


def test_the_public_log_survives_a_reload_of_the_hosts_page():
    table = _duel()
    for _ in range(3):
        table.step()
    kept = json.loads(json.dumps(h.room_to_json(table.room)))
    again = h.room_from_json(kept, table.state, table.now)
    assert again.public_log == table.room.public_log and len(again.public_log) == 4


def test_the_checker_sees_what_a_watcher_may_not():
    """A seat's own view sent to a watcher is a leak: its hand, or in the duel
    the card Jekyll gave (which Hyde's observation names)."""
    table = _duel()
    while not table.state.to_json()["given"].get("J"):
        table.step()
    state = table.state
    for player in ("J", "H"):
        update = m.Watching("jekyll-vs-hyde", state.observation(player), [], 0, None, [], [])
        assert watcher_leaks(Capture(m.encode(update), state, None))
    fair = m.Watching("jekyll-vs-hyde", state.public_observation(), [[0, state.public_events()]],
                      0, None, [], [])
    assert watcher_leaks(Capture(m.encode(fair), state, None)) == []


@pytest.mark.parametrize("mode", cases("duel-return", "werner-3-short", "werner-3"))
def test_a_watchers_page_follows_the_game_from_what_it_receives(mode):
    """The guest page's reducer as a watcher (`Guest(watching=True)`): it asks
    to watch, holds no seat, never has a turn, and ends with the public
    observation and the whole public log, in order, and the transcript."""
    game, options, plan = CASES[mode]
    table = LoopTable(game, options, plan)
    table.seat_everyone()
    for _ in range(10):
        table.step()
    table.guests["w"] = g.Guest(SECRET, "Wendy", watching=True)
    table.host_hears(PeerJoined("w"))
    table.guest_hears("w", PeerJoined(HOST))
    while not table.state.over:
        table.step()
        assert not table.guests["w"].my_turn and table.guests["w"].legal == []
    page = table.guests["w"]
    assert page.status == "playing" and page.seat is None and page.watchers == ("Wendy",)
    assert page.observation == json.loads(json.dumps(table.state.public_observation()))
    assert list(page.log) == [e for _, events in json.loads(json.dumps(public_log(table)))
                              for e in events]
    assert page.transcript is not None and page.transcript["seed"] == SEED
    for capture in table.received["w"]:
        assert watcher_leaks(capture) == [], capture.text[:300]


@pytest.fixture(scope="module", params=cases())
def watched_by_pages(request):
    """A whole game with a watcher's page (the guest reducer, watching) from
    mid-game on, and another watcher who comes and goes while it is played:
    each coming and going is sent to everyone at the table (their strips)."""
    game, options, plan = CASES[request.param]
    table = LoopTable(game, options, plan)
    table.seat_everyone()
    for _ in range(8):
        table.step()
    table.guests["w"] = g.Guest(SECRET, "Wendy", watching=True)
    table.host_hears(PeerJoined("w"))
    table.guest_hears("w", PeerJoined(HOST))
    for _ in range(8):
        table.step()
    table.watch("passing", "Walt")
    table.step()
    table.host_hears(PeerLeft("passing"))
    table.play_out()
    return table


def test_no_hidden_card_reaches_a_watchers_page_nor_a_guest_told_of_watchers(watched_by_pages):
    table = watched_by_pages
    page = table.guests.pop("w")
    assert page.watching and page.seat is None and page.transcript is not None
    for capture in table.received["w"]:
        assert watcher_leaks(capture) == [], capture.text[:300]
    told = set()
    for peer in table.guests:
        for capture in table.received[peer]:
            assert leaks(capture) == [], capture.text[:300]
            data = json.loads(capture.text)
            if data["type"] == "table":
                told.add(tuple(data["watchers"]))
        assert table.guests[peer].watchers == ("Wendy",)  # Walt came and went
    assert {("Wendy",), ("Wendy", "Walt")} <= told
