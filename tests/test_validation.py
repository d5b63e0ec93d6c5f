"""Input from outside is checked before it is trusted: the examples of the
issue that once crashed or were accepted, each now a coded GameError naming
the field (or, for the terminal, a clean exit)."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest

from game import BadOptionsError, BadStateError, GameError, new_game, state_from_json
from game.__main__ import main
from game.bots import make_bot
from game.core.options import OptionSpec
from game.core.transcript import MAX_ACTIONS, Transcript, TranscriptError

ROOT = Path(__file__).parent.parent
TRANSCRIPTS = ROOT / "tests" / "transcripts"


def transcript(name: str) -> dict:
    return json.loads((TRANSCRIPTS / name).read_text())


def replay(*args: str) -> tuple[int, str, str]:
    """`python -m game replay ...` in this process: (exit status, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(["replay", *args])
    return code, out.getvalue(), err.getvalue()


def one_error_line(code: int, out: str, err: str) -> str:
    assert code == 2 and out == "" and err.startswith("error: ") and err.count("\n") == 1, err
    assert "Traceback" not in err
    return err


# -- deals of the wrong type in a transcript ------------------------------------

@pytest.mark.parametrize("name, change, path", [
    ("jekyll_hyde/designation_example.json",
     lambda t: t["deals"][0]["hands"]["2"].__setitem__(3, ["JA"]), "deals[0].hands.2[3]"),
    ("jekyll_vs_hyde/rulebook_ranking.json",
     lambda t: t["deals"][0]["H"].__setitem__(0, {"card": "P1"}), "deals[0].H[0]"),
    ("dracula/multipliers.json",
     lambda t: t["options"].update(first_dealer=1.0), "options.first_dealer"),
])
def test_a_deal_or_option_of_the_wrong_type_is_one_error_line(tmp_path, name, change, path):
    data = transcript(name)
    data.setdefault("options", {})
    change(data)
    with pytest.raises(TranscriptError) as info:
        Transcript.from_json(data).replay()
    assert info.value.params["path"] == path
    bad = tmp_path / "t.json"
    bad.write_text(json.dumps(data))
    assert path in one_error_line(*replay(str(bad)))


# -- saves --------------------------------------------------------------------

def _save(game_id: str, options: dict | None = None, moves: int = 5) -> dict:
    state = new_game(game_id, options, seed=5)
    for _ in range(moves):
        state = state.apply(state.legal_actions()[0])
    return json.loads(json.dumps(state.to_json()))


@pytest.mark.parametrize("game_id, change, path", [
    ("jekyll-hyde", lambda d: d["hands"]["2"].__setitem__(0, "JZ"), "hands.2[0]"),
    ("jekyll-hyde", lambda d: d["hands"]["2"].__setitem__(0, {"card": "JA"}), "hands.2[0]"),
    ("jekyll-hyde", lambda d: d.update(hand_number=float("inf")), "hand_number"),
    ("jekyll-hyde", lambda d: d.update(seed=float("inf")), "seed"),
    ("jekyll-hyde", lambda d: d["scores"].update(jekyll=float("inf")), "scores.jekyll"),
    ("jekyll-hyde", lambda d: d.update(hand_number=True), "hand_number"),
    ("jekyll-hyde", lambda d: d.update(winner=3), "winner"),
    ("jekyll-hyde", lambda d: d.update(winner=[0]), "winner"),
    ("jekyll-hyde", lambda d: d.update(winner=True), "winner"),
    ("jekyll-hyde", lambda d: d["hands"]["1"].insert(0, d["hands"]["0"][0]), "hands.1[0]"),
    ("jekyll-hyde", lambda d: d["hands"]["1"].pop(), "hands.1"),
    ("jekyll-hyde", lambda d: d["options"].update(players=3.0), "options.players"),
    ("jekyll-vs-hyde", lambda d: d["hands"]["J"].__setitem__(0, "Z9"), "hands.J[0]"),
    ("jekyll-vs-hyde", lambda d: d.update(marker=float("nan")), "marker"),
    ("jekyll-vs-hyde", lambda d: d.update(winner="J"), "winner"),
    ("dracula", lambda d: d["moves"].__setitem__(0, ["AS@00"]), "moves[0]"),
    ("dracula", lambda d: d.update(winner=1), "winner"),
])
def test_a_damaged_save_is_a_bad_state_error_naming_the_field(game_id, change, path):
    data = _save(game_id)
    assert state_from_json(json.loads(json.dumps(data))).to_json() == data
    change(data)
    with pytest.raises(BadStateError) as info:
        state_from_json(data)
    assert info.value.params["path"] == path, info.value
    assert info.value.code != "bad_state" and path in str(info.value)
    json.dumps(info.value.to_json())


def test_a_duel_ranking_that_cannot_rank_the_trick_on_the_table_is_refused():
    # Once accepted, then `tuple.index(x): x not in tuple` when the trick was followed.
    state = new_game("jekyll-vs-hyde", seed=3)
    while state.phase != "play" or len(state.plays) != 1 or not state.ranking:
        state = state.apply(state.legal_actions()[0])
    data = json.loads(json.dumps(state.to_json()))
    lead_colour = state.plays[0][0]
    data["ranking"] = [c for c in "PRG" if c != lead_colour][:1]
    with pytest.raises(BadStateError, match="ranking"):
        state_from_json(data)


def test_a_save_whose_player_on_turn_cannot_act_is_refused():
    data = _save("jekyll-vs-hyde", moves=4)
    data["hands"] = {"J": [], "H": []}
    with pytest.raises(BadStateError):
        state_from_json(data)
    data = _save("dracula", moves=3)
    data["to_act"] = None
    with pytest.raises(BadStateError, match="to_act"):
        state_from_json(data)


# -- options --------------------------------------------------------------------

@pytest.mark.parametrize("game_id, options, path", [
    ("dracula", {"first_dealer": 1.0}, "options.first_dealer"),
    ("jekyll-hyde", {"players": 3.0}, "options.players"),
    ("jekyll-hyde", {"target": True}, "options.target"),
    ("jekyll-hyde", {"target": 10**4301}, "options.target"),
    ("jekyll-vs-hyde", {"variant": ["standard"]}, "options.variant"),
])
def test_options_of_the_wrong_type_are_refused(game_id, options, path):
    with pytest.raises(BadOptionsError) as info:
        new_game(game_id, options, seed=1)
    assert info.value.code == "invalid_option" and info.value.params["path"] == path


def test_three_players_with_null_names_get_the_default_names_and_finish_a_hand():
    state = new_game("jekyll-hyde", {"players": 3, "names": None}, seed=2)
    assert state.table.options["names"] == ["Adam", "Betty", "Christian"]
    while state.hand_number == 0:  # once a KeyError at the end of the first hand
        state = state.apply(state.legal_actions()[0])
    assert set(state.to_json()["scores"]) == {"Adam", "Betty", "Christian"}


def test_a_dealt_card_that_is_a_list_is_refused():
    hands = transcript("jekyll_hyde/designation_example.json")["deals"][0]["hands"]
    hands["0"][0] = [hands["0"][0]]
    with pytest.raises(BadOptionsError) as info:
        new_game("jekyll-hyde", seed=1, deals=[{"hands": hands}])
    assert info.value.params["path"] == "deals[0].hands.0[0]"


def test_options_are_declared_once_as_data_and_shown_in_help():
    from game import GAMES, game_options

    for game_id in GAMES:
        specs = game_options(game_id)
        assert specs and all(isinstance(s, OptionSpec) for s in specs)
        json.dumps([s.to_json() for s in specs])
        defaults = {s.name: s.default for s in specs if s.default is not None}
        assert {k: v for k, v in new_game(game_id, seed=1).table.options.items()
                if k in defaults} == defaults
    out = io.StringIO()
    with redirect_stdout(out), pytest.raises(SystemExit):
        main(["play", "--help"])
    for game_id in GAMES:
        for spec in game_options(game_id):
            assert spec.summary() in " ".join(out.getvalue().split())


def test_every_declared_option_value_round_trips_through_a_save():
    """Each value an option declares (its choices, or the ends of its range)
    starts a game that keeps it through to_json and state_from_json."""
    from game import GAMES, game_options

    for game_id in GAMES:
        for spec in game_options(game_id):
            values = list(spec.choices) or ([spec.lo, spec.hi] if spec.kind == "int" else [])
            for value in values:
                data = new_game(game_id, {spec.name: value}, seed=2).to_json()
                assert data["options"][spec.name] == value, (game_id, spec.name)
                assert state_from_json(json.loads(json.dumps(data))).to_json() == data


# -- the command line -----------------------------------------------------------

@pytest.mark.parametrize("text, words", [
    ('{"game": "dracula", "seed": ' + "9" * 4301 + ', "actions": []}', "number too long"),
    ('{"game": "dracula", "options": ' + "[" * 100_000 + "]" * 100_000 + "}", "nested"),
    ('{"game": []}', "game"),
    ('{"game": "dracula", "actions": ["' + '", "'.join(["way:Q"] * (MAX_ACTIONS + 1)) + '"]}',
     "at most"),
    ('{"game": "dracula", "actions": []' + " " * 1_000_000 + "}", "larger than 1 MB"),
])
def test_replay_refuses_absurd_files_with_one_error_line(tmp_path, text, words):
    bad = tmp_path / "t.json"
    bad.write_text(text)
    assert words in one_error_line(*replay(str(bad)))


def test_replay_refuses_a_file_that_is_not_utf8(tmp_path):
    bad = tmp_path / "t.json"
    bad.write_bytes(b'{"game": "dracula", "actions": ["\xff"]}')
    assert "not UTF-8" in one_error_line(*replay(str(bad)))


@pytest.mark.parametrize("options", ["[" * 100_000 + "]" * 100_000,
                                     '{"players": ' + "9" * 4301 + "}"])
def test_options_on_the_command_line_that_no_reader_should_swallow(options):
    err = io.StringIO()
    with redirect_stdout(io.StringIO()), redirect_stderr(err):
        code = main(["simulate", "--game", "jekyll-hyde", "--bots", "random,random",
                     "--games", "1", "--options", options])
    one_error_line(code, "", err.getvalue())


def test_an_unknown_bot_setting_is_refused():
    with pytest.raises(GameError, match="no setting 'clock'; settings: budget, iterations"):
        make_bot("jekyll-hyde", "strong:clock=1")
    with pytest.raises(GameError, match="key=number"):
        make_bot("jekyll-hyde", "strong:budget=inf")
    assert make_bot("jekyll-hyde", "strong:iterations=7").iterations == 7


def run(*args: str, stdin: str = "", env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "game", *args], input=stdin, text=True,
                          capture_output=True, cwd=ROOT, timeout=120, env=env)


def test_play_takes_a_superscript_digit_for_a_bad_move_not_a_number():
    result = run("play", "--seed", "1", "--bots", "random", stdin="²\nq\n")
    assert result.returncode == 0, result.stderr
    assert "not possible: '²' is not an action" in result.stdout


def test_play_on_an_ascii_terminal_and_unknown_bot_setting_in_a_real_process():
    import os

    env = {**os.environ, "PYTHONIOENCODING": "ascii"}
    result = run("play", "--game", "dracula", "--seed", "1", stdin="q\n", env=env)
    assert result.returncode == 0 and "Dracula ? six deals" in result.stdout, result.stderr
    result = run("play", "--bots", "strong:clock=1", env=env)
    assert result.returncode == 2 and result.stderr.count("\n") == 1
    assert result.stderr.startswith("error: bot 'strong' has no setting 'clock'")


def test_replay_into_a_closed_pipe_stops_quietly():
    # The reader is gone before the first byte is written: `replay ... | head -c 0`.
    child = subprocess.Popen(
        [sys.executable, "-m", "game", "replay", str(TRANSCRIPTS / "jekyll_hyde" /
                                                     "three_players.json")],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    child.stdout.close()
    err = child.stderr.read()
    assert child.wait(timeout=120) == 141  # as if killed by SIGPIPE, like other Unix tools
    assert err == b""
