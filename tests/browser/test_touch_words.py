"""A touch screen's words (issue 55): on a phone played by taps the page says
"tap", not "click", and names no keys; on a desktop with a mouse it keeps
"click" and the keys. A Chromium context of its own emulates the phone's
touch screen (`(pointer: coarse)`, taps), which the session's one cannot.
"""

from __future__ import annotations

import pytest

expect = pytest.importorskip("playwright.sync_api").expect

pytestmark = pytest.mark.browser

PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
DESKTOP = {"viewport": {"width": 1366, "height": 768}}


@pytest.fixture(params=["phone", "desktop"])
def device(request, chromium, site_url):
    """A page of a phone played by touch, or of a desktop with a mouse; fails
    on a console error."""
    ctx = chromium.new_context(**(PHONE if request.param == "phone" else DESKTOP))
    page = ctx.new_page()
    errors: list[str] = []
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(f"pageerror: {e}"))
    page.touch = request.param == "phone"
    page.press_or_tap = page.tap if page.touch else page.click
    page.goto(site_url + "?speed=instant")
    page.wait_for_selector("body[data-state=ready]", timeout=60000)
    yield page
    ctx.close()
    assert not errors, errors


def test_werners_prompt_says_tap_a_player_on_a_touch_screen(device, ui):
    page = device
    ui.start(page, "jekyll-hyde", {"players": "4", "seating": "A", "me": "0"})
    assert ui.wait_settled(page) == "me"
    prompt = page.locator("#prompt")
    if page.touch:
        expect(prompt).to_contain_text("tap a player to ask for one")
        expect(page.locator("#side")).not_to_contain_text("click")
    else:
        expect(prompt).to_contain_text("click a player to ask for one")
    ui.screenshot(page, f"touch-words-werner-{'phone' if page.touch else 'desktop'}")


def test_draculas_prompt_names_keys_only_where_a_keyboard_is_used(device, ui):
    page = device
    ui.start(page, "dracula", {"first": "me"})
    n = ui.actions(page)
    page.press_or_tap("#way-Q")
    page.wait_for_function(f"document.body.dataset.actions !== '{n}'")
    assert ui.wait_settled(page) == "me"
    prompt = page.locator("#prompt")
    expect(prompt).to_contain_text("choose a card and a highlighted cell")
    keys = "(keys: arrows, Enter, Tab)"
    if page.touch:
        assert keys not in prompt.inner_text()
        page.tap(".dr-hand .dc-btn")
        expect(prompt).to_contain_text("tap a highlighted cell")
        ui.screenshot(page, "touch-words-dracula-phone")
        page.keyboard.press("Tab")  # a keyboard: its words come back
        expect(prompt).to_contain_text("click a highlighted cell")
    else:
        expect(prompt).to_contain_text(keys)
        ui.screenshot(page, "touch-words-dracula-desktop")
