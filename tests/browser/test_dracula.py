"""Dracula in headless Chromium: the way choice, a whole deal by clicks (a
card then a cell, or a cell then a card), a refused click, keyboard placement,
the deal's result and the score sheet (the click and key wiring); Enter on a
card takes the real focus to a cell in sight; the bot dealing first in French
and a reload from the browser's storage; the badges' key opening on the
table; the table fitting the screen on the person's turn.

The game-over summary (the bonus, the tie rule) and the table behind a deal's
summary are checked in CPython through the real controller and front:
tests/test_web_dracula.py.

The `page` fixture (conftest.py) also fails a test on any console error or
any request to another host.
"""

from __future__ import annotations

import json

import pytest

# The page answers a click when the game's worker has drawn it: a few ms later.
expect = pytest.importorskip("playwright.sync_api").expect

pytestmark = pytest.mark.browser
SEED = 12
SETTLED = "document.body.dataset.toAct !== 'bot' || !document.getElementById('modal').hidden"


def _settle(page) -> str:
    page.wait_for_function(SETTLED, timeout=30000)
    return "modal" if not page.is_hidden("#modal") else page.evaluate("document.body.dataset.toAct")


def _actions(page) -> int:
    return int(page.evaluate("document.body.dataset.actions"))


def _coffin(page) -> list[str]:
    """The placed cards as `card@cell`."""
    return page.eval_on_selector_all(
        ".dr-table .coffin .cell .dc",
        "els => els.map(e => e.dataset.card + '@' + e.closest('.cell').dataset.cell)")


def _hand(page) -> list[str]:
    return page.eval_on_selector_all(".dr-hand .dc-btn", "els => els.map(e => e.dataset.card)")


def _place_by_clicks(page, cell_first: bool = False) -> str:
    card = _hand(page)[0]
    cell = page.get_attribute(".cell.open", "data-cell")
    n = _actions(page)
    first, second = f'.dr-hand .dc-btn[data-card="{card}"]', f'.cell[data-cell="{cell}"]'
    if cell_first:
        first, second = second, first
    page.click(first)
    expect(page.locator(first)).to_have_attribute("aria-pressed", "true")
    page.click(second)
    page.wait_for_function(f"document.body.dataset.actions !== '{n}'")
    return f"{card}@{cell}"


def _shot(page, ui, name: str) -> None:
    ui.screenshot(page, f"dracula-desktop-{name}")
    page.set_viewport_size({"width": 390, "height": 844})
    ui.screenshot(page, f"dracula-phone-{name}")
    page.set_viewport_size({"width": 1366, "height": 900})


def test_a_whole_deal_by_clicks_and_keys(page, ui):
    ui.deal(page, "dracula", {"first": "me", "dr_bot": "random"}, SEED, "?speed=instant",
            table=".dr-table")
    # The first dealer chooses the way; the bot (non-dealer) then places first.
    assert page.is_visible("#way-Q") and page.is_visible("#way-K")
    _shot(page, ui, "way")
    n = _actions(page)
    page.click("#way-Q")
    page.wait_for_function(f"document.body.dataset.actions !== '{n}'")
    assert _settle(page) == "me"
    assert "rows" in page.inner_text(".plate.me") and "columns" in page.inner_text(".plate.bot")
    assert len(_coffin(page)) == 2 and len(_hand(page)) == 4
    assert page.locator(".lv.me").count() == 3 and page.locator(".lv.bot").count() == 3

    # A cell may be picked first: the prompt then asks for the card; Escape
    # lets it go. A card on a cell that touches no card side by side is refused.
    before = (_actions(page), _hand(page), _coffin(page))
    cell = page.get_attribute(".cell.open", "data-cell")
    page.click(".cell.open")
    expect(page.locator(f'.cell[data-cell="{cell}"]')).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#prompt")).to_contain_text("choose the card to place there")
    assert page.locator(".cell.open").count() == 0  # the other cells wait for the card
    _shot(page, ui, "cell-picked")
    page.keyboard.press("Escape")
    expect(page.locator(f'.cell[data-cell="{cell}"]')).to_have_attribute("aria-pressed", "false")
    expect(page.locator("#prompt")).to_contain_text("either order")
    far = page.eval_on_selector_all(
        ".cell:not(.open):not(.full)", "els => els.map(e => e.dataset.cell)")
    assert far, "every empty cell is open"
    page.click(".dr-hand .dc-btn")
    expect(page.locator(".dr-hand .dc-btn.sel")).to_have_count(1)
    assert page.get_attribute(".dr-hand .dc-btn.sel", "title") in page.inner_text("#prompt")
    page.click(f'.cell[data-cell="{far[0]}"]')
    expect(page.locator("#message")).to_contain_text("touches no card")  # the engine's reason, by its code
    assert (_actions(page), _hand(page), _coffin(page)) == before
    # Clicks on parts that do nothing (a line value, the legend, a name) are quiet.
    for quiet in (".lv.me", ".dr-legend", ".plate.bot .who"):
        page.click(quiet)
    assert (_actions(page), _hand(page), _coffin(page)) == before
    page.click(".dr-hand .dc-btn.sel")  # put the card back
    expect(page.locator(".dr-hand .dc-btn.sel")).to_have_count(0)

    # Keyboard: arrows along the hand; Enter on a card chooses it and the focus
    # goes on to the first open cell, the coffin's one tab stop; arrow keys move
    # over the cells; Enter places the card.
    card = _hand(page)[1]
    page.focus(f'.dr-hand .dc-btn[data-card="{_hand(page)[0]}"]')
    page.keyboard.press("ArrowRight")  # arrows move along the hand
    assert page.evaluate("document.activeElement.dataset.card") == card
    page.keyboard.press("Enter")
    expect(page.locator(f'.dr-hand .dc-btn[data-card="{card}"]')).to_have_attribute("aria-pressed", "true")
    opens = page.eval_on_selector_all(".cell.open", "els => els.map(e => e.dataset.cell)")
    page.wait_for_function("document.activeElement.dataset.cell")
    focused = page.evaluate("document.activeElement.dataset.cell")
    assert focused == opens[0]
    target = opens[-1]
    (r0, c0), (r1, c1) = map(int, focused), map(int, target)
    keys = (["ArrowDown"] * (r1 - r0) + ["ArrowUp"] * (r0 - r1)
            + ["ArrowRight"] * (c1 - c0) + ["ArrowLeft"] * (c0 - c1))
    for key in keys:
        page.keyboard.press(key)
    assert page.evaluate("document.activeElement.dataset.cell") == target
    n = _actions(page)
    page.keyboard.press("Enter")
    page.wait_for_function(f"document.body.dataset.actions !== '{n}'")
    assert f"{card}@{target}" in _coffin(page)
    assert card not in _hand(page)

    # The rest of the deal by clicks, card first and cell first in turn.
    shot = False
    for turn in range(10):
        where = _settle(page)
        if where == "modal":
            break
        assert where == "me"
        if not shot:
            _shot(page, ui, "deal")
            shot = True
        placed = _place_by_clicks(page, cell_first=turn % 2 == 1)
        assert placed in _coffin(page) or not page.is_hidden("#modal")
    else:
        pytest.fail("the deal did not end")

    # The deal's result: which line each player scores, and why.
    summary = page.inner_text("#modal")
    assert "Deal 1 of 6 is over" in summary
    assert "You (rows) score" in summary and "The bot (columns) scores" in summary
    assert "×" in summary and "=" in summary
    assert page.locator("#modal .lv.scored").count() == 2
    assert page.locator("#modal .coffin .dc").count() == 9
    _shot(page, ui, "deal-over")
    assert page.inner_text("#next-hand") == "Next deal"  # the shell speaks Dracula's words
    assert page.inner_text("#brand") == "Dracula"
    page.click("#next-hand")
    page.wait_for_selector("#modal", state="hidden")
    assert "Deal 2 of 6" in page.inner_text(".dr-info")
    assert len(_coffin(page)) in (1, 2)  # the new nail (and the bot's first card)
    # The score sheet holds the deal, the line each player scored, the bonus rule.
    page.click("[data-cmd=panel][data-panel=scores]")
    expect(page.locator("#side")).to_contain_text("bonus")
    sheet = page.inner_text("#side")
    assert "row " in sheet and "column " in sheet and "bonus" in sheet
    page.click("[data-cmd=panel][data-panel=log]")
    expect(page.locator("#log")).to_contain_text("Deal 1 over")
    log = page.inner_text("#log")
    assert "You take the rows" in log and "Deal 1 over" in log
    # The engine's line_scored events: each full line and its worth.
    assert "Your row 1 is full: " in log and "The bot's column 1 is full: " in log
    _shot(page, ui, "log")


@pytest.mark.parametrize("size", [(390, 844), (1366, 768)], ids=["phone", "desktop"])
def test_enter_on_a_card_takes_the_focus_to_the_first_cell_it_may_go_to(page, ui, size):
    """Issue 55: the focus stayed in the hand, two Shift+Tabs below the coffin
    (past the key to its numbers). The cell it goes to is in sight."""
    page.set_viewport_size({"width": size[0], "height": size[1]})
    ui.deal(page, "dracula", {"first": "me", "dr_bot": "random"}, SEED, "?speed=instant",
            table=".dr-table")
    n = _actions(page)
    page.click("#way-Q")
    page.wait_for_function(f"document.body.dataset.actions !== '{n}'")
    assert _settle(page) == "me"
    page.focus(".dr-hand .dc-btn")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Enter")
    page.wait_for_function("document.activeElement.dataset.cell")
    assert page.evaluate("document.activeElement.dataset.cell") == page.get_attribute(
        ".cell.open", "data-cell")
    assert page.evaluate("document.activeElement.matches(':focus-visible')")  # its ring shows
    rect = json.loads(page.evaluate("JSON.stringify(document.activeElement.getBoundingClientRect())"))
    assert 0 <= rect["top"] and rect["bottom"] <= size[1], rect  # in sight, not scrolled away
    ui.screenshot(page, f"dracula-{'phone' if size[0] < 900 else 'desktop'}-enter-on-a-card")
    n = _actions(page)
    page.keyboard.press("Enter")  # the card placed there, by the keyboard alone
    page.wait_for_function(f"document.body.dataset.actions !== '{n}'")


def test_the_bot_deals_first_in_french(page, ui):
    ui.deal(page, "dracula", {"first": "bot", "dr_bot": "random"}, SEED,
            "?speed=instant&lang=fr", table=".dr-table")
    assert _settle(page) == "me"  # the bot chose its way; the person places first
    assert page.locator("#way-Q").count() == 0
    assert len(_coffin(page)) == 1
    text = page.inner_text("body")
    assert "Donne 1 sur 6" in text and "dr." not in text
    assert "Le robot" in page.inner_text("#log")
    _place_by_clicks(page)
    assert _settle(page) == "me"
    assert len(_coffin(page)) == 3
    # A reload resumes the same position, in French.
    snap = (_actions(page), _hand(page), _coffin(page), page.inner_text("#log"))
    page.reload()
    page.wait_for_selector("body[data-state=ready]", timeout=60000)
    assert _settle(page) == "me"
    assert (_actions(page), _hand(page), _coffin(page), page.inner_text("#log")) == snap
    assert page.get_attribute("#rules-link", "href").endswith("dracula.fr.html")


@pytest.mark.parametrize("size", [(390, 844), (1366, 768)], ids=["phone", "desktop"])
def test_the_badges_key_opens_on_the_table(page, ui, size):
    """The badges beside and under the coffin are explained on the table (issue
    31): a key under the legend, one line until opened, then each mark's meaning
    in sight."""
    page.set_viewport_size({"width": size[0], "height": size[1]})
    ui.deal(page, "dracula", {"first": "me", "dr_bot": "random"}, SEED, "?speed=instant",
            table=".dr-table")
    for _ in range(3):  # the way, then two cards: the deal goes on
        if _settle(page) != "me":
            break
        if page.is_visible("#way-Q"):
            n = _actions(page)
            page.click("#way-Q")
            page.wait_for_function(f"document.body.dataset.actions !== '{n}'")
        elif _hand(page):
            _place_by_clicks(page)
    _settle(page)
    page.mouse.move(0, 0)
    assert page.is_hidden(".dr-key li")
    ui.screenshot(page, f"dracula-key-closed-{size[0]}x{size[1]}")
    page.click(".dr-key summary")
    items = page.locator(".dr-key li")
    assert items.count() == 5
    for i in range(5):
        assert items.nth(i).is_visible()
    for mark in ("…", "≥×2", "·"):
        assert mark in page.inner_text(".dr-key")
    page.locator(".dr-key").scroll_into_view_if_needed()
    ui.screenshot(page, f"dracula-key-open-{size[0]}x{size[1]}")


def _in_view(page, selector: str) -> bool:
    """Whether every element `selector` matches lies wholly inside the viewport as
    the page opened, nothing scrolled (the boxes are relative to the viewport)."""
    page.evaluate("window.scrollTo(0, 0)")
    size = page.viewport_size
    boxes = [page.locator(selector).nth(i).bounding_box()
             for i in range(page.locator(selector).count())]
    return bool(boxes) and all(
        b is not None and b["x"] >= 0 and b["y"] >= 0 and b["x"] + b["width"] <= size["width"]
        and b["y"] + b["height"] <= size["height"] for b in boxes)


@pytest.mark.parametrize("size", [(390, 844), (1366, 768)], ids=["phone", "desktop"])
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_table_fits_the_screen_on_the_persons_turn(page, ui, size, lang):
    """Issue 31: at 1366x768 the table was 870 px tall and the hand, Undo and
    Hint were under the fold. On the person's turn — the way to choose, then
    a card to place — the decision's buttons, the hand, Undo and Hint lie in
    the viewport without scrolling; on a desktop the whole table and the
    message line under it too."""
    page.set_viewport_size({"width": size[0], "height": size[1]})
    ui.deal(page, "dracula", {"first": "me", "dr_bot": "random"}, SEED,
            f"?speed=instant&lang={lang}", table=".dr-table")
    assert _settle(page) == "me"
    for sel in ("#way-Q", "#way-K", ".dr-hand"):
        assert _in_view(page, sel), (sel, page.locator(sel).first.bounding_box())
    n = _actions(page)
    page.click("#way-Q")
    page.wait_for_function(f"document.body.dataset.actions !== '{n}'")
    assert _settle(page) == "me" and _hand(page)
    desktop = (".dr-table", "#message") if size[0] > 600 else ()
    for sel in (".dr-hand", ".dr-hand .dc-btn", ".coffin", "#undo", "#hint", *desktop):
        assert _in_view(page, sel), (sel, page.locator(sel).first.bounding_box())
