"""Hand analysis in the page (game.web.model.analysis_view, game.web.runtime.analysis_run)
under CPython, through the real controller: "Analyse this hand" on the
hand's summary and in the review, the progress, Cancel and going on, the
marks and the summary, the same verdicts as `python -m game analyse`, the
analysis kept in the save and in the downloaded file (a damaged one
dropped, the game kept), and never a hidden card read. The searches run a
few iterations a decision (`analysis_run.ITERATIONS`); the clock ticks by itself."""

from __future__ import annotations

import copy
import dataclasses
import json
import re
from pathlib import Path

import pytest

from game.analysis import analyse, decision_steps, read_stored
from game.core.transcript import Transcript
from game.web.runtime import analysis_run
from game.web.model import analysing as an
from game.web.model import analysis_view as av
from game.web.model import page as pg
from game.web.model import saves
from game.web.model import session as ts
from game.web.model.files import transcript_of
from game.web.model.review import ReviewCommand, opened
from tests.page_kit import ANALYSIS_ITERATIONS as QUICK, deal, make_page, my_turn
from tests.test_jekyll_hyde_properties import _swap_hidden
from tests.test_jekyll_vs_hyde_properties import hidden_twin

TRANSCRIPTS = Path(__file__).parent / "transcripts"
DUEL_GAME = TRANSCRIPTS / "jekyll_vs_hyde" / "hyde_wins_early.json"  # two finished rounds
WERNER_HAND = TRANSCRIPTS / "jekyll_hyde" / "no_own_action.json"  # one finished hand
pytestmark = pytest.mark.usefixtures("quick_analysis")  # a few iterations a decision


def duel() -> dict:
    return json.loads(DUEL_GAME.read_text())


def analysis_frames(screen) -> list[str]:
    return [f["analysis"] for f in screen.review_frames if "analysis" in f]


def judged(ctrl) -> an.Analysing:
    found = av.current(ctrl.page.review)
    assert found is not None
    return found


def step_once(coro) -> bool:
    """Advance a spawned coroutine to its next yield; False once it has ended."""
    try:
        coro.send(None)
        return True
    except StopIteration:
        return False


# -- the pure part: progress, cancel, marks -------------------------------------------

def test_analyse_cancel_and_go_on_as_data():
    r = opened(duel(), "J", on_table=False)
    assert not isinstance(r, tuple) and r.analyses == ()
    r, effects = av.COMMANDS["analyse"](r, ReviewCommand("analyse"))
    a = av.current(r)
    assert a is not None and a.status == "running" and a.decisions == ()
    assert any(isinstance(e, an.AnalyseInBackground) and e.run == a.run for e in effects)
    assert len(a.steps) >= 3  # every turn of J's with a choice in round 1
    step, hand = av.next_decision(r, a.run)
    assert (step, hand) == a.steps[-1]  # from the hand's end back: its quickest first
    fake = an.Decided(a.run, _decision(r, step, hand))
    r, effects = av.decided(r, fake)
    assert len(av.current(r).decisions) == 1 and effects == (an.DrawAnalysis(),)
    assert "1 of %d decisions" % len(a.steps) in av.panel_html(r, _t())
    r, _ = av.COMMANDS["analysis-cancel"](r, ReviewCommand("analysis-cancel"))
    assert av.current(r).status == "cancelled" and av.next_decision(r, a.run) is None
    again = an.Decided(a.run, _decision(r, *av.current(r).steps[1]))
    assert av.decided(r, again)[0] == r  # a decision of the cancelled run is dropped
    assert "Stopped at 1 of" in av.panel_html(r, _t())
    r, effects = av.COMMANDS["analyse"](r, ReviewCommand("analyse"))  # go on from there
    b = av.current(r)
    assert b.status == "running" and b.run > a.run and len(b.decisions) == 1
    assert av.next_decision(r, b.run) == b.steps[-2]
    r, _ = av.decided(r, an.Decided(b.run, _decision(r, *b.steps[-2])))
    assert [d.step for d in av.current(r).decisions] == [s for s, _ in b.steps[-2:]]  # in order


def test_the_marks_and_the_summary_of_a_finished_analysis():
    r = opened(duel(), "J", on_table=False)
    r, _ = av.COMMANDS["analyse"](r, ReviewCommand("analyse"))
    run = av.current(r).run
    while (found := av.next_decision(r, run)) is not None:
        r, _ = av.decided(r, an.Decided(run, _decision(r, *found)))
    a = av.current(r)
    assert a.status == "done"
    panel = str(av.panel_html(r, _t()))
    marks = re.findall(r'class="rv-mark v-(\w+)"[^>]*aria-label="Step (\d+): (\w+)"', panel)
    assert [v for v, _, _ in marks] == [d.verdict for d in a.decisions]
    assert all(v == said for v, _, said in marks)  # the verdict in words, not a colour alone
    assert [int(n) for _, n, _ in marks] == [d.step + 1 - r.at.first for d in a.decisions]
    worst = a.costliest()
    costly = re.findall(r'id="rv-costly-(\d+)"', panel)
    assert [int(s) for s in costly] == [d.step for d in worst] and len(worst) <= 3
    fine = sum(d.verdict == "fine" for d in a.decisions)
    assert f"Accuracy {round(100 * fine / len(a.decisions))}%: {fine} of {len(a.decisions)}" \
        in panel
    # A costly decision's button steps to it: the person's choice beside the expert's.
    d = worst[0]
    r, effects = av.COMMANDS["analysis-goto"](
        r, ReviewCommand("analysis-goto", f"rv-costly-{d.step}", str(d.step + 1)))
    assert r.at.step == d.step + 1 and effects[0].keep == "rv-compare"  # read out, in view
    panel = str(av.panel_html(r, _t()))
    assert 'id="rv-compare"' in panel and "You:" in panel and "The expert:" in panel
    assert "it cost about" in panel and f'aria-current="step"' in panel


def _t():
    from game.web.draw.i18n import Translator

    return Translator("en")


def _decision(r, step, hand):
    import random

    from game.analysis import decision_seed, judge_decision

    return judge_decision(r.states[step], step, hand, r.transcript.actions[step],
                          random.Random(decision_seed(r.transcript, step)), QUICK)


# -- through the controller -----------------------------------------------------------

def test_the_hands_summary_offers_analyse_and_the_review_shows_progress_then_verdicts():
    ctrl, screen, thinking = make_page()
    deal(ctrl, "dracula", 7, first="bot", dr_bot="random")
    for _ in range(60):  # the person plays their first legal choice until the deal ends
        s = my_turn(ctrl, thinking)
        if s.waiting_for_ack or s.state.over:
            break
        ctrl.on_table(ts.Act(s.state.legal_actions()[0]))
    assert ctrl.session.waiting_for_ack
    assert 'data-cmd="analyse"' in str(screen.last.dialog)
    ctrl.command("analyse", {})
    assert ctrl.page.review is not None and ctrl.page.overlay == "review"
    a = judged(ctrl)
    assert a.status == "running" and a.hand == 1
    first = screen.review_frames[-1]["analysis"]
    assert f"0 of {len(a.steps)} decisions" in first and 'id="rv-cancel"' in first
    assert len(thinking.waiting) == 1
    thinking.run()
    a = judged(ctrl)
    assert a.status == "done" and len(a.decisions) == len(a.steps)
    shown = analysis_frames(screen)
    # A frame after every decision, then the whole: "1 of n" ... with its mark.
    assert any(f"1 of {len(a.steps)} decisions" in f and f.count('class="rv-mark v-') == 1
               for f in shown)
    assert "Accuracy" in shown[-1]
    # The same verdicts as the command line's, for the same budget.
    cli = analyse(Transcript.from_json(ctrl.save["transcript"]), str(a.seat), 1,
                  iterations=QUICK)
    assert [(d.step, d.best, d.costs, d.verdict) for d in cli.decisions] == \
        [(d.step, d.best, d.costs, d.verdict) for d in a.decisions]
    # Kept in the save and the downloaded file: reopening shows it, computing nothing.
    stored = json.loads(ctrl.keeper.store.items[saves.key("dracula")])
    kept = stored["transcript"]["analysis"]
    assert kept[0]["hand"] == 1 and len(kept[0]["decisions"]) == len(a.steps)
    assert transcript_of(stored)["analysis"] == kept
    ctrl.review_message({"cmd": "close"})
    assert ctrl.page.review is None
    ctrl.command("analyse", {})
    assert judged(ctrl).status == "done" and thinking.waiting == []
    assert "Accuracy" in screen.review_frames[-1]["analysis"]


def test_cancel_stops_between_two_slices_and_go_on_finishes_it():
    ctrl, screen, thinking = make_page()
    ctrl.dispatch(pg.OpenReview(duel(), "J"))
    assert 'id="rv-analyse"' in screen.review_frames[-1]["analysis"]
    ctrl.review_message({"cmd": "analyse", "keep": "rv-analyse"})
    assert screen.review_frames[-1]["keep"] == "rv-cancel"
    coro = thinking.waiting.pop()
    while not judged(ctrl).decisions:
        assert step_once(coro)
    ctrl.review_message({"cmd": "analysis-cancel", "keep": "rv-cancel"})
    assert not step_once(coro)  # it stops at its next look
    a = judged(ctrl)
    assert a.status == "cancelled" and len(a.decisions) == 1
    assert f"Stopped at 1 of {len(a.steps)}" in screen.review_frames[-1]["analysis"]
    ctrl.review_message({"cmd": "analyse", "keep": "rv-analyse"})
    thinking.run()
    a = judged(ctrl)
    assert a.status == "done" and len(a.decisions) == len(a.steps)
    assert [d.step for d in a.decisions] == [s for s, _ in a.steps]


def test_closing_the_review_ends_the_analysis():
    ctrl, screen, thinking = make_page()
    ctrl.dispatch(pg.OpenReview(duel(), "J", analyse=True))
    coro = thinking.waiting.pop()
    assert step_once(coro)
    ctrl.review_message({"cmd": "close"})
    assert not step_once(coro) and ctrl.page.review is None


def test_it_waits_while_a_hint_thinks(monkeypatch):
    ctrl, screen, thinking = make_page()
    ctrl.dispatch(pg.OpenReview(duel(), "J", analyse=True))
    thinking_now = [True]
    monkeypatch.setattr(analysis_run, "hint_thinking", lambda page: thinking_now[0])
    coro = thinking.waiting.pop()
    for _ in range(20):
        assert step_once(coro)
    assert judged(ctrl).decisions == ()
    thinking_now[0] = False
    while step_once(coro):
        pass
    assert judged(ctrl).status == "done"


def test_a_file_with_its_analysis_opens_with_it_and_a_damaged_one_is_dropped():
    ctrl, screen, thinking = make_page()
    ctrl.dispatch(pg.OpenReview(duel(), "J", analyse=True))
    thinking.run()
    kept = [judged(ctrl).kept().to_json()]
    ctrl.review_message({"cmd": "close"})
    with_it = {**duel(), "analysis": kept}
    ctrl.dispatch(pg.OpenReview(with_it, "J"))
    assert judged(ctrl).status == "done" and thinking.waiting == []
    assert "Accuracy" in screen.review_frames[-1]["analysis"]
    ctrl.review_message({"cmd": "close"})
    damaged = copy.deepcopy(kept)
    damaged[0]["decisions"][0]["chosen"] = "give:X9"
    ctrl.dispatch(pg.OpenReview({**duel(), "analysis": damaged}, "J"))
    r = ctrl.page.review
    assert r is not None and r.analyses == () and r.dropped  # the game is kept, reviewed
    panel = screen.review_frames[-1]["analysis"]
    assert 'role="alert"' in panel and "has been dropped" in panel and 'id="rv-analyse"' in panel


def test_a_hand_under_way_offers_no_analysis():
    from tests.page_kit import random_transcript

    transcript = random_transcript("dracula", 3, steps=5)  # the first deal under way
    r = opened(transcript, 0, on_table=False)
    assert not isinstance(r, tuple)
    assert str(av.panel_html(r, _t())) == ""
    r, effects = av.COMMANDS["analyse"](r, ReviewCommand("analyse"))
    assert r.analyses == () and not any(isinstance(e, an.AnalyseInBackground) for e in effects)


@pytest.mark.parametrize("damage", [
    lambda k: k.append(k[0]),                                         # a hand twice is fine...
    lambda k: k[0]["decisions"].pop(),                                # a decision missing
    lambda k: k[0]["decisions"][0]["costs"].update({"give:P6": -1}),  # a negative cost
    lambda k: k[0]["decisions"][0].update(verdict="superb"),
    lambda k: k[0].update(hand=9),
    lambda k: k[0]["decisions"][1].update(best="nothing"),
])
def test_a_kept_analysis_is_checked_against_its_game(damage):
    transcript = Transcript.from_json(duel())
    states = transcript.states()
    who = "J"
    steps = decision_steps(states, who, 1)
    good = [{"seat": "J", "hand": 1, "decisions": [
        {"step": s, "hand": 1, "chosen": transcript.actions[s], "best": transcript.actions[s],
         "cost": 0.0, "verdict": "fine",
         "costs": {a: 0.0 for a in states[s].legal_actions()}} for s, _ in steps]}]
    assert len(read_stored(good, states, transcript.actions)[0].decisions) == len(steps)
    bad = copy.deepcopy(good)
    damage(bad)
    if len(bad) == 2:  # the same hand twice reads (the later wins where it is shown)
        assert len(read_stored(bad, states, transcript.actions)) == 2
        return
    from game.analysis import AnalysisError

    with pytest.raises(AnalysisError):
        read_stored(bad, states, transcript.actions)


# -- honest: the page's analysis never reads a hidden card ----------------------------

@pytest.mark.parametrize("path, seat, twin_of", [
    (DUEL_GAME, "J", lambda s: hidden_twin(s, "JH".index(s.to_act))),
    pytest.param(WERNER_HAND, "1", lambda s: _swap_hidden(s, [p for p in range(4) if p != s.to_act])[0],
                 marks=pytest.mark.slow),  # (a Werner hand analysed twice: 8 s)
])
def test_the_page_judges_from_the_persons_observation_alone(path, seat, twin_of):
    """The review's states at the person's decisions swapped for twins that
    differ only in cards the person cannot see: the same verdicts, choices
    and costs (the hindsight line, all cards seen, aside)."""
    def run(twins: bool):
        ctrl, screen, thinking = make_page()
        ctrl.dispatch(pg.OpenReview(json.loads(path.read_text()), seat))
        r = ctrl.page.review
        if twins:
            states = list(r.states)
            hand = av.reviewed_hand(r)
            for step, _ in decision_steps(r.states, r.states[0].identity(
                    r.states[0].players[int(seat)] if seat.isdigit() else seat), hand):
                states[step] = twin_of(states[step])
                assert states[step].to_json() != r.states[step].to_json()
            ctrl.page = dataclasses.replace(ctrl.page, review=dataclasses.replace(
                r, states=tuple(states)))
        ctrl.review_message({"cmd": "analyse"})
        thinking.run()
        return [(d.step, d.best, d.costs, d.verdict) for d in judged(ctrl).decisions]

    plain = run(False)
    assert plain and run(True) == plain
