"""Werner's centre shows each card once and writes over none (issue 31, item 1):
a finished Transformation's cards stay on the table as "On the table: N cards",
so the centre does not show them a second time as the last trick; and no label
("from X", a mark) or banner covers a card, on a phone and a desktop, in the
live table and in the review.

Seed 4 (4 players, random bots) has Transformations that leave cards on the
table (see test_werner_layout.py).
"""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser
SIZES = [(390, 844), (1366, 768)]
SEED = 4

# The cards in the centre (the trick, the last trick, the cards left on the
# table) and the texts drawn there; each text's box against each card's box.
CENTRE = """root => {
  const box = el => { const r = el.getBoundingClientRect();
    return [r.left, r.top, r.right, r.bottom]; };
  const shown = el => { const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== 'hidden'; };
  const centre = document.querySelector(root + ' .table.jh .centre');
  if (!centre) return null;
  const cards = [...centre.querySelectorAll('.card')].filter(shown)
    .map(el => ({card: el.dataset.card || el.getAttribute('aria-label'), box: box(el)}));
  const labels = [...centre.querySelectorAll('.banner, .slot .from, .slot .mark, .carried > span')].filter(shown)
    .map(el => ({text: el.textContent.trim(), box: box(el)}));
  return {cards, labels};
}"""


def _overlap(a: list[float], b: list[float]) -> float:
    """The area two boxes share (px²)."""
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return max(w, 0) * max(h, 0)


def _centre_at_rest(page, root: str, where: str) -> dict:
    """The centre's cards and texts (CENTRE) once its cards have come to rest."""
    page.mouse.move(0, 0)  # a hovered card rises: the pointer stays off the table
    page.wait_for_function(  # the cards come to rest (an endless pulse may go on)
        "document.getAnimations().every(a => a.playState !== 'running'"
        " || a.effect.getComputedTiming().iterations === Infinity)")
    seen = page.evaluate(CENTRE, root)
    assert seen is not None, where
    return seen


def _check_centre(page, root: str, where: str) -> int:
    """Each card of the centre once, no text over any of them; the number of cards."""
    seen = _centre_at_rest(page, root, where)
    names = [c["card"] for c in seen["cards"]]
    assert len(names) == len(set(names)), f"a card shown twice {where}: {names}"
    for label in seen["labels"]:
        for card in seen["cards"]:
            assert _overlap(label["box"], card["box"]) < 2, \
                f"{label['text']!r} covers {card['card']} {where}: {label['box']} {card['box']}"
    return len(names)


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_live_table_shows_each_card_once_and_writes_over_none(page, ui, size):
    width, height = size
    page.set_viewport_size({"width": width, "height": height})
    ui.open_site(page, "?lang=en&speed=instant")
    ui.start_game(page, mode="4A", me="0", seed=SEED, bots="random")
    transformations = 0
    for turn in range(40):
        if ui.wait_settled(page) == "modal":
            break
        page.wait_for_selector("#hint")
        if page.locator(".centre .carried .card").count() and page.locator(".centre .banner").count():
            transformations += 1  # (the picture first: it shows what a failure is about)
            ui.screenshot(page, f"werner-centre-{width}x{height}-transformation-{transformations}")
        _check_centre(page, "#screen", f"at turn {turn}, {width}x{height}")
        target = ".card.playable" if page.locator(".card.playable").count() \
            else ".seat.designatable"
        ui.click_and_wait(page, target)
    else:
        pytest.fail("the hand did not end")
    assert transformations, "no Transformation just left its cards: pick another seed"


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_review_shows_each_card_once_and_writes_over_none(page, ui, size):
    width, height = size
    page.set_viewport_size({"width": width, "height": height})
    game = "jekyll-hyde"
    ui.resume_save(page, game, ui.save_near_end(game, {"players": 4}, 0, SEED))
    assert ui.wait_settled(page) == "modal"
    page.click("#review-open")
    page.wait_for_selector("#review .table.jh")
    transformations = 0
    for step in range(80):
        if page.locator("#review .centre .carried .card").count() \
                and page.locator("#review .centre .banner").count():
            transformations += 1
            ui.screenshot(page, f"werner-centre-review-{width}x{height}-{transformations}")
        _check_centre(page, "#review", f"in review step {step}, {width}x{height}")
        if page.is_disabled("#ex-next"):
            break
        now = page.evaluate("document.getElementById('review').dataset.step")
        page.click("#ex-next")
        page.wait_for_function(f"document.getElementById('review').dataset.step !== '{now}'")
    assert transformations, "the review never showed a Transformation's cards left on the table"


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_three_players_the_new_soloists_banner_covers_no_card_of_the_new_hand(page, ui, size):
    """Issue 55, item 3: after "Next hand", "Christian is now Mr. Hyde, alone with
    the ghost." stayed in the middle through the first tricks, over the played
    cards (the person's own, while the bots think). It is gone once a card lies,
    and no banner covers a card."""
    width, height = size
    page.set_viewport_size({"width": width, "height": height})
    game = "jekyll-hyde"
    ui.resume_save(page, game, ui.save_near_end(game, {"players": 3, "target": 1000}, "Betty", 7),
                   "?lang=en&speed=normal")  # the bots pause: the person's card lies a while
    assert ui.wait_settled(page) == "modal"
    page.click("#next-hand")
    page.wait_for_function("document.getElementById('modal').hidden")
    with_cards = 0
    for turn in range(5):  # the first tricks of the new hand
        if ui.wait_settled(page) != "me":
            break
        page.wait_for_selector("#hint")
        for moment in ("on turn", "just played"):
            where = f"in hand 2 at turn {turn}, {moment}, {width}x{height}"
            seen = _centre_at_rest(page, "#screen", where)
            banners = set(page.locator("#screen .centre .banner").all_text_contents())
            for label in (x for x in seen["labels"] if x["text"] in banners):
                for card in seen["cards"]:
                    assert _overlap(label["box"], card["box"]) < 2, \
                        f"{label['text']!r} covers {card['card']} {where}"
            with_cards += bool(seen["cards"])
            if moment == "on turn":
                ui.screenshot(page, f"werner-centre-3p-hand2-{width}x{height}-{turn}")
                target = ".card.playable" if page.locator(".card.playable").count() \
                    else ".seat.designatable"
                ui.click_and_wait(page, target)
    assert with_cards, "no card lay in the centre"
    assert "Christian is now Mr. Hyde, alone with the ghost." in page.text_content("#log")
