"""`python -m game ...` run in this process: `main()` with its own streams.

Starting a Python for each command line test cost more than the command
itself; `main()` is what `python -m game` runs, so in-process runs test the
same parsing, output and exit status. A few tests still start a real process
(tests/test_cli.py, tests/test_validation.py): the interpreter's own exit
status, encodings and pipes.
"""

from __future__ import annotations

import io
import subprocess
import sys
from contextlib import redirect_stderr, redirect_stdout

from game.__main__ import main


def run_main(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    """`python -m game ARGS` with `stdin` as input: its exit status and what it printed."""
    out, err = io.StringIO(), io.StringIO()
    saved_stdin, sys.stdin = sys.stdin, io.StringIO(stdin)
    try:
        with redirect_stdout(out), redirect_stderr(err):
            try:
                code = main(list(args))
            except SystemExit as e:  # argparse refusing the arguments, as `sys.exit` would
                code = e.code if isinstance(e.code, int) else (e.code is not None)
    finally:
        sys.stdin = saved_stdin
    return subprocess.CompletedProcess(["python", "-m", "game", *args], code,
                                       out.getvalue(), err.getvalue())
