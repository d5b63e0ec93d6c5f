"""embed.html's page: a scripted example step by step, or a live table with
fixed options (the parameters, their checks and the scenario's replay are
game.web.embed, pure).  embed.html runs `start()` once Python is up."""

from __future__ import annotations

import asyncio
from typing import Any, Callable
from urllib.parse import parse_qsl

from pyodide.ffi import create_proxy
from pyodide.http import pyfetch
from pyscript import document, window

from game.web.dom.focus import FOCUS
from game.web.embed import FIT_MIN, EmbedError, load_scenario, parse
from game.web.front.steps import Player, command_of
from game.web.html import html, set_html
from game.web.i18n import Translator, pick_language
from game.web.replay import Steps, error_html, word
from game.web.step_player import StepPlayer
from game.web.tables import TABLES, renderer


def start() -> None:
    """Entry point of embed.html (after Python is up)."""
    query = dict(parse_qsl(str(window.location.search).lstrip("?"), keep_blank_values=True))
    lang = pick_language(query.get("lang"), str(window.navigator.language or ""))
    document.documentElement.lang = lang
    body = document.body
    body.dataset.lang = lang

    def fail(message: str) -> None:
        set_html(document.getElementById("screen"), error_html(lang, message))
        document.getElementById("ex-bar").hidden = True
        body.dataset.view = "error"
        _ready(document)

    try:
        params = parse(query, [g for g in TABLES], lang)
    except EmbedError as e:
        fail(str(e))
        return
    if params["mode"] == "live":
        _start_live(params, lang)
        return
    asyncio.ensure_future(_start_scenario(params, lang, fail))


def _ready(document: Any) -> None:
    loader = document.getElementById("loader")
    if loader:
        loader.remove()
    document.body.dataset.state = "ready"


async def _start_scenario(params: dict[str, Any], lang: str,
                          fail: Callable[[str], None]) -> None:
    try:
        resp = await pyfetch(params["url"])  # relative: always this site
        if not resp.ok:
            raise EmbedError(word(lang, "err.missing", name=params["name"],
                                  reason=f"HTTP {resp.status}"))
        text = await resp.string()
        transcript, states = load_scenario(text, params, lang)
        view = Steps(transcript, states, renderer(params["game"]), Translator(lang),
                     params["seat"], params["step"])
    except EmbedError as e:
        fail(str(e))
        return
    except Exception as e:  # network or anything unexpected: say it in the frame
        fail(word(lang, "err.missing", name=params["name"], reason=f"{type(e).__name__}: {e}"))
        return

    body = document.body
    bar, screen = document.getElementById("ex-bar"), document.getElementById("screen")
    main = screen.parentElement

    def fit(*_: Any) -> None:
        """Shrink the table (CSS zoom) until it and the hand fit above the caption
        bar, which keeps its own room: the caption never covers the hand. Only
        a hand's summary, taller than any frame, may still scroll (at half size)."""
        screen.style.zoom = ""
        room = main.clientHeight - 8  # .ex-main's padding
        natural = screen.scrollHeight
        if natural > room > 0:
            screen.style.zoom = f"{max(FIT_MIN, room / natural):.3f}"

    shown = Player(document, FOCUS.no_scroll, screen, document.getElementById("ex-caption"),
                   document.getElementById("ex-controls"), body, drawn=fit)
    player = StepPlayer(view, lambda frame: shown.draw(frame["steps"]), asyncio.ensure_future)

    def on_event(evt: Any) -> None:
        msg = command_of(evt)
        if msg is not None:
            player.command(msg["cmd"], msg["keep"])

    proxies = [create_proxy(on_event), create_proxy(fit)]
    bar.addEventListener("click", proxies[0])
    document.addEventListener("keydown", proxies[0])
    window.addEventListener("resize", proxies[1])
    window._embed_proxies = proxies  # keep them alive
    bar.hidden = False
    body.dataset.view = "scenario"
    player.draw()
    _ready(document)
    if params["autoplay"]:
        player.command("play")


def _start_live(params: dict[str, Any], lang: str) -> None:
    """The embed's live table: the page's own, configured (game.web.dom.boot.start_live)."""
    from game.web.dom.boot import start_live

    start_live(dict(params["setup"]), html(
        '<button type="button" data-cmd="restart" id="restart">{}</button>'
        '<a href="./index.html?game={}&amp;lang={}" target="_blank" rel="noopener">{}</a>',
        word(lang, "restart"), params["game"], lang, word(lang, "open")), lang)
