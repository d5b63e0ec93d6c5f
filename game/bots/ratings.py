"""The bot ladder's ratings: fitted from measured games, read by the start screen.

`benchmarks/ladder.py` plays the levels against each other and writes
`ratings.json` beside this module, keyed by the levels' names as players see
them (beginner, easy, normal, strong, expert) with the bot spec each plays;
`fit` turns its result table into Elo-scale ratings, and `level_ratings`
gives the page the ratings of one game and mode, by the page's level ids.

The model is Bradley–Terry on the Elo scale: level i beats level j with
probability 1 / (1 + 10 ** ((r_j - r_i) / 400)), so 200 points apart is about
76%. Ratings are the maximum-likelihood fit of the points scored (a draw is
half a win), with one level held at a fixed rating (normal = 1500). Each pair
played also counts one virtual drawn game (the prior BayesElo uses), so a pair
won every time still gives a finite rating: then the rating gap says little
beyond "more than the games could tell", and its interval is wide. The 95%
intervals come from the observed Fisher information (the inverse of the
log-likelihood's curvature at the fit), relative to the anchor, whose own
interval is its rating.

>>> fitted = fit({("easy", "beginner"): (75.0, 100)}, anchor="beginner", anchor_rating=1000)
>>> round(fitted["easy"].rating)
1189
"""

from __future__ import annotations

import json
import math
import os
from dataclasses import dataclass
from typing import Any, Mapping

from game.bots import LEVEL_NAMES

ELO = 400 / math.log(10)  # Elo points per natural-log unit of the odds
Z95 = 1.959963984540054
VIRTUAL_DRAWS = 1.0  # games added to each played pair, half won by each side
RATINGS_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "ratings.json")


@dataclass(frozen=True)
class Rating:
    """A level's fitted rating and its 95% interval (Elo points)."""

    rating: float
    low: float
    high: float


def fit(results: Mapping[tuple[str, str], tuple[float, int]], anchor: str,
        anchor_rating: float = 1500.0) -> dict[str, Rating]:
    """Bradley–Terry ratings from `results`: (a, b) -> (points of a, games),
    a and b any names of levels (the ratings file's: beginner, ..., expert).

    Levels not connected to `anchor` by played pairs cannot be rated and are
    left out.
    """
    pairs = [(a, b, points, games) for (a, b), (points, games) in results.items() if games > 0]
    linked = _linked(anchor, [(a, b) for a, b, _, _ in pairs])
    pairs = [p for p in pairs if p[0] in linked and p[1] in linked]
    free = sorted(linked - {anchor})
    index = {level: i for i, level in enumerate(free)}
    theta = [0.0] * len(free)

    def strength(level: str, values: list[float]) -> float:
        return 0.0 if level == anchor else values[index[level]]

    def log_likelihood(values: list[float]) -> float:
        total = 0.0
        for a, b, points, games in pairs:
            won, played = points + VIRTUAL_DRAWS / 2, games + VIRTUAL_DRAWS
            d = strength(a, values) - strength(b, values)
            total += won * _log_sigmoid(d) + (played - won) * _log_sigmoid(-d)
        return total

    def gradient_and_information(values: list[float]) -> tuple[list[float], list[list[float]]]:
        gradient = [0.0] * len(free)
        information = [[0.0] * len(free) for _ in free]
        for a, b, points, games in pairs:
            won, played = points + VIRTUAL_DRAWS / 2, games + VIRTUAL_DRAWS
            p = _sigmoid(strength(a, values) - strength(b, values))
            curvature = played * p * (1 - p)
            for level, sign in ((a, 1.0), (b, -1.0)):
                if level in index:
                    gradient[index[level]] += sign * (won - played * p)
                    information[index[level]][index[level]] += curvature
            if a in index and b in index:
                information[index[a]][index[b]] -= curvature
                information[index[b]][index[a]] -= curvature
        return gradient, information

    for _ in range(200):  # Newton's method with step halving: the likelihood is concave
        gradient, information = gradient_and_information(theta)
        step = solve_linear(information, gradient)
        before, scale = log_likelihood(theta), 1.0
        while True:
            trial = [t + scale * s for t, s in zip(theta, step)]
            if log_likelihood(trial) >= before - 1e-12 or scale < 1e-6:
                break
            scale /= 2
        theta = trial
        if max((abs(s) * scale for s in step), default=0.0) < 1e-10:
            break
    _, information = gradient_and_information(theta)
    covariance = _inverse(information)
    out = {anchor: Rating(anchor_rating, anchor_rating, anchor_rating)}
    for level, i in index.items():
        rating = anchor_rating + ELO * theta[i]
        half = Z95 * ELO * math.sqrt(max(covariance[i][i], 0.0))
        out[level] = Rating(rating, rating - half, rating + half)
    return out


def load_ratings(path: str = RATINGS_FILE) -> dict[str, Any]:
    """The ratings file as data; empty when there is none yet."""
    try:
        # Through the module's loader, which also reads inside game.zip (the page).
        raw = __loader__.get_data(path)  # type: ignore[name-defined]
    except OSError:
        if os.path.exists(path):  # a file that is there but unreadable
            raise
        return {"modes": {}}
    data: dict[str, Any] = json.loads(raw.decode("utf-8"))
    return data


def level_ratings(game: str, options: Mapping[str, Any],
                  data: Mapping[str, Any] | None = None) -> dict[str, str]:
    """Level id (the page's, `game.bots.LEVELS`) -> rating as the start screen
    shows it, for `game` played with `options`, from the measured mode that
    matches them most closely (all its options equal); empty when no mode of
    the game was measured.

    The file names each level as players do (`game.bots.LEVEL_NAMES`: normal,
    not heuristic) with the bot spec it plays (`spec`) and what to show
    (`shown`, benchmarks/ladder.py decides: a floor such as "1665+", or
    nothing where too few games were played); a level without it shows no
    figure.

    >>> data = {"modes": {"g": {"game": "g", "options": {}, "levels": {"normal": {"shown": "1500"}}},
    ...         "g p=3": {"game": "g", "options": {"p": 3}, "levels": {"beginner": {"shown": "1400"},
    ...             "strong": {"shown": "2010+"}, "expert": {"shown": None}}}}}
    >>> level_ratings("g", {"p": 3}, data), level_ratings("g", {"p": 4}, data)
    ({'random': '1400', 'strong': '2010+'}, {'heuristic': '1500'})
    """
    data = load_ratings() if data is None else data
    matching = [mode for mode in data.get("modes", {}).values()
                if mode.get("game") == game
                and all(options.get(k) == v for k, v in mode.get("options", {}).items())]
    if not matching:
        return {}
    best = max(matching, key=lambda mode: len(mode.get("options", {})))
    rated = best.get("levels", {})
    return {level: rated[name]["shown"] for level, name in LEVEL_NAMES.items()
            if rated.get(name, {}).get("shown")}


def _linked(start: str, edges: list[tuple[str, str]]) -> set[str]:
    seen, todo = {start}, [start]
    while todo:
        here = todo.pop()
        for a, b in edges:
            for x, y in ((a, b), (b, a)):
                if x == here and y not in seen:
                    seen.add(y)
                    todo.append(y)
    return seen


def _sigmoid(x: float) -> float:
    return 1 / (1 + math.exp(-x)) if x >= 0 else math.exp(x) / (1 + math.exp(x))


def _log_sigmoid(x: float) -> float:
    return -math.log1p(math.exp(-x)) if x >= 0 else x - math.log1p(math.exp(x))


def solve_linear(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """x with matrix · x = vector (Gauss–Jordan with partial pivoting; a handful of levels)."""
    n = len(vector)
    rows = [row[:] + [v] for row, v in zip(matrix, vector)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(rows[r][col]))
        rows[col], rows[pivot] = rows[pivot], rows[col]
        lead = rows[col][col]
        rows[col] = [x / lead for x in rows[col]]
        for r in range(n):
            if r != col and rows[r][col]:
                factor = rows[r][col]
                rows[r] = [x - factor * y for x, y in zip(rows[r], rows[col])]
    return [row[n] for row in rows]


def _inverse(matrix: list[list[float]]) -> list[list[float]]:
    n = len(matrix)
    columns = [solve_linear(matrix, [float(i == j) for i in range(n)]) for j in range(n)]
    return [[columns[j][i] for j in range(n)] for i in range(n)]
