"""The host's room: the lobby, the bad guest (every bad message refused with
its code, the room unchanged, the game still going), drops, rejoins, the
stand-in bot and the host leaving."""

from __future__ import annotations

import json

import pytest

from game import BadStateError

from game.online import guest as g
from game.online import host as h
from game.online import messages as m
from game.online.wire import PeerJoined, PeerLeft, Received
from tests.online_kit import HOST, LoopTable, leaks, token

WERNER = {"0": ("guest", "Ann"), "1": ("bot", "random"), "2": ("guest", "Bob"),
          "3": ("bot", "random")}


def snapshot(room):
    """Everything of the room but the peers' rate counts."""
    peers = tuple(sorted((p.peer, p.name, p.joined, p.seat, p.answered) for p in room.peers))
    return (room.seats, room.state, room.state_id, room.logs, room.transcript, room.sent, peers)


def last(table, peer):
    return json.loads(table.received[peer][-1].text)


# The tests that play on to the game's end: a game to 300 points (three hands,
# a tenth of the moves) in the quick run, the whole game to 1000 in the full run.
GAMES = [pytest.param({"target": 300}, id="three-hands"),
         pytest.param({}, id="whole-game", marks=pytest.mark.slow)]


def werner_on_turn(who="0", options=None):
    table = LoopTable("jekyll-hyde", {"players": 4, **(options or {})}, WERNER)
    table.seat_everyone()
    while table.room.state_id < 2 or str(table.state.identity(table.state.to_act)) != who:
        table.step()
    return table


# -- the lobby -----------------------------------------------------------------------------

def lobby_table():
    table = LoopTable("jekyll-hyde", {"players": 4}, WERNER)
    table.host_hears(h.SeatHost("0", "Hal"))
    return table


def test_a_stranger_without_the_secret_is_refused():
    table = lobby_table()
    table.guests["eve"] = g.Guest("wrong-secret-99", "Eve")
    table.host_hears(PeerJoined("eve"))
    table.guest_hears("eve", PeerJoined(HOST))
    assert table.guests["eve"].status == "refused"
    assert table.guests["eve"].refusal == {"code": "bad_secret", "params": {}}
    assert not any(p.joined for p in table.room.peers)


def test_the_lobby_seats_people_and_bots_and_a_full_table_says_so():
    table = lobby_table()
    for n, name in enumerate(["Ann", "Bob", "Cy"]):
        table.connect(f"p{n}", name)
        assert table.guests[f"p{n}"].status == "lobby"
    table.connect("p3", "Dee")  # the host sits at one of four seats: three places
    assert table.guests["p3"].status == "refused"
    assert table.guests["p3"].refusal["code"] == "table_full"
    table.host_hears(h.SeatPerson("1", "p0", token(1)))
    table.host_hears(h.SeatPerson("2", "p1", token(2)))
    table.host_hears(h.SeatBot("3", "easy"))
    ann = table.guests["p0"]
    assert (ann.status, ann.seat, ann.token) == ("seated", "1", token(1))
    kinds = {s["seat"]: (s["kind"], s["name"], s["level"]) for s in ann.seats}
    assert kinds == {"0": ("host", "Hal", ""), "1": ("person", "Ann", ""),
                     "2": ("person", "Bob", ""), "3": ("bot", "", "easy")}
    assert table.guests["p2"].seat is None and table.guests["p2"].status == "lobby"
    table.host_hears(h.SeatPerson("2", "p0", token(3)))  # Ann moves: seat 1 opens
    assert table.room.seat("1").kind == "open" and table.room.seat("2").name == "Ann"
    assert table.room.peer("p1").seat is None  # Bob waits again
    transcript = {"game": "jekyll-hyde", "options": {}, "seed": 1, "actions": []}
    table.host_hears(h.Start(table.state, transcript))
    assert table.guests["p0"].status == "playing"
    for waiting in ("p1", "p2"):  # not seated when the game began
        assert last(table, waiting) == {"v": 3, "type": "refused", "code": "game_started",
                                        "params": {}}
    table.connect("late", "Zed")
    assert table.guests["late"].refusal["code"] == "game_started"


# -- the bad guest ---------------------------------------------------------------------------

def decide(action, state, seat_token):
    return m.encode(m.Decide(action, state, seat_token))


def refused(table, peer, text):
    """`text` from `peer`: refused, the room unchanged; the refusal's code."""
    before = snapshot(table.room)
    sent = len(table.received.get(peer, []))
    table.host_hears(Received(peer, text))
    assert snapshot(table.room) == before
    answers = [json.loads(c.text) for c in table.received.get(peer, [])[sent:]]
    assert len(answers) == 1 and answers[0]["type"] in ("refused", "error")
    return answers[0]["code"]


@pytest.mark.parametrize("game", GAMES)
def test_every_bad_message_is_refused_and_the_game_goes_on(game):
    table = werner_on_turn("0", game)
    now = table.room.state_id
    legal = table.state.legal_actions()
    assert refused(table, "peer-0", "garbage") == "not_json"
    assert refused(table, "peer-0", '{"v": 3, "type": "decide", "action": 3, "state": "x"}') \
        == "bad_field"
    assert refused(table, "peer-2", decide(legal[0], now, token(2))) == "not_your_turn"
    assert refused(table, "peer-0", decide(legal[0], now, token(2))) == "bad_token"
    assert refused(table, "peer-0", decide(legal[0], now - 1, token(0))) == "stale_state"
    assert refused(table, "peer-0", decide(legal[0], now + 5, token(0))) == "stale_state"
    assert refused(table, "peer-0", decide("ZZ9", now, token(0))) == "malformed_action"
    held = set(table.state.observation(1)["hand"])  # a card seat 0 does not hold
    assert refused(table, "peer-0", decide(sorted(held)[0], now, token(0))) == "card_not_in_hand"
    assert refused(table, "peer-0", "x" * 1_000_000) == "too_big"
    table.guests["stranger"] = g.Guest("room-secret-1234", "Eve")  # connected, never joined
    table.host_hears(PeerJoined("stranger"))
    assert refused(table, "stranger", decide(legal[0], now, token(0))) == "not_seated"
    assert refused(table, "stranger", m.encode(m.React("wow"))) == "not_seated"
    assert table.guests["peer-0"].errors  # shown to the guest, by code

    table.host_hears(Received("peer-0", decide(legal[0], now, token(0))))  # a good one
    assert table.room.state_id == now + 1
    replay = decide(legal[0], now, token(0))
    assert refused(table, "peer-0", replay) == "replayed"
    table.play_out()
    assert table.state.over


@pytest.mark.parametrize("game", GAMES)
def test_a_flood_is_refused_once_then_dropped_until_the_window_passes(game):
    table = werner_on_turn("0", game)
    table.now += 100
    sent = len(table.received["peer-2"])
    for _ in range(200):
        table.host_hears(Received("peer-0", m.encode(m.React("wow"))))
    reactions = [json.loads(c.text) for c in table.received["peer-2"][sent:]]
    assert len(reactions) == table.room.rate_limit  # the others never reached anyone
    floods = [c for c in table.received["peer-0"] if '"flood"' in c.text]
    assert len(floods) == 1
    table.now += table.room.rate_window
    table.step()  # peer-0 decides: heard again
    assert table.room.state_id > 0 and table.guests["peer-0"].turn != "0"
    table.play_out()


def test_reactions_reach_every_seat():
    table = werner_on_turn("0")
    table.guest_hears("peer-2", g.ReactNow("hello"))
    assert table.guests["peer-0"].reactions[-1] == ("2", "hello")
    assert h.ShowReaction("2", "hello") in table.effects


# -- drops, rejoins and the stand-in ------------------------------------------------------------

@pytest.mark.parametrize("game", GAMES)
def test_a_dropped_guest_rejoins_with_its_token_and_catches_up(game):
    table = werner_on_turn("2", game)
    old = table.drop("peer-0")
    assert h.Notice("dropped", {"name": "Ann"}) in table.effects
    seats = {s["seat"]: s["kind"] for s in table.guests["peer-2"].seats}
    assert seats["0"] == "away"
    while str(table.state.identity(table.state.to_act)) != "0":
        table.step()  # the game goes on until it is Ann's turn: then it waits
    table.now = table.room.seat("0").away_since + table.grace - 1
    table.host_hears(h.Tick())
    assert not table.stood_in
    table.connect("peer-0b", "Ann (phone)", token_kept=old.token)  # a reload: nothing kept
    back = table.guests["peer-0b"]
    assert (back.status, back.seat, back.my_turn) == ("playing", "0", True)
    assert back.state_id == table.room.state_id
    whole = [e for _, events in table.room.logs["0"] for e in events]
    assert list(back.log) == whole and len(back.log) > len(old.log)
    assert h.Notice("back", {"name": "Ann"}) in table.effects
    assert table.room.seat("0").name == "Ann"  # the seat keeps its name
    table.play_out()


@pytest.mark.parametrize("game", GAMES)
def test_a_stand_in_bot_plays_after_the_grace_period_and_hands_the_seat_back(game):
    table = werner_on_turn("2", game)
    old = table.drop("peer-0")
    table.now += table.grace
    table.host_hears(h.Tick())
    assert h.StandIn("0", "random") in table.effects and table.stood_in == {"0"}
    assert table.room.seat("0").stood_in
    seen = {s["seat"]: s for s in table.guests["peer-2"].seats}["0"]  # told to everyone
    assert (seen["kind"], seen["name"], seen["level"]) == ("away", "Ann", "random")
    decided = len(table.effects)
    for _ in range(12):
        table.step()  # seat 0 is played by the stand-in meanwhile
    table.connect("peer-0b", "Ann", token_kept=old.token)
    assert h.HandBack("0") in table.effects[decided:] and not table.stood_in
    seen = {s["seat"]: s for s in table.guests["peer-2"].seats}["0"]
    assert (seen["kind"], seen["level"]) == ("person", "")
    table.play_out()
    after = table.effects[table.effects.index(h.HandBack("0")):]
    assert any(isinstance(e, h.Decided) and e.who == "0" for e in after)


@pytest.mark.parametrize("game", GAMES)
def test_a_guest_reconnects_by_itself_when_the_host_comes_back(game):
    table = werner_on_turn("2", game)
    before = table.guests["peer-0"]
    table.host_hears(PeerLeft("peer-0"))  # the connection broke both ways
    table.guest_hears("peer-0", PeerLeft(HOST))
    assert table.guests["peer-0"].status == "reconnecting"
    table.step()
    table.host_hears(PeerJoined("peer-0"))
    table.guest_hears("peer-0", PeerJoined(HOST))
    now = table.guests["peer-0"]
    assert now.status == "playing" and now.state_id == table.room.state_id
    assert now.log[:len(before.log)] == before.log and len(now.log) > len(before.log)
    table.play_out()


def test_a_stranger_coming_and_going_costs_the_guests_nothing():
    table = werner_on_turn("0")
    sent = {peer: len(table.received[peer]) for peer in table.guests}
    for n in range(50):
        table.host_hears(PeerJoined(f"knock-{n}"))
        table.host_hears(PeerLeft(f"knock-{n}"))
    assert {peer: len(table.received[peer]) for peer in table.guests} == sent
    assert len(table.room.peers) == 2


def test_a_guest_who_leaves_is_away_and_does_not_knock_again():
    table = werner_on_turn("2")
    table.guest_hears("peer-0", g.LeaveNow())
    assert table.guests["peer-0"].status == "left"
    assert table.room.seat("0").peer is None and h.Notice("dropped", {"name": "Ann"}) in \
        table.effects
    table.guest_hears("peer-0", PeerJoined(HOST))  # the wire comes back: no join
    assert table.room.seat("0").peer is None


@pytest.mark.parametrize("game", GAMES)
def test_a_guest_back_after_the_end_gets_the_whole_game(game):
    table = werner_on_turn("2", game)
    old = table.drop("peer-0")
    table.now += table.grace
    table.host_hears(h.Tick())
    table.play_out()
    table.connect("peer-0b", "Ann", token_kept=old.token)
    back = table.guests["peer-0b"]
    assert back.transcript is not None and back.transcript["actions"] == \
        table.guests["peer-2"].transcript["actions"]
    assert back.observation == table.state.observation(0) and back.turn is None


def test_the_host_leaving_is_told_to_every_guest():
    table = werner_on_turn("0")
    table.host_hears(h.Close())
    assert {g.status for g in table.guests.values()} == {"host_left"}
    assert table.room.peers == ()


def test_no_stand_in_before_the_game_starts():
    table = lobby_table()
    table.connect("p0", "Ann")
    table.host_hears(h.SeatPerson("1", "p0", token(1)))
    table.drop("p0")
    table.now += 1000
    table.host_hears(h.Tick())
    assert not table.stood_in and table.room.seat("1").kind == "person"


# -- a reload of the host's page ------------------------------------------------------------------

@pytest.mark.parametrize("game", GAMES)
def test_a_reload_of_the_host_page_keeps_the_table_and_the_guests_come_back(game):
    table = werner_on_turn("2", game)
    kept = json.loads(json.dumps(h.room_to_json(table.room)))
    assert "seed" not in json.dumps(kept["logs"])  # the logs are the seats' own views
    table.room = h.room_from_json(kept, table.state, table.now)  # the reload
    assert table.room.peers == () and table.room.state_id > 0
    assert all(s.peer is None and s.away_since == table.now
               for s in table.room.seats if s.kind == "person")
    for peer in list(table.guests):  # each guest's wire notices, then finds the host again
        table.guest_hears(peer, PeerLeft(HOST))
        assert table.guests[peer].status == "reconnecting"
        table.host_hears(PeerJoined(peer))
        table.guest_hears(peer, PeerJoined(HOST))
        assert table.guests[peer].status == "playing"
        assert table.guests[peer].state_id == table.room.state_id
    assert not table.stood_in
    table.play_out()
    assert {len(g.transcript["actions"]) for g in table.guests.values()} == \
        {len(table.room.transcript["actions"])}
    assert all(leaks(c) == [] for captures in table.received.values() for c in captures)


@pytest.mark.parametrize("path,value,where", [
    ("seats", [], "room.seats"), ("grace", "60", "room.grace"), ("state_id", -1, "room.state_id"),
    ("transcript", None, "room.transcript"), ("logs", {"0": [[1]]}, "room.logs.0[0]"),
    ("logs", {"0": [["1", []]]}, "room.logs.0[0][0]")])
def test_a_kept_room_that_is_not_one_is_refused_naming_the_field(path, value, where):
    table = werner_on_turn("2")
    kept = {**h.room_to_json(table.room), path: value}
    with pytest.raises(BadStateError) as e:
        h.room_from_json(kept, table.state, 0.0)
    assert e.value.params["path"] == where
