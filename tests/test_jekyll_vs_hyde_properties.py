"""Jekyll vs Hyde: properties over thousands of random legal games."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from game import GameError, new_game, state_from_json
from game.jekyll_vs_hyde.cards import DECK, sort_cards
from tests.strength import examples

GAME = "jekyll-vs-hyde"
OPTIONS = [None, {"variant": "return-match"}]


def cards_in_places(s) -> list[str]:
    places = list(s.hands[0] + s.hands[1] + s.aside + s.plays)
    places += [c for pile in s.piles for t in pile for c in t]
    return places


def check_invariants(s, before=None) -> None:
    # Every card in exactly one place.
    assert sorted(cards_in_places(s)) == sorted(DECK)
    # Tricks counted right: the piles hold two cards each and match the tricks played.
    assert s.tricks["J"] + s.tricks["H"] == len(s.played)
    assert all(len(t) == 2 for pile in s.piles for t in pile)
    assert len(s.hands[0]) + (len(s.plays) == 1 and s.leader == 0) == \
        len(s.hands[1]) + (len(s.plays) == 1 and s.leader == 1)
    for entry in s.history:
        assert entry["tricks"]["J"] + entry["tricks"]["H"] == 10
        assert entry["moved"] == abs(entry["tricks"]["J"] - entry["tricks"]["H"])
    legal = s.legal_actions()
    if s.over:
        assert legal == [] and s.winner in ("J", "H", None)
    else:
        assert legal
        assert len(set(legal)) == len(legal)
    if before is not None and before.leg == s.leg:
        assert s.marker >= before.marker  # evil never retreats


def play_random(seed: int, options=None, each=None):
    rng = random.Random(seed)
    s = new_game(GAME, options, seed=seed)
    check_invariants(s)
    while not s.over:
        action = rng.choice(s.legal_actions())
        after = s.apply(action)
        check_invariants(after, s)
        if each:
            each(s, action, after)
        s = after
    return s


def test_thousands_of_random_games_keep_the_invariants():
    winners = {"J": 0, "H": 0, None: 0}
    for seed in range(examples(1000)):
        end = play_random(seed, OPTIONS[seed % 2])
        winners[end.winner] += 1
        markers = [h["marker"] for h in end.history]
        moved = [h["moved"] for h in end.history]
        # The marker adds up the moves, leg by leg, capped at 10.
        total, leg = 0, 1
        for h, m in zip(end.history, markers):
            if h["leg"] != leg:
                total, leg = 0, h["leg"]
            total = min(10, total + h["moved"])
            assert m == total
        assert all(x % 2 == 0 for x in moved)  # ten tricks: the difference is even
        if end.table.variant == "standard":
            assert end.winner == ("H" if end.marker >= 10 else "J")
            assert (end.marker >= 10) or len(end.history) == 3
    assert winners["J"] and winners["H"]


@settings(max_examples=examples(60), deadline=None)
@given(st.integers(0, 2**31 - 1), st.sampled_from(OPTIONS))
def test_save_and_restore_anywhere(seed, options):
    def each(s, action, after):
        data = json.loads(json.dumps(s.to_json()))
        again = state_from_json(data)
        assert again.to_json() == data
        assert again.apply(action).to_json() == after.to_json()
        assert s.to_json() == data  # the old state stays valid

    play_random(seed, options, each)


@settings(max_examples=examples(60), deadline=None)
@given(st.integers(0, 2**31 - 1))
def test_every_legal_action_applies_and_others_raise(seed):
    rng = random.Random(seed)

    def each(s, action, after):
        legal = s.legal_actions()
        for a in (legal if len(legal) <= 12 else rng.sample(legal, 12)):
            s.apply(a)
        for wrong in ("P0", "give:", "swap:P1", "R5:G", "5+", "give:P1,P2,P3,P4"):
            if wrong not in legal:
                try:
                    s.apply(wrong)
                except GameError as e:
                    assert "legal:" in str(e) or "not an action" in str(e)
                else:
                    raise AssertionError(f"{wrong!r} applied in phase {s.phase}")

    play_random(seed, None, each)


def hidden_twin(s, me: int):
    """The same state with one card of the other hand exchanged with one set aside.

    Built on a copy, not through a save: a save must follow from its round's
    play, and the twin's other hand did not (it may have had to follow suit)."""
    other = 1 - me
    x, y = s.hands[other][0], s.aside[0]

    def swap(cards):
        return sort_cards(y if c == x else x if c == y else c for c in cards)

    twin = s._copy()
    twin.hands = tuple(swap(h) if i == other else h for i, h in enumerate(s.hands))
    twin.aside = swap(s.aside)
    twin.pending = tuple(p if p is None or i != other else swap(p)
                         for i, p in enumerate(s.pending))
    return twin


@settings(max_examples=examples(80), deadline=None)
@given(st.integers(0, 2**31 - 1))
def test_observation_never_depends_on_hidden_cards(seed):
    def each(s, action, after):
        for me, role in enumerate("JH"):
            if not s.hands[1 - me]:
                continue
            obs = s.observation(role)
            assert obs["hand"] == list(s.hands[me])
            twin = hidden_twin(s, me)
            assert twin.observation(role) == obs
            text = json.dumps(obs)
            assert '"aside"' not in text and '"seed"' not in text and '"deals"' not in text
            assert '"pending"' not in text and '"piles"' not in text

    play_random(seed, None, each)


@settings(max_examples=examples(40), deadline=None)
@given(st.integers(0, 2**31 - 1))
def test_second_chooser_sees_nothing_of_the_first_choice(seed):
    def each(s, action, after):
        if s.phase in ("give", "swap") and s.to_act == "J":
            legal = s.legal_actions()
            others = [a for a in legal if a != action]
            if others:
                twin = s.apply(others[-1])
                assert twin.observation("H") == after.observation("H")

    play_random(seed, None, each)


def _paths(data, prefix=()):
    if isinstance(data, dict):
        items = data.items()
    elif isinstance(data, list):
        items = enumerate(data)
    else:
        return
    for key, value in items:
        yield prefix + (key,)
        yield from _paths(value, prefix + (key,))


def test_damaged_saves_raise_bad_state_error_or_load():
    rng = random.Random(0)
    saves = []
    for seed in range(8):
        s = new_game(GAME, OPTIONS[seed % 2], seed=seed)
        while not s.over:
            if rng.random() < 0.05:
                saves.append(s.to_json())
            s = s.apply(rng.choice(s.legal_actions()))
        saves.append(s.to_json())
    junk = [None, 1, -1, "x", [], {}, [None], True, 99, ["P1"], {"J": 1}]
    for _ in range(examples(1500)):
        data = json.loads(json.dumps(rng.choice(saves)))
        path = rng.choice(list(_paths(data)))
        target = data
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = rng.choice(junk)
        try:
            s = state_from_json(data)
        except GameError as e:
            assert type(e).__name__ == "BadStateError", e
            continue
        s.to_json()
        for role in "JH":
            s.observation(role)
        if not s.over:
            s.apply(rng.choice(s.legal_actions()))
