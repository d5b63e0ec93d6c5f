"""How strong the search bot is: strong and the all-seeing cheater, each against
the heuristic, on the same seat-swapped duplicate deals, and the share of the
heuristic-to-cheater gap that strong closes.

    python benchmarks/strength.py --game jekyll-hyde --games 400 --iterations 200 \
        [--cheater-games 200] [--options '{"players": 3}'] [--jobs 2]

Iteration caps (not time budgets) keep the figures the same on any machine.
"""

from __future__ import annotations

import argparse
import json
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from game.core.match import simulate, wilson95  # noqa: E402


def _run(args: tuple) -> tuple[float, int]:
    game, bots, games, seed, options = args
    result = simulate(game, bots, games, seed, options)
    return result.points[result.bots[0]], result.games


def measure(game: str, bot: str, games: int, seed: int, options: dict | None,
            jobs: int) -> tuple[float, int]:
    """Points and games of `bot` against the heuristic, split over `jobs` processes."""
    share = [games // jobs + (i < games % jobs) for i in range(jobs)]
    share = [n + n % 2 for n in share if n]  # whole duplicate pairs
    tasks = [(game, [bot, "heuristic"], n, seed * 1000 + i, options) for i, n in enumerate(share)]
    with ProcessPoolExecutor(jobs) as pool:
        parts = list(pool.map(_run, tasks))
    return sum(p for p, _ in parts), sum(n for _, n in parts)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--game", default="jekyll-hyde")
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--cheater-games", type=int,
                   help="games for the cheater (default: --games); it wins more surely, "
                        "so fewer give the same interval")
    p.add_argument("--iterations", type=int, default=200)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--options")
    p.add_argument("--jobs", type=int, default=2)
    args = p.parse_args()
    options = json.loads(args.options) if args.options else None
    rates = {}
    for name, count in (("strong", args.games), ("cheater", args.cheater_games or args.games)):
        points, games = measure(args.game, f"{name}:iterations={args.iterations}", count,
                                args.seed, options, args.jobs)
        lo, hi = wilson95(points, games)
        rates[name] = points / games
        print(f"{args.game} {options or ''}: {name} ({args.iterations} iterations) against "
              f"heuristic: {points / games:.1%} of {games} games, 95% CI [{lo:.1%}, {hi:.1%}]",
              flush=True)
    gain, gap = rates["strong"] - 0.5, rates["cheater"] - 0.5
    closed = gain / gap if gap > 0 else float("nan")
    print(f"strong gains {gain:+.1%} over the heuristic; the cheater {gap:+.1%}; "
          f"strong closes {closed:.0%} of the gap (goal: at least 50%)")


if __name__ == "__main__":
    main()
