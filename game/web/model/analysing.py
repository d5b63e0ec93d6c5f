"""A hand's analysis as the review holds it, and what its reducers ask the
controller: plain frozen values, below both the review (game.web.model.review,
whose `Reviewing.analyses` they are) and the analysis's reducers and panel
(game.web.model.analysis_view), so neither imports the other's module."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Literal, Union

from game.analysis import Decision, HandAnalysis, accuracy, costliest
from game.web.model.replay import Draw

Status = Literal["running", "cancelled", "done"]


@dataclass(frozen=True)
class Analysing:
    """One hand's analysis for the person's seat: the decisions to judge
    (`steps`: transcript step and hand number), those judged so far, in
    order, and whether it runs (`run`: which run is current; a decision of
    an older run is dropped)."""

    seat: str
    hand: int  # 1 for the game's first
    steps: tuple[tuple[int, int], ...]
    decisions: tuple[Decision, ...] = ()
    status: Status = "running"
    run: int = 0

    @property
    def finished(self) -> bool:
        return len(self.decisions) == len(self.steps)

    def next_step(self) -> tuple[int, int] | None:
        """The (step, hand) to judge next: the hand's last decision not judged
        yet. From the end back, because a hand's last decisions are the quickest
        to judge (few cards left, solved exactly), so a first verdict is on
        screen in a second or two where the first decision takes the search's
        whole budget (benchmarks/RESULTS.md)."""
        judged = {d.step for d in self.decisions}
        return next((s for s in reversed(self.steps) if s[0] not in judged), None)

    def with_decision(self, decision: Decision) -> Analysing:
        """These decisions and `decision`, in the order of the hand."""
        return dataclasses.replace(self, decisions=tuple(sorted((*self.decisions, decision),
                                                    key=lambda d: d.step)))

    def at(self, step: int) -> Decision | None:
        """The judged decision taken at `step`, if any."""
        return next((d for d in self.decisions if d.step == step), None)

    def accuracy(self) -> float:
        """The share of the judged decisions that are fine."""
        return accuracy(self.decisions)

    def costliest(self, count: int = 3) -> list[Decision]:
        """The `count` judged decisions that cost most (none that cost nothing)."""
        return costliest(self.decisions, count)

    def kept(self) -> HandAnalysis:
        return HandAnalysis(self.seat, self.hand, self.decisions)


Analyses = tuple[Analysing, ...]  # a game's, one a hand at most


def begun(analyses: Analyses, found: Analysing, run: int) -> tuple[Analyses, Analysing]:
    """`found` (new, or cancelled before) under way as run `run`, or done at
    once if every decision was judged; another running one stops (one at a time)."""
    others = tuple(dataclasses.replace(a, status="cancelled") if a.status == "running" else a
                   for a in analyses if a.hand != found.hand)
    started = dataclasses.replace(found, status="done" if found.finished else "running", run=run)
    return (*others, started), started


def with_decided(analyses: Analyses, act: Decided) -> tuple[Analyses, Analysing] | None:
    """The analyses with `act`'s decision added to its run's (the last one
    finishes it); None: that run was cancelled, or is another's."""
    found = next((a for a in analyses if a.run == act.run and a.status == "running"), None)
    step = None if found is None else found.next_step()
    if found is None or step is None or step[0] != act.decision.step:
        return None
    found = found.with_decision(act.decision)
    if found.finished:
        found = dataclasses.replace(found, status="done")
    return (*(a for a in analyses if a.hand != found.hand), found), found


def next_step(analyses: Analyses, run: int) -> tuple[int, int] | None:
    """The (step, hand) run `run` judges next, or None: that run is over."""
    found = next((a for a in analyses if a.run == run and a.status == "running"), None)
    return None if found is None else found.next_step()


def of_kept(hand: HandAnalysis) -> Analysing:
    """A hand's analysis kept with the game, shown again as it was."""
    steps = tuple((d.step, d.hand) for d in hand.decisions)
    return Analysing(hand.seat, hand.hand, steps, hand.decisions, "done")


# -- what the reducers ask the controller ---------------------------------------------

@dataclass(frozen=True)
class AnalyseInBackground:
    """Judge the running analysis's decisions one by one (its `run`)."""
    run: int


@dataclass(frozen=True)
class DrawAnalysis:
    """Redraw only the review's analysis part (a decision judged meanwhile)."""


@dataclass(frozen=True)
class KeepAnalysis:
    """Keep every finished hand analysis with the game on the table (its save)."""
    hands: tuple[HandAnalysis, ...]


@dataclass(frozen=True)
class Decided:
    """The background work judged the next decision of run `run`."""
    run: int
    decision: Decision


Effect = Union[Draw, AnalyseInBackground, DrawAnalysis, KeepAnalysis]
