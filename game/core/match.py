"""Bots playing games: one game, and seat-swapped duplicate matches.

A match gives two bots the two camps of `sides(options)` (teams, roles or
players) on a seeded deal, then plays the same deals again with the camps
exchanged, so luck of the cards cancels out.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from typing import Any, Callable, Hashable

from game import game_module, new_game
from game.bots import make_bot
from game.bots.search import CheatingBot
from game.bots.base import Bot
from game.core.state import BadOptionsError, State


def play_out(state: State, bots: dict[Hashable, Bot], rngs: dict[Hashable, random.Random],
             on_action: Callable[[State, str], None] | None = None) -> State:
    """Play `state` to the end; `bots` and `rngs` are keyed by lasting player."""
    while state.to_act is not None:
        player = state.to_act
        who = state.identity(player)
        bot = bots[who]
        if getattr(bot, "sees_everything", False):  # the benchmark's yardstick only
            action = bot.choose_seeing_everything(state, rngs[who])
        else:
            action = bot.choose(state.observation(player), state.legal_actions(), rngs[who])
        if on_action:
            on_action(state, action)
        state = state.apply(action)
    return state


def wilson95(wins: float, n: int) -> tuple[float, float]:
    """The Wilson score interval at 95% for `wins` out of `n`.

    >>> lo, hi = wilson95(70, 100)
    >>> round(lo, 3), round(hi, 3)
    (0.604, 0.781)
    """
    if n == 0:
        return (0.0, 1.0)
    z = 1.959963984540054
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass
class MatchResult:
    """Wins of each bot, overall and per camp; draws count one half."""

    game: str
    bots: tuple[str, str]
    games: int = 0
    points: dict[str, float] = field(default_factory=dict)
    by_side: dict[str, dict[str, list[float]]] = field(default_factory=dict)

    def win_rate(self) -> dict[str, float]:
        return {b: self.points[b] / self.games if self.games else 0.0 for b in self.points}

    def ci95(self) -> dict[str, list[float]]:
        return {b: [round(x, 4) for x in wilson95(self.points[b], self.games)]
                for b in self.points}

    def side_rates(self) -> dict[str, dict[str, float]]:
        return {b: {side: won / played if played else 0.0
                    for side, (won, played) in sides.items()}
                for b, sides in self.by_side.items()}

    def to_json(self) -> dict[str, Any]:
        return {"games": self.games,
                "win_rate": {b: round(r, 4) for b, r in self.win_rate().items()},
                "ci95": self.ci95(),
                "by_side": {b: {s: round(r, 4) for s, r in sides.items()}
                            for b, sides in self.side_rates().items()}}

    def table(self) -> str:
        lines = [f"{self.game}: {self.games} games, seat-swapped duplicate deals"]
        ci = self.ci95()
        for b, rate in self.win_rate().items():
            sides = ", ".join(f"as {s} {r:.1%}" for s, r in self.side_rates()[b].items())
            lines.append(f"  {b:<12} wins {rate:6.1%}  95% CI [{ci[b][0]:.1%}, {ci[b][1]:.1%}]"
                         f"  ({sides})")
        return "\n".join(lines)


def simulate(game_id: str, bot_names: list[str], games: int, seed: int,
             options: dict[str, Any] | None = None,
             progress: Callable[[int], None] | None = None) -> MatchResult:
    """Play `games` games between two bots, each deal twice with camps swapped."""
    if len(bot_names) != 2:
        raise BadOptionsError(f"a match takes two bots, not {len(bot_names)}: {bot_names}")
    if games < 1:
        raise BadOptionsError(f"games must be at least 1, not {games}")
    labels = _labels(bot_names)
    sides = game_module(game_id).sides(options)
    camps = list(sides)
    result = MatchResult(game_id, (labels[0], labels[1]))
    result.points = {label: 0.0 for label in labels}
    result.by_side = {label: {camp: [0.0, 0] for camp in camps} for label in labels}
    deal_seeds = random.Random(seed)
    for number in range(games):
        if number % 2 == 0:
            deal_seed = deal_seeds.getrandbits(31)
        order = labels if number % 2 == 0 else labels[::-1]
        bots: dict[Hashable, Bot] = {}
        rngs: dict[Hashable, random.Random] = {}
        owner: dict[Hashable, str] = {}
        for camp, label, name in zip(camps, order, _names_for(order, labels, bot_names)):
            for who in sides[camp]:
                bots[who] = _match_bot(game_id, name)
                rngs[who] = random.Random(f"{deal_seed}/{camp}/{who}")
                owner[who] = label
        final = play_out(new_game(game_id, options, seed=deal_seed), bots, rngs)
        for camp, label in zip(camps, order):
            members = sides[camp]
            score = 0.5 if final.winner is None else float(any(final.wins(m) for m in members))
            result.points[label] += score
            result.by_side[label][camp][0] += score
            result.by_side[label][camp][1] += 1
        result.games += 1
        if progress:
            progress(result.games)
    return result


def _match_bot(game_id: str, spec: str) -> Bot:
    """Any bot of the game, or the cheater (a benchmark yardstick, never in `make_bot`)."""
    name, _, settings = spec.partition(":")
    if name != "cheater":
        return make_bot(game_id, spec)
    strong = make_bot(game_id, "strong" + (":" + settings if settings else ""))
    return CheatingBot(budget=strong.budget, iterations=strong.iterations)


def _labels(bot_names: list[str]) -> list[str]:
    """Labels that tell the two bots apart even when they are the same bot."""
    if bot_names[0] == bot_names[1]:
        return [bot_names[0] + "#1", bot_names[1] + "#2"]
    return list(bot_names)


def _names_for(order: list[str], labels: list[str], bot_names: list[str]) -> list[str]:
    return [bot_names[labels.index(label)] for label in order]
