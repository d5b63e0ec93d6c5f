"""embed.html's game, in the page's worker (game/web/dom/worker.py hands it
a start message that says `"embed": true`): a scripted example played step
by step (game.web.runtime.step_player's StepPlayer), or a live table with fixed
options (the page's controller, with its storage in memory, no tab locks
and the embed's own menu: an embedded game must not replace the player's
own). Everything goes to the page as frames (`post`), drawn there by the
embed's front (game.web.front.embedded):

    {"embed": {"lang": "fr", "view": "error", "screen": "<div ...>"}}
    {"embed": {"lang": "fr", "view": "scenario"}}, then {"steps": {...}}
    {"embed": {"lang": "fr", "view": "live"}}, then the table's frames

The page's messages come back to `receive`: the example's commands
(`{"kind": "steps", "name": "example", ...}`), the live table's gestures
(game.web.runtime.gestures) and its Review's commands.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Awaitable, Callable, Protocol
from urllib.parse import parse_qsl, urljoin

from game.web.runtime.drivers import NoLocks, Screen, Spawn
from game.web.embed.options import EmbedError, load_scenario, parse
from game.web.draw.frames import Frame, markup
from game.web.runtime.gestures import carry_out
from game.web.draw.html import Html, html
from game.web.draw.i18n import Translator, pick_language
from game.web.model.replay import Steps, error_html, word
from game.web.runtime.step_player import StepPlayer
from game.web.runtime.storage import MemoryStorage
from game.web.draw.tables import TABLES, renderer

if TYPE_CHECKING:  # (embed.html's runner starts one, importing it when it does)
    from game.web.runtime.controller import Controller

Post = Callable[[Frame], None]
# The text at a URL of the site; Unreachable (its reason) if it did not come.
Fetch = Callable[[str], Awaitable[str]]


class Unreachable(Exception):
    """A file of the site that did not come (its message says why: "HTTP 404")."""


class TableScreen(Screen, Protocol):
    """The live table's screen driver: it posts each frame, the Review's too."""


class EmbedGame:
    """What the embed shows, from the page's start message (`search`: its
    query; `address`: the page's URL, which the scenario's is relative to;
    `lang`: the browser's language)."""

    def __init__(self, post: Post, spawn: Spawn, fetch: Fetch,
                 screen: Callable[[Html], TableScreen]) -> None:
        self.post, self.spawn, self.fetch, self.make_screen = post, spawn, fetch, screen
        self.player: StepPlayer | None = None
        self.ctrl: Controller | None = None
        self.screen: TableScreen | None = None

    def start(self, init: dict[str, Any]) -> None:
        query = dict(parse_qsl(str(init.get("search") or "").lstrip("?"), keep_blank_values=True))
        lang = pick_language(query.get("lang"), str(init.get("lang") or ""))
        try:
            params = parse(query, list(TABLES), lang)
        except EmbedError as e:
            self.fail(lang, str(e))
            return
        if params["mode"] == "live":
            self.start_live(params, lang)
            return
        # Relative to the page, not to the worker's script: always this site.
        url = urljoin(str(init.get("address") or ""), params["url"])
        self.spawn(self.start_scenario(params, lang, url))

    def fail(self, lang: str, message: str) -> None:
        self.post({"embed": {"lang": lang, "view": "error",
                             "screen": markup(error_html(lang, message))}})

    async def start_scenario(self, params: dict[str, Any], lang: str, url: str) -> None:
        try:
            try:
                text = await self.fetch(url)
            except Unreachable as e:
                raise EmbedError(word(lang, "err.missing", name=params["name"],
                                      reason=str(e))) from None
            transcript, states = load_scenario(text, params, lang)
            view = Steps(transcript, states, renderer(params["game"]), Translator(lang),
                         params["seat"], params["step"])
        except EmbedError as e:
            self.fail(lang, str(e))
            return
        except Exception as e:  # network or anything unexpected: say it in the frame
            self.fail(lang, word(lang, "err.missing", name=params["name"],
                                 reason=f"{type(e).__name__}: {e}"))
            return
        self.post({"embed": {"lang": lang, "view": "scenario"}})
        self.player = StepPlayer(view, self.post, self.spawn)
        self.player.draw()
        if params["autoplay"]:
            self.player.command("play")

    def start_live(self, params: dict[str, Any], lang: str) -> None:
        """The page's own table with fixed options, its own menu, no side
        panel, and nothing written: storage in memory, no tab locks."""
        from game.web.model import page as pg
        from game.web.runtime.controller import Controller
        from game.web.model.links import Link

        menu = html('<button type="button" data-cmd="restart" id="restart">{}</button>'
                    '<a href="./index.html?game={}&amp;lang={}" target="_blank" '
                    'rel="noopener">{}</a>',
                    word(lang, "restart"), params["game"], lang, word(lang, "open"))
        self.post({"embed": {"lang": lang, "view": "live"}})
        self.screen = screen = self.make_screen(menu)
        self.ctrl = ctrl = Controller(MemoryStorage(), MemoryStorage(), screen, NoLocks(),
                                      Link(), lang)

        def up() -> None:
            ctrl.dispatch(pg.SetupChanged(dict(params["setup"])))
            ctrl.command("start", {})
        # One draw, the table's: the start screen it is dealt from is never shown.
        ctrl.guarded(lambda: ctrl.change(up))

    def receive(self, msg: dict[str, Any]) -> None:
        """A message of the page's front."""
        if msg.get("kind") == "steps":
            if msg.get("name") == "example" and self.player is not None:
                self.player.command(str(msg.get("cmd")), msg.get("keep"))
            elif self.ctrl is not None:
                self.ctrl.review_message(msg)
        elif self.ctrl is not None:
            carry_out(self.ctrl, msg)
