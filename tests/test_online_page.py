"""The host's page at an online table, in CPython: the real controller and
session (tests/page_kit.py) with a room (game.online.host) and a loopback
guest who plays one seat from what it receives. The page lets no bot think
for the remote seat, applies the guest's decisions through the session, and
drops one that comes for a position the game has left."""

from __future__ import annotations

import random

import pytest

from game import new_game
from game.online import guest as g
from game.online import host as h
from game.web.model import handover
from game.web.model import session as ts
from game.web.model.page import OpenSetup
from tests.online_kit import HOST, SECRET, token
from tests.page_kit import make_page, put_on_table

GAME = "jekyll-hyde"


class HostPage:
    """The page glue the browser will have: every move's state (the `Moved`
    effect) handed to the room, every `Decided` to the session as `RemoteMoved`."""

    def __init__(self, setup, seed=11):
        self.ctrl, self.screen, self.thinking = make_page()
        state = new_game(GAME, {"players": 4, "target": 100}, seed=seed)
        transcript = {"game": GAME, "options": state.to_json()["options"], "seed": seed,
                      "actions": []}
        put_on_table(self.ctrl, state, {
            "game": GAME, "setup": setup, "seen_hands": 0, "transcript": transcript,
            "log": handover.log_events(state, setup), "state": state.to_json()})
        seats = tuple(h.Seat(who) for who in h.lasting_players(state))
        self.room = h.Room("room-1", SECRET, GAME, seats)
        self.now = 0.0  # a second passes at every decision (faster is a flood)
        self.guest = g.Guest(SECRET, "Ann")
        self.hear(h.PeerJoined("ann"))
        self.to_guest(h.PeerJoined(HOST))
        self.hear(h.SeatPerson("0", "ann", token(0)))
        for who in setup["bots"]:
            self.hear(h.SeatBot(who, setup["bots"][who]))
        self.hear(h.SeatHost(setup["me"], "Hal"))
        self.hear(h.Start(state, transcript))
        self.decided: list[h.Decided] = []
        carry_out = self.ctrl.carry_out

        def handed_to_the_room(effect):  # every move, as the controller carries it out
            answers = carry_out(effect)
            if isinstance(effect, ts.Moved):
                self.hear(h.GameChanged(effect.after,
                                        self.ctrl.session.save["transcript"]["actions"][-1]))
            return answers

        self.ctrl.carry_out = handed_to_the_room

    def hear(self, event):
        self.room, sends, effects = h.reduce(self.room, event, self.now)
        for send in sends:
            self.to_guest(h.Received(HOST, send.text))
        for effect in effects:
            if isinstance(effect, h.Decided):
                self.decided.append(effect)
                if effect.state_id == self.room.state_id:
                    self.ctrl.on_table(ts.RemoteMoved(self.room.state, effect.who,
                                                      effect.action))

    def to_guest(self, event):
        self.guest, sends = g.reduce(self.guest, event)
        for _, text in sends:
            self.hear(h.Received("ann", text))


@pytest.mark.slow  # a whole online game
def test_a_remote_guest_plays_a_seat_of_the_host_page_to_the_end():
    page = HostPage({"me": "3", "bots": {"1": "random", "2": "random"},
                     "remote": {"0": "Ann"}})
    rng = random.Random(3)
    for _ in range(5000):
        s = page.ctrl.session
        if s.state.over:
            break
        page.now += 1.0
        if s.remote_on_turn == "0":
            assert not s.bots_on_turn and not page.thinking.waiting  # no bot for Ann
            assert page.guest.my_turn
            page.to_guest(g.DecideNow(rng.choice(page.guest.legal)))
            assert page.ctrl.session.state is not s.state
        elif s.waiting_for_ack:
            page.ctrl.on_table(ts.AckHand())
        elif s.human_to_act:
            page.ctrl.on_table(ts.Act(rng.choice(s.state.legal_actions())))
        else:
            assert page.thinking.run()
        assert page.room.state is page.ctrl.session.state
    s = page.ctrl.session
    assert s.state.over and page.guest.transcript is not None
    assert page.guest.transcript["actions"] == s.save["transcript"]["actions"]
    assert len(page.decided) > 10


def test_a_remote_decision_for_a_position_the_game_left_is_dropped():
    page = HostPage({"me": "3", "bots": {"1": "random", "2": "random"},
                     "remote": {"0": "Ann"}})
    s = page.ctrl.session
    while s.remote_on_turn != "0":
        if s.human_to_act:
            page.ctrl.on_table(ts.Act(s.state.legal_actions()[0]))
        else:
            page.thinking.run()
        s = page.ctrl.session
    old = s.state
    action = old.legal_actions()[0]
    page.ctrl.on_table(ts.RemoteMoved(old, "1", action))  # not the seat on turn
    assert page.ctrl.session.state is old
    page.ctrl.dispatch(OpenSetup())  # the host looks at the start screen meanwhile
    page.ctrl.on_table(ts.RemoteMoved(old, "0", action))
    moved = page.ctrl.session
    assert moved.state is not old and moved.save["transcript"]["actions"][-1] == action
    page.ctrl.on_table(ts.RemoteMoved(old, "0", action))  # the same again: the game moved on
    assert page.ctrl.session.state is moved.state


def test_a_seat_stood_in_for_is_the_bots_again():
    s = HostPage({"me": "3", "bots": {"0": "random", "1": "random", "2": "random"},
                  "remote": {"0": "Ann"}, "stood_in": ["0"]}).ctrl.session
    assert s.remote_on_turn is None
