"""The bot ladder: the five levels of a game played against each other, and
their ratings for the start screen.

    python benchmarks/ladder.py --game jekyll-hyde --options '{"players": 4}' \
        --games 1000 [--far-games 0] [--pairs beginner-easy,easy-normal] \
        [--workers N] [--block 100] [--seed 1] [--unit hands]
    python benchmarks/ladder.py --game dracula --fit-only
    python benchmarks/ladder.py ... --spec 'expert=expert:browser=1;infer=1' --file tried.json

Levels, weakest first: beginner, easy, normal, strong, expert (the names
players see, game.bots.LEVEL_NAMES), each played by the bot the game's ladder
names (game.bots.levels: by default random, easy, heuristic, strong and
expert; Dracula's sit one bot lower), printed beside it. A search bot plays
as the browser lets it think: one on the page's clock (the game's
`search.LEVELS`) as `strong:browser=1` or `expert:browser=1` (each decision
capped at the iterations recorded for Pyodide in headless Chromium), one with
fixed iterations as `strong:iterations=N`, as in the page; where this
checkout's bots have no caps yet, a clocked level plays with fixed stand-in
iterations (100 for strong, 300 for expert) and every line printed says so.
Pairs go by level names (`normal-strong`: normal against strong).

Every pair plays seat-swapped duplicate deals (`game.core.match.simulate`) in
blocks of `--block` games; block k of every pair uses the seed `--seed` + k, so
all pairs meet the same deals, and any `--workers` gives the same games. After
each block the pair's running total goes into the ratings file under a lock,
so a run can be stopped at any time and continued later: a pair plays blocks
until it has `--games` games (neighbouring levels) or `--far-games` (levels
two or more apart: these pairs say little, since the stronger side wins
nearly all, and cost the most where a search bot plays, so by default they
are not played; the fit needs only the chain of neighbours). A pair whose
bots' settings changed starts again from nothing; games on file between the
same bots count for whichever pair of levels they now play.

`--unit hands` (Werner's game, where one game to 1000 points with search
bots at browser caps takes many minutes) plays each deal's first hand alone
instead of a whole game, seat-swapped as games are, won by the camp that
scores more in it; the pair's record says `"unit": "hands"` and is kept apart
from games of the same bots. A hand is not a game: a game adds many hands up,
so the stronger side, as a rule, wins more of its games than of its hands,
and a rating fitted from hands understates the gap. The start screen therefore shows a
level measured in hands only as a floor (below).

`--spec LEVEL=SPEC` plays another bot at a level, to see whether it would
climb further than the page's on the same deals (the same seeds), before any
level is changed; its games go only into another `--file`, since the page's
ratings are those of the bots it plays.

The ratings are a Bradley–Terry fit on the Elo scale with normal anchored at
1500 and 95% intervals from the Fisher information (see game/bots/ratings.py
for the model and its one virtual draw a pair). What the start screen shows
is decided here too (`shown_ratings`): a level that won every game against
the one below, or was measured against it in hands, shows a floor, "1665+",
from the Wilson lower bound of that pair, and a rating known no better than
±100 points is not shown. The file holds, per game and
mode, each pair's games, points, seeds, dates and the load average seen
while it played, the machine, and each level's bot spec and fitted rating,
all keyed by the levels' names; nothing in it is extrapolated.
"""

from __future__ import annotations

import argparse
import datetime
import fcntl
import itertools
import json
import math
import os
import platform
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from game.bots import LEVEL_NAMES, LEVELS, EasyBot, levels, make_bot  # noqa: E402
from game.bots.ratings import RATINGS_FILE, Z95, Rating, fit, load_ratings  # noqa: E402
from game.core.match import UNITS, parse_workers, simulate, wilson95  # noqa: E402
from game.core.state import GameError  # noqa: E402

LADDER = [LEVEL_NAMES[level] for level in LEVELS]  # the levels' names, weakest first
ANCHOR, ANCHOR_RATING = "normal", 1500.0
STAND_IN_ITERATIONS = {"strong": 100, "expert": 300}  # where a checkout has no browser caps
GOAL = 0.65  # each level should beat the one below this often
SHOWN_HALF_WIDTH = 100  # Elo points: a rating known less well is not shown to players


def level_specs(game: str) -> tuple[dict[str, str], bool]:
    """Each level's bot spec by the level's name, as the game's ladder says
    (game.bots.levels), written out so that a retuned level starts afresh on
    file: easy with its share of random moves, a search bot on the page's
    clock with `browser=1`, one with fixed iterations with them; and whether
    the search bots play at browser strength."""
    specs = {LEVEL_NAMES[level]: spec for level, spec in levels(game).items()}
    browser = True
    for level, spec in specs.items():
        name = spec.partition(":")[0]
        bot = make_bot(game, spec)
        if isinstance(bot, EasyBot) and spec == name:
            specs[level] = f"{name}:random_share={bot.random_share}"
        elif getattr(bot, "default_iterations", None) is not None:
            specs[level] = f"{name}:iterations={getattr(bot, 'default_iterations')}"
        elif getattr(bot, "budget", math.inf) < math.inf:
            specs[level] = f"{name}:browser=1"
            try:
                make_bot(game, specs[level])
            except GameError:  # this checkout has no caps for it: a fixed stand-in
                specs[level] = f"{name}:iterations={STAND_IN_ITERATIONS[level]}"
                browser = False
    return specs, browser


def tried_specs(game: str, tries: list[str], file: str | Path) -> dict[str, str]:
    """`--spec LEVEL=SPEC` as {level: spec}, each spec checked by making its
    bot. The page's ratings must stay those of the page's bots, so a tried
    spec goes only into another file."""
    out: dict[str, str] = {}
    for item in tries:
        level, _, spec = item.partition("=")
        if level not in LEVEL_NAMES.values() or not spec:
            raise ValueError(f"--spec {item!r}: give LEVEL=SPEC, a level of "
                             f"{', '.join(LEVEL_NAMES.values())}")
        make_bot(game, spec)  # a bad spec is a GameError naming it
        out[level] = spec
    if out and Path(file).resolve() == Path(RATINGS_FILE).resolve():
        raise ValueError("--spec tries a bot the page does not play: give --file another "
                         "ratings file, so the start screen keeps its own bots' ratings")
    return out


def mode_key(game: str, options: dict[str, Any]) -> str:
    """The ratings file's name for a game and its options, e.g. 'jekyll-hyde players=3'."""
    return " ".join([game, *(f"{k}={json.dumps(v)}" for k, v in sorted(options.items()))])


def machine() -> str:
    model = ""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            model = next((line.split(":", 1)[1].strip() for line in f
                          if line.startswith("model name")), "")
    except OSError:
        pass
    return f"{model or platform.processor() or platform.machine()}, {os.cpu_count()} cores, " \
           f"Python {platform.python_version()}"


class Locked:
    """The ratings file, read and written under an exclusive lock (runs of
    several games may share it)."""

    def __init__(self, path: str) -> None:
        self.path = path

    def __enter__(self) -> dict[str, Any]:
        self.lock = open(self.path + ".lock", "w")
        fcntl.flock(self.lock, fcntl.LOCK_EX)
        self.data = load_ratings(self.path)
        self.data.setdefault("modes", {})
        return self.data

    def __exit__(self, *exc: object) -> None:
        if exc[0] is None:
            tmp = self.path + ".tmp"
            with open(tmp, "w", encoding="utf-8") as f:
                json.dump(self.data, f, indent=1, sort_keys=True)
                f.write("\n")
            os.replace(tmp, self.path)
        fcntl.flock(self.lock, fcntl.LOCK_UN)
        self.lock.close()


def pair_key(low: str, high: str) -> str:
    return f"{low}-{high}"


MIN_SCORED_BLOCKS = 10  # fewer say too little of the blocks' spread


def interval95(record: dict[str, Any]) -> tuple[float, float, str]:
    """The pair's 95% interval of the stronger side's score, and how it was had.

    A block is seat-swapped deals, so much of a deal's luck cancels in it: the
    spread of the blocks' scores (`block_points`, kept since 2026-11-28) gives a
    truer interval than the Wilson one over games, which takes every game for
    independent. With blocks of one deal (`--block 2`) this is the interval
    over deals. The spread is taken from the blocks whose scores are on file
    (a record begun before they were kept has older blocks without), and
    applies to all its blocks; with fewer than MIN_SCORED_BLOCKS scored, the
    Wilson interval over games stands.

    >>> interval95({"games": 4, "points": 2.0, "block": 2, "blocks": 2})[2]
    'Wilson, games'
    >>> lo, hi, how = interval95({"games": 24, "points": 18.0, "block": 2, "blocks": 12,
    ...                           "block_points": [2, 1] * 6})
    >>> round(lo, 3), round(hi, 3), how
    (0.602, 0.898, 'spread of 12 blocks')
    """
    games, points = record["games"], record["points"]
    scores = [p / record["block"] for p in record.get("block_points", [])]
    if len(scores) < MIN_SCORED_BLOCKS:
        lo, hi = wilson95(points, games)
        return lo, hi, f"Wilson, {record.get('unit', 'games')}"
    half = Z95 * math.sqrt(statistics.variance(scores) / record["blocks"])
    mean = points / games
    return max(0.0, mean - half), min(1.0, mean + half), f"spread of {len(scores)} blocks"


def planned_pairs(chosen: str | None, games: int, far_games: int) -> list[tuple[str, str, int]]:
    """(weaker, stronger, games wanted) for each pair to play."""
    known = {pair_key(low, high) for low, high in itertools.combinations(LADDER, 2)}
    unknown = set(chosen.split(",")) - known if chosen is not None else set()
    if unknown:
        raise ValueError(f"no pair {', '.join(sorted(unknown))}; pairs: {', '.join(sorted(known))}")
    out = []
    for i, j in itertools.combinations(range(len(LADDER)), 2):
        low, high = LADDER[i], LADDER[j]
        wanted = games if j == i + 1 else far_games
        if chosen is not None:
            wanted = games if pair_key(low, high) in chosen.split(",") else 0
        if wanted > 0:
            out.append((low, high, wanted))
    return out


def relabel(mode: dict[str, Any], specs: dict[str, str]) -> None:
    """Keep the mode's pair records that the levels' bots (`specs`) still play,
    each under the pair of levels that plays it now (a ladder respaced keeps
    the games its bots played; neighbours first, should two pairs have the
    same bots), and drop the rest: a level that thinks otherwise, or a record
    without games (left by an interrupted run)."""
    records = [r for r in mode["pairs"].values() if r["games"]]
    kept = {}
    for i, j in sorted(itertools.combinations(range(len(LADDER)), 2), key=lambda p: p[1] - p[0]):
        low, high = LADDER[i], LADDER[j]
        record = next((r for r in records if r["bots"] == [specs[high], specs[low]]), None)
        if record:
            kept[pair_key(low, high)] = record
            records.remove(record)
    mode["pairs"] = kept


def play_pair(path: str, key: str, game: str, options: dict[str, Any], low: str, high: str,
              specs: dict[str, str], wanted: int, block: int, seed: int, workers: int,
              note: str, unit: str = "games") -> None:
    """Play blocks of `low` against `high` until the pair has `wanted` games
    (or hands, with `unit` "hands") on file."""
    name = pair_key(low, high)
    bots = [specs[high], specs[low]]
    fresh = {"bots": bots, "block": block, "seed": seed, "blocks": 0, "games": 0,
             "points": 0.0, "by_side": {}, "load": [], "dates": []}
    if unit != "games":  # a games record has no unit, as before there were others
        fresh["unit"] = unit

    def on_file(data: dict[str, Any]) -> dict[str, Any]:
        """The pair's record for these bots, block and seed (a fresh one if none)."""
        if key in data["modes"]:
            relabel(data["modes"][key], specs)
        record = data["modes"].get(key, {}).get("pairs", {}).get(name)
        same = record and all(record[k] == fresh[k] for k in ("bots", "block", "seed")) \
            and record.get("unit", "games") == unit
        return record if same else json.loads(json.dumps(fresh))

    while True:
        with Locked(path) as data:
            record = on_file(data)
        done = record["blocks"]
        if record["games"] >= wanted:
            return
        started = time.time()
        result = simulate(game, bots, block, seed + done, options or None, workers=workers,
                          unit=unit)
        load = os.getloadavg()[0]
        with Locked(path) as data:
            record = on_file(data)
            if record["blocks"] != done:
                continue  # another run played this block meanwhile
            mode = data["modes"].setdefault(key, {"game": game, "options": options, "pairs": {}})
            mode["pairs"][name] = record  # a record is written only with games in it
            record["blocks"] += 1
            record["games"] += result.games
            record["points"] += result.points[bots[0]]
            record.setdefault("block_points", []).append(result.points[bots[0]])
            for side, (won, played) in result.by_side[bots[0]].items():
                total = record["by_side"].setdefault(side, [0.0, 0])
                total[0] += won
                total[1] += played
            load = round(load, 2)
            seen = record["load"] or [load, load]
            record["load"] = [min(seen[0], load), max(seen[1], load)]  # 1-minute averages
            today = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
            record["dates"] = [record["dates"][0] if record["dates"] else today, today]
            games, points = record["games"], record["points"]
            lo, hi, how = interval95(record)
        print(f"{key}: {high} ({bots[0]}) beats {low} ({bots[1]}) "
              f"{points / games:.1%} of {games} {unit} [{lo:.1%}, {hi:.1%}] ({how}); "
              f"block {done + 1} "
              f"took {time.time() - started:.0f} s at load {load:.2f}{note}", flush=True)


def shown_ratings(pairs: dict[str, Any], ratings: dict[str, Rating]) -> dict[str, str | None]:
    """What the start screen shows of each level's rating.

    A level that won every game against the level below has only a floor:
    its fitted rating rests on the virtual draw, and the games show only
    that it is far stronger. So has a level measured against the one below
    in hands (`"unit": "hands"`): a game adds about ten hands up, so a
    side that scores better hand by hand wins its games more often still,
    as a rule (not always: a hand won counts alike however many points it
    is won by), and the gap fitted from hands is then below the games'. It shows the level below's rating plus the gap
    of the Wilson 95% lower bound of its win rate, with a "+" (and so does
    every level above it, each on its own pair), or no figure while that
    bound is not even above 50% (too few games). Any other level shows its
    fitted rating, unless the interval is wider than ±SHOWN_HALF_WIDTH
    points: then too few games were played to name a figure (None).
    """
    shown: dict[str, str | None] = {}
    floor: float | None = None  # of the level below, when it has one
    for i, level in enumerate(LADDER):
        if level not in ratings:
            break
        r = ratings[level]
        pair = pairs.get(pair_key(LADDER[i - 1], level)) if i else None
        perfect = bool(pair and pair["games"] and pair["points"] == pair["games"])
        in_hands = bool(pair and pair.get("unit") == "hands")
        below = LADDER[i - 1] if i else None
        if pair and (floor is not None or perfect or in_hands) and below and shown.get(below):
            low, _ = wilson95(pair["points"], pair["games"])
            base = floor if floor is not None else ratings[below].rating
            # a floor below the level beneath says nothing: too few games
            floor = base + 400 * math.log10(low / (1 - low)) if 0.5 < low < 1 else None
            shown[level] = None if floor is None else f"{floor:.0f}+"
        else:
            floor = None
            shown[level] = f"{r.rating:.0f}" if (r.high - r.low) / 2 <= SHOWN_HALF_WIDTH else None
    return shown


def refit(path: str, key: str, specs: dict[str, str], specs_note: str) -> str:
    """Fit the mode's ratings from what is on file, store them, and return the table."""
    with Locked(path) as data:
        mode = data["modes"].get(key)
        if mode:
            relabel(mode, specs)
        if not mode or not mode["pairs"]:
            return f"{key}: nothing measured yet"
        results = {}
        for name, record in mode["pairs"].items():
            high, low = name.split("-")[1], name.split("-")[0]
            results[(high, low)] = (record["points"], record["games"])
        ratings = fit(results, ANCHOR, ANCHOR_RATING)
        shown = shown_ratings(mode["pairs"], ratings)
        mode["levels"] = {level: {"spec": specs[level], "rating": round(r.rating, 1),
                                  "ci95": [round(r.low, 1), round(r.high, 1)],
                                  "shown": shown.get(level)}
                          for level, r in ratings.items()}
        mode["anchor"] = {"level": ANCHOR, "rating": ANCHOR_RATING}
        mode["fitted"] = datetime.datetime.now(datetime.timezone.utc).strftime(
            "%Y-%m-%d %H:%M UTC")
        mode["machine"] = machine()
        mode["browser_strength"] = not specs_note
        lines = [f"{key}{specs_note}", "  pair (stronger vs weaker)     games   wins    95% CI"
                 "            load     goal"]
        for low, high in itertools.combinations(LADDER, 2):
            record = mode["pairs"].get(pair_key(low, high))
            if not record or not record["games"]:
                continue
            games, points = record["games"], record["points"]
            lo, hi, _ = interval95(record)
            adjacent = LADDER.index(high) == LADDER.index(low) + 1
            verdict = ""
            if adjacent:
                verdict = ("ok" if lo >= GOAL else "below 65%" if hi < GOAL else "unsure") + (
                    "" if (hi - lo) / 2 < 0.03 else ", interval over ±3")
            unit = "" if record.get("unit", "games") == "games" else " " + record["unit"]
            lines.append(f"  {high:>8} vs {low:<10} {games:>9}{unit} {points / games:6.1%}"
                         f"  [{lo:5.1%}, {hi:5.1%}]  {record['load'][0]:.1f}-"
                         f"{record['load'][1]:.1f}  {verdict}")
        lines.append("  level      rating   95% CI (Bradley-Terry, normal = 1500)   bot")
        for level in LADDER:
            if level in ratings:
                r = ratings[level]
                lines.append(f"  {level:<9} {r.rating:7.0f}   [{r.low:.0f}, {r.high:.0f}]"
                             f"   shown: {shown.get(level) or 'no figure (too few games)'}"
                             f"   {specs[level]}")
        return "\n".join(lines)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--game", default="jekyll-hyde")
    p.add_argument("--options", help="game options as JSON, e.g. '{\"players\": 3}'")
    p.add_argument("--games", type=int, default=1000, help="games a pair of neighbours")
    p.add_argument("--far-games", type=int, default=0,
                   help="games a pair of levels two or more apart (default 0: not played)")
    p.add_argument("--pairs", help="only these pairs, e.g. beginner-easy,normal-strong")
    p.add_argument("--block", type=int, default=100, help="games played between saves (even)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--unit", choices=UNITS, default="games",
                   help="hands: each deal's first hand alone, not a whole game (Werner's game)")
    p.add_argument("--workers", metavar="N", help="processes (default: one per core)")
    p.add_argument("--file", default=RATINGS_FILE)
    p.add_argument("--fit-only", action="store_true", help="play nothing; fit what is on file")
    p.add_argument("--spec", action="append", default=[], metavar="LEVEL=SPEC",
                   help="try another bot at a level (e.g. 'expert=expert:browser=1;infer=1'); "
                        "only with a --file other than the page's ratings")
    args = p.parse_args()
    try:
        options = json.loads(args.options) if args.options else {}
        workers = parse_workers(args.workers)
        if args.block < 2 or args.block % 2:
            raise ValueError("--block must be an even number of games, at least 2")
        specs, browser = level_specs(args.game)
        specs.update(tried_specs(args.game, args.spec, args.file))
        note = "" if browser else (f" [stand-in strengths: {specs['strong']}, {specs['expert']}; "
                                   "no browser caps in this checkout]")
        key = mode_key(args.game, options)
        if not args.fit_only:
            for low, high, wanted in planned_pairs(args.pairs, args.games, args.far_games):
                play_pair(args.file, key, args.game, options, low, high, specs, wanted,
                          args.block, args.seed, workers, note, args.unit)
        print(refit(args.file, key, specs, note), f"\n  uptime: {os.getloadavg()}", flush=True)
    except (GameError, ValueError) as e:
        p.exit(2, f"error: {e}\n")


if __name__ == "__main__":
    main()
