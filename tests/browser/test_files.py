"""Games as files in headless Chromium (issue 16, item 3): "Download this game"
(Playwright's download event) gives a file that `python -m game replay` reads
to the page's own state; "Open a game file" shows a malformed file's one
message (those the browser reads in its own way) and leaves the game in
progress and its save as they were, byte for byte; a valid file continues
against bots from step N, asking first when the game's save would be
overwritten (the panel's keys: Tab round it, a key typed in its field); a
file opens in the review; screenshots of the panels.

Under CPython (tests/test_web_files.py): every malformed file's message in
every language, a download's replay, continuing from step N, a file of a
game without a save continued without a question, a file continued during
a lesson; tests/test_web_page.py and tests/test_web_page_values.py: the
question before a save is overwritten, through the real controller.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest

from game.core.transcript import Transcript
from tests.page_kit import random_transcript
from tests.test_web_files import malformed_files

pytestmark = pytest.mark.browser
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1366, "height": 768}
STORAGE = "JSON.stringify(Object.keys(localStorage).sort().map(k => [k, localStorage.getItem(k)]))"


def _download(page, tmp_path, button: str = "#file-download") -> tuple[str, object]:
    """Press "Download this game": (the file's name, its path on disk)."""
    with page.expect_download() as info:
        page.click(button)
    download = info.value
    path = tmp_path / download.suggested_filename
    download.save_as(str(path))
    return download.suggested_filename, path


def _replay(path) -> dict:
    run = subprocess.run([sys.executable, "-m", "game", "replay", str(path)],
                         capture_output=True, text=True, check=True)
    return json.loads(run.stdout)


def _open(page, name: str, raw: bytes, button: str = "#file-open") -> None:
    """Choose a file through the chooser the button opens; wait for the panel."""
    with page.expect_file_chooser() as chooser:
        page.click(button)
    chooser.value.set_files(files=[{"name": name, "mimeType": "application/json",
                                    "buffer": raw}])
    page.wait_for_selector("#file-panel:not([hidden]) .sheet")


def _settled(page) -> None:
    page.wait_for_function(
        "document.body.dataset.toAct !== 'bot' || !document.getElementById('modal').hidden",
        timeout=60000)


def test_a_game_downloaded_mid_way_replays_to_the_pages_state(page, ui, tmp_path):
    ui.open_site(page, "?speed=instant&lang=en")
    ui.start_game(page, seed=7)
    for _ in range(2):
        assert ui.wait_settled(page) == "me"
        ui.click_and_wait(page, ".hand.mine .card.playable")
    ui.wait_settled(page)
    name, path = _download(page, tmp_path)
    assert re.fullmatch(r"jekyll-hyde-deal-7-\d{4}-\d\d-\d\d\.json", name)
    save = json.loads(ui.saved(page, "jekyll-hyde"))
    assert len(save["transcript"]["actions"]) >= 2
    assert _replay(path) == save["state"]
    assert json.loads(path.read_text(encoding="utf-8"))["me"] == 0


@pytest.mark.parametrize("game", ["dracula"])
def test_a_file_continues_from_step_n_and_downloads_again(page, ui, tmp_path, game):
    """The file's first N actions are the position on the table; the game
    then played on by the bots, finished or not, downloads and replays to the
    page's state. (Each game's continued position and its download's replay:
    tests/test_web_files.py, under CPython.)"""
    whole = random_transcript(game, 13)
    step = next(n for n in range(len(whole["actions"]) // 2, len(whole["actions"]))
                if Transcript.from_json(dict(whole, actions=whole["actions"][:n])).replay()
                .to_act is not None)
    at_step = Transcript.from_json(dict(whole, actions=whole["actions"][:step])).replay()
    me = at_step.identity(at_step.to_act)  # the person is on turn at step N
    data = dict(whole, me=me)
    ui.open_site(page, "?speed=instant&lang=en")
    _open(page, f"{game}.json", json.dumps(data).encode())
    assert page.input_value("#file-step") == str(len(whole["actions"]))
    facts = page.inner_text(".file-facts")
    assert str(len(whole["actions"])) in facts and "(you)" in facts
    page.fill("#file-step", str(step))
    page.click("[data-cmd=file-continue]")
    page.wait_for_selector("body[data-view=table]")
    assert page.is_hidden("#file-panel")
    save = json.loads(ui.saved(page, game))
    assert save["transcript"]["actions"] == whole["actions"][:step]
    assert save["state"] == at_step.to_json() and save["setup"]["me"] == me
    assert page.evaluate("document.body.dataset.toAct") == "me"
    assert f"Continued from step {step}" in page.inner_text("#message")
    _, path = _download(page, tmp_path)
    assert _replay(path) == json.loads(ui.saved(page, game))["state"]
    # The same file from its last step: the game is over, and downloads as it ended.
    _open(page, f"{game}.json", json.dumps(data).encode(), "#file-open-table")
    page.click("[data-cmd=file-continue]")
    page.wait_for_selector("#file-panel [data-cmd=file-replace]")  # a save would go
    page.click("[data-cmd=file-replace]")
    page.wait_for_selector("body[data-to-act=over]")
    _, path = _download(page, tmp_path, "#file-download-final")  # the end's summary
    final = _replay(path)
    assert final == json.loads(ui.saved(page, game))["state"] and final["over"]
    assert final == Transcript.from_json(whole).replay().to_json()


# The malformed files whose bytes the browser itself reads differently (none, a
# megabyte past the limit that is never read, deep nesting, binary, UTF-16) and
# one refused by the game's rules; every one of malformed_files() gets its
# message under CPython (tests/test_web_files.py).
READ_BY_THE_BROWSER = ("empty.json", "huge.json", "nested.json", "picture.json", "utf16.json",
                       "illegal.json")


def test_malformed_files_get_their_message_and_touch_nothing(page, ui):
    ui.open_site(page, "?speed=instant&lang=en")
    ui.start_game(page, seed=7)
    assert ui.wait_settled(page) == "me"
    stored = page.evaluate(STORAGE)
    assert "jhg.save.jekyll-hyde" in stored
    drawn = page.inner_html("#screen")
    malformed = [case for case in malformed_files() if case[0] in READ_BY_THE_BROWSER]
    assert len(malformed) == len(READ_BY_THE_BROWSER)
    for number, (name, raw, message) in enumerate(malformed):
        _open(page, name, raw, "#file-open-table")
        assert page.inner_text("#file-title") == f"“{name}” cannot be opened"
        assert page.inner_text("#file-message") == message, name
        assert page.evaluate("document.activeElement.dataset.cmd") == "file-close"
        page.keyboard.press("Tab")  # the dialog keeps the focus
        assert page.evaluate("document.activeElement.dataset.cmd") == "file-close"
        if number % 2:
            page.keyboard.press("Escape")
        else:
            page.click("[data-cmd=file-close]")
        # Closing is the worker's answer, a frame that arrives a moment later.
        page.wait_for_selector("#file-panel", state="hidden")
        # The focus is back where it was: the table's button that opened the file.
        assert page.evaluate("document.activeElement.id") == "file-open-table"
        assert page.evaluate(STORAGE) == stored, name
    assert page.inner_html("#screen").replace(' tabindex="-1"', "") == \
        drawn.replace(' tabindex="-1"', "")


def test_continuing_asks_before_the_games_save_is_overwritten(page, ui):
    ui.open_site(page, "?speed=instant&lang=fr")
    ui.start_game(page, seed=7)
    assert ui.wait_settled(page) == "me"
    ui.click_and_wait(page, ".hand.mine .card.playable")  # a decision Undo could take back
    ui.wait_settled(page)
    assert page.is_enabled("#undo")
    stored = page.evaluate(STORAGE)
    data = random_transcript("jekyll-hyde", 21, 9, me=1)
    _open(page, "partie.json", json.dumps(data).encode(), "#file-open-table")
    assert page.evaluate("document.activeElement.dataset.cmd") == "file-continue"
    page.keyboard.press("Tab")  # the step field, Continue, Review, Close, and round again
    assert page.evaluate("document.activeElement.dataset.cmd") == "file-review"
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.dataset.cmd") == "file-close"
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "file-step"
    page.keyboard.press("Shift+Tab")
    assert page.evaluate("document.activeElement.dataset.cmd") == "file-close"
    page.focus("#file-step")
    page.keyboard.press("u")  # typed in the panel: never the table's Undo
    page.fill("#file-step", "99")  # beyond the file: said so, nothing else
    page.press("#file-step", "Enter")
    assert "de 0 à 9" in page.inner_text("#file-step-error")
    page.fill("#file-step", "4")
    page.click("[data-cmd=file-continue]")
    assert "sera remplacée" in page.inner_text("#file-message")
    page.click("[data-cmd=file-keep]")  # back to the panel; nothing written
    assert page.evaluate(STORAGE) == stored
    assert page.input_value("#file-step") == "4"
    page.click("[data-cmd=file-continue]")
    page.click("[data-cmd=file-replace]")
    page.wait_for_selector("#file-panel", state="hidden")
    save = json.loads(ui.saved(page, "jekyll-hyde"))
    assert save["transcript"]["actions"][:4] == data["actions"][:4]
    assert save["transcript"]["seed"] == 21 and save["setup"]["me"] == 1 and save["from_file"]


def test_a_file_opens_in_the_review_and_leaves_everything_as_it_was(page, ui):
    ui.open_site(page, "?speed=instant")
    ui.start_game(page, seed=7)
    ui.wait_settled(page)
    before = page.evaluate(STORAGE)
    _open(page, "dracula.json", json.dumps(random_transcript("dracula", 4, 6)).encode(),
          "#file-open-table")
    page.click("[data-cmd=file-review]")
    page.wait_for_selector("#review .dr-table")
    assert page.is_hidden("#file-panel")
    assert page.evaluate("document.getElementById('review').dataset.step") == "0"
    page.keyboard.press("End")
    page.wait_for_function("document.getElementById('review').dataset.step === '6'")
    page.keyboard.press("Escape")
    page.wait_for_selector("#review", state="hidden")
    assert page.evaluate(STORAGE) == before
    assert page.locator(".table.jh").count() or page.locator("#screen .hand.mine").count()


def test_screenshots_of_the_panels(page, ui):
    for size, tag in ((PHONE, "phone"), (DESKTOP, "desktop")):
        page.set_viewport_size(size)
        ui.open_site(page, "?speed=instant&lang=en&game=jekyll-vs-hyde")
        ui.screenshot(page, f"files-start-{tag}")
        data = random_transcript("jekyll-vs-hyde", 8, me="H")
        _open(page, "jekyll-vs-hyde-deal-8-2026-11-25.json", json.dumps(data).encode())
        ui.screenshot(page, f"files-panel-{tag}")
        page.click("[data-cmd=file-close]")
        name, raw, _ = malformed_files()[10]
        _open(page, name, raw)
        ui.screenshot(page, f"files-problem-{tag}")
        page.click("[data-cmd=file-close]")
        _open(page, "j.json", json.dumps(random_transcript("jekyll-vs-hyde", 8, 12, me="J")).encode())
        page.click("[data-cmd=file-continue]")
        page.wait_for_selector("body[data-view=table]")
        _settled(page)
        ui.screenshot(page, f"files-table-{tag}")
        _open(page, "j.json", json.dumps(random_transcript("jekyll-vs-hyde", 8, 12, me="J")).encode(),
              "#file-open-table")
        page.click("[data-cmd=file-continue]")
        page.wait_for_selector("[data-cmd=file-replace]")
        ui.screenshot(page, f"files-confirm-{tag}")
        page.click("[data-cmd=file-keep]")
        page.click("[data-cmd=file-close]")
