"""Dracula's search module: sampled worlds fit the observation exactly and never
depend on the hidden cards; the fast path agrees with `apply`; the exact
solver agrees with plain minimax; `strong` plays legal placements."""

from __future__ import annotations

import itertools
import math
import random
import time
from collections import Counter

import pytest

from game import new_game
from game.bots.search import SearchBot, Solve, searcher
from game.dracula.bots import _Scorer, solve
from game.dracula.cards import CELL_INDEX, DECK, NAIL, NEIGHBOURS
from game.dracula.rules import DraculaState, Table
from game.dracula.search import (
    SOLVE_FROM, Sampler, at_horizon, deal_value, playout_action, same_worth, solver, utility,
)
from tests.strength import examples


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
    for state in random_states(examples(60), seed=1):  # (a quarter: the quick run)
        for player in (0, 1):
            obs = state.observation(player)
            sampler = Sampler(obs, infer=rng.random() < 0.5)  # weighted by his plays or not
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
        for infer in (False, True):
            a = Sampler(obs, infer=infer).sample(random.Random(9))
            b = Sampler(other.observation(player), infer=infer).sample(random.Random(9))
            assert a.hands == b.hands and a.table.deck == b.table.deck


def _after_a_weak_first_placement(then=()):
    """Deal one: he scores the columns, the nail is the King of Hearts, and he
    (to play first, holding only low cards) puts the 2 of Clubs beside it in
    the middle row, mine.  A high Heart above or below the nail would have
    begun a column of one suit (worth five times its cards)."""
    his, mine = ["2C", "3C", "4C", "5S"], ["6S", "7S", "8C", "9C"]
    deck = [c for pair in zip(his, mine) for c in pair] + ["KH"]
    deck += [c for c in DECK if c not in deck]
    state = DraculaState.start(Table(None, 0, [{"deck": deck}])).apply("way:Q")
    assert state.ways == ("Q", "K") and state.to_act == 1
    state = state.apply("2C@10")
    for action in then:
        state = state.apply(action)
    return state.observation(state.to_act)


def test_inference_makes_the_cards_his_placement_passed_over_less_likely():
    obs = _after_a_weak_first_placement()
    high_hearts = {"10H", "9H", "8H"}
    counts = {}
    for infer in (False, True):
        sampler, rng = Sampler(obs, infer=infer), random.Random(5)
        counts[infer] = sum(len(high_hearts.intersection(sampler.sample(rng).hands[1]))
                            for _ in range(3000))
    # Uniform: 3 of his 3 cards among 48 unseen, 3000 x 3 x 3 / 48 = 562 expected.
    assert 480 < counts[False] < 640
    assert counts[True] < 0.75 * counts[False]


def test_inference_weighs_hands_by_his_placements_alone():
    obs = _after_a_weak_first_placement()
    evidence = Sampler(obs, infer=True).evidence
    assert evidence is not None and len(evidence.turns) == 1
    # A hand with a high Heart made his placement less likely than one without.
    assert evidence.weight(["10H", "3D", "4S"]) < evidence.weight(["JS", "3D", "4S"])
    # Before he has placed a card nothing is known of his hand: no weighting.
    first = DraculaState.start(Table(None, 0, [{"deck": list(DECK)}])).apply("way:Q")
    sampler = Sampler(first.observation(first.to_act), infer=True)
    assert sampler.evidence is not None and not sampler.evidence.turns


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


def plain_minimax(scorer, grid, mine, his, my_turn):
    """Every line of play, no pruning: the yardstick for `solve`."""
    hand = mine if my_turn else his
    if not hand:
        return scorer.diff(grid)
    values = []
    for card in hand:
        rest = tuple(c for c in hand if c != card)
        for cell in range(9):
            if grid[cell] is None and any(grid[n] is not None for n in NEIGHBOURS[cell]):
                grid[cell] = card
                values.append(plain_minimax(scorer, grid, rest if my_turn else mine,
                                            his if my_turn else rest, not my_turn))
                grid[cell] = None
    return max(values) if my_turn else min(values)


def endgames(count, seed, most_empty=5):
    """Positions of random deals with at most `most_empty` empty cells, someone to place."""
    return [s for s in random_states(count * 8, seed)
            if s.ways is not None and sum(c is None for c in s.grid) <= most_empty][:count]


def test_solve_agrees_with_plain_minimax_inside_its_window():
    rng = random.Random(7)
    for state in endgames(20, seed=7, most_empty=4):
        me = state.to_act
        scorer = _Scorer(state.ways, me)
        mine, his = state.hands[me], state.hands[1 - me]
        exact = plain_minimax(scorer, list(state.grid), mine, his, True)
        assert solve(scorer, list(state.grid), mine, his, True) == exact
        lo = rng.randint(-40, 10)
        hi = lo + rng.randint(1, 40)
        windowed = solve(scorer, list(state.grid), mine, his, True, lo, hi)
        assert min(hi, max(lo, windowed)) == min(hi, max(lo, exact))


def test_the_solver_values_each_placement_as_perfect_play_would():
    for state in endgames(12, seed=8, most_empty=4):
        me = state.to_act
        world = Sampler(state.observation(me)).sample(random.Random(1))
        placement = solver(world, me)
        value = deal_value(world, me)[0]
        scorer = _Scorer(world.ways, me)
        for action in world.legal_actions():
            card, _, cell = action.partition("@")
            grid = list(world.grid)
            grid[CELL_INDEX[cell]] = card
            rest = tuple(c for c in world.hands[me] if c != card)
            exact = plain_minimax(scorer, grid, rest, world.hands[1 - me], False)
            assert placement(action) == pytest.approx(value(exact))


def test_a_deals_worth_grows_with_the_difference_and_settles_outside_its_range():
    for state in random_states(20, seed=9):
        for player in (0, 1):
            value, lo, hi = deal_value(state, player)
            worths = [value(d) for d in range(-300, 301)]
            assert worths == sorted(worths) and 0 <= worths[0] and worths[-1] <= 1
            assert value(lo - 50) == value(lo) and value(hi + 50) == value(hi)


def test_the_last_placements_are_solved_world_by_world():
    for state in random_states(examples(40), seed=10):  # (a quarter: the quick run)
        obs = state.observation(state.to_act)
        empty = sum(c is None for c in state.grid)
        search = searcher(obs, random.Random(1), 30, time.monotonic)
        assert isinstance(search, Solve) == (state.ways is not None and empty <= SOLVE_FROM)
        while not search.done(float("inf")):
            search.iterate()
        assert search.best(state.legal_actions()) in state.legal_actions()


def test_the_cheater_solves_the_real_deal():
    """Seeing every card, one world is all there is: the cheater's choice is a
    placement that perfect play rates best in the real deal."""
    for state in endgames(6, seed=11, most_empty=4):
        me = state.to_act
        search = searcher(state.observation(me), random.Random(1), None, time.monotonic,
                          world=state)
        while not search.done(float("inf")):
            search.iterate()
        placement = solver(state, me)
        best = max(placement(a) for a in state.legal_actions())
        assert placement(search.best(state.legal_actions())) == best


def test_mirror_placements_are_worth_the_same_in_every_world():
    state = new_game("dracula", None, seed=12).apply("way:Q")
    # The nail alone: the four cells around it are two pairs of mirror images.
    alias = same_worth(state.observation(state.to_act))
    assert len(alias) == 16 and len(set(alias.values())) == 8
    # A card above the nail: only the left-right mirror is left.
    state = state.apply(next(a for a in state.legal_actions() if a.endswith("@01")))
    me = state.to_act
    obs = state.observation(me)
    alias = same_worth(obs)
    assert {a.partition("@")[2] for a in alias.values()} == {"00", "10", "21"}
    assert alias[state.hands[me][0] + "@02"] == state.hands[me][0] + "@00"
    world = Sampler(obs).sample(random.Random(12))
    placement = solver(world, me)
    for action, twin in alias.items():
        if action != twin:
            assert placement(action) == placement(twin)


def test_his_last_cards_are_drawn_from_every_possible_hand_by_its_weight():
    """With his two last cards there are few hands: each is drawn as often as
    its weight says (exact), the cards' shares matching the weights' sums."""
    obs = _after_a_weak_first_placement(then=("6S@12", "3C@00"))
    sampler = Sampler(obs, infer=True)
    evidence = sampler.evidence
    assert evidence is not None and len(evidence.turns) == 2 and sampler.opp_held == 2
    hands = list(itertools.combinations(sampler.unseen, 2))
    total = sum(evidence.weight(h) for h in hands)
    share = {c: sum(evidence.weight(h) for h in hands if c in h) / total
             for c in sampler.unseen}
    rng, draws = random.Random(8), 4000
    counts = Counter(c for _ in range(draws) for c in sampler.sample(rng).hands[1])
    assert evidence.hands is not None and len(evidence.hands) == len(hands)
    for card, p in share.items():
        assert abs(counts[card] / draws - p) < 4 * math.sqrt(p * (1 - p) / draws) + 1e-9
    # The weights do tell: the likeliest card is far more likely than the least.
    assert max(share.values()) > 2 * min(share.values())
