"""Top-level pytest configuration.

game/web runs in the browser (Pyodide + PyScript); its pure modules are
collected under CPython like the rest (doctests included), but the browser's
drivers (game/web/dom) import `js`, `pyscript` or `pyodide` at the top, so
they are not collected.

Two strengths for the property tests and the fuzzer, as hypothesis profiles
(tests/strength.py scales the counts the tests name): "full" runs every count
as written; "fast" a quarter of it, for the quick run. The quick run,
`pytest -n auto -m "not browser and not slow"` (any `-m` that leaves out the
browser tests), is fast unless CI is set; every other run (the full `pytest`
that CI runs, one file, `-m browser`) is full.
`--hypothesis-profile=full` (or `fast`) chooses by hand.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from hypothesis import settings

# Bytecode for the tests even where PYTHONDONTWRITEBYTECODE is set (as on the
# project's machines): without it every worker compiles the game and rewrites
# every test module's asserts again, about 10 s of each run's start on 2 cores
# (CONTRIBUTING.md, "The quick run"); the tests' `python -m game` runs too. It
# goes under .cache/, not beside the sources.
if sys.dont_write_bytecode:
    sys.dont_write_bytecode = False
    sys.pycache_prefix = str(Path(__file__).resolve().parent / ".cache" / "pycache")
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    os.environ["PYTHONPYCACHEPREFIX"] = sys.pycache_prefix

collect_ignore_glob = ["game/web/dom/*", "site/*", "node_modules/*"]

settings.register_profile("full", max_examples=100)  # hypothesis's default: the counts as written
settings.register_profile("fast", max_examples=25)


def pytest_addoption(parser):
    parser.addoption("--fuzz-long", action="store_true",
                     help="fuzz every entry point with 100,000 damaged inputs each "
                          "(tests/test_fuzz.py; a few thousand in all without it)")


def _leaves_out_browser_tests(markexpr: str) -> bool:
    """True if `-m markexpr` deselects a test marked `browser` (and nothing else)."""
    if not markexpr:
        return False
    try:
        from _pytest.mark.expression import Expression  # pytest's own reader of -m
        return not Expression.compile(markexpr).evaluate(lambda name, **_: name == "browser")
    except Exception:  # pytest moved its reader: the full strength is the safe side
        return False


def pytest_configure(config: pytest.Config) -> None:
    if config.getoption("--hypothesis-profile") is None:
        in_ci = os.environ.get("CI", "").lower() not in ("", "0", "false")
        quick = _leaves_out_browser_tests(config.getoption("markexpr")) and not in_ci
        settings.load_profile("fast" if quick else "full")


def pytest_report_header(config: pytest.Config) -> str:
    return f"test strength: hypothesis profile {settings.get_current_profile_name()!r}"


def pytest_terminal_summary(terminalreporter) -> None:
    ran = any(terminalreporter.stats.get(outcome) for outcome in ("passed", "failed"))
    if ran and settings.get_current_profile_name() == "fast":
        terminalreporter.write_line(
            "quick run: property tests and fuzzing tried a quarter of their cases "
            "(all of them: --hypothesis-profile=full, or the full run)")
