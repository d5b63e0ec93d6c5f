"""Anything at all from a guest: the host's room never raises, and nothing
but a rightful decision changes the game's side of the room."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.online import host as h
from game.online import messages as m
from game.online.wire import Received
from tests.online_kit import LoopTable, token
from tests.strength import examples

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=30),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner,
                                                                 max_size=4),
    max_leaves=12)
FIELDS = st.sampled_from(["secret", "name", "token", "action", "state", "key", "v", "type"])
MESSAGE = st.builds(
    lambda kind, fields, extra: json.dumps({"v": 3, "type": kind, **fields, **extra}),
    st.sampled_from([*m.GUEST_TYPES, *m.HOST_TYPES, "", "JOIN"]),
    st.dictionaries(FIELDS, JSON, max_size=5), st.dictionaries(st.text(max_size=8), JSON,
                                                               max_size=2))
TEXT = MESSAGE | st.text(max_size=200) | JSON.map(json.dumps)


def _table():
    table = LoopTable("dracula", {}, {"0": ("guest", "Ann"), "1": ("bot", "random")})
    table.seat_everyone()
    while table.state.to_act != 0 or table.room.state_id < 3:
        table.step()
    return table


TABLE = _table()


def game_side(room):
    return room.seats, room.state, room.state_id, room.logs, room.transcript


@settings(max_examples=examples(300), deadline=None, database=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["peer-0", "stranger"]), st.lists(TEXT, min_size=1, max_size=5))
def test_nothing_a_guest_sends_takes_the_host_down(peer, texts):
    room = TABLE.room
    for text in texts:
        room, sends, effects = h.reduce(room, Received(peer, text), TABLE.now)
        for send in sends:
            assert m.read_host(send.text).TYPE in ("refused", "error", "reaction", "lobby",
                                                   "table")
        assert all(isinstance(e, (h.ShowReaction, h.Notice)) for e in effects)
    if peer == "stranger":
        assert game_side(room) == game_side(TABLE.room)


@settings(max_examples=examples(200), deadline=None, database=None, derandomize=True)
@given(st.text(max_size=12) | st.sampled_from(TABLE.state.legal_actions()),
       st.integers(0, 2 * TABLE.room.state_id))
def test_a_decision_is_taken_only_when_legal_and_current(action, state_id):
    text = m.encode(m.Decide(action, state_id, token(0))) if action.isprintable() and \
        action.isascii() and action else json.dumps({"v": 3, "type": "decide",
                                                     "action": action, "state": state_id})
    room, sends, effects = h.reduce(TABLE.room, Received("peer-0", text), TABLE.now)
    rightful = state_id == TABLE.room.state_id and action in TABLE.state.legal_actions()
    assert effects == ((h.Decided("0", action, state_id),) if rightful else ())
    assert game_side(room) == game_side(TABLE.room)  # the page applies it, not the room
    assert len(sends) == (0 if rightful else 1)
