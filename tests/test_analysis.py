"""The hand analysis (game/analysis.py) and `python -m game analyse`: each
decision judged from the seat's observation alone, costs and verdicts as
declared, the hindsight line apart, the same verdicts for any workers.
The searches here run a few dozen iterations: the figures at the real
budget are benchmarks/analysis.py's."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from game import new_game
from game.analysis import (
    SCALES, VERDICTS, AnalysisError, analyse, decisions_of, judge, judge_decision,
    units, verdict,
)
from game.bots import make_bot
from game.core.match import play_out
from game.core.transcript import Transcript
from tests.command_line import run_main as run
from tests.test_bots_are_blind import TWINS
from tests.strength import quick_first

TRANSCRIPTS = Path(__file__).parent / "transcripts"
WERNER_HAND = TRANSCRIPTS / "jekyll_hyde" / "no_own_action.json"  # one finished hand
DUEL_GAME = TRANSCRIPTS / "jekyll_vs_hyde" / "hyde_wins_early.json"  # two finished rounds
QUICK = 30  # iterations a decision


def one_hand(game_id: str, seed: int, options: dict | None = None) -> Transcript:
    """A transcript of a game's first hand, the heuristic at every seat."""
    start = new_game(game_id, options, seed)
    actions: list[str] = []
    bots = {p: make_bot(game_id, "heuristic") for p in start.players}
    rngs = {p: random.Random(seed) for p in start.players}
    lasting = {start.identity(p): bots[p] for p in start.players}
    play_out(start, lasting, {start.identity(p): rngs[p] for p in start.players},
             lambda state, action: actions.append(action), until=lambda s: s.hands_scored >= 1)
    return Transcript(game_id, options or {}, seed, actions=actions)


# Werner's twins (one of them an endgame, searched world by world: 7 s): the full run.
@pytest.mark.parametrize("game_id", quick_first(["jekyll-vs-hyde", "dracula", "jekyll-hyde"],
                                                keep=2))
def test_a_decision_is_judged_from_the_observation_alone(game_id):
    """Two states that differ only in cards the deciding seat cannot see get
    the same expert's choice, costs and verdict for a fixed seed (only the
    hindsight line, which sees every card, may differ)."""
    judged = 0
    for state, twin, me in TWINS[game_id](6, random.Random(11)):
        assert twin.to_json() != state.to_json()  # the hidden cards really differ
        legal = state.legal_actions()
        if len(legal) < 2:
            continue
        chosen = legal[-1]
        a = judge_decision(state, 0, 1, chosen, random.Random(3), QUICK)
        b = judge_decision(twin, 0, 1, chosen, random.Random(3), QUICK)
        assert (a.best, a.costs, a.verdict) == (b.best, b.costs, b.verdict)
        judged += 1
    assert judged >= 3


@pytest.mark.parametrize("game_id", SCALES)
def test_every_choice_has_a_cost_and_the_experts_costs_nothing(game_id):
    transcript = one_hand(game_id, 5)
    _, tasks = decisions_of(transcript, hand=1)
    assert tasks
    states = transcript.states()
    for task in tasks[:3]:
        obs = states[task.step].observation(states[task.step].to_act)
        best, costs = judge(obs, random.Random(1), QUICK)
        assert set(costs) == set(obs["legal"]) and best in costs
        assert costs[best] == 0.0 and min(costs.values()) >= 0.0
        for cost in costs.values():
            assert verdict(game_id, cost) in VERDICTS


def test_verdicts_follow_the_declared_thresholds():
    for game_id, scale in SCALES.items():
        inaccuracy, mistake, blunder = scale.thresholds
        assert 0 < inaccuracy < mistake < blunder
        assert [verdict(game_id, c) for c in (0.0, inaccuracy, mistake, blunder)] == list(VERDICTS)
        assert verdict(game_id, inaccuracy * 0.99) == "fine"


def test_costs_read_in_the_games_unit():
    assert units({"game": "jekyll-hyde"}, 0.6) == pytest.approx(50.0)  # margin / 500 + 0.5
    assert units({"game": "jekyll-vs-hyde"}, 0.3) == pytest.approx(3.0)  # 1 - marker / 10
    dracula = {"game": "dracula", "player": 0, "totals": {"0": 10, "1": 0}, "deal_number": 0}
    # a chance of winning read back as the deal's difference that leaves it
    assert units(dracula, 0.5) == pytest.approx(-10.0)
    assert units(dracula, 0.4) < units(dracula, 0.5) < units(dracula, 0.7)


def test_the_hindsight_line_comes_only_late_in_a_hand():
    analysis = analyse(Transcript.load(DUEL_GAME), "H", 2, iterations=QUICK)
    lines = [d.hindsight for d in analysis.decisions]
    assert lines[0] is None and lines[-1] is not None
    late = [d for d in analysis.decisions if d.hindsight is not None]
    for d in late:
        assert d.hindsight.verdict == verdict("jekyll-vs-hyde", d.hindsight.cost)
    assert all(d.hand == 2 for d in analysis.decisions)


def test_the_seats_decisions_are_its_own_in_finished_hands():
    transcript = Transcript.load(WERNER_HAND)
    states = transcript.states()
    shown, tasks = decisions_of(transcript, "2")
    assert shown == "2" and tasks
    assert all(states[t.step].to_act == 2 and len(states[t.step].legal_actions()) > 1
               for t in tasks)
    assert [t.chosen for t in tasks] == [transcript.actions[t.step] for t in tasks]
    # three players: a name's seat moves with the deal; each of its turns is found
    three = one_hand("jekyll-hyde", 2, {"players": 3, "names": ["Ann", "Bob", "Cy"]})
    states = three.states()
    shown, tasks = decisions_of(three, "Bob")
    assert shown == "Bob" and tasks
    assert all(states[t.step].identity(states[t.step].to_act) == "Bob" for t in tasks)


@pytest.mark.parametrize("seat, hand, code", [("7", None, "unknown_seat"),
                                              ("J", 3, "hand_out_of_range"),
                                              ("J", 0, "hand_out_of_range")])
def test_a_bad_seat_or_hand_is_a_coded_error(seat, hand, code):
    with pytest.raises(AnalysisError) as caught:
        decisions_of(Transcript.load(DUEL_GAME), seat, hand)
    assert caught.value.code == code


def test_a_game_without_a_finished_hand_has_nothing_to_analyse():
    with pytest.raises(AnalysisError) as caught:
        decisions_of(Transcript.load(TRANSCRIPTS / "jekyll_vs_hyde" / "rulebook_ranking.json"))
    assert caught.value.code == "no_finished_hand"


def test_the_same_verdicts_for_any_number_of_workers():
    transcript = Transcript.load(DUEL_GAME)
    one = analyse(transcript, "J", 1, workers=1, iterations=QUICK)
    two = analyse(transcript, "J", 1, workers=2, iterations=QUICK)
    assert one.decisions and one == two


@pytest.mark.parametrize("path, args, heading, unit", [
    (DUEL_GAME, ["--seat", "J", "--hand", "2"], "jekyll-vs-hyde, seat J:", "marker steps"),
    # Werner's hand: its endgame searches take seconds (14 s): the full run
    pytest.param(WERNER_HAND, ["--seat", "1"], "jekyll-hyde, seat 1:", "points",
                 marks=pytest.mark.slow),
], ids=["duel", "werner"])
def test_analyse_prints_verdicts_and_json(path, args, heading, unit):
    text = run("analyse", str(path), *args, "--iterations", str(QUICK), "--workers", "1")
    assert text.returncode == 0, text.stderr
    assert heading in text.stdout and "expert" in text.stdout
    shown = run("analyse", str(path), *args, "--iterations", str(QUICK), "--workers", "1",
                "--json")
    data = json.loads(shown.stdout)
    assert data["file"] == str(path) and data["unit"] == unit
    assert data["decisions"] and {"step", "hand", "chosen", "best", "cost", "verdict",
                                  "costs"} <= set(data["decisions"][0])
    assert [d["verdict"] for d in data["decisions"]] == [
        line.rsplit(": ", 1)[1] for line in text.stdout.splitlines()
        if line.startswith("  hand ")]


@pytest.mark.parametrize("args, words", [
    (["--seat", "9"], "--seat '9'"),
    (["--hand", "2"], "--hand 2"),
    (["--iterations", "0"], "--iterations"),
])
def test_analyse_refuses_a_bad_seat_hand_or_budget_in_one_line(args, words):
    result = run("analyse", str(WERNER_HAND), "--workers", "1", *args)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.startswith("error: ") and words in result.stderr
    assert len(result.stderr.splitlines()) == 1


def test_analyse_refuses_a_malformed_file(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"game": "jekyll-hyde", "actions": [1]}')
    result = run("analyse", str(bad), "--workers", "1")
    assert result.returncode == 2 and result.stderr.startswith("error: ")
