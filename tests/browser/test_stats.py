"""Statistics in headless Chromium: a Werner game ended by a click is
counted once (a reload at the end screen adds nothing; the page's focus on
its title), on a phone the page is reached by keyboard from the table and
left back to it, export → reset → import (a real download and file input)
gives the same statistics back, and the record survives a new deployment
(its service worker).

Quick endings: each game from a save made with the engine under CPython one
move before the end (the person's move, or Dracula's bot's forced last card).

Checked in CPython through the real controller instead (tests/test_web_stats.py):
the duel's and Dracula's results and rows
(test_the_page_records_a_finished_game_once_and_gives_an_old_save_an_id,
test_a_game_ended_by_the_bots_last_move_is_recorded_by_the_page,
test_duel_outcome_per_lasting_player,
test_each_game_shows_its_modes_in_words_and_a_drawn_column_only_if_it_has_draws,
test_each_row_names_its_level_with_the_rating_the_start_screen_gave_it,
test_the_page_shows_every_game_and_its_figures: the charts' text alternative),
a practice game not counted (test_a_practice_game_is_not_recorded_by_the_page),
a damaged record kept aside and reported
(test_a_damaged_stored_record_is_kept_aside_and_reported)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from game import new_game
from game.bots.ratings import level_ratings
from game.jekyll_hyde import sides
from game.web.model import saves
from game.web.model import stats as st

pytestmark = pytest.mark.browser
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1366, "height": 768}


def _rated(name: str, game: str, options: dict[str, Any], level: str) -> str:
    """A row's level as the page names it: with its rating in that mode, if measured."""
    rating = level_ratings(game, options).get(level)
    return f"{name} · {rating}" if rating else name


def _stored(page) -> st.Stats:
    text = page.evaluate("localStorage.getItem('jhg.stats')")
    return st.Stats() if text is None else st.load(text)


def _save_before_the_end(game: str, options: dict[str, Any], last: str,
                         game_id: str = "") -> str:
    """A save whose next action ends the game: the person's (`last="me"`,
    the player on turn sits at the screen) or, in Dracula, a bot's (`last="bot"`)."""
    for seed in range(1, 200):
        state = new_game(game, options, seed=seed)
        rng, actions = random.Random(seed), []
        while True:
            action = rng.choice(state.legal_actions())
            if state.apply(action).over:
                break
            actions.append(action)
            state = state.apply(action)
        mover = state.identity(state.to_act)
        if game == "dracula":  # the person is player 0 (the table's ME)
            me: Any = 0
            if (mover == me) != (last == "me"):
                continue
        else:
            assert last == "me"
            me = mover
        players = {str(state.identity(p)) for p in state.players}
        data = state.to_json()
        return saves.dump({
            "game": game, "setup": {"me": me, "bots": {p: "random" for p in players
                                                       if p != str(me)}},
            "transcript": {"game": game, "options": data["options"], "seed": seed,
                           "actions": actions},
            "state": data, "log": [], "seen_hands": len(data["history"]),
            "id": game_id or f"{seed}-1700000000000"})
    raise AssertionError("no seed gives that ending")


def _load_save(page, ui, game: str, text: str) -> None:
    """`text` as `game`'s save, and the game this tab shows (a tab reloads its own game)."""
    page.evaluate("([k, t]) => { localStorage.setItem(k, t); localStorage.setItem("
                  "'jhg.current', k.split('.').pop()); sessionStorage.setItem("
                  "'jhg.current', k.split('.').pop()); }", [saves.key(game), text])
    page.goto(page.site_url + "?speed=instant")
    page.wait_for_selector("body[data-state=ready]", timeout=60000)


def _last_move(page, ui) -> None:
    """The person's move that ends Werner's game."""
    assert ui.wait_settled(page) == "me"
    page.click(".card.playable[data-act], .seat.designatable")
    page.wait_for_function("document.body.dataset.toAct === 'over'")


def _open_stats(page) -> None:
    """The menu's Statistics button, or the end-of-game panel's link while it is open."""
    page.click("#stats-button" if page.is_hidden("#modal") else "#stats-note [data-cmd=stats]")
    page.wait_for_selector("body[data-view=stats] #stats")


def _rows(page, game: str) -> list[list[str]]:
    """The statistics table of `game`, row by row (the mode, then each cell)."""
    return page.eval_on_selector_all(
        f'.stats-game[data-game="{game}"] tbody tr',
        "rows => rows.map(r => [...r.children].map(c => c.textContent.trim()))")


def _shots(page, ui, name: str) -> None:
    page.set_viewport_size(DESKTOP)
    ui.screenshot(page, f"stats-{name}-desktop")
    page.set_viewport_size(PHONE)
    ui.screenshot(page, f"stats-{name}-phone")
    page.set_viewport_size(DESKTOP)


def test_a_werner_game_ended_by_a_click_counts_once(page, ui):
    ui.open_site(page)
    _load_save(page, ui, "jekyll-hyde",
               _save_before_the_end("jekyll-hyde", {"players": 4, "target": 100}, "me"))
    _last_move(page, ui)
    final = page.inner_text("#modal")
    assert "Counted in your statistics." in final
    won = "Your team won the game!" in final
    assert won or "Your team lost the game." in final
    _shots(page, ui, "werner-final")

    page.click("#stats-note [data-cmd=stats]")
    page.wait_for_selector("body[data-view=stats] #stats")
    assert page.evaluate("document.activeElement.id") == "stats-title"
    expected = ["4 players, partners opposite, to 100",
                _rated("Beginner", "jekyll-hyde", {"players": 4}, "random"), "1", "1" if won else "0",
                "0" if won else "1"]
    assert _rows(page, "jekyll-hyde")[0][:5] == expected
    stored = _stored(page).games
    assert len(stored) == 1 and stored[0].result == ("won" if won else "lost")
    save = json.loads(page.evaluate("localStorage.getItem('jhg.save.jekyll-hyde')"))
    state = save["state"]
    team = next(t for t, seats in sides(state["options"]).items() if save["setup"]["me"] in seats)
    assert (state["winner"] == team) == won and stored[0].score == state["scores"][team]
    _shots(page, ui, "page")

    page.click("#stats-close")  # back to the end of the game
    page.wait_for_selector("body[data-view=table]")
    assert not page.is_hidden("#modal")
    page.reload()  # the end screen again: not counted twice
    page.wait_for_selector("body[data-state=ready]", timeout=60000)
    page.wait_for_function("document.body.dataset.toAct === 'over'")
    _open_stats(page)
    assert _rows(page, "jekyll-hyde")[0][:3] == expected[:3]
    assert len(_stored(page).games) == 1


def test_on_a_phone_the_table_reaches_the_page_by_keyboard_and_comes_back(page, ui):
    page.set_viewport_size(PHONE)
    ui.open_site(page, "?speed=instant")
    ui.start_game(page, mode="4A", me="0", seed=5, bots="random")
    assert ui.wait_settled(page) == "me"
    assert page.is_hidden("#stats-button")  # no room in the bar: beside the panel's tabs
    hand = ui.hand(page)
    page.focus("#side-stats")
    page.keyboard.press("Enter")
    page.wait_for_selector("body[data-view=stats]")
    assert page.evaluate("document.activeElement.id") == "stats-title"
    ui.screenshot(page, "stats-empty-phone")
    page.focus("#stats-close")
    page.keyboard.press("Enter")
    page.wait_for_selector("body[data-view=table]")
    assert ui.hand(page) == hand and ui.wait_settled(page) == "me"
    ui.click_and_wait(page, ".card.playable[data-act], .seat.designatable")  # it plays on
    page.set_viewport_size(DESKTOP)


def _records() -> st.Stats:
    results = ["won", "lost", "won", "drawn", "won"]
    return st.Stats(tuple(
        st.GameRecord(f"{n}-{100 + n}", game, mode, level, result, 10 * n, 100 + n)
        for n, (game, mode, level, result) in enumerate([
            ("jekyll-hyde", "4B-300", "strong", results[0]),
            ("jekyll-hyde", "4B-300", "strong", results[1]),
            ("jekyll-vs-hyde", "return-match", "easy", results[3]),
            ("dracula", "standard", st.MIXED, results[2]),
            ("jekyll-hyde", "4B-300", "strong", results[4])])))


def test_export_reset_import_round_trip(page, ui, tmp_path):
    ui.open_site(page)
    original = _records()
    page.evaluate("t => localStorage.setItem('jhg.stats', t)", st.dump(original))
    page.reload()
    page.wait_for_selector("body[data-state=ready]", timeout=60000)
    _open_stats(page)
    assert _rows(page, "jekyll-hyde")[0] == [
        "4 players, partners side by side, to 300",
        _rated("Strong", "jekyll-hyde", {"players": 4}, "strong"), "3", "2", "1", "67%", "1", "1",
        "40", "16.7"]
    assert _rows(page, "jekyll-vs-hyde")[0][2:6] == ["1", "0", "0", "1"]  # played, won, lost, drawn

    with page.expect_download() as download:
        page.click("#stats-export")
    exported = tmp_path / "exported.json"
    download.value.save_as(exported)
    assert st.load(exported.read_text(encoding="utf-8")) == original

    page.click("#stats-reset")
    assert page.evaluate("document.activeElement.id") == "stats-cancel"
    page.click("#stats-cancel")
    assert _stored(page) == original  # cancelled: nothing changed
    page.click("#stats-reset")
    _shots(page, ui, "reset-question")
    page.click("#stats-confirm")
    page.wait_for_selector("#stats-msg")
    assert _stored(page) == st.Stats()
    assert page.locator(".stats-none").count() == 3

    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "jekyll-hyde-games/stats", "version": 1, "games": "x"}')
    page.set_input_files("#stats-file", str(bad))
    page.wait_for_selector("#stats-msg.error")
    message = page.inner_text("#stats-msg")
    assert "not a statistics export" in message and "Nothing was changed" in message
    assert page.locator("#stats-msg[role=alert]").count() == 1
    assert _stored(page) == st.Stats()

    page.set_input_files("#stats-file", str(exported))
    page.wait_for_selector("#stats-ask")
    assert "Games in the file: 5." in page.inner_text("#stats-ask")
    _shots(page, ui, "import-question")
    page.click("#stats-replace")
    page.wait_for_selector("#stats-msg")
    assert _stored(page) == original
    assert _rows(page, "jekyll-hyde")[0][2] == "3"

    # Merging counts each game once: the same file again changes nothing, a new game adds one.
    more = st.Stats((*original.games, st.GameRecord("9-999", "dracula", "standard", "random",
                                                    "lost", -4, 999)))
    other = tmp_path / "more.json"
    other.write_text(st.dump(more))
    page.set_input_files("#stats-file", str(other))
    page.wait_for_selector("#stats-ask")
    page.click("#stats-merge")
    page.wait_for_function("!document.getElementById('stats-ask')")
    assert _stored(page) == more
    assert len(_rows(page, "dracula")) == 2


def test_statistics_survive_a_new_deployment(browser_context, ui, own_site):
    page = browser_context.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.site_url = own_site.url
    try:
        ui.open_site(page)
        _load_save(page, ui, "dracula", _save_before_the_end("dracula", {}, "bot", "5-55"))
        page.wait_for_function("document.body.dataset.toAct === 'over'")
        assert page.evaluate("navigator.serviceWorker.ready.then(r => !!r.active)")
        before = _stored(page)
        assert len(before.games) == 1

        new_cache = own_site.deploy_a_new_version()  # served from the same origin
        page.evaluate("navigator.serviceWorker.getRegistration().then(r => r.update())")
        page.wait_for_selector("#update:not([hidden])", timeout=60000)
        # over the end-of-game panel, in reach of the mouse and of Tab, covering none of it
        ui.screenshot(page, "update-over-final-panel")
        sheet, bar = (page.locator(q).bounding_box() for q in ("#modal .sheet", "#update"))
        assert sheet["y"] + sheet["height"] <= bar["y"] + 1
        page.focus("#modal [data-cmd=close-final]")
        page.keyboard.press("Tab")
        assert page.evaluate("document.activeElement === document.querySelector('#update button')")
        page.keyboard.press("Tab")  # and round again into the panel
        assert page.evaluate("!!document.activeElement.closest('#modal')")
        page.click("#update button")
        page.wait_for_selector("body[data-state=ready]", timeout=60000)
        assert page.evaluate("caches.keys()") == [new_cache]  # the update took
        assert _stored(page) == before
        _open_stats(page)
        assert _rows(page, "dracula")[0][:3] == [
            "Two players", _rated("Beginner", "dracula", {}, "random"), "1"]
    finally:
        page.close()
    assert not errors, errors
