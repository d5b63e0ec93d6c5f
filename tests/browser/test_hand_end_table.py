"""Behind the end-of-hand window, the hand it sums up (issue 31): the engine
deals the next hand as it scores one, and the table behind the window showed
that next deal (cards in hand, a fresh coffin). It shows the hand just scored
until the person moves on, at a phone's size and a desktop's."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser

SIZES = {"phone": (390, 844), "desktop": (1366, 768)}
GAMES = {
    "werner": ("jekyll-hyde", {"players": 4, "seating": "A", "target": 1000}, 0,
               ".hand.mine .card", "Hand 1 is over"),
    "dracula": ("dracula", {"first_dealer": 1}, 0, ".dr-hand .dc-btn", "Deal 1 of 6 is over"),
}


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("name", GAMES)
def test_the_table_behind_the_end_of_hand_window_shows_the_finished_hand(page, ui, name, size):
    game, options, me, hand, over = GAMES[name]
    page.set_viewport_size(dict(zip(("width", "height"), SIZES[size])))
    ui.resume_save(page, game, ui.save_near_end(game, options, me, 7), "?lang=en&speed=instant")
    assert ui.wait_settled(page) == "modal"
    ui.screenshot(page, f"hand-end-behind-{name}-{size}")
    assert page.inner_text("#prompt") == over
    assert page.locator(hand).count() == 0, "the next hand's cards are on the table"
    if game == "dracula":  # the coffin the deal ended with: nine cards, the scored lines marked
        assert page.locator(".dr-table .coffin .cell .dc").count() == 9
        assert page.locator(".dr-table .coffin .lv.scored").count() == 2
    else:  # the last trick, whole, with its winner
        assert page.locator(".table.jh .centre .played").count() == 4
        assert page.locator(".table.jh .centre .played.win").count() == 1
    page.click("#next-hand")
    page.wait_for_function("document.getElementById('modal').hidden")
    assert page.locator(hand).count() > 0 and page.inner_text("#prompt") != over
