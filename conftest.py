"""Top-level pytest configuration.

game/web/*.py runs in the browser (Pyodide + PyScript): its modules import
`pyscript`/`js`, so doctest collection under CPython must skip them.
"""

collect_ignore_glob = ["game/web/*.py", "game/web/*/*.py", "site/*", "node_modules/*"]
