"""A refusal is shown where the person is looking (issue 55, item 1): on a
phone, a card that may not be played was refused in words drawn under Undo
and Hint, below the screen's bottom edge. In every game, at a phone's size
and a desktop's, the refusal lies right under the hand (above Undo and Hint)
and wholly on screen, even when the hand reaches the screen's bottom edge,
and it is in the live region that screen readers read.
"""

from __future__ import annotations

import re

import pytest

pytestmark = pytest.mark.browser
expect = pytest.importorskip("playwright.sync_api").expect
SIZES = [(390, 844), (1366, 768)]

BOX = "el => { const r = el.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; }"


def _werner(page, ui) -> str:
    """On turn to follow, with a card that may not be played: that card."""
    ui.open_site(page, "?lang=en&speed=instant")
    ui.start_game(page, mode="4A", me="0", seed=7, bots="random")
    for _ in range(40):
        assert ui.wait_settled(page) == "me"
        page.wait_for_selector("#hint")
        if page.locator(".hand.mine .card.playable").count() \
                and page.locator(".hand.mine .card:not(.playable)").count():
            return ".hand.mine .card:not(.playable)"
        target = ".card.playable" if page.locator(".card.playable").count() \
            else ".seat.designatable"
        ui.click_and_wait(page, target)
    raise AssertionError("never a card that may not be played: pick another seed")


def _duel(page, ui) -> str:
    """Hyde after the exchange (seed 5), Jekyll's lead to follow: a card that may not."""
    ui.deal(page, "jekyll-vs-hyde", {"jvh_role": "H", "jvh_bot": "random"}, 5,
            "?lang=de&speed=instant")
    ui.wait_settled(page)
    ui.duel_exchange(page)
    assert ui.wait_settled(page) == "me"
    assert page.locator(".hand.mine .cards > .card:not(.playable)").count(), "pick another seed"
    return ".hand.mine .cards > .card:not(.playable)"


def _dracula(page, ui) -> str:
    """A card chosen: a cell it may not go to (it touches no card side by side)."""
    ui.deal(page, "dracula", {"first": "me", "dr_bot": "random"}, 7)
    assert ui.wait_settled(page) == "me"
    ui.click_and_wait(page, "#way-Q")
    assert ui.wait_settled(page) == "me"
    page.click(".dr-hand .dc-btn")
    expect(page.locator(".dr-hand .dc-btn.sel")).to_have_count(1)
    return ".cell:not(.open):not(.full)"


GAMES = {"werner": (_werner, ".hand.mine"), "duel": (_duel, ".hand.mine"),
         "dracula": (_dracula, ".dr-hand")}


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
@pytest.mark.parametrize("game", GAMES)
def test_a_refusal_lies_by_the_hand_on_screen(page, ui, game, size):
    width, height = size
    page.set_viewport_size({"width": width, "height": height})
    reach, hand = GAMES[game]
    refused = reach(page, ui)
    # The person has scrolled as far as the hand's bottom edge (a phone: the
    # most of the table above it); the tapped card stays where it is.
    page.eval_on_selector(hand, "el => el.scrollIntoView({block: 'end'})")
    page.mouse.move(0, 0)
    before = page.evaluate("document.body.dataset.actions")
    page.locator(refused).first.click()
    message = page.locator("#message")
    expect(message).to_have_text(re.compile(r"\S"))
    assert page.evaluate("document.body.dataset.actions") == before, "the tap was not refused"
    assert message.get_attribute("role") == "alert"  # read out as it comes
    ui.screenshot(page, f"refusal-{game}-{width}x{height}")
    page.wait_for_function("document.getAnimations().every(a => a.playState !== 'running'"
                           " || a.effect.getComputedTiming().iterations === Infinity)")
    left, top, right, bottom = page.eval_on_selector("#message", BOX)
    words = message.inner_text()
    assert left >= 0 and top >= 0 and right <= width + 1 and bottom <= height + 1, \
        f"{words!r} is off the screen at {width}x{height}: {(left, top, right, bottom)}"
    hand_top = page.eval_on_selector(hand, BOX)[1]
    tools_top = page.eval_on_selector("#tools", BOX)[1]
    assert hand_top < top < tools_top, \
        f"{words!r} is not between the hand and Undo/Hint: {hand_top}, {top}, {tools_top}"
