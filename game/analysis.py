"""Hand analysis: what the expert would have played at each of a person's
decisions in a finished game, from what that person could see, and what
the person's choice cost.

`analyse(transcript, seat)` replays a game and, at each decision of that
seat with more than one legal choice, hands the seat's observation (and
nothing else) to `judge`: the expert's search (game.bots.search: the same
worlds drawn from the observation, the same utility, solving each world
exactly in the last tricks as the expert's `endgame` setting does, listing
every world when few) runs to a fixed iteration cap with a `random.Random`
seeded by the game's seed and the decision's step, so a verdict is the
same on any machine and for any number of workers. Every legal choice gets
the search's average value; the person's choice costs the difference to
the expert's, read in the game's unit (`units`): Werner's game, points of
the team's margin in the hand; the duel, steps of the marker in the round;
Dracula, points of the deal's score difference. Each cost gets a verdict
by the game's thresholds (`SCALES`, data).

Where the rest of the hand is small enough to solve exactly, `hindsight`
values every choice again with all cards seen (the real state, like
bridge's double-dummy table): a separate line, labelled so, and the only
part of the analysis that reads a hidden card.
"""

from __future__ import annotations

import math
import random
import statistics
from dataclasses import asdict, dataclass
from typing import Any, Hashable, NamedTuple, Sequence

from game import state_from_json
from game.bots.search import Solve, rules_of, searcher
from game.core.state import GameError, Player, State
from game.core.transcript import Transcript

VERDICTS = ("fine", "inaccuracy", "mistake", "blunder")


@dataclass(frozen=True)
class Scale:
    """How one game's costs read: their unit, and the least cost of each
    verdict after "fine" (inaccuracy, mistake, blunder), in that unit.

    The thresholds were calibrated with benchmarks/analysis.py: the expert's
    own decisions (1 s a move, judged by this analysis) are "fine" at least
    90% of the time, and a blunder costs about what a beginner's typical
    bad card does."""

    unit: str
    thresholds: tuple[float, float, float]
    endgame: int  # the expert's `endgame` setting: solve each world from this many cards
    hindsight: int  # the hindsight line: solve the real state from this many cards on
    # An exact decision values each choice in at most this many worlds (None:
    # as many as the cap allows): Werner's three last tricks take up to a
    # tenth of a second a world in CPython.
    exact_worlds: int | None = None


SCALES: dict[str, Scale] = {
    "jekyll-hyde": Scale("points", (15.0, 40.0, 90.0), endgame=3, hindsight=3,
                         exact_worlds=40),
    "jekyll-vs-hyde": Scale("marker steps", (0.5, 1.0, 2.0), endgame=4, hindsight=5),
    "dracula": Scale("deal points", (3.0, 8.0, 16.0), endgame=0, hindsight=7),
}

# The search's iterations a decision: the page's expert level reaches about
# these in its budget (game/bots/browser_caps.json, at the decision's stage);
# twice that keeps verdicts stable between seeds.
ITERATIONS_FACTOR = 2


class AnalysisError(GameError):
    """A game that cannot be analysed as asked: a bad seat or hand."""

    default_code = "bad_analysis"


@dataclass(frozen=True)
class Hindsight:
    """The same decision valued with every card seen (not what the person
    could know): the best choice then and what the person's cost."""

    best: str
    cost: float
    verdict: str


@dataclass(frozen=True)
class Decision:
    """One analysed decision of the person's."""

    step: int  # the action's index in the transcript
    hand: int  # 1 for the game's first hand (round, deal)
    chosen: str
    best: str  # the expert's choice, from the person's observation
    cost: float  # what `chosen` cost against `best`, in the game's unit (never below 0)
    verdict: str
    costs: dict[str, float]  # every legal choice's cost against the best value
    hindsight: Hindsight | None = None

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        if self.hindsight is None:
            del data["hindsight"]
        return data


@dataclass(frozen=True)
class Analysis:
    """A game's analysed decisions for one seat."""

    game: str
    seat: str
    unit: str
    decisions: list[Decision]

    def accuracy(self) -> float:
        """The share of decisions judged fine (1.0 with none)."""
        if not self.decisions:
            return 1.0
        return sum(d.verdict == "fine" for d in self.decisions) / len(self.decisions)

    def costliest(self, count: int = 3) -> list[Decision]:
        """The `count` decisions that cost most, costliest first (none that cost nothing)."""
        costly = [d for d in self.decisions if d.cost > 0]
        return sorted(costly, key=lambda d: (-d.cost, d.step))[:count]

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "seat": self.seat, "unit": self.unit,
                "accuracy": round(self.accuracy(), 4),
                "decisions": [d.to_json() for d in self.decisions]}

    def text(self) -> str:
        """The verdicts, one decision a line, for the command line."""
        lines = [f"{self.game}, seat {self.seat}: {len(self.decisions)} decisions, "
                 f"{self.accuracy():.0%} fine (costs in {self.unit})"]
        for d in self.decisions:
            line = (f"  hand {d.hand} step {d.step}: played {d.chosen}, expert {d.best}, "
                    f"cost {d.cost:.1f}: {d.verdict}")
            lines.append(line)
            if d.hindsight is not None:
                h = d.hindsight
                lines.append(f"      hindsight, all cards seen: best {h.best}, "
                             f"cost {h.cost:.1f}: {h.verdict}")
        worst = self.costliest()
        if worst:
            lines.append("costliest: " + ", ".join(f"step {d.step} ({d.cost:.1f})" for d in worst))
        return "\n".join(lines)


def verdict(game_id: str, cost: float) -> str:
    """The verdict of a cost in `game_id`'s unit, by its `SCALES` thresholds.

    >>> verdict("jekyll-hyde", 0.0), verdict("jekyll-hyde", 50.0), verdict("dracula", 99.0)
    ('fine', 'mistake', 'blunder')
    """
    index = sum(cost >= t for t in SCALES[game_id].thresholds)
    return VERDICTS[index]


def units(observation: dict[str, Any], value: float) -> float:
    """A search value (0 to 1, for the deciding player) in the game's unit.

    Werner's game values a hand 0.5 + margin / 500 (the endgame's
    SCORE_SCALE), the duel a round 1 - marker / 10 for Jekyll, so those read
    back exactly (the duel's third round, where reaching the track's end
    outweighs any step, reads in steps' worth). Dracula values a deal's
    difference d by the chance to win the game that it leaves: before the
    sixth deal this is read back as the d that gives that chance (a
    certainty equivalent), in the sixth deal as a margin of 40 points a unit.

    >>> units({"game": "jekyll-vs-hyde"}, 0.7)
    7.0
    """
    game = observation["game"]
    if game == "jekyll-hyde":
        from game.jekyll_hyde.endgame import SCORE_SCALE as WERNER_SCALE

        return (value - 0.5) * 2 * WERNER_SCALE
    if game == "jekyll-vs-hyde":
        from game.jekyll_vs_hyde.rules import TRACK_END

        return value * TRACK_END
    from game.dracula import search as dracula
    from game.dracula.rules import DEALS

    me = observation["player"]
    totals = observation["totals"]
    lead = totals[str(me)] - totals[str(1 - me)]
    left = DEALS - 1 - observation["deal_number"]
    if left == 0:
        return value * 2 * dracula.SCORE_SCALE
    spread = dracula.DEAL_SPREAD * math.sqrt(left)
    edge = 0.5 * (1.0 + math.erf(dracula._CLIP / math.sqrt(2)))
    clipped = min(edge, max(1.0 - edge, value))
    equivalent: float = spread * statistics.NormalDist().inv_cdf(clipped) - lead
    return equivalent


def cap(observation: dict[str, Any]) -> int:
    """The search's iterations for this decision (see `ITERATIONS_FACTOR`):
    those of the bot that plays the game's expert level in the page."""
    from game.bots import levels, make_bot
    from game.bots.search import browser_cap

    game = observation["game"]
    page_level = getattr(make_bot(game, levels(game)["expert"]), "page_level")
    return ITERATIONS_FACTOR * browser_cap(game, page_level, rules_of(game).stage(observation))


class Judgement(NamedTuple):
    """What the search makes of one decision: the expert's choice and every
    legal choice's cost in the game's unit."""

    best: str
    costs: dict[str, float]


def judge(observation: dict[str, Any], rng: random.Random,
          iterations: int | None = None) -> Judgement:
    """The expert's choice and each legal choice's cost, from `observation`
    alone (a seat's own, with `legal`): the expert's search to `iterations`
    (default `cap`)."""
    legal = list(observation["legal"])
    game = observation["game"]
    scale = SCALES[game]
    most = iterations or cap(observation)
    search = searcher(observation, rng, most, lambda: 0.0, endgame=scale.endgame,
                      enumerate=True)
    if isinstance(search, Solve):
        search.racing = False  # every choice valued in every world: each cost, not just the best
        if scale.exact_worlds is not None:
            # (listed worlds are then drawn without repeats: a sample of them all)
            search.cap = min(most, scale.exact_worlds * len(search.actions))
    while not search.finished():
        search.iterate()
    values = {action: value for action, _, value in search.ranking()}
    alias = search.alias
    worth = {a: values.get(alias.get(a, a), min(values.values(), default=0.0)) for a in legal}
    best = search.best(legal)
    top = units(observation, worth[best])
    return Judgement(best, {a: round(max(0.0, top - units(observation, worth[a])), 3)
                            for a in legal})


def hindsight(state: State, player: Player) -> dict[str, float] | None:
    """Every legal choice's cost with all cards seen (the real `state`: both
    sides then playing the rest of the hand perfectly), or None where the
    rest of the hand is too large to solve exactly."""
    observation = state.observation(player)
    game = observation["game"]
    rules = rules_of(game)
    size = SCALES[game].hindsight
    small = (rules.solves(observation) if game == "dracula"
             else rules.exact_at(observation, size))
    if not small:
        return None
    worth = rules.solver(state, player)
    values = {a: worth(a) for a in state.legal_actions()}
    top = max(units(observation, v) for v in values.values())
    return {a: round(max(0.0, top - units(observation, v)), 3) for a, v in values.items()}


class _Task(NamedTuple):
    """One decision to analyse: everything a worker process needs."""

    step: int
    hand: int
    state: dict[str, Any]  # the state's to_json(), for the hindsight line only
    chosen: str
    seed: str
    iterations: int | None


def decision_seed(transcript: Transcript, step: int) -> str:
    """The seed of the search at `step`: the same on every machine and worker."""
    return f"analysis/{transcript.game}/{transcript.seed}/{step}"


def analyse_decision(task: _Task) -> Decision:
    """`judge_decision` for one task (a worker process's unit)."""
    return judge_decision(state_from_json(task.state), task.step, task.hand, task.chosen,
                          random.Random(task.seed), task.iterations)


def judge_decision(state: State, step: int, hand: int, chosen: str, rng: random.Random,
                   iterations: int | None = None) -> Decision:
    """The decision `chosen` at `state`: judged from the observation of the
    player to act alone (`judge`), then, apart, its hindsight line."""
    player = state.to_act
    observation = state.observation(player)
    judgement = judge(observation, rng, iterations)
    game = observation["game"]
    cost = judgement.costs[chosen]
    seen = hindsight(state, player)
    line = None
    if seen is not None:
        best = chosen if seen[chosen] == 0 else min(seen, key=lambda a: (seen[a], a))
        line = Hindsight(best, seen[chosen], verdict(game, seen[chosen]))
    return Decision(step, hand, chosen, judgement.best, cost, verdict(game, cost),
                    judgement.costs, line)


def decisions_of(transcript: Transcript, seat: str | None = None,
                 hand: int | None = None) -> tuple[str, list[_Task]]:
    """The seat (as text) and its decisions to analyse in `transcript`: each
    of its turns with more than one legal choice, in hand `hand` (1 for the
    first) or in every hand played to its end (one still under way is left
    alone: the analysis is for after a hand); `seat` defaults to the
    transcript's `me`, else the first player."""
    states = transcript.states()
    first = states[0]
    who = _identity(first, seat if seat is not None else transcript.me)
    hands = states[-1].hands_scored
    if hands == 0:
        raise AnalysisError("no hand of this game is finished: there is nothing to analyse",
                            code="no_finished_hand")
    if hand is not None and not 1 <= hand <= hands:
        raise AnalysisError(f"--hand {hand}: the finished hands are 1 to {hands}",
                            code="hand_out_of_range", params={"hand": hand, "hands": hands})
    tasks = []
    for step, (state, action) in enumerate(zip(states, transcript.actions)):
        player = state.to_act
        number = state.hands_scored + 1
        if (player is None or state.identity(player) != who or number > hands
                or (hand is not None and number != hand) or len(state.legal_actions()) < 2):
            continue
        tasks.append(_Task(step, number, state.to_json(), action,
                           decision_seed(transcript, step), None))
    return str(who), tasks


def _identity(state: State, seat: Any) -> Hashable:
    """The lasting player behind `seat` (a seat as text or a name), or the first player's."""
    if seat is None:
        return state.identity(state.players[0])
    for player in state.players:
        if str(player) == str(seat) or str(state.identity(player)) == str(seat):
            return state.identity(player)
    raise AnalysisError(f"--seat {str(seat)[:40]!r}: players are "
                        f"{', '.join(map(str, state.players))}",
                        code="unknown_seat", params={"seat": str(seat)[:40]})


MAX_ITERATIONS = 1_000_000


def check_iterations(iterations: int | None) -> None:
    """Refuse a search cap below 1 or above `MAX_ITERATIONS` (None: each decision's `cap`)."""
    if iterations is not None and not 1 <= iterations <= MAX_ITERATIONS:
        raise AnalysisError(f"--iterations must be from 1 to {MAX_ITERATIONS}, not {iterations}",
                            code="iterations", params={"iterations": iterations,
                                                       "most": MAX_ITERATIONS})


def analyse(transcript: Transcript, seat: str | None = None, hand: int | None = None,
            workers: Any = 1, iterations: int | None = None) -> Analysis:
    """Analyse the decisions of `seat` (see `decisions_of`) in a game's
    finished hands. `workers`: processes or a Dask scheduler (game.core.match's
    `map_in_order`); the result is the same for any. `iterations` overrides
    each search's cap (quick tests)."""
    from game.core.match import map_in_order

    check_iterations(iterations)
    shown, tasks = decisions_of(transcript, seat, hand)
    tasks = [t._replace(iterations=iterations) for t in tasks]
    decisions = map_in_order(analyse_decision, tasks, workers)
    return Analysis(transcript.game, shown, SCALES[transcript.game].unit, decisions)


def analyse_files(paths: Sequence[str], seat: str | None = None, hand: int | None = None,
                  workers: Any = 1, iterations: int | None = None) -> list[Analysis]:
    """Analyse several transcripts (`analyse`), their decisions shared among `workers`."""
    from game.core.match import map_in_order

    check_iterations(iterations)
    jobs: list[tuple[int, _Task]] = []
    heads: list[tuple[Transcript, str]] = []
    for number, path in enumerate(paths):
        transcript = Transcript.load(path)
        shown, tasks = decisions_of(transcript, seat, hand)
        heads.append((transcript, shown))
        jobs += [(number, task._replace(iterations=iterations)) for task in tasks]
    done = map_in_order(analyse_decision, [task for _, task in jobs], workers)
    analyses = []
    for number, (transcript, shown) in enumerate(heads):
        mine = [d for (n, _), d in zip(jobs, done) if n == number]
        analyses.append(Analysis(transcript.game, shown, SCALES[transcript.game].unit, mine))
    return analyses
