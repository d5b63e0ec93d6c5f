"""The page's DOM events, each made into one message (plain data) for the
game (game.web.runtime.gestures), with what only the page can do at once: the
default actions prevented, the focus moved along a hand or round a dialog,
a copy to the clipboard, the cards' motion finished by a click or a key.
(MicroPython's subset: see game.web.front.)"""

from game.web.front.focus import ARROWS, attr
from game.web.front.storage import SITE_PREFIX

TYPING = ("INPUT", "SELECT", "TEXTAREA")

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Callable

    from game.web.front.screen import Front


def read_form(doc: "Any") -> "dict[str, str]":
    """The start screen's values, as the form holds them now."""
    values = {}
    for el in doc.querySelectorAll("#setup select, #setup input"):
        checkbox = str(el.type) == "checkbox"
        values[str(el.name)] = ("on" if el.checked else "") if checkbox else str(el.value)
    return values


class Events:
    """`send` takes each message; `read_file(purpose, file)` reads a chosen
    file and sends it (each runtime reads a file its own way); `aliases`
    rename commands (the embed's "new" is its "restart")."""

    def __init__(self, front: "Front", window: "Any", send: "Callable[[dict[str, Any]], None]",
                 read_file: "Callable[[str, Any], None]",
                 aliases: "dict[str, str] | None" = None) -> None:
        self.front, self.keys, self.doc = front, front.keys, front.doc
        self.window = window
        self.send = send
        self.read_file = read_file
        self.aliases = aliases or {}
        self.touch = False  # as the game was last told (it starts with a mouse's words)

    def handlers(self) -> "dict[str, Callable[[Any], None]]":
        """Each handler by the event it listens to on the document."""
        return {"click": self.on_click, "change": self.on_change, "keydown": self.on_key,
                "submit": self.on_submit, "pointerdown": self.on_pointer}

    def uses_touch(self, touch: bool) -> None:
        """Tell the game whether the person plays by touch (its words say
        "tap", and name no keys) or with a mouse or a keyboard, when that changes."""
        if touch != self.touch:
            self.touch = touch
            self.send({"kind": "touch", "value": touch})

    def on_pointer(self, evt: "Any") -> None:
        self.uses_touch(str(evt.pointerType) in ("touch", "pen"))

    def command(self, cmd: str, el: "Any") -> None:
        cmd = self.aliases.get(cmd, cmd)
        data = {}
        for key in ("game", "key", "panel"):
            value = attr(el, "data-" + key)
            if value is not None:
                data[key] = value
        msg = {"kind": "command", "cmd": cmd, "data": data}
        if cmd in ("start", "lesson", "online-host") and self.keys.q("#setup") is not None:
            msg["form"] = read_form(self.doc)
        if cmd == "file-continue":
            field = self.keys.q("#file-step")
            if field is not None:
                data["step"] = str(field.value)
        if cmd.startswith("online-") and not self.online_fields(cmd, el, data):
            return
        if cmd == "keys":
            self.front.note_opener()
        self.send(msg)
        if cmd == "panel" and self.window.innerWidth < 900:
            self.keys.q("#side").scrollIntoView()

    def online_fields(self, cmd: str, el: "Any", data: "dict[str, str]") -> bool:
        """An online table's command, with what it needs from the page; False
        if the page did it all (a copy to the clipboard)."""
        if cmd == "online-join":
            field = self.keys.q("#online-name")
            data["name"] = str(field.value) if field is not None else ""
        elif cmd == "online-copy":  # a link's address, or a code's text
            target = self.keys.q(attr(el, "data-copy") or "#invite-link")
            clipboard = self.window.navigator.clipboard
            if target is not None and clipboard:
                text = target.href if str(target.tagName) == "A" else target.textContent
                clipboard.writeText(str(text))
                el.textContent = attr(el, "data-done") or el.textContent
            return False
        elif cmd == "online-invite-code":  # (at the table: for an away friend's seat)
            data["seat"] = attr(el, "data-seat") or ""
        elif cmd == "online-retry":
            data["way"] = attr(el, "data-way") or ""
        elif cmd == "online-turn":  # the host's own TURN server
            for name in ("address", "user", "credential"):
                field = self.keys.q("#online-turn-" + name)
                data[name] = str(field.value) if field is not None else ""
        elif cmd == "online-accept":
            data["peer"] = attr(el, "data-peer") or ""
            field = self.keys.q("#online-answer-" + data["peer"])
            data["answer"] = str(field.value) if field is not None else ""
        return True

    def on_submit(self, evt: "Any") -> None:
        evt.preventDefault()  # the start screen is a form: Enter starts the game
        if self.keys.q("#setup") is not None and evt.target.closest("#setup"):
            self.command("start", evt.target)
        elif evt.target.closest("#online-join-form"):
            self.command("online-join", evt.target)

    def on_change(self, evt: "Any") -> None:
        el = evt.target
        cmd = attr(el, "data-cmd")
        if cmd == "lang":
            self.send({"kind": "lang", "value": str(el.value)})
        elif cmd == "speed":
            self.send({"kind": "pace", "value": str(el.value)})
        elif cmd in ("file-chosen", "stats-file"):
            files = el.files
            if files is None or not files or not int(files.length):
                return
            file = files.item(0)
            el.value = ""  # the same file chosen again is a new choice
            self.read_file("stats" if cmd == "stats-file" else "game", file)
        elif cmd == "online-seat":
            self.send({"kind": "command", "cmd": cmd,
                       "data": {"seat": attr(el, "data-seat") or "", "value": str(el.value)}})
        elif cmd == "online-standin":
            self.send({"kind": "command", "cmd": cmd, "data": {"value": str(el.value)}})
        elif cmd == "setup-change":
            self.send({"kind": "setup", "form": read_form(self.doc)})

    def on_click(self, evt: "Any") -> None:
        self.front.motion.finish()  # a click skips the motion, and is taken at once
        el = evt.target.closest("[data-cmd], [data-act], [data-part]")
        if el is None or not el:  # JS null arrives as None, or as Pyodide's falsy jsnull
            return
        cmd = attr(el, "data-cmd")
        if cmd:
            if str(el.tagName) in ("SELECT", "INPUT", "OPTION"):
                return
            if cmd == "start":
                evt.preventDefault()  # handled here, not by the form's submit
            self.command(cmd, el)
            return
        self.decide(el)

    def decide(self, el: "Any") -> bool:
        """A card, a seat, a button of the table's decision."""
        act, part = attr(el, "data-act"), attr(el, "data-part")
        if act:
            self.send({"kind": "decide", "act": act})
        elif part:
            self.send({"kind": "decide", "part": part})
        return bool(act or part)

    def on_storage(self, evt: "Any") -> None:
        """Another tab wrote to the storage (the `storage` event of the window).
        Only the site's own keys: another page of the origin may write megabytes,
        which MicroPython need never copy."""
        key = evt.key
        if isinstance(key, str) and not key.startswith(SITE_PREFIX):
            return
        value = evt.newValue
        self.send({"kind": "storage", "key": str(key),
                   "value": value if isinstance(value, str) else None})

    def on_key(self, evt: "Any") -> None:
        self.front.motion.finish()  # so does any key
        if str(evt.key) == "Tab" or str(evt.key) in ARROWS:  # a keyboard's (a phone's has neither)
            self.uses_touch(False)
        if self.overlay_key(evt) or self.undo_key(evt) or self.keys.trap_tab(evt) \
                or self.tab_to_decision(evt):
            return
        key, el = str(evt.key), evt.target
        if key == "Escape":
            self.send({"kind": "escape"})
        elif key in ARROWS:
            self.keys.move(evt, key)
        elif key in ("Enter", " ") and str(el.tagName) != "BUTTON":
            if attr(el, "data-act") is not None or attr(el, "data-part") is not None:
                evt.preventDefault()
                self.decide(el)

    def overlay_key(self, evt: "Any") -> bool:
        """The keys panel ("?" opens or closes it, not while typing) and the
        file panel: while one is open, Escape closes it and Tab stays in it.
        True if the key was the overlay's."""
        key, el = str(evt.key), evt.target
        overlay = self.front.overlay
        if overlay == "file":
            if key == "Escape":
                evt.preventDefault()
                self.send({"kind": "command", "cmd": "file-close", "data": {}})
            elif key == "Tab":
                self.keys.trap_tab(evt)
            elif key == "Enter" and str(el.id) == "file-step":
                evt.preventDefault()
                self.command("file-continue", el)
            return True
        if key == "?" and str(el.tagName) not in TYPING:
            evt.preventDefault()
            self.command("keys-close" if overlay == "keys" else "keys", el)
            return True
        if overlay != "keys":
            return False
        if key == "Escape":
            self.send({"kind": "command", "cmd": "keys-close", "data": {}})
        elif key == "Tab":
            self.keys.trap_tab(evt)
        return key in ("Escape", "Tab") or key in ARROWS

    def undo_key(self, evt: "Any") -> bool:
        """Ctrl+Z (⌘Z) or U at the table: Undo. True if the key was taken."""
        key = str(evt.key).lower()
        chord = bool(evt.ctrlKey or evt.metaKey) and not evt.shiftKey and not evt.altKey
        plain = not (evt.ctrlKey or evt.metaKey or evt.altKey)
        if not ((key == "z" and chord) or (key == "u" and plain)):
            return False
        if not self.front.at_table or str(evt.target.tagName) in TYPING:
            return False
        evt.preventDefault()
        self.send({"kind": "command", "cmd": "undo", "data": {}})
        return True

    def tab_to_decision(self, evt: "Any") -> bool:
        """On the person's turn, Tab from the top of the table (the prompt,
        where the page puts the focus after a redraw or a closed panel) goes
        to the first choice they may make, wherever the table draws it (in
        Dracula its first choice is above the prompt). True if it took the key."""
        if str(evt.key) != "Tab" or evt.shiftKey:
            return False
        if attr(self.doc.activeElement, "id") != "prompt":
            return False
        parts, acts = self.front.choices["parts"], self.front.choices["acts"]
        if not (parts or acts):
            return False
        for el in self.doc.querySelectorAll("#screen [data-part], #screen [data-act]"):
            if (not el.hasAttribute("disabled") and (attr(el, "data-part") in parts
                                     or attr(el, "data-act") in acts) and self.keys.try_focus(el)):
                evt.preventDefault()
                return True
        return False
