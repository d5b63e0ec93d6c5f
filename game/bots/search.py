"""Information Set Monte Carlo Tree Search (Cowling, Powley & Whitehouse 2012),
for any game whose package has a `search` module.

Each iteration samples a world consistent with the bot's observation (the
game's `Sampler`), walks the shared tree with UCB restricted to the actions
legal in that world, adds one node, plays the world out with the game's
greedy `playout_action` to the search horizon (the end of the current
deal), and credits every node with the outcome for the player who chose it.

The bot is anytime: it stops at its deadline, at its iteration cap, or when
`cancel()` is called, and answers with the most visited action.  It never
sees the real state: only the observation it is handed.
"""

from __future__ import annotations

import importlib
import math
import random
import time
from typing import Any, Callable

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
    (matches use that); with neither, it thinks for one second.
    """

    name = "strong"

    def __init__(self, budget: float | None = None, iterations: int | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        if budget is None:
            budget = math.inf if iterations is not None else 1.0
        self.budget = budget
        self.iterations = iterations
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

    def start(self, observation: dict[str, Any], rng: random.Random) -> "Search":
        """A search that can be advanced in slices (the browser yields between them)."""
        return Search(observation, rng, self.iterations, self.clock)


class CheatingBot(SearchBot):
    """The same search, but every iteration uses the real state: it sees all
    cards.  Only a yardstick for benchmarks (`simulate --bots cheater,...`);
    never offered to players, and the only bot handed a state."""

    name = "cheater"
    sees_everything = True

    def choose_seeing_everything(self, state: Any, rng: random.Random) -> str:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        search = Search(state.observation(state.to_act), rng, self.iterations, self.clock,
                        world=state)
        end = self.clock() + self.budget
        while not search.done(end):
            search.step(self.clock() + 0.02, end)
        self.last_iterations = search.iterations
        return search.best(legal)


class Search:
    """One decision's tree, advanced in time slices by `step`."""

    def __init__(self, observation: dict[str, Any], rng: random.Random,
                 iterations: int | None, clock: Callable[[], float], world: Any = None) -> None:
        rules = importlib.import_module(_package(observation["game"]) + ".search")
        self.sampler = rules.Sampler(observation) if world is None else _Known(world)
        self.at_horizon = rules.at_horizon
        self.utility = rules.utility
        self.playout_action = rules.playout_action
        self.rng = rng
        self.cap = iterations
        self.clock = clock
        self.tree = _Node()
        self.iterations = 0

    def done(self, end: float) -> bool:
        return (self.cap is not None and self.iterations >= self.cap) or self.clock() >= end

    def step(self, until: float, end: float) -> None:
        """Run iterations until `until` (or the overall `end`)."""
        stop = min(until, end)
        while self.clock() < stop and not (self.cap is not None and self.iterations >= self.cap):
            self.iterate()

    def iterate(self) -> None:
        rng = self.rng
        world = self.sampler.sample(rng)
        state = world
        node = self.tree
        path: list[tuple[_Node, Any]] = []
        at_horizon = self.at_horizon
        while not at_horizon(world, state):
            legal = state.legal_actions()
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
            child = children.get(a)
            return (child.visits, child.reward / child.visits) if child and child.visits else (0, 0.0)

        return max(legal, key=key)

    def ranking(self) -> list[tuple[str, int, float]]:
        """(action, visits, average outcome) for each root action searched."""
        return sorted(((a, c.visits, c.reward / c.visits if c.visits else 0.0)
                       for a, c in self.tree.children.items()), key=lambda r: -r[1])


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


def _package(game_id: str) -> str:
    from game import game_module

    return game_module(game_id).__name__
