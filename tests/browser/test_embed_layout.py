"""Embedded examples (issue 15, item 12):

- at the README's iframe size, and in the rules pages' own frames, the caption
  has its own room below the table and never covers the hand (boxes measured);
- one viewpoint per example: every seat stays on its side at every step, and
  the watched seat is never called "you";
- a rules page opened as a file (file://) says in each frame how to serve the
  site, with no page error and no blocked request.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytestmark = pytest.mark.browser
ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = sorted((ROOT / "static" / "scenarios").glob("*/*.json"))
HAND = ".hand.mine, .dr-hand"
# Each seat's side of the table: Werner's seats, the duel's, Dracula's plates.
SIDES = """() => [...document.querySelectorAll(
    '.seat[data-seat], .jvh-seat, .dr-table .plate[data-player]')].map(e => {
  const id = e.dataset.seat || e.dataset.player || (e.className.match(/role-[JH]/) || [''])[0];
  const side = (e.className.match(/\\b(p-\\w+|me|opp|bot)\\b/) || [''])[0];
  return id + ':' + side; }).sort()"""


def _readme_frame() -> dict:
    """The iframe size the README shows (max-width and height, in rem of 16px)."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    m = re.search(r"<iframe .*?max-width: ([\d.]+)rem; height: ([\d.]+)rem", text, re.S)
    assert m, "no iframe size in README.md"
    return {"width": round(float(m.group(1)) * 16), "height": round(float(m.group(2)) * 16)}


def _apart(frame, where: str) -> None:
    """The caption bar and the hand do not overlap, and the hand is inside the frame."""
    bar = frame.locator("#ex-bar").bounding_box()
    hand = frame.locator(HAND).first.bounding_box()
    assert bar and hand, where
    assert hand["y"] + hand["height"] <= bar["y"] + 0.5, (where, hand, bar)
    assert hand["y"] >= 0, (where, hand)


def _no_you(frame, where: str) -> None:
    names = " ".join(frame.locator(".seat .who, .jvh-seat .plate, .dr-table .plate .who")
                     .all_inner_texts())
    assert "(you)" not in names and "You" not in names.split(), (where, names)


@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_example_at_readme_size_keeps_hand_clear_and_one_viewpoint(page, scenario):
    page.set_viewport_size(_readme_frame())
    game, name = scenario.parent.name, scenario.stem
    page.goto(page.site_url + f"embed.html?game={game}&scenario={name}&lang=en")
    page.wait_for_selector("body[data-state=ready][data-view=scenario]", timeout=60000)
    sides, steps = None, 0
    while True:
        step = page.get_attribute("body", "data-step")
        where = f"{game}/{name} step {step}"
        seen = page.evaluate(SIDES)
        assert seen, where
        sides = sides or seen
        assert seen == sides, (where, seen, sides)  # nobody changed sides
        _no_you(page, where)
        if not page.locator(".ex-summary").count():  # a hand's summary may scroll
            _apart(page, where)
            steps += 1
        if page.is_disabled("#ex-next"):
            break
        page.click("#ex-next")
        page.wait_for_selector(f"body:not([data-step='{step}'])")
    assert steps >= 2


@pytest.mark.parametrize("game", ["jekyll-hyde", "jekyll-vs-hyde", "dracula"])
def test_rules_page_frames_keep_the_hand_clear(page, game):
    page.set_viewport_size({"width": 1000, "height": 900})
    page.goto(page.site_url + f"static/rules/{game}.en.html")
    frames = page.locator("figure.example iframe")
    assert frames.count()
    for i in range(frames.count()):
        frames.nth(i).scroll_into_view_if_needed()
        frame = page.frame_locator("figure.example iframe").nth(i)
        frame.locator("body[data-state=ready][data-view=scenario]").wait_for(timeout=60000)
        _apart(frame, f"{game} frame {i}")
        _no_you(frame, f"{game} frame {i}")


def test_rules_page_opened_as_a_file_says_how_to_serve_it(browser_context, built_site):
    page = browser_context.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda e: problems.append(f"pageerror: {e}"))
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("requestfailed", lambda r: problems.append(f"failed: {r.url}"))
    try:
        page.goto((built_site / "static" / "rules" / "jekyll-hyde.en.html").as_uri())
        frames = page.locator("figure.example iframe")
        assert frames.count() == 3
        for i in range(frames.count()):
            frame = page.frame_locator("figure.example iframe").nth(i)
            frame.locator("body[data-state=ready][data-view=error]").wait_for(timeout=30000)
            text = frame.locator("#ex-error").inner_text()
            assert "web server" in text and "python -m game serve" in text, text
            assert frame.locator("#loader").count() == 0
            assert frame.locator("#ex-bar").is_hidden()
        page.wait_for_timeout(500)  # anything late
    finally:
        page.close()
    assert not problems, problems
