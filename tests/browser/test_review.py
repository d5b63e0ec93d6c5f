"""Review in headless Chromium, its wiring: a duel's round finished by the
page (a bot's forced last move), then its Review stepped with the buttons and
the keys, its captions those CPython computes from the saved transcript, every
hand face up, autoplay, and closing it: the end-of-hand screen as it was and
the save in localStorage byte for byte the same; a Dracula game's end, any of
its deals.

Each game's steps, captions and open hands are checked under CPython in
tests/test_web_review.py, the review driven through the real controller in
tests/test_web_page_values.py."""

from __future__ import annotations

import json

import pytest

from game.core.transcript import Transcript
from game.web.draw.i18n import Translator
from game.web.model.review import Review
from game.web.draw.tables import renderer

pytestmark = pytest.mark.browser

GAMES = {
    "jekyll-hyde": ({"players": 4, "target": 150}, 0, 7, ".open-hand .card"),
    "jekyll-vs-hyde": ({}, "J", 5, ".jvh-open .card"),
}
STEP = "document.getElementById('review').dataset.step"


def _expected(save_text: str, lang: str = "en") -> Review:
    """The review as CPython computes it from the saved transcript."""
    save = json.loads(save_text)
    parsed = Transcript.from_json(save["transcript"])
    states = parsed.states()
    view = Review(parsed, states, renderer(parsed.game), Translator(lang), save["setup"]["me"])
    return view


def _caption(page) -> str:
    return page.inner_text("#review #ex-caption").strip()


def _wait_step(page, step: int) -> None:
    page.wait_for_function(f"{STEP} === '{step}'")


def _finish_hand(page, ui, game: str) -> str:
    options, me, seed, _ = GAMES[game]
    ui.resume_save(page, game, ui.save_near_end(game, options, me, seed))
    assert ui.wait_settled(page) == "modal"  # the bot's last move ended the hand
    page.wait_for_selector("#review-open")
    return ui.saved(page, game)


@pytest.mark.parametrize("game", ["jekyll-vs-hyde"])
def test_review_steps_through_the_hand_just_finished(page, ui, game):
    save = _finish_hand(page, ui, game)
    expected = _expected(save)
    expected.choose(len(expected.hands) - 1)
    first, last = expected.first, expected.last
    screen = page.inner_html("#screen")
    modal = page.inner_html("#modal")
    actions = ui.actions(page)

    page.click("#review-open")
    page.wait_for_selector("dialog#review[open]")
    _wait_step(page, first)
    assert page.get_attribute("#review", "data-first") == str(first)
    assert page.get_attribute("#review", "data-last") == str(last)
    assert page.is_disabled("#ex-first") and page.is_disabled("#ex-prev")

    def at(step: int) -> None:
        _wait_step(page, step)
        expected.step = step
        assert _caption(page) == expected.caption().strip(), f"step {step}"

    at(first)
    page.click("#ex-next")
    at(first + 1)
    # Every hand face up: the others' cards are shown, not their backs.
    assert page.get_attribute("#review", "data-open") == "true"
    assert page.locator(f"#rv-screen {GAMES[game][3]}").count() > 0
    # The table in the review plays nothing and takes no id of the live table's.
    assert page.locator("#rv-screen [id], #rv-screen [data-act], #rv-screen [data-part]").count() == 0
    page.keyboard.press("ArrowRight")
    at(first + 2)
    page.keyboard.press("ArrowLeft")
    at(first + 1)
    page.keyboard.press("End")
    at(last)
    assert page.is_disabled("#ex-next") and page.is_disabled("#ex-last")
    assert page.locator("#rv-screen .ex-summary").count() == 1  # the hand's result
    page.keyboard.press("Home")
    at(first)
    page.click("#ex-last")
    at(last)
    page.click("#ex-first")
    at(first)
    assert page.evaluate("document.activeElement.id") == "ex-play"  # ex-first is disabled now
    # The live table's keys wait: U (undo) does nothing to the game under the review.
    page.keyboard.press("u")
    # Autoplay moves on by itself, and stops when asked.
    # (The page answers a click with the worker's next frame: wait for it.)
    page.click("#ex-play")
    page.wait_for_selector("#ex-play[aria-pressed=true]")
    page.wait_for_function(f"Number({STEP}) > {first}", timeout=30000)
    page.click("#ex-play")
    page.wait_for_selector("#ex-play[aria-pressed=false]")
    now = int(page.evaluate(STEP))
    at(now)

    page.click("#rv-close")
    page.wait_for_selector("dialog#review", state="detached")
    assert page.inner_html("#screen") == screen and page.inner_html("#modal") == modal
    assert page.evaluate("document.activeElement.id") == "review-open"
    assert ui.actions(page) == actions
    assert ui.saved(page, game) == save  # the review never wrote the save
    # Escape closes it too; the page can go on to the next hand.
    page.click("#review-open")
    page.wait_for_selector("dialog#review[open]")
    page.keyboard.press("Escape")
    page.wait_for_selector("dialog#review", state="detached")
    assert ui.saved(page, game) == save
    page.click("#next-hand")
    page.wait_for_function("document.getElementById('modal').hidden")


def test_review_at_the_end_of_the_game_any_hand(page, ui):
    ui.resume_save(page, "dracula", ui.save_near_end("dracula", {"first_dealer": 0}, 0, 12,
                                                     whole_game=True))
    page.wait_for_function("document.body.dataset.toAct === 'over'", timeout=30000)
    page.wait_for_selector("#review-open")
    save = ui.saved(page, "dracula")
    expected = _expected(save)
    assert len(expected.hands) == 6
    page.click("#review-open")
    page.wait_for_selector("dialog#review[open]")
    # Opened on the last deal; the whole game's last step says who won.
    assert page.get_attribute("#review", "data-hand") == "5"
    page.keyboard.press("End")
    _wait_step(page, expected.hands[5][1])
    assert page.locator("#rv-screen .ex-summary").count() == 1
    # Any other deal of the game.
    page.select_option("#rv-hand", "1")
    page.wait_for_function("document.getElementById('review').dataset.hand === '1'")
    _wait_step(page, expected.hands[1][0])
    expected.choose(1)
    page.click("#ex-next")
    _wait_step(page, expected.step + 1)
    expected.step += 1
    assert _caption(page) == expected.caption().strip()
    assert page.get_attribute("#review", "data-open") == "true"
    page.click("#rv-close")
    page.wait_for_selector("dialog#review", state="detached")
    assert ui.saved(page, "dracula") == save
    # Once the summary is closed, the table of the game over still offers it.
    page.click("[data-cmd=close-final]")
    page.wait_for_function("document.getElementById('modal').hidden")
    page.click("#screen #review-open")
    page.wait_for_selector("dialog#review[open]")
    assert page.get_attribute("#review", "data-hand") == "5"
    page.keyboard.press("Escape")
    page.wait_for_selector("dialog#review", state="detached")
    assert page.evaluate("document.activeElement.id") == "review-open"


@pytest.mark.parametrize("size", [(390, 844), (1366, 768)], ids=["phone", "desktop"])
def test_review_screenshots_of_werner(page, ui, size):
    page.set_viewport_size({"width": size[0], "height": size[1]})
    _finish_hand(page, ui, "jekyll-hyde")
    page.click("#review-open")
    page.wait_for_selector("dialog#review[open]")
    for _ in range(6):
        page.keyboard.press("ArrowRight")
    page.wait_for_function(f"Number({STEP}) > 0")
    # The controls and the caption are on screen, the others' hands open.
    for sel in ("#ex-next", "#ex-caption", "#rv-close"):
        box = page.locator(sel).bounding_box()
        assert box and box["y"] >= 0 and box["y"] + box["height"] <= size[1] + 1, sel
    assert page.locator("#rv-screen .open-hand .card").count() > 0
    print(ui.screenshot(page, f"review-werner-{size[0]}"))
