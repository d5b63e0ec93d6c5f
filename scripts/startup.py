# What the page imports as it starts, run inside Pyodide by the build's Node
# steps: scripts/snapshot.mjs imports it into the memory snapshot, and
# scripts/precompile.mjs ships as bytecode the standard library modules it
# imports (the others ship as source: fewer bytes, compiled if ever imported).
# The game's package is on sys.path: game.zip itself, as in the page, for the
# snapshot; its sources unpacked in the working directory for precompile.mjs.
import dis
import importlib
import importlib.util

BROWSER = ("pyscript", "js")  # the browser's own modules: never in a snapshot
# What needs the browser's own modules is read from game.zip as the page
# starts: the worker's shell, its front and embed.html's runner. Everything
# else the page imports at start is in the snapshot: read from the zip, the
# page's value and its online actions (some 200 frozen dataclasses, each an
# exec of generated code) took 300 ms of a start (benchmarks/RESULTS.md).
FROM_ZIP = ("game.web.front", "game.web.dom.worker", "game.web.embed.game")


def from_zip(name):
    """Read from game.zip at start: one of FROM_ZIP, or a module of one (a package)."""
    return any(name == z or name.startswith(z + ".") for z in FROM_ZIP)


def import_for_the_page(name, seen=set()):
    """Import module `name`; if it needs the browser (or is read from game.zip),
    what it imports at its top level."""
    if name in seen:
        return
    seen.add(name)
    try:
        if not from_zip(name):
            importlib.import_module(name)
            return
    except ModuleNotFoundError as e:
        if e.name not in BROWSER:
            raise
    # Its top-level code's imports (`from m import x`: m, and m.x if x is a module).
    code = importlib.util.find_spec(name).loader.get_code(name)
    wanted, module = [], ""
    for op in dis.get_instructions(code):
        if op.opname == "IMPORT_NAME":
            module = op.argval
            wanted.append(module)
        elif op.opname == "IMPORT_FROM":
            wanted.append(f"{module}.{op.argval}")
    for module in wanted:
        if module.split(".")[0] in BROWSER or from_zip(module.rpartition(".")[0]):
            continue  # (looking for a module inside one would import it)
        try:
            found = importlib.util.find_spec(module)
        except ModuleNotFoundError:  # a parent needs the browser, or `x` is no module
            found = None
        if found is not None:
            import_for_the_page(module)


# The game's worker (static/js/engine.mjs; it holds the browser's `js`, so it is
# read from game.zip) and the modules its shell imports later for the game on the table.
import_for_the_page("game.web.dom.worker")
import game.web.draw.tables  # noqa: E402

for table in game.web.draw.tables.TABLES.values():
    importlib.import_module(table)

# The standard library modules PyScript's own Python imports
# (@pyscript/core's src/stdlib/pyscript).
import base64, collections, html, inspect, io  # noqa: E401, E402
