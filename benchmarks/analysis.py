"""How good and how quick the hand analysis is (game/analysis.py).

    python benchmarks/analysis.py agreement [--positions 100] [--seed 1] [--game G]
    python benchmarks/analysis.py levels [--hands 6] [--seed 1] [--game G] [--dump FILE]
                                         [--levels beginner,expert]
    python benchmarks/analysis.py stability [--hands 4] [--seed 1] [--game G]
    python benchmarks/analysis.py shares --from DUMP [DUMP...]

Not a test: prints figures, with the machine's load (`uptime`).

- agreement: positions late in a hand (the duel's last tricks, Werner's last
  tricks, Dracula's last placements), reached by the heuristic playing every
  seat on seeded deals, where every world consistent with the deciding
  seat's observation can be listed (at most `MAX_WORLDS`) and each solved
  exactly: the exhaustive answer is the choice with the best average over
  them all. Printed: how often the analysis's best choice (`judge`, from
  the observation, at its own iterations) is one of the exhaustive best,
  by game and by how much is left, and the exhaustive cost of its choice.
- levels: each level of the ladder plays one seat of a hand (Werner's hand,
  the duel's round, Dracula's deal) against the heuristic at the other
  seats, on the same seeded deals for every level; the analysis judges that
  seat's decisions. Printed: the mean cost per decision by level with a 95%
  interval (a bootstrap over hands), each verdict's share, the expert's
  cost quantiles (what the thresholds are calibrated on: its decisions are
  "fine" at least 90% of the time) and the CPU time per decision and per hand.
- shares: the verdicts' shares by game and level, by today's thresholds
  (`SCALES`), of the costs written by `levels --dump` (several runs pooled):
  how the thresholds were chosen without judging the decisions again.
- stability: the heuristic's decisions in seeded hands, each judged twice
  with two seeds: how often the verdict and the expert's choice are the same,
  and the mean difference of the cost.
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from game import GAMES, new_game  # noqa: E402
from game.analysis import (SCALES, VERDICTS, analyse_decision, decisions_of, judge,  # noqa: E402
                           units, verdict)
from game.bots import LEVEL_NAMES, levels, make_bot  # noqa: E402
from game.bots.search import rules_of  # noqa: E402
from game.core.match import play_out  # noqa: E402
from game.core.transcript import Transcript  # noqa: E402

MAX_WORLDS = 1200


def load() -> str:
    return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()


# -- agreement with exhaustive answers -------------------------------------

def left(game: str, state: Any) -> int | None:
    """How much of the hand is left at `state` if it is a late position of
    the kind measured (cards in hand, tricks left, empty cells), else None."""
    obs = state.observation(state.to_act)
    if game == "jekyll-vs-hyde":
        return len(obs["hand"]) if obs["phase"] == "play" and len(obs["hand"]) <= 5 else None
    if game == "jekyll-hyde":
        tricks = 7 - len(obs["tricks"])
        return tricks if tricks <= 3 else None
    if obs["ways"] is None:
        return None
    empty = sum(c is None for row in obs["grid"] for c in row)
    return empty if 2 <= empty <= 5 else None


def worlds(game: str, obs: dict[str, Any]) -> list[Any] | None:
    """Every world consistent with `obs` (equally likely), or None if more than MAX_WORLDS."""
    sampler = rules_of(game).Sampler(obs)
    if game == "dracula":
        unseen = sampler.unseen
        held = sampler.opp_held
        count = 1
        for i in range(held):
            count = count * (len(unseen) - i) // (i + 1)
        if count > MAX_WORLDS:
            return None
        out = []
        for hand in itertools.combinations(unseen, held):
            rest = [c for c in unseen if c not in hand]
            out.append(sampler.world(list(hand) + rest))
        return out
    hands = sampler.hands(MAX_WORLDS)
    return None if hands is None else [sampler.world(h) for h in hands]


def exhaustive(game: str, obs: dict[str, Any], listed: list[Any]) -> dict[str, float]:
    """Each legal choice's average exact value over every world."""
    solver = rules_of(game).solver
    totals = {a: 0.0 for a in obs["legal"]}
    for world in listed:
        worth = solver(world, obs["player"])
        for a in totals:
            totals[a] += worth(a)
    return {a: v / len(listed) for a, v in totals.items()}


def agreement(game: str, positions: int, seed: int, progress: bool = False) -> None:
    rng = random.Random(seed)
    bot = make_bot(game, "heuristic")
    found: dict[int, list[float]] = {}
    agreed: dict[int, int] = {}
    n = 0
    started = time.process_time()
    while n < positions:
        state = new_game(game, None, rng.getrandbits(31))
        bot_rng = random.Random(rng.getrandbits(31))
        while state.to_act is not None and state.hands_scored == 0:
            obs = state.observation(state.to_act)
            size = left(game, state) if len(obs["legal"]) > 1 else None
            if size is not None and n < positions:
                listed = worlds(game, obs)
                if listed:
                    values = exhaustive(game, obs, listed)
                    top = max(values.values())
                    best = judge(obs, random.Random(n)).best
                    ok = values[best] >= top - 1e-9
                    n += 1
                    agreed[size] = agreed.get(size, 0) + ok
                    found.setdefault(size, []).append(units(obs, top) - units(obs, values[best]))
                    if progress:
                        print(f"  so far {sum(agreed.values())}/{n} agree", flush=True)
            state = state.apply(bot.choose(obs, state.legal_actions(), bot_rng))
    total = sum(agreed.values())
    what = {"jekyll-vs-hyde": "cards in hand", "jekyll-hyde": "tricks left",
            "dracula": "empty cells"}[game]
    print(f"{game}: the analysis agrees with the exhaustive best on {total} of {n} positions "
          f"({total / n:.1%}); {time.process_time() - started:.0f} s CPU")
    for size in sorted(found):
        costs = found[size]
        print(f"  {what} {size}: {agreed[size]}/{len(costs)} agree, exhaustive cost of the "
              f"analysis's choice {statistics.mean(costs):.3f} {SCALES[game].unit} a position")


# -- mean cost by level ------------------------------------------------------

def level_spec(game: str, level: str) -> str:
    """The bot of `level`; a search level at the page's caps (deterministic for a seed)."""
    spec = levels(game)[level]
    return spec + ":browser=1" if spec in ("strong", "expert") else spec


SEATS: dict[str, list[Any]] = {"jekyll-hyde": [0], "jekyll-vs-hyde": ["J", "H"], "dracula": [0, 1]}


def seats(game: str) -> list[Any]:
    """The seats the measured level takes in turn, hand by hand."""
    return SEATS[game]


def bootstrap(per_hand: list[tuple[float, int]], rng: random.Random) -> tuple[float, float]:
    """A 95% interval of the mean cost per decision, hands resampled."""
    means = []
    for _ in range(1000):
        pick = [rng.choice(per_hand) for _ in per_hand]
        count = sum(c for _, c in pick)
        means.append(sum(s for s, _ in pick) / count if count else 0.0)
    means.sort()
    return means[25], means[974]


def level_costs(game: str, hands: int, seed: int, dump: dict[str, Any],
                dump_to: str | None = None, only: list[str] | None = None) -> None:
    """Every level on the same seeded hands, hand by hand (a run stopped early
    still has each level on the same hands); the figures after each hand."""
    deal_seeds = [random.Random(f"{seed}/{game}/{k}").getrandbits(31) for k in range(hands)]
    print(f"{game}: up to {hands} hands a level, the level at seat(s) {seats(game)} in turn, "
          f"the heuristic elsewhere; costs in {SCALES[game].unit}")
    results = dump.setdefault(game, {})
    for k, deal_seed in enumerate(deal_seeds):
        seat = seats(game)[k % len(seats(game))]
        for level in measured(game, only):
            spec = level_spec(game, level)
            start = new_game(game, None, deal_seed)
            bots = {p: make_bot(game, spec if p == seat else "heuristic") for p in start.players}
            rngs = {p: random.Random(f"{deal_seed}/{p}") for p in start.players}
            actions: list[str] = []
            play_out(start, bots, rngs, lambda s, a: actions.append(a),
                     until=lambda s: s.hands_scored >= 1)
            transcript = Transcript(game, {}, deal_seed, actions=actions)
            _, tasks = decisions_of(transcript, str(seat), 1)
            t0 = time.process_time()
            decided = [analyse_decision(t) for t in tasks]
            mine = results.setdefault(level, {"costs": [], "per_hand": [], "verdicts": [],
                                              "cpu_s": 0.0})
            mine["cpu_s"] += time.process_time() - t0
            mine["costs"] += [d.cost for d in decided]
            mine["verdicts"] += [d.verdict for d in decided]
            mine["per_hand"].append((sum(d.cost for d in decided), len(decided)))
        if dump_to:
            Path(dump_to).write_text(json.dumps(dump))
        print(f" after {k + 1} hands ({load()}):", flush=True)
        for level in measured(game, only):
            mine = results[level]
            costs, n = mine["costs"], len(mine["costs"])
            lo, hi = bootstrap(mine["per_hand"], random.Random(seed))
            shares = ", ".join(f"{v} {mine['verdicts'].count(v) / n:.0%}" for v in VERDICTS)
            print(f"  {LEVEL_NAMES[level]:<9} ({level_spec(game, level)}): {n} decisions, mean "
                  f"cost {statistics.mean(costs):.2f} [{lo:.2f}, {hi:.2f}]; {shares}; "
                  f"{mine['cpu_s'] / n:.2f} s CPU a decision, "
                  f"{mine['cpu_s'] / (k + 1):.1f} s a hand", flush=True)
        expert = results.get("expert", {"costs": []})["costs"]
        if len(expert) > 2:
            q = statistics.quantiles(expert, n=20)
            print(f"  the expert's costs: median {q[9]:.2f}, 80th percentile {q[15]:.2f}, "
                  f"90th {q[17]:.2f}, 95th {q[18]:.2f}; thresholds "
                  f"{SCALES[game].thresholds}", flush=True)


def measured(game: str, only: list[str] | None) -> list[str]:
    """The ladder's levels to measure: all, or those named (a quicker calibration run)."""
    return [level for level in levels(game) if only is None or level in only]


def stability(game: str, hands: int, seed: int) -> None:
    same_verdict = same_best = n = 0
    gaps: list[float] = []
    for k in range(hands):
        deal_seed = random.Random(f"{seed}/{game}/stability/{k}").getrandbits(31)
        start = new_game(game, None, deal_seed)
        bots = {p: make_bot(game, "heuristic") for p in start.players}
        rngs = {p: random.Random(f"{deal_seed}/{p}") for p in start.players}
        actions: list[str] = []
        play_out(start, bots, rngs, lambda s, a: actions.append(a),
                 until=lambda s: s.hands_scored >= 1)
        transcript = Transcript(game, {}, deal_seed, actions=actions)
        seat = seats(game)[k % len(seats(game))]
        for task in decisions_of(transcript, str(seat), 1)[1]:
            one = analyse_decision(task)
            two = analyse_decision(task._replace(seed=task.seed + "/again"))
            n += 1
            same_verdict += one.verdict == two.verdict
            same_best += one.best == two.best or one.costs[two.best] == 0
            gaps.append(abs(one.cost - two.cost))
    print(f"{game}: {n} decisions judged twice with two seeds: the same verdict {same_verdict / n:.1%}, "
          f"the same best (or one costing nothing) {same_best / n:.1%}, mean cost difference "
          f"{statistics.mean(gaps):.2f} {SCALES[game].unit}", flush=True)


def shares(dumps: list[str]) -> None:
    pooled: dict[str, dict[str, list[float]]] = {}
    for path in dumps:
        for game, by_level in json.loads(Path(path).read_text()).items():
            for level, mine in by_level.items():
                pooled.setdefault(game, {}).setdefault(level, []).extend(mine["costs"])
    for game, by_level in pooled.items():
        print(f"{game}: thresholds {SCALES[game].thresholds} {SCALES[game].unit}")
        for level, costs in by_level.items():
            said = [verdict(game, c) for c in costs]
            print(f"  {LEVEL_NAMES[level]:<9} {len(costs)} decisions, mean cost "
                  f"{statistics.mean(costs):.2f}: "
                  + ", ".join(f"{v} {said.count(v) / len(said):.0%}" for v in VERDICTS))


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("part", choices=("agreement", "levels", "stability", "shares"))
    p.add_argument("--from", dest="dumps", nargs="+", help="shares: the files of levels --dump")
    p.add_argument("--game", choices=list(GAMES))
    p.add_argument("--positions", type=int, default=100)
    p.add_argument("--hands", type=int, default=6)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--dump", help="levels: write every cost to this JSON file")
    p.add_argument("--levels", help="levels: only these levels, comma-separated "
                   "(beginner,expert is enough to calibrate the thresholds)")
    p.add_argument("--progress", action="store_true", help="agreement: a line a position")
    args = p.parse_args()
    dump: dict[str, Any] = {}
    print(f"load at the start: {load()}", flush=True)
    if args.part == "shares":
        shares(args.dumps or [])
        return
    for game in [args.game] if args.game else list(GAMES):
        if args.part == "agreement":
            agreement(game, args.positions, args.seed, args.progress)
        elif args.part == "stability":
            stability(game, args.hands, args.seed)
        else:
            level_costs(game, args.hands, args.seed, dump, args.dump,
                        args.levels.split(",") if args.levels else None)
        print(f"load: {load()}", flush=True)


if __name__ == "__main__":
    main()
