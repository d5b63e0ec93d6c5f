"""A friend at an online table analyses their own round in a real browser
(the host and a guest in separate contexts of one Chromium, through the
local relay, as tests/browser/test_online_play.py joins them): at the duel
round's summary the guest presses "Analyse this round", its own page's
worker judges each of its decisions (the progress, then every verdict under
the summary, the accuracy, the words on the missing hindsight line), and
the dialog keeps its scroll while verdicts arrive (that nothing crosses the
wire for it is tests/test_online_guest_analysis.py's). axe finds no violation on it. Screenshots (SCREENSHOTS)
of the guest's analysis at phone and desktop size; the time to the whole
round is printed."""

from __future__ import annotations

import os
import time

import pytest

from tests.browser.test_axe import Axe, axe_source  # noqa: F401 (a fixture)
from tests.browser.online_pages import SHOTS, SIZES
from tests.browser.test_online_play import host_and_guests, play

pytestmark = pytest.mark.browser


def test_a_guest_analyses_its_duel_round_on_its_own_page(people, site_url, axe_source):
    host, (guest,) = host_and_guests(people, site_url, "jekyll-vs-hyde",
                                     {"jvh_role": "J", "jvh_bot": "random"})
    host.page.click("#online-start")
    guest.page.wait_for_selector("#online-bar", timeout=30000)
    play(host, [guest], lambda: guest.page.locator("#modal #next-hand").count() > 0)
    page = guest.page
    assert "Round 1 is over" in page.inner_text("#modal")
    started = time.monotonic()
    page.click("#modal #analyse-open")
    page.wait_for_selector("#modal #ga-progress")
    assert " of " in page.inner_text("#ga-progress") and page.is_visible("#ga-cancel")
    page.wait_for_selector("#modal .ga-decisions .rv-compare", timeout=60000)
    first = time.monotonic() - started
    # Scrolled down to the verdicts, the dialog stays there as more come in.
    verdicts = "#modal .ga-decisions .rv-compare"
    more = ("n => document.querySelectorAll('#modal .ga-decisions .rv-compare').length > n"
            " || !document.getElementById('ga-cancel')")
    page.wait_for_function(more, arg=1, timeout=60000)
    sheet = "document.querySelector('#modal .sheet')"
    page.evaluate(f"{sheet}.scrollTop = {sheet}.scrollHeight")
    low = page.evaluate(f"{sheet}.scrollTop")
    if page.locator("#ga-cancel").count():
        page.wait_for_function(more, arg=page.locator(verdicts).count(), timeout=60000)
        assert low > 0 and page.evaluate(f"{sheet}.scrollTop") >= low - 2
    page.wait_for_selector("#ga-cancel", state="detached", timeout=240000)
    whole = time.monotonic() - started
    print(f"\nthe guest's round: first verdict {first:.1f} s, the whole round {whole:.1f} s "
          f"(load {os.getloadavg()[0]:.1f})")
    text = page.inner_text("#modal #ga-analysis")
    assert "Accuracy" in text and "this device knows only what you saw" in text
    assert "With hindsight" not in text
    judged = page.locator(verdicts)
    assert judged.count() >= 3
    for i in range(judged.count()):
        said = judged.nth(i).inner_text()
        assert "You:" in said and "The expert:" in said, said
    Axe(page, axe_source).check("a guest's analysis of its round")
    SHOTS.mkdir(parents=True, exist_ok=True)
    for size, (width, height) in SIZES.items():
        page.set_viewport_size({"width": width, "height": height})
        for part, where in (("", "#ga-analysis-head"), ("-end", "#ga-accuracy")):
            page.locator(where).scroll_into_view_if_needed()
            path = SHOTS / f"online-guest-analysis{part}-{size}.png"
            page.screenshot(path=str(path))
            print(path)
    page.click("#modal #next-hand")
    page.wait_for_selector("#modal", state="hidden")
