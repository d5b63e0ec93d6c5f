"""The page's DOM events as messages (game.web.front.events), carried out by
the controller (game.web.gestures): clicks, keys and changes on a document
(tests/fake_dom.py) with the real game behind it."""

from __future__ import annotations

from game.web.front.events import read_form
from tests.front_kit import dealt, my_turn


def test_a_click_on_a_card_plays_it_and_a_click_elsewhere_does_nothing() -> None:
    ctrl, screen, thinking = dealt("jekyll-hyde")
    s = my_turn(ctrl, thinking)
    doc = screen.doc
    played = s.played
    doc.dispatch("click", doc.body)
    assert ctrl.session.played == played
    legal = set(s.state.legal_actions())
    card = next(el for el in doc.querySelectorAll("#screen [data-act]")
                if el.getAttribute("data-act") in legal)
    doc.dispatch("click", card)
    assert ctrl.session.played == played + 1


def test_the_keys_panel_opens_with_a_question_mark_and_closes_with_escape() -> None:
    ctrl, screen, thinking = dealt(jvh_role="J")
    my_turn(ctrl, thinking)
    doc = screen.doc
    evt = doc.dispatch("keydown", doc.body, key="?")
    assert evt.defaultPrevented and ctrl.page.overlay == "keys"
    assert doc.activeElement.getAttribute("data-cmd") == "keys-close"
    doc.dispatch("keydown", doc.activeElement, key="Escape")
    assert ctrl.page.overlay == "none"


def test_tab_from_the_prompt_goes_to_the_first_card_the_person_may_play() -> None:
    ctrl, screen, thinking = dealt("jekyll-hyde")
    s = my_turn(ctrl, thinking)
    doc = screen.doc
    screen.front.focus("fallback")
    assert doc.activeElement.id == "prompt"
    evt = doc.dispatch("keydown", doc.activeElement, key="Tab")
    assert evt.defaultPrevented
    assert doc.activeElement.getAttribute("data-act") in s.state.legal_actions()


def test_u_takes_back_the_last_move_at_the_table_but_not_while_typing() -> None:
    ctrl, screen, thinking = dealt("jekyll-hyde")
    doc = screen.doc
    s = my_turn(ctrl, thinking)
    doc.dispatch("click", doc.querySelector(f'#screen [data-act="{s.state.legal_actions()[-1]}"]'))
    s = my_turn(ctrl, thinking)
    assert s.played > 0
    field = doc.createElement("input")
    doc.body.append(field)
    doc.dispatch("keydown", field, key="u")
    assert ctrl.session.played == s.played
    evt = doc.dispatch("keydown", doc.body, key="u")
    assert evt.defaultPrevented and ctrl.session.played < s.played


def test_the_start_screen_starts_the_game_its_form_says() -> None:
    ctrl, screen, thinking = dealt(jvh_role="J")
    doc = screen.doc
    doc.dispatch("click", doc.querySelector('[data-cmd="new"]'))
    form = doc.querySelector("#setup")
    assert form is not None, "the start screen is drawn"
    values = read_form(doc)
    assert values["game"] == "jekyll-vs-hyde"
    evt = doc.dispatch("submit", form)
    assert evt.defaultPrevented and ctrl.page.view == "table"
