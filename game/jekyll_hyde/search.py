"""What the game-independent search bot needs from Dr. Jekyll & Mr. Hyde.

- `Sampler(observation)`: worlds consistent with what that player has seen
  (his hand, the ghost's open hand, every card played and by whom, the
  number of Jekyll and Hyde backs in each hand).  Nothing else constrains
  the hidden cards here: a designated seat picks freely, so a choice tells
  nothing for certain about the cards it kept.  `hands(limit)` lists every
  such world (for the setting `enumerate=1`) when there are few, late in a
  hand; `world(deal)` makes one.
- `Sampler(observation, infer=True)` (the bot setting `infer=1`, off by
  default): each world is drawn by how likely it makes the hidden seats' own
  card choices so far in the hand under a model of play (`Evidence`: a
  softmax over a per-card score from the chooser's side at that decision,
  fitted to the cheater's plays), not uniformly; still from the observation
  alone. Each side's cards are shared out among the hidden hands exactly by
  those weights when there are at most `ENUMERATE` ways, else by resampling
  `CANDIDATES` uniform ones; it costs about 15 microseconds a world in
  CPython and a few milliseconds a decision to set up. `hands(limit)` stays
  uniform: with `enumerate=1` too, the worlds listed late in a hand are
  weighed equally and the model only weighs the worlds drawn before.
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
from itertools import accumulate, combinations
from typing import Any, Callable, Sequence

from game.jekyll_hyde.cards import DECK, MULTIPLIER, ORDER, POINTS, RANK
from game.jekyll_hyde.endgame import Endgame, at_horizon, utility
from game.jekyll_hyde.rules import GHOST, TRICKS_PER_HAND, JekyllHydeState, Table

_OWN_ACTION, _DENIED, _POINT = 10.0, 7.0, 2.0
# A world's hidden hands: per hidden seat, its Jekyll and its Hyde cards.
Deal = tuple[tuple[tuple[str, ...], tuple[str, ...]], ...]


class Sampler:
    """Draws full states that fit one observation."""

    def __init__(self, obs: dict[str, Any], infer: bool = False) -> None:
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
        evidence = Evidence(obs, self.table, self.unseen, self.hidden) if infer else None
        self.evidence = evidence if evidence is not None and evidence.turns else None

    def sample(self, rng: random.Random) -> JekyllHydeState:
        if self.evidence is not None:
            return self.world(self.evidence.draw(rng))
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


# -- inference from the hidden seats' plays --------------------------------

# The model of play's weights, per kind of decision (`_kind`), on the card
# features of `features` (worth / 10, rank / 7, a Transformation, beats the
# trick's best card so far, that times worth / 10, an action card): a seat
# puts down card c with probability proportional to exp(weights . features).
# Fitted by maximum likelihood (with a ridge) to the choices of the cheater
# (the search seeing every card, 150 iterations: a stand-in for strong play)
# in 200 hands of 4 players (benchmarks/werner_play_model.py --bot
# cheater:iterations=150 --hands 200 --seed 1001): on the held-out half it
# beats a uniform pick by 0.17 nats a decision beating the other team's card,
# 0.04 giving as a designated opponent, 0.05 covering, 0.39 smearing, 0.19
# on a spoiled trick. A lead tells too little (0.001) to weigh.
WEIGHTS: dict[str, tuple[float, ...]] = {
    "beat": (-0.04, -1.01, 1.78, 2.20, -0.81, 0.21),
    "cover": (0.65, -0.79, -0.69, 0.72, -0.76, 0.15),
    "give": (-0.23, 0.75, -0.70, -1.13, 0.36, -0.11),
    "smear": (0.79, -1.02, -0.45, 0.14, 0.03, 0.63),
    "spoiled": (0.25, -1.44, -0.31, 0.0, 0.0, 0.48),
}
# Up to this many ways to share one side's unseen cards among the hidden
# hands, a world's share is drawn from all of them by their weights (exact);
# beyond, from CANDIDATES uniform ones by theirs (sampling-importance-resampling).
ENUMERATE = 2000
CANDIDATES = 16
_EXP_CAP = 40.0  # exp() arguments kept within +-this: no overflow, no zero weight


def _worth(card: str) -> float:
    """A card's worth to the team whose trick it goes to (its own side's):
    as `playout_action` values it."""
    mult = MULTIPLIER[card]
    return mult * _OWN_ACTION if mult else POINTS[card] * _POINT


def _kind(prev: Sequence[tuple[int, str]], turn: int, decider: int,
          side_of: Sequence[int]) -> str:
    """Which sort of decision putting a card in front of `turn` is, for
    `decider` (who picks it), after the trick's earlier `prev` (seat, card):
    "give" (a designated opponent), "lead", "spoiled" (a Transformation lies),
    "beat" (the other team's card is best), "cover" (ours is, a rival plays
    after), "smear" (ours is, no rival after)."""
    team = side_of[turn]
    if side_of[decider] != team:
        return "give"
    if not prev:
        return "lead"
    if any(c[1] == "T" for _, c in prev):
        return "spoiled"
    best_rank, best_team = -1, -1
    for seat, card in prev:
        if RANK[card] > best_rank:
            best_rank, best_team = RANK[card], side_of[seat]
    if best_team != team:
        return "beat"
    rivals_after = any(side_of[(turn + k) % 4] != team for k in range(1, 4 - len(prev)))
    return "cover" if rivals_after else "smear"


def features(card: str, prev: Sequence[tuple[int, str]]) -> tuple[float, ...]:
    """What the model of play sees of putting `card` down after the trick's
    earlier (seat, card) plays `prev`: its worth to the team whose trick it
    goes to (in tens of `playout_action`'s units: a point 0.2, an own
    action's multiplier 1), its rank (a seventh), whether it is a
    Transformation, whether it beats the best card so far, that times its
    worth, and whether it is an action card."""
    worth, rank = _worth(card) / 10.0, RANK[card]
    best = max((RANK[c] for _, c in prev), default=-1)
    beats = 1.0 if best < rank < 7 else 0.0
    return (worth, min(rank, 6) / 7.0, float(rank == 7), beats, beats * worth,
            float(MULTIPLIER[card] > 0))


def score(card: str, kind: str, prev: Sequence[tuple[int, str]]) -> float:
    """How much the model of play likes putting `card` down at a decision of
    `kind` after the trick's earlier (seat, card) plays `prev`: log-odds, up
    to a constant of the decision."""
    weights = WEIGHTS.get(kind)
    if weights is None:
        return 0.0
    return sum(w * f for w, f in zip(weights, features(card, prev)))


class Evidence:
    """What the hidden seats' own card choices so far in this hand say about
    their hidden cards (the setting `infer=1`).

    The model of play: at each decision where a hidden seat picked a card
    from a hand whose cards are hidden (its own hand, or as the soloist his
    and the open ghost's Hyde cards), it picked card c from those it could
    with probability proportional to exp(score(c)): a conditional logit on a
    few features of the card (`features`: worth, rank, a Transformation,
    whether it beats the trick's best card) with weights per kind of decision
    (`WEIGHTS`, by `_kind`: a designated opponent's gift, beating the other
    team's card, covering or smearing on a partner's, a spoiled trick),
    reckoned from its side: the trick so far, whose turn and which team it is,
    and whether a rival still plays after. Fitted to the cheater's picks (a
    stand-in for strong play; the heuristic's own picks fit differently, as
    it beats with high ranks), it says what strong play does: a seat beats
    the other team's card cheaply when it can, and one whose team is winning
    with no rival after gives much.
    Its options then were its cards of the needed side now plus those of that
    side it gave since (this one included), all known but the hidden ones.
    So a hidden hand's cards of one side weigh, up to a factor the same for
    every hand, the product over those decisions of
    1 / (known + sum of z[c] over the hand's cards of that side), where
    z[c] = exp(score(c) - score of the card picked) and
    `known` is that sum over the cards picked since and the ghost's. The
    weights factor over seats and sides, so each side's cards are shared out
    among the hidden hands on their own. Designations, and what a seat chose
    when it held no card of the side, tell nothing here. Only the
    observation is read: the plays with who gave each card, the cards not
    seen, the hidden hands' sizes.
    """

    def __init__(self, obs: dict[str, Any], table: Table, unseen: dict[str, list[str]],
                 hidden: list[tuple[int, int, int]]) -> None:
        side_of, decider = table.side, table.decider
        three = table.players == 3
        me = obs["player"]
        hidden_seats = {seat for seat, _, _ in hidden}
        ghost = list(obs["ghost"] or ())
        plays = [(p["seat"], p["card"], p["from"]) for t in obs["tricks"] for p in t["plays"]]
        plays += [(p["seat"], p["card"], p["from"]) for p in obs["trick"]["plays"]]
        # (seat, side letter) -> [(known, z over the unseen cards of that side)]
        self.turns: dict[tuple[int, str], list[tuple[float, dict[str, float]]]] = {}
        for i, (turn, card, source) in enumerate(plays):
            prev = [(s, c) for s, c, _ in plays[i - i % 4:i]]
            chooser = decider[source]
            letter = card[0]
            pooled = three and letter == "H" and turn in (0, GHOST) and source in (0, GHOST)
            pool = (0, GHOST) if pooled else (source,)
            seat = next((s for s in pool if s in hidden_seats), None)
            if chooser == me or seat is None:
                continue  # our own choice, or one among open cards only
            kind = _kind(prev, turn, chooser, side_of)
            if kind not in WEIGHTS:
                continue
            since = [c for _, c, f in plays[i:] if f in pool and c[0] == letter]
            if pooled and seat == 0:
                since += [c for c in ghost if c[0] == "H"]  # the ghost's Hyde cards, open
            picked = score(card, kind, prev)

            def z(c: str) -> float:
                x = score(c, kind, prev) - picked
                return math.exp(max(-_EXP_CAP, min(_EXP_CAP, x)))

            self.turns.setdefault((seat, letter), []).append(
                (sum(z(c) for c in since), {c: z(c) for c in unseen[letter]}))
        self.unseen = unseen
        self.hidden = hidden
        self.sides = {letter: _Side(unseen[letter],
                                    [(s, j if letter == "J" else h) for s, j, h in hidden],
                                    self.turns)
                      for letter in "JH"}

    def weight(self, seat: int, letter: str, cards: Sequence[str]) -> float:
        """How likely `cards` (its hidden cards of side `letter`) make `seat`'s
        card choices so far, up to a factor the same for every such hand."""
        w = 1.0
        for known, z in self.turns.get((seat, letter), ()):
            w /= known + sum(z[c] for c in cards)
        return w

    def draw(self, rng: random.Random) -> Deal:
        """A world's hidden hands, each side's cards shared out by the weights."""
        jekyll = self.sides["J"].draw(rng, self)
        hyde = self.sides["H"].draw(rng, self)
        return tuple(zip(jekyll, hyde))


class _Side:
    """One side's unseen cards and how to share them out among the hidden hands
    (`counts`: per hidden seat, how many of them it holds)."""

    def __init__(self, cards: list[str], counts: list[tuple[int, int]],
                 turns: dict[tuple[int, str], list[tuple[float, dict[str, float]]]]) -> None:
        self.cards = cards
        self.counts = counts
        self.letter = cards[0][0] if cards else "J"
        self.weighed = any((s, self.letter) in turns for s, _ in counts)
        ways, left = 1, len(cards)
        for _, n in counts:
            ways *= math.comb(left, n)
            left -= n
        self.ways = ways
        self.shares: list[tuple[tuple[str, ...], ...]] | None = None  # every share, once listed
        self.cumulative: list[float] = []

    def uniform(self, rng: random.Random) -> tuple[tuple[str, ...], ...]:
        pool = rng.sample(self.cards, len(self.cards))
        share = []
        for _, n in self.counts:
            share.append(tuple(sorted(pool[:n], key=ORDER.__getitem__)))
            pool = pool[n:]
        return tuple(share)

    def weight(self, share: tuple[tuple[str, ...], ...], evidence: Evidence) -> float:
        w = 1.0
        for (seat, _), hand in zip(self.counts, share):
            w *= evidence.weight(seat, self.letter, hand)
        return w

    def draw(self, rng: random.Random, evidence: Evidence) -> tuple[tuple[str, ...], ...]:
        if not self.weighed:
            return self.uniform(rng)
        if self.shares is None and self.ways <= ENUMERATE:
            self.shares = _splits(tuple(self.cards), [n for _, n in self.counts])
            self.cumulative = list(accumulate(self.weight(s, evidence) for s in self.shares))
        if self.shares:
            return rng.choices(self.shares, cum_weights=self.cumulative)[0]
        shares = [self.uniform(rng) for _ in range(CANDIDATES)]
        return rng.choices(shares, [self.weight(s, evidence) for s in shares])[0]


infers = True  # `Sampler(observation, infer=True)` weighs worlds by the hidden seats' plays


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


def _card_worth(card: str, letter: str) -> float:
    """What `playout_action` thinks a card is worth to the team that needs
    side `letter`: its own action's multiplier, another's denied, or points."""
    mult = MULTIPLIER[card]
    if mult:
        return mult * (_OWN_ACTION if card[0] == letter else _DENIED)
    return POINTS[card] * _POINT


# `playout_action`'s orderings, looked up per team (0 Jekyll, 1 Hyde) instead
# of computed card by card: the same values, so the same choices and ties.
_PLAYOUT_WORTH = tuple({c: _card_worth(c, letter) for c in DECK} for letter in "JH")
_CHEAP = tuple({c: (w[c] + (9 if c[1] == "T" else 0), RANK[c]) for c in DECK}
               for w in _PLAYOUT_WORTH)  # the card to waste: cheap, no Transformation, low
_GIFT = tuple({c: (w[c], RANK[c]) for c in DECK} for w in _PLAYOUT_WORTH)
_BEATING = tuple({c: (RANK[c], -w[c]) for c in DECK} for w in _PLAYOUT_WORTH)
# Whether a seat of the other team than `turn`'s plays after the trick's
# `played` cards so far, by (the table's sides, turn, played).
_RIVALS_AFTER: dict[tuple[tuple[int, ...], int, int], bool] = {}


def _rivals_after(side_of: tuple[int, ...], turn: int, played: int) -> bool:
    key = (side_of, turn, played)
    found = _RIVALS_AFTER.get(key)
    if found is None:
        team = side_of[turn]
        found = _RIVALS_AFTER[key] = any(side_of[(turn + k) % 4] != team
                                         for k in range(1, 4 - played))
    return found


def playout_action(state: JekyllHydeState, rng: random.Random) -> str:
    """A greedy choice with full sight of a sampled world (10% random for variety)."""
    if rng.random() < 0.1:
        return rng.choice(state.legal_actions())
    table = state.table
    side_of = table.side
    hands = state.hands
    turn = state.turn
    team = side_of[turn]
    three_hyde = table.players == 3 and team == 1
    designated = state.designated
    if designated >= 0:
        cards = hands[2 * designated + team]
        if side_of[designated] != team:  # the giver helps the other team: the least useful card
            return min(cards, key=_GIFT[team].__getitem__)
    else:
        cards = hands[2 * turn + team]
        if three_hyde:
            cards = cards + hands[2 * (GHOST if turn == 0 else 0) + 1]
    best_rank, best_team = -1, -1
    plays = state.plays
    for seat, card, _ in plays:
        rank = RANK[card]
        if rank > best_rank:
            best_rank, best_team = rank, side_of[seat]
    if not cards:  # nothing of our side at hand: ask a partner first, else an opponent
        seats = [s for s in _OTHERS[turn] if hands[2 * s + team]
                 and not (three_hyde and s in (0, GHOST))]
        friends = [s for s in seats if side_of[s] == team]
        return _DESIGNATE[(friends or seats)[0]]
    if best_rank == 7 or best_team == team:
        if best_team == team and not _rivals_after(side_of, turn, len(plays)):
            return max(cards, key=_PLAYOUT_WORTH[team].__getitem__)
        return min(cards, key=_CHEAP[team].__getitem__)
    beating = [c for c in cards if best_rank < RANK[c] < 7]
    if beating:
        return min(beating, key=_BEATING[team].__getitem__)
    if designated < 0 and not three_hyde:
        for seat in _OTHERS[turn]:  # a partner may hold a winner: ask him
            if side_of[seat] == team and any(
                    best_rank < RANK[c] < 7 for c in hands[2 * seat + team]):
                return _DESIGNATE[seat]
    return min(cards, key=_CHEAP[team].__getitem__)


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
