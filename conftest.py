"""Top-level pytest configuration.

game/web/*.py runs in the browser (Pyodide + PyScript): its modules import
`pyscript`/`js`, so doctest collection under CPython must skip them.
"""

collect_ignore_glob = ["game/web/*.py", "game/web/*/*.py", "site/*", "node_modules/*"]


def pytest_addoption(parser):
    parser.addoption("--fuzz-long", action="store_true",
                     help="fuzz every entry point with 100,000 damaged inputs each "
                          "(tests/test_fuzz.py; a few thousand in all without it)")
