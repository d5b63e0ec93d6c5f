"""Werner's table reads like a physical table (issue 15, items 1, 2, 3 and 5):
the strength legend, the card winning the trick under way, the running totals
on the table, a hand summary that explains the score, and the 3-player change
of soloist announced. Screenshots at phone and desktop size go to SHOTS.
"""

from __future__ import annotations

import re

import pytest

pytestmark = pytest.mark.browser
PHONE, DESKTOP = {"width": 390, "height": 844}, {"width": 1366, "height": 768}
WORDS = {  # what the person reads, per language
    "en": {"winning": "winning", "won": r"Your team (won|lost) this hand|This hand is a draw"},
    "fr": {"winning": "gagne",
           "won": r"Votre équipe a (gagné|perdu) cette donne|Cette donne est nulle"},
}


def _move(page, ui) -> None:
    """One click for the person at the screen: a playable card, else a seat to ask."""
    target = ".card.playable" if page.locator(".card.playable").count() else ".seat.designatable"
    ui.click_and_wait(page, target)


def _inside(page, selector: str) -> bool:
    """Whether `selector` is wholly on screen with the page scrolled to its top."""
    page.evaluate("window.scrollTo(0, 0)")
    page.wait_for_timeout(100)  # the resized page's layout
    box = page.locator(selector).bounding_box()
    size = page.viewport_size
    return (box is not None and box["x"] >= 0 and box["y"] >= 0
            and box["x"] + box["width"] <= size["width"] + 1
            and box["y"] + box["height"] <= size["height"] + 1)


def _totals(page) -> list[int]:
    return [int(x) for x in page.locator(".jh-totals li b").all_inner_texts()]


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_legend_winning_card_totals_and_the_hand_explained(page, ui, lang):
    words = WORDS[lang]
    page.set_viewport_size(DESKTOP)
    ui.open_site(page, f"?lang={lang}&speed=instant")
    ui.start_game(page, mode="4A", me="0", seed=11, bots="random", target="300")
    marked = 0
    for _ in range(120):
        if ui.wait_settled(page) == "modal":
            break
        current = page.locator(".centre > .slot .card.played")  # the trick under way
        if current.count() >= 2:
            # Exactly one card is marked: the engine's winning card, or the
            # Transformation that stops anyone winning.
            mark = page.locator(".centre > .slot .card.winning, .centre > .slot .card.stopper")
            assert mark.count() == 1
            if page.locator(".centre > .slot .card.winning").count():
                label = mark.get_attribute("aria-label")
                assert f"({words['winning']})" in label, label
                assert words["winning"] in page.inner_text(".centre > .slot .mark")
                # Never confused with the gold "playable" highlight.
                assert "playable" not in mark.get_attribute("class")
                if not marked:
                    ui.screenshot(page, f"werner-{lang}-desktop-winning")
                    page.set_viewport_size(PHONE)
                    for part in (".jh-totals", ".jh-legend", ".centre .card.winning"):
                        assert _inside(page, part), part
                    ui.screenshot(page, f"werner-{lang}-phone-winning")
                    page.set_viewport_size(DESKTOP)
                marked += 1
        legend = page.inner_text(".jh-legend")
        assert re.search(r"A\s*›\s*B\s*›\s*C\s*›\s*D\s*›\s*E", legend), legend
        assert _totals(page) == [0, 0]
        _move(page, ui)
    else:
        pytest.fail("the hand did not end")
    assert marked, "no trick under way with a winning card was seen"

    # The summary says what each team took, its multipliers, the product, who won.
    summary = page.locator("#modal")
    assert summary.locator(".jh-team").count() == 2
    assert summary.locator(".jh-team.mine").count() == 1  # the person's team, first
    assert re.search(words["won"], page.inner_text("#modal .jh-outcome"))
    scores = [int(x) for x in summary.locator(".jh-team h3 b").all_inner_texts()]
    for team in summary.locator(".jh-team").all():
        text = team.inner_text()
        assert "×" in text and "=" in text, text
    ui.screenshot(page, f"werner-{lang}-desktop-summary")
    page.set_viewport_size(PHONE)
    ui.screenshot(page, f"werner-{lang}-phone-summary")
    page.set_viewport_size(DESKTOP)
    page.click("#next-hand")
    page.wait_for_selector("#modal", state="hidden")
    ui.wait_settled(page)  # the bots' first moves of the next hand redraw the table
    # The totals on the table now hold the hand's scores (mine first in the summary,
    # Jekyll first on the table: the person plays Jekyll at seat 0).
    assert _totals(page) == scores
    page.set_viewport_size(PHONE)
    assert _inside(page, ".jh-totals")


def test_three_players_announce_the_new_soloist(page, ui):
    page.set_viewport_size(DESKTOP)
    ui.open_site(page, "?lang=en&speed=instant")
    ui.start_game(page, mode="3", me="1", seed=4, bots="random", target="1000")
    for _ in range(120):
        if ui.wait_settled(page) == "modal":
            break
        _move(page, ui)
    else:
        pytest.fail("the hand did not end")
    summary = page.inner_text("#modal")
    # Betty (left of Mr. Hyde in hand 1) lost or won with Jekyll; Christian, who sat
    # on the soloist's right, plays Mr. Hyde next.
    assert "Each player scores for themselves" in summary
    assert "Next hand: Christian plays Mr. Hyde" in page.inner_text(".jh-next-soloist")
    ui.screenshot(page, "werner-3p-summary")
    page.click("#next-hand")
    page.wait_for_selector("#modal", state="hidden")
    ui.wait_settled(page)
    assert "Christian is now Mr. Hyde" in page.inner_text("#side")
    if not page.locator(".centre > .slot").count():  # until the first card lies
        assert "Christian is now Mr. Hyde" in page.inner_text(".centre .banner")
    totals = page.locator(".jh-totals li")
    assert totals.count() == 3 and "(you)" in page.locator(".jh-totals li.mine").get_attribute(
        "title")
