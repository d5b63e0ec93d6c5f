"""Bots for Dr. Jekyll & Mr. Hyde: always legal, see only their observation, and
the heuristic is a real strategy."""

from __future__ import annotations

import random

import pytest

from game import GameError, new_game
from game.bots import bot_names, make_bot
from game.core.match import play_out, simulate
from tests.strength import quick_first

MODES = [{"players": 4, "seating": "A"}, {"players": 4, "seating": "B"}, {"players": 3}]


@pytest.mark.parametrize("options", quick_first(MODES))
def test_heuristic_always_chooses_a_legal_action(options):
    bot = make_bot("jekyll-hyde", "heuristic")
    rng = random.Random(3)
    for seed in range(6):
        state = new_game("jekyll-hyde", dict(options, target=200), seed=seed)
        while state.to_act is not None:
            legal = state.legal_actions()
            action = bot.choose(state.observation(state.to_act), legal, rng)
            assert action in legal
            state = state.apply(action)


def test_bots_receive_only_the_observation():
    seen = []

    class Spy:
        name = "spy"

        def choose(self, observation, legal, rng, deadline=None):
            seen.append((observation, legal))
            return legal[0]

    state = new_game("jekyll-hyde", {"target": 100}, seed=9)
    spy = Spy()
    final = play_out(state, {p: spy for p in range(4)}, {p: random.Random(p) for p in range(4)})
    assert final.to_act is None and seen
    for observation, legal in seen:
        assert observation["legal"] == legal
        assert "hands" not in observation  # the omniscient view is never handed out


def test_heuristic_decision_depends_only_on_what_it_sees():
    """Swapping cards between two hands the bot cannot see never changes its choice."""
    from tests.test_jekyll_hyde_properties import _swap_hidden

    bot = make_bot("jekyll-hyde", "heuristic")
    rng = random.Random(0)
    checked = 0
    for seed in range(40):
        state = new_game("jekyll-hyde", {"dealer": seed % 4}, seed=seed)
        for _ in range(rng.randrange(0, 20)):
            state = state.apply(rng.choice(state.legal_actions()))
        me = state.to_act
        hidden = [s for s in range(4) if s != me]
        other, changed = _swap_hidden(state, hidden)
        if not changed:
            continue
        a = bot.choose(state.observation(me), state.legal_actions(), random.Random(seed))
        b = bot.choose(other.observation(me), other.legal_actions(), random.Random(seed))
        assert a == b
        checked += 1
    assert checked > 20


@pytest.mark.slow  # a match of whole games
def test_heuristic_beats_random():
    result = simulate("jekyll-hyde", ["heuristic", "random"], 8, seed=5, options={"target": 300})
    assert result.win_rate()["heuristic"] >= 0.75


def test_bot_registry():
    assert bot_names("jekyll-hyde") == ["random", "easy", "heuristic", "strong", "expert"]
    with pytest.raises(GameError, match="no bot 'genius'"):
        make_bot("jekyll-hyde", "genius")


@pytest.mark.parametrize("options", MODES)
def test_hand_gains_are_what_each_camp_scored_in_the_first_hand(options):
    from game.jekyll_hyde import hand_gains, sides

    rng = random.Random(4)
    state = new_game("jekyll-hyde", options, seed=11)
    bots = {state.identity(s): make_bot("jekyll-hyde", "random") for s in range(4)
            if state.identity(s) is not None}
    first = play_out(state, bots, {who: rng for who in bots},
                     until=lambda s: hand_gains(s) is not None)
    assert first.to_act is not None and len(first.history) == 1  # stopped after one hand
    score = first.history[0]["score"]
    gains = hand_gains(first)
    camps = sides(options)
    if options["players"] == 3:  # the first camp is the first hand's soloist: Hyde
        assert first.history[0]["soloist"] == camps["first"][0]
        assert [gains[who] for who in camps["first"]] == [score["hyde"]]
        assert [gains[who] for who in camps["others"]] == [score["jekyll"]] * 2
    else:
        for team in ("jekyll", "hyde"):
            assert [gains[seat] for seat in camps[team]] == [score[team]] * 2


@pytest.mark.parametrize("options", quick_first(MODES))
def test_a_match_in_hands_plays_each_deal_as_one_hand_per_seating(options):
    result = simulate("jekyll-hyde", ["heuristic", "random"], 6, seed=2, options=options,
                      unit="hands")
    assert result.unit == "hands" and result.games == 6 and "6 hands" in result.table()
    assert result.points["heuristic"] + result.points["random"] == 6
    assert set(result.first_scores) <= {0.0, 0.5, 1.0}
    games = simulate("jekyll-hyde", ["heuristic", "random"], 2, seed=2, options=options)
    assert games.unit == "games"


def test_only_a_game_scored_hand_by_hand_is_measured_in_hands():
    from game.core.state import BadOptionsError

    with pytest.raises(BadOptionsError, match="dracula is not scored hand by hand"):
        simulate("dracula", ["random", "random"], 2, seed=1, unit="hands")
    with pytest.raises(BadOptionsError, match="unit must be one of games, hands"):
        simulate("jekyll-hyde", ["random", "random"], 2, seed=1, unit="tricks")
