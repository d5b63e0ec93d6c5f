"""Dracula: properties over thousands of random legal games."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game import new_game, state_from_json
from game.dracula.cards import CELL_INDEX, DECK, NAIL, NEIGHBOURS, line_values, deal_scores
from game.dracula.rules import DraculaState
from tests.strength import examples


def random_game(seed: int, choice_seed: int, first_dealer: int,
                check=None) -> DraculaState:
    state = new_game("dracula", {"first_dealer": first_dealer}, seed=seed)
    rng = random.Random(choice_seed)
    while state.to_act is not None:
        legal = state.legal_actions()
        assert legal and len(set(legal)) == len(legal)
        action = rng.choice(legal)
        after = state.apply(action)
        if check:
            check(state, action, after)
        state = after
    return state


def check_finished(state: DraculaState) -> None:
    data = state.to_json()
    history = data["history"]
    assert len(history) == 6
    # The 54 cards, each exactly once over the six coffins, in the order of the pack.
    placed = [c for h in history for row in h["grid"] for c in row]
    assert sorted(placed) == sorted(DECK)
    deck = state.table.deck
    for k, h in enumerate(history):
        assert h["grid"][1][1] == deck[9 * k + 8]  # the nail
        assert {c for row in h["grid"] for c in row} == set(deck[9 * k:9 * k + 9])
        assert h["dealer"] == data["options"]["first_dealer"] ^ (k & 1)
        # Every placement touches a card already there.
        grid = [None] * 9
        grid[NAIL] = h["grid"][1][1]
        for i, move in enumerate(h["moves"]):
            card, _, cell = move.partition("@")
            at = CELL_INDEX[cell]
            assert grid[at] is None and any(grid[n] for n in NEIGHBOURS[at])
            grid[at] = card
            # Non-dealer first, alternating: the card came from the right hand.
            player = (1 - h["dealer"]) if i % 2 == 0 else h["dealer"]
            dealt = deck[9 * k:9 * k + 8]
            assert dealt.index(card) % 2 == (0 if player != h["dealer"] else 1)
        flat = [c for row in h["grid"] for c in row]
        assert grid == flat
        ways = data["ways"]
        lines = {p: line_values(flat, ways[p]) for p in "01"}
        assert h["lines"] == lines
        a, b = deal_scores(lines["0"], lines["1"])
        assert h["score"] == {"0": a, "1": b}
    totals = {p: sum(h["score"][p] for h in history) for p in "01"}
    assert data["totals"] == totals
    scores = data["scores"]
    if totals["0"] != totals["1"]:
        hi = max(totals, key=totals.get)
        lo = "1" if hi == "0" else "0"
        assert scores[hi] == 2 * totals[hi] - totals[lo] and scores[lo] == totals[lo]
        assert data["winner"] == hi
    else:
        assert (data["winner"] is None) == (scores["0"] == scores["1"])
    assert state.legal_actions() == [] and data["over"]
    assert sum(state.returns().values()) == 1.0


# The quick run plays the first fifty; the full run all of them.
@pytest.mark.parametrize("games", [pytest.param(range(50), id="first"),
                                   pytest.param(range(50, examples(1500)), id="more",
                                                marks=pytest.mark.slow)])
def test_thousands_of_random_games(games: range):
    for n in games:
        check_finished(random_game(seed=n, choice_seed=n * 7 + 1, first_dealer=n % 2))


def _step_checks(before: DraculaState, action: str, after: DraculaState) -> None:
    # Cards in exactly one place: hands, coffin, earlier coffins, stock.
    used = [c for h in after.history for row in h["grid"] for c in row]
    if after.to_act is not None and after.ways is not None:
        used += [c for c in after.grid if c] + list(after.hands[0]) + list(after.hands[1])
        stock = after.table.deck[9 * (after.deal_number + 1):]
        assert sorted(used + list(stock)) == sorted(DECK)
    # The old state is untouched by apply.
    assert before.to_json() == before.to_json()


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31 - 1), choice_seed=st.integers(0, 2**31 - 1),
       first_dealer=st.sampled_from([0, 1]), stop=st.integers(0, 49))
def test_round_trip_and_cards_in_one_place(seed, choice_seed, first_dealer, stop):
    state = new_game("dracula", {"first_dealer": first_dealer}, seed=seed)
    rng = random.Random(choice_seed)
    for _ in range(stop):
        if state.to_act is None:
            break
        legal = state.legal_actions()
        before_json = state.to_json()
        after = state.apply(rng.choice(legal))
        _step_checks(state, legal[0], after)
        assert state.to_json() == before_json
        state = after
    data = state.to_json()
    assert json.loads(json.dumps(data)) == data
    rebuilt = state_from_json(json.loads(json.dumps(data)))
    assert rebuilt.to_json() == data
    assert rebuilt.legal_actions() == state.legal_actions()
    for player in (0, 1):
        obs = state.observation(player)
        assert json.loads(json.dumps(obs)) == obs
        # Nothing of the other hand or the stock anywhere in the observation.
        strings = set(_strings(obs))
        hidden = set(state.hands[1 - player])
        if state.ways is not None and state.to_act is not None:
            hidden |= set(state.table.deck[9 * (state.deal_number + 1):])
        assert not strings & hidden
        assert obs["hand"] == list(state.hands[player])


def _strings(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from _strings(k)
            yield from _strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)


@settings(max_examples=examples(60), deadline=None)
@given(seed=st.integers(0, 2**31 - 1), first_dealer=st.sampled_from([0, 1]),
       hidden_seed=st.integers(0, 2**31 - 1), stop=st.integers(1, 48))
def test_hidden_cards_do_not_change_the_observation(seed, first_dealer, hidden_seed, stop):
    """Reshuffle the cards a player cannot see: his observations stay the same."""
    state = new_game("dracula", {"first_dealer": first_dealer}, seed=seed)
    rng = random.Random(seed)
    actions = []
    for _ in range(stop):
        if state.to_act is None:
            break
        action = rng.choice(state.legal_actions())
        actions.append(action)
        state = state.apply(action)
    if state.to_act is None or state.ways is None:
        return
    viewer = state.to_act
    twin = reshuffled_twin(state, actions, viewer, hidden_seed)
    assert twin.observation(viewer) == state.observation(viewer)


def reshuffled_twin(state, actions, viewer, hidden_seed):
    """The game of `state` (reached by `actions`) dealt again with the cards
    `viewer` has not seen reshuffled: the opponent's unplayed cards and the stock."""
    deck = list(state.table.deck)
    k = state.deal_number
    dealer = state.dealer
    opp_slots = [9 * k + i for i in range(8)
                 if (i % 2 == 0) == (viewer == dealer) and deck[9 * k + i] in state.hands[1 - viewer]]
    slots = opp_slots + list(range(9 * (k + 1), 54))
    hidden = [deck[i] for i in slots]
    random.Random(hidden_seed).shuffle(hidden)
    other = list(deck)
    for i, card in zip(slots, hidden):
        other[i] = card
    twin = new_game("dracula", state.table.options, seed=state.table.seed + 1,
                    deals=[{"deck": other}])
    for action in actions:
        twin = twin.apply(action)
    return twin
