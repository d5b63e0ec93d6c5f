"""The hand analysis's work beside the page (game.web.model.analysis_view is its
pure part): the running analysis's decisions judged one at a time, each in
short slices with a yield to the browser between them, as a hint thinks
(game.web.runtime.thinking). It waits while a hint thinks at the table, never
runs while a bot does (the review pauses the bots), and stops as soon as
its run is no longer the current one (Cancel, the review closed).

The decisions come from the review (`reviewed`: its states) or, at an online
guest's table, from what that seat saw (game.web.online.runner: its own
observations, no state behind them): the same loop judges both.
"""

from __future__ import annotations

import asyncio
import random
from typing import Any, Callable, NamedTuple, Protocol

from game.analysis import Judging, decision_seed
from game.core.state import State
from game.web.model import analysing as an
from game.web.model import analysis_view as av
from game.web.runtime.drivers import Clock
from game.web.model.page import Page, PageAction

SLICE = 0.04  # seconds of search between two yields (game.web.runtime.thinking's)
HINT_WAIT = 0.2  # seconds between two looks at a hint thinking at the table
# The search's iterations a decision (None: game.analysis's `cap`, the
# command line's); a test sets a few to run quickly.
ITERATIONS: int | None = None


class Worker(Protocol):
    """What the analysis needs of the page it works for (the controller)."""

    clock: Clock

    @property
    def page(self) -> Page: ...


class Host(Worker, Protocol):
    def reviewed(self, action: PageAction) -> None:
        """Dispatch an action of the review (its errors close the review)."""


class Position(NamedTuple):
    """One decision to judge: all its search reads, and its seed."""

    step: int
    hand: int
    observation: dict[str, Any]  # the deciding seat's own
    chosen: str
    seed: str
    state: State | None  # the full state, for the hindsight line alone (None: not known)


class Decisions(NamedTuple):
    """Where a run's decisions come from and where each judged one goes."""

    next: Callable[[Page, int], tuple[int, int] | None]  # run's next (step, hand); None: over
    position: Callable[[Page, int, int], Position]
    busy: Callable[[Page], bool]  # a hint thinks: wait for it
    done: Callable[[an.Decided], None]


def hint_thinking(page: Page) -> bool:
    """Whether a hint is thinking at the table (the analysis waits for it)."""
    s = page.session
    return s is not None and s.fresh_hint is not None and s.fresh_hint.action is None


def reviewed(host: Host) -> Decisions:
    """The review's decisions: from its states, each judged one sent back to it."""
    def position(page: Page, step: int, hand: int) -> Position:
        review = page.review
        assert review is not None  # (next_decision found its run)
        state, transcript = review.states[step], review.transcript
        return Position(step, hand, state.observation(state.to_act), transcript.actions[step],
                        decision_seed(transcript, step), state)

    return Decisions(lambda page, run: av.next_decision(page.review, run), position,
                     lambda page: hint_thinking(page), host.reviewed)


async def analyse_turn(host: Worker, run: int, decisions: Decisions) -> None:
    """Judge run `run`'s decisions, one by one, each handed to `decisions.done`."""
    while True:
        found = decisions.next(host.page, run)
        if found is None:
            return
        if decisions.busy(host.page):
            await host.clock.sleep(HINT_WAIT)
            continue
        at = decisions.position(host.page, *found)
        judging = Judging(at.observation, at.step, at.hand, at.chosen, random.Random(at.seed),
                          ITERATIONS, at.state)
        while not judging.finished():
            end = host.clock.now() + SLICE
            judging.work(lambda: host.clock.now() >= end)
            await asyncio.sleep(0)
            if decisions.next(host.page, run) != found:
                return  # cancelled, or the review closed
        decisions.done(an.Decided(run, judging.decision()))
