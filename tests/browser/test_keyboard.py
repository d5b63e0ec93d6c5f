"""Keyboard-only play and screen-reader announcements (issue 17, items 1 and 2),
with the browser's real focus and keys (`page.keyboard.press` only: no
click, no `focus()`): a whole Werner hand reached with Tab / Shift+Tab and
the arrows and played with Enter or Space, the keys panel ("?", Escape) and
the summary's modal focus; along it a MutationObserver collects everything
written into the polite live region `#live`: each event of the log is read
out exactly once, the person's prompt after the events, and never the name
of a card hidden from the person. Also: after a reload the first Tab reaches
a decision in every game; an arrow key on a start-screen field keeps the
focus there; Tab and the arrows reach only the Werner cards that may be played.

Checked in CPython through the real controller and front instead (the duel's
round and Dracula's German deal by keys went):
tests/test_web_session.py::test_picking_parts_then_escape_and_the_duels_exchange_confirmed
(picks, Escape taking them back, the confirm);
tests/test_front_events.py::test_a_card_chosen_in_draculas_hand_sends_the_focus_to_the_first_cell_it_may_go_to
(the focus on to a cell, Escape, the other order),
::test_the_keys_panel_opens_with_a_question_mark_and_closes_with_escape,
::test_the_keys_panel_speaks_of_its_games_own_table_in_the_pages_language
(Dracula's panel in German: the coffin, Strg+Z);
tests/test_front_screen.py::test_the_keys_panel_takes_the_focus_and_gives_it_back_when_it_closes;
tests/test_front_live.py and tests/test_web_page.py::test_the_log_words_each_event_once_and_all_of_them_again_in_another_language
(each event heard once); tests/test_web_dracula.py::test_a_placement_tells_the_lines_it_left_open.

The `page` fixture (conftest.py) also fails a test on any console error or
any request to another host.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

import pytest

from game import new_game
from game.web.model import saves
from game.web.model.choice import single
from game.web.draw.i18n import Translator
from game.web.draw.tables import renderer
from game.web.draw.tables import jekyll_hyde as jh

# The page answers a key when the game's worker has drawn it: a few ms later.
expect = pytest.importorskip("playwright.sync_api").expect

pytestmark = pytest.mark.browser

SETTLED = "document.body.dataset.toAct !== 'bot' || !document.getElementById('modal').hidden"
FOCUSED = "s => !!document.activeElement && document.activeElement.matches(s)"
# The keys that bring the focus from where it is to the first element matching
# `s`: arrows inside a `data-keys` group holding it (rows and columns of a
# grid), else null (Tab on).
ARROWS_TO = """s => {
  const here = document.activeElement, group = here && here.closest('[data-keys]');
  const there = group && group.querySelector(s);
  if (!there) return null;
  const items = [...group.querySelectorAll('[data-part], [data-act]')];
  const a = items.indexOf(here), b = items.indexOf(there);
  if (a < 0 || b < 0) return null;
  const cols = group.dataset.keys === 'grid' ? +group.dataset.cols : 0;
  if (!cols) return ['ArrowRight'];
  const rows = Math.floor(b / cols) - Math.floor(a / cols), across = b % cols - a % cols;
  return [...Array(Math.abs(rows)).fill(rows > 0 ? 'ArrowDown' : 'ArrowUp'),
          ...Array(Math.abs(across)).fill(across > 0 ? 'ArrowRight' : 'ArrowLeft')];
}"""
# Every burst written into #live: its lines, and how many actions the game had then.
LISTEN = """() => {
  window.heard = [];
  new MutationObserver(ms => ms.forEach(m => m.addedNodes.forEach(n => {
    if (n.nodeType !== 1) return;
    const ps = n.matches('p') ? [n] : [...n.querySelectorAll('p')];
    window.heard.push({actions: +document.body.dataset.actions,
                       lines: ps.map(p => p.textContent)});
  }))).observe(document.getElementById('live'), {childList: true, subtree: true});
}"""


def _settle(page) -> str:
    page.wait_for_function(SETTLED, timeout=30000)
    return "modal" if not page.is_hidden("#modal") else page.evaluate("document.body.dataset.toAct")


def _actions(page) -> int:
    return int(page.evaluate("document.body.dataset.actions"))


def _focus_on_table(page) -> None:
    """After every redraw the focus is on a control or the prompt, never lost to <body>."""
    where = page.evaluate("(() => { const e = document.activeElement;"
                          " return !e || e === document.body ? 'body'"
                          " : e.closest('#screen, #modal') ? 'table' : e.tagName; })()")
    assert where == "table", f"the focus is on {where}"


def _key_to(page, selector: str, limit: int = 120) -> None:
    """Bring the focus to `selector` by keys only."""
    for _ in range(limit):
        if page.evaluate(FOCUSED, selector):
            return
        keys = page.evaluate(ARROWS_TO, selector)
        for key in keys or ["Tab"]:
            page.keyboard.press(key)
    pytest.fail(f"Tab and the arrows never reached {selector}")


def _act(page, selector: str, key: str = "Enter") -> None:
    """Reach `selector` by keys and press `key` on it: one action is applied."""
    _key_to(page, selector)
    n = _actions(page)
    page.keyboard.press(key)
    page.wait_for_function(f"+document.body.dataset.actions > {n}")


def _press_on(page, selector: str, key: str = "Space") -> None:
    """Reach `selector` by keys and press `key` on it (a part of a choice: no action yet)."""
    _key_to(page, selector)
    page.keyboard.press(key)


def _my_turns(page, limit: int) -> Iterator[int]:
    """The person's turns until the summary (a failure if it never comes);
    at each the focus is on the table."""
    for turn in range(limit):
        where = _settle(page)
        if where == "modal":
            return
        assert where == "me"
        _focus_on_table(page)
        yield turn
    pytest.fail("the hand did not end")


def _next_hand_by_keys(page) -> None:
    # The summary is a modal dialog: it takes the focus, Tab and Shift+Tab go
    # round its controls without reaching the table behind, Enter closes it.
    assert page.evaluate(FOCUSED, "#modal button")
    for key in ["Tab"] * 4 + ["Shift+Tab"] * 4:
        page.keyboard.press(key)
        assert page.evaluate("document.activeElement.closest('#modal') !== null"), key
    page.focus("#modal button.primary")
    page.keyboard.press("Enter")
    page.wait_for_selector("#modal", state="hidden")
    _focus_on_table(page)


# -- Werner: a whole hand by keys, every event heard once -----------------------


def _werner_target(page, state: dict) -> str:
    """What the person does now (the strategy of test_table.py's hand by clicks)."""
    table = page.locator(".table")
    if table.get_attribute("data-designated") == table.get_attribute("data-me"):
        state["asked"] += 1
        return ".hand.mine .card.playable"
    if not state["designated"] and page.locator(".seat.designatable").count():
        state["designated"] += 1
        return ".seat.designatable .plate"  # the seat's own button
    if page.locator(".hand.mine .card.playable").count():
        return ".hand.mine .card.playable"
    state["designated"] += 1
    return ".seat.designatable .plate"


def _unique_names(t: Translator) -> set[str]:
    """The names of Werner's cards that name one card only and are part of no
    other card's name (two cards are "Mr. Utterson", two "Transformation")."""
    deal = new_game("jekyll-hyde", {"players": 4, "seating": "A"}, 1).to_json()["hands"]
    names = [jh.card_name(c, t) for hand in deal.values() for c in hand]
    assert len(names) == 28
    return {n for n in names if names.count(n) == 1 and not any(n != m and n in m for m in names)}


def _hidden_names(transcript: dict, since: int, actions: int, t: Translator) -> set[str]:
    """The names of the cards in the other players' hands (the person sits at
    seat 0) after the transcript's first `actions` actions, but for those
    played by the actions after the first `since` (a card played in the last
    trick of a hand may lie in a bot's hand again in the next deal)."""
    state = new_game(transcript["game"], transcript["options"], transcript["seed"])
    played = set()
    for i, action in enumerate(transcript["actions"][:actions]):
        state = state.apply(action)
        if i >= since:
            played |= {ev["card"] for ev in state.events(0) if ev.get("kind") == "played"}
    return {jh.card_name(c, t) for seat in state.players[1:]
            for c in state.observation(seat)["hand"] if c not in played}


def test_a_werner_hand_by_keys_with_every_event_heard_once(page, ui):
    ui.open_site(page, "?speed=instant")
    # The keys panel: "?" opens it on its close button, Tab stays there, Escape closes it.
    page.keyboard.press("?")
    assert page.is_visible("#keys") and "Enter" in page.inner_text("#keys")
    assert page.evaluate(FOCUSED, "#keys [data-cmd=keys-close]")
    page.keyboard.press("Tab")
    assert page.evaluate(FOCUSED, "#keys [data-cmd=keys-close]")
    page.keyboard.press("Escape")
    assert page.is_hidden("#keys")
    page.evaluate(LISTEN)
    ui.start_game(page, mode="4A", me="0", seed=11, bots="random")
    page.keyboard.press("?")  # at Werner's table there is no coffin to move around
    keys = page.inner_text("#keys")
    assert "coffin" not in keys and "Ctrl+Z" in keys
    page.keyboard.press("Escape")
    state = {"asked": 0, "designated": 0}
    for turn in _my_turns(page, 120):
        _act(page, _werner_target(page, state), "Enter" if turn % 2 else " ")
    assert state["designated"] >= 1 and state["asked"] >= 1, state
    heard = page.evaluate("window.heard")
    log = page.locator("#log li").all_inner_texts()
    lines = [line for burst in heard for line in burst["lines"]]
    told = [line for line in lines if line in set(log)]
    # Each event of the hand (and the next deal) is read out exactly once.
    assert Counter(told) == Counter(log), (Counter(told) - Counter(log), Counter(log) - Counter(told))
    assert any(" asks " in line for line in told) and any("wins the trick" in line for line in told)
    assert any(line.startswith("Hand over") for line in told), told
    # The other lines are the person's prompt, each after the events of its burst.
    for burst in heard:
        prompts = [i for i, line in enumerate(burst["lines"]) if line not in set(log)]
        assert prompts in ([], [len(burst["lines"]) - 1]), burst
    assert any("Your turn" in line for line in lines if line not in set(log)), lines
    # Never a card hidden from the person, at the moment it was read out.
    text = saves.load(page.evaluate(f"localStorage.getItem({saves.key('jekyll-hyde')!r})"))[0]["transcript"]
    t = Translator("en")
    unique = _unique_names(t)
    assert len(unique) >= 12
    since = 0
    for burst in heard:
        for name in _hidden_names(text, since, burst["actions"], t) & unique:
            assert all(name not in line for line in burst["lines"]), (name, burst)
        since = burst["actions"]
    _next_hand_by_keys(page)
    assert "Hand 2" in page.inner_text(".tinfo")
    # Redraws with no news (asking for a hint: the table is drawn while the
    # hint thinks and once it is there; the side panel) read nothing again.
    assert _settle(page) == "me"
    count = page.evaluate("window.heard.length")
    _press_on(page, "#hint", "Enter")
    page.wait_for_function("!!document.getElementById('hint-text').dataset.action",
                           timeout=30000)
    _press_on(page, "[data-cmd=panel][data-panel=scores]", "Enter")
    assert page.evaluate(FOCUSED, "#side [data-panel=scores]")  # the redrawn tab keeps it
    _press_on(page, "[data-cmd=panel][data-panel=log]", "Enter")
    assert page.evaluate("window.heard.length") == count


@pytest.mark.parametrize("game", ["jekyll-hyde", "jekyll-vs-hyde", "dracula"])
def test_the_first_tab_from_the_top_of_the_table_reaches_the_decision(page, ui, game):
    """Issue 31, item 11: after a reload, "?" and Escape, one Tab reaches
    something the person may play or choose (Dracula's first decision is drawn
    above its prompt), and the keys panel says so."""
    ui.open_site(page, f"?game={game}&speed=instant&lang=en")
    page.click("#start")
    page.wait_for_function("document.body.dataset.toAct === 'me'", timeout=60000)
    page.reload()
    page.wait_for_selector("body[data-state=ready]", timeout=60000)
    page.wait_for_function("document.body.dataset.toAct === 'me'", timeout=60000)
    page.keyboard.press("?")
    expect(page.locator("#keys")).to_contain_text("straight to what you may play or choose")
    page.keyboard.press("Escape")
    expect(page.locator("#keys")).to_be_hidden()  # Tab in the open panel stays in it
    page.keyboard.press("Tab")
    focused = page.evaluate("(() => { const e = document.activeElement;"
                            " return e.dataset.part || e.dataset.act || null; })()")
    assert focused is not None
    state = saves.load(page.evaluate(f"localStorage.getItem('jhg.save.{game}')"))[1]
    parts = getattr(renderer(game), "parts", single)
    assert any(focused == action or focused in parts(action)
               for action in state.legal_actions()), (focused, state.legal_actions())


# -- the start screen: an arrow key changes a field, the focus stays on it ------------

REDRAWN = "s => !document.querySelector(s).dataset.before"


def _arrow_on_field(page, field: str, key: str) -> str:
    """`key` on the focused start-screen field `field`: the form is drawn again
    (the field is a new element), and the field's new value is returned."""
    page.eval_on_selector(field, "el => { el.dataset.before = el.value; }")
    before = page.get_attribute(field, "data-before")
    page.keyboard.press(key)
    page.wait_for_function(REDRAWN, arg=field)
    value = page.eval_on_selector(field, "el => el.value")
    assert value != before, f"{key} did not change {field}"
    return value


def test_an_arrow_key_on_a_start_field_keeps_the_focus_there(page, ui):
    """Issue 34, item 1: Players, Seating and Game changed with an arrow key
    redraw the form; the focus stays on the field (not at the top of the page)."""
    ui.open_site(page, "?lang=en")
    _key_to(page, "#f-players")
    assert _arrow_on_field(page, "#f-players", "ArrowDown") == "3"
    assert page.evaluate(FOCUSED, "#f-players")
    assert _arrow_on_field(page, "#f-players", "ArrowUp") == "4"
    assert page.evaluate(FOCUSED, "#f-players")
    _key_to(page, "#f-seating")
    assert _arrow_on_field(page, "#f-seating", "ArrowDown") == "B"
    assert page.evaluate(FOCUSED, "#f-seating")
    for _ in range(8):  # and back, by keys, past the buttons to the Game field above
        page.keyboard.press("Shift+Tab")
        if page.evaluate(FOCUSED, "#f-game"):
            break
    assert page.evaluate(FOCUSED, "#f-game")
    assert _arrow_on_field(page, "#f-game", "ArrowDown") == "jekyll-vs-hyde"
    assert page.evaluate(FOCUSED, "#f-game")


# -- Werner: Tab and the arrows reach only the cards the person may play ------------

FOCUSED_CARD = """() => { const e = document.activeElement;
  return e && e.matches('.hand.mine .card')
    ? {card: e.dataset.card, playable: e.classList.contains('playable')} : null; }"""


def test_tab_reaches_only_the_werner_cards_the_person_may_play(page, ui):
    """Issue 31: Tab landed on cards the person may not play (another suit is
    led). On such a turn, a whole round of Tab over the page reaches every
    playable card of the hand and no other; the arrow keys move between the
    playable cards only; the keys panel says so."""
    ui.open_site(page, "?speed=instant")
    ui.start_game(page, mode="4A", me="0", seed=5, bots="random")
    for _ in range(10):
        assert _settle(page) == "me"
        mine = page.locator(".hand.mine .card")
        playable = page.eval_on_selector_all(".hand.mine .card.playable",
                                             "els => els.map(e => e.dataset.card)")
        if playable and mine.count() > len(playable):
            break
        target = (".hand.mine .card.playable" if playable else ".seat.designatable .plate")
        n = _actions(page)
        page.click(target)
        page.wait_for_function(f"+document.body.dataset.actions > {n}")
    else:
        pytest.fail("no turn with a card the person may not play")
    reached = []
    for _ in range(80):  # more than every control of the page: round and round
        page.keyboard.press("Tab")
        card = page.evaluate(FOCUSED_CARD)
        if card is not None:
            reached.append(card)
    assert reached and all(c["playable"] for c in reached), reached
    assert {c["card"] for c in reached} == set(playable)
    _key_to(page, ".hand.mine .card.playable")
    for key in ["ArrowRight"] * mine.count() + ["ArrowLeft"] * mine.count():
        page.keyboard.press(key)
        card = page.evaluate(FOCUSED_CARD)
        assert card is not None and card["playable"], (key, card)
    page.keyboard.press("?")
    assert "only between the cards you may play" in page.inner_text("#keys")
    page.keyboard.press("Escape")
