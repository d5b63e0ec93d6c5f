"""What the game-independent search bot (`strong`) needs from Dracula.

- `Sampler(observation)`: worlds consistent with what that player has seen:
  his hand, the coffin, the earlier deals (whose moves tell who held which
  card), the opponent's number of cards.  The unseen cards are dealt at
  random to the opponent's hand and to the stock, whose order (the future
  deals) is sampled too.
- `Sampler(observation, infer=True)` (the bot setting `infer=1`, off by
  default): the opponent's hand is drawn by how likely it makes his
  placements so far in the deal under a model of his play (`Evidence`).
  Measured, it is not shown to help: that model (a softmax over the playout's
  worth, SHARPNESS fitted to the heuristic's placements: 0.27 nats a
  placement better than uniform) tells almost nothing about the
  heuristic's hand, 0.00-0.04 nats at 4-7 empty cells over 24 games
  (`benchmarks/dracula_regret.py --infer`), and strong(100) with it lost
  0.0377 a decision against 0.0344 without (360 positions, 12 games, with
  16-candidate resampling throughout).  In whole games at the page's
  strength (seed 1, the first 20 deals x 2 seats, 2026-11-27, load average
  about 7): strong:browser=1 won 67.5% of 40 [52.0, 79.9] against the
  heuristic, 35.0% of the gap to the cheater closed [5.6, 64.4], with
  infer=1 75.0% [59.8, 85.8], 50.0% [27.5, 72.5] (the cheater won all 100
  games of these deals' run of 2026-11-26); the paired difference, +7.5
  points [-3.2, +18.2], is within chance. CPU cost (benchmarks/search_speed.py
  --cpython-only, 4 positions a stage): exact-5 10595 -> 9997 iterations a
  second, exact-4 46632 -> 41996, the other stages unchanged (no placement
  of his to weigh before his first).
  The heuristic's own static estimate as the model would tell 0.2-0.3
  nats about his hand (72 positions, a one-off measure), but it costs about
  2 ms a hand in CPython, too much for every world.
- `solves` / `solver`: from 7 empty cells on (all but the non-dealer's first
  placement) the bot solves each sampled world exactly: every placement is
  valued by alpha-beta with both hands known (`game.dracula.bots.solve`),
  and it plays the placement with the best average over the worlds.
- `same_worth`: while the coffin is symmetric (the nail alone, or a line
  through it), mirror-image placements score the same and are searched once.
- `at_horizon` / `utility`: the non-dealer's first placement (8 empty cells)
  and the choice of ways use the tree search, which looks two placements
  ahead and then solves the world exactly from 6 empty cells.
- `deal_value`: a deal's score difference is worth the chance to win the
  game that it leaves, if the deals still to come add a fair random
  difference (20 points a deal, measured between two heuristic bots).
- `playout_action`: a quick greedy player for the tree search's one step
  beyond its tree: it puts the card where it most raises its own best line
  minus the opponent's best line, each valued by a cached estimate.
- `stage`: which of those searches a decision gets, and for an exact one
  how many cells are empty, for the iteration caps the search reaches in
  the browser (game/bots/browser_caps.json).

Measured against `heuristic` in seat-swapped games: the previous design (a
tree search to 4 empty cells, then exact; a deal worth its difference up to
20 points) won 58% of 100 games.  This one, with 100 iterations, won 69.6%
of 1000 (95% CI 66.7-72.4%), and 68.9% of 800 once `Solve` raced its
actions; the cheater (the same search on the real deal) 99.0% of 200:
strong closes about 40% of the gap.  With 300 iterations it won 67.8% of
400 (63.0-72.1%): more search does not help.  `benchmarks/dracula_regret.py`
says why: against all-seeing perfect play, strong loses 0.034 of a game's
worth per decision with 100 iterations and 0.031 with 300 (the heuristic
0.058), and the opponent's placements tell about 0.1 nats of the 4.8 that
his hand holds.  What is left is the value of seeing his cards.  At the
page's strength (1 s a move, `strong:browser=1`) strong won 74.2% of 1000
games against the heuristic (95% CI 71.3-76.8%, benchmarks/ladder.py) and the
cheater at the same caps 99.5% of 400 (98.2-99.9%): strong closes about 49%
of the gap. `benchmarks/gap.py` (seed 1, 50 deals each played from both seats,
2026-11-26, load average 1.27 / 4.46 / 5.88 at the end): strong 67.0% of 100
games [57.3, 75.4], the cheater 100.0% of 100 [96.3, 100.0] on the same deals,
34.0% of the gap closed [14.9, 53.1] (delta method over the paired deals).  Thinking 3 s instead won 57.5% of 40 games against 1 s, so the
ladder has one search level here (`LADDER` in game/dracula/bots.py).
`dracula_regret.py --floor 100` bounds what search can add: a bot blind to
his hand loses at least about 0.024 a decision (the heuristic 0.0585,
strong with 300 iterations 0.029), so at most about 58% of the heuristic's
regret can be closed without reading his hand (benchmarks/RESULTS.md, "Dracula's
regret").
`--posterior 100` reads it as well as anything can against the heuristic,
weighing each world by the heuristic's own chance of his placements: the
floor falls only to 0.0195, so at most about 67% is within any blind bot's
reach.
"""

from __future__ import annotations

import itertools
import math
import random
from typing import Any, Callable, Sequence

from game.dracula.cards import (
    CELL_INDEX, CELLS, COLUMNS, DECK, NAIL, NEIGHBOURS, ROWS, VALUE, VAMPIRES, sort_cards,
)
from game.dracula.bots import _EMULT, _Scorer, solve
from game.dracula.rules import DEALS, DraculaState, Table

SCORE_SCALE = 20.0  # a deal-score difference that counts as a sure win (measured: 120 lost)
LAST_DEAL_WIN = 0.8  # in the sixth deal, the share of the utility that is winning


class Sampler:
    """Draws full states that fit one observation.  With `infer`, the
    opponent's hand is drawn by how likely it makes his placements so far in
    the deal (`Evidence`), not uniformly."""

    def __init__(self, obs: dict[str, Any], infer: bool = False) -> None:
        self.obs = obs
        me = self.me = obs["player"]
        table = self.table_template = Table.__new__(Table)
        table.options = dict(obs["options"])
        table.first_dealer = table.options["first_dealer"]
        table.seed = 0
        table.deals = ()
        self.ways = None if obs["ways"] is None else (obs["ways"]["0"], obs["ways"]["1"])
        self.grid = tuple(c for row in obs["grid"] for c in row)
        self.hand = tuple(obs["hand"])
        self.history = tuple(obs["history"])
        self.moves = tuple(obs["moves"])
        seen = set(self.hand) | {c for c in self.grid if c}
        # The deck so far: each finished deal's cards in dealing order
        # (non-dealer, dealer, ..., the nail); the hands are sorted when dealt.
        prefix: list[str] = []
        for entry in self.history:
            cards = [m.partition("@")[0] for m in entry["moves"]]
            prefix += _dealt(cards[0::2], cards[1::2], entry["grid"][1][1])
            seen.update(cards)
            seen.add(entry["grid"][1][1])
        self.prefix = prefix
        self.unseen = [c for c in DECK if c not in seen]
        self.opp_held = obs["held"][str(1 - me)]
        if self.ways is not None:
            placed = [m.partition("@")[0] for m in self.moves]
            non_dealer = 1 - obs["dealer"]
            self.placed = (placed[0::2], placed[1::2]) if non_dealer == 0 else (placed[1::2],
                                                                                placed[0::2])
        self.dealer = obs["dealer"]
        self.evidence = (Evidence(obs, self.unseen)
                         if infer and self.ways is not None and self.opp_held else None)

    def sample(self, rng: random.Random) -> DraculaState:
        if self.evidence is None or not self.evidence.turns:
            return self.world(rng.sample(self.unseen, len(self.unseen)))
        return self.world(self.evidence.draw(rng, self.opp_held))

    def world(self, pool: Sequence[str]) -> DraculaState:
        """The state in which the unseen cards lie in `pool`'s order: the
        opponent's hand first (his `opp_held` cards), then the stock."""
        obs, me = self.obs, self.me
        table = Table.__new__(Table)
        template = self.table_template
        table.options, table.first_dealer, table.seed, table.deals = (
            template.options, template.first_dealer, template.seed, template.deals)
        s = DraculaState.__new__(DraculaState)
        s.table = table
        s.ways = self.ways
        s.deal_number = obs["deal_number"]
        s.dealer = self.dealer
        s.grid = self.grid
        s.moves = self.moves
        s.totals = (obs["totals"]["0"], obs["totals"]["1"])
        s.history = self.history
        s.final = None
        s.winner_name = None
        s._to_act = obs["to_act"]
        if self.ways is None:  # nothing is dealt yet: the whole pack is unseen
            table.deck = tuple(pool)
            s.hands = ((), ())
            return s
        his = pool[:self.opp_held]
        hands: list[tuple[str, ...]] = [(), ()]
        hands[me] = self.hand
        hands[1 - me] = sort_cards(his)
        s.hands = (hands[0], hands[1])
        dealt = [list(self.placed[0]) + list(hands[0]), list(self.placed[1]) + list(hands[1])]
        non_dealer = 1 - self.dealer
        deck = self.prefix + _dealt(dealt[non_dealer], dealt[self.dealer], self.grid[NAIL])
        table.deck = tuple(deck) + tuple(pool[self.opp_held:])
        return s


def _dealt(non_dealer: list[str], dealer: list[str], nail: str) -> list[str]:
    """One deal's nine cards in dealing order."""
    out: list[str] = []
    for a, b in zip(non_dealer, dealer):
        out += (a, b)
    out.append(nail)
    return out


# -- inference from the opponent's placements ----------------------------

# How sharply the model of the opponent prefers the placements the playout's
# estimate rates higher: he picks a placement with probability proportional
# to exp(SHARPNESS x its worth in points). Fitted by maximum likelihood to the
# heuristic's own placements (benchmarks/dracula_inference.py).
SHARPNESS = 0.1
# Up to this many possible hands, a world's hand is drawn from all of them by
# their weights (exact); beyond, from CANDIDATES uniform hands by theirs.
ENUMERATE = 5000
CANDIDATES = 16


class Evidence:
    """What the opponent's placements so far in this deal say about his hand.

    A model of his play (a softmax over the playout's worth of each placement,
    from his side of the coffin: `worths`) gives each hand he may hold the
    probability that he would have placed as he did: at each of his
    placements, his hand then was his hand now plus the cards he placed since,
    all of which he could have placed. The worth of a placement depends only
    on the coffin and the card, so that probability is, up to a factor the
    same for every hand, the product over his placements of
    1 / (known + sum of z[c] over the cards c of the hand), where z[c] sums
    exp(SHARPNESS x (worth of c in a cell - worth of what he placed)) over
    the cells open then and `known` is that sum over the cards he placed
    since.  Only the observation is read: the cards placed, the coffin, and
    the cards this player has not seen.
    """

    def __init__(self, obs: dict[str, Any], unseen: list[str]) -> None:
        me, dealer = obs["player"], obs["dealer"]
        ways = (obs["ways"]["0"], obs["ways"]["1"])
        his = 1 - me
        moves = [(m.partition("@")[0], CELL_INDEX[m.partition("@")[2]]) for m in obs["moves"]]
        grid: list[str | None] = [None] * 9
        grid[NAIL] = obs["grid"][1][1]
        self.unseen = unseen
        self.turns: list[tuple[float, dict[str, float]]] = []  # (known, z) per placement
        self.hands: list[tuple[str, ...]] | None = None  # every possible hand, once enumerated
        self.cumulative: list[float] = []  # their weights, summed
        for i, (card, cell) in enumerate(moves):
            mover = 1 - dealer if i % 2 == 0 else dealer
            if mover == his:
                since = [c for j, (c, _) in enumerate(moves) if j >= i and j % 2 == i % 2]
                worth = worths(grid, ways, his, since + unseen)
                played = worth[card][cell]
                z = {c: sum(math.exp(SHARPNESS * (v - played)) for v in worth[c].values())
                     for c in since + unseen}
                self.turns.append((sum(z[c] for c in since), {c: z[c] for c in unseen}))
            grid[cell] = card

    def weight(self, hand: Sequence[str]) -> float:
        """How likely `hand` makes his placements, up to a common factor."""
        w = 1.0
        for known, z in self.turns:
            w /= known + sum(z[c] for c in hand)
        return w

    def draw(self, rng: random.Random, held: int) -> list[str]:
        """The unseen cards in an order for a world: his hand (`held` cards)
        first, drawn by the weights (among every possible hand when there are
        at most `ENUMERATE`, else among `CANDIDATES` uniform ones:
        sampling-importance-resampling), then the rest shuffled."""
        if self.hands is None and math.comb(len(self.unseen), held) <= ENUMERATE:
            self.hands = list(itertools.combinations(self.unseen, held))
            self.cumulative = list(itertools.accumulate(self.weight(h) for h in self.hands))
        if self.hands:
            hand = list(rng.choices(self.hands, cum_weights=self.cumulative)[0])
        else:
            hands = [rng.sample(self.unseen, held) for _ in range(CANDIDATES)]
            hand = rng.choices(hands, [self.weight(h) for h in hands])[0]
        rest = [c for c in self.unseen if c not in hand]
        rng.shuffle(rest)
        return hand + rest


def worths(grid: list["str | None"], ways: tuple[str, str], player: int,
           cards: list[str]) -> dict[str, dict[int, float]]:
    """For each card, its worth to `player` in each cell open to it: the
    playout's estimate (`playout_action`) of his best lines minus his
    opponent's once it is there."""
    mine_way, his_way = ways[player], ways[1 - player]
    my_lines, his_lines = LINES[mine_way], LINES[his_way]
    cells = [i for i in range(9) if grid[i] is None
             and any(grid[n] is not None for n in NEIGHBOURS[i])]
    g = list(grid)
    out: dict[str, dict[int, float]] = {}
    for card in cards:
        out[card] = {}
        for cell in cells:
            g[cell] = card
            mine = [_estimate((g[a], g[b], g[c]), mine_way) for a, b, c in my_lines]
            his = [_estimate((g[a], g[b], g[c]), his_way) for a, b, c in his_lines]
            out[card][cell] = _soft_best(mine) - _soft_best(his)
            g[cell] = None
    return out


infers = True  # `Sampler(observation, infer=True)` weighs worlds by the opponent's plays

EXACT_FROM = 6  # empty cells from which a tree search solves its worlds exactly
SOLVE_FROM = 7  # empty cells from which a decision is solved world by world (`Solve`)


def solves(observation: dict[str, Any]) -> bool:
    """Whether the bot solves sampled worlds exactly from this decision on."""
    if observation["ways"] is None:
        return False
    return sum(c is None for row in observation["grid"] for c in row) <= SOLVE_FROM


# How each search level thinks: seconds a move on the page's clock. Strong
# needs its full second to beat the heuristic clearly (73.8% of 600 games at
# the browser's strength); expert thinks three times as long.
LEVELS = {"strong": {"budget": 1.0}, "expert": {"budget": 3.0}}

STAGES = ("ways", "tree-8", "exact-7", "exact-6", "exact-5", "exact-4")


def stage(observation: dict[str, Any]) -> str:
    """The decision's stage: the choice of ways and the first placement (8 empty
    cells) use the tree search; the placements after are solved world by world,
    and each empty cell fewer makes a world much cheaper to solve ("exact-4":
    4 empty cells or fewer)."""
    if observation["ways"] is None:
        return "ways"
    empty = sum(c is None for row in observation["grid"] for c in row)
    return "tree-8" if empty > SOLVE_FROM else f"exact-{max(empty, 4)}"


def solver(world: DraculaState, player: int) -> Callable[[str], float]:
    """The value for `player` (to act) of each of his placements in `world`, both
    sides then playing the rest of the deal perfectly (every card is known in
    a sampled world).  One table of solved positions serves all the placements."""
    assert world.ways is not None  # `solves` says no before the way is chosen
    scorer = _scorer(world.ways, player)
    value, lo, hi = deal_value(world, player)
    grid = list(world.grid)
    hand, his = world.hands[player], world.hands[1 - player]
    table: dict[Any, Any] = {}

    def placement(action: str) -> float:
        card, _, cell = action.partition("@")
        index = CELL_INDEX[cell]
        grid[index] = card
        d = solve(scorer, grid, tuple(c for c in hand if c != card), his, False, lo, hi, table)
        grid[index] = None
        return value(d)

    return placement


# Flipping the coffin left to right, or top to bottom, keeps rows rows and
# columns columns, so every line keeps its cards and every score is unchanged.
_FLIPS = (tuple(3 * r + 2 - c for r in range(3) for c in range(3)),
          tuple(3 * (2 - r) + c for r in range(3) for c in range(3)))


def same_worth(observation: dict[str, Any]) -> dict[str, str]:
    """Each legal placement and the placement it is worth the same as: its
    mirror image, when the coffin so far looks the same in that mirror."""
    if observation["ways"] is None:  # the choice of ways
        return {a: a for a in observation["legal"]}
    grid = [c for row in observation["grid"] for c in row]
    flips = [f for f in _FLIPS if all(grid[f[i]] == grid[i] for i in range(9))]
    if len(flips) == 2:
        flips.append(tuple(flips[0][j] for j in flips[1]))
    alias: dict[str, str] = {}
    for action in observation["legal"]:
        card, _, cell = action.partition("@")
        mirrors = [f"{card}@{CELLS[f[CELL_INDEX[cell]]]}" for f in flips]
        alias[action] = next((alias[m] for m in mirrors if m in alias), action)
    return alias


def at_horizon(root: DraculaState, state: DraculaState) -> bool:
    """The search stops when the deal it started in is scored, or, when it
    started with more than `EXACT_FROM` empty cells, once that many are left
    (`utility` then solves the rest of that world exactly)."""
    if len(state.history) > len(root.history) or state._to_act is None:
        return True
    return len(state.moves) >= 8 - EXACT_FROM and len(root.moves) < 8 - EXACT_FROM


def utility(root: DraculaState, state: DraculaState, player: int) -> float:
    """How good the end of the search is for `player`, from 0 to 1."""
    if len(state.history) == len(root.history) and state._to_act is not None:
        return _solved(root, state, player)
    score = state.history[len(root.history)]["score"]
    return deal_value(root, player)[0](score[str(player)] - score[str(1 - player)])


def deal_value(state: DraculaState, player: int) -> tuple[Callable[[float], float], float, float]:
    """What a score difference d in `state`'s deal is worth to `player`, from 0
    to 1, and the range (lo, hi) outside which that worth no longer changes.

    It is his chance to win the game if the deals still to come add a fair
    random difference (spread `DEAL_SPREAD` a deal): early on, points; in the
    sixth deal, winning (a tie counts half), then the margin.  It only grows
    with d, so the exact search can keep to (lo, hi).
    """
    lead = state.totals[player] - state.totals[1 - player]
    left = DEALS - 1 - state.deal_number
    if left == 0:
        def value(d: float) -> float:
            total = lead + d
            won = 1.0 if total > 0 else 0.0 if total < 0 else 0.5
            return LAST_DEAL_WIN * won + (1 - LAST_DEAL_WIN) * _margin(total)

        return value, -lead - SCORE_SCALE, -lead + SCORE_SCALE
    spread = DEAL_SPREAD * math.sqrt(left)

    def chance(d: float) -> float:
        z = max(-_CLIP, min(_CLIP, (lead + d) / spread))
        return 0.5 * (1.0 + math.erf(z / math.sqrt(2)))

    return chance, -lead - _CLIP * spread, -lead + _CLIP * spread


DEAL_SPREAD = 20.0  # standard deviation of a deal's score difference (heuristic mirror: 19.5)
_CLIP = 2.5  # standard deviations beyond which the chance is taken as settled


def _margin(diff: float) -> float:
    return min(1.0, max(0.0, 0.5 + diff / (2 * SCORE_SCALE)))


_SCORERS: dict[tuple[tuple[str, str], int], _Scorer] = {}
_SOLVED: dict[int, tuple[DraculaState, float, float]] = {}


def _scorer(ways: tuple[str, str], player: int) -> _Scorer:
    """A deal scorer for `player`, kept while the line values it caches stay useful."""
    scorer = _SCORERS.get((ways, player))
    if scorer is None:
        if len(_SCORERS) > 8:
            _SCORERS.clear()
        scorer = _SCORERS[ways, player] = _Scorer(ways, player)
    return scorer


def _solved(root: DraculaState, state: DraculaState, player: int) -> float:
    """The outcome of the rest of the deal when both play it perfectly in this world."""
    known = _SOLVED.get(id(state))
    if known is None or known[0] is not state:
        mover = state._to_act
        assert mover is not None and state.ways is not None  # a deal under way
        value, lo, hi = deal_value(root, mover)
        d = solve(_scorer(state.ways, mover), list(state.grid), state.hands[mover],
                  state.hands[1 - mover], True, lo, hi)
        u = value(d)
        # Worth to one side plus worth to the other is 1, but for the margin in the sixth deal.
        uo = deal_value(root, 1 - mover)[0](-d)
        _SOLVED.clear()
        known = _SOLVED[id(state)] = (state, u, uo) if mover == 0 else (state, uo, u)
    return known[1] if player == 0 else known[2]


# -- the playout policy ------------------------------------------------

LINES = {"Q": ROWS, "K": COLUMNS}
_MEAN = sum(VALUE["Q"][c] for c in DECK if c not in VAMPIRES) / 52  # the same both ways
_DISCOUNT = 0.85
# LINE_OF[way][cell]: the index of that way's line through the cell.
LINE_OF = {"Q": tuple(i // 3 for i in range(9)), "K": tuple(i % 3 for i in range(9))}
_SUIT = {c: c[-1] for c in DECK if c not in VAMPIRES}


Line = tuple["str | None", "str | None", "str | None"]  # a line's cells, None for a gap
_ESTIMATE: dict[str, dict[Line, float]] = {"Q": {}, "K": {}}


def _estimate(cards: Line, way: str) -> float:
    """A line's likely value to its owner from its cards (None: a gap)."""
    cache = _ESTIMATE[way]
    v = cache.get(cards)
    if v is not None:
        return v
    known = [c for c in cards if c is not None]
    if any(c in VAMPIRES for c in known):
        v = 0.0
    else:
        gaps = 3 - len(known)
        values = VALUE[way]
        total = sum(values[c] for c in known) + gaps * _MEAN
        v = total * _EMULT[tuple(_SUIT[c] for c in known)] * _DISCOUNT ** gaps
    cache[cards] = v
    return v


def _soft_best(values: list[float]) -> float:
    a, b, c = values
    if a < b:
        a, b = b, a
    if b < c:
        b = c
        if a < b:
            a, b = b, a
    return a + 0.25 * b


def playout_action(state: DraculaState, rng: random.Random) -> str:
    """The placement that most raises own best line minus the opponent's."""
    player = state._to_act
    assert player is not None  # a playout stops before the game ends
    ways = state.ways
    if ways is None:
        return "way:Q"
    grid = list(state.grid)
    hand = state.hands[player]
    cells = [i for i in range(9) if grid[i] is None
             and any(grid[n] is not None for n in NEIGHBOURS[i])]
    if len(hand) == 1 and len(cells) == 1:
        return f"{hand[0]}@{CELLS[cells[0]]}"
    mine_way, his_way = ways[player], ways[1 - player]
    my_lines, his_lines = LINES[mine_way], LINES[his_way]
    my_of, his_of = LINE_OF[mine_way], LINE_OF[his_way]
    mine = [_estimate((grid[a], grid[b], grid[c]), mine_way) for a, b, c in my_lines]
    his = [_estimate((grid[a], grid[b], grid[c]), his_way) for a, b, c in his_lines]
    best, choice = -1e9, ""
    for cell in cells:
        mi, hi = my_of[cell], his_of[cell]
        a, b, c = my_lines[mi]
        d, e, f = his_lines[hi]
        old_mine, old_his = mine[mi], his[hi]
        for card in hand:
            grid[cell] = card
            mine[mi] = _estimate((grid[a], grid[b], grid[c]), mine_way)
            his[hi] = _estimate((grid[d], grid[e], grid[f]), his_way)
            v = _soft_best(mine) - _soft_best(his)
            if v > best:
                best, choice = v, f"{card}@{CELLS[cell]}"
        grid[cell] = None
        mine[mi], his[hi] = old_mine, old_his
    return choice
