"""The page as an attacker finds it, in Chromium: what only the real DOM
parser, the real Content-Security-Policy and the real window can show.

- one save whose kept strings (a player's name, the log, the transcript) hold
  a script payload: the table and its panels, parsed by the browser, run none;
- a damaged save's notice: its download is the save byte for byte, and it is
  still kept after a new game (real storage);
- one deal number that is no number, typed into the real field;
- one embed parameter holding the payload;
- the policy blocks script planted in the page; messages posted to the page
  are ignored.

Every payload would set `window.__pwned`; it must stay unset, no element the
payload names may appear, and the player always gets a message, never a
traceback. The rest is checked under CPython: every string of a save escaped
or refused (tests/test_web_safety.py::test_every_string_of_a_save_is_escaped_or_refused),
saves damaged in twelve ways reported, kept and downloadable
(::test_damaged_saves_are_reported_kept_and_survive_a_new_game), every bad deal
number (::test_numbers_from_outside_are_ascii_digits_only,
::test_a_deal_number_that_is_no_number_is_said_on_the_field_then_a_good_one_deals),
the policy in every built page (::test_every_built_page_carries_the_policy_once),
and every strange embed parameter (tests/test_embed_front.py::test_strange_parameters_get_a_message_as_text).
"""

from __future__ import annotations

import json
from urllib.parse import quote, unquote

import pytest

from tests.page_kit import random_save

PAYLOAD = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>'
NAME = '<img src=x onerror="__pwned=1">'  # a player's name: at most 40 characters


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


@pytest.mark.parametrize("game,options,me", [
    ("jekyll-hyde", {"players": 3, "names": [NAME, "Adam", "Betty"]}, NAME),
])
def test_payloads_in_the_strings_a_save_keeps(page, ui, game, options, me):
    """Strings that survive validation (player names, the log, the transcript)
    hold the payload: the table, its panels and summaries draw it as text."""
    save = random_save(game, options, me, 12)
    save["log"] = [{"kind": PAYLOAD, "text": PAYLOAD, "who": PAYLOAD, "card": PAYLOAD}]
    save["transcript"]["options"] = {**save["transcript"]["options"], "note": PAYLOAD}
    _load_with(page, ui, save)
    page.wait_for_selector("body[data-view=table], #broken-save")
    _visit_panels(page)
    _assert_nothing_ran(page)
    ui.screenshot(page, f"security-payload-{game}-{len(options)}")


def test_seen_hands_not_a_number_is_kept_aside_and_survives_a_new_game(page, ui):
    save = random_save("jekyll-hyde", {"players": 4}, 0, 3)
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


@pytest.mark.parametrize("value", ["abc"])
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


@pytest.mark.parametrize("query", ["game=" + quote(PAYLOAD)])
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
