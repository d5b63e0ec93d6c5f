"""Learn by playing (game/web/model/coach.py) in headless Chromium, its wiring:
Dracula's lesson is completed by doing what the coach asks (Continue on a
note, with the focus on it; a click on what it highlights); a legal choice
other than the lesson's gets the coach's reason and changes nothing; the
real game's save in localStorage is untouched by the lesson, which ends on
the hand's scoring, its end covering the whole screen at a phone's and a
desktop's size, and offers a real game. In every game the bubble is on
screen and clear of the hand at both sizes; a rules page's link opens the
lesson in its language.

Checked in CPython through the real controller and front instead (the
lessons of Werner's game and the duel followed in the browser went):
tests/test_web_coach.py::test_the_lesson_is_completed_by_clicking_what_the_coach_highlights
(every game: notes, clicks on the highlighted parts, the duel's confirm, one
objection that changes nothing, the lesson's length, never saved, Done);
tests/test_web_page.py::test_while_a_lessons_note_holds_the_hand_nothing_is_offered_to_play
(the prompt and marks while a note holds the hand),
::test_a_lesson_leaves_the_real_game_untouched_and_ends_on_its_start_screen,
::test_the_coachs_objection_is_worded_again_at_once_in_the_language_chosen.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytestmark = pytest.mark.browser
expect = pytest.importorskip("playwright.sync_api").expect
ROOT = Path(__file__).resolve().parents[2]

SAVES = """() => Object.fromEntries(Object.keys(localStorage)
    .filter(k => k.startsWith('jhg.save') || k === 'jhg.current')
    .map(k => [k, localStorage.getItem(k)]))"""
# The coach shows a note (Continue), the person decides, or the lesson has ended.
SETTLED = ("document.getElementById('coach-next') || document.body.dataset.toAct === 'me'"
           " || !document.getElementById('modal').hidden")
# A legal choice the coach does not ask for, per game: when (the number of
# actions played) and what to click.
OTHER = {"jekyll-hyde": (0, [".hand.mine .card.playable[data-act]:not(.hinted)"]),
         "jekyll-vs-hyde": (2, [".hand.mine .cards > .card.playable[data-act]:not(.hinted)"]),
         "dracula": (2, [".dr-hand .dc-btn:not(.hinted)", ".cell.open:not(.hinted)"])}
START = {"jekyll-hyde": ".table.jh", "jekyll-vs-hyde": ".table.jvh", "dracula": ".dr-table"}


def _words(lang: str, key: str) -> str:
    for name in (f"{lang}.json", *(f"{lang}.{g}.json" for g in START)):
        texts = json.loads((ROOT / "static" / "i18n" / name).read_text(encoding="utf-8"))
        if key in texts:
            return texts[key]
    raise KeyError(key)


def _lesson(game: str) -> dict:
    return json.loads((ROOT / "static" / "lessons" / f"{game}.json").read_text(encoding="utf-8"))


def _real_game(page, ui, game: str) -> None:
    """A real game of `game` in progress, saved."""
    page.select_option("#f-game", game)
    page.wait_for_selector("#f-seed")
    page.fill("#f-seed", "5")
    page.click("#start")
    page.wait_for_selector(START[game])


def _decide(page, ui) -> None:
    """Click what the coach highlights, each part once (a Potion's colour is
    offered once its card is picked), then confirm if asked."""
    n = ui.actions(page)
    clicked: set[tuple[str, str]] = set()
    while ui.actions(page) == n:
        parts = page.eval_on_selector_all(
            "#screen .hinted", "els => els.map(e => e.dataset.act ? ['act', e.dataset.act]"
            " : ['part', e.dataset.part])")
        fresh = [tuple(p) for p in parts if tuple(p) not in clicked]
        if not fresh:
            break
        kind, value = fresh[0]
        clicked.add((kind, value))
        ui.click_and_redrawn(page, page.locator(f'#screen [data-{kind}="{value}"]').first)
    assert clicked, "the coach highlights what to click"
    if ui.actions(page) == n and page.locator("#jvh-confirm:not([disabled])").count():
        page.click("#jvh-confirm")
    page.wait_for_function(f"document.body.dataset.actions !== '{n}'")


@pytest.mark.parametrize("game", ["dracula"])
def test_the_lesson_is_completed_by_following_the_coach(page, ui, game):
    ui.open_site(page, f"?game={game}&speed=instant&lang=en")
    _real_game(page, ui, game)
    ui.wait_settled(page)
    real = page.evaluate(SAVES)
    assert f"jhg.save.{game}" in real
    page.click("#new-game")
    page.click("#lesson")
    page.wait_for_selector(f"body[data-lesson='{game}']")
    lesson = _lesson(game)
    notes = objections = decisions = 0
    for _ in range(400):
        page.wait_for_function(SETTLED, timeout=30000)
        if not page.is_hidden("#modal"):
            break
        assert page.is_visible("#coach")
        note = page.query_selector("#coach-next")
        if note:
            # The focus comes in a message of its own after the note's frame
            # (a bot's move brings both unasked): wait for it, not read it at once.
            expect(page.locator("#coach-next")).to_be_focused()
            # Nobody is deciding while a note holds the hand, and the prompt says so.
            assert page.inner_text("#prompt") == _words("en", f"coach.{game}.paused")
            notes += 1
            note.click()
            note.wait_for_element_state("hidden")  # gone once the game's answer is drawn
            continue
        at, clicks = OTHER[game]
        if not objections and ui.actions(page) == at:
            for selector in clicks:
                page.click(selector)
            page.wait_for_selector("#coach-why")
            why = page.inner_text("#coach-why")
            assert why == _words("en", next(s["why"] for s in lesson["steps"]
                                            if s["at"] == at and "why" in s))
            assert ui.actions(page) == at  # the position is unchanged
            assert page.is_visible("#screen .hinted")  # and the coach still shows the way
            objections += 1
        decisions += 1
        _decide(page, ui)
    else:
        pytest.fail("the lesson did not end")
    assert ui.actions(page) == len(lesson["actions"])
    assert notes == sum(1 for s in lesson["steps"] if "note" in s) - 1  # the last is the end's
    assert decisions >= 5 and objections == 1
    assert page.is_visible("#modal #coach")
    assert _words("en", lesson["steps"][-1]["note"]) in page.inner_text("#modal #coach")
    for width, height in ((390, 844), (1366, 768)):
        page.set_viewport_size({"width": width, "height": height})
        ui.screenshot(page, f"coach-{game}-end-{width}")
        # The engine has dealt the next hand already: the lesson ends with its
        # own, so nothing of the table, prompt or log shows behind its words.
        hidden = page.evaluate("""() => {
            const m = document.getElementById('modal'), r = m.getBoundingClientRect();
            const opaque = !/rgba\\(.*, 0?\\.\\d+\\)$/.test(getComputedStyle(m).backgroundColor);
            return opaque && r.left <= 0 && r.top <= 0 && r.right >= innerWidth - 1;
        }""")
        assert hidden, f"the next hand shows behind the lesson's end at {width}"
    page.set_viewport_size({"width": 1366, "height": 900})
    assert page.evaluate(SAVES) == real, "the lesson never touches the real save"
    page.click("#lesson-done")
    page.wait_for_selector("body[data-view=setup]")
    assert page.evaluate("document.body.dataset.lesson") == ""
    assert page.input_value("#f-game") == game
    assert page.evaluate(SAVES) == real
    page.click("[data-cmd=resume]")  # the real game is back on the table, as it was
    page.wait_for_selector(START[game])
    saved = json.loads(real[f"jhg.save.{game}"])
    assert ui.actions(page) == len(saved["transcript"]["actions"])


@pytest.mark.parametrize("game", list(START))
def test_the_bubble_is_in_view_and_never_covers_the_hand(page, ui, game):
    """At each size, from the lesson's start: the coach's words are on screen
    (scrolled to on a phone) and the bubble lies clear of the person's hand."""
    for width, height in ((390, 844), (1366, 768)):
        page.set_viewport_size({"width": width, "height": height})
        ui.open_site(page, f"?game={game}&speed=instant&lang=en")
        page.click("#lesson")
        page.wait_for_selector(f"body[data-lesson='{game}']")
        page.click("#coach-next")
        page.wait_for_function(SETTLED)
        page.wait_for_function("document.body.dataset.toAct === 'me'")
        bubble = page.locator("#coach").bounding_box()
        hand = page.locator(".hand.mine, .dr-hand").first.bounding_box()
        assert bubble and hand
        assert 0 <= bubble["y"] and bubble["y"] + bubble["height"] <= height
        apart = (bubble["y"] >= hand["y"] + hand["height"]
                 or bubble["y"] + bubble["height"] <= hand["y"]
                 or bubble["x"] >= hand["x"] + hand["width"])
        assert apart, (bubble, hand)
        shots = ui.screenshot(page, f"coach-{game}-{width}").parent
        page.screenshot(path=str(shots / f"coach-{game}-{width}-view.png"))
    page.set_viewport_size({"width": 1366, "height": 900})


def test_a_rules_page_link_opens_the_lesson_in_its_language(page, ui):
    page.goto(page.site_url + "static/rules/dracula.fr.html")
    page.click("a.play.lesson")
    page.wait_for_selector("body[data-lesson=dracula]", timeout=60000)
    assert page.inner_text("#coach-text, #coach .coach-text") == _words(
        "fr", "coach.dracula.welcome")
    assert page.evaluate(SAVES) == {}  # nothing saved
