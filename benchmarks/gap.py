"""How close the expert comes to the all-seeing cheater: at browser strength,
the expert's score against the heuristic and the cheater's against the
heuristic on the same seat-swapped deals, and the share of that gap the
expert closes.

    nice -n 19 python benchmarks/gap.py --game dracula --games 40 --workers 1 \
        [--options '{"players": 3}'] [--seed 1] [--head-to-head] [--iterations N] \
        [--settings infer=1] [--unit hands]

The expert is the bot the game's ladder plays at its expert level (as
benchmarks/ladder.py writes it: `strong:browser=1` in Dracula, whose expert
level is the strong bot; `expert:browser=1` in the card games), and the
cheater is the same search seeing every card, at the same caps
(`cheater-expert:browser=1` for the expert bot, `cheater:browser=1` for
strong). `--iterations N` gives both N iterations a decision instead (a
quick check, not browser strength). `--settings` adds settings to the
expert's bot (`infer=1`: worlds weighted by the opponent's plays) and
reports the expert both without them (before) and with them (after) on the
same deals, with the after-minus-before difference of the deal scores (95%
interval over the paired deals); the cheater sees every card and is played
once, without them.

Both matches play the same deals (the same `--seed`), each deal twice with
the seats swapped; a deal's score is the mean of its two games. The share
closed is (expert - 1/2) / (cheater - 1/2) over the deals, and its 95%
interval comes from the delta method over the paired deals (the two
matches' deal scores are correlated, since a deal easy for one is often
easy for the other). In the duel (or with `--head-to-head`) the expert also
meets the cheater head to head at equal caps: the heuristic is too weak there
to tell them apart; with `--settings` the expert with them meets the cheater
too, on the same deals (a line of its own after the plain expert's). `--unit hands` (Werner's game) plays each deal's first
hand alone instead of a whole game to 1000 points (game.core.match.simulate),
far quicker, though a hand's edge is smaller than a game's. The load average printed is the machine's 1, 5 and
15-minute average when the figures were done.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from pathlib import Path
from typing import Any, Sequence

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from game.bots.ratings import Z95  # noqa: E402
from game.core.match import CHEATERS, UNITS, parse_workers, simulate, wilson95  # noqa: E402
from game.core.state import GameError  # noqa: E402
from ladder import level_specs  # noqa: E402

DUEL = "jekyll-vs-hyde"
HEURISTIC = "heuristic"


def deal_scores(first_scores: Sequence[float]) -> list[float]:
    """Each deal's score: the mean of its two seat-swapped games (games 2k and 2k+1)."""
    if len(first_scores) % 2:
        raise ValueError("a deal is two games: give an even number of games")
    return [(a + b) / 2 for a, b in zip(first_scores[::2], first_scores[1::2])]


def gap_share(expert: Sequence[float], cheater: Sequence[float]) -> tuple[float, float, float]:
    """The share of the cheater's gain over 1/2 that the expert gains, from
    paired deal scores, and its 95% interval by the delta method:
    var(A/B) ~ (var a + r^2 var c - 2 r cov(a, c)) / (n B^2), with A, B the
    mean gains and r = A/B. NaN where it cannot be told (no gap, one deal).

    >>> share, low, high = gap_share([1, 0.5, 0.5, 1], [1, 1, 0.5, 1])
    >>> round(share, 4), round(low, 4), round(high, 4)
    (0.6667, 0.0507, 1.2826)
    """
    n = len(expert)
    if n != len(cheater):
        raise ValueError("the two matches must play the same deals")
    if n == 0:
        return math.nan, math.nan, math.nan
    mean_e, mean_c = sum(expert) / n, sum(cheater) / n
    gain, gap = mean_e - 0.5, mean_c - 0.5
    if gap <= 0:
        return math.nan, math.nan, math.nan
    share = gain / gap
    if n < 2:
        return share, math.nan, math.nan
    var_e = sum((e - mean_e) ** 2 for e in expert) / (n - 1)
    var_c = sum((c - mean_c) ** 2 for c in cheater) / (n - 1)
    cov = sum((e - mean_e) * (c - mean_c) for e, c in zip(expert, cheater)) / (n - 1)
    variance = (var_e + share * share * var_c - 2 * share * cov) / (n * gap * gap)
    half = Z95 * math.sqrt(max(variance, 0.0))
    return share, share - half, share + half


def paired_difference(after: Sequence[float], before: Sequence[float]) -> str:
    """The mean difference of two bots' scores on the same deals, with its 95%
    interval (normal, over the deals).

    >>> paired_difference([1, 0.5, 1], [0.5, 0.5, 1])
    '  with the settings minus without: +16.7 percentage points [-16.0, +49.3]'
    """
    diffs = [a - b for a, b in zip(after, before)]
    n = len(diffs)
    mean = sum(diffs) / n
    spread = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1)) if n > 1 else math.nan
    half = Z95 * spread / math.sqrt(n)
    return (f"  with the settings minus without: {100 * mean:+.1f} percentage points "
            f"[{100 * (mean - half):+.1f}, {100 * (mean + half):+.1f}]")


def cheater_of(spec: str) -> str:
    """The cheater that thinks as the search bot `spec` does."""
    name, colon, settings = spec.partition(":")
    by_copied = {copied: cheater for cheater, copied in CHEATERS.items()}
    if name not in by_copied:
        raise ValueError(f"the expert level plays {spec!r}, not a search bot")
    return by_copied[name] + colon + settings


def score_line(label: str, points: float, games: int, unit: str = "games") -> str:
    lo, hi = wilson95(points, games)
    return f"{label:<58} {points / games:6.1%} of {games} {unit} [{lo:.1%}, {hi:.1%}]"


def run(game: str, options: dict[str, Any], games: int, seed: int, workers: int,
        iterations: int | None, head_to_head: bool, settings: str = "",
        unit: str = "games") -> str:
    """Play the matches and return the report."""
    if games < 2 or games % 2:
        raise ValueError("--games must be an even number, at least 2 (each deal twice)")
    expert = level_specs(game)[0]["expert"]
    if iterations is not None:
        expert = f"{expert.partition(':')[0]}:iterations={iterations}"
    cheater = cheater_of(expert)
    experts = [expert] + ([expert + (";" if ":" in expert else ":") + settings]
                          if settings else [])
    started = time.time()
    both = {}
    for bot in (*experts, cheater):
        result = simulate(game, [bot, HEURISTIC], games, seed, options or None, workers=workers,
                          unit=unit)
        both[bot] = result
    strength = f"{iterations} iterations a decision" if iterations is not None \
        else "browser strength"
    mode = " ".join([game, *(f"{k}={json.dumps(v)}" for k, v in sorted(options.items()))])
    lines = [f"{mode}, {strength}: {games // 2} deals x 2 seats, seed {seed}, unit {unit}",
             score_line(f"  cheater ({cheater}) vs heuristic", both[cheater].points[cheater],
                        games, unit)]
    for bot in experts:
        share, low, high = gap_share(deal_scores(both[bot].first_scores),
                                     deal_scores(both[cheater].first_scores))
        lines += [score_line(f"  expert ({bot}) vs heuristic", both[bot].points[bot], games, unit),
                  f"    share of the gap it closes: {share:.1%} [{low:.1%}, {high:.1%}] "
                  "(95%, delta method over paired deals)"]
    if settings:
        lines.append(paired_difference(deal_scores(both[experts[1]].first_scores),
                                       deal_scores(both[expert].first_scores)))
    if head_to_head:
        duel = simulate(game, [expert, cheater], games, seed, options or None, workers=workers,
                        unit=unit)
        lines.append(score_line(f"  expert vs cheater head to head", duel.points[expert], games,
                                unit))
        if settings:  # the expert with the settings too, on the same deals
            bot = experts[1]
            duel = simulate(game, [bot, cheater], games, seed, options or None, workers=workers,
                            unit=unit)
            lines.append(score_line(f"  expert ({bot}) vs cheater head to head",
                                    duel.points[bot], games, unit))
    one, five, fifteen = os.getloadavg()
    lines.append(f"  load average {one:.2f} {five:.2f} {fifteen:.2f}; "
                 f"{(time.time() - started) / 60:.1f} min, {workers} worker(s)")
    return "\n".join(lines)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--game", default="dracula")
    p.add_argument("--options", help="game options as JSON, e.g. '{\"players\": 3}'")
    p.add_argument("--games", type=int, default=40, help="games a match (even: deals x 2)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--workers", metavar="N", help="processes (default: one per core)")
    p.add_argument("--iterations", type=int,
                   help="expert and cheater think N iterations a decision, not at browser caps")
    p.add_argument("--settings", default="",
                   help="more settings for the expert's bot, e.g. infer=1")
    p.add_argument("--unit", choices=UNITS, default="games",
                   help="hands: each deal's first hand alone, not a whole game (Werner's game)")
    p.add_argument("--head-to-head", action="store_true",
                   help="also expert against cheater (always in the duel)")
    args = p.parse_args()
    try:
        options = json.loads(args.options) if args.options else {}
        print(run(args.game, options, args.games, args.seed, parse_workers(args.workers),
                  args.iterations, args.head_to_head or args.game == DUEL, args.settings,
                  args.unit),
              flush=True)
    except (GameError, ValueError) as e:
        p.exit(2, f"error: {e}\n")


if __name__ == "__main__":
    main()
