"""The command line: replay, simulate and play, as a user runs them.

`run` calls `main()` in this process (tests/command_line.py); `run_process`
starts `python -m game` for real, for the interpreter's exit status and streams."""

from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys
import time
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest

from game.__main__ import main
from game.core.match import simulate
from tests.command_line import run_main as run

TRANSCRIPTS = Path(__file__).parent / "transcripts" / "jekyll_hyde"
ROOT = Path(__file__).parent.parent


def run_process(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
    """`python -m game ARGS` in a Python of its own, as a user runs it."""
    return subprocess.run([sys.executable, "-m", "game", *args], input=stdin, text=True,
                          capture_output=True, cwd=ROOT, timeout=120)


def test_replay_prints_the_final_state_as_json():
    result = run_process("replay", str(TRANSCRIPTS / "scoring_example_36.json"))
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    for key in ["game", "options", "over", "to_act", "legal", "scores", "winner", "hands",
                "tricks", "history"]:
        assert key in data
    assert data["scores"] == {"jekyll": 36, "hyde": 86}


def test_replay_as_a_watcher_prints_the_public_observation():
    path = Path(__file__).parent / "transcripts" / "jekyll_vs_hyde" / "purple_steal.json"
    result = run("replay", "--watcher", str(path))
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    whole = json.loads(run("replay", str(path)).stdout)
    assert data["player"] is None and data["hand_sizes"] == {"J": 7, "H": 7}
    assert not {"hands", "aside", "seed", "deals"} & set(data)
    assert data["played"] == whole["played"] and data["scores"] == whole["scores"]


def test_replay_of_an_illegal_action_exits_2_with_one_line(tmp_path):
    data = json.loads((TRANSCRIPTS / "designation_example.json").read_text())
    data["actions"][5] = "HA"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    result = run("replay", str(bad))
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.startswith("error: action 5 'HA': HA is not in seat 0's hand")
    assert result.stderr.count("\n") == 1


def test_replay_of_malformed_files_exits_2(tmp_path):
    cases = {"not json": "{", "no game": "{}", "bad actions": '{"game": "jekyll-hyde", "actions": 3}',
             "bad deal": '{"game": "jekyll-hyde", "deals": [{"hands": {}}], "actions": []}'}
    for text in cases.values():
        path = tmp_path / "t.json"
        path.write_text(text)
        result = run("replay", str(path))
        assert result.returncode == 2 and result.stderr.startswith("error: ")
        assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    assert run("replay", str(tmp_path / "missing.json")).returncode == 2


def test_simulate_json_has_the_contract_keys():
    result = run("simulate", "--game", "jekyll-hyde", "--bots", "heuristic,random",
                 "--games", "4", "--seed", "3", "--json", "--options", '{"target": 150}')
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["games"] == 4
    assert set(data["win_rate"]) == {"heuristic", "random"}
    assert abs(sum(data["win_rate"].values()) - 1) < 1e-9
    lo, hi = data["ci95"]["heuristic"]
    assert 0 <= lo <= data["win_rate"]["heuristic"] <= hi <= 1
    # The same seed gives the same games.
    again = run("simulate", "--game", "jekyll-hyde", "--bots", "heuristic,random",
                "--games", "4", "--seed", "3", "--json", "--options", '{"target": 150}')
    assert json.loads(again.stdout) == data


def test_simulate_rejects_bad_arguments():
    result = run("simulate", "--game", "jekyll-hyde", "--bots", "heuristic,nobody", "--games", "2")
    assert result.returncode == 2 and "no bot 'nobody'" in result.stderr
    result = run("simulate", "--game", "jekyll-hyde", "--bots", "random,random",
                 "--options", "[1]")
    assert result.returncode == 2 and "--options must be a JSON object" in result.stderr


def test_play_in_the_terminal_reasks_bad_input_and_plays_to_the_end():
    answers = "\n".join(["nonsense", "99", "@9"] + ["1"] * 400) + "\n"
    result = run("play", "--seed", "4", "--options", '{"target": 60}', stdin=answers)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "not possible: 'nonsense' is not an action" in out
    assert "not possible: '99' is not an action" in out
    assert "Game over." in out or "end of input" in out
    assert "your hand:" in out and "asks" in out


def test_play_stops_cleanly_at_end_of_input():
    result = run_process("play", "--seed", "1", stdin="")
    assert result.returncode == 0 and "end of input" in result.stdout


# Each case starts a pool of worker processes: the quick run tries the cheapest.
@pytest.mark.parametrize("game, bots, games, options", [
    ("jekyll-hyde", "random,easy", 4, {"players": 3, "target": 200}),
    pytest.param("jekyll-hyde", "heuristic,random", 5, {"target": 200}, marks=pytest.mark.slow),
    pytest.param("jekyll-vs-hyde", "heuristic,easy", 5, {"variant": "return-match"},
                 marks=pytest.mark.slow),
    pytest.param("dracula", "strong:iterations=10,heuristic", 3, None, marks=pytest.mark.slow),
])
def test_simulate_gives_the_same_result_for_any_number_of_workers(game, bots, games, options):
    """Each game depends only on its deal's seed: one process or three, the same
    games in the same order, so the same figures (and the progress counts up)."""
    results, counts = [], []
    for workers in (1, 3):
        seen: list[int] = []
        results.append(simulate(game, bots.split(","), games, 8, options, seen.append,
                                workers).to_json())
        counts.append(seen)
    assert results[0] == results[1] and results[0]["games"] == games
    assert counts == [list(range(1, games + 1))] * 2


def children_of(pid: int) -> set[int]:
    """The processes whose parent is `pid` (from /proc: no tool needed)."""
    found = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:  # the process ended while we looked
            continue
        if int(fields[1]) == pid:
            found.add(int(stat.parent.name))
    return found


def alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.slow  # a real run's worker processes, stopped mid-game
@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
def test_a_terminated_simulate_ends_its_workers_too():
    """`kill` (SIGTERM) on a run with workers ends the workers with it; they
    are mid-game for minutes (expert bots in Werner's game) and would play on."""
    run = subprocess.Popen([sys.executable, "-m", "game", "simulate", "--game", "jekyll-hyde",
                            "--bots", "expert,expert", "--games", "4", "--workers", "2"],
                           cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    workers: set[int] = set()
    try:
        deadline = time.monotonic() + 60
        while len(workers) < 2 and time.monotonic() < deadline:  # the pool has started
            time.sleep(0.2)
            workers = {pid for pid in children_of(run.pid)
                       if "spawn_main" in Path(f"/proc/{pid}/cmdline").read_text()}
        assert len(workers) == 2, "the pool's two workers never started"
        time.sleep(1)  # into their first games
        run.terminate()
        code = run.wait(timeout=30)
        deadline = time.monotonic() + 10
        while any(alive(pid) for pid in workers) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not any(alive(pid) for pid in workers), "workers outlived their run"
        assert code == 128 + signal.SIGTERM  # the shell's code for "ended by SIGTERM"
        assert "Traceback" not in run.stderr.read()
    finally:
        run.kill()
        for pid in workers:
            if alive(pid):
                os.kill(pid, signal.SIGKILL)


@pytest.mark.parametrize("workers", ["0", "-1", "x", "2.5", "", " 2", "²", "9" * 5000,
                                     str(4 * (os.cpu_count() or 1) + 1)])
def test_simulate_refuses_a_bad_number_of_workers_in_one_line(workers):
    err = io.StringIO()
    with redirect_stdout(io.StringIO()) as out, redirect_stderr(err):
        code = main(["simulate", "--game", "dracula", "--bots", "random,random",
                     "--games", "2", "--workers", workers])
    assert code == 2 and out.getvalue() == "" and err.getvalue().count("\n") == 1
    assert err.getvalue().startswith("error: --workers must be a whole number from 1 to ")


@pytest.mark.parametrize("typed", ["é", "²"])
def test_play_reads_a_character_its_encoding_cannot_decode_as_a_bad_move(typed):
    """Under PYTHONIOENCODING=ascii:strict a non-ASCII answer is re-asked in
    one line, like any unknown action, not a UnicodeDecodeError traceback."""
    env = {**os.environ, "PYTHONIOENCODING": "ascii:strict"}
    result = subprocess.run([sys.executable, "-m", "game", "play", "--game", "jekyll-hyde",
                             "--seed", "1"], input=f"{typed}\nq\n".encode("utf-8"),
                            capture_output=True, cwd=ROOT, timeout=120, env=env)
    out, err = result.stdout.decode("ascii", "replace"), result.stderr.decode("ascii", "replace")
    assert result.returncode == 0, err
    assert "Traceback" not in err and "UnicodeDecodeError" not in err
    assert out.count("not possible:") == 1 and "is not an action" in out
