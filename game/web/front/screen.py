"""The page's front: applies each frame (game.web.draw.frames: plain data) to
the document — the regions whose markup changed, the dialog, `<body>`'s
data, the hint, the live region — keeping the focus where a player expects
it, and carries out the screen's other effects (a flashed message, a
focus). (MicroPython's subset: see game.web.front.)"""

import json

from game.web.front.focus import Focus, attr
from game.web.front.live import Heard, Live
from game.web.front.markup import put_markup

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


class Front:
    """One document's front (`window`'s). `focus` and `live` are bound to it; `motion`
    animates the cards a redraw moved (`before`/`after` a redraw of
    `#screen`, `reset`)."""

    def __init__(self, window: "Any", focus: Focus, live: Live, motion: "Any") -> None:
        self.window = window
        self.doc = focus.doc
        self.keys = focus
        self.live = live
        self.motion = motion
        self.dialog_open = False
        self.overlay = "none"
        self.opener: "Any" = None  # where the focus was when an overlay opened
        # What the keys need to know of the page, as the last frame said:
        self.players: "dict[str, Any]" = {}  # the step players by name (game.web.front.steps)
        self.view = "setup"
        self.at_table = False
        self.choices: "dict[str, list[str]]" = {"parts": [], "acts": []}

    def apply(self, frame: "dict[str, Any]") -> None:
        """A frame: a draw's (it has `view`), or one effect."""
        if "still" in frame:
            self.motion.reset()  # nothing in flight (a new table, an undo, the start screen)
        if "view" in frame:
            self.draw(frame)
        if "steps" in frame:
            player = self.players.get(frame["steps"]["name"])
            if player is not None:
                player.apply(frame["steps"])
        if "flash" in frame:
            self.flash(frame["flash"])
        if "focus" in frame:
            self.focus(frame["focus"])
        if "error" in frame:
            self.window.console.error(frame["error"])  # a developer's message
        if "download" in frame:
            self.download(frame["download"][0], frame["download"][1])
        if "choose_file" in frame:
            self.choose_file(frame["choose_file"])
        if "address" in frame:  # the link was read: what stays of it in the address
            where = self.window.location
            self.window.history.replaceState(self.window.history.state, "",
                                             str(where.pathname) + frame["address"]
                                             + str(where.hash))

    # -- a draw --------------------------------------------------------------------------

    def draw(self, frame: "dict[str, Any]") -> None:
        was = self.keys.area()
        kept = self.keys.key()
        picked_before = self.keys.pressed()
        self.doc.documentElement.lang = frame["lang"]
        self.doc.title = frame["title"]
        view = frame["view"]
        if view != "table":
            self.motion.reset()  # nothing moves off the table, nor after it
        elif "moves" in frame:
            self.motion.moves = frame["moves"]
        screen_changed = self.patch(frame["regions"])
        body = self.doc.body
        for name, value in frame["body"].items():
            body.setAttribute("data-" + kebab(name), value)
        self.show_dialog(frame.get("dialog"), frame["dialog_open"], frame.get("dialog_titled", False))
        self.mark_hint(frame["hinted"][0], frame["hinted"][1])
        if "heard" in frame:
            self.live.heard = Heard(frame["heard"])
        if view == "handover":
            self.live.hush()
            if self.keys.area() in ("screen", "body", "modal"):
                self.keys.focus(self.keys.q("#handover-ready"))
        elif screen_changed and view == "table":
            self.keys.refocus(kept)
            if not picked_before:
                self.keys.onward(frame["choices"]["parts"])
        if "news" in frame:
            self.live.tell(frame["news"], frame["my_turn"])
        if frame["coach"] and view == "table":
            self.live.coach()
        self.overlays(frame["overlay"], frame["at_table"], was)
        self.view, self.at_table, self.choices = view, frame["at_table"], frame["choices"]

    def patch(self, regions: "dict[str, str]") -> bool:
        """Set the regions' new markup; True if the screen's changed."""
        screen_changed = False
        names = [name for name in regions if name != "screen"]
        if "screen" in regions:
            names.insert(0, "screen")  # first: it holds a region of its own (#tools)
        for name in names:
            markup = regions[name]
            el = self.keys.q("#" + name)
            if el is None:
                continue
            if name == "screen":
                self.motion.before(el)
                self.set_markup(el, markup)
                self.motion.after(el)  # a picture over the new table, which takes clicks already
                screen_changed = True
            else:
                self.set_markup(el, markup)  # (the log starts at its end: site.css)
        return screen_changed

    def set_markup(self, el: "Any", markup: str) -> None:
        """Replace `el`'s content (markup built and escaped by game.web.draw.html).
        A control with an `id` that had the keyboard focus keeps it when the
        new content holds a control of the same `id` (a start-screen field
        changed with an arrow key redraws the form): otherwise the focus
        would fall to <body>."""
        focused = self.doc.activeElement
        kept_id = str(focused.id) if focused and el.contains(focused) else ""
        put_markup(el, markup)
        again = self.doc.getElementById(kept_id) if kept_id else None
        if again and el.contains(again):
            self.keys.focus(again)  # it stands where the old one stood: no scrolling to it

    def show_dialog(self, markup: "str | None", is_open: bool, titled: bool) -> None:
        """The dialog host: one dialog over the page at a time. `markup`:
        the dialog's if it changed, else None."""
        modal = self.keys.q("#modal")
        if modal is None:
            return
        if not is_open:
            if self.dialog_open:
                modal.textContent = ""
            self.dialog_open = False
            modal.hidden = True
            return
        if markup is not None:
            # The same dialog drawn again (a verdict more under a summary) stays
            # scrolled where the person left it.
            was = modal.querySelector(".sheet") if self.dialog_open else None
            top, heading = (was.scrollTop, _heading(modal)) if was else (0, None)
            self.set_markup(modal, markup)
            title = modal.querySelector("h2")  # each dialog opens with its title
            if title and titled:
                title.id = "modal-title"
            sheet = modal.querySelector(".sheet")
            if top and sheet and _heading(modal) == heading:
                sheet.scrollTop = top
        self.dialog_open = True
        modal.hidden = False

    def overlays(self, opened: str, at_table: bool, was: "str | None") -> None:
        """Focus into an overlay that opened, back to where it was when it
        closed; after a redraw, an open summary takes the focus (a modal
        dialog) and a focus the redraw dropped returns to the table."""
        closed = self.overlay
        self.overlay = opened
        if opened != closed:
            if opened == "keys":
                self.keys.focus(self.keys.q("#keys [data-cmd=keys-close]"))
            if closed in ("keys", "file"):
                back = self.opener
                if back is not None and not back.isConnected and back.id:  # redrawn meanwhile
                    back = self.doc.getElementById(back.id)
                self.opener = None
                if back is None or not back or back == self.doc.body \
                        or not self.keys.try_focus(back):
                    self.keys.fallback()  # (the top of the table: Tab goes on to the decision)
            return
        if was is None or not at_table or opened != "none":
            return
        if was == "side":
            tab = self.keys.q("#side [role=tab][aria-selected=true]")
            if self.keys.area() == "body" and (tab is None or not self.keys.try_focus(tab)):
                self.keys.fallback()
            return
        modal = self.keys.q("#modal")
        if modal is not None and not modal.hidden:
            if self.keys.area() != "modal":
                self.keys.first(modal.querySelector(".buttons") or modal)
        elif self.keys.area() in ("body", "modal") and was != "body":
            self.keys.fallback()  # (a focus in the closed summary is lost too)

    def mark_hint(self, action: "str | None", parts: "list[str]") -> None:
        """Highlight the suggested action through what the person clicks: its
        `data-act`, or each of its parts (a card and a cell)."""
        for el in self.doc.querySelectorAll("#screen .hinted"):
            el.classList.remove("hinted")
        if action is None:
            return
        for el in self.doc.querySelectorAll("#screen [data-act], #screen [data-part]"):
            if attr(el, "data-act") == action or attr(el, "data-part") in parts:
                el.classList.add("hinted")

    # -- the other effects -------------------------------------------------------------

    def flash(self, message: str) -> None:
        el = self.keys.q("#message")
        if el is not None:
            el.textContent = message
            el.classList.remove("flash")
            el.offsetWidth  # restart the CSS animation
            el.classList.add("flash")

    def focus(self, selector: str) -> None:
        if selector == "fallback":
            self.keys.fallback()
            return
        for one in selector.split(", "):  # in order of preference
            el = self.keys.q(one)
            if el is not None:
                self.keys.focus(el)
                return

    def download(self, name: str, text: str) -> None:
        """Through an object URL, made, clicked and let go: nothing leaves the browser."""
        js = self.window.JSON.parse  # plain JavaScript values, whichever Python runs this
        blob = self.window.Blob.new(js(json.dumps([text])), js('{"type": "application/json"}'))
        url = self.window.URL.createObjectURL(blob)
        link = self.doc.createElement("a")
        link.href, link.download, link.hidden = url, name, True
        self.doc.body.append(link)
        link.click()
        link.remove()
        urls = self.window.URL
        self.window.setTimeout(urls.revokeObjectURL.bind(urls, url), 60000)

    def choose_file(self, purpose: str) -> None:
        """The browser's file chooser; the file chosen comes as a change
        event (game.web.front.events)."""
        self.note_opener()
        if purpose == "stats":
            el = self.keys.q("#stats-file")
        else:
            el = self.keys.q("#file-input")
            if el is None:  # the page's one file input for games, hidden
                el = self.doc.createElement("input")
                el.type, el.id, el.hidden = "file", "file-input", True
                el.accept = ".json,application/json"
                el.setAttribute("data-cmd", "file-chosen")
                el.setAttribute("aria-hidden", "true")
                el.tabIndex = -1
                self.doc.body.append(el)
        if el is not None:
            el.value = ""  # the same file chosen twice is read twice
            el.click()

    def note_opener(self) -> None:
        """An overlay is about to open: the focus goes back here when it closes."""
        active = self.doc.activeElement
        self.opener = None if active is None or not active else active


def kebab(name: str) -> str:
    """A dataset name as its attribute's: "toAct" -> "to-act"."""
    out = ""
    for ch in name:
        out += "-" + ch.lower() if "A" <= ch <= "Z" else ch
    return out


def _heading(modal: "Any") -> str:
    """The open dialog's title, which names it."""
    title = modal.querySelector("h2")
    return str(title.textContent) if title else ""
