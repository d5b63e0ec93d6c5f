"""Top-level pytest configuration.

game/web runs in the browser (Pyodide + PyScript); its pure modules are
collected under CPython like the rest (doctests included), but the shell and
the file panel import `pyscript` at the top, so they are not collected.
"""

collect_ignore_glob = ["game/web/shell.py", "game/web/file_panel.py", "site/*", "node_modules/*"]


def pytest_addoption(parser):
    parser.addoption("--fuzz-long", action="store_true",
                     help="fuzz every entry point with 100,000 damaged inputs each "
                          "(tests/test_fuzz.py; a few thousand in all without it)")
