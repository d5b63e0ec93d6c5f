"""The keyboard focus, kept where a player expects it: on the same control
across a redraw, round the controls of an open dialog, along a hand or the
coffin with the arrow keys."""

from __future__ import annotations

from typing import Any

from pyodide.ffi import to_js
from pyscript import document, window

JsObject = Any  # a JavaScript object seen through Pyodide (a JsProxy): untyped for mypy

ARROWS = {"ArrowLeft": -1, "ArrowRight": 1, "ArrowUp": -3, "ArrowDown": 3}
CONTROLS = ("button:not([disabled]), [data-part]:not([disabled]), "
            "[data-act]:not([disabled]), select, input, a[href]")


def q(sel: str) -> JsObject:
    """The first element matching `sel`, or None."""
    el = document.querySelector(sel)
    return None if el is None or not el else el  # jsnull is falsy


def attr(el: JsObject, name: str) -> str | None:
    """An attribute as str, or None (JS null arrives as jsnull, not None)."""
    if el is None:
        return None
    v = el.getAttribute(name)
    return v if isinstance(v, str) else None


def focus(el: JsObject) -> None:
    el.focus(to_js({"preventScroll": True}, dict_converter=window.Object.fromEntries))


def focus_key() -> tuple[str, str, str] | None:
    """The focused control of the table: its attribute and value that
    survive a redraw, and the class of its `data-keys` group ("" if none)."""
    el = document.activeElement
    if el is None or not el or not el.closest("#screen"):
        return None
    group = el.closest("[data-keys]")
    where = ((attr(group, "class") or "").split() or [""])[0] if group else ""
    for name in ("data-part", "data-act", "id"):
        value = attr(el, name)
        if value:
            return name, value, where
    return None

def refocus(key: tuple[str, str, str] | None) -> None:
    """Focus the same control again; if it is gone (a card played), the
    first control of the same hand or coffin, else the prompt: never <body>."""
    if key is None:
        return
    name, value, where = key
    group = q(f"#screen [data-keys].{where}") if where else None
    for el in document.querySelectorAll(f"#screen [{name}]"):
        if attr(el, name) != value:
            continue
        # A card the person may not play now is out of the Tab order: the
        # first one they may play instead, if the hand has one.
        if attr(el, "data-skip") == "true" and group is not None and focus_usable(group):
            return
        if try_focus(el):
            return
    if group is None or not focus_first(group):
        focus_fallback()

def try_focus(el: JsObject) -> bool:
    focus(el)
    return bool(document.activeElement == el)

def usable(el: JsObject) -> bool:
    """Not a card the person may not play now (`data-skip`: Tab and the arrows pass it)."""
    return attr(el, "data-skip") != "true"

def focus_usable(within: JsObject) -> bool:
    """Focus the first control in `within` the person may use now."""
    return any(usable(el) and try_focus(el) for el in within.querySelectorAll(CONTROLS))

def focus_first(within: JsObject) -> bool:
    """Focus the first control in `within` that can take it, one the person
    may use now first."""
    return focus_usable(within) or any(try_focus(el) for el in within.querySelectorAll(CONTROLS))

def focus_fallback() -> None:
    """The prompt (focusable by script only), else the table's first control."""
    prompt = q("#screen #prompt")
    if prompt is not None:
        prompt.tabIndex = -1
        if try_focus(prompt):
            return
    focus_first(q("#screen"))

def focus_area() -> str | None:
    """Where the focus is: "modal", "screen", "side", "body" (nowhere), or
    None (elsewhere)."""
    el = document.activeElement
    if el is None or not el or el == document.body:
        return "body"
    for area in ("modal", "screen", "side"):
        if el.closest(f"#{area}"):
            return area
    return None


def trap_tab(evt: JsObject) -> bool:
    """Tab and Shift+Tab go round the controls of the open modal dialog (a
    hand's summary, the keys panel, the file panel) and a new version's
    offer instead of leaving them for the table behind. True if the dialog
    took the key."""
    if str(evt.key) != "Tab":
        return False
    dialogs = [d for d in document.querySelectorAll(
                   '[role="dialog"][aria-modal="true"], [role="alertdialog"][aria-modal="true"]')
               if d.getClientRects().length]  # shown: not hidden, not a closed <dialog>
    if not dialogs:
        return False
    # a new version's offer (static/js/update.js) is never out of reach
    controls = [*dialogs[-1].querySelectorAll(CONTROLS),
                *document.querySelectorAll("#update:not([hidden]) button")]
    if not controls:
        return False
    here = next((i for i, c in enumerate(controls) if c == document.activeElement), None)
    if here is None:
        there = 0
    else:
        step = here + (-1 if evt.shiftKey else 1)
        there = step % len(controls)  # past either end: round to the other
        inside = dialogs[-1].contains
        if step == there and inside(controls[here]) and inside(controls[there]):
            return False  # a step inside the dialog: the browser's own order
    evt.preventDefault()
    focus(controls[there])
    return True


def move_focus(evt: JsObject, key: str) -> None:
    """Arrow keys inside a `data-keys` group (a hand: a row; the coffin: a grid)."""
    group = evt.target.closest("[data-keys]")
    if group is None or not group:
        return
    # Not the cards the person may not play now: Tab skips them too.
    items = [el for el in group.querySelectorAll("[data-part], [data-act]") if usable(el)]
    here = next((i for i, el in enumerate(items) if el == evt.target), None)
    if here is None:
        return
    cols = int(attr(group, "data-cols") or 0) if attr(group, "data-keys") == "grid" else 0
    step = ARROWS[key]
    if step in (-3, 3):
        if not cols:
            return
        step = cols if step > 0 else -cols
    there = here + step
    if cols and step in (-1, 1) and there // cols != here // cols:
        return  # a grid does not wrap from one row to the next
    if not cols:
        there %= len(items)
    if not 0 <= there < len(items):
        return
    evt.preventDefault()
    for el in items:
        el.tabIndex = -1
    items[there].tabIndex = 0
    focus(items[there])
