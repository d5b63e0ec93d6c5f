"""Hand analysis in headless Chromium: what only a browser shows. A deal
finished by the page, "Analyse this deal" on its summary, the progress,
then the marks and the summary on screen at phone and desktop size, beside
or below the review's table and never over it; a costly decision's button
shows the person's choice beside the expert's. The page's real budget: the
time to the first verdict and to the whole deal is printed (the figures
with the load are in benchmarks/RESULTS.md)."""

from __future__ import annotations

import os
import time

import pytest

from tests.browser.test_axe import AXE, RUN

pytestmark = pytest.mark.browser


def _inside(inner: dict, outer: dict) -> bool:
    return (inner["x"] >= outer["x"] - 1 and inner["y"] >= outer["y"] - 1
            and inner["x"] + inner["width"] <= outer["x"] + outer["width"] + 1
            and inner["y"] + inner["height"] <= outer["y"] + outer["height"] + 1)


def _apart(a: dict, b: dict) -> bool:
    return (a["x"] + a["width"] <= b["x"] + 1 or b["x"] + b["width"] <= a["x"] + 1
            or a["y"] + a["height"] <= b["y"] + 1 or b["y"] + b["height"] <= a["y"] + 1)


@pytest.mark.parametrize("size", [(390, 844), (1366, 768)], ids=["phone", "desktop"])
def test_the_marks_and_the_summary_are_on_screen_beside_the_table(page, ui, size):
    page.set_viewport_size({"width": size[0], "height": size[1]})
    ui.resume_save(page, "dracula", ui.save_near_end("dracula", {"first_dealer": 1}, 0, 12))
    assert ui.wait_settled(page) == "modal"  # the bot's last move ended the deal
    started = time.monotonic()
    page.click("#analyse-open")
    page.wait_for_selector("dialog#review[open] #rv-progress")
    assert " of " in page.inner_text("#rv-progress") and page.is_visible("#rv-cancel")
    page.wait_for_selector("#rv-analysis .rv-mark", timeout=60000)
    first = time.monotonic() - started
    page.wait_for_selector("#rv-cancel", state="detached", timeout=180000)
    whole = time.monotonic() - started
    print(f"\n{size[0]}x{size[1]}: first verdict on screen {first:.1f} s, the whole deal "
          f"{whole:.1f} s (load {os.getloadavg()[0]:.1f})")
    marks = page.locator("#rv-analysis .rv-mark")
    assert marks.count() >= 2
    for i in range(marks.count()):  # each a button named by its verdict in words
        label = marks.nth(i).get_attribute("aria-label") or ""
        assert any(v in label for v in ("fine", "inaccuracy", "mistake", "blunder")), label
    costly = page.locator("#rv-analysis .rv-costly")
    jump = costly.first if costly.count() else marks.first
    jump.click()
    page.wait_for_selector("#rv-compare")
    assert page.evaluate("document.activeElement.closest('#rv-analysis') !== null")
    print(ui.screenshot(page, f"t-after-analysis-dracula-{size[0]}"))
    screen = page.locator("#rv-screen").bounding_box()
    panel = page.locator("#rv-analysis").bounding_box()
    view = {"x": 0, "y": 0, "width": size[0], "height": size[1]}
    assert screen and panel and _apart(screen, panel)  # the analysis never covers the table
    assert screen["height"] >= size[1] * 0.35  # and leaves the table room
    assert _inside(panel, view) and _inside(page.locator("#ex-next").bounding_box(), view)
    box = page.locator("#rv-compare").bounding_box()  # the costly decision's, in view
    assert box and _inside(box, panel)
    for sel in ("#rv-accuracy", "#rv-analysis .rv-mark"):  # each on screen in the part
        page.locator(sel).first.scroll_into_view_if_needed()
        box = page.locator(sel).first.bounding_box()
        assert box and _inside(box, page.locator("#rv-analysis").bounding_box()), sel
    assert _apart(page.locator("#rv-screen").bounding_box(),
                  page.locator("#rv-analysis").bounding_box())
    if AXE.is_file():  # the verdicts as screen readers get them (tests/browser/test_axe.py's run)
        page.evaluate(AXE.read_text(encoding="utf-8"))
        assert page.evaluate(RUN)["violations"] == []
