"""embed.html split as the site's page is: its game (game.web.embed.game, in
the worker) and its front (game.web.front.embedded, on the page) on a
document (tests/fake_dom.py), every frame and message through JSON as
between the worker and the page: a scenario stepped through by its buttons
and keys, fitted to its frame; the same messages as before for what cannot
be shown; a live table with its own menu that writes nothing."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace
from urllib.parse import quote
from typing import Any

import pytest

from game.web.embed.game import EmbedGame, Unreachable
from game.web.draw.frames import Frames
from game.web.front.embedded import FIT_MIN, Embedded
from game.web.front.focus import Focus
from game.web.front.live import Live
from game.web.front.screen import Front
from game.web.model.page import Page
from game.web.draw.views import Drawn
from tests.fake_dom import Document
from tests.front_kit import Still
from tests.page_kit import RecordingScreen, run_alone

ROOT = Path(__file__).resolve().parent.parent
PAGE = "http://127.0.0.1:8123/own/embed.html"
# embed.html's body, as the build leaves it before the front starts.
BODY = """<header class="bar ex-top"><span class="brand" id="brand" hidden></span>
<nav id="menu" class="menu"></nav></header><div id="notices" class="notices"></div>
<main class="ex-main"><section id="screen" class="screen"><div class="ex-skeleton"></div></section>
<aside id="side" class="side" hidden></aside></main>
<footer id="ex-bar" class="ex-bar" hidden><p id="ex-caption" class="ex-caption"></p>
<div id="ex-controls" class="ex-controls"></div></footer>
<div id="modal" class="modal" hidden></div><div id="live" class="sr"></div>
<div id="loader"></div>"""


class Window:
    def __init__(self) -> None:
        self.listeners: dict[str, list[Any]] = {}

    def addEventListener(self, kind: str, handler: Any) -> None:  # noqa: N802
        self.listeners.setdefault(kind, []).append(handler)


class TableScreen(RecordingScreen):
    """The live table's screen in the worker: each draw posted as a frame."""

    def __init__(self, menu: Any, post: Any) -> None:
        super().__init__()
        self.frames, self.post = Frames(menu), post

    def steps(self, frame: dict[str, Any]) -> None:
        super().steps(frame)
        self.post({"steps": frame})

    def draw(self, page: Page, drawn: Drawn) -> None:
        super().draw(page, drawn)
        self.post(self.frames.draw(page, drawn))


class Embed:
    """embed.html opened at `search`: the worker's game and the page's front."""

    def __init__(self, search: str, missing: bool = False) -> None:
        self.doc = Document(BODY)
        self.window = Window()
        self.asked: list[str] = []
        self.tasks: list[Any] = []
        self.posted: list[dict[str, Any]] = []
        self.missing = missing
        front = Front(self.window, Focus(self.doc), Live(self.doc), Still())
        self.page = Embedded(self.window, front, None, self.send)
        screen = self.doc.getElementById("screen")
        screen.style = SimpleNamespace(zoom="")
        screen.parentElement = SimpleNamespace(clientHeight=0)
        self.screens: list[TableScreen] = []
        self.game = EmbedGame(self.post, self.tasks.append, self.fetch, self.table_screen)
        self.game.start(json.loads(json.dumps(
            {"embed": True, "search": search, "address": PAGE + search, "lang": "de-DE"})))
        self.run()

    def table_screen(self, menu: Any) -> TableScreen:
        self.screens.append(TableScreen(menu, self.post))
        return self.screens[-1]

    async def fetch(self, url: str) -> str:
        self.asked.append(url)
        if self.missing:
            raise Unreachable("HTTP 404")
        assert url.startswith("http://127.0.0.1:8123/own/static/scenarios/")
        return (ROOT / url.removeprefix("http://127.0.0.1:8123/own/")).read_text()

    def run(self) -> None:
        """The scenario's start (an autoplay spawned by it is left unrun: `autoplays`)."""
        if self.tasks:
            run_alone(self.tasks.pop(0))  # (Playwright's loop runs in a full test run)
        self.autoplays = len(self.tasks)
        for task in self.tasks:
            task.close()

    def post(self, frame: dict[str, Any]) -> None:  # the worker's postMessage
        self.posted.append(json.loads(json.dumps(frame)))
        self.page.apply(self.posted[-1])

    def send(self, msg: dict[str, Any]) -> None:  # the page's postMessage
        self.game.receive(json.loads(json.dumps(msg)))

    def body(self, name: str) -> str | None:
        return self.doc.body.getAttribute("data-" + name)

    def played(self) -> list[str | None]:
        return [c.getAttribute("data-card") for c in self.doc.querySelectorAll(".centre .slot .card")]


def test_a_scenario_steps_by_its_buttons_and_keys_and_takes_no_focus():
    embed = Embed("?game=jekyll-hyde&scenario=designation&step=6&lang=fr")
    doc = embed.doc
    # Fetched from the site beside the page, not beside the worker's script.
    assert embed.asked == ["http://127.0.0.1:8123/own/static/scenarios/jekyll-hyde/designation.json"]
    assert (embed.body("state"), embed.body("view"), embed.body("step")) == ("ready", "scenario", "6")
    assert doc.getElementById("loader") is None and not doc.getElementById("ex-bar").hidden
    assert doc.documentElement.lang == "fr" and embed.body("lang") == "fr"
    assert doc.activeElement is doc.body  # nothing in the frame took the focus
    assert embed.played() == ["HF4", "JE", "H1"]
    assert "Étape 6 sur 7" in doc.getElementById("ex-step").textContent

    bar = doc.getElementById("ex-bar")
    next_button = doc.getElementById("ex-next")
    for handler in bar.listeners["click"]:
        handler(doc.dispatch("click", next_button))
    assert embed.body("step") == "7" and embed.played() == ["HF4", "JE", "H1", "JD"]
    assert doc.getElementById("ex-caption").textContent.startswith("Doris")
    assert doc.activeElement is doc.getElementById("ex-play")  # "next" is disabled at the end
    doc.dispatch("keydown", doc.body, key="ArrowLeft")
    assert embed.body("step") == "6" and embed.played() == ["HF4", "JE", "H1"]
    doc.dispatch("keydown", doc.body, key="Home")
    assert embed.body("step") == "0"


def test_an_example_that_plays_by_itself_starts_playing():
    embed = Embed("?game=dracula&scenario=" + sorted(
        (ROOT / "static" / "scenarios" / "dracula").glob("*.json"))[0].stem + "&autoplay=1")
    assert embed.game.player is not None and embed.game.player.at.playing
    assert embed.autoplays == 1
    assert embed.doc.getElementById("ex-play").getAttribute("aria-pressed") == "true"


@pytest.mark.parametrize(("natural", "room", "zoom"), [
    (800, 408, "0.500"), (800, 608, "0.750"), (4000, 408, f"{FIT_MIN:.3f}"), (300, 408, "")])
def test_the_table_is_zoomed_to_fit_above_the_caption(natural, room, zoom):
    embed = Embed("?game=jekyll-hyde&scenario=designation")
    screen = embed.doc.getElementById("screen")
    screen.scrollHeight, screen.parentElement.clientHeight = natural, room
    for handler in embed.window.listeners["resize"]:
        handler(None)
    assert screen.style.zoom == zoom


@pytest.mark.parametrize(("search", "said"), [
    ("?game=chess&scenario=x&lang=en", "chess"),
    ("?game=jekyll-hyde&lang=en&scenario=https%3A%2F%2Fevil.example%2Fs.json", "only read from this site"),
    ("?game=jekyll-hyde&scenario=designation&lang=en&colour=red", "colour"),
])
def test_what_cannot_be_shown_says_why(search, said):
    embed = Embed(search)
    assert embed.asked == []
    assert (embed.body("state"), embed.body("view")) == ("ready", "error")
    assert said in embed.doc.getElementById("ex-error").textContent
    assert embed.doc.getElementById("ex-bar").hidden


def test_a_missing_scenario_says_so_with_the_servers_answer():
    embed = Embed("?game=dracula&scenario=nowhere&lang=en", missing=True)
    text = embed.doc.getElementById("ex-error").textContent
    assert "nowhere" in text and "HTTP 404" in text
    assert embed.body("view") == "error" and embed.doc.getElementById("ex-bar").hidden


def test_a_live_table_has_its_own_menu_and_writes_nothing():
    embed = Embed("?game=dracula&seed=3&bots=random&lang=it")
    doc = embed.doc
    assert embed.body("state") == "ready" and doc.querySelector(".dr-table") is not None
    assert doc.documentElement.lang == "it" and embed.body("lang") == "it"
    assert doc.activeElement is doc.body
    restart = doc.getElementById("restart")
    assert restart is not None and doc.querySelector('#menu a[href="./index.html?game=dracula&lang=it"]')
    ctrl = embed.game.ctrl
    assert ctrl is not None and not embed.screens[0].errors
    # Its storage is in the worker's memory: nothing asks the page to write a save.
    assert not [frame for frame in embed.posted if "store" in frame]
    # Drawn once, as the table: never the start screen it was dealt from.
    assert [frame["view"] for frame in embed.posted if "view" in frame] == ["table"]
    # Its "new game" is its own restart (a new deal of the same options, no start screen).
    doc.dispatch("click", restart)
    assert ctrl.page.view == "table" and not embed.screens[0].errors
    new_game = doc.createElement("button")  # as the end of a game's dialog offers it
    new_game.setAttribute("data-cmd", "new")
    doc.body.append(new_game)
    doc.dispatch("click", new_game)
    assert ctrl.page.view == "table" and not embed.screens[0].errors


PAYLOAD = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>'


@pytest.mark.parametrize("search", [
    "game=jekyll-hyde&scenario=designation&step=%C2%B2",
    "game=jekyll-hyde&seed=%C2%B2",
    "game=jekyll-hyde&seed=" + "9" * 4301,
    "game=" + quote(PAYLOAD),
    "game=jekyll-hyde&scenario=designation&" + quote(PAYLOAD) + "=1",
    "game=dracula&first=" + quote(PAYLOAD),
], ids=["step-superscript", "seed-superscript", "seed-4301-digits", "game-payload",
        "name-payload", "first-payload"])
def test_strange_parameters_get_a_message_as_text(search):
    embed = Embed("?" + search)
    assert embed.asked == []
    assert (embed.body("state"), embed.body("view")) == ("ready", "error")
    assert embed.doc.getElementById("ex-error").textContent.strip()
    assert not embed.doc.querySelectorAll("img") and not embed.doc.querySelectorAll("script")
    assert embed.doc.getElementById("ex-bar").hidden
