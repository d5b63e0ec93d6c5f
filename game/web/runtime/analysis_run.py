"""The hand analysis's work beside the page (game.web.model.analysis_view is its
pure part): the running analysis's decisions judged one at a time, each in
short slices with a yield to the browser between them, as a hint thinks
(game.web.runtime.thinking). It waits while a hint thinks at the table, never
runs while a bot does (the review pauses the bots), and stops as soon as
its run is no longer the current one (Cancel, the review closed).
"""

from __future__ import annotations

import asyncio
import random
from typing import Protocol

from game.analysis import Judging, decision_seed
from game.web.model import analysing as an
from game.web.model import analysis_view as av
from game.web.runtime.drivers import Clock
from game.web.model.page import Page, PageAction

SLICE = 0.04  # seconds of search between two yields (game.web.runtime.thinking's)
HINT_WAIT = 0.2  # seconds between two looks at a hint thinking at the table
# The search's iterations a decision (None: game.analysis's `cap`, the
# command line's); a test sets a few to run quickly.
ITERATIONS: int | None = None


class Host(Protocol):
    """What the analysis needs of the page it works for (the controller)."""

    page: Page
    clock: Clock

    def reviewed(self, action: PageAction) -> None:
        """Dispatch an action of the review (its errors close the review)."""


def hint_thinking(page: Page) -> bool:
    """Whether a hint is thinking at the table (the analysis waits for it)."""
    s = page.session
    return s is not None and s.fresh_hint is not None and s.fresh_hint.action is None


async def analyse_turn(host: Host, run: int) -> None:
    """Judge run `run`'s decisions, one by one, each sent back as `Decided`."""
    while True:
        found = av.next_decision(host.page.review, run)
        if found is None:
            return
        if hint_thinking(host.page):
            await host.clock.sleep(HINT_WAIT)
            continue
        review = host.page.review
        assert review is not None  # (next_decision found its run)
        step, hand = found
        transcript = review.transcript
        judging = Judging(review.states[step], step, hand, transcript.actions[step],
                          random.Random(decision_seed(transcript, step)), ITERATIONS)
        while not judging.finished():
            end = host.clock.now() + SLICE
            judging.work(lambda: host.clock.now() >= end)
            await asyncio.sleep(0)
            if av.next_decision(host.page.review, run) != found:
                return  # cancelled, or the review closed
        host.reviewed(an.Decided(run, judging.decision()))
