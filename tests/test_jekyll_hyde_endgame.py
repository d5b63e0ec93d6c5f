"""Werner's last tricks solved exactly (game/jekyll_hyde/endgame.py): the
minimax value on a hand-made position and, against a plain minimax with no
pruning and no table, on positions of random hands of 3 and 4 players; and
the search bot's `endgame=N` setting, which solves only worlds drawn from
its observation."""

from __future__ import annotations

import random

import pytest

from game import new_game
from game.bots import make_bot
from game.bots.search import Solve, searcher
from game.jekyll_hyde.endgame import Endgame, value
from game.jekyll_hyde.rules import TRICKS_PER_HAND, JekyllHydeState
from game.jekyll_hyde.search import Sampler, at_horizon, exact_at, solver, utility
from tests.test_jekyll_hyde_properties import _swap_hidden
from tests.strength import quick_first


def _late(players: int, tricks_left: int, seed: int, more: int = 0) -> JekyllHydeState:
    """A random game's first hand with `tricks_left` tricks to play, then
    `more` random actions into the next trick (a designation counts as one)."""
    state = new_game("jekyll-hyde", {"players": players, "dealer": seed % 4}, seed=seed)
    rng = random.Random(seed)
    while len(state.tricks) < TRICKS_PER_HAND - tricks_left:
        state = state.apply(rng.choice(state.legal_actions()))
    for _ in range(more):
        if len(state.tricks) > TRICKS_PER_HAND - tricks_left:
            break  # that trick is over: stay in it
        state = state.apply(rng.choice(state.legal_actions()))
    assert isinstance(state, JekyllHydeState) and state.hand_number == 0
    return state


def _minimax(root: JekyllHydeState, state: JekyllHydeState) -> float:
    """The hand's worth to the Jekyll team, every decision by its chooser's team."""
    if at_horizon(root, state):
        return utility(root, state, root.table.side.index(0))
    assert state.to_act is not None
    values = [_minimax(root, state.apply(a)) for a in state.legal_actions()]
    return max(values) if state.table.side[state.to_act] == 0 else min(values)


def test_asking_the_opponent_for_his_best_card_can_win_the_last_trick() -> None:
    # Seats 0, 2 Jekyll; 1, 3 Hyde. Last trick, seat 0 leads and holds no
    # Jekyll card: seat 1 (Hyde) holds JA, its partner seat 2 JE; seat 3
    # holds HA, seat 0 HF7. Asking seat 1 puts JA down first, which nothing
    # beats (HA ties and comes later). Asking the partner puts JE down; Hyde
    # then asks seat 3 for HA, and JA, forced out of seat 1 for seat 2,
    # comes after HA and loses the tie.
    s = _late(4, 1, seed=3)._copy()
    s.hands = ((), ("HF7",), ("JA",), (), ("JE",), (), (), ("HA",))
    s.plays, s.carried, s.designated = (), (), -1
    s.leader = s.turn = s._to_act = 0
    s.won = (("J2",), ("H1", "HF5"))  # Jekyll: 0 points x 2; Hyde: 5 points x 1
    assert sorted(s.legal_actions()) == ["@1", "@2"]
    # The trick's 10 points: Jekyll 20 to Hyde's 5, or 0 to Hyde's 15.
    win, lose = 0.5 + 15 / 500, 0.5 - 15 / 500
    worth = solver(s, 0)
    assert worth("@1") == pytest.approx(win) and worth("@2") == pytest.approx(lose)
    assert solver(s, 1)("@2") == pytest.approx(1 - lose)  # the same, for Hyde's team
    assert value(s) == pytest.approx(win)
    assert _minimax(s, s) == pytest.approx(win)


# The quick run solves the first three deals' positions; the full run all of them.
POSITIONS = [pytest.param(players, seed, more, marks=[pytest.mark.slow] if seed >= 3 else [])
             for players in (3, 4) for seed in range(15) for more in (0, seed % 4 + 1)]


@pytest.mark.parametrize(("players", "seed", "more"), POSITIONS)
def test_the_exact_value_is_plain_minimax_with_fewer_positions(
        players: int, seed: int, more: int) -> None:
    s = _late(players, 2, seed, more)
    # Each action's plain minimax, searched once (the root's is their max or min).
    after = {action: _minimax(s, s.apply(action)) for action in s.legal_actions()}
    assert not at_horizon(s, s) and s.to_act is not None
    root = max(after.values()) if s.table.side[s.to_act] == 0 else min(after.values())
    assert value(s) == pytest.approx(root)
    deciders = {s.table.decider[seat] for seat in range(4)}
    for seat in sorted(deciders):  # each action's worth, one table per seat
        worth = solver(s, seat)
        for action, jekyll in after.items():
            mine = jekyll if s.table.side[seat] == 0 else 1 - jekyll
            assert worth(action) == pytest.approx(mine)


@pytest.mark.slow  # an endgame table
def test_the_table_saves_positions() -> None:
    s = _late(4, 3, 2)
    with_table = Endgame(s)
    with_table.value(s)
    no_table = Endgame(s)
    no_table.table = _Forgetful()
    no_table.value(s)
    assert with_table.nodes < no_table.nodes


class _Forgetful(dict):  # type: ignore[type-arg]
    def __setitem__(self, key: object, value: object) -> None:
        pass


def test_the_endgame_starts_with_the_tricks_left_not_the_cards_in_hand() -> None:
    s = _late(4, 3, 5, more=1)
    obs = s.observation(s.to_act)
    assert exact_at(obs, 3) and not exact_at(obs, 2)
    # off by default; on with the setting, and only as few tricks remain
    assert not isinstance(searcher(obs, random.Random(1), 10, lambda: 0.0), Solve)
    assert isinstance(searcher(obs, random.Random(1), 10, lambda: 0.0, endgame=3), Solve)
    assert not isinstance(searcher(obs, random.Random(1), 10, lambda: 0.0, endgame=2), Solve)


@pytest.mark.parametrize("players", quick_first((3, 4)))
def test_a_bot_with_endgame_plays_legal_moves_from_its_observation_only(players: int) -> None:
    """The blind-bot test (tests/test_bots_are_blind.py) where the endgame is solved."""
    rng = random.Random(players)
    checked = 0
    while checked < 6:
        s = _late(players, rng.choice((1, 2)), rng.getrandbits(31), more=rng.randrange(4))
        me = s.to_act
        assert me is not None
        hidden = [seat for seat in range(4) if seat != me and not (players == 3 and seat == 2)]
        twin, changed = _swap_hidden(s, hidden)
        if not changed or len(s.legal_actions()) == 1:
            continue
        checked += 1
        assert twin.to_json() != s.to_json() and twin.observation(me) == s.observation(me)
        for spec in ("expert:iterations=60;endgame=2", "expert:iterations=60;endgame=2;enumerate=1"):
            choices = [make_bot("jekyll-hyde", spec).choose(
                state.observation(me), state.legal_actions(), random.Random(3))
                for state in (s, twin)]
            assert choices[0] == choices[1] and choices[0] in s.legal_actions()


@pytest.mark.parametrize("players", (3, 4))
def test_the_listed_worlds_are_every_world_a_sample_can_be(players: int) -> None:
    for seed in range(6):
        s = _late(players, 2, seed, more=seed % 3)
        sampler = Sampler(s.observation(s.to_act))
        listed = [sampler.world(deal).hands for deal in sampler.hands(10_000) or []]
        assert s.hands in listed and len(set(listed)) == len(listed)
        rng = random.Random(seed)
        assert {sampler.sample(rng).hands for _ in range(200)} <= set(listed)
        assert sampler.hands(len(listed) - 1) is None  # too many for that limit
