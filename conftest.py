"""Top-level pytest configuration.

game/web runs in the browser (Pyodide + PyScript); its pure modules are
collected under CPython like the rest (doctests included), but the shell
imports `pyscript` at the top, so it is not collected.
"""

collect_ignore_glob = ["game/web/shell.py", "site/*", "node_modules/*"]
