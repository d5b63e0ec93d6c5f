"""The parts of the program a first visit does not download (game.build.PARTS):
online play's modules ship in a zip of their own, fetched from the site the
first time a page needs them and written beside game.zip as one file, which
Python imports from, as from game.zip (static/js/python.mjs). The game's
worker (game/web/dom/worker.py), which has no PyScript and no document,
gives the page's address to resolve the part's URL against.
"""

from __future__ import annotations

import asyncio
import os
import sys
import zipimport
from typing import cast

_loading: dict[str, asyncio.Future[None]] = {}


async def _fetch(part: str, base: str | None) -> None:
    import js
    from pyodide.http import pyfetch

    if base is None:
        from pyscript import window

        base = str(window.document.baseURI)
    url = js.URL.new(f"./{part}.zip", base).href
    response = await pyfetch(url)
    if not response.ok:
        raise OSError(f"{part}.zip could not be fetched (HTTP {response.status})")
    import game

    package = cast(zipimport.zipimporter, game.__loader__).archive  # game.zip's path
    path = os.path.join(os.path.dirname(package), f"{part}.zip")
    with open(path, "wb") as file:
        file.write(await response.bytes())
    add_to_packages(path)


def add_to_packages(archive: str) -> None:
    """Let the game's packages find their modules in zip `archive` too: each
    imported package's folder in the zip joins its __path__. The packages a
    part's modules sit in are imported by then (game, game.web, game.web.dom);
    a package of the part's own (game.online) is found through its parent's,
    and a module at the zip's top (the bench part's) through `sys.path`."""
    if archive not in sys.path:
        sys.path.append(archive)
    for name, module in list(sys.modules.items()):
        if (name == "game" or name.startswith("game.")) and hasattr(module, "__path__"):
            folder = os.path.join(archive, *name.split("."))
            if folder not in module.__path__:
                module.__path__.append(folder)  # (a new entry: no cache to invalidate)


async def load_part(part: str, base: str | None = None) -> None:
    """Fetch and write `part` once (callers meanwhile wait for the same fetch),
    from beside `base` (the page's address; the document's own by default);
    a failed fetch is tried again by the next call."""
    if part not in _loading:
        _loading[part] = asyncio.ensure_future(_fetch(part, base))
    try:
        await _loading[part]
    except BaseException:
        _loading.pop(part, None)
        raise
