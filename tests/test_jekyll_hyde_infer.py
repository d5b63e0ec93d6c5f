"""Werner's `infer=1`: worlds weighted by how likely they make the hidden
seats' own card choices so far in the hand (`Evidence` in
game/jekyll_hyde/search.py), from the observation alone, in both modes."""

from __future__ import annotations

import random

import pytest

from game import new_game
from game.jekyll_hyde.rules import JekyllHydeState
from game.jekyll_hyde.search import Sampler, _kind
from tests.test_jekyll_hyde_properties import _swap_hidden

# Seats 0 and 2 play Jekyll, 1 and 3 Hyde; the dealer is 3, so seat 0 leads.
HANDS = {"0": ["JA", "JB", "JF3", "HT", "HA", "HB", "HF3"],
         "1": ["J3", "J2", "JF7", "JE", "H1", "H2", "HC"],
         "2": ["JT", "JC", "JD", "JF4", "HF5", "HF6", "H3"],
         "3": ["JF5", "JF6", "J1", "HF4", "HD", "HE", "HF7"]}


def _position(*actions: str) -> JekyllHydeState:
    state = new_game("jekyll-hyde", {"players": 4, "dealer": 3}, seed=1,
                     deals=[{"hands": HANDS}])
    for action in actions:
        state = state.apply(action)
    assert isinstance(state, JekyllHydeState)
    return state


def test_a_seat_that_did_not_beat_the_trick_likely_could_not() -> None:
    """Seat 0 leads JF3 (a location, rank 1); seat 1, for Hyde, puts down
    his own H1 (an action, rank 0), leaving the trick to Jekyll. A hand of
    his that held characters (any beats a location) made that play less
    likely than one that held only other actions."""
    state = _position("JF3", "H1")
    obs = state.observation(0)
    assert _kind([(0, "JF3")], 1, 1, state.table.side) == "beat"
    evidence = Sampler(obs, infer=True).evidence
    assert evidence is not None and list(evidence.turns) == [(1, "H")]
    assert evidence.weight(1, "H", ("HC", "HD")) < 0.5 * evidence.weight(1, "H", ("H2", "H3"))
    # Sampled: the characters turn up in his hand less often than uniformly.
    counts = {}
    for infer in (False, True):
        sampler, rng = Sampler(obs, infer=infer), random.Random(4)
        counts[infer] = sum(len({"HC", "HD", "HE"}.intersection(sampler.sample(rng).hands[3]))
                            for _ in range(2000))
    # Uniform: his 2 Hyde cards among 9 unseen, 2000 x 2 x 3 / 9 = 1333 expected.
    assert 1200 < counts[False] < 1470
    assert counts[True] < 0.75 * counts[False]


def test_a_seat_smearing_on_its_teams_trick_likely_held_nothing_dearer() -> None:
    """Seat 0 leads JF3, seat 1 takes the lead for Hyde with HC, seat 2
    cannot or will not beat it (JF4), and seat 3, last and Hyde, puts HF7 (7
    points) on his partner's trick: a hand of his that still held Hyde's own
    actions (worth more to Hyde) made that less likely than one that held
    only cheaper cards."""
    state = _position("JF3", "HC", "JF4", "HF7")
    prev = [(0, "JF3"), (1, "HC"), (2, "JF4")]
    assert _kind(prev, 3, 3, state.table.side) == "smear"
    evidence = Sampler(state.observation(0), infer=True).evidence
    assert evidence is not None and (3, "H") in evidence.turns
    assert evidence.weight(3, "H", ("H1", "H2", "H3")) \
        < 0.5 * evidence.weight(3, "H", ("HD", "HE", "HF4"))


def test_only_the_hidden_seats_own_choices_count() -> None:
    """Before any hidden seat has chosen a card nothing is weighed; the
    observer's own cards and designations tell nothing about the others."""
    state = _position("JA")  # seat 0 plays his own card
    assert Sampler(state.observation(0), infer=True).evidence is None
    # Seat 1 now plays his own Hyde card: seen from seat 0, that is evidence;
    # seen from seat 1 (his own choice), it is not.
    state = state.apply("H1")
    assert Sampler(state.observation(0), infer=True).evidence is not None
    ev = Sampler(state.observation(2), infer=True).evidence
    assert ev is not None and set(ev.turns) == {(1, "H")}
    state = state.apply("JC").apply("HD")  # seat 2, then seat 3
    ev = Sampler(state.observation(1), infer=True).evidence
    assert ev is not None and set(ev.turns) <= {(0, "J"), (2, "J"), (3, "H")}
    assert (1, "H") not in ev.turns


def test_the_soloists_pick_of_a_ghost_card_weighs_his_hidden_hyde_cards() -> None:
    """With 3 players the soloist (seat 0) takes Hyde cards from his hand or
    the open ghost's (seat 2): taking one of the ghost's is a choice among
    both, so it says something about his own hidden Hyde cards."""
    rng = random.Random(5)
    found = 0
    for seed in range(200):
        state = new_game("jekyll-hyde", {"players": 3}, seed=seed)
        while state.hand_number == 0 and state.to_act is not None:
            state = state.apply(rng.choice(state.legal_actions()))
            ghost_pick = [p for t in state.tricks for p in t[1]] + list(state.plays)
            if any(s in (0, 2) and f == 2 and c[0] == "H" for s, c, f in ghost_pick) \
                    and state.to_act in (1, 3) and state.hands[1]:
                ev = Sampler(state.observation(state.to_act), infer=True).evidence
                assert ev is not None and (0, "H") in ev.turns
                found += 1
                break
        if found >= 3:
            break
    assert found >= 3


def _random_positions(players: int, count: int, seed: int) -> list[JekyllHydeState]:
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        state = new_game("jekyll-hyde", {"players": players, "dealer": rng.randrange(4)},
                         seed=rng.getrandbits(31))
        for _ in range(rng.randrange(0, 28)):
            state = state.apply(rng.choice(state.legal_actions()))
        if state.to_act is not None and state.hand_number == 0:
            assert isinstance(state, JekyllHydeState)
            out.append(state)
    return out


@pytest.mark.parametrize("players", (3, 4))
def test_weighted_worlds_reproduce_the_observation(players: int) -> None:
    rng = random.Random(players)
    for state in _random_positions(players, 30, seed=players):
        me = state.to_act
        assert me is not None
        obs = state.observation(me)
        sampler = Sampler(obs, infer=True)
        for _ in range(4):
            world = sampler.sample(rng)
            assert world.observation(me) == obs
            assert world.legal_actions() == state.legal_actions()


@pytest.mark.parametrize("players", (3, 4))
def test_the_weighted_sampler_never_reads_hidden_cards(players: int) -> None:
    """Two states that differ only in cards the player cannot see give the
    same weighted worlds for the same seed."""
    checked = 0
    for state in _random_positions(players, 40, seed=10 + players):
        me = state.to_act
        assert me is not None
        hidden = [s for s in range(4) if s != me and not (players == 3 and s == 2)]
        twin, changed = _swap_hidden(state, hidden)
        if not changed:
            continue
        obs = state.observation(me)
        assert twin.observation(me) == obs and twin.hands != state.hands
        a, b = Sampler(obs, infer=True), Sampler(twin.observation(me), infer=True)
        checked += a.evidence is not None
        ra, rb = random.Random(9), random.Random(9)
        for _ in range(5):
            assert a.sample(ra).hands == b.sample(rb).hands
    assert checked >= 10


def test_the_model_fit_recovers_a_known_conditional_logit() -> None:
    """benchmarks/werner_play_model.py: picks drawn from a known softmax
    give back its weights (up to sampling noise and the ridge), and a
    uniform model gains nothing over a uniform pick."""
    from tests.benchmark_module import load_benchmark

    model = load_benchmark("werner_play_model")
    rng = random.Random(1)
    true = (1.5, -1.0)
    rows = []
    for _ in range(3000):
        options = [(rng.random(), rng.random()) for _ in range(rng.randrange(2, 6))]
        weights = [2.718281828 ** (true[0] * a + true[1] * b) for a, b in options]
        rows.append((options, rng.choices(range(len(options)), weights)[0]))
    fitted = model.fit(rows, 2)
    assert abs(fitted[0] - true[0]) < 0.3 and abs(fitted[1] - true[1]) < 0.3
    assert model.gain(rows, fitted) > 0.02
    assert model.gain(rows, (0.0, 0.0)) == pytest.approx(0.0, abs=1e-12)
