"""How many complete random hands of Dr. Jekyll & Mr. Hyde per second the
public protocol plays in this Python (new_game, legal_actions, apply).

    python benchmarks/hands_per_second.py [--seconds 5]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from game import new_game  # noqa: E402


def hands_per_second(options: dict, seconds: float) -> tuple[float, float]:
    """Whole random games to 1000 points, counted in hands (each hand dealt anew)."""
    rng = random.Random(1)
    hands = actions = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = new_game("jekyll-hyde", options, seed=games)
        while state.to_act is not None:
            state = state.apply(rng.choice(state.legal_actions()))
            actions += 1
        hands += len(state.history)
        games += 1
    elapsed = time.perf_counter() - start
    return hands / elapsed, actions / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    args = parser.parse_args()
    print(f"Python {sys.version.split()[0]}")
    for options in ({"players": 4, "seating": "A"}, {"players": 4, "seating": "B"},
                    {"players": 3}):
        hands, actions = hands_per_second(options, args.seconds)
        label = ", ".join(f"{k}={v}" for k, v in options.items())
        print(f"{label:<22} {hands:8.0f} hands/s  ({actions:,.0f} actions/s)")


if __name__ == "__main__":
    main()
