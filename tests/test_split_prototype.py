"""The pure parts of issue 33's prototype (benchmarks/split/run.py): the
pages it adds to a built site, and the blocking time it reports."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.benchmark_module import load_benchmark

run = load_benchmark("split/run")

INDEX = """<!doctype html><html><head>
<meta http-equiv="Content-Security-Policy" content="default-src 'self'; worker-src 'self'; object-src 'none'">
<link rel="modulepreload" href="./static/vendor/pyscript/core.js">
</head><body><section id="screen"></section>
<script src="./static/js/first.js" data-runtime="./static/vendor/pyscript/core.js"></script>
<script type="py" config="./pyscript.json">
from game.web.dom.boot import start
start()
</script>
</body></html>
"""


def _site(tmp_path: Path) -> tuple[Path, Path]:
    site = tmp_path / "site"
    site.mkdir()
    (site / "index.html").write_text(INDEX)
    mpy = tmp_path / "npm"
    package = mpy / "node_modules" / run.MPY_PACKAGE
    package.mkdir(parents=True)
    for name in run.MPY_FILES:
        (package / name).write_bytes(b"\0" * 100)
    return site, mpy


def test_make_adds_the_split_pages_beside_index(tmp_path: Path) -> None:
    site, mpy = _site(tmp_path)
    run.make(site, mpy)
    split = (site / "split.html").read_text()
    fresh = (site / "split-fresh.html").read_text()
    # MicroPython on the main thread, the worker named "engine" on the snapshot's module.
    assert '<script type="mpy" src="./split/main.py" config="./split/mpy.json">' in split
    assert 'worker name="engine" src="./split/worker.py" config="./split/worker.json"' in split
    assert 'config="./split/worker-fresh.json"' in fresh
    for page in (split, fresh):
        assert "from game.web.dom.boot import start" not in page
        assert "worker-src 'self' blob:" in page  # PyScript's workers start from a Blob URL
    # The direct variant: no PyScript on the main thread at all.
    direct = (site / "split-direct.html").read_text()
    assert 'data-runtime="./split/direct.mjs"' in direct
    assert "pyscript" not in direct and 'type="py"' not in direct
    assert "worker-src 'self';" in direct  # its worker is a file of the site: no blob:
    assert (site / "index.html").read_text() == INDEX  # today's page is left as it is
    # Local runtimes only: a worker's paths are relative to its config (split/).
    assert json.loads((site / "split" / "worker.json").read_text())["interpreter"] \
        == "../static/js/python.mjs"
    assert json.loads((site / "split" / "mpy.json").read_text())["interpreter"] \
        == "./static/vendor/micropython/micropython.mjs"
    for name in run.MPY_FILES:
        assert (site / "static" / "vendor" / "micropython" / name).stat().st_size == 100
    for name in ("worker.py", "main.py", "direct.mjs", "direct-worker.mjs"):
        assert (site / "split" / name).exists()
    assert "xworker.sync.pushed" in (site / "sync-probe.html").read_text()


def test_make_refuses_a_page_without_its_python(tmp_path: Path) -> None:
    site, mpy = _site(tmp_path)
    (site / "index.html").write_text(INDEX.replace('type="py"', 'type="text/plain"'))
    with pytest.raises(AssertionError):
        run.make(site, mpy)


def test_blocking_time_counts_tasks_before_ready_over_50_ms() -> None:
    tasks = [[10.0, 80.0], [200.0, 50.0], [300.0, 120.0], [900.0, 400.0]]
    longest, blocking, count = run.tbt(tasks, until=500.0)
    assert (longest, blocking, count) == (120.0, 30.0 + 0.0 + 70.0, 3)


def test_hops_run_from_each_moment_noted_to_the_next() -> None:
    # split.html notes no message moments (PyScript carries them): its hops skip them.
    direct = {"click": 1.0, "handler": 3.0, "task": 3.5, "posted": 3.5, "received": 4.0,
              "py_start": 4.5, "py_end": 9.5, "answered": 9.5, "arrived": 15.0,
              "resumed": 15.5, "applied": 17.0}
    pyscript = {"click": 2.0, "handler": 4.0, "task": 4.0, "py_start": 6.0, "py_end": 10.0,
                "resumed": 12.0, "applied": 13.0, "frame": 8.0}  # frame: not a hop
    gaps = run.hop_gaps([direct, pyscript], run.MOMENTS)
    assert gaps["click -> handler"] == [2.0, 2.0]
    assert gaps["answered -> arrived"] == [5.5]
    assert gaps["task -> py_start"] == [2.0]
    assert gaps["py_end -> resumed"] == [2.0]
    assert gaps["click -> applied (all)"] == [16.0, 11.0]
    assert not any("frame" in hop for hop in gaps)
    # What the bots drew: from the worker's draw, whatever the way back noted.
    bot = run.hop_gaps([{"drawn": 1.0, "answered": 1.2, "arrived": 9.0, "resumed": 9.1,
                         "applied": 12.0}], run.BOT_MOMENTS)
    assert bot["drawn -> answered"] == [1.2 - 1.0] and bot["drawn -> applied (all)"] == [11.0]
