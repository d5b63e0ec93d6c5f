"""The whole package type-checks under `mypy --strict` (settings in pyproject.toml).

Part of the test run, so CI and anyone running the README's test command
check the types the table contract and the engine declare.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_mypy_strict_finds_nothing_in_the_package() -> None:
    done = subprocess.run([sys.executable, "-m", "mypy", "--strict", "game"], cwd=ROOT,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert "Success: no issues found" in done.stdout
