"""The Review played (game.web.model.review's `Reviewing` in the page, its frames
game.web.runtime.step_player's) and shown in its dialog (game.web.front.steps) on a
document (tests/fake_dom.py): through the real controller, commands and
frames through JSON, the bots paused while it is open, the page as it was
once it closes."""

from __future__ import annotations

import json
from typing import Any

from game import new_game
from game.core.transcript import Transcript
from game.web.runtime.controller import Controller
from game.web.front.steps import ReviewDialog, command_of
from tests.fake_dom import Document, Element
from tests.page_kit import make_page, put_on_table, random_transcript


class Listeners:
    def __init__(self, doc: Document) -> None:
        self.doc = doc

    def add(self, el: Element, kind: str, handler: Any) -> None:
        el.addEventListener(kind, handler)

    def clear(self) -> None:
        pass


def opened(transcript: dict[str, Any] | None = None) -> tuple[Controller, Document]:
    """The game of `transcript` on the table, its review asked for ("review")."""
    transcript = transcript or random_transcript("dracula", 3)
    ctrl, screen, _ = make_page()
    final = new_game("dracula", {}, 3)
    try:
        final = Transcript.from_json(transcript).states()[-1]
    except Exception:
        pass  # (a transcript that does not replay: the table shows its start)
    put_on_table(ctrl, final, {"game": "dracula", "setup": {"me": 0, "bots": {"1": "random"}},
                               "transcript": transcript, "log": [], "seen_hands": 0,
                               "closed_final": True})
    doc = Document('<button id="review-button">Review</button>')
    dialog = ReviewDialog(doc, None, lambda msg: ctrl.review_message(json.loads(json.dumps(msg))),
                          Listeners(doc))
    screen.steps = lambda frame: dialog.apply(json.loads(json.dumps(frame)))  # type: ignore[method-assign]
    doc.getElementById("review-button").focus()
    ctrl.command("review", {})
    return ctrl, doc


def dialog_click(doc: Document, selector: str) -> None:
    el = doc.querySelector(selector)
    assert el is not None, selector
    for handler in doc.getElementById("review").listeners["click"]:
        handler(doc.dispatch("click", el))


def test_the_review_opens_on_the_last_hand_pauses_the_bots_and_steps_on() -> None:
    ctrl, doc = opened()
    assert ctrl.page.review is not None and ctrl.page.overlay == "review"
    assert not ctrl.page.bots_may_think
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
    ctrl, doc = opened()
    before = ctrl.page
    dialog_click(doc, "#rv-close")
    assert doc.getElementById("review") is None
    assert ctrl.page.review is None and ctrl.page.overlay == "none"
    assert ctrl.page.session is not None and before.session is not None
    assert ctrl.page.session.save == before.session.save  # nothing of the game changed
    assert doc.activeElement.id == "review-button"


def test_a_transcript_that_does_not_replay_says_why_and_opens_nothing() -> None:
    broken = random_transcript("dracula", 3)
    broken["actions"][3] = "no such move"
    ctrl, doc = opened(broken)
    assert ctrl.page.review is None and doc.getElementById("review") is None
    assert ctrl.message.startswith(ctrl.t("review.failed", reason="no such move").split("(")[0])
    assert ctrl.page.overlay == "none"


def test_the_players_keys_are_its_commands_but_not_in_a_form_field() -> None:
    doc = Document('<div id="bar"><button data-ex="next" id="ex-next">Next</button></div>'
                   '<input id="field">')
    assert command_of(doc.dispatch("click", doc.getElementById("ex-next"))) == \
        {"cmd": "next", "keep": "ex-next"}
    key = doc.dispatch("keydown", doc.getElementById("ex-next"), key="Home")
    assert command_of(key) == {"cmd": "first", "keep": "ex-next"}
    assert command_of(doc.dispatch("keydown", doc.getElementById("field"), key="End")) is None
