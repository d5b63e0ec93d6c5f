"""The page as an attacker finds it: tampered saves, strange URLs and inputs,
and a Content-Security-Policy that stops script planted in the markup.

Every payload would set `window.__pwned`; it must stay unset, no element the
payload names may appear, and the player always gets a message, never a
traceback.
"""

from __future__ import annotations

import json
import random
from urllib.parse import quote, unquote

import pytest

from game import new_game
from game.web.model import saves

PAYLOAD = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>'
NAME = '<img src=x onerror="__pwned=1">'  # a player's name: at most 40 characters


def _save(game: str, options: dict, me, actions: int, seed: int = 5) -> dict:
    state = new_game(game, options, seed=seed)
    rng = random.Random(seed)
    played = []
    for _ in range(actions):
        if state.over:
            break
        action = rng.choice(state.legal_actions())
        state = state.apply(action)
        played.append(action)
    return {"format": saves.FORMAT, "version": saves.VERSION, "game": game,
            "setup": {"me": me, "bots": {}},
            "transcript": {"game": game, "options": state.to_json()["options"], "seed": seed,
                           "actions": played},
            "state": state.to_json(), "log": [], "seen_hands": len(state.to_json()["history"])}


def _load_with(page, ui, save: dict | str) -> None:
    text = save if isinstance(save, str) else json.dumps(save)
    ui.open_site(page)
    page.evaluate("t => localStorage.setItem('jhg.save', t)", text)
    ui.open_site(page, clear=False)


def _assert_nothing_ran(page) -> None:
    assert page.evaluate("window.__pwned") is None
    assert page.locator("img[src=x]").count() == 0
    assert page.locator("#screen script, #side script, #modal script, #notices script").count() == 0
    assert "Traceback" not in page.inner_text("body")


def _visit_panels(page) -> None:
    """Draw every panel a save feeds: the log, the last trick and the scores."""
    for panel in ("log", "last", "scores"):
        button = page.locator(f"#side [data-panel={panel}]")
        if button.count():
            button.first.click()
            _assert_nothing_ran(page)


def test_werner_history_payload_runs_no_script(page, ui):
    """The reported hole: history points pasted into the score sheet."""
    save = _save("jekyll-hyde", {"players": 4}, 0, 40)
    assert save["state"]["history"], "the save must hold a finished hand"
    save["state"]["history"][0]["points"]["jekyll"] = PAYLOAD
    _load_with(page, ui, save)
    _visit_panels(page)
    _assert_nothing_ran(page)
    # A save whose history is not numbers is refused and kept, with the reason as text.
    assert page.is_visible("#broken-save")


@pytest.mark.parametrize("game,options,me", [
    ("jekyll-hyde", {"players": 4, "seating": "B"}, 1),
    ("jekyll-hyde", {"players": 3, "names": [NAME, "Adam", "Betty"]}, NAME),
    ("jekyll-vs-hyde", {}, "J"),
    ("dracula", {}, 0),
])
def test_payloads_in_the_strings_a_save_keeps(page, ui, game, options, me):
    """Strings that survive validation (player names, the log, the transcript)
    hold the payload: the table, its panels and summaries draw it as text."""
    save = _save(game, options, me, 12)
    save["log"] = [{"kind": PAYLOAD, "text": PAYLOAD, "who": PAYLOAD, "card": PAYLOAD}]
    save["transcript"]["options"] = {**save["transcript"]["options"], "note": PAYLOAD}
    _load_with(page, ui, save)
    page.wait_for_selector("body[data-view=table], #broken-save")
    _visit_panels(page)
    _assert_nothing_ran(page)
    ui.screenshot(page, f"security-payload-{game}-{len(options)}")


def test_every_string_replaced_by_the_payload(page, ui):
    def poison(x):
        if isinstance(x, str):
            return PAYLOAD
        if isinstance(x, dict):
            return {k: poison(v) for k, v in x.items()}
        if isinstance(x, list):
            return [poison(v) for v in x]
        return x

    save = _save("jekyll-hyde", {"players": 4}, 0, 10)
    save = {**poison(save), "format": saves.FORMAT}
    _load_with(page, ui, save)
    page.wait_for_selector("#broken-save")
    _assert_nothing_ran(page)
    assert "could not be loaded" in page.inner_text("#broken-save")


def test_seen_hands_not_a_number_is_kept_aside_and_survives_a_new_game(page, ui):
    save = _save("jekyll-hyde", {"players": 4}, 0, 3)
    save["seen_hands"] = "x"
    text = json.dumps(save)
    _load_with(page, ui, text)
    page.wait_for_selector("#broken-save")
    assert "seen_hands" in page.inner_text("#broken-save")
    href = page.get_attribute("#broken-save a[download]", "href")
    assert unquote(href.split(",", 1)[1]) == text  # the download is the save, byte for byte
    ui.start_game(page)
    kept = page.evaluate(
        "Object.keys(localStorage).filter(k => k.startsWith('jhg.broken.'))"
        ".map(k => localStorage.getItem(k))")
    assert kept == [text]
    _assert_nothing_ran(page)


@pytest.mark.parametrize("value", ["abc", "²", "9" * 5000, "12abc", "-4"])
def test_deal_number_field_refuses_what_is_not_a_number(page, ui, value):
    ui.open_site(page)
    # Set the value as a paste or a script would (the field's maxlength stops typing).
    page.eval_on_selector("#f-seed", "(el, v) => { el.value = v; }", value)
    page.click("#start")
    page.wait_for_selector("#setup-error")
    assert page.evaluate("document.body.dataset.view") == "setup"
    assert "0-9" in page.inner_text("#setup-error") or "between" in page.inner_text("#setup-error")
    assert page.get_attribute("#f-seed", "aria-invalid") == "true"
    page.fill("#f-seed", "12")
    page.click("#start")
    page.wait_for_selector("body[data-view=table]")
    _assert_nothing_ran(page)


@pytest.mark.parametrize("query", [
    "game=jekyll-hyde&scenario=designation&step=%C2%B2",
    "game=jekyll-hyde&seed=%C2%B2",
    "game=jekyll-hyde&seed=" + "9" * 4301,
    "game=" + quote(PAYLOAD),
    "game=jekyll-hyde&scenario=designation&" + quote(PAYLOAD) + "=1",
    "game=dracula&first=" + quote(PAYLOAD),
])
def test_strange_embed_parameters_get_a_message(page, query):
    page.goto(page.site_url + "embed.html?" + query)
    page.wait_for_selector("body[data-state=ready]", timeout=60000)
    page.wait_for_selector("#ex-error")
    assert page.inner_text("#ex-error").strip()
    _assert_nothing_ran(page)


def test_the_policy_blocks_script_planted_in_the_page(page, ui):
    ui.open_site(page)
    policy = page.get_attribute("meta[http-equiv=Content-Security-Policy]", "content")
    assert "script-src 'self'" in policy and "unsafe-inline" not in policy.split("style-src")[0]
    page.evaluate("""() => {
        window.__violations = 0;
        document.addEventListener('securitypolicyviolation', () => { window.__violations++; });
        document.getElementById('notices').insertAdjacentHTML('beforeend',
            '<img src="data:," onerror="window.__pwned=1" onload="window.__pwned=1">');
        const s = document.createElement('script');
        s.textContent = 'window.__pwned = 3';
        document.body.appendChild(s);
    }""")
    page.wait_for_function("window.__violations >= 2")
    assert page.evaluate("window.__pwned") is None
    page.watch.errors.clear()  # the blocked script's report is the point of this test


@pytest.mark.parametrize("name", ["index.html", "embed.html?game=dracula&scenario=lines",
                                  "static/rules/jekyll-hyde.en.html"])
def test_every_page_carries_the_policy(page, name):
    page.goto(page.site_url + name)
    assert page.locator("meta[http-equiv=Content-Security-Policy]").count() == 1


# What embedding pages, extensions and resizer scripts post to a page. "_si" is
# the message Emscripten's own setImmediate stand-in used to answer to.
MESSAGES = "['_si', 'hello', {a: 1}, 42, null, '_si']"


@pytest.mark.parametrize("name", ["index.html", "embed.html?game=dracula"])
def test_messages_posted_to_the_page_are_ignored(page, ui, name):
    page.goto(page.site_url + name)
    page.evaluate(f"for (const m of {MESSAGES}) window.postMessage(m, '*')")  # while Python starts
    page.wait_for_selector("body[data-state=ready]", timeout=60000)
    page.evaluate(f"for (const m of {MESSAGES}) window.postMessage(m, '*')")
    if name == "index.html":
        page.click("#start")
        page.wait_for_selector("body[data-view=table]")
    assert ui.wait_settled(page) in ("me", "modal")
    # The page fixture fails the test on any page error the messages caused.


def _damaged(save: dict) -> list[str]:
    """Ten ways a save arrives broken: each must be refused, kept and reported."""
    state = save["state"]
    hands = state["hands"]
    seat = next(k for k, v in hands.items() if len(v) >= 2)

    def variant(change) -> str:
        data = json.loads(json.dumps(save))
        change(data)
        return json.dumps(data)

    deep = "[" * 5000 + "]" * 5000
    return [
        variant(lambda d: d["state"].update(hands={**hands, seat: 7})),            # wrong type
        variant(lambda d: d["state"].pop("hands")),                                # missing key
        variant(lambda d: d["state"]["hands"][seat].__setitem__(0, "ZZ")),         # unknown card
        variant(lambda d: d["state"]["hands"][seat].__setitem__(1, hands[seat][0])),  # twice
        variant(lambda d: d["state"].update(scores="HUGE")).replace('"HUGE"', "9" * 5000),
        variant(lambda d: d["state"].update(winner=True)),                         # a bool winner
        variant(lambda d: d.update(seen_hands=float("inf"))),                      # not finite
        variant(lambda d: d.update(setup={"me": {"x": deep}, "bots": {}})),        # nesting
        variant(lambda d: d["state"].update(game="jekyll-hyde\u202e")),            # unicode
        json.dumps(save)[: len(json.dumps(save)) // 2],                            # truncated
    ]


@pytest.mark.parametrize("game,options,me", [
    ("jekyll-hyde", {"players": 4}, 0), ("jekyll-vs-hyde", {}, "J"), ("dracula", {}, 0)])
def test_damaged_saves_are_reported_kept_and_replaced_by_a_new_game(page, ui, game, options, me):
    save = _save(game, options, me, 3)  # early: every hand still holds cards
    ui.open_site(page)
    for n, text in enumerate(_damaged(save)):
        page.evaluate("t => { localStorage.clear(); localStorage.setItem('jhg.save', t); }", text)
        ui.open_site(page, clear=False)
        page.wait_for_selector("#broken-save")
        assert "could not be loaded" in page.inner_text("#broken-save"), n
        href = page.get_attribute("#broken-save a[download]", "href")
        assert unquote(href.split(",", 1)[1]) == text, n  # the download is the save itself
        assert page.evaluate("document.body.dataset.view") == "setup", n  # a new game is offered
        assert page.is_visible("#start"), n
        _assert_nothing_ran(page)
    ui.start_game(page)  # the last broken save survives a new game
    kept = page.evaluate("Object.keys(localStorage).filter(k => k.startsWith('jhg.broken.'))")
    assert len(kept) == 1
