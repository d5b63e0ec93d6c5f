"""The duel's last tricks solved exactly (game/jekyll_vs_hyde/endgame.py): the
minimax value on hand-made positions and, against a plain minimax with no
pruning and no table, on positions of real games; and the search bot's
`endgame=N` setting, which solves only worlds drawn from its observation."""

from __future__ import annotations

import random
from typing import Any

import pytest

from game import new_game
from game.bots import make_bot
from game.bots.search import Solve, searcher
from game.jekyll_vs_hyde.endgame import Endgame, value
from game.jekyll_vs_hyde.rules import PLAY, JekyllVsHydeState
from game.jekyll_vs_hyde.search import at_horizon, solver, utility
from tests.strength import quick_first


def _late(cards: int, seed: int) -> JekyllVsHydeState:
    """A real game's first round with `cards` cards in each hand and a trick to lead."""
    state: Any = new_game("jekyll-vs-hyde", {}, seed=seed)
    rng = random.Random(seed)
    while not (state.phase == PLAY and not state.plays and len(state.hands[0]) == cards):
        state = state.apply(rng.choice(state.legal_actions()))
        if state.round > 1:
            pytest.skip("this deal ended its round early")  # never with the seeds below
    assert isinstance(state, JekyllVsHydeState)
    return state


def _position(hands: tuple[tuple[str, ...], tuple[str, ...]], tricks: tuple[int, int],
              plays: tuple[str, ...] = (), leader: int = 0) -> JekyllVsHydeState:
    """A hand-made end of the first round: these hands, tricks won so far, every
    colour ranked (purple < red < green), the marker at 0."""
    state = _late(max(map(len, hands)), seed=7)  # as many tricks left as cards
    s = state._copy()
    s.hands, s.plays, s.leader = hands, plays, leader
    s._to_act = leader if not plays else 1 - leader
    s.ranking = ("P", "R", "G")
    s.piles = ((("", ""),) * tricks[0], (("", ""),) * tricks[1])
    assert s.marker == 0 and s.round == 1
    return s


def test_the_last_trick_is_worth_where_it_leaves_the_marker() -> None:
    # Jekyll leads R7 over Hyde's R1: 6 tricks to 4, the marker moves 2 of 10
    s = _position((("R7",), ("R1",)), (5, 4))
    assert value(s) == pytest.approx(0.8)


def test_hyde_picks_the_card_that_leaves_the_widest_gap() -> None:
    # Jekyll (5 tricks to 3) led R2 and holds R7; Hyde holds R6 and R1.
    # R6 wins now, then Jekyll's R7 wins the last: 6-4, the marker moves 2.
    # R1 loses now and Jekyll's R7 beats R6 too: 7-3, it moves 4.
    s = _position((("R7",), ("R6", "R1")), (5, 3), plays=("R2",), leader=0)
    worth = solver(s, "H")
    assert worth("R6") == pytest.approx(0.2) and worth("R1") == pytest.approx(0.4)
    assert value(s) == pytest.approx(0.6)  # Hyde's best, seen from Jekyll


def _minimax(root: JekyllVsHydeState, state: JekyllVsHydeState) -> float:
    if at_horizon(root, state):
        return utility(root, state, "J")
    values = [_minimax(root, state.apply(a)) for a in state.legal_actions()]
    return max(values) if state._to_act == 0 else min(values)


@pytest.mark.parametrize("seed", quick_first(range(12), keep=4))
def test_the_exact_value_is_plain_minimax_with_fewer_positions(seed: int) -> None:
    s = _late(4, seed)
    assert value(s) == pytest.approx(_minimax(s, s))
    for player in ("J", "H"):  # and each action's worth, sharing one table
        worth = solver(s, player)
        for action in s.legal_actions():
            jekyll = _minimax(s, s.apply(action))
            assert worth(action) == pytest.approx(jekyll if player == "J" else 1 - jekyll)


def test_the_table_saves_positions() -> None:
    s = _late(4, 2)
    with_table = Endgame(s)
    with_table.value(s)
    no_table = Endgame(s)
    no_table.table = _Forgetful()
    no_table.value(s)
    assert with_table.nodes < no_table.nodes


class _Forgetful(dict):  # type: ignore[type-arg]
    def __setitem__(self, key: object, value: object) -> None:
        pass


def test_a_bot_with_endgame_solves_worlds_drawn_from_its_observation_only() -> None:
    s = _late(3, 4)
    obs = s.observation(s.to_act)
    # off by default; on with the setting, and only as few cards remain
    assert not isinstance(searcher(obs, random.Random(1), 10, lambda: 0.0), Solve)
    assert isinstance(searcher(obs, random.Random(1), 10, lambda: 0.0, endgame=3), Solve)
    assert not isinstance(searcher(obs, random.Random(1), 10, lambda: 0.0, endgame=2), Solve)
    bot = make_bot("jekyll-vs-hyde", "expert:iterations=40;endgame=3")
    # the bot is handed the observation only; its choice is legal and reproducible
    first = bot.choose(obs, s.legal_actions(), random.Random(5))
    assert first in s.legal_actions()
    assert bot.choose(obs, s.legal_actions(), random.Random(5)) == first


@pytest.mark.parametrize("seed", range(6))
def test_hidden_cards_never_change_an_exact_decision(seed: int) -> None:
    """The blind-bot test (tests/test_bots_are_blind.py) where the endgame is solved."""
    from tests.test_jekyll_vs_hyde_properties import hidden_twin

    s = _late(3, seed)
    role = s.to_act
    assert role is not None
    twin = hidden_twin(s, "JH".index(role))
    assert twin.to_json() != s.to_json() and twin.observation(role) == s.observation(role)
    for spec in ("expert:iterations=60;endgame=3", "expert:iterations=60;endgame=3;enumerate=1"):
        choices = [make_bot("jekyll-vs-hyde", spec).choose(
            state.observation(role), state.legal_actions(), random.Random(3))
            for state in (s, twin)]
        assert choices[0] == choices[1]
