"""Take-backs (game.web.model.undo): replaying the transcript minus the taken-back
actions restores exactly the position, and the log, the person had before
their decision — in every game and mode, again and again back to the start
of the hand, never across a hand's scoring."""

from __future__ import annotations

import random
from typing import Any

import pytest

from game.core.state import State
from game.web.model.page import SetupChanged
from game.web.model.session import Act, AckHand, BotMoved, Session, Undo
from tests.page_kit import deal, make_page, my_turn
from game.web.model.undo import CannotRewind, hands_scored, mine, seen_events, take_back, undoable

MODES = [
    ("jekyll-hyde", {"players": "4", "seating": "A", "me": "0", "target": "100"}),
    ("jekyll-hyde", {"players": "4", "seating": "B", "me": "1", "target": "100"}),
    ("jekyll-hyde", {"players": "3", "me": "0", "target": "100"}),  # a soloist plays the ghost
    ("jekyll-hyde", {"players": "3", "me": "2", "target": "100"}),
    ("jekyll-vs-hyde", {"variant": "standard", "jvh_role": "J"}),
    ("jekyll-vs-hyde", {"variant": "return-match", "jvh_role": "H"}),
    ("dracula", {"first": "me"}),
    ("dracula", {"first": "bot"}),
]


class Shell:
    """The page's own controller (game.web.runtime.controller) without a browser:
    the game is dealt from the start screen's values, the person's decisions
    and the bots' moves go through the page's reducers, and the test keeps
    what the person saw before each of their decisions this hand."""

    def __init__(self, game: str, values: dict[str, str], seed: int) -> None:
        self.ctrl, _, self.thinking = make_page()
        self.ctrl.dispatch(SetupChanged({**values, "game": game, "seed": str(seed)}))
        self.ctrl.command("start", {})
        self.thinking.drop()  # the test plays the bots' moves itself
        self.me = self.session.save["setup"]["me"]
        assert list(self.log) == list(seen_events(self.state, self.me))
        self.before: list[tuple[int, dict[str, Any], list[Any]]] = []  # this hand's decisions

    @property
    def session(self) -> Session:
        assert self.ctrl.session is not None
        return self.ctrl.session

    @property
    def state(self) -> State:
        return self.session.state

    @property
    def transcript(self) -> dict[str, Any]:
        return self.session.save["transcript"]

    @property
    def log(self) -> list[Any]:
        return self.session.save["log"]

    def reduce(self, action: Any) -> None:
        self.ctrl.on_table(action)
        self.thinking.drop()

    def act(self, action: str) -> None:
        if self.session.waiting_for_ack:  # a hand's summary: read, then the next hand
            self.reduce(AckHand())
        if mine(self.state, self.me):
            self.before.append((len(self.transcript["actions"]), self.state.to_json(),
                                list(self.log)))
        scored = hands_scored(self.state)
        played = len(self.transcript["actions"])
        self.reduce(Act(action) if mine(self.state, self.me)
                    else BotMoved(self.session.token, action))
        assert len(self.transcript["actions"]) == played + 1, "the reducer refused the action"
        if hands_scored(self.state) != scored:
            self.before = []  # the scoring closes the hand: nothing before it comes back
        assert self.session.undo_points == tuple(i for i, _, _ in self.before)

    def undo_and_check(self) -> None:
        self.reduce(Undo())
        index, position, log = self.before.pop()
        assert len(self.transcript["actions"]) == index
        assert self.state.to_json() == position
        assert self.log == log
        assert self.session.undo_points == tuple(i for i, _, _ in self.before)
        assert self.session.save["practice"] is True
        assert undoable(self.transcript, self.me) == list(self.session.undo_points)


# One mode of each game in the quick run; the other modes: the full run.
QUICK_MODES = (0, 4, 7)


@pytest.mark.parametrize("game,values", [
    pytest.param(g, v, id=f"{g}-{i}", marks=() if i in QUICK_MODES else pytest.mark.slow)
    for i, (g, v) in enumerate(MODES)])
def test_take_backs_restore_the_earlier_position(game: str, values: dict[str, str]) -> None:
    rng = random.Random(f"undo:{game}:{values}")
    shell = Shell(game, values, seed=rng.randrange(1, 2**31))
    undos = 0
    for _ in range(260):
        if shell.state.over:
            break
        if shell.before and rng.random() < 0.12:
            shell.undo_and_check()
            undos += 1
            continue
        scored = hands_scored(shell.state)
        shell.act(rng.choice(shell.state.legal_actions()))
        if hands_scored(shell.state) != scored:
            assert undoable(shell.transcript, shell.me) == [i for i, _, _ in shell.before]
    assert undos >= 3
    # Again and again: back to the person's first decision of this hand, and no further.
    while shell.before:
        shell.undo_and_check()
    with pytest.raises(CannotRewind, match="no decision of yours"):
        take_back(shell.transcript, shell.me, shell.state)


@pytest.mark.parametrize("game,values", [MODES[0], MODES[4], MODES[6]])
def test_no_take_back_across_a_hands_scoring(game: str, values: dict[str, str]) -> None:
    rng = random.Random(7)
    shell = Shell(game, values, seed=11)
    while hands_scored(shell.state) == 0:
        shell.act(rng.choice(shell.state.legal_actions()))
    # The person decided many times in the first hand; none of it comes back.
    assert undoable(shell.transcript, shell.me) == []
    with pytest.raises(CannotRewind):
        take_back(shell.transcript, shell.me, shell.state)


def test_a_save_whose_parts_disagree_is_not_rewritten() -> None:
    rng = random.Random(3)
    shell = Shell("dracula", {"first": "me"}, seed=5)
    for _ in range(6):
        shell.act(rng.choice(shell.state.legal_actions()))
    other = shell.state.apply(shell.state.legal_actions()[0])  # a step the transcript lacks
    with pytest.raises(CannotRewind, match="does not replay"):
        take_back(shell.transcript, shell.me, other)


@pytest.mark.parametrize("where,key", [("", "practice"), ("setup", "no_takebacks")])
def test_a_save_says_practice_and_no_take_backs_as_true_or_false(where: str, key: str) -> None:
    import json

    from game.web.model import saves

    shell = Shell("dracula", {"first": "me"}, seed=5)
    save = {"game": "dracula", "setup": {"me": shell.me, "bots": {"1": "random"}},
            "transcript": shell.transcript, "state": shell.state.to_json(), "log": shell.log}
    part = save[where] if where else save
    part[key] = True
    saves.load(saves.dump(save))
    part[key] = "yes"
    with pytest.raises(saves.BrokenSave, match=key):
        saves.load(saves.dump(save))


@pytest.mark.parametrize("game,values", [MODES[0], MODES[4], MODES[7]],
                         ids=["jekyll-hyde", "jekyll-vs-hyde", "dracula"])
def test_a_game_without_take_backs_offers_no_undo_and_ignores_one(
        game: str, values: dict[str, str]) -> None:
    ctrl, screen, thinking = make_page()
    deal(ctrl, game, 5, **values, no_takebacks="on")
    s = my_turn(ctrl, thinking)
    ctrl.on_table(Act(s.state.legal_actions()[0]))
    s = my_turn(ctrl, thinking)
    assert s.save["setup"]["no_takebacks"] is True and s.undo_points, "a decision to take back"
    assert 'id="undo"' not in screen.last.regions["tools"]
    ctrl.command("undo", {})  # what Ctrl+Z or U sends
    assert ctrl.session.state is s.state and "practice" not in ctrl.session.save
    ctrl.command("new", {})  # New game: the choice is kept for the next one
    assert 'id="f-no-takebacks" checked' in screen.last.regions["screen"]
