"""embed.html: a scripted example step by step, or a live table with fixed options.

    embed.html?game=jekyll-hyde&scenario=designation&step=3&lang=fr
    embed.html?game=dracula&seed=5&bots=strong&lang=it          (a live game)

A scenario is a NAME (`[a-z0-9-]+`), read from the site's own
`static/scenarios/<game>/<name>.json` by a relative URL: a URL, a path or
anything else is refused with a message in the frame, so an embed can never
load a file from another origin. The table is drawn by the game's own
renderer (game.web.tables) from the observation of one player for the whole
example (`seat=`, else the first to decide), as a spectator sees it: nobody is
"you".

The pure part (parameters, words, the step view) runs under CPython; the
browser part imports pyscript only inside `start()`.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Callable

from game.web.html import html, set_html
from game.web.inputs import BadNumber, read_int
from game.web.replay import Steps, Stepper, error_html, word

if TYPE_CHECKING:
    from game.core.state import State
    from game.core.transcript import Transcript

NAME = re.compile(r"[a-z0-9-]{1,64}")
SCENARIO_PARAMS = {"game", "scenario", "step", "lang", "seat", "autoplay"}
# A live table's parameters besides its game's options (see live_params).
LIVE_PARAMS = {"game", "lang", "seed", "bots", "seat", "role", "first", "speed"}
FIT_MIN = 0.5  # the smallest zoom a scripted example's table is drawn at


class EmbedError(ValueError):
    """A parameter or a scenario that cannot be shown; the message is for the reader."""


def parse(query: dict[str, str], games: list[str], lang: str) -> dict[str, Any]:
    """Check the parameters: {"mode": "scenario"|"live", ...}, or raise EmbedError."""
    game = query.get("game", "")
    if game not in games:
        raise EmbedError(word(lang, "err.game", value=game, games=", ".join(games)))
    if "scenario" in query:
        name = query["scenario"]
        if not NAME.fullmatch(name):
            raise EmbedError(word(lang, "err.scenario", value=name))
        unknown = sorted(set(query) - SCENARIO_PARAMS)
        if unknown:
            raise EmbedError(word(lang, "err.param", names=", ".join(unknown)))
        step = query.get("step", "0").strip() or "0"
        try:
            first = read_int(step, "step", hi=10_000)
        except BadNumber:
            raise EmbedError(word(lang, "err.step", value=step[:20])) from None
        return {"mode": "scenario", "game": game, "name": name, "step": first,
                "seat": query.get("seat"), "autoplay": query.get("autoplay") in ("1", "true"),
                "url": f"./static/scenarios/{game}/{name}.json"}
    unknown = sorted(set(query) - live_params(game))
    if unknown:
        raise EmbedError(word(lang, "err.param", names=", ".join(unknown)))
    return {"mode": "live", "game": game, "setup": live_setup(game, query, lang)}


def live_params(game: str) -> set[str]:
    """The parameters of a live `game`: LIVE_PARAMS and its start screen's engine options."""
    from game.web.tables import renderer

    return LIVE_PARAMS | {field.name for field in renderer(game).OPTION_FIELDS}


def live_setup(game: str, query: dict[str, str], lang: str) -> dict[str, str]:
    """The start-screen values (as game.web.tables' parse_setup reads them) of a live embed."""
    from game.web.tables import renderer

    def pick(name: str, allowed: tuple[str, ...], default: str) -> str:
        value = query.get(name, default)
        if value not in allowed:
            raise EmbedError(word(lang, "err.value", name=name, value=value[:20]))
        return value

    values = {"game": game}
    seed = query.get("seed", "")
    if seed:
        try:
            seed = str(read_int(seed, "seed"))
        except BadNumber:
            raise EmbedError(word(lang, "err.value", name="seed", value=seed[:20])) from None
    values["seed"] = seed
    if "bots" in query:
        from game.bots import levels

        if query["bots"] == "normal":  # the start screen's word for the heuristic
            query = {**query, "bots": "heuristic"}
        bot = pick("bots", tuple(levels(game)), "")
        values.update({f"bot{i}": bot for i in range(4)}, jvh_bot=bot, dr_bot=bot)
    # An engine option on the start screen is a parameter of the same name and choices.
    for field in renderer(game).OPTION_FIELDS:
        values[field.name] = pick(field.name, field.texts(), str(field.spec.default))
    # Which player the person is: page choices, not options of the game.
    if game == "jekyll-hyde":
        values["me"] = pick("seat", tuple(str(i) for i in range(int(values["players"]))), "0")
    elif game == "jekyll-vs-hyde":
        values["jvh_role"] = pick("role", ("J", "H", "random"), "J")
    elif game == "dracula":
        values["first"] = pick("first", ("me", "bot", "random"), "me")
    return values


def load_scenario(text: str, params: dict[str, Any],
                  lang: str) -> tuple[Transcript, list[State]]:
    """(transcript, states) of a scenario file's text, or raise EmbedError."""
    from game.core.transcript import Transcript, TranscriptError

    name = params["name"]
    try:
        transcript = Transcript.parse(text, f"the example {name!r}")
        if transcript.game != params["game"]:
            raise TranscriptError(f"it is a {transcript.game} game")
        states = transcript.states()
    except (ValueError, TranscriptError) as e:
        raise EmbedError(word(lang, "err.replay", name=name, reason=str(e))) from e
    return transcript, states


# -- the browser part ------------------------------------------------------------

def start() -> None:
    """Entry point of embed.html (after Python is up)."""
    import asyncio
    from urllib.parse import parse_qsl

    from pyscript import document, window

    from game.web.i18n import pick_language
    from game.web.tables import TABLES

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
    from pyodide.ffi import create_proxy
    from pyodide.http import pyfetch
    from pyscript import document, window

    from game.web.i18n import Translator
    from game.web.tables import renderer

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

    stepper = Stepper(view, screen, document.getElementById("ex-caption"),
                      document.getElementById("ex-controls"), body, drawn=fit)

    def on_click(evt: Any) -> None:
        stepper.on_click(evt)

    def on_key(evt: Any) -> None:
        stepper.on_key(evt)

    proxies = [create_proxy(on_click), create_proxy(on_key), create_proxy(fit)]
    bar.addEventListener("click", proxies[0])
    document.addEventListener("keydown", proxies[1])
    window.addEventListener("resize", proxies[2])
    window._embed_proxies = proxies  # keep them alive
    bar.hidden = False
    body.dataset.view = "scenario"
    stepper.draw()
    _ready(document)
    if params["autoplay"]:
        stepper.go("play")


def _start_live(params: dict[str, Any], lang: str) -> None:
    from game.web.dom.boot import start_live

    start_live(dict(params["setup"]), html(
        '<button type="button" data-cmd="restart" id="restart">{}</button>'
        '<a href="./index.html?game={}&amp;lang={}" target="_blank" rel="noopener">{}</a>',
        word(lang, "restart"), params["game"], lang, word(lang, "open")), lang)
