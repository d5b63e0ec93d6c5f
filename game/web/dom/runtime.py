"""The page in the browser: DOM events become the controller's actions and
commands (game.web.controller), and what it draws (game.web.views) is
patched into the page region by region — only where the markup changed —
with the focus kept, the news read out and the cards moving.
"""

from __future__ import annotations

import asyncio
from typing import Any

from pyodide.ffi import create_once_callable, create_proxy, to_js
from pyscript import document, window

from game.web import page as pg
from game.web import session as ts
from game.web.controller import Controller
from game.web.dom.focus import (ARROWS, attr, focus, focus_area, focus_fallback, focus_first,
                                focus_key, move_focus, q, refocus, trap_tab, try_focus)
from game.web.dom.live import Heard, live_region
from game.web.html import EMPTY, Html, html, set_html
from game.web.motion import Motion
from game.web.page import Page
from game.web.steps import FileChosen, StorageChanged
from game.web.views import Drawn, news

JsObject = Any  # a JavaScript object seen through Pyodide (a JsProxy): untyped for mypy
TYPING = ("INPUT", "SELECT", "TEXTAREA")


class DomScreen:
    """The screen driver (game.web.drivers.Screen) of a browser page.
    `menu`: the embed's own menu bar, and no side panel."""

    def __init__(self, menu: Html | None = None) -> None:
        self.drawn: dict[str, Html] = {}
        self.dialog: Html | None = None
        self.live = live_region()
        self.motion = Motion(window)
        self.menu = menu
        self.overlay = "none"
        self.opener: JsObject = None  # where the focus was when an overlay opened

    # -- drawing ------------------------------------------------------------------

    def draw(self, page: Page, drawn: Drawn) -> None:
        was = focus_area()
        kept = focus_key()
        document.documentElement.lang = page.t.lang
        document.title = drawn.title
        regions = dict(drawn.regions)
        if self.menu is not None:
            regions["menu"] = self.menu
            regions.pop("side")
        view = drawn.body["view"]
        if view != "table":
            self.motion.reset()  # nothing moves off the table, nor after it
        screen_changed = self.patch(regions)
        for name, value in drawn.body.items():
            setattr(document.body.dataset, name, value)
        self.show_dialog(drawn)
        self.mark_hint(drawn.hinted)
        if view == "handover":
            self.live.hush()
            if focus_area() in ("screen", "body", "modal"):
                focus(q("#handover-ready"))
        elif screen_changed and view == "table":
            refocus(kept)
        said = news(page)
        if said is not None:
            self.live.announce(*said)
        if "side" in regions and view == "table":
            self.live.coach()
        self.overlays(page, was)

    def patch(self, regions: dict[str, Html]) -> bool:
        """Set the regions whose markup changed; True if the screen's did."""
        screen_changed = False
        for name, markup in regions.items():
            if self.drawn.get(name) == markup:
                continue
            el = q("#" + name)
            if el is None:
                continue
            self.drawn[name] = markup
            if name == "screen":
                self.motion.before(el)
                set_html(el, markup)
                self.motion.after(el)  # a picture over the new table, which takes clicks already
                screen_changed = True
            else:
                set_html(el, markup)
                if name == "side":
                    log = q("#log")
                    if log is not None:
                        log.scrollTop = log.scrollHeight
        return screen_changed

    def show_dialog(self, drawn: Drawn) -> None:
        """The dialog host: one dialog over the page at a time."""
        modal = q("#modal")
        if modal is None:
            return
        if drawn.dialog is None:
            if self.dialog is not None:
                set_html(modal, EMPTY)
            self.dialog = None
            modal.hidden = True
            return
        markup = drawn.dialog.markup()
        if markup != self.dialog:
            set_html(modal, markup)
            title = modal.querySelector("h2")  # each dialog opens with its title
            if title and not drawn.dialog.part:
                title.id = "modal-title"
            self.dialog = markup
        modal.hidden = False

    def overlays(self, page: Page, was: str | None) -> None:
        """Focus into an overlay that opened, back to where it was when it
        closed; after a redraw, an open summary takes the focus (a modal
        dialog) and a focus the redraw dropped returns to the table."""
        opened, closed = page.overlay, self.overlay
        self.overlay = opened
        if opened != closed:
            if opened == "keys":
                focus(q("#keys [data-cmd=keys-close]"))
            if closed in ("keys", "file"):
                back = self.opener
                if back is not None and not back.isConnected and back.id:  # redrawn meanwhile
                    back = document.getElementById(back.id)
                self.opener = None
                if back is None or not back or back == document.body or not try_focus(back):
                    focus_fallback()  # (the top of the table: Tab goes on to the decision)
            return
        if was is None or not page.at_table or opened != "none":
            return
        if was == "side":
            tab = q("#side [role=tab][aria-selected=true]")
            if focus_area() == "body" and (tab is None or not try_focus(tab)):
                focus_fallback()
            return
        modal = q("#modal")
        if modal is not None and not modal.hidden:
            if focus_area() != "modal":
                focus_first(modal.querySelector(".buttons") or modal)
        elif focus_area() in ("body", "modal") and was != "body":
            focus_fallback()  # (a focus in the closed summary is lost too)

    def mark_hint(self, hinted: tuple[str | None, tuple[str, ...]]) -> None:
        """Highlight the suggested action through what the person clicks: its
        `data-act`, or each of its parts (a card and a cell)."""
        action, parts = hinted
        for el in document.querySelectorAll("#screen .hinted"):
            el.classList.remove("hinted")
        if action is None:
            return
        for el in document.querySelectorAll("#screen [data-act], #screen [data-part]"):
            if attr(el, "data-act") == action or attr(el, "data-part") in parts:
                el.classList.add("hinted")

    # -- the other effects ----------------------------------------------------------

    def flash(self, message: str) -> None:
        el = q("#message")
        if el is not None:
            el.textContent = message
            el.classList.remove("flash")
            el.offsetWidth  # restart the CSS animation
            el.classList.add("flash")

    def focus(self, selector: str) -> None:
        if selector == "fallback":
            focus_fallback()
            return
        for one in selector.split(", "):  # in order of preference
            el = q(one)
            if el is not None:
                focus(el)
                return

    def moved(self, game: str, events: list[dict[str, Any]], seat: Any) -> None:
        self.motion.note(game, events, seat)

    def still(self) -> None:
        self.motion.reset()

    def heard(self, events: int) -> None:
        self.live.heard = Heard(events=events)

    def error(self, text: str) -> None:
        window.console.error(text)

    def download(self, name: str, text: str) -> None:
        """Through an object URL, made, clicked and let go: nothing leaves the browser."""
        blob = window.Blob.new(to_js([text]), to_js({"type": "application/json"},
                                                    dict_converter=window.Object.fromEntries))
        url = window.URL.createObjectURL(blob)
        link = document.createElement("a")
        link.href, link.download, link.hidden = url, name, True
        document.body.append(link)
        link.click()
        link.remove()
        window.setTimeout(create_once_callable(lambda: window.URL.revokeObjectURL(url)), 60000)

    def choose_file(self, purpose: str) -> None:
        active = document.activeElement
        self.opener = None if active is None or not active else active
        if purpose == "stats":
            el = q("#stats-file")
        else:
            el = q("#file-input")
            if el is None:  # the page's one file input for games, hidden
                el = document.createElement("input")
                el.type, el.id, el.hidden = "file", "file-input", True
                el.accept = ".json,application/json"
                el.setAttribute("data-cmd", "file-chosen")
                el.setAttribute("aria-hidden", "true")
                el.tabIndex = -1
                document.body.append(el)
        if el is not None:
            el.value = ""  # the same file chosen twice is read twice
            el.click()

    def forget_link(self) -> None:
        if self.menu is not None:
            return  # the embed's address is its configuration: kept
        from urllib.parse import parse_qsl

        from game.web.links import kept_in_address

        params = parse_qsl(str(window.location.search).lstrip("?"), keep_blank_values=True)
        kept = kept_in_address(params)
        if kept != params:
            query = "&".join(f"{k}={window.encodeURIComponent(v)}" for k, v in kept)
            window.history.replaceState(window.history.state, "",
                                        str(window.location.pathname) + (f"?{query}" if query else "")
                                        + str(window.location.hash))

    def review(self, host: Any, transcript: dict[str, Any] | None, me: Any) -> None:
        from game.web.dom import review_dialog

        if transcript is None:
            review_dialog.from_table(host)
        else:
            review_dialog.start(host, transcript, me=me)


def read_form() -> dict[str, str]:
    """The start screen's values, as the form holds them now."""
    values: dict[str, str] = {}
    for el in document.querySelectorAll("#setup select, #setup input"):
        checkbox = str(el.type) == "checkbox"
        values[str(el.name)] = ("on" if el.checked else "") if checkbox else str(el.value)
    return values


async def read_file(ctrl: Controller, purpose: str, file: JsObject) -> None:
    name, size = str(file.name), int(file.size)
    data: bytes | None = None
    if size <= ctrl.file_limit(purpose):  # never read a huge file into memory
        try:
            data = (await file.arrayBuffer()).to_bytes()
        except Exception as e:  # the browser could not read it; never a crash
            window.console.error(f"file read: {type(e).__name__}: {e}")
    ctrl.perform(FileChosen(purpose, name, size, data))


class Events:
    """The page's DOM events, each turned into one call of the controller."""

    def __init__(self, ctrl: Controller, screen: DomScreen, aliases: dict[str, str]) -> None:
        self.ctrl, self.screen, self.aliases = ctrl, screen, aliases

    def listen(self) -> None:
        handlers = {"click": self.on_click, "change": self.on_change, "keydown": self.on_key,
                    "submit": self.on_submit}
        self.proxies = [create_proxy(self.guard(h)) for h in handlers.values()]
        for kind, proxy in zip(handlers, self.proxies):
            document.addEventListener(kind, proxy)
        self.proxies.append(create_proxy(self.guard(self.on_storage)))
        window.addEventListener("storage", self.proxies[-1])

    def guard(self, handler: Any) -> Any:
        def run(evt: JsObject) -> None:
            self.ctrl.guarded(lambda: handler(evt))
        return run

    def command(self, cmd: str, el: JsObject) -> None:
        cmd = self.aliases.get(cmd, cmd)
        data = {k: v for k, v in (("game", attr(el, "data-game")), ("key", attr(el, "data-key")),
                                  ("panel", attr(el, "data-panel"))) if v is not None}
        if cmd in ("start", "lesson", "online-host") and q("#setup") is not None:
            self.ctrl.dispatch(pg.SetupChanged(read_form()))
        if cmd == "file-continue":
            field = q("#file-step")
            if field is not None:
                data["step"] = str(field.value)
        if cmd.startswith("online-") or self.ctrl.page.view == "online":
            cmd = self.online_command(cmd, el, data)
        if cmd == "keys":
            active = document.activeElement
            self.screen.opener = None if active is None or not active else active
        self.ctrl.command(cmd, data)
        if cmd == "panel" and window.innerWidth < 900:
            q("#side").scrollIntoView()

    def online_command(self, cmd: str, el: JsObject, data: dict[str, str]) -> str:
        """An online table's command, with what it needs from the page."""
        if cmd == "online-join":
            field = q("#online-name")
            data["name"] = str(field.value) if field is not None else ""
        elif cmd == "online-copy":  # a link's address, or a code's text
            target = q(attr(el, "data-copy") or "#invite-link")
            if target is not None and window.navigator.clipboard:
                text = target.href if str(target.tagName) == "A" else target.textContent
                window.navigator.clipboard.writeText(str(text))
                el.textContent = self.ctrl.t("online.copied")
        elif cmd == "online-accept":
            data["peer"] = attr(el, "data-peer") or ""
            field = q(f"#online-answer-{data['peer']}")
            data["answer"] = str(field.value) if field is not None else ""
        elif cmd == "confirm":  # a guest's decision of several parts
            return "online-confirm"
        return cmd

    def on_submit(self, evt: JsObject) -> None:
        evt.preventDefault()  # the start screen is a form: Enter starts the game
        if q("#setup") is not None and evt.target.closest("#setup"):
            self.command("start", evt.target)
        elif evt.target.closest("#online-join-form"):
            self.command("online-join", evt.target)

    def on_change(self, evt: JsObject) -> None:
        el = evt.target
        cmd = attr(el, "data-cmd")
        if cmd == "lang":
            self.ctrl.dispatch(pg.SetLanguage(str(el.value)))
        elif cmd == "speed":
            self.ctrl.dispatch(pg.SetPace(str(el.value)))
        elif cmd in ("file-chosen", "stats-file"):
            files = el.files
            if files is None or not files or not int(files.length):
                return
            file = files.item(0)
            el.value = ""  # the same file chosen again is a new choice
            asyncio.ensure_future(read_file(self.ctrl, "stats" if cmd == "stats-file"
                                            else "game", file))
        elif cmd == "online-seat":
            self.ctrl.command(cmd, {"seat": attr(el, "data-seat") or "", "value": str(el.value)})
        elif cmd == "online-standin":
            self.ctrl.command(cmd, {"value": str(el.value)})
        elif cmd == "setup-change":
            self.ctrl.dispatch(pg.SetupChanged(read_form()))

    def on_click(self, evt: JsObject) -> None:
        self.screen.motion.finish()  # a click skips the motion, and is taken at once
        el = evt.target.closest("[data-cmd], [data-act], [data-part]")
        if el is None or not el:  # JS null arrives as pyodide's jsnull, which is falsy
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

    def decide(self, el: JsObject) -> bool:
        """A card, a seat, a button of the table's decision."""
        act, part = attr(el, "data-act"), attr(el, "data-part")
        if self.ctrl.page.view == "online":  # a guest's table: the host decides
            self.ctrl.online.decide(act or None, part or None)
        elif act:
            self.ctrl.on_table(ts.Act(act))
        elif part:
            self.ctrl.on_table(ts.Pick(part))
        return bool(act or part)

    def on_storage(self, evt: JsObject) -> None:
        value = evt.newValue
        self.ctrl.perform(StorageChanged(str(evt.key), value if isinstance(value, str) else None))

    def on_key(self, evt: JsObject) -> None:
        self.screen.motion.finish()  # so does any key
        if self.overlay_key(evt) or self.undo_key(evt) or trap_tab(evt) \
                or self.tab_to_decision(evt):
            return
        key, el = str(evt.key), evt.target
        if key == "Escape":
            self.ctrl.on_table(ts.ClearChoice())
        elif key in ARROWS:
            move_focus(evt, key)
        elif key in ("Enter", " ") and str(el.tagName) != "BUTTON":
            if attr(el, "data-act") is not None or attr(el, "data-part") is not None:
                evt.preventDefault()
                self.decide(el)

    def overlay_key(self, evt: JsObject) -> bool:
        """The keys panel ("?" opens or closes it, not while typing) and the
        file panel: while one is open, Escape closes it and Tab stays in it.
        True if the key was the overlay's."""
        key, el = str(evt.key), evt.target
        overlay = self.ctrl.page.overlay
        if overlay == "file":
            if key == "Escape":
                evt.preventDefault()
                self.ctrl.command("file-close", {})
            elif key == "Tab":
                trap_tab(evt)
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
            self.ctrl.command("keys-close", {})
        elif key == "Tab":
            trap_tab(evt)
        return key in ("Escape", "Tab", *ARROWS)

    def undo_key(self, evt: JsObject) -> bool:
        """Ctrl+Z (⌘Z) or U at the table: Undo. True if the key was taken."""
        key = str(evt.key).lower()
        chord = bool(evt.ctrlKey or evt.metaKey) and not evt.shiftKey and not evt.altKey
        plain = not (evt.ctrlKey or evt.metaKey or evt.altKey)
        if not ((key == "z" and chord) or (key == "u" and plain)):
            return False
        if not self.ctrl.page.at_table or str(evt.target.tagName) in TYPING:
            return False
        evt.preventDefault()
        self.ctrl.command("undo", {})
        return True

    def tab_to_decision(self, evt: JsObject) -> bool:
        """On the person's turn, Tab from the top of the table (the prompt,
        where the page puts the focus after a redraw or a closed panel) goes
        to the first choice they may make, wherever the table draws it (in
        Dracula its first choice is above the prompt). True if it took the key."""
        if str(evt.key) != "Tab" or evt.shiftKey:
            return False
        if attr(document.activeElement, "id") != "prompt":
            return False
        page, s = self.ctrl.page, self.ctrl.session
        if (s is None or not page.at_table or not s.human_to_act or s.waiting_for_ack
                or page.handover_due):
            return False
        offered = s.choice.offers(s.picked)
        legal = set(s.state.legal_actions())
        for el in document.querySelectorAll("#screen [data-part], #screen [data-act]"):
            if (not el.hasAttribute("disabled") and (attr(el, "data-part") in offered
                                     or attr(el, "data-act") in legal) and try_focus(el)):
                evt.preventDefault()
                return True
        return False
