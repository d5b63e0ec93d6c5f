"""How strong the search bot is: strong and the all-seeing cheater, each against
the heuristic, on the same seat-swapped duplicate deals, and the share of the
heuristic-to-cheater gap that strong closes.

    python benchmarks/strength.py --game jekyll-hyde --games 400 --iterations 200 \
        [--cheater-games 200] [--options '{"players": 3}'] [--workers 2 | --scheduler tcp://HOST:8786]

Iteration caps (not time budgets) keep the figures the same on any machine,
and `--workers` (default: one per core) shares the games among processes
without changing a single one of them, as `--scheduler` does among the
workers of a Dask cluster.  `--browser`: strong and the cheater stop, at
each decision, at the iterations the page's strong reaches in its time at
that stage (`strong:browser=1`, game/bots/browser_caps.json; a strong with
fixed iterations plays them).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from game.core.match import add_workers_arguments, simulate, wilson95, workers_from_args  # noqa: E402
from game.core.state import GameError  # noqa: E402


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--game", default="jekyll-hyde")
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--cheater-games", type=int,
                   help="games for the cheater (default: --games); it wins more surely, "
                        "so fewer give the same interval")
    p.add_argument("--iterations", type=int, default=200)
    p.add_argument("--browser", action="store_true",
                   help="strong and the cheater at the browser's caps (browser_caps.json), "
                        "not --iterations")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--options")
    add_workers_arguments(p)
    args = p.parse_args()
    options = json.loads(args.options) if args.options else None
    rates = {}
    try:
        workers = workers_from_args(args)
        for name, count in (("strong", args.games), ("cheater", args.cheater_games or args.games)):
            browser = args.browser
            bot = f"{name}:browser=1" if browser else f"{name}:iterations={args.iterations}"
            result = simulate(args.game, [bot, "heuristic"], count, args.seed, options,
                              workers=workers)
            points, games = result.points[bot], result.games
            lo, hi = wilson95(points, games)
            rates[name] = points / games
            cap = "browser caps" if browser else f"{args.iterations} iterations"
            print(f"{args.game} {options or ''}: {name} ({cap}) against "
                  f"heuristic: {points / games:.1%} of {games} games, 95% CI [{lo:.1%}, {hi:.1%}]",
                  flush=True)
    except GameError as e:
        p.exit(2, f"error: {e}\n")
    gain, gap = rates["strong"] - 0.5, rates["cheater"] - 0.5
    closed = gain / gap if gap > 0 else float("nan")
    print(f"strong gains {gain:+.1%} over the heuristic; the cheater {gap:+.1%}; "
          f"strong closes {closed:.0%} of the gap (goal: at least 50%)")


if __name__ == "__main__":
    main()
