"""Signals that never collide (issue 15, item 6) and the duel's winning card.

- Werner: "your turn", "may ask", "playable" and "hinted" differ in shape, not
  only in hue (border and outline styles, badges), checked on the computed
  styles and looked at in a greyscale screenshot (SHOTS/signals-greyscale-*);
- asking a bot for a card puts the thinking dots on that bot, never on you,
  and both seats say who asked whom;
- the duel marks the lead as "winning so far" on your turn (a double ring),
  and its running score (trick piles and the track) is on the table at phone
  size; the mark's words in French, and the lead alone marked, are checked
  through the real controller and front in tests/test_web_signals.py::
  test_the_duels_lead_is_marked_winning_so_far_on_the_persons_turn;
- Dracula: the seat on turn and the hint have the same shapes as on Werner's.
"""

from __future__ import annotations

import re

import pytest

pytestmark = pytest.mark.browser
PHONE, DESKTOP = {"width": 390, "height": 844}, {"width": 1366, "height": 768}
GREY = "html { filter: grayscale(1) !important; }"


def _style(page, selector: str, pseudo: str | None = None) -> dict:
    return page.eval_on_selector(selector, """(el, pseudo) => {
        const s = getComputedStyle(el, pseudo);
        return {outline: s.outlineStyle, border: s.borderTopStyle, content: s.content,
                background: s.backgroundColor, transform: s.transform};
    }""", pseudo)


def _on_screen(page, selector: str) -> bool:
    page.evaluate("window.scrollTo(0, 0)")
    box = page.locator(selector).first.bounding_box()
    size = page.viewport_size
    return (box is not None and box["y"] >= 0 and box["x"] >= 0
            and box["y"] + box["height"] <= size["height"]
            and box["x"] + box["width"] <= size["width"])


def test_werner_signals_differ_in_shape_and_the_asked_bot_thinks(page, ui):
    page.set_viewport_size(DESKTOP)
    ui.open_site(page, "?lang=en&speed=instant")
    ui.start_game(page, mode="4A", me="0", seed=11, bots="random", target="100")
    assert ui.wait_settled(page) == "me"
    assert page.locator(".seat.designatable").count() and page.locator(".card.playable").count()
    page.click("#hint")
    page.wait_for_selector(".hinted", timeout=60000)
    hinted = "#screen .hinted"
    turn = _style(page, ".seat.on-turn .plate", "::before")
    may_ask = _style(page, ".seat.designatable")
    may_ask_badge = _style(page, ".seat.designatable", "::before")
    playable = _style(page, ".hand.mine .card.playable:not(.hinted)")
    hint = _style(page, hinted)
    hint_badge = _style(page, hinted, "::after")
    assert turn["content"] == '"▶"'
    assert may_ask["border"] == "dashed" and may_ask_badge["content"] == '"?"'
    assert playable["outline"] == "solid" and playable["transform"] != "none"
    assert hint["outline"] == "dotted" and hint_badge["content"] == '"✦"'
    # Four different shapes: the ▶ mark, a dashed frame, a solid ring, a dotted ring.
    shapes = {"▶", may_ask["border"], playable["outline"], hint["outline"]}
    assert len(shapes) == 4, shapes
    for size, name in ((DESKTOP, "desktop"), (PHONE, "phone")):
        page.set_viewport_size(size)
        style = page.add_style_tag(content=GREY)
        ui.screenshot(page, f"signals-greyscale-werner-{name}")
        style.evaluate("el => el.remove()")
    page.set_viewport_size(DESKTOP)

    # Ask a bot for a card, slowly enough to see it think.
    page.select_option("#speed", "slow")
    asked = page.locator(".seat.designatable").first.get_attribute("data-seat")
    page.click(f'.seat[data-seat="{asked}"]')
    page.wait_for_selector(".seat.thinking")
    assert page.eval_on_selector_all(".seat.thinking", "els => els.map(e => e.dataset.seat)") \
        == [asked]
    assert page.locator(".seat.p-bottom.thinking").count() == 0
    assert page.inner_text(f'.seat[data-seat="{asked}"] .ask-tag.asked') == "asked by you"
    name = page.inner_text(f'.seat[data-seat="{asked}"] .plate .who')
    assert page.inner_text(".seat.p-bottom .ask-tag.asks") == f"asks {name}"
    ui.screenshot(page, "signals-werner-asked")
    page.select_option("#speed", "instant")
    ui.wait_settled(page)


def test_duel_marks_the_lead_winning_so_far_and_keeps_its_score_on_screen(page, ui):
    page.set_viewport_size(PHONE)
    ui.open_site(page, "?lang=en&speed=instant")
    ui.choose(page, "#f-game", "jekyll-vs-hyde")
    page.wait_for_selector("#f-jvh_role")
    ui.choose(page, "#f-jvh_role", "H")  # Jekyll leads the first trick
    ui.choose(page, "#f-jvh_bot", "random")
    page.fill("#f-seed", "5")
    page.click("#start")
    page.wait_for_selector(".table.jvh")
    for _ in range(60):
        ui.wait_settled(page)
        if page.locator("#jvh-pick").count():
            ui.duel_exchange(page)
            continue
        lying = page.locator(".jvh-trick:not(.last) .card.played:not(.empty)")
        if lying.count() == 1 and page.locator(".hand.mine .card.playable").count():
            break
        ui.duel_play_first(page)
    else:
        pytest.fail("never on turn with the lead lying")
    marked = page.locator(".jvh-trick .card.winning")
    assert marked.count() == 1
    assert marked.get_attribute("data-card") == lying.get_attribute("data-card")
    assert "winning so far" in page.inner_text(".jvh-slot .who .mark")
    assert _style(page, ".jvh-trick .card.winning")["outline"] == "double"
    assert _style(page, ".hand.mine .card.playable")["outline"] == "solid"
    # The running score on the table, without scrolling: both trick piles and the track.
    for part in (".jvh-pile", ".jvh-track"):
        assert page.locator(part).count() and _on_screen(page, part), part
    assert page.locator(".jvh-pile .count").count() == 2
    ui.screenshot(page, "duel-winning-en-phone")
    # Your card played: the trick is taken and the mark goes with it.
    ui.duel_play_first(page)
    ui.wait_settled(page)
    assert page.locator(".jvh-trick:not(.last) .card.winning").count() <= 1


def test_dracula_turn_and_hint_shapes_and_score_on_screen(page, ui):
    page.set_viewport_size(PHONE)
    ui.deal(page, "dracula", {"first": "me", "dr_bot": "random"}, 3)
    n = ui.actions(page)
    page.locator(".dr-table [data-act]").first.click()  # a way to score: rows or columns
    page.wait_for_function(f"document.body.dataset.actions !== '{n}'")
    assert ui.wait_settled(page) == "me"
    page.click("#hint")
    page.wait_for_selector("#screen .hinted", timeout=60000)
    assert _style(page, ".dr-table .plate.on-turn", "::before")["content"] == '"▶"'
    assert _style(page, "#screen .hinted")["outline"] == "dotted"
    assert _style(page, ".coffin .cell.open:not(.hinted)")["border"] == "solid"
    assert _on_screen(page, ".dr-table .plate .pts")
    style = page.add_style_tag(content=GREY)
    ui.screenshot(page, "signals-greyscale-dracula-phone")
    style.evaluate("el => el.remove()")


LOOK = """el => { const s = getComputedStyle(el);
  return {outline: s.outlineStyle, colour: s.outlineColor, shadow: s.boxShadow, transform: s.transform}; }"""


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_duel_a_card_just_received_is_not_ringed_like_a_playable_one(page, ui, size):
    """Issue 55, item 2: the card the exchange just gave ("Grün 5 … neu") had a
    gold ring like the playable cards, though it could not be played. It has
    none of their looks (a ring, the rise): only its "new" label, not gold."""
    page.set_viewport_size(size)
    ui.open_site(page, "?lang=de&speed=instant")
    ui.choose(page, "#f-game", "jekyll-vs-hyde")
    page.wait_for_selector("#f-jvh_role")
    ui.choose(page, "#f-jvh_role", "H")  # Jekyll leads: the received card may not follow
    ui.choose(page, "#f-jvh_bot", "random")
    page.fill("#f-seed", "5")
    page.click("#start")
    page.wait_for_selector(".table.jvh")
    ui.wait_settled(page)
    ui.duel_exchange(page)
    assert ui.wait_settled(page) == "me"
    new = ".hand.mine .card.got:not(.playable)"
    assert page.locator(new).count() == 1, "the received card may be played: pick another seed"
    page.mouse.move(0, 0)  # a hovered card rises
    playable = page.eval_on_selector(".hand.mine .card.playable:not(.got)", LOOK)
    got = page.eval_on_selector(new, LOOK)
    assert playable["outline"] == "solid" and playable["transform"] != "none", playable
    assert got["outline"] == "none" and got["transform"] == "none", got
    assert not re.search(r"0px 0px 0px [1-9]", got["shadow"]), f"a ring: {got['shadow']}"
    badge = page.eval_on_selector(f"{new} .badge", "el => [el.textContent, getComputedStyle(el).backgroundColor]")
    assert badge[0] == "neu" and badge[1] != playable["colour"], badge
    name = "phone" if size == PHONE else "desktop"
    style = page.add_style_tag(content=GREY)
    ui.screenshot(page, f"signals-greyscale-duel-new-{name}")
    style.evaluate("el => el.remove()")
