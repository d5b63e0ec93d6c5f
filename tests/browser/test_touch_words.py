"""A touch screen's words (issue 55): on a phone played by taps the page says
"tap", not "click", and names no keys, from its start (the browser's
`(pointer: coarse)`) and after a real tap; a key pressed brings the
keyboard's words back. A Chromium context of its own emulates the phone's
touch screen (`(pointer: coarse)`, taps), which the session's one cannot.

Checked in CPython through the real controller and front instead
(tests/test_front_events.py): a desktop's words, "click" and the keys
(test_on_a_touch_screen_the_prompt_says_tap_until_a_keyboard_is_used,
test_on_a_touch_screen_draculas_prompt_names_no_keys: their words before a
touch), and the words kept across a change of language.
"""

from __future__ import annotations

import pytest

expect = pytest.importorskip("playwright.sync_api").expect

pytestmark = pytest.mark.browser

PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}


@pytest.fixture
def device(chromium, site_url):
    """A page of a phone played by touch; fails on a console error."""
    ctx = chromium.new_context(**PHONE)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(f"pageerror: {e}"))
    page.press_or_tap = page.tap  # ui.start deals by a tap, as a phone does (a click is a mouse's)
    page.goto(site_url + "?speed=instant")
    page.wait_for_selector("body[data-state=ready]", timeout=60000)
    yield page
    ctx.close()
    assert not errors, errors


def test_werners_prompt_says_tap_a_player_on_a_touch_screen(device, ui):
    page = device
    ui.start(page, "jekyll-hyde", {"players": "4", "seating": "A", "me": "0"})
    assert ui.wait_settled(page) == "me"
    expect(page.locator("#prompt")).to_contain_text("tap a player to ask for one")
    expect(page.locator("#side")).not_to_contain_text("click")
    ui.screenshot(page, "touch-words-werner-phone")


def test_draculas_prompt_names_keys_only_where_a_keyboard_is_used(device, ui):
    page = device
    ui.start(page, "dracula", {"first": "me"})
    n = ui.actions(page)
    page.tap("#way-Q")
    page.wait_for_function(f"document.body.dataset.actions !== '{n}'")
    assert ui.wait_settled(page) == "me"
    prompt = page.locator("#prompt")
    expect(prompt).to_contain_text("choose a card and a highlighted cell")
    assert "(keys: arrows, Enter, Tab)" not in prompt.inner_text()
    page.tap(".dr-hand .dc-btn")
    expect(prompt).to_contain_text("tap a highlighted cell")
    ui.screenshot(page, "touch-words-dracula-phone")
    page.keyboard.press("Tab")  # a keyboard: its words come back
    expect(prompt).to_contain_text("click a highlighted cell")
