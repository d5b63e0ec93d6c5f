"""The Review played (game.web.step_player) and shown in its dialog
(game.web.front.steps) on a document (tests/fake_dom.py): commands and
frames through JSON, the bots paused while it is open, the page as it was
once it closes."""

from __future__ import annotations

import json
from typing import Any

from game.web.front.steps import ReviewDialog, command_of
from game.web.i18n import Translator
from game.web.step_player import ReviewPlayer, open_review
from tests.fake_dom import Document, Element
from tests.page_kit import random_transcript


class Host:
    """The page under the review."""

    def __init__(self, transcript: dict[str, Any]) -> None:
        self.t = Translator("en")
        self.save = {"transcript": transcript, "setup": {"me": 0}}
        self.said: list[str] = []
        self.calls: list[str] = []

    def set_message(self, key: str, **params: Any) -> None:
        self.said.append(self.t(key, **params))

    def halt(self) -> None:
        self.calls.append("halt")

    def schedule(self) -> None:
        self.calls.append("schedule")

    def overlay_opened(self, name: str) -> None:
        self.calls.append(f"opened {name}")

    def overlay_closed(self, name: str) -> None:
        self.calls.append(f"closed {name}")


class Listeners:
    def __init__(self, doc: Document) -> None:
        self.doc = doc

    def add(self, el: Element, kind: str, handler: Any) -> None:
        el.addEventListener(kind, handler)

    def clear(self) -> None:
        pass


class Spawned(list[Any]):
    def __call__(self, coro: Any) -> None:
        coro.close()  # autoplay is not run here
        self.append(coro)


def opened(transcript: dict[str, Any] | None = None) -> tuple[Host, Document, ReviewPlayer | None]:
    host = Host(transcript or random_transcript("dracula", 3))
    doc = Document('<button id="review-button">Review</button>')
    player: list[ReviewPlayer] = []
    dialog = ReviewDialog(doc, None, lambda msg: player[0].message(json.loads(json.dumps(msg))),
                          Listeners(doc))
    doc.getElementById("review-button").focus()
    found = open_review(host, None, lambda frame: dialog.apply(json.loads(json.dumps(frame))["steps"]),
                        Spawned(), None)
    if found is not None:
        player.append(found)
    return host, doc, found


def dialog_click(doc: Document, selector: str) -> None:
    el = doc.querySelector(selector)
    assert el is not None, selector
    for handler in doc.getElementById("review").listeners["click"]:
        handler(doc.dispatch("click", el))


def test_the_review_opens_on_the_last_hand_pauses_the_bots_and_steps_on() -> None:
    host, doc, player = opened()
    assert player is not None and host.calls == ["halt", "opened review"]
    dialog = doc.getElementById("review")
    assert dialog is not None and doc.getElementById("rv-title") is not None
    assert doc.activeElement.id == "ex-next"
    first = int(dialog.getAttribute("data-step") or -1)
    dialog_click(doc, "#ex-next")
    assert int(dialog.getAttribute("data-step") or -1) == first + 1
    assert doc.activeElement.id == "ex-next", "the focus stays on the button pressed"
    # the table in the dialog only shows: nothing in it plays or takes an id
    assert doc.querySelectorAll("#rv-screen [data-act], #rv-screen [data-part]") == []


def test_closing_the_review_leaves_the_page_as_it_was() -> None:
    host, doc, player = opened()
    dialog_click(doc, "#rv-close")
    assert doc.getElementById("review") is None
    assert host.calls == ["halt", "opened review", "closed review", "schedule"]
    assert doc.activeElement.id == "review-button"


def test_a_transcript_that_does_not_replay_says_why_and_opens_nothing() -> None:
    broken = random_transcript("dracula", 3)
    broken["actions"][3] = "no such move"
    host, doc, player = opened(broken)
    assert player is None and doc.getElementById("review") is None
    assert host.said and host.calls == []


def test_the_players_keys_are_its_commands_but_not_in_a_form_field() -> None:
    doc = Document('<div id="bar"><button data-ex="next" id="ex-next">Next</button></div>'
                   '<input id="field">')
    assert command_of(doc.dispatch("click", doc.getElementById("ex-next"))) == \
        {"cmd": "next", "keep": "ex-next"}
    key = doc.dispatch("keydown", doc.getElementById("ex-next"), key="Home")
    assert command_of(key) == {"cmd": "first", "keep": "ex-next"}
    assert command_of(doc.dispatch("keydown", doc.getElementById("field"), key="End")) is None
