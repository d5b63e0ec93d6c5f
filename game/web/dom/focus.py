"""The page's keyboard focus (game.web.front.focus) on the page's document,
under the names the rest of game.web.dom calls it by."""

from __future__ import annotations

from pyodide.ffi import to_js
from pyscript import document, window

from game.web.front.focus import ARROWS, CONTROLS, Focus, attr, usable

__all__ = ["ARROWS", "CONTROLS", "attr", "usable", "q", "focus", "try_focus", "focus_key",
           "refocus", "focus_usable", "focus_first", "focus_fallback", "focus_area",
           "trap_tab", "move_focus"]

FOCUS = Focus(document, to_js({"preventScroll": True}, dict_converter=window.Object.fromEntries))
q = FOCUS.q
focus = FOCUS.focus
try_focus = FOCUS.try_focus
focus_key = FOCUS.key
refocus = FOCUS.refocus
focus_usable = FOCUS.usable_in
focus_first = FOCUS.first
focus_fallback = FOCUS.fallback
focus_area = FOCUS.area
trap_tab = FOCUS.trap_tab
move_focus = FOCUS.move
