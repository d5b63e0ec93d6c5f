# What the page imports as it starts, run inside Pyodide by the build's Node
# steps: scripts/snapshot.mjs imports it into the memory snapshot, and
# scripts/precompile.mjs ships as bytecode the standard library modules it
# imports (the others ship as source: fewer bytes, compiled if ever imported).
# The game's package is unpacked in the working directory, as PyScript does.
import importlib

# What the page's shell imports (game/web/shell.py), minus the browser's own
# modules (pyscript, js), which must not be in a snapshot.
import asyncio, functools, json, random, time, traceback, typing, urllib.parse  # noqa: E401
import game, game.bots, game.web.choice, game.web.html, game.web.i18n, game.web.inputs  # noqa: E401
import game.web.saves, game.web.tables  # noqa: E401

for table in game.web.tables.TABLES.values():
    importlib.import_module(table)

# The standard library modules PyScript's own Python imports
# (@pyscript/core's src/stdlib/pyscript).
import base64, collections, html, inspect, io  # noqa: E401
