"""The duel's observation names the card winning the trick under way
(`winning`, issue 15): the lead so far, and during a green swap the card the
rules decided for; both players see the same."""

from __future__ import annotations

import random

import pytest

from game import new_game


@pytest.mark.parametrize("seed", range(1, 13))
def test_winning_is_the_lead_so_far_and_the_taken_card_during_a_swap(seed):
    state = new_game("jekyll-vs-hyde", {}, seed)
    rng = random.Random(seed)
    held = None  # the winning card shown while a swap held the trick
    seen = {"lead": 0, "swap": 0}
    while not state.over:
        views = [state.observation(p)["winning"] for p in ("J", "H")]
        assert views[0] == views[1]
        winning, trick = views[0], state.observation("J")["trick"]
        if not trick["cards"]:
            assert winning is None
        elif len(trick["cards"]) == 1:
            assert winning == {"player": trick["leader"], "card": trick["cards"][0],
                               "so_far": True}
            seen["lead"] += 1
        else:  # a green Potion's swap holds the finished trick
            assert winning["so_far"] is False and winning["card"] in trick["cards"]
            held = held or winning
            seen["swap"] += 1
        state = state.apply(rng.choice(state.legal_actions()))
        won = [e for e in state.events("J") if e["kind"] == "trick_won"]
        if held and won:
            assert (won[0]["winner"], won[0]["card"]) == (held["player"], held["card"])
            held = None
    assert seen["lead"]
