"""Dracula's search module: sampled worlds fit the observation exactly and never
depend on the hidden cards; the fast path agrees with `apply`; `strong` plays
legal placements."""

from __future__ import annotations

import random

from game import new_game
from game.bots.search import SearchBot
from game.dracula.cards import DECK, NAIL
from game.dracula.rules import DraculaState, Table
from game.dracula.search import Sampler, at_horizon, playout_action, utility


def random_states(count, seed):
    """States of random games at every stage (the way, each deal), none over."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        state = new_game("dracula", None, seed=rng.getrandbits(31))
        for _ in range(rng.randrange(0, 49)):
            state = state.apply(rng.choice(state.legal_actions()))
        if state.to_act is not None:
            found.append(state)
    return found


def replay(table, state):
    """The game of `state` replayed on another table (another pack order)."""
    s = DraculaState.start(table)
    if state.ways is not None:
        s = s.apply("way:" + state.ways[table.first_dealer])
    for entry in state.history:
        for move in entry["moves"]:
            s = s.apply(move)
    for move in state.moves:
        s = s.apply(move)
    return s


def test_sampled_worlds_reproduce_the_observation():
    rng = random.Random(1)
    for state in random_states(60, seed=1):
        for player in (0, 1):
            obs = state.observation(player)
            sampler = Sampler(obs)
            for _ in range(3):
                world = sampler.sample(rng)
                assert world.observation(player) == obs
                if player == state.to_act:
                    assert world.legal_actions() == state.legal_actions()
                # The sampled pack is a whole pack that deals this very game.
                assert sorted(world.table.deck) == sorted(DECK)
                again = replay(world.table, state)
                assert again.observation(player) == obs
                assert again.hands == world.hands


def test_the_sampler_never_reads_hidden_cards():
    """Two games that differ only in cards the player has not seen (the
    opponent's hand and the stock) give the same worlds for the same seed."""
    rng = random.Random(2)
    for state in random_states(40, seed=2):
        if state.ways is None:
            continue
        player = state.to_act
        hidden = list(state.hands[1 - player])
        start = 9 * (state.deal_number + 1)
        hidden_at = [i for i, c in enumerate(state.table.deck) if c in hidden or i >= start]
        cards = [state.table.deck[i] for i in hidden_at]
        rng.shuffle(cards)
        deck = list(state.table.deck)
        for i, c in zip(hidden_at, cards):
            deck[i] = c
        other = replay(Table(None, 0, [{"deck": deck}]), state)
        obs = state.observation(player)
        assert other.observation(player) == obs
        a = Sampler(obs).sample(random.Random(9))
        b = Sampler(other.observation(player)).sample(random.Random(9))
        assert a.hands == b.hands and a.table.deck == b.table.deck


def test_apply_in_place_agrees_with_apply():
    rng = random.Random(3)
    for _ in range(20):
        state = new_game("dracula", None, seed=rng.getrandbits(31))
        fast = state.apply(state.legal_actions()[0])
        state = fast
        fast = fast.apply(fast.legal_actions()[0])
        state = state.apply(fast.moves[-1])
        while state.to_act is not None:
            action = rng.choice(state.legal_actions())
            state = state.apply(action)
            fast.apply_in_place(action)
            assert fast.to_json() == state.to_json()


def test_playouts_reach_the_end_of_the_deal_with_legal_placements():
    rng = random.Random(4)
    for state in random_states(30, seed=4):
        obs = state.observation(state.to_act)
        world = Sampler(obs).sample(rng)
        s = world.apply(world.legal_actions()[0])
        while not at_horizon(world, s):
            action = playout_action(s, rng)
            assert action in s.legal_actions()
            s.apply_in_place(action)
        for player in (0, 1):
            assert 0.0 <= utility(world, s, player) <= 1.0


def test_strong_chooses_legal_actions():
    for state in random_states(8, seed=5):
        obs, legal = state.observation(state.to_act), state.legal_actions()
        action = SearchBot(iterations=40).choose(obs, legal, random.Random(6))
        assert action in legal


def test_the_nail_is_the_sampled_decks_ninth_card():
    state = new_game("dracula", None, seed=8).apply("way:K")
    world = Sampler(state.observation(1)).sample(random.Random(1))
    assert world.table.deck[8] == state.grid[NAIL]
