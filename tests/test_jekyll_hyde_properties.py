"""Dr. Jekyll & Mr. Hyde: properties over thousands of random legal games."""

from __future__ import annotations

import json
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from game import new_game, state_from_json
from game.jekyll_hyde.cards import DECK, MULTIPLIER, POINTS
from tests.strength import examples

MODES = [{"players": 4, "seating": "A"}, {"players": 4, "seating": "B"}, {"players": 3}]
mode = st.sampled_from(MODES)
seed = st.integers(0, 2**31 - 1)


def random_hand(options, game_seed, action_seed):
    """States of one random hand, from the deal to the first state of the next hand."""
    rng = random.Random(action_seed)
    state = new_game("jekyll-hyde", dict(options, dealer=game_seed % 4), seed=game_seed)
    states = [state]
    while state.hand_number == 0:
        state = state.apply(rng.choice(state.legal_actions()))
        states.append(state)
    return states


def places(state):
    """Every card where it lies, the cards gone with a last Transformation trick excepted."""
    cards = [c for s in range(4) for c in state.hand(s)]
    cards += [c for _, c, _ in state.plays] + list(state.carried)
    cards += [c for team in state.won for c in team]
    return cards


@settings(max_examples=examples(1000), deadline=None)
@given(mode, seed, seed)
def test_every_card_is_always_in_exactly_one_place(options, game_seed, action_seed):
    for state in random_hand(options, game_seed, action_seed)[:-1]:
        counts = Counter(places(state))
        assert set(counts.values()) == {1}
        assert set(counts) == set(DECK)


@settings(max_examples=examples(400), deadline=None)
@given(mode, seed, seed)
def test_tricks_hold_two_cards_of_each_side_and_scores_follow(options, game_seed, action_seed):
    states = random_hand(options, game_seed, action_seed)
    last = states[-2]  # the last trick is on the table but one card
    final = states[-1]
    finished = final.history[0]
    # Complete the last trick as the engine did.
    tricks = last.tricks + ((last.leader, last.plays + (_last_play(last, final),), None),)
    assert len(tricks) == 7
    seen = []
    for _, plays, _ in tricks:
        assert Counter(c[0] for _, c, _ in plays) == {"J": 2, "H": 2}
        assert sorted(s for s, _, _ in plays) == [0, 1, 2, 3]
        seen += [c for _, c, _ in plays]
    assert sorted(seen) == sorted(DECK)
    won = last.won
    for team, side in ((0, "J"), (1, "H")):
        points = finished["points"][("jekyll", "hyde")[team]]
        multiplier = finished["multiplier"][("jekyll", "hyde")[team]]
        assert finished["score"][("jekyll", "hyde")[team]] == points * multiplier
        assert points >= sum(POINTS[c] for c in won[team])
        assert multiplier >= sum(MULTIPLIER[c] for c in won[team] if c[0] == side)
    total_points = finished["points"]["jekyll"] + finished["points"]["hyde"]
    assert total_points <= sum(POINTS.values())


def _last_play(before, after):
    """The card that closed the hand: the one missing from `before`'s hands."""
    held = {c for s in range(4) for c in before.hand(s)}
    (card,) = held
    source = next(s for s in range(4) if card in before.hand(s))
    return (before.turn, card, source)


@settings(max_examples=examples(150), deadline=None)
@given(mode, seed, seed)
def test_json_round_trip_and_apply_leaves_the_old_state_alone(options, game_seed, action_seed):
    rng = random.Random(action_seed)
    states = random_hand(options, game_seed, action_seed)
    for state in states[:: max(1, len(states) // 8)]:
        data = state.to_json()
        text = json.dumps(data)
        again = state_from_json(json.loads(text))
        assert again.to_json() == data
        assert again.legal_actions() == state.legal_actions()
        if state.to_act is not None:
            action = rng.choice(state.legal_actions())
            assert state.apply(action).to_json() == again.apply(action).to_json()
            assert state.to_json() == data


def test_thousands_of_whole_games_never_raise_and_end_with_a_winner():
    rng = random.Random(2024)
    hands, games = 0, examples(300)
    for game_number in range(games):
        options = dict(MODES[game_number % 3])
        state = new_game("jekyll-hyde", options, seed=game_number)
        while state.to_act is not None:
            legal = state.legal_actions()
            assert legal == sorted(set(legal), key=legal.index)
            state = state.apply(rng.choice(legal))
        hands += len(state.history)
        scores = state.to_json()["scores"]
        assert max(scores.values()) >= 1000
        assert scores[state.winner] == max(scores.values())
        assert sum(1 for v in scores.values() if v == max(scores.values())) == 1
        if options["players"] == 4:
            assert scores == {
                team: sum(h["score"][team] for h in state.history) for team in scores}
    assert hands > 20 * games // 3  # 2000 in 300 games: games run to 1000 points


@settings(max_examples=examples(200), deadline=None)
@given(mode, seed, seed, st.data())
def test_observation_does_not_depend_on_hidden_cards(options, game_seed, action_seed, data):
    """Two states that differ only in cards a player cannot see look the same to him."""
    states = random_hand(options, game_seed, action_seed)
    state = data.draw(st.sampled_from(states[:-1]))
    player = data.draw(st.sampled_from([0, 1, 3] if options["players"] == 3 else [0, 1, 2, 3]))
    hidden = [s for s in range(4) if s != player
              and not (options["players"] == 3 and s == 2)]
    swapped, changed = _swap_hidden(state, hidden)
    if changed:
        assert swapped.to_json()["hands"] != state.to_json()["hands"]
    assert swapped.observation(player) == state.observation(player)
    # And the observation never names a card hidden from the player.
    text = json.dumps(state.observation(player))
    public = {p["card"] for t in state.to_json()["tricks"] for p in t["plays"]}
    public |= set(state.to_json()["carried"]) | {c for _, c, _ in state.plays}
    for seat in hidden:
        for card in state.hand(seat):
            if card not in public:
                assert f'"{card}"' not in text


def _swap_hidden(state, hidden):
    """The same state with one card of each side swapped between two hidden hands."""
    data = state.to_json()
    hands = data["hands"]
    changed = False
    for side in "JH":
        holders = [s for s in hidden if any(c[0] == side for c in hands[str(s)])]
        if len(holders) > 1:
            a, b = (hands[str(s)] for s in holders[:2])
            i = next(i for i, c in enumerate(a) if c[0] == side)
            j = next(j for j, c in enumerate(b) if c[0] == side)
            a[i], b[j] = b[j], a[i]
            changed = True
    return state_from_json(data), changed
