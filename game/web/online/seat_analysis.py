"""An online guest's own hand analysis (issue 56): its decisions, as its
table received them, judged on its own device from those observations alone.

Recorded: when the page sends a decision to the host (`sent`), the
observation the host sent this seat for it (`State.observation(seat)`,
nothing more), the action, the player it was and the hand; it is kept
(`seen`) once the host's next table has moved past it (a refused decision is
replaced by the next one sent). Nothing new is asked of the host nor sent to
it: the search sees exactly what the guest saw, never a hidden card. The
decisions taken are kept in this browser (`kept_text`, one table's at a time),
so a reload that takes the seat back keeps them too (`from_kept` checks them).

Judged: the hand's summary, and the game's, offers "Analyse this hand"; the
decisions of that hand that had a choice are judged one by one in the page's
worker by the review's own loop (game.web.runtime.analysis_run, fed by
game.web.online.runner), each coming back as `SeatDecided`, into the same
`Analysing` values as the review's (game.web.model.analysing), drawn under the
summary. A guest's page never has the full state: no hindsight line, and
the panel says so.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass
from typing import Any

from game.analysis import Decision
from game.web.draw.html import EMPTY, Html, html, join
from game.web.draw.i18n import Translator
from game.web.draw.start_screen import say
from game.web.model import analysing as an
from game.web.model.analysis_view import (SYMBOLS, accuracy_text, choice_text, compare_html,
                                          cost_text, verdict_text)


@dataclass(frozen=True)
class Seen:
    """One decision of this seat's, as its table had it."""
    step: int  # the host's state id for it (the game's transcript step)
    hand: int  # 1 for the game's first
    player: Any  # the engine's player this seat was then (Werner's roles rotate)
    observation: dict[str, Any]  # the host's observation for this seat, as received
    chosen: str


@dataclass(frozen=True)
class SeatAnalysis:
    """A guest page's decisions at its table and the analyses of its hands."""
    sent: Seen | None = None  # sent to the host, not yet taken
    seen: tuple[Seen, ...] = ()
    analyses: an.Analyses = ()
    runs: int = 0


KEPT_LIMIT = 2_000_000  # characters: a long Werner game's decisions take a few hundred thousand


def kept_text(room: str, record: SeatAnalysis) -> str:
    """The decisions taken at the table in `room`, as this browser keeps them;
    past `KEPT_LIMIT`, the oldest hands' go first (`from_kept` would refuse it)."""
    seen = record.seen
    while True:
        text = json.dumps({"room": room, "seen": [
            [s.step, s.hand, s.player, s.observation, s.chosen] for s in seen]},
            separators=(",", ":"))
        if len(text) <= KEPT_LIMIT or not seen:
            return text
        seen = tuple(s for s in seen if s.hand != seen[0].hand)


def from_kept(text: str | None, room: str) -> tuple[Seen, ...] | None:
    """The decisions kept for `room` (none kept, or another table's: ());
    None: a kept value that fails its checks (forgotten, and the person told)."""
    if not text:
        return ()
    try:
        data = json.loads(text) if len(text) <= KEPT_LIMIT else None
    except ValueError:
        data = None
    if not (isinstance(data, dict) and isinstance(data.get("room"), str)
            and isinstance(data.get("seen"), list)):
        return None
    if data["room"] != room:
        return ()
    seen: list[Seen] = []
    for item in data["seen"]:
        if not (isinstance(item, list) and len(item) == 5):
            return None
        step, hand, player, observation, chosen = item
        if not (_count(step) and _count(hand) and hand >= 1 and isinstance(chosen, str)
                and isinstance(observation, dict) and isinstance(observation.get("legal"), list)
                and isinstance(player, (str, int)) and not isinstance(player, bool)
                and (not seen or step > seen[-1].step)):
            return None
        seen.append(Seen(step, hand, player, observation, chosen))
    return tuple(seen)


def _count(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def seed(game: str, room: str, step: int) -> str:
    """The search's seed for the decision at `step` at this table (the same on any device)."""
    return f"analysis/{game}/online/{room}/{step}"


def sent(record: SeatAnalysis, step: int, hand: int, player: Any,
         observation: dict[str, Any], action: str) -> SeatAnalysis:
    """A decision on its way to the host."""
    return dataclasses.replace(record, sent=Seen(step, hand, player, observation, action))


def heard(record: SeatAnalysis, state_id: int) -> SeatAnalysis:
    """The host's table is at `state_id`: a decision sent before it was taken."""
    mine = record.sent
    if mine is None or state_id <= mine.step:
        return record
    kept = tuple(s for s in record.seen if s.step != mine.step)
    return dataclasses.replace(record, sent=None, seen=(*kept, mine))


def at(record: SeatAnalysis, step: int) -> Seen:
    return next(s for s in record.seen if s.step == step)


def current(record: SeatAnalysis, hand: int) -> an.Analysing | None:
    return next((a for a in record.analyses if a.hand == hand), None)


def begin(record: SeatAnalysis, seat: str, hand: int) -> SeatAnalysis:
    """Hand `hand`'s analysis under way (or on again after Cancel): its
    decisions with a choice; one already running or done stays as it is."""
    found = current(record, hand)
    if found is not None and found.status in ("running", "done"):
        return record
    if found is None:
        steps = tuple((s.step, s.hand) for s in record.seen
                      if s.hand == hand and len(s.observation.get("legal", [])) > 1)
        found = an.Analysing(seat, hand, steps)
    analyses, _ = an.begun(record.analyses, found, record.runs + 1)
    return dataclasses.replace(record, analyses=analyses, runs=record.runs + 1)


def cancel(record: SeatAnalysis) -> SeatAnalysis:
    """The running analysis stops (Cancel, or its summary closed)."""
    return dataclasses.replace(record, analyses=tuple(
        dataclasses.replace(a, status="cancelled") if a.status == "running" else a
        for a in record.analyses))


def decided(record: SeatAnalysis, run: int, decision: Decision) -> SeatAnalysis | None:
    """A decision judged in the background; None: of a run cancelled or gone."""
    judged = an.with_decided(record.analyses, an.Decided(run, decision))
    return None if judged is None else dataclasses.replace(record, analyses=judged[0])


# -- the markup: under the hand's (or the game's) summary ------------------------------

def button(t: Translator, game: str, record: SeatAnalysis, hand: int) -> Html:
    """"Analyse this hand", until its analysis has begun."""
    a = current(record, hand)
    if a is not None and (a.decisions or a.status != "cancelled"):
        return EMPTY
    return html('<button type="button" data-cmd="online-analyse" id="analyse-open">{}</button>',
                say(t, game, "analysis.button"))


def panel_html(t: Translator, game: str, record: SeatAnalysis, hand: int) -> Html:
    """The hand's analysis: its progress, each decision judged, the accuracy."""
    a = current(record, hand)
    if a is None or (not a.decisions and a.status == "cancelled"):
        return EMPTY
    total, done = len(a.steps), len(a.decisions)
    head = html('<h3 id="ga-analysis-head" tabindex="-1">{}</h3>', say(t, game, "analysis.title"))
    if a.status != "done":
        running = a.status == "running"
        control = (html('<button type="button" data-cmd="online-analysis-cancel" id="ga-cancel">'
                        '{}</button>', t("analysis.cancel")) if running else
                   html('<button type="button" data-cmd="online-analyse" id="ga-resume">{}'
                        '</button>', t("analysis.resume")))
        head += html('<progress max="{}" value="{}" aria-labelledby="ga-progress"></progress>'
                     '<span id="ga-progress" role="status">{}</span>{}', max(total, 1), done,
                     t("analysis.progress" if running else "analysis.stopped", done=done,
                       total=total), control)
    note = html('<p class="rv-sub ga-no-hindsight">{}</p>', t("analysis.no_hindsight"))
    if a.status == "done" and not a.decisions:
        body = html('<p class="rv-sub">{}</p>', say(t, game, "analysis.no_decisions"))
    else:
        body = html('<ol class="ga-decisions">{}</ol>{}', join(
            _decision(t, game, record, n, d) for n, d in enumerate(a.decisions, 1)),
            _summary(t, game, a) if a.decisions else EMPTY)
    return html('<section class="rv-analysis ga-analysis" id="ga-analysis" '
                'aria-labelledby="ga-analysis-head"><div class="rv-analysis-bar">{}</div>{}{}'
                '</section>', head, note, body)


def _decision(t: Translator, game: str, record: SeatAnalysis, n: int, d: Decision) -> Html:
    """Decision `n` of the hand: this seat's choice beside the expert's."""
    seen = at(record, d.step)
    label = t("analysis.decision", n=n)
    return html('<li><p class="ga-n" aria-hidden="true">{}</p>{}</li>', label, compare_html(
        t, game, d, lambda action: choice_text(t, game, seen.player, seen.observation, action),
        f"ga-compare-{d.step}", label))


def _summary(t: Translator, game: str, a: an.Analysing) -> Html:
    """The hand's accuracy and its costliest decisions, by their number in the hand."""
    number = {d.step: n for n, d in enumerate(a.decisions, 1)}
    worst = a.costliest()
    costly = (html('<p class="rv-sub">{}</p><ol class="rv-costliest">{}</ol>',
                   t("analysis.costliest"), join(
                       html('<li class="rv-costly v-{}"><b aria-hidden="true">{}</b> {}</li>',
                            d.verdict, SYMBOLS[d.verdict],
                            t("analysis.decision_costly", n=number[d.step],
                              verdict=verdict_text(t, d.verdict),
                              cost=cost_text(t, game, d.cost))) for d in worst))
              if worst else html('<p class="rv-sub">{}</p>', t("analysis.none_costly")))
    return html('<div class="rv-summary"><p class="rv-accuracy" id="ga-accuracy">{}</p>{}</div>',
                accuracy_text(t, a), costly)
