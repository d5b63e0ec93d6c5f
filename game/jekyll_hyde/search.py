"""What the game-independent search bot needs from Dr. Jekyll & Mr. Hyde.

- `Sampler(observation)`: worlds consistent with what that player has seen
  (his hand, the ghost's open hand, every card played and by whom, the
  number of Jekyll and Hyde backs in each hand).  Nothing else constrains
  the hidden cards here: a designated seat picks freely, so a choice tells
  nothing for certain about the cards it kept.  `hands(limit)` lists every
  such world (for the setting `enumerate=1`) when there are few, late in a
  hand; `world(deal)` makes one.
- `at_horizon` / `utility`: a search looks to the end of the current hand
  and values it by the difference of the two teams' scores (both defined
  with the exact solver, `game.jekyll_hyde.endgame`).
- `playout_action`: a quick greedy player for the sampled worlds, which may
  look at every hand of *that* world since it is a guess, not the truth.
- `stage`: early or late in the hand, for the iteration caps the search
  reaches in the browser (game/bots/browser_caps.json).
- `exact_at` / `solver`: a search bot with the setting `endgame=N` values
  each action exactly in each sampled world once N tricks or fewer are left
  in the hand (`game.jekyll_hyde.endgame`: alpha-beta between the two teams
  with a transposition table over the rest of the hand).
"""

from __future__ import annotations

import math
import random
from itertools import combinations
from typing import Any, Callable, Sequence

from game.jekyll_hyde.cards import DECK, MULTIPLIER, ORDER, POINTS, RANK
from game.jekyll_hyde.endgame import Endgame, at_horizon, utility
from game.jekyll_hyde.rules import GHOST, TRICKS_PER_HAND, JekyllHydeState, Table

_OWN_ACTION, _DENIED, _POINT = 10.0, 7.0, 2.0
# A world's hidden hands: per hidden seat, its Jekyll and its Hyde cards.
Deal = tuple[tuple[tuple[str, ...], tuple[str, ...]], ...]


class Sampler:
    """Draws full states that fit one observation."""

    def __init__(self, obs: dict[str, Any]) -> None:
        self.obs = obs
        self.table = Table(obs["options"], 0, None)
        three = obs["ghost"] is not None
        known: dict[int, list[str]] = {obs["player"]: list(obs["hand"])}
        if three:
            known[GHOST] = list(obs["ghost"])
        played = {p["card"] for t in obs["tricks"] for p in t["plays"]}
        played.update(p["card"] for p in obs["trick"]["plays"])
        seen = played.union(*known.values())
        self.unseen = {side: [c for c in DECK if c[0] == side and c not in seen] for side in "JH"}
        self.known = known
        self.hidden = [(s, obs["backs"][str(s)]["J"], obs["backs"][str(s)]["H"])
                       for s in range(4) if s not in known]
        trick = obs["trick"]
        self.plays = tuple((p["seat"], p["card"], p["from"]) for p in trick["plays"])
        self.tricks = tuple((t["leader"], tuple((p["seat"], p["card"], p["from"])
                                                for p in t["plays"]), t["winner"])
                            for t in obs["tricks"])
        keys = self.table.names if self.table.players == 3 else ("jekyll", "hyde")
        self.scores = tuple(obs["scores"][k] for k in keys)

    def sample(self, rng: random.Random) -> JekyllHydeState:
        pools = {side: rng.sample(cards, len(cards)) for side, cards in self.unseen.items()}
        deal: list[tuple[tuple[str, ...], tuple[str, ...]]] = []
        for _, jekyll, hyde in self.hidden:
            j, h = pools["J"], pools["H"]
            deal.append((tuple(sorted(j[:jekyll], key=ORDER.__getitem__)),
                         tuple(sorted(h[:hyde], key=ORDER.__getitem__))))
            pools["J"], pools["H"] = j[jekyll:], h[hyde:]
        return self.world(tuple(deal))

    def hands(self, limit: int) -> list[Deal] | None:
        """Every way the unseen cards may lie in the hidden hands, each once
        (`sample` draws them all equally likely), if there are at most
        `limit`; None if there are more."""
        count = 1
        for side, cards in self.unseen.items():
            left = len(cards)
            for _, jekyll, hyde in self.hidden:
                held = jekyll if side == "J" else hyde
                count *= math.comb(left, held)
                left -= held
        if count > limit:
            return None
        splits = [_splits(tuple(self.unseen["J"]), [j for _, j, _ in self.hidden]),
                  _splits(tuple(self.unseen["H"]), [h for _, _, h in self.hidden])]
        return [tuple(zip(jekyll, hyde)) for jekyll in splits[0] for hyde in splits[1]]

    def world(self, deal: Deal) -> JekyllHydeState:
        """The world in which the hidden hands hold `deal` (per hidden seat,
        its Jekyll and its Hyde cards, each in deck order)."""
        obs = self.obs
        hands: list[tuple[str, ...]] = [()] * 8
        for seat, cards in self.known.items():
            ordered = sorted(cards, key=ORDER.__getitem__)
            hands[2 * seat] = tuple(c for c in ordered if c[0] == "J")
            hands[2 * seat + 1] = tuple(c for c in ordered if c[0] == "H")
        for (seat, _, _), (jekyll, hyde) in zip(self.hidden, deal):
            hands[2 * seat], hands[2 * seat + 1] = jekyll, hyde
        s = _World.__new__(_World)
        s.table = self.table
        s.hand_number = obs["hand_number"]
        s.dealer = obs["dealer"]
        s.hands = tuple(hands)
        s.turn = obs["turn"]
        s.designated = -1 if obs["designated"] is None else obs["designated"]
        s.leader = obs["trick"]["leader"]
        s.plays = self.plays
        s.tricks = self.tricks
        s.carried = tuple(obs["carried"])
        s.won = (tuple(obs["taken"]["jekyll"]), tuple(obs["taken"]["hyde"]))
        s.scores = self.scores
        s.history = tuple(obs["history"])
        s.winner_name = None
        s._to_act = obs["to_act"]
        return s


def _splits(cards: tuple[str, ...], counts: list[int]) -> list[tuple[tuple[str, ...], ...]]:
    """Every way to share `cards` (in deck order) out into hands of `counts`
    cards, each hand in deck order."""
    if not counts:
        return [()]
    ways: list[tuple[tuple[str, ...], ...]] = []
    for hand in combinations(cards, counts[0]):
        rest = tuple(c for c in cards if c not in hand)
        ways.extend((hand,) + later for later in _splits(rest, counts[1:]))
    return ways


class _World(JekyllHydeState):
    """A sampled state: its search ends with the hand, so the next is never dealt."""

    __slots__ = ()

    def _start_hand(self, hand_number: int, dealer: int) -> None:
        self.hand_number = hand_number


# How each search level thinks: a fixed number of iterations (the same on any
# machine: a few hundredths of a second in the page) or seconds a move on the
# page's clock. Even 100 iterations won 20 of 20 seat-swapped games against
# the heuristic, so strong is that quick search and expert the 1 s one, as in
# the duel (benchmarks/ladder.py keeps the figures, game/bots/ratings.json).
LEVELS = {"strong": {"iterations": 100}, "expert": {"budget": 1.0}}

STAGES = ("early", "late")


def stage(observation: dict[str, Any]) -> str:
    """The decision's stage: "early" in the first three of the hand's seven
    tricks, "late" after; the playouts shorten, so the search runs faster."""
    return "early" if len(observation["tricks"]) < 3 else "late"


def playout_action(state: JekyllHydeState, rng: random.Random) -> str:
    """A greedy choice with full sight of a sampled world (10% random for variety)."""
    if rng.random() < 0.1:
        return rng.choice(state.legal_actions())
    side_of = state.table.side
    hands = state.hands
    turn = state.turn
    team = side_of[turn]
    letter = "JH"[team]

    def worth(card: str) -> float:
        mult = MULTIPLIER[card]
        if mult:
            return mult * (_OWN_ACTION if card[0] == letter else _DENIED)
        return POINTS[card] * _POINT

    def cheapest(cards: Sequence[str]) -> str:
        return min(cards, key=lambda c: (worth(c) + (9 if c[1] == "T" else 0), RANK[c]))

    designated = state.designated
    if designated >= 0:
        cards = hands[2 * designated + team]
        if side_of[designated] != team:  # the giver helps the other team: the least useful card
            return min(cards, key=lambda c: (worth(c), RANK[c]))
    else:
        cards = hands[2 * turn + team]
        if state.table.players == 3 and team == 1:
            cards = cards + hands[2 * (GHOST if turn == 0 else 0) + 1]
    best_rank, best_team = -1, -1
    for seat, card, _ in state.plays:
        if RANK[card] > best_rank:
            best_rank, best_team = RANK[card], side_of[seat]
    if not cards:  # nothing of our side at hand: ask a partner first, else an opponent
        seats = [s for s in _OTHERS[turn] if hands[2 * s + team]
                 and not (state.table.players == 3 and team == 1 and s in (0, GHOST))]
        friends = [s for s in seats if side_of[s] == team]
        return _DESIGNATE[(friends or seats)[0]]
    if best_rank == 7 or best_team == team:
        rivals_after = any(side_of[(turn + k) % 4] != team for k in range(1, 4 - len(state.plays)))
        if best_team == team and not rivals_after:
            return max(cards, key=worth)
        return cheapest(cards)
    beating = [c for c in cards if best_rank < RANK[c] < 7]
    if beating:
        return min(beating, key=lambda c: (RANK[c], -worth(c)))
    if designated < 0 and not (state.table.players == 3 and team == 1):
        for seat in _OTHERS[turn]:  # a partner may hold a winner: ask him
            if side_of[seat] == team and any(
                    best_rank < RANK[c] < 7 for c in hands[2 * seat + team]):
                return _DESIGNATE[seat]
    return cheapest(cards)


_DESIGNATE = ("@0", "@1", "@2", "@3")
_OTHERS = tuple(tuple(s for s in range(4) if s != turn) for turn in range(4))


def endgame_cards(observation: dict[str, Any]) -> int:
    """The cards the setting `endgame=N` counts: the tricks left in the hand,
    counting the one under way, which is what each seat holds on average as
    a trick starts. A seat's own hand is a poor measure here: designations
    shrink hands unevenly, and the work grows with every card left."""
    return TRICKS_PER_HAND - len(observation["tricks"])


def exact_at(observation: dict[str, Any], cards: int) -> bool:
    """Whether to solve this decision exactly: `cards` or fewer left by
    `endgame_cards` (a card to play or a seat to designate alike)."""
    return endgame_cards(observation) <= cards


def solver(world: JekyllHydeState, seat: int) -> Callable[[str], float]:
    """Each action's exact worth to `seat`'s team in `world` (every seat
    playing the rest of the hand perfectly there); one table serves all of
    the world's actions."""
    endgame = Endgame(world)
    jekyll = world.table.side[seat] == 0

    def worth(action: str) -> float:
        value = endgame.value(world.apply(action))
        return value if jekyll else 1.0 - value

    return worth
