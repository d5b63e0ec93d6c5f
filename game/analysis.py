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
from dataclasses import asdict, dataclass
from typing import Any, Callable, Hashable, NamedTuple, Sequence

from game import state_from_json
from game.bots.search import Search, Solve, rules_of, searcher
from game.core.state import GameError, Player, State
from game.core.transcript import Transcript

VERDICTS = ("fine", "inaccuracy", "mistake", "blunder")


@dataclass(frozen=True)
class Scale:
    """How one game's costs read: their unit, and the least cost of each
    verdict after "fine" (inaccuracy, mistake, blunder), in that unit.

    The thresholds are calibrated with benchmarks/analysis.py (`levels
    --levels random,expert`, then `shares`; the figures, dated, in
    benchmarks/RESULTS.md, "Hand analysis (issue 56)"): the expert's own
    decisions are "fine" at least 90% of the time, and the beginner's
    blunders (a card a player sees was wrong at once) are 9-21% of its
    decisions and the expert's none."""

    unit: str
    thresholds: tuple[float, float, float]
    endgame: int  # the expert's `endgame` setting: solve each world from this many cards
    hindsight: int  # the hindsight line: solve the real state from this many cards on
    # An exact decision values each choice in at most this many worlds (None:
    # as many as the cap allows): Werner's three last tricks take up to a
    # tenth of a second a world in CPython.
    exact_worlds: int | None = None


# Measured 2026-12-02 on 35-48 decisions a level and game (see `Scale`).
SCALES: dict[str, Scale] = {
    "jekyll-hyde": Scale("points", (15.0, 25.0, 40.0), endgame=3, hindsight=3,
                         exact_worlds=40),
    "jekyll-vs-hyde": Scale("marker steps", (0.5, 1.0, 1.5), endgame=4, hindsight=5),
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


def accuracy(decisions: Sequence[Decision]) -> float:
    """The share of `decisions` judged fine (1.0 with none)."""
    if not decisions:
        return 1.0
    return sum(d.verdict == "fine" for d in decisions) / len(decisions)


def costliest(decisions: Sequence[Decision], count: int = 3) -> list[Decision]:
    """The `count` decisions that cost most, costliest first (none that cost nothing)."""
    costly = [d for d in decisions if d.cost > 0]
    return sorted(costly, key=lambda d: (-d.cost, d.step))[:count]


@dataclass(frozen=True)
class Analysis:
    """A game's analysed decisions for one seat."""

    game: str
    seat: str
    unit: str
    decisions: list[Decision]

    def accuracy(self) -> float:
        return accuracy(self.decisions)

    def costliest(self, count: int = 3) -> list[Decision]:
        return costliest(self.decisions, count)

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

    >>> verdict("jekyll-hyde", 0.0), verdict("jekyll-hyde", 30.0), verdict("dracula", 99.0)
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
    # (statistics brings decimal with it: imported here, not when the page starts)
    from statistics import NormalDist

    equivalent: float = spread * NormalDist().inv_cdf(clipped) - lead
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
    search = _search(observation, rng, iterations)
    while not search.finished():
        search.iterate()
    return _judgement(observation, search)


def _search(observation: dict[str, Any], rng: random.Random,
            iterations: int | None) -> Search | Solve:
    """The expert's search for one decision, set up to value every choice."""
    scale = SCALES[observation["game"]]
    most = iterations or cap(observation)
    search = searcher(observation, rng, most, lambda: 0.0, endgame=scale.endgame,
                      enumerate=True)
    if isinstance(search, Solve):
        search.racing = False  # every choice valued in every world: each cost, not just the best
        if scale.exact_worlds is not None:
            # (listed worlds are then drawn without repeats: a sample of them all)
            search.cap = min(most, scale.exact_worlds * len(search.actions))
    return search


def _judgement(observation: dict[str, Any], search: Search | Solve) -> Judgement:
    """What a finished `search` makes of the decision at `observation`."""
    legal = list(observation["legal"])
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
    judging = Judging(state.observation(state.to_act), step, hand, chosen, rng, iterations,
                      state)
    while not judging.finished():
        judging.work()
    return judging.decision()


class Judging:
    """One decision's judgement under way (`judge_decision`), in slices: the
    page's worker does `work` between frames. The same iterations in the same
    order as in one go, so the verdict is the command line's (and `judge`'s
    for `observation`). `state`: the full state behind it, for the hindsight
    line alone; None where only the seat's observation is known (an online
    guest's page): no hindsight line then."""

    def __init__(self, observation: dict[str, Any], step: int, hand: int, chosen: str,
                 rng: random.Random, iterations: int | None = None,
                 state: State | None = None) -> None:
        self.state, self.step, self.hand, self.chosen = state, step, hand, chosen
        self.observation = observation  # all the search ever reads
        self.search = _search(observation, rng, iterations)

    def finished(self) -> bool:
        return self.search.finished()

    def work(self, until: Callable[[], bool] = lambda: False) -> None:
        """Iterate the search until it is finished or `until()` says stop (one slice)."""
        while not self.search.finished():
            self.search.iterate()
            if until():
                return

    def decision(self) -> Decision:
        """The finished judgement, with its hindsight line where the rest is solvable."""
        judgement = _judgement(self.observation, self.search)
        game = self.observation["game"]
        cost = judgement.costs[self.chosen]
        seen = None if self.state is None else hindsight(self.state, self.state.to_act)
        line = None
        if seen is not None:
            best = (self.chosen if seen[self.chosen] == 0
                    else min(seen, key=lambda a: (seen[a], a)))
            line = Hindsight(best, seen[self.chosen], verdict(game, seen[self.chosen]))
        return Decision(self.step, self.hand, self.chosen, judgement.best, cost,
                        verdict(game, cost), judgement.costs, line)


def decisions_of(transcript: Transcript, seat: str | None = None,
                 hand: int | None = None) -> tuple[str, list[_Task]]:
    """The seat (as text) and its decisions to analyse in `transcript`: each
    of its turns with more than one legal choice, in hand `hand` (1 for the
    first) or in every hand played to its end (one still under way is left
    alone: the analysis is for after a hand); `seat` defaults to the
    transcript's `me`, else the first player."""
    states = transcript.states()
    first = states[0]
    who = identity_of(first, seat if seat is not None else transcript.me)
    hands = states[-1].hands_scored
    if hands == 0:
        raise AnalysisError("no hand of this game is finished: there is nothing to analyse",
                            code="no_finished_hand")
    if hand is not None and not 1 <= hand <= hands:
        raise AnalysisError(f"--hand {hand}: the finished hands are 1 to {hands}",
                            code="hand_out_of_range", params={"hand": hand, "hands": hands})
    tasks = [_Task(step, number, states[step].to_json(), transcript.actions[step],
                   decision_seed(transcript, step), None)
             for step, number in decision_steps(states, who, hand)]
    return str(who), tasks


def decision_steps(states: Sequence[State], who: Hashable,
                   hand: int | None = None) -> list[tuple[int, int]]:
    """(step, hand number) of each decision of the lasting player `who` with
    more than one legal choice, in hand `hand` or in every finished hand
    (`states`: a transcript's, before each action and after the last)."""
    hands = states[-1].hands_scored
    found = []
    for step, state in enumerate(states[:-1]):
        player = state.to_act
        number = state.hands_scored + 1
        if (player is None or state.identity(player) != who or number > hands
                or (hand is not None and number != hand) or len(state.legal_actions()) < 2):
            continue
        found.append((step, number))
    return found


def identity_of(state: State, seat: Any) -> Hashable:
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


# -- kept with the game: a save's or a transcript's optional `analysis` field ----------

MAX_STORED = 400  # hand analyses kept with a game (a long Werner game has a few dozen hands)


@dataclass(frozen=True)
class HandAnalysis:
    """One seat's analysed decisions in one hand: a whole hand's, as kept."""

    seat: str  # the lasting player, as text
    hand: int  # 1 for the game's first
    decisions: tuple[Decision, ...]

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "hand": self.hand,
                "decisions": [d.to_json() for d in self.decisions]}


def read_stored(data: Any, states: Sequence[State], actions: Sequence[str]) -> list[HandAnalysis]:
    """The `analysis` field kept with a game (a list of `HandAnalysis.to_json()`),
    checked against the game it came with (`states`, `actions`: its replay):
    every decision of that seat in that hand, each the action really taken,
    every legal choice costed. AnalysisError names what is wrong; the caller
    drops the whole field and keeps the game."""
    if type(data) is not list or len(data) > MAX_STORED:
        raise AnalysisError(f"not a list of at most {MAX_STORED} hand analyses")
    found = []
    steps_of: dict[Hashable, list[tuple[int, int]]] = {}  # each seat's, listed once
    for i, entry in enumerate(data):
        where = f"analysis[{i}]"
        if type(entry) is not dict or set(entry) != {"seat", "hand", "decisions"}:
            raise AnalysisError(f"{where} is not a hand's analysis")
        seat, hand, decided = entry["seat"], entry["hand"], entry["decisions"]
        if type(seat) is not str or type(hand) is not int or type(decided) is not list:
            raise AnalysisError(f"{where}: its seat, hand or decisions are malformed")
        who = identity_of(states[0], seat)
        if who not in steps_of:
            steps_of[who] = decision_steps(states, who)
        expected = [(step, number) for step, number in steps_of[who] if number == hand]
        if not 1 <= hand <= states[-1].hands_scored or len(decided) != len(expected):
            raise AnalysisError(f"{where}: not the decisions of hand {hand} of seat {seat[:40]!r}")
        found.append(HandAnalysis(str(who), hand, tuple(
            _read_decision(d, states[step], actions[step], step, number, f"{where}.decisions[{k}]")
            for k, (d, (step, number)) in enumerate(zip(decided, expected)))))
    return found


def _read_decision(data: Any, state: State, action: str, step: int, hand: int,
                   where: str) -> Decision:
    """One kept decision, checked against the position it judged."""
    keys = {"step", "hand", "chosen", "best", "cost", "verdict", "costs"}
    if type(data) is not dict or not keys <= set(data) <= keys | {"hindsight"}:
        raise AnalysisError(f"{where} is not a decision")
    legal = set(state.legal_actions())
    costs = data["costs"]
    if (data["step"] != step or data["hand"] != hand or data["chosen"] != action
            or type(costs) is not dict or set(costs) != legal
            or not all(_is_cost(c) for c in costs.values())):
        raise AnalysisError(f"{where} does not judge the game's decision at step {step}")
    best, cost, said = data["best"], data["cost"], data["verdict"]
    if best not in legal or costs[best] != 0 or cost != costs[action] or said not in VERDICTS:
        raise AnalysisError(f"{where}: its best choice, cost or verdict is not its own")
    line = None
    if "hindsight" in data:
        h = data["hindsight"]
        if (type(h) is not dict or set(h) != {"best", "cost", "verdict"}
                or h["best"] not in legal or not _is_cost(h["cost"])
                or h["verdict"] not in VERDICTS):
            raise AnalysisError(f"{where}.hindsight is malformed")
        line = Hindsight(h["best"], float(h["cost"]), h["verdict"])
    return Decision(step, hand, action, best, float(cost), said,
                    {a: float(c) for a, c in costs.items()}, line)


def _is_cost(value: Any) -> bool:
    return type(value) in (int, float) and math.isfinite(value) and 0 <= value < 1e6
