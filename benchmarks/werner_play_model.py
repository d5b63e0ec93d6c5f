"""Fit the model of play that `infer=1` weighs Werner's worlds by (`WEIGHTS`
in game/jekyll_hyde/search.py) to a bot's own card choices.

    nice -n 19 python benchmarks/werner_play_model.py [--bot heuristic] [--hands 300] \
        [--players 4] [--seed 1]

Not a test: plays `--hands` first hands with every seat the bot (a spec of
game.core.match, e.g. `cheater:iterations=200`), and at each decision where
a seat puts down a card (its own, or as designated) choosing among two or
more, records each card's `features` and which was picked. Per kind of
decision (`_kind`) it fits a conditional logit by Newton's method (a small
ridge keeps it finite) on the first half of the hands and prints the
weights, with the mean log-likelihood gain over a uniform pick (nats a
decision) of the fit and of the module's `WEIGHTS` on the other half.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from game import new_game  # noqa: E402
from game.bots.ratings import solve_linear  # noqa: E402
from game.core.match import _match_bot  # noqa: E402
from game.jekyll_hyde.search import WEIGHTS, _kind, features  # noqa: E402

Row = tuple[list[tuple[float, ...]], int]  # the options' features, the index picked
RIDGE = 1.0


def decisions(spec: str, hands: int, players: int, seed: int) -> list[dict[str, list[Row]]]:
    """Per hand, per kind: the card choices of the hand."""
    out: list[dict[str, list[Row]]] = []
    rng = random.Random(seed)
    for k in range(hands):
        state = new_game("jekyll-hyde", {"players": players, "dealer": k % 4}, seed=seed + k)
        bot = _match_bot("jekyll-hyde", spec)
        rows: dict[str, list[Row]] = {}
        while state.hand_number == 0 and state.to_act is not None:
            legal = state.legal_actions()
            if getattr(bot, "sees_everything", False):
                action = bot.choose_seeing_everything(state, rng)
            else:
                action = bot.choose(state.observation(state.to_act), legal, rng)
            cards = [a for a in legal if a[0] != "@"]
            if action[0] != "@" and len(cards) > 1:
                prev = [(s, c) for s, c, _ in state.plays]
                kind = _kind(prev, state.turn, state.to_act, state.table.side)
                rows.setdefault(kind, []).append(([features(c, prev) for c in cards],
                                                  cards.index(action)))
            state = state.apply(action)
        out.append(rows)
    return out


def gain(rows: list[Row], w: tuple[float, ...]) -> float:
    """Mean log-likelihood over a uniform pick, nats a decision."""
    total = 0.0
    for options, picked in rows:
        s = [sum(a * b for a, b in zip(w, f)) for f in options]
        top = max(s)
        total += s[picked] - top - math.log(sum(math.exp(x - top) for x in s)) \
            + math.log(len(s))
    return total / max(len(rows), 1)


def fit(rows: list[Row], dims: int) -> tuple[float, ...]:
    """The conditional logit's weights by Newton's method, with a ridge."""
    w = [0.0] * dims
    for _ in range(30):
        grad = [-RIDGE * x for x in w]
        hess = [[RIDGE * (i == j) for j in range(dims)] for i in range(dims)]
        for options, picked in rows:
            s = [sum(a * b for a, b in zip(w, f)) for f in options]
            top = max(s)
            e = [math.exp(x - top) for x in s]
            total = sum(e)
            p = [x / total for x in e]
            mean = [sum(p[k] * options[k][i] for k in range(len(p))) for i in range(dims)]
            for i in range(dims):
                grad[i] += options[picked][i] - mean[i]
                for j in range(dims):
                    hess[i][j] += sum(p[k] * options[k][i] * options[k][j]
                                      for k in range(len(p))) - mean[i] * mean[j]
        step = solve_linear(hess, grad)
        w = [a + b for a, b in zip(w, step)]
        if max(abs(x) for x in step) < 1e-6:
            break
    return tuple(w)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--bot", default="heuristic")
    p.add_argument("--hands", type=int, default=300)
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    hands = decisions(args.bot, args.hands, args.players, args.seed)
    half = len(hands) // 2
    print(f"{args.bot}, {args.players} players, {args.hands} hands (fit on the first half, "
          "nats a decision over uniform on the second)")
    for kind in sorted({k for h in hands for k in h}):
        train = [r for h in hands[:half] for r in h.get(kind, [])]
        test = [r for h in hands[half:] for r in h.get(kind, [])]
        if not train or not test:
            continue
        w = fit(train, len(train[0][0][0]))
        module = WEIGHTS.get(kind, (0.0,) * len(w))
        print(f"  {kind:8} n {len(train):5}/{len(test):5}  fit ({', '.join(f'{x:.2f}' for x in w)})"
              f"  held out: fit {gain(test, w):.3f}, WEIGHTS {gain(test, module):.3f}")


if __name__ == "__main__":
    main()
