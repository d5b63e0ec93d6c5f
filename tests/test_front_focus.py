"""The keyboard focus of game.web.front.focus on a document (tests/fake_dom.py)."""

from game.web.front.focus import Focus
from tests.fake_dom import Document

TABLE = """
<section id="screen">
  <p id="prompt">Your turn</p>
  <div class="hand mine" data-keys="row">
    <button data-part="J1" data-skip="true">J1</button>
    <button data-part="J2">J2</button>
    <button data-part="H3">H3</button>
  </div>
  <div class="coffin" data-keys="grid" data-cols="3">
    <button data-part="c0">0</button><button data-part="c1">1</button><button data-part="c2">2</button>
    <button data-part="c3">3</button><button data-part="c4">4</button><button data-part="c5">5</button>
  </div>
</section>
<aside id="side"><button id="log-tab">Log</button></aside>
<div id="modal" hidden></div>
"""


def page() -> tuple[Document, Focus]:
    doc = Document(TABLE)
    return doc, Focus(doc)


def test_the_same_card_keeps_the_focus_across_a_redraw() -> None:
    doc, focus = page()
    focus.focus(doc.querySelector('[data-part="H3"]'))
    key = focus.key()
    assert key == ("data-part", "H3", "hand")
    doc.getElementById("screen").innerHTML = doc.getElementById("screen").innerHTML  # redrawn
    focus.refocus(key)
    assert doc.activeElement.getAttribute("data-part") == "H3"
    assert doc.activeElement.isConnected


def test_a_played_card_gives_the_focus_to_the_first_playable_card_of_its_hand() -> None:
    doc, focus = page()
    focus.focus(doc.querySelector('[data-part="H3"]'))
    key = focus.key()
    doc.querySelector('[data-part="H3"]').remove()
    focus.refocus(key)
    assert doc.activeElement.getAttribute("data-part") == "J2"  # J1 may not be played


def test_with_its_hand_gone_the_focus_falls_to_the_prompt_never_to_the_body() -> None:
    doc, focus = page()
    focus.focus(doc.querySelector('[data-part="H3"]'))
    key = focus.key()
    doc.querySelector(".hand").remove()
    focus.refocus(key)
    assert doc.activeElement.id == "prompt"
    assert focus.area() == "screen"


def test_arrows_go_along_a_hand_skipping_what_may_not_be_played_and_round_its_ends() -> None:
    doc, focus = page()
    j2 = doc.querySelector('[data-part="J2"]')
    focus.focus(j2)
    evt = doc.dispatch("keydown", j2, key="ArrowLeft")
    focus.move(evt, "ArrowLeft")
    assert doc.activeElement.getAttribute("data-part") == "H3"  # round the end, past J1
    assert evt.defaultPrevented


def test_arrows_in_the_coffin_move_by_rows_and_never_wrap_a_row() -> None:
    doc, focus = page()
    c2 = doc.querySelector('[data-part="c2"]')
    focus.focus(c2)
    focus.move(doc.dispatch("keydown", c2, key="ArrowDown"), "ArrowDown")
    assert doc.activeElement.getAttribute("data-part") == "c5"
    evt = doc.dispatch("keydown", doc.activeElement, key="ArrowRight")
    focus.move(evt, "ArrowRight")
    assert doc.activeElement.getAttribute("data-part") == "c5" and not evt.defaultPrevented


def test_tab_goes_round_an_open_dialog() -> None:
    doc, focus = page()
    modal = doc.getElementById("modal")
    modal.innerHTML = ('<div role="dialog" aria-modal="true"><h2>Hand over</h2>'
                       '<button id="a">Review</button><button id="b">Next hand</button></div>')
    assert not focus.trap_tab(doc.dispatch("keydown", doc.body, key="Tab"))  # hidden: no trap
    modal.hidden = False
    evt = doc.dispatch("keydown", doc.body, key="Tab", shiftKey=False)
    assert focus.trap_tab(evt) and doc.activeElement.id == "a"
    focus.focus(doc.getElementById("b"))
    assert focus.trap_tab(doc.dispatch("keydown", doc.activeElement, key="Tab", shiftKey=False))
    assert doc.activeElement.id == "a"  # past the last: round to the first
    assert not focus.trap_tab(doc.dispatch("keydown", doc.activeElement, key="Tab",
                                           shiftKey=False))  # inside: the browser's own order


def test_where_the_focus_is() -> None:
    doc, focus = page()
    assert focus.area() == "body"
    focus.focus(doc.getElementById("log-tab"))
    assert focus.area() == "side" and focus.key() is None
