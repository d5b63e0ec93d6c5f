"""The page's front (game.web.front) on a document (tests/fake_dom.py) with
the real controller, views and tables behind it: each draw goes through a
frame (game.web.draw.frames), each DOM event through a message
(game.web.runtime.gestures), both through JSON as between a worker and the page."""

from __future__ import annotations

import json
from typing import Any

from game.web.draw.frames import Frame, Frames
from game.web.runtime.gestures import carry_out
from game.web.front.events import Events
from game.web.front.focus import Focus
from game.web.front.live import Live
from game.web.front.screen import Front
from game.web.model.page import Page
from game.web.draw.views import Drawn
from tests.fake_dom import Document
from tests.page_kit import RecordingScreen, deal, make_page

BODY = """<header><span id="brand"></span><span id="table-info"></span><nav id="menu"></nav></header>
<div id="notices"></div><main><section id="screen"></section><aside id="side"></aside></main>
<div id="modal" hidden></div><div id="live"></div>"""


class Still:
    """No motion: the front's tests look at where things end up."""

    def before(self, root: Any) -> None: ...

    def after(self, root: Any) -> None: ...

    def reset(self) -> None: ...

    def finish(self) -> None: ...


class FrontScreen(RecordingScreen):
    """The page's screen on a fake document: each draw goes through a frame
    (and through JSON, as it will between a worker and the page)."""

    def __init__(self) -> None:
        super().__init__()
        self.doc = Document(BODY)
        self.frames = Frames()
        self.front = Front(None, Focus(self.doc), Live(self.doc), Still())
        self.sent: list[Frame] = []
        self.events: Events | None = None  # the DOM events, once wired (dealt)

    def draw(self, page: Page, drawn: Drawn) -> None:
        super().draw(page, drawn)
        frame = json.loads(json.dumps(self.frames.draw(page, drawn)))
        self.sent.append(frame)
        self.front.apply(frame)

    def focus(self, selector: str) -> None:
        super().focus(selector)
        self.front.apply({"focus": selector})

    def heard(self, events: int) -> None:
        self.frames.heard(events)


class Window:
    innerWidth = 1366

    class navigator:
        clipboard = None


def dealt(game: str = "jekyll-vs-hyde", seed: int = 21,
          **values: str) -> tuple[Any, FrontScreen, Any]:
    ctrl, _, thinking = make_page()
    screen = FrontScreen()
    ctrl.screen = screen
    screen.events = Events(screen.front, Window(),
                           lambda msg: carry_out(ctrl, json.loads(json.dumps(msg))),
                           lambda purpose, file: None)
    for kind, handler in screen.events.handlers().items():
        screen.doc.addEventListener(kind, handler)
    deal(ctrl, game, seed, **values)
    return ctrl, screen, thinking


