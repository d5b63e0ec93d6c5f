"""Whether a change to the search left the hand analysis's answers as they
were: a fixed set of (seeded hand, seat, budget) cases analysed, their JSON
written or compared, and the CPU time each took.

    python benchmarks/analysis_same.py save FILE     # before the change
    python benchmarks/analysis_same.py check FILE    # after: the same JSON, or what differs

Not a test: a speed-up of the search must keep every verdict, best choice and
cost exactly (the same random draws in the same order); this says whether it
did, and how long each case took in CPython.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from game import new_game  # noqa: E402
from game.analysis import analyse  # noqa: E402
from game.bots import make_bot  # noqa: E402
from game.core.match import play_out  # noqa: E402
from game.core.transcript import Transcript  # noqa: E402

# (game, options, deal seed, seat, bot at the seat, iterations: None for the page's `cap`)
CASES: list[tuple[str, dict[str, Any], int, str, str, int | None]] = [
    ("jekyll-hyde", {}, 11, "0", "heuristic", None),
    ("jekyll-hyde", {}, 12, "1", "random", None),
    ("jekyll-hyde", {}, 13, "2", "strong", None),
    ("jekyll-hyde", {"players": 3}, 14, "Adam", "heuristic", 1500),
    ("jekyll-vs-hyde", {}, 15, "J", "heuristic", 1500),
    ("dracula", {}, 16, "0", "heuristic", 300),
]


def hand(game: str, options: dict[str, Any], seed: int, seat: str, bot: str) -> Transcript:
    """The game's first hand, `bot` at `seat` and the heuristic elsewhere."""
    start = new_game(game, options, seed)
    by_id = {start.identity(p): p for p in start.players}
    bots = {who: make_bot(game, bot if str(who) == seat else "heuristic") for who in by_id}
    rngs = {who: random.Random(f"{seed}/{who}") for who in by_id}
    actions: list[str] = []
    play_out(start, bots, rngs, lambda s, a: actions.append(a),
             until=lambda s: s.hands_scored >= 1)
    return Transcript(game, options, seed, actions=actions)


def run(only: str | None) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for game, options, seed, seat, bot, iterations in CASES:
        if only and game != only:
            continue
        name = f"{game}/{json.dumps(options, sort_keys=True)}/{seed}/{seat}/{bot}/{iterations}"
        transcript = hand(game, options, seed, seat, bot)
        t0 = time.process_time()
        result = analyse(transcript, seat, 1, iterations=iterations).to_json()
        spent = time.process_time() - t0
        out[name] = result
        print(f"{name}: {len(result['decisions'])} decisions, {spent:.1f} s CPU", flush=True)
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("mode", choices=("save", "check"))
    p.add_argument("file")
    p.add_argument("--game", help="only this game's cases")
    args = p.parse_args()
    print(subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip(), flush=True)
    t0 = time.process_time()
    found = run(args.game)
    print(f"total {time.process_time() - t0:.1f} s CPU", flush=True)
    if args.mode == "save":
        Path(args.file).write_text(json.dumps(found, indent=1, sort_keys=True))
        return
    saved = json.loads(Path(args.file).read_text())
    differ = [name for name in found if saved.get(name) != found[name]]
    print(f"{len(found) - len(differ)} of {len(found)} cases identical"
          + (": differ " + ", ".join(differ) if differ else ""), flush=True)


if __name__ == "__main__":
    main()
