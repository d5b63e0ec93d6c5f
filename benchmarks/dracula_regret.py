"""What Dracula's bots lose, decision by decision, against perfect play with
all cards known, and how much the opponent's placements say about his hand.

    python benchmarks/dracula_regret.py [--games 40] [--caps 50,100,300] [--information]
        [--infer] [--floor WORLDS] [--posterior WORLDS [--runs 8]]
        [--workers 2 | --scheduler tcp://HOST:8786]

Far cheaper than whole games for telling whether a change to the strong bot
helps.  Positions come from games between two heuristic bots (seeds from
`--seed`): every placement with 4 to 8 empty cells and a real choice.  For
each, the real deal is solved exactly (`game.dracula.search.solver`: both
hands known, both sides perfect, the worth of a deal as the strong bot
values it).  A bot's regret is the worth of the best placement minus the
worth of the one it chose, averaged by empty cells.  The cheater's regret is
0 by definition, so this is the share of the game the hidden cards cost.

A regret that stops falling as the iteration cap grows means the search has
converged: it plays the best placement on average over the deals it cannot
tell apart.  Below that only knowing more about the opponent's hand helps.

`--information` measures how much his placements tell: at 4 and 5 empty
cells, the log-likelihood of his real hand minus that of random hands that
fit the observation (nats; 0: they tell nothing), if he chose each of his
placements made with 6 or fewer empty cells as perfect play with all cards
known prefers, softened by a temperature T (a softmax over the deal-score
difference).  (His first placement of a deal is left out: valuing it costs
a second for each hand.)

`--infer` also plays strong with the setting `infer=1` at each cap (its
worlds weighted by the opponent's placements, `game.dracula.search.Evidence`)
and prints how much that model of his play tells about his hand, as above but
from all his placements this deal, at every empty-cell count.

`--floor WORLDS` bounds what any bot that cannot see his cards may hope
for.  At each position it draws WORLDS deals that fit the observation
(uniformly: what his placements tell is left out, see `--information`) and
solves each exactly for every placement.  Whatever placement a bot picks
without seeing his hand, its mean regret is at least E[best worth of the
world] - max over placements of E[worth], each mean over the worlds; that
is the row `floor`.  Few worlds overrate the best mean (it is the maximum of
noisy means), so on average the floor comes out low, not high.  The row
`pimc` is the bot that plays that best mean (perfect-information Monte
Carlo with exact solves), its regret measured on the real deal like the
others'.

`--posterior WORLDS` does the same with each drawn world weighted by how
likely the heuristic, holding that world's hand, would have made his
placements so far in the deal (`--runs` heuristic choices from his
observation then, with his hand then, count how often it picks his
placement; one uniform choice is added so no hand is ruled out by chance).
His model is then exact: he is the heuristic.  The rows `pimc(WORLDS;h)` and
`floor(WORLDS;h)` bound what reading his hand from his plays can add against
this opponent; a line under them says how much his placements tell (nats)
and how many worlds the weights leave in effect.

CPU time per decision is printed too (this machine). `--workers` (default:
one process per core) shares the positions among processes, `--scheduler`
among a Dask cluster's workers; every other figure is the same for any
number of them.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from pathlib import Path
from typing import Any, Sequence

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from game import new_game  # noqa: E402
from game.bots.search import searcher  # noqa: E402
from game.core.match import Workers, add_workers_arguments, map_in_order, workers_from_args  # noqa: E402
from game.core.state import GameError  # noqa: E402
from game.dracula.bots import _OPEN, HeuristicBot, _Scorer, solve  # noqa: E402
from game.dracula.cards import CELL_INDEX, sort_cards  # noqa: E402
from game.dracula.rules import DraculaState  # noqa: E402
from game.dracula.search import Sampler, solver  # noqa: E402

EMPTIES = (8, 7, 6, 5, 4)


def positions(games: int, seed: int) -> list[DraculaState]:
    """States at each placement with 4-8 empty cells and a choice, heuristic games."""
    return [state for state, _ in positions_with_deal(games, seed)]


# The placements made so far in a position's deal: each mover's observation then
# and the placement he chose.
DealSoFar = list[tuple[dict[str, Any], str]]


def positions_with_deal(games: int, seed: int) -> list[tuple[DraculaState, DealSoFar]]:
    """`positions`, each with its deal's placements so far."""
    out = []
    for g in range(games):
        state = new_game("dracula", seed=seed + g)
        bot, rng = HeuristicBot(), random.Random(seed + g)
        deal: DealSoFar = []
        while state.to_act is not None:
            legal = state.legal_actions()
            if state.ways is not None and not state.moves:
                deal = []
            if state.ways is not None and len(legal) > 1 and _empties(state) in EMPTIES:
                out.append((state, list(deal)))
            obs = state.observation(state.to_act)
            action = bot.choose(obs, legal, rng)
            if state.ways is not None:
                deal.append((obs, action))
            state = state.apply(action)
    return out


def _empties(state: DraculaState) -> int:
    return sum(c is None for c in state.grid)


def regret(states: list[DraculaState], truths: list[dict[str, float]], bot: str,
           workers: Workers) -> tuple[dict[int, float], float, float]:
    """Mean regret of `bot` by empty cells, overall, and CPU ms per decision."""
    by: dict[int, list[float]] = {}
    decisions = map_in_order(decide, [(bot, k, state) for k, state in enumerate(states)],
                             workers)
    for state, worth, (action, _) in zip(states, truths, decisions):
        by.setdefault(_empties(state), []).append(max(worth.values()) - worth[action])
    ms = sum(seconds for _, seconds in decisions) * 1000 / len(states)
    every = [r for rs in by.values() for r in rs]
    return {e: sum(rs) / len(rs) for e, rs in by.items()}, sum(every) / len(every), ms


def decide(task: tuple[str, int, DraculaState]) -> tuple[str, float]:
    """The action of `bot` ("heuristic", or strong's iteration cap, "+infer"
    with inference) at the k-th position, from its own `random.Random(k)`,
    and the CPU seconds it took."""
    bot, k, state = task
    obs = state.observation(state.to_act)
    t0 = time.process_time()
    if bot == "heuristic":
        action = HeuristicBot().choose(obs, obs["legal"], random.Random(k))
    else:
        cap, _, infer = bot.partition("+")
        search = searcher(obs, random.Random(k), int(cap), time.monotonic,
                          infer=infer == "infer")
        while not search.finished():
            search.iterate()
        action = search.best(obs["legal"])
    return action, time.process_time() - t0


def truth(state: DraculaState) -> dict[str, float]:
    """The worth of each placement in the real deal, both hands known."""
    worth = solver(state, state.to_act)
    return {a: worth(a) for a in state.legal_actions()}


def floor(task: tuple[int, DraculaState, int]) -> tuple[str, float, float]:
    """At the k-th position, from `worlds` uniformly drawn deals that fit the
    observation, each solved exactly: the placement with the best mean worth,
    the lower bound on the regret of any placement chosen without seeing his
    hand (the mean of each world's best worth minus that best mean), and the
    CPU seconds it took."""
    k, state, worlds = task
    me = state.to_act
    t0 = time.process_time()
    sampler, rng = Sampler(state.observation(me)), random.Random(k)
    legal = state.legal_actions()
    totals = dict.fromkeys(legal, 0.0)
    clairvoyant = 0.0
    for _ in range(worlds):
        worth = solver(sampler.sample(rng), me)
        values = {a: worth(a) for a in legal}
        clairvoyant += max(values.values())
        for a, v in values.items():
            totals[a] += v
    best = max(legal, key=totals.__getitem__)
    return best, (clairvoyant - totals[best]) / worlds, time.process_time() - t0


def heuristic_likelihood(deal: DealSoFar, his: int, hand: Sequence[str], runs: int,
                         rng: random.Random) -> float:
    """The chance that the heuristic, holding `hand` now, would have made his
    placements so far in the deal: at each, the share of `runs` heuristic
    choices from his observation then (with his hand then: `hand` and the
    cards he placed since) that pick his placement, and one uniform choice."""
    likelihood = 1.0
    for t, (obs, action) in enumerate(deal):
        if obs["player"] != his:
            continue
        since = [a.partition("@")[0] for o, a in deal[t:] if o["player"] == his]
        held = sort_cards(list(hand) + since)
        cells = list(dict.fromkeys(a.partition("@")[2] for a in obs["legal"]))
        legal = [f"{card}@{cell}" for card in held for cell in cells]
        then = dict(obs, hand=list(held), legal=legal)
        bot = HeuristicBot()
        picked = sum(bot.choose(then, legal, random.Random(rng.random())) == action
                     for _ in range(runs))
        # One more choice counted as uniform, so no hand is ruled out by
        # `runs` unlucky draws (a rare choice of his would rule out his real hand).
        likelihood *= (picked + 1 / len(legal)) / (runs + 1)
    return likelihood


def posterior(task: tuple[int, DraculaState, DealSoFar, int, int]
              ) -> tuple[str, float, float, float, float]:
    """At the k-th position, from `worlds` uniformly drawn deals that fit the
    observation, each weighted by how likely the heuristic holding that hand
    would have placed as he did this deal (`heuristic_likelihood`, `runs`
    choices a placement) and solved exactly: the placement with the best
    weighted mean worth, the weighted mean regret of that placement (the
    least any placement can have if he is the heuristic), the log-likelihood
    ratio of his real hand against the drawn ones (nats), the worlds' effective
    number and the CPU seconds it took.  A position with no placement of his
    yet gives every world the same weight."""
    k, state, deal, worlds, runs = task
    me = state.to_act
    t0 = time.process_time()
    sampler, rng = Sampler(state.observation(me)), random.Random(k)
    legal = state.legal_actions()
    totals = dict.fromkeys(legal, 0.0)
    clairvoyant = weights = squares = 0.0
    for _ in range(worlds):
        pool = rng.sample(sampler.unseen, len(sampler.unseen))
        weight = heuristic_likelihood(deal, 1 - me, pool[:sampler.opp_held], runs, rng)
        worth = solver(sampler.world(pool), me)
        values = {a: worth(a) for a in legal}
        clairvoyant += weight * max(values.values())
        for a, v in values.items():
            totals[a] += weight * v
        weights += weight
        squares += weight * weight
    real = heuristic_likelihood(deal, 1 - me, state.hands[1 - me], runs, rng)
    best = max(legal, key=totals.__getitem__)
    return (best, (clairvoyant - totals[best]) / weights, math.log(real / (weights / worlds)),
            weights * weights / squares, time.process_time() - t0)


def information(states: list[DraculaState], temperatures: tuple[float, ...],
                hands: int = 20) -> list[float]:
    """For each temperature, the mean log-likelihood ratio (nats) of the opponent's
    real hand against random hands that fit the observation, under the
    perfect-play placement model (his placements with 6 or fewer empty cells)."""
    rng = random.Random(1)
    gains: list[list[float]] = [[] for _ in temperatures]
    for state in states:
        me = state.to_act
        worths = _placement_worths(state, me)
        if worths is None:
            continue
        sampler = Sampler(state.observation(me))
        real = worths(state.hands[1 - me])
        drawn = [worths(rng.sample(sampler.unseen, sampler.opp_held)) for _ in range(hands)]
        for k, temperature in enumerate(temperatures):
            drawn_ll = [_log_likelihood(w, temperature) for w in drawn]
            top = max(drawn_ll)
            mean = top + math.log(sum(math.exp(x - top) for x in drawn_ll) / hands)
            gains[k].append(_log_likelihood(real, temperature) - mean)
    return [sum(g) / len(g) if g else 0.0 for g in gains]


def model_information(states: list[DraculaState], hands: int = 200) -> dict[int, float]:
    """By empty cells, the mean log-likelihood ratio (nats) of the opponent's
    real hand against random hands that fit the observation, under the model
    of his play that `infer=1` weighs worlds by (`Evidence.weight`)."""
    rng = random.Random(1)
    gains: dict[int, list[float]] = {}
    for state in states:
        me = state.to_act
        sampler = Sampler(state.observation(me), infer=True)
        if sampler.evidence is None or not sampler.evidence.turns:
            continue
        weight = sampler.evidence.weight
        drawn = [weight(rng.sample(sampler.unseen, sampler.opp_held)) for _ in range(hands)]
        real = weight(list(state.hands[1 - me]))
        gains.setdefault(_empties(state), []).append(math.log(real / (sum(drawn) / hands)))
    return {e: sum(g) / len(g) for e, g in sorted(gains.items(), reverse=True)}


def _log_likelihood(decisions: list[tuple[float, list[float]]], temperature: float) -> float:
    """log P(his placements) when he picks each placement with probability
    proportional to exp(worth / temperature)."""
    total = 0.0
    for chosen, worth in decisions:
        top = max(worth)
        norm = sum(math.exp((v - top) / temperature) for v in worth)
        total += (chosen - top) / temperature - math.log(norm)
    return total


def _placement_worths(state: DraculaState, me: int):
    """A function from his hand now to, for each of his placements this deal with
    6 or fewer empty cells, (the score difference his placement leads to with
    perfect play, those of all his placements then); None if he has made none."""
    grid = [None] * 9
    grid[4] = state.grid[4]
    mover = 1 - state.dealer
    steps = []
    for move in state.moves:
        card, _, cell = move.partition("@")
        if sum(c is None for c in grid) <= 6:
            steps.append((tuple(grid), mover, card, CELL_INDEX[cell]))
        grid[CELL_INDEX[cell]] = card
        mover = 1 - mover
    if all(m == me for _, m, _, _ in steps):
        return None
    scorer = _Scorer(state.ways, 1 - me)

    def worths(his_now) -> list[tuple[float, list[float]]]:
        out = []
        for k, (before, mover, card, cell) in enumerate(steps):
            if mover == me:
                continue
            his = list(his_now) + [c for _, m, c, _ in steps[k:] if m != me]
            mine = list(state.hands[me]) + [c for _, m, c, _ in steps[k:] if m == me]
            g = list(before)
            filled = sum(1 << i for i in range(9) if g[i] is not None)
            worth, table = {}, {}
            for c in his:
                rest = tuple(x for x in his if x != c)
                for i in _OPEN[filled]:
                    g[i] = c
                    worth[c, i] = solve(scorer, g, rest, tuple(mine), False, table=table)
                    g[i] = None
            out.append((worth[card, cell], list(worth.values())))
        return out

    return worths


def _mean(values: list[float]) -> float:
    return sum(values) / len(values) if values else math.nan


def _row(name: str, by: dict[int, float], overall: float, ms: float) -> None:
    """One line of the regret table: by empty cells, overall, CPU ms a decision."""
    print(f"{name:20}" + "".join(f"{by.get(e, float('nan')):8.4f}" for e in EMPTIES)
          + f"{overall:8.4f}{ms:9.0f}", flush=True)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=40)
    p.add_argument("--seed", type=int, default=500)
    p.add_argument("--caps", default="50,100,300", help="strong's iteration caps")
    p.add_argument("--information", action="store_true")
    p.add_argument("--infer", action="store_true",
                   help="also strong with infer=1, and what its model of his play tells")
    p.add_argument("--floor", type=int, default=0, metavar="WORLDS",
                   help="also the least regret a bot blind to his cards can have, from "
                        "this many solved worlds a position")
    p.add_argument("--posterior", type=int, default=0, metavar="WORLDS",
                   help="also the same with the worlds weighted by how likely the "
                        "heuristic would have placed as he did this deal")
    p.add_argument("--runs", type=int, default=8,
                   help="heuristic choices a placement for --posterior's likelihoods")
    add_workers_arguments(p)
    args = p.parse_args()
    try:
        report(args, workers_from_args(args))
    except GameError as e:
        p.exit(2, f"error: {e}\n")


def report(args: argparse.Namespace, workers: Workers) -> None:
    dealt = positions_with_deal(args.games, args.seed)
    states = [state for state, _ in dealt]
    truths = map_in_order(truth, states, workers)
    counts = {e: sum(_empties(s) == e for s in states) for e in EMPTIES}
    print(f"{len(states)} positions from {args.games} heuristic games (seed {args.seed}); "
          "by empty cells: " + ", ".join(f"{e}: {n}" for e, n in counts.items()))
    print("regret: worth of the best placement in the real deal minus the chosen one's "
          "(worth: the strong bot's chance-to-win scale, 0-1)")
    print(f"{'bot':20}" + "".join(f"{e:>8}" for e in EMPTIES) + f"{'all':>8}{'ms/move':>9}")
    caps = [int(c) for c in args.caps.split(",") if c]
    bots = [("heuristic", "heuristic")] + [(f"strong({c})", str(c)) for c in caps]
    if args.infer:
        bots += [(f"strong({c};infer)", f"{c}+infer") for c in caps]
    for name, bot in bots:
        _row(name, *regret(states, truths, bot, workers))
    if args.floor:
        found = map_in_order(floor, [(k, s, args.floor) for k, s in enumerate(states)], workers)
        ms = sum(seconds for _, _, seconds in found) * 1000 / len(states)
        pairs: dict[int, list[tuple[float, float]]] = {}
        for state, worth, (best, bound, _) in zip(states, truths, found):
            pairs.setdefault(_empties(state), []).append((max(worth.values()) - worth[best], bound))
        every = [pair for ps in pairs.values() for pair in ps]
        for name, i in ((f"pimc({args.floor})", 0), (f"floor({args.floor})", 1)):
            _row(name, {e: sum(p[i] for p in ps) / len(ps) for e, ps in pairs.items()},
                 sum(p[i] for p in every) / len(every), ms)
    if args.posterior:
        tasks = [(k, s, deal, args.posterior, args.runs) for k, (s, deal) in enumerate(dealt)]
        weighed = map_in_order(posterior, tasks, workers)
        ms = sum(r[4] for r in weighed) * 1000 / len(states)
        rows: dict[int, list[tuple[float, float]]] = {}
        for state, worth, (best, bound, *_) in zip(states, truths, weighed):
            rows.setdefault(_empties(state), []).append((max(worth.values()) - worth[best], bound))
        every = [pair for ps in rows.values() for pair in ps]
        for name, i in ((f"pimc({args.posterior};h)", 0), (f"floor({args.posterior};h)", 1)):
            _row(name, {e: sum(p[i] for p in ps) / len(ps) for e, ps in rows.items()},
                 sum(p[i] for p in every) / len(every), ms)
        nats: dict[int, list[float]] = {}
        sizes: dict[int, list[float]] = {}
        for state, deal, (_, _, gain, size, _) in zip(states, (d for _, d in dealt), weighed):
            if any(obs["player"] != state.to_act for obs, _ in deal):
                nats.setdefault(_empties(state), []).append(gain)
                sizes.setdefault(_empties(state), []).append(size)
        print("under the heuristic as the model of his play (;h), by empty cells: "
              "information in his placements this deal (nats), and the worlds' mean "
              "effective number: " + "; ".join(
                  f"{e}: {_mean(gs):.3f}, {_mean(sizes[e]):.1f}"
                  for e, gs in sorted(nats.items(), reverse=True)))
    if args.infer:
        gains = model_information(states)
        print("information in his placements this deal under infer=1's model of his play "
              "(nats, by empty cells): "
              + ", ".join(f"{e}: {g:.3f}" for e, g in gains.items()))
    if args.information:
        late = [s for s in states if _empties(s) <= 5]
        temperatures = (5.0, 10.0, 20.0)
        unknown = sum(math.log(math.comb(len(sampler.unseen), sampler.opp_held))
                      for sampler in (Sampler(s.observation(s.to_act)) for s in late))
        print(f"information in his placements with 6 or fewer empty cells, {len(late)} "
              "positions with 4-5 empty cells (log-likelihood ratio of his real hand, nats; "
              f"his possible hands hold {unknown / len(late):.1f} nats):")
        for temperature, gain in zip(temperatures, information(late, temperatures)):
            print(f"  T = {temperature:g} points: {gain:.3f}")


if __name__ == "__main__":
    main()
