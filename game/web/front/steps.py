"""The step player on the page (game.web.runtime.step_player plays it): each
`steps` frame drawn into its elements — embed.html's scripted example in
the page itself, the Review in a modal `<dialog>` over the page — and its
buttons, keys (Left/Right, Home/End) and the Review's hand choice and close
sent back as messages. (MicroPython's subset: see game.web.front.)"""

from game.web.front.markup import put_markup

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Callable

COMMANDS = ("first", "prev", "play", "next", "last")
ANALYSIS_COMMANDS = ("analyse", "analysis-cancel", "analysis-goto")  # game.web.model.analysis_view
KEYS = {"ArrowLeft": "prev", "ArrowRight": "next", "Home": "first", "End": "last"}
REVIEW_PARTS = ('<div class="rv-head" id="rv-head"></div>'
                '<div class="rv-screen screen" id="rv-screen"></div>'
                '<div class="rv-analysis" id="rv-analysis"></div>'
                '<div class="rv-bar ex-bar"><p id="ex-caption" class="ex-caption" '
                'aria-live="polite"></p><div id="ex-controls" class="ex-controls"></div></div>')


class Player:
    """One step player's elements: `screen`, `caption` and `controls` are
    filled; `marker` carries `data-step`; `drawn()` runs after each drawing."""

    def __init__(self, doc: "Any", no_scroll: "Any", screen: "Any", caption: "Any",
                 controls: "Any", marker: "Any", drawn: "Callable[[], None] | None" = None) -> None:
        self.doc, self.no_scroll = doc, no_scroll
        self.screen, self.caption, self.controls, self.marker = screen, caption, controls, marker
        self.drawn = drawn

    def apply(self, frame: "dict[str, Any]") -> None:
        self.draw(frame)

    def draw(self, frame: "dict[str, Any]") -> None:
        put_markup(self.screen, frame["screen"])
        text = frame["caption"]
        self.caption.textContent = text
        self.caption.hidden = not text
        put_markup(self.controls, frame["controls"])
        self.marker.setAttribute("data-step", str(frame["step"]))
        if self.drawn is not None:
            self.drawn()
        keep = frame.get("keep")
        if keep:
            again = self.doc.getElementById(keep)
            if not again or again.disabled:
                again = self.doc.getElementById("ex-play")
            if again:
                again.focus(self.no_scroll)


def command_of(evt: "Any") -> "dict[str, Any] | None":
    """A click on one of the player's buttons, or one of its keys (not in a
    form field), as its command; None if it was neither."""
    if str(evt.type) == "click":
        el = evt.target.closest("[data-ex]")
        if not el or str(el.getAttribute("data-ex")) not in COMMANDS:
            return None
        clicked = str(el.getAttribute("data-ex"))
        return {"cmd": clicked, "keep": "ex-" + clicked}
    cmd = KEYS.get(str(evt.key))
    if cmd is None or evt.altKey or evt.ctrlKey or evt.metaKey:
        return None
    target = evt.target
    if target.closest("input, select, textarea"):
        return None
    evt.preventDefault()
    # The focus stays on the player's button it was on (never taken from elsewhere).
    was = str(target.id or "") if target.closest("[data-ex]") else ""
    return {"cmd": cmd, "keep": was or None}


class ReviewDialog:
    """The Review's modal dialog over the page: the page under it is inert
    until it closes, and the focus goes back where it was. `send` takes its
    commands (`{"kind": "steps", "name": "review", "cmd": ...}`);
    `listeners` adds event listeners the runtime's way (`add(el, kind,
    handler)`) and takes them all away (`clear()`)."""

    def __init__(self, doc: "Any", no_scroll: "Any", send: "Callable[[dict[str, Any]], None]",
                 listeners: "Any") -> None:
        self.doc, self.no_scroll, self.send, self.listeners = doc, no_scroll, send, listeners
        self.dialog: "Any" = None
        self.player: "Player | None" = None
        self.opener: "Any" = None
        self.opened_now = False

    def apply(self, frame: "dict[str, Any]") -> None:
        if frame.get("closed"):
            self.close()
            return
        if self.dialog is None:
            self.open()
        dialog = self.dialog
        if "head" in frame:
            put_markup(dialog.querySelector("#rv-head"), frame["head"])
        if "analysis" in frame:
            self.draw_analysis(frame["analysis"])
        if "screen" not in frame:  # only the analysis changed
            return
        for name, value in frame["data"].items():
            dialog.setAttribute("data-" + name, value)
        compare = frame.get("keep") == "rv-compare"  # a costly decision stepped to
        if compare:
            frame["keep"] = None  # (not a control: the player's focus is for its buttons)
        if self.player is not None:
            self.player.draw(frame)
        shown = dialog.querySelector("#rv-compare") if compare else None
        if shown:  # its comparison, read out and in view
            shown.focus(self.no_scroll)
            shown.scrollIntoView(False)
        if self.opened_now:
            self.opened_now = False
            first = dialog.querySelector("#ex-next:not([disabled])") or \
                dialog.querySelector("#ex-play")
            first.focus()

    def draw_analysis(self, markup: "Any") -> None:
        """The analysis part drawn anew; a control of it that had the focus
        (Cancel, a mark) keeps it."""
        part = self.dialog.querySelector("#rv-analysis")
        active = self.doc.activeElement
        had = str(active.id) if active and active.id and part.contains(active) else ""
        put_markup(part, markup)
        if had:
            again = self.doc.getElementById(had) or self.doc.getElementById("rv-analysis-head")
            if again:
                again.focus(self.no_scroll)

    def open(self) -> None:
        self.opener = self.doc.activeElement
        dialog = self.doc.createElement("dialog")
        dialog.id, dialog.className = "review", "review"
        dialog.setAttribute("aria-labelledby", "rv-title")
        put_markup(dialog, REVIEW_PARTS)
        self.doc.body.append(dialog)
        self.dialog = dialog
        self.player = Player(self.doc, self.no_scroll, dialog.querySelector("#rv-screen"),
                             dialog.querySelector("#ex-caption"),
                             dialog.querySelector("#ex-controls"), dialog, self.quiet_table)
        for kind in ("click", "keydown", "change", "close"):
            self.listeners.add(dialog, kind, self.on_event)
        dialog.showModal()
        self.opened_now = True

    def quiet_table(self) -> None:
        """The table in the dialog only shows: its controls play nothing, out
        of the tab order and unnamed (ids and actions belong to the live
        table under the dialog)."""
        for el in self.dialog.querySelectorAll("#rv-screen [id], #rv-screen [data-act], "
                                               "#rv-screen [data-part], #rv-screen [data-keys]"):
            for name in ("id", "data-act", "data-part", "data-keys"):
                el.removeAttribute(name)
        for el in self.dialog.querySelectorAll("#rv-screen button, #rv-screen [tabindex]"):
            el.tabIndex = -1

    def on_event(self, evt: "Any") -> None:
        kind = str(evt.type)
        if kind == "close":  # Escape, or the dialog closed by the browser
            self.ask({"cmd": "close"})
            return
        evt.stopPropagation()  # never the live table's handlers, nor its keys
        el = evt.target
        if kind == "change":
            if el.getAttribute("data-rv") == "hand":
                self.ask({"cmd": "hand", "value": str(el.value)})
            return
        if kind == "click":
            close = el.closest("[data-rv]")
            if close and close.getAttribute("data-rv") == "close":
                self.ask({"cmd": "close"})
                return
            if close and str(close.getAttribute("data-rv")) in ANALYSIS_COMMANDS:
                step = close.getAttribute("data-step")
                self.ask({"cmd": str(close.getAttribute("data-rv")), "keep": str(close.id),
                          "value": str(step) if step else None})
                return
        msg = command_of(evt)
        if msg is not None:
            self.ask(msg)

    def ask(self, msg: "dict[str, Any]") -> None:
        msg["kind"], msg["name"] = "steps", "review"
        self.send(msg)

    def close(self) -> None:
        """Take the dialog away and put the focus back."""
        dialog, self.dialog, self.player = self.dialog, None, None
        if dialog is not None:
            self.listeners.clear()
            if dialog.open:
                dialog.close()
            dialog.remove()
        opener, self.opener = self.opener, None
        if opener and opener.isConnected:
            opener.focus()
