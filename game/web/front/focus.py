"""The keyboard focus, kept where a player expects it: on the same control
across a redraw, round the controls of an open dialog, along a hand or the
coffin with the arrow keys. (MicroPython's subset: see game.web.front.)"""

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

ARROWS = {"ArrowLeft": -1, "ArrowRight": 1, "ArrowUp": -3, "ArrowDown": 3}
CONTROLS = ("button:not([disabled]), [data-part]:not([disabled]), "
            "[data-act]:not([disabled]), select, input, a[href]")
MODALS = '[role="dialog"][aria-modal="true"], [role="alertdialog"][aria-modal="true"]'


def attr(el: "Any", name: str) -> "str | None":
    """An attribute as str, or None (JS null arrives as None or Pyodide's jsnull)."""
    if el is None or not el:
        return None
    v = el.getAttribute(name)
    return v if isinstance(v, str) else None


def usable(el: "Any") -> bool:
    """Not a card the person may not play now (`data-skip`: Tab and the arrows pass it)."""
    return attr(el, "data-skip") != "true"


class Focus:
    """The focus on one document. `no_scroll`: the options object
    `{preventScroll: true}` in the browser's own kind (each runtime makes it
    its own way), so that a focused card never scrolls the table."""

    def __init__(self, doc: "Any", no_scroll: "Any" = None) -> None:
        self.doc = doc
        self.no_scroll = no_scroll

    def q(self, sel: str) -> "Any":
        """The first element matching `sel`, or None."""
        el = self.doc.querySelector(sel)
        return None if el is None or not el else el

    def focus(self, el: "Any") -> None:
        el.focus(self.no_scroll)

    def try_focus(self, el: "Any") -> bool:
        self.focus(el)
        return bool(self.doc.activeElement == el)

    def key(self) -> "tuple[str, str, str] | None":
        """The focused control of the table: its attribute and value that
        survive a redraw, and the class of its `data-keys` group ("" if none)."""
        el = self.doc.activeElement
        if el is None or not el or not el.closest("#screen"):
            return None
        group = el.closest("[data-keys]")
        where = ((attr(group, "class") or "").split() or [""])[0] if group else ""
        for name in ("data-part", "data-act", "id"):
            value = attr(el, name)
            if value:
                return name, value, where
        return None

    def refocus(self, key: "tuple[str, str, str] | None") -> None:
        """Focus the same control again; if it is gone (a card played), the
        first control of the same hand or coffin, else the prompt: never <body>."""
        if key is None:
            return
        name, value, where = key
        group = self.q("#screen [data-keys]." + where) if where else None
        for el in self.doc.querySelectorAll("#screen [" + name + "]"):
            if attr(el, name) != value:
                continue
            # A card the person may not play now is out of the Tab order: the
            # first one they may play instead, if the hand has one.
            if attr(el, "data-skip") == "true" and group is not None and self.usable_in(group):
                return
            if self.try_focus(el):
                return
        if group is None or not self.first(group):
            self.fallback()

    def pressed(self) -> bool:
        """Whether the focused control is a part picked already (`aria-pressed`)."""
        return attr(self.doc.activeElement, "aria-pressed") == "true"

    def onward(self, offered: "list[str]") -> None:
        """The focused part was just picked (a card) and its group offers
        nothing more: the focus goes on to the first part `offered` now, the
        rest of the decision (the first cell the card may go to), wherever
        the table draws it."""
        el = self.doc.activeElement
        group = el.closest("[data-keys]") if self.pressed() else None
        if group is None or not group:
            return
        if any(attr(part, "data-part") in offered for part in group.querySelectorAll("[data-part]")):
            return
        for part in self.doc.querySelectorAll("#screen [data-part]"):
            if attr(part, "data-part") in offered and usable(part) and self.try_focus(part):
                return

    def usable_in(self, within: "Any") -> bool:
        """Focus the first control in `within` the person may use now."""
        return any(usable(el) and self.try_focus(el) for el in within.querySelectorAll(CONTROLS))

    def first(self, within: "Any") -> bool:
        """Focus the first control in `within` that can take it, one the person
        may use now first."""
        return self.usable_in(within) or any(self.try_focus(el)
                                             for el in within.querySelectorAll(CONTROLS))

    def fallback(self) -> None:
        """The prompt (focusable by script only), else the table's first control."""
        prompt = self.q("#screen #prompt")
        if prompt is not None:
            prompt.tabIndex = -1
            if self.try_focus(prompt):
                return
        screen = self.q("#screen")
        if screen is not None:
            self.first(screen)

    def area(self) -> "str | None":
        """Where the focus is: "modal", "screen", "side", "body" (nowhere), or
        None (elsewhere)."""
        el = self.doc.activeElement
        if el is None or not el or el == self.doc.body:
            return "body"
        for area in ("modal", "screen", "side"):
            if el.closest("#" + area):
                return area
        return None

    def trap_tab(self, evt: "Any") -> bool:
        """Tab and Shift+Tab go round the controls of the open modal dialog (a
        hand's summary, the keys panel, the file panel) and a new version's
        offer instead of leaving them for the table behind. True if the dialog
        took the key."""
        if str(evt.key) != "Tab":
            return False
        dialogs = [d for d in self.doc.querySelectorAll(MODALS)
                   if d.getClientRects().length]  # shown: not hidden, not a closed <dialog>
        if not dialogs:
            return False
        # a new version's offer (static/js/update.js) is never out of reach
        controls = (list(dialogs[-1].querySelectorAll(CONTROLS))
                    + list(self.doc.querySelectorAll("#update:not([hidden]) button")))
        if not controls:
            return False
        here = None
        for i, control in enumerate(controls):
            if control == self.doc.activeElement:
                here = i
                break
        if here is None:
            there = 0
        else:
            step = here + (-1 if evt.shiftKey else 1)
            there = step % len(controls)  # past either end: round to the other
            inside = dialogs[-1].contains
            if step == there and inside(controls[here]) and inside(controls[there]):
                return False  # a step inside the dialog: the browser's own order
        evt.preventDefault()
        self.focus(controls[there])
        return True

    def move(self, evt: "Any", key: str) -> None:
        """Arrow keys inside a `data-keys` group (a hand: a row; the coffin: a grid)."""
        group = evt.target.closest("[data-keys]")
        if group is None or not group:
            return
        # Not the cards the person may not play now: Tab skips them too.
        items = [el for el in group.querySelectorAll("[data-part], [data-act]") if usable(el)]
        here = None
        for i, el in enumerate(items):
            if el == evt.target:
                here = i
                break
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
        self.focus(items[there])
