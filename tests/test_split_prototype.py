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
