"""What a guest's page holds is enough to draw its table and its log: the
same HTML the host's page draws for that seat from the engine itself."""

from __future__ import annotations

import json

import pytest

from game.online import guest as g
from game.online import messages as m
from game.online.wire import PeerJoined, PeerLeft, Received
from game.web.draw.i18n import Translator
from game.web.draw.tables import TableContext, event_lines, renderer
from tests.online_kit import HOST, LoopTable
from tests.test_online_games import CASES, cases


def drawn(game, observation, player, log):
    """The table, the log and the panels as a page draws them for `player`."""
    table = renderer(game)
    ctx = TableContext(t=Translator("en"), seat=player, log=list(log))
    parts = [str(table.render(observation, ctx)), *event_lines(table, list(log), ctx),
             str(table.score_sheet(observation, ctx)), str(table.last_trick(observation, ctx))]
    if observation.get("over"):
        parts.append(str(table.final_summary(observation, ctx)))
    else:
        parts.append(table.who_decides(observation, ctx))
    return parts




@pytest.mark.parametrize("plan", cases())
def test_a_guest_draws_the_table_the_host_would_draw_for_its_seat(plan):
    game, options, seats = CASES[plan]
    table = LoopTable(game, options, seats)
    table.seat_everyone()
    checked = 0
    while True:
        if table.room.state_id % 37 == 0 or table.state.over:
            for guest in table.guests.values():
                player = table.state.seat_of(guest.seat)
                assert guest.player == player
                own_log = [e for _, events in table.room.logs[guest.seat] for e in events]
                assert list(guest.log) == own_log
                assert drawn(game, guest.observation, guest.player, guest.log) == \
                    drawn(game, table.state.observation(player), player, own_log)
                checked += 1
        if table.state.over:
            break
        table.step()
    assert checked > 2


def update(state, events):
    return m.encode(m.TableUpdate("dracula", "1", 1, {"legal": ["AS@01"]},
                                  [[state, events]], state, "1", []))


def test_a_resent_update_adds_nothing_to_the_log():
    guest = g.Guest("room-secret-1234", "Ann", "seat-token-00000001", host=HOST)
    for text in [update(1, [{"kind": "a"}]), update(2, [{"kind": "b"}]),
                 update(1, [{"kind": "a"}]), update(2, [{"kind": "b"}])]:
        guest, _ = g.reduce(guest, Received(HOST, text))
    assert [e["kind"] for e in guest.log] == ["a", "b"]
    assert guest.my_turn and guest.legal == ["AS@01"]
    guest, sends = g.reduce(guest, g.DecideNow("AS@01"))
    assert [json.loads(text) for _, text in sends] == [
        {"v": 3, "type": "decide", "action": "AS@01", "state": 2,
         "token": "seat-token-00000001"}]


def test_the_guest_listens_to_its_host_only_and_survives_garbage():
    guest, sends = g.reduce(g.Guest("room-secret-1234", "Ann"), PeerJoined("p1"))
    assert json.loads(sends[0][1])["type"] == "join"
    guest, _ = g.reduce(guest, Received("p1", "not json at all"))  # another guest's noise
    assert guest.host is None and guest.status == "connecting"
    lobby = m.encode(m.Lobby("dracula", [], None))
    guest, _ = g.reduce(guest, Received("host", lobby))
    assert (guest.host, guest.status) == ("host", "lobby")
    guest, _ = g.reduce(guest, Received("p1", m.encode(m.HostLeft())))  # not from the host
    assert guest.status == "lobby"
    guest, _ = g.reduce(guest, PeerLeft("host"))
    assert guest.status == "reconnecting"
    guest, _ = g.reduce(guest, Received("host", m.encode(m.HostLeft())))
    assert guest.status == "host_left"


def test_a_refusal_at_the_door_and_an_error_at_the_table():
    guest, _ = g.reduce(g.Guest("room-secret-1234", "Ann"),
                        Received(HOST, m.encode(m.Refused("table_full", {"seats": 2}))))
    assert guest.status == "refused" and guest.refusal == {"code": "table_full",
                                                           "params": {"seats": 2}}
    playing = g.Guest("room-secret-1234", "Ann", "seat-token-00000001", host=HOST)
    playing, _ = g.reduce(playing, Received(HOST, update(3, [])))
    error = m.Error("card_not_in_hand", {"card": "AS"}, 3)
    playing, _ = g.reduce(playing, Received(HOST, m.encode(error)))
    assert playing.status == "playing"
    assert playing.errors == ({"code": "card_not_in_hand", "params": {"card": "AS"}},)
