"""Werner's table never jumps (issue 15, items 4 and 8): over a whole hand the
person's hand, the prompt and the Hint button stay on screen and in the same
place at every turn, from a small phone to a large desktop, while cards left
by a Transformation lie on the table, readable; and on a phone every seat's
team stays visible and no label is cut.

The deals are chosen so that Transformations carry cards: seed 4 (4 players,
the random bots) leaves 4, then 8 cards on the table; seed 2 (3 players,
playing Betty) leaves 4.
"""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser
SIZES = [(360, 640), (390, 844), (1366, 768), (1920, 1080)]
PARTS = {"hand": ".hand.mine", "prompt": "#prompt", "hint": "#hint"}
TOLERANCE = 1.5  # px: a part may not move more than this between turns
READABLE = 34  # px: the narrowest carried card whose index can be read

BOXES = """parts => Object.fromEntries(Object.entries(parts).map(([name, sel]) => {
  const r = document.querySelector(sel).getBoundingClientRect();
  return [name, [r.left, r.top, r.width, r.height]];
}))"""


def _play_a_hand(page, ui, sizes: list[tuple[int, int]], mode: str, me: str, seed: int,
                 check=lambda page, size: None) -> None:
    """One hand, measured at every size at each of the person's turns (the
    viewport set to each in turn: the table's layout depends on nothing else),
    and `check`ed there too."""
    ui.open_site(page, "?lang=en&speed=instant")
    ui.start_game(page, mode=mode, me=me, seed=seed, bots="random")
    first: dict[tuple[int, int], dict[str, list[float]]] = {}
    carried_seen = 0
    for turn in range(40):
        if ui.wait_settled(page) == "modal":
            break
        page.wait_for_selector("#hint")
        for width, height in ui.at_sizes(page, sizes):
            boxes = page.evaluate(BOXES, PARTS)
            for name, (x, y, w, h) in boxes.items():
                assert x >= 0 and y >= 0 and x + w <= width + 1 and y + h <= height + 1, \
                    f"{name} off screen at turn {turn}, {width}x{height}: {(x, y, w, h)}"
            was = first.setdefault((width, height), boxes)
            for name, box in boxes.items():
                assert all(abs(a - b) <= TOLERANCE for a, b in zip(box, was[name])), \
                    f"{name} moved at turn {turn}, {width}x{height}: {was[name]} -> {box}"
            carried = page.locator(".carried .card")
            if carried.count():
                carried_seen = max(carried_seen, carried.count())
                card = carried.first.bounding_box()
                assert card is not None and card["width"] >= READABLE, (width, height, card)
                if turn and carried.count() >= 4:
                    ui.screenshot(page, f"werner-layout-{mode}-{width}x{height}-carried")
            check(page, (width, height))
        target = ".card.playable" if page.locator(".card.playable").count() \
            else ".seat.designatable"
        ui.click_and_wait(page, target)
    else:
        pytest.fail("the hand did not end")
    assert first, "the person never had a turn"
    assert carried_seen >= 4, "no Transformation left cards on the table: pick another seed"


CUT = """el => el.scrollWidth > el.clientWidth + 1"""


def _phone_seats_whole(page, size: tuple[int, int]) -> None:
    """Item 8: at 390x844 each seat's team icon keeps its size and its team
    name shows; no tag on a played card and no seat name is cut."""
    if size != (390, 844):
        return
    for seat in page.locator(".seat").all():
        icon = seat.locator(".plate .team").bounding_box()
        assert icon is not None and icon["width"] >= 8, icon
        assert seat.locator(".team-name").is_visible()
        assert not seat.locator(".who").evaluate(CUT), seat.inner_text()
    for tag in page.locator(".slot .from, .slot .mark").all():
        assert not tag.evaluate(CUT), tag.inner_text()


def test_four_players_hand_never_moves_and_a_phone_shows_every_seat_whole(page, ui):
    _play_a_hand(page, ui, SIZES, mode="4A", me="0", seed=4, check=_phone_seats_whole)
    # Mini cards in the summary keep their whole name ("Transformation" included).
    page.set_viewport_size({"width": 390, "height": 844})
    for name in page.locator("#modal .card.mini .nm").all():
        box = name.bounding_box()
        if box and box["width"] > 1:  # on a phone the name is only the button's (visually hidden)
            assert not name.evaluate(CUT), name.inner_text()


def test_three_players_hand_never_moves(page, ui):
    _play_a_hand(page, ui, [(360, 640), (1366, 768)], mode="3", me="1", seed=2)


# Each seat's button: its box, and the controls whose boxes overlap it (its own
# seat, which holds it, aside).
SEAT_TARGETS = """() => [...document.querySelectorAll('.seat > button.plate')].map(plate => {
  const r = plate.getBoundingClientRect();
  const overlapping = [...document.querySelectorAll(
      '#screen :is(button, a[href], select, input, [data-act], [data-part])')]
    .filter(el => el !== plate && !el.contains(plate) && !plate.contains(el))
    .filter(el => { const o = el.getBoundingClientRect();
      return o.width && o.height && o.left < r.right && r.left < o.right
        && o.top < r.bottom && r.top < o.bottom; })
    .map(el => el.outerHTML.slice(0, 80));
  return {id: plate.id, width: r.width, height: r.height, overlapping};
})"""


def test_three_players_seats_are_targets_of_24px(page, ui):
    """Issue 34, item 2 (WCAG 2.2, target size): with 3 players every seat's
    button, the ghost's above its open hand included, is at least 24x24 px and
    no other control covers a part of it (a playable card of the ghost rises
    6px), at every decision of the person's through a hand, on a phone and a desktop."""
    ui.open_site(page, "?lang=en&speed=instant")
    ui.start_game(page, mode="3", me="0", seed=7, bots="random")
    for turn in range(40):
        if ui.wait_settled(page) == "modal":
            break
        for size in ui.at_sizes(page, [(360, 640), (1366, 768)]):
            seats = page.evaluate(SEAT_TARGETS)
            assert "seat-2" in [s["id"] for s in seats], seats  # the ghost's
            for seat in seats:
                assert seat["width"] >= 24 and seat["height"] >= 24, (turn, size, seat)
                assert not seat["overlapping"], (turn, size, seat)
        target = ".card.playable" if page.locator(".card.playable").count() \
            else ".seat.designatable"
        ui.click_and_wait(page, target)
    else:
        pytest.fail("the hand did not end")


# Every card name in `root` that is cut, as "name: why": a letter outside the
# name's room (beside it, under the card's edge, or up on the card's icon) or a
# word broken where it has no (soft) hyphen. Letters are measured one by one.
CUT_NAMES = """root => [...document.querySelectorAll(root + ' .card .nm')].flatMap(nm => {
  const room = nm.getBoundingClientRect(), text = nm.firstChild;
  if (room.width < 2 || !text) return [];  // a name hidden on a phone (the button's only)
  const icon = nm.parentElement.querySelector('svg .ic').getBoundingClientRect();
  const card = nm.parentElement.getBoundingClientRect();
  const range = document.createRange(), why = new Set();
  let before = null;  // the letter before, unless a space or a hyphen came between
  for (let i = 0; i < text.length; i++) {
    if (' \\u00ad-'.includes(text.data[i])) { before = null; continue; }
    range.setStart(text, i); range.setEnd(text, i + 1);
    const r = range.getBoundingClientRect();
    if (r.left < room.left - .5 || r.right > room.right + .5) why.add('wider than the card');
    if (r.top < icon.bottom - .5) why.add('on the icon');
    if (r.bottom > card.bottom + .5) why.add('below the card');
    if (before && r.top > before.bottom - 1) why.add('a word broken');
    before = r;
  }
  return why.size ? [nm.textContent + ': ' + [...why].join(', ')] : [];
})"""
LANGUAGES = ["en", "de", "fr", "it"]


def test_card_names_are_whole_in_every_language(page, ui):
    """Issue 55, item 6: no card name is cut or runs into its icon, in any
    language, on the cards the Review shows (every hand open, each card then
    played) and in the ghost's open hand, at phone and desktop size."""
    sizes = [(390, 844), (1366, 768)]
    save = ui.save_near_end("jekyll-hyde", {"players": 4, "target": 150}, 0, 7)
    cut: dict[str, list[str]] = {}
    for lang in LANGUAGES:
        ui.open_site(page, f"?lang={lang}&speed=instant")
        ui.start_game(page, mode="3", me="1", seed=2, bots="random")
        ui.wait_settled(page)
        for size in ui.at_sizes(page, sizes):
            cut[f"{lang}, the ghost's hand, {size}"] = page.evaluate(CUT_NAMES, "#screen")
        ui.resume_save(page, "jekyll-hyde", save, f"?lang={lang}&speed=instant")
        ui.wait_settled(page)
        page.click("#review-open")
        page.wait_for_selector("dialog#review[open]")
        names = page.locator("#rv-screen .card .nm")
        assert names.count() >= 28, "the Review's first step shows every card"
        for step in range(40):
            for size in ui.at_sizes(page, sizes):
                for name in page.evaluate(CUT_NAMES, "#rv-screen"):
                    cut.setdefault(f"{lang}, the Review, {size}", []).append(
                        f"step {step}: {name}")
            if page.is_disabled("#ex-next"):
                break
            now = page.evaluate("document.getElementById('review').dataset.step")
            page.click("#ex-next")
            page.wait_for_function(f"document.getElementById('review').dataset.step !== '{now}'")
    assert not any(cut.values()), {where: names for where, names in cut.items() if names}


# Each "asks" / "asked by" tag on the table, the ghost's included, and what it lies
# on: a card, a tag of the trick, the trick's line, a seat's name, icon or cards.
TAGS_ON = """() => {
  const on = (a, b) => a.left < b.right - .5 && b.left < a.right - .5
    && a.top < b.bottom - .5 && b.top < a.bottom - .5;
  const table = document.querySelector('#screen .table.jh').getBoundingClientRect();
  const others = [...document.querySelectorAll('#screen :is(.card, .slot .from, .slot .mark, '
    + '.backs b, .back, .plate .who, .plate .team, .jh-totals li, .tinfo, .ask-tag)')];
  return [...document.querySelectorAll('#screen .seat .ask-tag')]
    .flatMap(tag => { const r = tag.getBoundingClientRect();
      const under = others.filter(o => o !== tag && on(r, o.getBoundingClientRect()))
        .map(o => o.textContent.trim().slice(0, 24));
      if (r.left < table.left || r.right > table.right) under.push('the table\\'s edge');
      return under.map(what => tag.textContent + ' on ' + what); });
}"""


def test_ask_tags_lie_on_nothing(page, ui):
    """Issue 55, item 6: in the longest languages, an "asks you" / "asked by
    Betty" tag covers no card, count, name or the trick's line, and stays on
    the table, at every decision of the person's (asked to give, or asking),
    on a phone and a desktop."""
    found = []
    for lang in ("fr", "de"):
        for mode, me, seed in (("4A", "0", 4), ("4A", "0", 11), ("3", "0", 7)):
            ui.open_site(page, f"?lang={lang}&speed=instant")
            ui.start_game(page, mode=mode, me=me, seed=seed, bots="random")
            for turn in range(40):
                if ui.wait_settled(page) == "modal":
                    break
                for size in ui.at_sizes(page, [(390, 844), (1366, 768)]):
                    found += [f"{lang} {mode}/{seed} turn {turn} {size}: {x}"
                              for x in page.evaluate(TAGS_ON)]
                # (a seat is asked on its plate: its middle may be the ghost's open hand)
                playable = ".card.playable[data-act]"
                target = playable if page.locator(playable).count() \
                    else ".seat.designatable .plate"
                ui.click_and_wait(page, target)
            else:
                pytest.fail("the hand did not end")
    assert not found, found
