"""The built site, made once for the whole session and shared.

A build runs Pyodide under Node to compile the Python to bytecode and to make
the memory snapshot (about 12 s on an idle 2-core machine), so every test
that needs the built site reads this one. Such a test needs what the browser
tests need (Node and the pinned runtime from `npm ci`), so it is marked
`browser` like them: `pytest -m "not browser"` leaves them out, the full run
keeps them.
"""

from __future__ import annotations

import fcntl
import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

BLANK = '<!doctype html><link rel="icon" href="data:,"><p>blank'


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "built_site" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def built_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site as `python -m game build` makes it. Read it, never change it:
    a test that changes files works on `copy_site`. Under pytest-xdist (`-n`)
    the first worker to need it builds it for all of them, in the run's shared
    temporary folder, while the others wait on a lock: one build per run, not
    one per worker."""
    from game.build import BuildError, build, up_to_date

    if "PYTEST_XDIST_WORKER" not in os.environ:  # no xdist: this process is the whole run
        where = tmp_path_factory.mktemp("built")
    else:
        where = tmp_path_factory.getbasetemp().parent / "built"
        where.mkdir(exist_ok=True)
    try:
        with open(where / "lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
            if up_to_date(where / "site"):  # another worker built it
                return (where / "site").resolve()
            return build(where / "site")
    except BuildError as e:
        if "runtime is missing" not in str(e):
            raise  # e.g. no resvg-py for the icons: a broken set-up, not a skip
        pytest.skip(str(e))


@pytest.fixture(scope="session")
def copy_site(built_site: Path) -> Callable[[Path], Path]:
    """Copies the built site to a folder of the test's own (to serve or change it),
    with a blank same-origin page (test only) to clear storage before loading the site."""

    def copy(dest: Path) -> Path:
        shutil.copytree(built_site, dest)
        (dest / "blank.html").write_text(BLANK)
        return dest

    return copy


@pytest.fixture
def quick_analysis(monkeypatch: pytest.MonkeyPatch) -> int:
    """The page's hand analysis at a few iterations a decision (a test that
    compares its verdicts with `judge` passes the same count): the count."""
    from game.web.runtime import analysis_run
    from tests.page_kit import ANALYSIS_ITERATIONS

    monkeypatch.setattr(analysis_run, "ITERATIONS", ANALYSIS_ITERATIONS)
    return ANALYSIS_ITERATIONS
