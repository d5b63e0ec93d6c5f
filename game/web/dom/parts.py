"""The parts of the program a first visit does not download (game.build.PARTS):
online play's modules ship in a zip of their own, fetched from the site the
first time a page needs them and unpacked beside game.zip's, on sys.path.
"""

from __future__ import annotations

import asyncio
import importlib

from pyodide.http import pyfetch
from pyscript import window

_loading: dict[str, asyncio.Future[None]] = {}


async def _fetch(part: str) -> None:
    url = window.URL.new(f"./{part}.zip", window.document.baseURI).href
    response = await pyfetch(url)
    if not response.ok:
        raise OSError(f"{part}.zip could not be fetched (HTTP {response.status})")
    await response.unpack_archive(format="zip")  # into the working directory, as game.zip
    importlib.invalidate_caches()


async def load_part(part: str) -> None:
    """Fetch and unpack `part` once (callers meanwhile wait for the same fetch);
    a failed fetch is tried again by the next call."""
    if part not in _loading:
        _loading[part] = asyncio.ensure_future(_fetch(part))
    try:
        await _loading[part]
    except BaseException:
        _loading.pop(part, None)
        raise
