"""What the duel's expert loses at the last tricks, decision by decision,
against perfect play with every card known: the tree search at the page's
caps against the exact endgame over every world (`endgame=N;enumerate=1`).

    nice -n 19 python benchmarks/duel_regret.py [--positions 60] [--cards 4] [--seed 100]
        [--settings "endgame=4;enumerate=1"]

Far cheaper than whole games for telling whether a change to the endgame
helps. Positions come from games between two heuristic bots (seeds from
`--seed` on): every card to play with at most `--cards` in hand and a real
choice. For each, the real deal is solved exactly
(`game.jekyll_vs_hyde.search.solver`: both hands known, both sides perfect
to the end of the round, worth as the search values a round). A bot's loss
is the worth of the best card minus the worth of the one it chose; the
cheater's is 0 by definition. Both bots play each position with the same
seed; the paired difference (with the settings minus without) has a 95%
interval over the positions. CPU milliseconds a decision are printed too
(this machine, `time.process_time`).
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from game import new_game  # noqa: E402
from game.bots import make_bot  # noqa: E402
from game.bots.ratings import Z95  # noqa: E402
from game.jekyll_vs_hyde.rules import PLAY  # noqa: E402
from game.jekyll_vs_hyde.search import solver  # noqa: E402

GAME = "jekyll-vs-hyde"
EXPERT = "expert:browser=1"


def positions(count: int, cards: int, seed: int) -> list[Any]:
    """The first `count` real choices of a card with at most `cards` in hand,
    in heuristic games from `seed` on."""
    heuristic = make_bot(GAME, "heuristic")
    found: list[Any] = []
    while len(found) < count:
        state: Any = new_game(GAME, {}, seed=seed)
        rng = random.Random(seed)
        seed += 1
        while state.to_act is not None and len(found) < count:
            obs, legal = state.observation(state.to_act), state.legal_actions()
            if state.phase == PLAY and len(legal) > 1 and len(obs["hand"]) <= cards:
                found.append(state)
            state = state.apply(heuristic.choose(obs, legal, rng))
    return found


def mean_interval(values: list[float]) -> tuple[float, float]:
    """The mean and its 95% half-width (normal)."""
    n = len(values)
    mean = sum(values) / n
    spread = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1)) if n > 1 else math.nan
    return mean, Z95 * spread / math.sqrt(n)


def run(count: int, cards: int, seed: int, settings: str) -> str:
    specs = [EXPERT, f"{EXPERT};{settings}"]
    loss: dict[str, list[float]] = {spec: [] for spec in specs}
    cpu = dict.fromkeys(specs, 0.0)
    found = positions(count, cards, seed)
    for i, state in enumerate(found):
        role, legal = state.to_act, state.legal_actions()
        worth = solver(state, role)
        values = {action: worth(action) for action in legal}
        best = max(values.values())
        for spec in specs:
            started = time.process_time()
            chosen = make_bot(GAME, spec).choose(state.observation(role), legal, random.Random(i))
            cpu[spec] += time.process_time() - started
            loss[spec].append(best - values[chosen])
    lines = [f"{GAME}: {len(found)} positions with at most {cards} cards in hand, seed {seed}"]
    for spec in specs:
        mean, half = mean_interval(loss[spec])
        lost = sum(v > 1e-9 for v in loss[spec])
        lines.append(f"  {spec:<44} loss {mean:.4f} ± {half:.4f}, a card lost worth in "
                     f"{lost} of {len(found)}; {1000 * cpu[spec] / len(found):.0f} CPU ms a decision")
    mean, half = mean_interval([a - b for a, b in zip(loss[specs[1]], loss[specs[0]])])
    lines.append(f"  with the settings minus without: {mean:+.4f} [{mean - half:+.4f}, "
                 f"{mean + half:+.4f}] (95%, paired)")
    return "\n".join(lines)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--positions", type=int, default=60)
    p.add_argument("--cards", type=int, default=4, help="at most this many cards in hand")
    p.add_argument("--seed", type=int, default=100)
    p.add_argument("--settings", default="endgame=4;enumerate=1",
                   help="the expert's settings to compare with none")
    args = p.parse_args()
    print(run(args.positions, args.cards, args.seed, args.settings), flush=True)


if __name__ == "__main__":
    main()
