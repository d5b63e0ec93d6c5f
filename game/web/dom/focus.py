"""The page's keyboard focus (game.web.front.focus) on the page's document."""

from __future__ import annotations

from pyodide.ffi import to_js
from pyscript import document, window

from game.web.front.focus import ARROWS, Focus, attr

__all__ = ["ARROWS", "FOCUS", "attr", "q", "try_focus", "trap_tab", "move_focus"]

FOCUS = Focus(document, to_js({"preventScroll": True}, dict_converter=window.Object.fromEntries))
q = FOCUS.q
try_focus = FOCUS.try_focus
trap_tab = FOCUS.trap_tab
move_focus = FOCUS.move
