"""Information Set Monte Carlo Tree Search (Cowling, Powley & Whitehouse 2012),
for any game whose package has a `search` module.

Each iteration samples a world consistent with the bot's observation (the
game's `Sampler`), walks the shared tree with UCB restricted to the actions
legal in that world, adds one node, plays the world out with the game's
greedy `playout_action` to the search horizon (the end of the current
deal), and credits every node with the outcome for the player who chose it.

When the game can solve a sampled world exactly from the decision on (its
`search` module's `solves(observation)`; Dracula's last placements), the
bot does that instead (`Solve`): each iteration values one action in one
sampled world with both sides playing that world perfectly, and the answer
is the action with the best average over the worlds (determinized search,
as in bridge programs; Long et al. 2010 on why it works well).  Actions
clearly worse than the leader in the same worlds drop out early, so more
worlds go to the contenders.

The bot is anytime: it stops at its deadline, at its iteration cap, or when
`cancel()` is called, and answers with the action it rates best so far.  It
never sees the real state: only the observation it is handed.

Benchmarks that should meet the bot as a player does in the browser (where
it thinks on a clock) give it `browser=1`: it then stops at the iterations
that the page's search reaches in its budget at that stage of the game
(`BROWSER_CAPS`, measured by benchmarks/browser_caps.py), with no clock, so
it stays deterministic for a seed.
"""

from __future__ import annotations

import functools
import importlib
import json
import math
import random
import time
from pathlib import Path
from typing import Any, Callable

from game.core.state import BadOptionsError, State

EXPLORATION = 0.7


class _Node:
    __slots__ = ("children", "visits", "reward", "available")

    def __init__(self) -> None:
        self.children: dict[str, _Node] = {}
        self.visits = 0
        self.reward = 0.0
        self.available = 1


class SearchBot:
    """ISMCTS under a time budget (seconds) and/or an iteration cap.

    With only a cap it is deterministic for a given seed on any machine
    (matches use that); with neither, it thinks as its level does in its game
    (`level_bot`): `default_iterations` if set, else `default_budget` seconds.
    `browser=1`: the cap is, at each decision, the iterations the page
    reaches in `default_budget` at that stage (`browser_cap`); a level that
    thinks a fixed number of iterations plays them, as it does everywhere.
    `endgame=N`: once its hand holds at most N cards (in Werner's game:
    N tricks are left), a game whose search module has `exact_at` (the duel,
    Werner's game) solves each sampled world exactly (`Solve`) instead of
    searching a tree; off by default until the page's
    caps for it are measured (a cap counts exact valuations then, not tree
    iterations).
    `infer=1`: in a game whose search module `infers` (Dracula, Werner's
    game), the worlds are drawn by how likely they make the hidden players'
    plays so far under a model of their play (the game's
    `Sampler(observation, infer=True)`), not uniformly; still from the
    observation alone.
    `enumerate=1`: in a game whose `Sampler` lists the opponent's possible
    hands (`hands(limit)`: the duel once his exchange is known; Werner's
    game, the hidden hands, late in a hand), when they
    number at most the decision's cap (at most `ENUMERATE_MAX` without one),
    each world is drawn once, in a shuffled order, before any is drawn again;
    an exact decision (`Solve`) stops once every world is valued: its answer
    is then the exact average over them all.
    """

    name = "strong"
    default_budget = 1.0  # seconds a move when neither budget nor cap is given
    default_iterations: int | None = None  # instead: this many iterations, on any machine
    page_level = "strong"  # whose caps in BROWSER_CAPS `browser=1` plays at

    def __init__(self, budget: float | None = None, iterations: int | None = None,
                 browser: int = 0, endgame: int = 0, infer: int = 0, enumerate: int = 0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        if browser and (budget is not None or iterations is not None):
            raise BadOptionsError("browser=1 sets the iteration caps itself: give it no "
                                  "iterations or budget", code="invalid_bot_setting",
                                  params={"bot": self.name, "setting": "browser"})
        if budget is None and iterations is None and self.default_iterations is not None:
            iterations, browser = self.default_iterations, 0  # the same in the page
        if budget is None:
            budget = math.inf if iterations is not None or browser else self.default_budget
        if budget == math.inf and iterations is None and not browser:
            raise BadOptionsError(f"{self.name}: a search with neither a time budget nor an "
                                  "iteration cap would never end (give it iterations=N)",
                                  code="invalid_bot_setting",
                                  params={"bot": self.name, "setting": "budget"})
        self.budget = budget
        self.iterations = iterations
        self.browser = bool(browser)
        self.endgame = endgame
        self.infer = bool(infer)
        self.enumerate = bool(enumerate)
        self.clock = clock
        self.cancelled = False
        self.last_iterations = 0

    def cancel(self) -> None:
        """Stop the search under way; it answers with its best action so far."""
        self.cancelled = True

    def choose(self, observation: dict[str, Any], legal: list[str], rng: random.Random,
               deadline: float | None = None) -> str:
        self.cancelled = False
        if len(legal) == 1:
            return legal[0]
        root = self.start(observation, rng)
        end = deadline if deadline is not None else self.clock() + self.budget
        while not self.cancelled and not root.done(end):
            root.step(self.clock() + 0.02, end)
        self.last_iterations = root.iterations
        return root.best(legal)

    def start(self, observation: dict[str, Any], rng: random.Random) -> "Search | Solve":
        """A search that can be advanced in slices (the browser yields between them)."""
        return searcher(observation, rng, self.cap(observation), self.clock,
                        endgame=self.endgame, infer=self.infer, enumerate=self.enumerate)

    def cap(self, observation: dict[str, Any]) -> int | None:
        """The iteration cap for this decision."""
        if not self.browser:
            return self.iterations
        return browser_cap(observation["game"], self.page_level,
                           rules_of(observation["game"]).stage(observation))


class ExpertBot(SearchBot):
    """The same search, thinking longer: the top of the ladder."""

    name = "expert"
    default_budget = 3.0
    page_level = "expert"


@functools.cache
def level_bot(game_id: str, level: str) -> type[SearchBot]:
    """The bot of search level `level` ("strong" or "expert") in game
    `game_id`: the search, thinking as the game's `LEVELS` says (seconds a
    move on the page's clock, or a fixed number of iterations).

    >>> level_bot("jekyll-vs-hyde", "strong")().iterations
    100
    >>> level_bot("dracula", "strong")().budget
    1.0
    """
    thinking = rules_of(game_id).LEVELS[level]
    base = ExpertBot if level == "expert" else SearchBot
    return type(base.__name__, (base,), {
        "__doc__": base.__doc__, "default_budget": thinking.get("budget", base.default_budget),
        "default_iterations": thinking.get("iterations")})


class CheatingBot(SearchBot):
    """The same search, but every iteration uses the real state: it sees all
    cards.  Only a yardstick for benchmarks (`simulate --bots cheater,...`);
    never offered to players, and the only bot handed a state."""

    name = "cheater"
    sees_everything = True

    def choose_seeing_everything(self, state: State, rng: random.Random) -> str:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        observation = state.observation(state.to_act)
        search = searcher(observation, rng, self.cap(observation), self.clock, world=state,
                          endgame=self.endgame)
        end = self.clock() + self.budget
        while not search.done(end):
            search.step(self.clock() + 0.02, end)
        self.last_iterations = search.iterations
        return search.best(legal)


def searcher(observation: dict[str, Any], rng: random.Random, iterations: int | None,
             clock: Callable[[], float], world: Any = None, endgame: int = 0,
             infer: bool = False, enumerate: bool = False) -> "Search | Solve":
    """The search for this decision: `Solve` where the game can solve the rest
    exactly (always, or with `endgame` cards or fewer in hand), else
    `Search`.  `world`: the real state (only the cheater).  `infer`: worlds
    weighted by the opponent's plays, where the game `infers`.  `enumerate`:
    each world once before any again, where the game lists them (`Enumerated`)."""
    rules = rules_of(observation["game"])
    solves = getattr(rules, "solves", None)
    exact_at = getattr(rules, "exact_at", None)
    exact = (solves is not None and solves(observation)) or (
        endgame > 0 and exact_at is not None and exact_at(observation, endgame))
    kind = Solve if exact else Search
    search = kind(rules, observation, rng, iterations, clock, world,
                  infer and getattr(rules, "infers", False))
    hands = getattr(search.sampler, "hands", None)
    if enumerate and hands is not None:  # never the cheater's _Known
        listed = hands(min(iterations or ENUMERATE_MAX, ENUMERATE_MAX))
        if listed is not None:
            search.sampler = Enumerated(search.sampler, listed)
    return search


class _Anytime:
    """What both searches share: worlds drawn from the observation (or the real
    state, for the cheater), the actions worth searching, an iteration cap and
    a clock, and `step` to advance in time slices."""

    def __init__(self, rules: Any, observation: dict[str, Any], rng: random.Random,
                 iterations: int | None, clock: Callable[[], float], world: Any = None,
                 infer: bool = False) -> None:
        self.sampler = (_Known(world) if world is not None
                        else rules.Sampler(observation, infer=True) if infer
                        else rules.Sampler(observation))
        self.alias, self.actions = _distinct(rules, observation)
        self.rng = rng
        self.cap = iterations
        self.clock = clock
        self.iterations = 0

    def finished(self) -> bool:
        """Nothing more to learn: the cap is reached."""
        return self.cap is not None and self.iterations >= self.cap

    def done(self, end: float) -> bool:
        return self.finished() or self.clock() >= end

    def step(self, until: float, end: float) -> None:
        """Run iterations until `until` (or the overall `end`)."""
        stop = min(until, end)
        while self.clock() < stop and not self.finished():
            self.iterate()

    def iterate(self) -> None:
        raise NotImplementedError


class Search(_Anytime):
    """One decision's tree, advanced in time slices by `step`."""

    def __init__(self, rules: Any, observation: dict[str, Any], rng: random.Random,
                 iterations: int | None, clock: Callable[[], float], world: Any = None,
                 infer: bool = False) -> None:
        super().__init__(rules, observation, rng, iterations, clock, world, infer)
        self.at_horizon = rules.at_horizon
        self.utility = rules.utility
        self.playout_action = rules.playout_action
        self.tree = _Node()

    def iterate(self) -> None:
        rng = self.rng
        world = self.sampler.sample(rng)
        state = world
        node = self.tree
        path: list[tuple[_Node, Any]] = []
        at_horizon = self.at_horizon
        while not at_horizon(world, state):
            legal = self.actions if node is self.tree else state.legal_actions()
            children = node.children
            untried = [a for a in legal if a not in children]
            mover = state.to_act
            for a in legal:
                child = children.get(a)
                if child is not None:
                    child.available += 1
            if untried:
                action = rng.choice(untried)
                node = children[action] = _Node()
                path.append((node, mover))
                state = state.apply(action)
                break
            log_total = {a: math.log(children[a].available) for a in legal}
            action = max(legal, key=lambda a: _ucb(children[a], log_total[a]))
            node = children[action]
            path.append((node, mover))
            state = state.apply(action)
        if not at_horizon(world, state):
            state = state.apply(self.playout_action(state, rng))  # a copy of our own
            while not at_horizon(world, state):
                state.apply_in_place(self.playout_action(state, rng))
        for visited, mover in path:
            visited.visits += 1
            visited.reward += self.utility(world, state, mover)
        self.iterations += 1

    def best(self, legal: list[str]) -> str:
        """The most visited legal action (ties: the better average)."""
        children = self.tree.children

        def key(a: str) -> tuple[int, float]:
            child = children.get(self.alias.get(a, a))
            return (child.visits, child.reward / child.visits) if child and child.visits else (0, 0.0)

        return max(legal, key=key)

    def ranking(self) -> list[tuple[str, int, float]]:
        """(action, visits, average outcome) for each root action searched."""
        return sorted(((a, c.visits, c.reward / c.visits if c.visits else 0.0)
                       for a, c in self.tree.children.items()), key=lambda r: -r[1])


class Solve(_Anytime):
    """Determinized exact search: sampled worlds, every action of the decision
    valued in each by the game's `solver` (both sides playing that world
    perfectly).  One iteration values one action in one world, so a slice
    stays short; only worlds whose actions are all valued count.

    From `RACE_FROM` worlds on, an action clearly worse than the leader in the
    same worlds (the mean of its differences more than `RACE_Z` standard
    errors below 0, the spread taken as at least `RACE_NOISE`) is no longer
    valued, so the time left goes to more worlds for the contenders.
    """

    def __init__(self, rules: Any, observation: dict[str, Any], rng: random.Random,
                 iterations: int | None, clock: Callable[[], float], world: Any = None,
                 infer: bool = False) -> None:
        super().__init__(rules, observation, rng, iterations, clock, world, infer)
        self.solver = rules.solver
        self.player = observation["player"]
        self.known = world is not None  # one world says it all
        self.active = list(self.actions)
        self.values: dict[str, list[float]] = {a: [] for a in self.actions}  # by world
        self.worlds = 0
        self.value: Callable[[str], float] | None = None
        self.pending: list[str] = []
        self.partial: dict[str, float] = {}
        # False: every action is valued in every world, none dropped (the hand
        # analysis reads each action's cost, not only which is best).
        self.racing = True

    def finished(self) -> bool:
        every = isinstance(self.sampler, Enumerated) and self.worlds >= self.sampler.count
        return (super().finished() or (self.known and self.worlds > 0) or every
                or len(self.active) == 1)

    def iterate(self) -> None:
        if not self.pending:
            self.value = self.solver(self.sampler.sample(self.rng), self.player)
            self.pending = self.active[::-1]
            self.partial = {}
        action = self.pending.pop()
        assert self.value is not None  # set with the world whose actions are pending
        self.partial[action] = self.value(action)
        self.iterations += 1
        if not self.pending:
            for a, v in self.partial.items():
                self.values[a].append(v)
            self.worlds += 1
            n = self.worlds
            # A race reads every world so far: after each world at first, then
            # at doubling counts, so a long search does not slow down with it.
            if self.racing and n >= RACE_FROM and (n <= 16 or n & (n - 1) == 0):
                self._race()

    def _race(self) -> None:
        """Stop valuing the actions clearly worse than the leader."""
        n = self.worlds
        values = self.values
        leader = max(self.active, key=lambda a: sum(values[a]))
        keep = []
        for a in self.active:  # each valued in all n worlds
            diffs = [v - w for v, w in zip(values[a], values[leader])]
            mean = sum(diffs) / n
            spread = max(RACE_NOISE, math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1)))
            if a == leader or mean + RACE_Z * spread / math.sqrt(n) >= 0:
                keep.append(a)
        self.active = keep

    def _averages(self) -> dict[str, float]:
        """Each action's average over the worlds that valued it (if no world is
        complete yet, its value in the first)."""
        if not self.worlds:
            return dict(self.partial)
        return {a: sum(v) / len(v) for a, v in self.values.items() if v}

    def best(self, legal: list[str]) -> str:
        """The best average among the actions still in the race."""
        averages = self._averages()
        if self.worlds:
            averages = {a: averages[a] for a in self.active}

        def average(a: str) -> float:
            return averages.get(self.alias.get(a, a), -1.0)

        return max(legal, key=average)

    def ranking(self) -> list[tuple[str, int, float]]:
        """(action, worlds, average outcome) for each action, best first; the
        actions dropped from the race come after those still in it."""
        averages = self._averages()
        racing = set(self.active)
        rows = [(a, len(self.values[b]), averages[b]) for a, b in self.alias.items()
                if b in averages]
        return sorted(rows, key=lambda r: (self.alias[r[0]] not in racing, -r[2]))


# Measured on Dracula's last placements (benchmarks/dracula_regret.py, 100
# iterations): dropping from 2 worlds lowered the regret at 7 empty cells
# from 0.034 to 0.029 and overall from 0.034 to 0.032; from 4 worlds it
# changed nothing (the iterations were spent by then).
RACE_FROM = 2  # worlds before any action is dropped
RACE_Z = 2.5  # how clearly worse (standard errors) an action must be to be dropped
RACE_NOISE = 0.03  # the least spread assumed: two or three worlds can agree by chance


def _distinct(rules: Any, observation: dict[str, Any]) -> tuple[dict[str, str], list[str]]:
    """Each legal action and the one whose value it shares, and those distinct
    actions: a game may know that some actions are worth the same (Dracula's
    mirror images), and they are then searched once."""
    legal = list(observation["legal"])
    same = getattr(rules, "same_worth", None)
    alias = same(observation) if same else {a: a for a in legal}
    return alias, [a for a in legal if alias[a] == a]


# The most worlds listed for one decision: the duel's opponent holds one of
# C(15, 10) = 3003 hands before the exchange, far fewer after; a list this
# long takes milliseconds to make (the worlds themselves are made as drawn).
ENUMERATE_MAX = 3003


class Enumerated:
    """A sampler's worlds, every one listed: each is drawn once, in a shuffled
    order, before any is drawn again (they are equally likely, so a full pass
    weighs them exactly; a part of one is a sample without repeats)."""

    def __init__(self, sampler: Any, hands: list[Any]) -> None:
        self.sampler = sampler
        self.hands = hands
        self.count = len(hands)
        self.drawn = self.count  # shuffle at the first draw

    def sample(self, rng: random.Random) -> Any:
        if self.drawn == self.count:
            rng.shuffle(self.hands)
            self.drawn = 0
        self.drawn += 1
        return self.sampler.world(self.hands[self.drawn - 1])


class _Known:
    """The cheater's 'sampler': always the real state."""

    def __init__(self, state: Any) -> None:
        self.state = state

    def sample(self, rng: random.Random) -> Any:
        return self.state


def _ucb(node: _Node, log_available: float) -> float:
    if node.visits == 0:
        return math.inf
    return node.reward / node.visits + EXPLORATION * math.sqrt(log_available / node.visits)


def rules_of(game_id: str) -> Any:
    """The game's `search` module."""
    from game import game_module

    return importlib.import_module(game_module(game_id).__name__ + ".search")


BROWSER_CAPS = Path(__file__).with_name("browser_caps.json")


def browser_cap(game_id: str, level: str, stage: str) -> int:
    """The iterations the page's `level` bot ("strong", "expert") reaches in its
    budget at `stage` of game `game_id` (recorded in `BROWSER_CAPS`)."""
    caps = browser_caps(game_id, level)
    if stage not in caps:
        raise _no_caps(game_id, level, f"no stage {stage!r}")
    return caps[stage]


@functools.cache
def browser_caps(game_id: str, level: str) -> dict[str, int]:
    """Every stage's cap for `level` in game `game_id`; a clear error if the
    file lacks the game, the level or one of the game's `STAGES`."""
    try:
        # Through the module's loader, which also reads inside game.zip (the page).
        data = __loader__.get_data(str(BROWSER_CAPS))  # type: ignore[name-defined]
        games = json.loads(data.decode("utf-8"))["games"]
    except (OSError, ValueError, KeyError) as e:
        raise _no_caps(game_id, level, f"unreadable: {e}") from None
    caps = games.get(game_id, {}).get(level)
    if not isinstance(caps, dict):
        raise _no_caps(game_id, level, f"no caps for {game_id} {level}")
    missing = [s for s in rules_of(game_id).STAGES if not isinstance(caps.get(s), int)]
    if missing:
        raise _no_caps(game_id, level, "no stage " + ", ".join(map(repr, missing)))
    return dict(caps)


def _no_caps(game_id: str, level: str, why: str) -> BadOptionsError:
    return BadOptionsError(f"browser=1: {BROWSER_CAPS.name}: {why} (measure them with "
                           "benchmarks/browser_caps.py)", code="no_browser_caps",
                           params={"game": game_id, "level": level, "why": why})
