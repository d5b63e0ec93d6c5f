"""Hand analysis in the review (issue 56): "Analyse this hand", its
progress, its verdicts on the step list and the hand's summary.

The expert judges each of the person's decisions in the reviewed hand
(game.analysis's `Judging`, from that seat's observation alone) in the
page's worker, one decision at a time between frames (game.web.runtime.analysis_run
does the work); every decision judged comes back as `Decided` and is shown
at once. This module is the pure part: `Analysing`, one hand's analysis
inside the review's value (game.web.model.review's `Reviewing.analyses`), its
reducers (the review's commands "analyse", "analysis-cancel",
"analysis-goto", and `decided`) and its markup, the review dialog's
`#rv-analysis` part. A finished analysis is kept with the game (the
transcript's `analysis` field, game.analysis's `read_stored`), so the
review shows it again without computing it.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any, Callable

from game.analysis import SCALES, Decision, decision_steps, identity_of
from game.web.model.analysing import (AnalyseInBackground, Analysing, Decided, DrawAnalysis, Effect,
                                      KeepAnalysis, begun, next_step, with_decided)
from game.web.draw.html import EMPTY, Html, html, join
from game.web.model.replay import Draw, stopped
from game.web.draw.start_screen import decimal, say
from game.web.draw.tables import TableContext, renderer

if TYPE_CHECKING:
    from game.web.draw.i18n import Translator
    from game.web.model.review import ReviewCommand, Reviewing

# Each verdict's mark, read without colour (the chess annotators' signs).
SYMBOLS = {"fine": "✓", "inaccuracy": "?!", "mistake": "?", "blunder": "??"}
COMPARE = "rv-compare"  # the comparison's id (game.web.front.steps scrolls to it)


Analysed = tuple["Reviewing", tuple[Effect, ...]]


# -- the reducers -------------------------------------------------------------------------

def reviewed_hand(r: Reviewing) -> int:
    """The reviewed hand's number (1 for the game's first)."""
    from game.web.model.review import hand_spans

    return hand_spans(list(r.states), r.begin)[r.hand][2] + 1


def finished(r: Reviewing) -> bool:
    """Whether the reviewed hand is finished (only such a hand is analysed)."""
    return reviewed_hand(r) <= r.states[-1].hands_scored


def current(r: Reviewing) -> Analysing | None:
    """The reviewed hand's analysis, if one was begun."""
    hand = reviewed_hand(r)
    return next((a for a in r.analyses if a.hand == hand), None)


def _with(r: Reviewing, analysis: Analysing) -> Reviewing:
    others = tuple(a for a in r.analyses if a.hand != analysis.hand)
    return dataclasses.replace(r, analyses=(*others, analysis))


def _analyse(r: Reviewing, _: ReviewCommand) -> Analysed:
    """Begin (or go on with, after Cancel) the reviewed hand's analysis; any
    other running one stops (one at a time)."""
    found = current(r)
    if not finished(r) or (found is not None and found.status in ("running", "done")):
        return r, (Draw(),)  # (as it is: shown again, kept or under way)
    if found is None:
        first = r.states[0]
        who = identity_of(first, None if r.me is None else str(r.me))
        hand = reviewed_hand(r)
        found = Analysing(str(who), hand, tuple(decision_steps(r.states, who, hand)))
    analyses, started = begun(r.analyses, found, r.runs + 1)
    r = dataclasses.replace(r, analyses=analyses, runs=started.run)
    if started.status == "done":
        return r, (Draw("rv-analysis-head"), *_kept(r))
    return r, (Draw("rv-cancel"), AnalyseInBackground(started.run))


def _cancel(r: Reviewing, _: ReviewCommand) -> Analysed:
    found = current(r)
    if found is None or found.status != "running":
        return r, ()
    return _with(r, dataclasses.replace(found, status="cancelled")), (Draw("rv-analyse"),)


def _goto(r: Reviewing, act: ReviewCommand) -> Analysed:
    """Step to an analysed decision (a mark on the step list, a costly one:
    its `shown_at` step)."""
    try:
        step = int(str(act.value))
    except ValueError:
        return r, ()
    if not r.at.first <= step <= r.at.last:
        return r, ()
    at = dataclasses.replace(stopped(r.at), step=step)
    # From the summary, the focus goes to the comparison (read out, scrolled
    # into view); from the step list it stays on the mark, to go on from there.
    keep = COMPARE if str(act.keep).startswith("rv-costly") else act.keep
    return dataclasses.replace(r, at=at), (Draw(keep),)


def decided(r: Reviewing, act: Decided) -> Analysed:
    """A decision judged in the background: shown at once; the last one
    finishes the analysis (kept with the game on the table)."""
    judged = with_decided(r.analyses, act)
    if judged is None:
        return r, ()  # cancelled, or of another run
    r = dataclasses.replace(r, analyses=judged[0])
    return r, (DrawAnalysis(), *(_kept(r) if judged[1].finished else ()))


def _kept(r: Reviewing) -> tuple[Effect, ...]:
    if not r.of_table:
        return ()
    return (KeepAnalysis(tuple(a.kept() for a in sorted(r.analyses, key=lambda a: a.hand)
                               if a.status == "done")),)


def next_decision(r: Reviewing | None, run: int) -> tuple[int, int] | None:
    """The (step, hand) run `run` judges next, or None: that run is over."""
    return None if r is None else next_step(r.analyses, run)


COMMANDS: dict[str, Callable[[Reviewing, ReviewCommand], Analysed]] = {
    "analyse": _analyse, "analysis-cancel": _cancel, "analysis-goto": _goto}


# -- the markup: #rv-analysis in the review's dialog -------------------------------------

def shown_cost(game: str, cost: float) -> float:
    """A cost as the page writes it: Werner's points whole, the others' to a tenth."""
    return round(cost, 0 if SCALES[game].unit == "points" else 1)


def cost_text(t: Translator, game: str, cost: float) -> str:
    """A cost in the game's unit, in words ("about 12 points of the hand")."""
    return say(t, game, "analysis.cost", n=decimal(t, shown_cost(game, cost)))


def verdict_text(t: Translator, verdict: str) -> str:
    return t(f"analysis.verdict.{verdict}")


def choice_text(t: Translator, game: str, seat: Any, observation: dict[str, Any],
                action: str) -> str:
    """An action at the decision `seat` saw as `observation`, in the table's
    words (the hint's)."""
    ctx = TableContext(t=t, seat=seat, log=[])
    try:
        return renderer(game).hint_text(action, observation, ctx)
    except Exception:  # an odd action: still show it
        return t("hint.other", action=action)


def _choice(r: Reviewing, t: Translator, step: int, action: str) -> str:
    """An action at `step` in the table's words."""
    state = r.states[step]
    return choice_text(t, r.transcript.game, state.to_act, state.observation(state.to_act),
                       action)


def shown_at(d: Decision) -> int:
    """The review's step that shows decision `d`: the one after it, the
    person's card on the table and the caption saying what they did."""
    return d.step + 1


def _mark(d: Decision, t: Translator, r: Reviewing, here: bool) -> Html:
    """A decision's mark on the step list: its sign and verdict, a button to it."""
    n = shown_at(d) - r.at.first
    label = t("analysis.mark", n=n, verdict=verdict_text(t, d.verdict))
    return html('<li><button type="button" class="rv-mark v-{}" data-rv="analysis-goto" '
                'data-step="{}" id="rv-mark-{}" aria-label="{}"{}><span aria-hidden="true">'
                '<b>{}</b> {}</span></button></li>',
                d.verdict, shown_at(d), d.step, label,
                html(' aria-current="step"') if here else EMPTY,
                SYMBOLS[d.verdict], t("analysis.mark_short", n=n,
                                      verdict=verdict_text(t, d.verdict)))


def _compare(r: Reviewing, t: Translator, d: Decision) -> Html:
    return compare_html(t, r.transcript.game, d, lambda action: _choice(r, t, d.step, action))


def compare_html(t: Translator, game: str, d: Decision, words: Callable[[str], str],
                 ident: str = COMPARE, label: str = "") -> Html:
    """The person's choice and the expert's side by side, with the cost in
    words (`words`: an action at that decision in the table's words; `label`:
    the group's name, else "Your choice and the expert's")."""
    you = words(d.chosen)
    expert = words(d.best)
    if d.cost > 0 and d.verdict != "fine":
        verdict = verdict_text(t, d.verdict)  # (it opens the sentence)
        said = t("analysis.cost_line", verdict=verdict[:1].upper() + verdict[1:],
                 cost=cost_text(t, game, d.cost))
    elif d.chosen == d.best:
        said = t("analysis.as_expert")
    elif shown_cost(game, d.cost) == 0:
        said = t("analysis.as_good")
    else:  # fine, a little below the expert's choice
        said = t("analysis.fine_cost", cost=cost_text(t, game, d.cost))
    hindsight = EMPTY
    if d.hindsight is not None:
        h = d.hindsight
        hindsight = html('<p class="rv-hindsight"><b>{}</b> {}</p>', t("analysis.hindsight"),
                         t("analysis.hindsight_line", best=words(h.best),
                           cost=cost_text(t, game, h.cost)))
    return html('<div class="rv-compare v-{}" id="{}" role="group" aria-label="{}" '
                'tabindex="-1">'
                '<div class="rv-side"><b>{}</b> {}</div><div class="rv-side rv-expert"><b>{}</b>'
                ' {}</div><p class="rv-cost"><b aria-hidden="true">{}</b> {}</p>{}</div>',
                d.verdict, ident, label or t("analysis.compare"), t("analysis.you"), you,
                t("analysis.expert"), expert, SYMBOLS[d.verdict], said, hindsight)


def accuracy_text(t: Translator, a: Analysing) -> str:
    """The share of `a`'s judged decisions that are fine, in words."""
    fine = sum(d.verdict == "fine" for d in a.decisions)
    return t("analysis.accuracy", pct=round(100 * a.accuracy()), fine=fine, n=len(a.decisions))


def _summary(r: Reviewing, t: Translator, a: Analysing) -> Html:
    """The hand's accuracy and its three costliest decisions (each a button to it)."""
    game = r.transcript.game
    figure = accuracy_text(t, a)
    worst = a.costliest()
    buttons = join(html('<li><button type="button" class="rv-costly v-{}" data-rv="analysis-goto"'
                        ' data-step="{}" id="rv-costly-{}"><b aria-hidden="true">{}</b> {}'
                        '</button></li>', d.verdict, shown_at(d), d.step, SYMBOLS[d.verdict],
                        t("analysis.costly", n=shown_at(d) - r.at.first,
                          verdict=verdict_text(t, d.verdict),
                          cost=cost_text(t, game, d.cost)))
                   for d in worst)
    costly = (html('<p class="rv-sub">{}</p><ol class="rv-costliest">{}</ol>',
                   t("analysis.costliest"), buttons) if worst
              else html('<p class="rv-sub">{}</p>', t("analysis.none_costly")))
    return html('<div class="rv-summary"><p class="rv-accuracy" id="rv-accuracy">{}</p>{}</div>',
                figure, costly)


def panel_html(r: Reviewing, t: Translator) -> Html:
    """The review's analysis part: the button, the progress, the summary,
    the marked decisions and, at one of them, the comparison."""
    if not finished(r):  # a file's hand under way: nothing to analyse yet
        return EMPTY
    a = current(r)
    game = r.transcript.game
    notice = EMPTY if r.dropped is None else html(
        '<p class="rv-dropped" role="alert">{}</p>', t("analysis.dropped", reason=r.dropped))
    if a is None or (not a.decisions and a.status == "cancelled"):
        return html('{}<div class="rv-analysis-bar"><button type="button" data-rv="analyse" '
                    'id="rv-analyse">{}</button></div>', notice,
                    say(t, game, "analysis.button"))
    total, done = len(a.steps), len(a.decisions)
    if a.status == "done":
        bar = html('<h2 id="rv-analysis-head" tabindex="-1">{}</h2>',
                   say(t, game, "analysis.title"))
    else:
        running = a.status == "running"
        control = (html('<button type="button" data-rv="analysis-cancel" id="rv-cancel">{}'
                        '</button>', t("analysis.cancel")) if running else
                   html('<button type="button" data-rv="analyse" id="rv-analyse">{}</button>',
                        t("analysis.resume")))
        bar = html('<h2 id="rv-analysis-head" tabindex="-1">{}</h2><progress max="{}" value="{}" '
                   'aria-labelledby="rv-progress"></progress><span id="rv-progress" '
                   'role="status">{}</span>{}',
                   say(t, game, "analysis.title"), max(total, 1), done,
                   t("analysis.progress" if running else "analysis.stopped", done=done,
                     total=total), control)
    if a.status == "done" and not a.decisions:
        return html('{}<div class="rv-analysis-bar">{}</div><p class="rv-sub">{}</p>', notice,
                    bar, say(t, game, "analysis.no_decisions"))
    here = a.at(r.at.step - 1)
    marks = join(_mark(d, t, r, shown_at(d) == r.at.step) for d in a.decisions)
    # The step list, the decision stepped to, then the summary: on a phone's
    # short part the comparison is right under the mark that shows it.
    return html('{}<div class="rv-analysis-bar">{}</div><ol class="rv-marks" aria-label="{}">{}'
                '</ol>{}{}', notice, bar, t("analysis.marks"), marks,
                _compare(r, t, here) if here is not None else EMPTY,
                _summary(r, t, a) if a.decisions else EMPTY)
