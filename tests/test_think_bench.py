"""The pure parts of the think-time benchmark (benchmarks/think.py): what
counts as the main thread's blocking while a bot thinks, and the game file
it opens."""

from __future__ import annotations

import json

from game.core.transcript import Transcript
from tests.benchmark_module import load_benchmark

think = load_benchmark("think")


def test_blocking_counts_each_task_that_overlaps_a_window_once() -> None:
    tasks = [[0.0, 120.0], [150.0, 60.0], [400.0, 300.0], [1000.0, 90.0]]
    windows = [[100.0, 200.0], [190.0, 450.0]]  # the second task overlaps both
    longest, blocking, count = think.blocking(tasks, windows)
    assert (longest, count) == (300.0, 3)
    assert blocking == 70.0 + 10.0 + 250.0  # the last task is outside: not counted
    assert think.blocking(tasks, []) == (0.0, 0.0, 0)


def test_frame_gap_is_the_longest_that_overlaps_a_window() -> None:
    frames = [0.0, 16.0, 32.0, 300.0, 316.0, 900.0]
    assert think.frame_gap(frames, [[20.0, 40.0]]) == 268.0
    assert think.frame_gap(frames, [[310.0, 312.0]]) == 16.0
    assert think.frame_gap(frames, [[950.0, 990.0]]) == 0.0


def test_the_game_file_is_a_whole_game_the_engine_replays() -> None:
    data = json.loads(think.whole_game("dracula", 4))
    assert Transcript.from_json(data).replay().over
