"""What index.html runs once Python is up: the page's drivers in the browser
(its storage, this tab's locks, the screen), the controller, and its first
drawing, in two tasks with the browser between them (a start-up in tasks of
more than 50 ms each keeps clicks and scrolling waiting).
"""

from __future__ import annotations

import asyncio
from typing import Any
from urllib.parse import parse_qsl

from pyodide.ffi import create_once_callable, create_proxy
from pyscript import document, window

from game.web.dom.focus import attr, q
from game.web.dom.runtime import DomScreen, listen
from game.web.front.events import read_form
from game.web.dom.storage import BrowserStorage, open_storage
from game.web.dom.tabs import TabLocks
from game.web.i18n import pick_language
from game.web.links import read_link
from game.web.storage import MemoryStorage, Storage


def _tab_storage() -> Storage:
    """This tab's own store (which game it shows): kept across its reloads only."""
    try:
        return BrowserStorage(window.sessionStorage)
    except Exception:
        return MemoryStorage()


def start() -> None:
    try:
        from game.web.controller import Controller

        params = parse_qsl(str(window.location.search).lstrip("?"), keep_blank_values=True)
        link = read_link(params)
        store, problem = open_storage(window)
        screen = DomScreen()
        locks = TabLocks(window, lambda game: ctrl.guarded(lambda: ctrl.lost_to_another_tab(game)))
        prefs_lang = _prefs_lang(store)
        lang = pick_language(link.lang, prefs_lang, str(window.navigator.language or ""))
        ctrl = Controller(store, _tab_storage(), screen, locks, link, lang, problem)
        ctrl.online.make_wire = _relay_wire
        ctrl.online.make_code_wire = _code_wire
        ctrl.online.load = lambda: _load_online(ctrl)
        ctrl.online.address = str(window.location.origin) + str(window.location.pathname)
        _test_relay(ctrl)
    except Exception as e:  # the page itself could not start: a plain message, no traceback
        import traceback

        window.console.error("".join(traceback.format_exception(e)))
        screen_el = document.getElementById("screen")
        screen_el.textContent = ("Something went wrong while starting the game. "
                                 "Reload the page to try again.")
        document.body.dataset.state = "failed"
        return
    # setImmediate (static/js/python.mjs): unlike setTimeout, not throttled in a background tab.
    window.setImmediate(create_once_callable(lambda: ctrl.guarded(lambda: _up(ctrl, screen))))
    globals()["page"] = ctrl  # keep a reference (and a handle for debugging)


def _relay_wire() -> Any:
    """The wire of an online table: through the public relays (game.web.dom.wire)."""
    from game.web.dom.wire import RelayWire

    return RelayWire()


async def _load_online(ctrl: Any) -> None:
    """Online play's modules, fetched the first time the page needs them, and
    the host's signer: WebCrypto is offered on https and localhost only
    (elsewhere the invite link carries no key and a guest trusts who answers)."""
    from game.web.dom.parts import load_part

    await load_part("online")
    if getattr(window.crypto, "subtle", None) is not None:
        from game.web.dom.wire import WebKeys

        ctrl.online.keys = WebKeys()


def _code_wire() -> Any:
    """The wire with no third party: codes carried by hand (game.web.dom.wire)."""
    from game.web.dom.wire import LinkWire

    return LinkWire()


def _test_relay(ctrl: Any) -> None:
    """The browser tests' own relay and a short grace period, set by a test
    before the page loads (`window.jhgTestRelay`, `window.jhgTestGrace`): a
    link cannot set them, so the player's page uses the published relays."""
    relay, grace = getattr(window, "jhgTestRelay", None), getattr(window, "jhgTestGrace", None)
    if isinstance(relay, str):
        def test_wire() -> Any:
            from game.web.dom.wire import RelayWire  # (online play's part, fetched by then)

            return RelayWire((relay,), ())
        ctrl.online.make_wire = test_wire
    if isinstance(grace, (int, float)):
        ctrl.online.grace = float(grace)


def _prefs_lang(store: Storage) -> str | None:
    import json

    from game.web.saves import PREFS_KEY

    try:
        lang = json.loads(store.get(PREFS_KEY) or "{}").get("lang")
    except (ValueError, AttributeError):
        return None
    return lang if isinstance(lang, str) else None


def _up(ctrl: Any, screen: DomScreen) -> None:
    """Listen, draw, and take what was pressed before Python was up."""
    globals()["events"] = listen(ctrl, screen, {})  # kept: its handlers live as long as the page
    if ctrl.link.bench:  # window.thinkBench, for benchmarks/think.py only
        asyncio.ensure_future(_install_bench())
    if getattr(window, "jhgWireProbe", None) is True:  # set by the browser tests only
        asyncio.ensure_future(_install_wire_probe())
    pending = None
    for name, what in (("data-lesson-pending", "lesson"), ("data-start-pending", "start")):
        if attr(document.body, name) is not None:
            document.body.removeAttribute(name)
            pending = pending or what
    form = read_form(document) if q("#setup") is not None else None  # the start screen first.js drew
    ctrl.start(pending, form)
    # An online table's clock: an away friend's grace period is checked every 2 s.
    window.setInterval(create_proxy(lambda: ctrl.guarded(ctrl.online.tick)), 2000)
    loader = q("#loader")
    if loader is not None:
        loader.remove()
    document.body.dataset.state = "ready"


async def _install_bench() -> None:
    from game.web.dom.parts import load_part

    await load_part("bench")  # a part of its own: no player's page downloads it
    from game.web import bench
    from game.web.thinking import SLICE

    bench.install(window, create_proxy, SLICE)


async def _install_wire_probe() -> None:
    from game.web.dom.parts import load_part

    await load_part("online")
    from game.web.dom import wire_probe

    wire_probe.install(window)

