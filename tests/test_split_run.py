"""The pure parts of the split page's start-up benchmark (benchmarks/split/run.py):
the baseline built from a git ref, and the blocking time and click delays it
reports."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.benchmark_module import load_benchmark

run = load_benchmark("split/run")

# A stand-in for `python -m game build --out DIR`: the checkout's version, as a page.
BUILD = """import pathlib, sys
out = pathlib.Path(sys.argv[sys.argv.index("--out") + 1])
out.mkdir(parents=True)
(out / "index.html").write_text(pathlib.Path("version").read_text())
"""


def _git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True,
                          text=True).stdout.strip()


def test_the_baseline_is_built_from_its_ref_in_a_worktree_that_goes_away(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    repo = tmp_path / "repo"
    (repo / "game").mkdir(parents=True)
    (repo / "game" / "__main__.py").write_text(BUILD)
    (repo / "node_modules").mkdir()
    venv = tmp_path / "venv" / "bin"  # the checkout's .venv, a symlink as in a worktree
    venv.mkdir(parents=True)
    (venv / "python").symlink_to(sys.executable)
    (repo / ".venv").symlink_to(venv.parent)
    _git(repo, "init", "-q")
    for version in ("old", "new"):
        (repo / "version").write_text(version)
        _git(repo, "add", "game", "version")
        _git(repo, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", version)
    monkeypatch.setattr(run, "ROOT", repo)
    out = run.baseline_site("HEAD~1", tmp_path / "baseline")
    assert (out / "index.html").read_text() == "old"  # the ref's sources, not the checkout's
    assert _git(repo, "worktree", "list").count("\n") == 0  # its worktree removed


def test_blocking_time_counts_tasks_before_ready_over_50_ms() -> None:
    tasks = [[10.0, 80.0], [200.0, 50.0], [300.0, 120.0], [900.0, 400.0]]
    longest, blocking, count = run.tbt(tasks, until=500.0)
    assert (longest, blocking, count) == (120.0, 30.0 + 0.0 + 70.0, 3)


def test_clicks_count_only_before_ready() -> None:
    # [startTime, input delay, duration] of Event Timing entries
    events = [[100.0, 40.0, 90.0], [250.0, 300.0, 320.0], [900.0, 500.0, 700.0]]
    assert run.clicks_before(events, until=800.0) == (300.0, 320.0)
    assert run.clicks_before(events, until=50.0) == (0.0, 0.0)
