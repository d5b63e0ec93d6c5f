"""The page's live region (game.web.front.live) on the page's document."""

from __future__ import annotations

from pyodide.ffi import to_js
from pyscript import document, window

from game.web.front.live import Live

__all__ = ["live_region"]


def live_region() -> Live:
    return Live(document, to_js({"block": "nearest"}, dict_converter=window.Object.fromEntries))
