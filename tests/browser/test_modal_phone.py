"""The end-of-hand window on a phone (issue 31, item 7): it covers the page
(nothing behind it scrolls into sight at full brightness) and its buttons are
in sight without scrolling, in the longest summary: 3 players, in French."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser

COVERED = """() => {
  const modal = document.getElementById('modal');
  const points = [];
  for (const x of [5, innerWidth / 2, innerWidth - 5])
    for (const y of [5, innerHeight / 2, innerHeight - 5])
      points.push(modal.contains(document.elementFromPoint(x, y)));
  return {page: document.documentElement.scrollHeight <= innerHeight + 1,
          covered: points.every(Boolean)};
}"""

IN_SIGHT = """sel => {
  const el = document.querySelector(sel), sheet = el.closest('.sheet');
  const r = el.getBoundingClientRect(), s = sheet.getBoundingClientRect();
  const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return r.top >= s.top && r.bottom <= s.bottom && r.bottom <= innerHeight && r.top >= 0
    && el.contains(top);
}"""


@pytest.mark.parametrize("game,options,me", [
    ("jekyll-hyde", {"players": 3}, 1),
    ("jekyll-hyde", {"players": 4, "target": 150}, 0),
    ("dracula", {"first_dealer": 1}, 0),
])
def test_end_of_hand_window_covers_the_phone_and_its_buttons_need_no_scrolling(
        page, ui, game, options, me):
    page.set_viewport_size({"width": 390, "height": 844})
    ui.resume_save(page, game, ui.save_near_end(game, options, me, 7), "?lang=fr")
    assert ui.wait_settled(page) == "modal"
    page.wait_for_selector("#review-open")
    ui.screenshot(page, f"modal-phone-{game}-{options.get('players', 2)}-fr")
    # Nothing of the page reaches past the window: no scrolling to it, by hand or
    # in a screenshot of the whole page.
    seen = page.evaluate(COVERED)
    assert seen == {"page": True, "covered": True}, seen
    page.mouse.move(5, 5)
    page.mouse.wheel(0, 3000)
    assert page.evaluate("window.scrollY") == 0
    page.evaluate("document.querySelector('#modal .sheet').scrollTop = 0")
    for button in ("#next-hand", "#review-open", "#analyse-open"):
        assert page.evaluate(IN_SIGHT, button), f"{button} needs scrolling to be seen"
