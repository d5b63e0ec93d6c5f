"""What the game-independent search bot (`strong`) needs from Jekyll vs Hyde.

- `Sampler(observation)`: worlds consistent with what that player has seen:
  his hand, every card played this round, the cards he gave (still held by
  the other unless played), the colours the other showed he lacks; the rest
  of the unseen cards are split between the other hand and the five aside.
  A choice the other made first (Jekyll's exchange or swap, when Hyde
  decides) is guessed too. `hands(limit)` lists every hand the other may
  hold (all equally likely) and `world(hand)` makes the world in which he
  holds it: the search bot's `enumerate=1` draws each once before any again
  (not while a choice of his must be guessed).
- `at_horizon` / `utility`: a search looks to the end of the current round
  and values it by where the marker ends (Hyde reaching 10 is a sure loss
  for Jekyll; after round 3 anything less is a sure win).
- `playout_action`: a quick player for the sampled worlds that wants what
  its role wants (Jekyll level counts, Hyde a gap), with full sight of *that*
  world since it is a guess, not the truth.
- `stage`: early or late in the round, for the iteration caps the search
  reaches in the browser (game/bots/browser_caps.json).
- `exact_at` / `solver`: a search bot with the setting `endgame=N` values
  each action exactly in each sampled world once its hand holds N cards or
  fewer (`game.jekyll_vs_hyde.endgame`: alpha-beta with a transposition
  table over the rest of the round).
"""

from __future__ import annotations

import random
from itertools import combinations
from typing import Any, Callable, Sequence

from game.jekyll_vs_hyde.bots import Knowledge, resolve
from game.jekyll_vs_hyde.cards import COLOUR, COLOURS, VALUE, sort_cards
from game.jekyll_vs_hyde.endgame import Endgame, at_horizon, utility
from game.jekyll_vs_hyde.rules import (
    GIVE, PLAY, ROLES, SWAP, JekyllVsHydeState, Table, give_count,
)

_PLACEHOLDER = ("", "")  # a sampled world only needs the number of tricks in each pile


class Sampler:
    """Draws full states that fit one observation."""

    def __init__(self, obs: dict[str, Any]) -> None:
        self.obs = obs
        self.me = ROLES.index(obs["player"])
        self.knowledge = Knowledge(obs)
        self.guesses_choice = obs["phase"] in (GIVE, SWAP) and self.me == 1
        self.table = Table(obs["options"], 0, None)
        self.played = tuple(
            (ROLES.index(t["leader"]), t["lead"], t["named"], t["follow"],
             ROLES.index(t["winner"]), t["effect"], t["stolen"]) for t in obs["played"])
        self.piles = tuple((_PLACEHOLDER,) * obs["tricks"][r] for r in ROLES)
        me = obs["player"]
        gave, got = tuple(obs["exchange"]["gave"]), tuple(obs["exchange"]["got"])
        self.given = (gave, got) if me == "J" else (got, gave)
        self.swaps = tuple(((tuple(w["gave"]), tuple(w["got"])) if me == "J"
                            else (tuple(w["got"]), tuple(w["gave"]))) for w in obs["swaps"])
        trick = obs["trick"]
        self.plays = tuple(trick["cards"])
        self.trick_winner = -1
        if obs["phase"] == SWAP:  # a green Potion: the higher number takes the trick
            lead, follow = self.plays
            leader = ROLES.index(trick["leader"])
            self.trick_winner = 1 - leader if VALUE[follow] > VALUE[lead] else leader

    def sample(self, rng: random.Random) -> JekyllVsHydeState:
        s = self.world(self.knowledge.sample(rng))
        if self.guesses_choice:
            # Jekyll has chosen already; guess what.
            count = give_count(s.round) if s.phase == GIVE else s.swap_count()
            choices: list[tuple[str, ...]] = list(combinations(s.hands[0], count))
            if s.must_give_potion(0):
                choices = [c for c in choices if any(COLOUR[x] is None for x in c)]
            s.pending = (rng.choice(choices), None)
        return s

    def hands(self, limit: int) -> list[tuple[str, ...]] | None:
        """Every hand the opponent may hold, each once (`sample` draws them
        all equally likely), if there are at most `limit`; None if there are
        more, or if his choice made first (Jekyll's exchange or swap, when
        Hyde decides) would have to be guessed as well."""
        k = self.knowledge
        if self.guesses_choice or k.hand_count() > limit:
            return None
        return [tuple(hand) for hand in k.hands()]

    def world(self, other: Sequence[str]) -> JekyllVsHydeState:
        """The world in which the opponent holds `other` (the rest of the
        unseen cards aside)."""
        obs, k, me = self.obs, self.knowledge, self.me
        drawn = set(other)
        aside = tuple(c for c in k.pool if c not in drawn)
        hands: list[tuple[str, ...]] = [(), ()]
        hands[me] = tuple(obs["hand"])
        hands[1 - me] = sort_cards(other)
        s = _World.__new__(_World)
        s.table = self.table
        s.leg = obs["leg"] - 1
        s.round = obs["round"]
        s.deal_number = 0
        s.marker = obs["marker"]
        s.phase = obs["phase"]
        s.hands = (hands[0], hands[1])
        s.aside = sort_cards(aside)
        s.pending = (None, None)
        s.given = self.given
        s.leader = ROLES.index(obs["trick"]["leader"])
        s.plays = self.plays
        s.named = obs["trick"]["named"]
        s.ranking = tuple(obs["ranking"])
        s.piles = self.piles
        s.played = self.played
        s.swaps = self.swaps
        s.trick_winner = self.trick_winner
        s.history = tuple(obs["history"])
        s.legs = tuple(obs["legs"])
        s.winner_name = None
        s._to_act = ROLES.index(obs["to_act"])
        return s


class _World(JekyllVsHydeState):
    """A sampled state: its search ends with the round, so the next is never dealt."""

    __slots__ = ()

    def _start_round(self, round_number: int) -> None:
        self.round = round_number
        self.phase = None


# How each search level thinks: a fixed number of iterations (the same on any
# machine: a few hundredths of a second in the page) or seconds a move on the
# page's clock. The search gains little beyond a second, and expert at 3 s beat
# the 1 s search only 40% of 20 games; measured seat-swapped in CPython, 100
# iterations beat the heuristic 75.0% of 100 games [65.7, 82.5] and the 1 s
# page search beat 100 iterations 80.0% of 40 [65.2, 89.5]. So strong is the
# quick search and expert the 1 s one: two steps a player can feel
# (benchmarks/ladder.py keeps the ladder's own figures, game/bots/ratings.json).
LEVELS = {"strong": {"iterations": 100}, "expert": {"budget": 1.0}}

STAGES = ("early", "late")


def stage(observation: dict[str, Any]) -> str:
    """The decision's stage: "early" before half the round's ten tricks are
    played (the exchange too), "late" after; the playouts shorten, so the
    search runs faster."""
    return "early" if sum(observation["tricks"].values()) < 5 else "late"


def playout_action(state: JekyllVsHydeState, rng: random.Random) -> str:
    """A quick choice that pulls the trick count the way the role wants (10% random)."""
    legal = state.legal_actions()
    if state.phase != PLAY or len(legal) == 1 or rng.random() < 0.1:
        return rng.choice(legal)
    me = state._to_act
    assert me is not None  # a playout stops before the game ends
    d = len(state.piles[me]) - len(state.piles[1 - me])
    if me == 0:
        want = -1 if d > 0 else 1 if d < 0 else 0
    else:
        want = -1 if d < 0 else 1
    if state.plays:
        lead = state.plays[0]
        ranking = state.ranking
        if want == 0:
            return rng.choice(legal)
        wins = [c for c in legal if resolve(ranking, lead, c)[0]]
        loses = [c for c in legal if c not in wins]
        if want > 0:
            return min(wins, key=VALUE.__getitem__) if wins else min(loses, key=VALUE.__getitem__)
        return max(loses, key=VALUE.__getitem__) if loses else min(wins, key=VALUE.__getitem__)
    cards = [a for a in legal if ":" not in a] or legal
    if want == 0:
        return rng.choice(cards)
    ranking = state.ranking

    def strength(action: str) -> float:
        card = action.partition(":")[0]
        colour = COLOUR[card]
        bonus = 3.0 * ranking.index(colour) if colour in ranking else 1.5
        return VALUE[card] + 2 * bonus

    choice = max(cards, key=strength) if want > 0 else min(cards, key=strength)
    if ":" in choice:
        return choice.partition(":")[0] + ":" + rng.choice(COLOURS)
    return choice


def exact_at(observation: dict[str, Any], cards: int) -> bool:
    """Whether to solve this decision exactly: a card to play, with at most
    `cards` in hand (the exchange and a green swap are left to the tree)."""
    return observation["phase"] == PLAY and len(observation["hand"]) <= cards


def solver(world: JekyllVsHydeState, player: str) -> Callable[[str], float]:
    """Each action's exact worth to `player` in `world` (both playing the rest
    of the round perfectly there); one table serves all of the world's actions."""
    endgame = Endgame(world)

    def worth(action: str) -> float:
        jekyll = endgame.value(world.apply(action))
        return jekyll if player == "J" else 1.0 - jekyll

    return worth
