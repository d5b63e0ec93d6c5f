"""The parts of the program a first visit does not download (game.build.PARTS):
online play's modules ship in a zip of their own, fetched from the site the
first time a page needs them and written beside game.zip as one file, which
Python imports from, as from game.zip (static/js/python.mjs). (The split
page's worker, which has no PyScript, fetches its part itself and calls
`add_to_packages`.)
"""

from __future__ import annotations

import asyncio
import os
import sys
import zipimport
from typing import cast
from urllib.parse import urljoin

_loading: dict[str, asyncio.Future[None]] = {}


async def _fetch(part: str, base: str | None) -> None:
    from pyodide.http import pyfetch

    if base is None:  # a page's own Python: the zip beside the page
        from pyscript import window

        base = str(window.document.baseURI)
    url = urljoin(base, f"{part}.zip")
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
    a package of the part's own (game.online) is found through its parent's."""
    for name, module in list(sys.modules.items()):
        if (name == "game" or name.startswith("game.")) and hasattr(module, "__path__"):
            folder = os.path.join(archive, *name.split("."))
            if folder not in module.__path__:
                module.__path__.append(folder)  # (a new entry: no cache to invalidate)


async def load_part(part: str, base: str | None = None) -> None:
    """Fetch and write `part` once (callers meanwhile wait for the same fetch);
    a failed fetch is tried again by the next call. `base`: the page's address
    (a worker's own is its script's), by default the page's base URI."""
    if part not in _loading:
        _loading[part] = asyncio.ensure_future(_fetch(part, base))
    try:
        await _loading[part]
    except BaseException:
        _loading.pop(part, None)
        raise
