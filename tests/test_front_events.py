"""The page's DOM events as messages (game.web.front.events), carried out by
the controller (game.web.runtime.gestures): clicks, keys and changes on a document
(tests/fake_dom.py) with the real game behind it."""

from __future__ import annotations

from typing import Any

import pytest

from game.core.state import GameError
from game.web.front.events import read_form
from game.web.draw.i18n import Translator
from game.web.model.page import SetLanguage
from game.web.draw.tables import explain
from tests.front_kit import dealt
from tests.page_kit import my_turn


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


def test_on_a_touch_screen_the_prompt_says_tap_until_a_keyboard_is_used() -> None:
    """Issue 55: a phone's page said "click a player to ask for one"."""
    ctrl, screen, thinking = dealt("jekyll-hyde")
    my_turn(ctrl, thinking)
    doc = screen.doc
    prompt = doc.querySelector("#screen #prompt")
    assert "click a player" in prompt.textContent
    doc.dispatch("pointerdown", doc.body, pointerType="touch")
    prompt = doc.querySelector("#screen #prompt")
    assert "tap a player" in prompt.textContent and "click" not in prompt.textContent
    ctrl.dispatch(SetLanguage("fr"))  # another language keeps the touch screen's words
    assert "touchez un joueur" in doc.querySelector("#screen #prompt").textContent
    ctrl.dispatch(SetLanguage("en"))
    doc.dispatch("pointerdown", doc.body, pointerType="touch")  # no news: not sent again
    doc.dispatch("keydown", doc.body, key="Tab")  # a keyboard's key: its words again
    assert "click a player" in doc.querySelector("#screen #prompt").textContent
    doc.dispatch("pointerdown", doc.body, pointerType="touch")
    doc.dispatch("pointerdown", doc.body, pointerType="mouse")
    assert "click a player" in doc.querySelector("#screen #prompt").textContent


def test_on_a_touch_screen_draculas_prompt_names_no_keys() -> None:
    """Issue 55: "(keys: arrows, Enter, Tab)" on a phone, which has none."""
    ctrl, screen, thinking = dealt("dracula", seed=3)
    s = my_turn(ctrl, thinking)
    doc = screen.doc
    if s.state.legal_actions()[0].startswith("way:"):
        doc.dispatch("click", doc.querySelector('#screen [data-act="way:Q"]'))
        my_turn(ctrl, thinking)
    assert "(keys: arrows, Enter, Tab)" in doc.querySelector("#screen #prompt").textContent
    doc.dispatch("pointerdown", doc.body, pointerType="touch")
    said = doc.querySelector("#screen #prompt").textContent
    assert said.startswith("Your turn: choose a card") and "keys" not in said
    doc.dispatch("click", doc.querySelector("#screen .dr-hand [data-part]"))
    assert "tap a highlighted cell" in doc.querySelector("#screen #prompt").textContent


def _placing(seed: int = 3) -> tuple[Any, Any, Any]:
    """A Dracula table where the person places a card now."""
    ctrl, screen, thinking = dealt("dracula", seed=seed)
    s = my_turn(ctrl, thinking)
    if s.state.legal_actions()[0].startswith("way:"):
        screen.doc.dispatch("click", screen.doc.querySelector('#screen [data-act="way:Q"]'))
        my_turn(ctrl, thinking)
    return ctrl, screen, thinking


def test_a_card_chosen_in_draculas_hand_sends_the_focus_to_the_first_cell_it_may_go_to() -> None:
    """Issue 55: after Enter on a card the focus stayed in the hand, and the
    coffin was two Shift+Tabs away, past the disclosure of its numbers."""
    ctrl, screen, thinking = _placing()
    doc = screen.doc
    card = doc.querySelectorAll("#screen .dr-hand [data-part]")[1]
    screen.front.keys.focus(card)
    doc.dispatch("click", card)  # (Enter on a button is its click)
    assert ctrl.session.picked == (card.getAttribute("data-part"),)
    cell = doc.activeElement
    first = next(part for part in doc.querySelectorAll("#screen .coffin [data-part]")
                 if part.getAttribute("data-part") in screen.front.choices["parts"])
    assert cell.getAttribute("data-part") == first.getAttribute("data-part")
    assert cell.isConnected and cell.getAttribute("data-part").startswith("@")
    # The other order: a cell first, then on to the first card of the hand.
    doc.dispatch("keydown", cell, key="Escape")
    cell = doc.querySelector('#screen [data-part="' + first.getAttribute("data-part") + '"]')
    screen.front.keys.focus(cell)
    doc.dispatch("click", cell)
    assert doc.activeElement.getAttribute("data-part") == doc.querySelector(
        "#screen .dr-hand [data-part]").getAttribute("data-part")


def test_a_card_picked_already_keeps_the_focus_when_the_person_comes_back_to_it() -> None:
    """Back in the hand to choose another card, a redraw leaves the focus there."""
    ctrl, screen, thinking = _placing()
    doc = screen.doc
    card = doc.querySelector("#screen .dr-hand [data-part]")
    screen.front.keys.focus(card)
    doc.dispatch("click", card)
    card = doc.querySelector("#screen .dr-hand [data-part]")
    screen.front.keys.focus(card)
    redraw = next(frame for frame in reversed(screen.sent) if "screen" in frame["regions"])
    screen.front.apply(redraw)  # the table drawn again while the card stays picked
    assert doc.activeElement.getAttribute("data-part") == card.getAttribute("data-part")


def _language_chosen(doc: Any, lang: str) -> None:
    """The menu's language chosen, as a person does it."""
    menu = doc.querySelector("#lang")
    menu.value = lang
    doc.dispatch("change", menu)


def test_a_refusal_on_screen_is_worded_again_at_once_in_the_language_chosen() -> None:
    """Issue 53 item 3: the refusal under the duel's table stayed in the old
    language until the next action; it is a code the views word at each draw."""
    ctrl, screen, thinking = dealt(jvh_role="J")
    s = my_turn(ctrl, thinking)
    doc = screen.doc
    plain = next(card for card in s.observation["hand"] if "+" not in card)
    assert s.observation["phase"] == "give" and not any(
        plain in action for action in s.state.legal_actions()), "a Potion must go"
    doc.dispatch("click", doc.querySelector(f'#screen [data-part="{plain}"]'))
    english = doc.querySelector("#message").textContent
    assert ctrl.session.state is s.state and english == screen.flashed[-1]
    with pytest.raises(GameError) as refused:
        s.state.apply(f"give:{plain}")
    for lang in ("fr", "de", "en"):
        _language_chosen(doc, lang)
        now = ctrl.session
        said = explain(now.table, refused.value, now.observation, now.context(Translator(lang)))
        assert doc.querySelector("#message").textContent == said, lang
        assert (said == english) == (lang == "en")


def test_a_hint_on_screen_is_worded_again_at_once_in_the_language_chosen() -> None:
    """Issue 53 item 3: the hint kept the words of the language it came in."""
    ctrl, screen, thinking = dealt("jekyll-hyde")
    my_turn(ctrl, thinking)
    doc = screen.doc
    doc.dispatch("click", doc.querySelector("#hint"))
    thinking.run()
    hint = ctrl.session.fresh_hint
    assert hint is not None and hint.action is not None
    english = doc.querySelector("#hint-text").textContent
    for lang in ("it", "en"):
        _language_chosen(doc, lang)
        now, t = ctrl.session, Translator(lang)
        what = now.table.hint_text(hint.action, now.observation, now.context(t))
        said = t("hint.says", what=what)
        assert doc.querySelector("#hint-text").textContent == said, lang
        assert (said == english) == (lang == "en")


@pytest.mark.parametrize("game, field", [("jekyll-hyde", "#f-bot1"),
                                         ("jekyll-vs-hyde", "#f-jvh_bot"),
                                         ("dracula", "#f-dr_bot")])
def test_the_start_screen_offers_three_levels_of_bot_for_every_game(game: str, field: str) -> None:
    """The bot's level on each game's start screen: easy, normal (the
    heuristic) and strong among its choices."""
    ctrl, screen, thinking = dealt(jvh_role="J")
    doc = screen.doc
    doc.dispatch("click", doc.querySelector('[data-cmd="new"]'))
    menu = doc.querySelector("#f-game")
    menu.value = game
    doc.dispatch("change", menu)
    offered = {o.getAttribute("value"): o.textContent
               for o in doc.querySelectorAll(f"{field} option")}
    assert {"easy", "heuristic", "strong"} <= set(offered), offered
    assert offered["heuristic"].startswith("normal"), offered


@pytest.mark.parametrize("game, lang, said, unsaid", [
    ("jekyll-hyde", "en", ["Ctrl+Z", "straight to what you may play or choose",
                           "only between the cards you may play"], ["coffin"]),
    ("dracula", "de", ["Mit der Tastatur spielen", "Sarg", "Strg+Z"], []),
])
def test_the_keys_panel_speaks_of_its_games_own_table_in_the_pages_language(
        game: str, lang: str, said: list[str], unsaid: list[str]) -> None:
    """The keys panel opened by "?" at the table: Werner's has no coffin to
    move around, Dracula's does, in German; both name Undo's keys."""
    ctrl, screen, thinking = dealt(game, seed=3)
    ctrl.dispatch(SetLanguage(lang))
    my_turn(ctrl, thinking)
    doc = screen.doc
    doc.dispatch("keydown", doc.body, key="?")
    assert ctrl.page.overlay == "keys"
    text = " ".join(doc.querySelector("#keys").textContent.split())
    assert all(words in text for words in said), text
    assert not any(words in text for words in unsaid), text


def test_on_a_touch_screen_the_side_panel_says_no_click_either() -> None:
    """Issue 55: on a phone played by taps no word of the panel beside the
    table says "click"; with a mouse the prompt does."""
    ctrl, screen, thinking = dealt("jekyll-hyde")
    my_turn(ctrl, thinking)
    doc = screen.doc
    doc.dispatch("pointerdown", doc.body, pointerType="touch")
    assert "tap a player to ask for one" in doc.querySelector("#screen #prompt").textContent
    side = doc.querySelector("#side").textContent
    assert side.strip() and "click" not in side.lower(), side
