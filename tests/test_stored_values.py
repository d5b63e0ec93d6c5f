"""Nothing the browser keeps can stop the page (issue 55, item 10): every key
of the site given garbage, another JSON type or a huge value, through the real
controller. The page starts, deals, says once what it ignored, and the saved
game beside it is kept. (The online room and seat token: tests/test_online_play_page.py;
the same in a real browser: tests/browser/test_stored_values.py.)"""

from __future__ import annotations

import json

import pytest

from game import new_game
from game.web.model import handover, saves
from game.web.runtime.keeper import Keeper
from game.web.runtime.storage import MemoryStorage
from game.web.model.page import SetupChanged
from tests.page_kit import items, make_page

DAMAGE = {"garbage": "{[", "another type": '[5, null, "x"]', "huge": "x" * 3_000_000}
# Valid JSON whose fields are not what the page writes: each once crashed or was silent.
PREFS_FIELDS = ('{"lang": 5}', '{"speed": []}', '{"speed": "warp"}', '{"setup": 7}',
                '{"setup": {"game": "zzz"}}', '{"setup": {"game": ["a"]}}', '"prefs"')
# What each damaged key is told with (None: a value the page only looks up, never reads).
TOLD = {"jhg.prefs": "notice.prefs_ignored", "jhg.stats": "stats.broken",
        "jhg.save.dracula": "broken", "jhg.current": None, "jhg.broken.20260101T000000": None}


def a_save(game: str = "jekyll-vs-hyde", seed: int = 3) -> str:
    state = new_game(game, {}, seed=seed)
    setup = {"me": "J", "bots": {"H": "random"}}
    return saves.dump({"game": game, "setup": setup, "seen_hands": 0,
                       "transcript": {"game": game, "options": state.to_json()["options"],
                                      "seed": seed, "actions": []},
                       "log": handover.log_events(state, setup), "state": state.to_json()})


def start(stored: dict[str, str]):
    ctrl, screen, _ = make_page(stored, speed="")
    ctrl.start(None)
    return ctrl, screen


def told(ctrl) -> list[str]:
    said = [key for key, _ in ctrl.page.notices]
    return said + (["broken"] if ctrl.page.broken is not None else [])


@pytest.mark.parametrize("damage", DAMAGE)
@pytest.mark.parametrize("key", TOLD)
def test_a_damaged_value_is_ignored_told_once_and_the_saved_game_kept(key, damage):
    duel = a_save()
    stored = {key: DAMAGE[damage], "jhg.save.jekyll-vs-hyde": duel}
    if key == "jhg.save.dracula":  # the game to resume, so that its save is read
        stored["jhg.current"] = "dracula"
    ctrl, screen = start(stored)
    assert screen.errors == []
    if TOLD[key] is not None:
        assert told(ctrl).count(TOLD[key]) == 1, told(ctrl)
    assert items(ctrl)["jhg.save.jekyll-vs-hyde"] == duel  # never written over
    ctrl.command("start", {})  # a new game of the start screen's game (Werner's) deals
    assert ctrl.page.view == "table" and ctrl.state.game_id == "jekyll-hyde"
    assert items(ctrl)["jhg.save.jekyll-vs-hyde"] == duel
    again, screen = start(dict(items(ctrl)))  # told once: the next visit says nothing of it
    assert TOLD[key] is None or TOLD[key] not in told(again)
    assert screen.errors == []
    resumed, _ = start({**items(ctrl), "jhg.current": "jekyll-vs-hyde"})
    assert resumed.page.view == "table" and resumed.state.game_id == "jekyll-vs-hyde"


@pytest.mark.parametrize("text", PREFS_FIELDS)
def test_preferences_of_the_wrong_shape_keep_what_is_good_and_say_what_was_not(text):
    ctrl, screen = start({"jhg.prefs": text})
    assert told(ctrl) == ["notice.prefs_ignored"] and screen.errors == []
    ctrl.command("start", {})
    assert ctrl.page.view == "table"
    assert saves.read_prefs(items(ctrl)["jhg.prefs"])[1] is None  # written back as used


def test_a_good_field_survives_a_bad_one_beside_it():
    ctrl, _ = start({"jhg.prefs": '{"lang": "fr", "speed": {"x": 1}, "newer": [1]}'})
    assert ctrl.page.prefs["lang"] == "fr"
    assert json.loads(items(ctrl)["jhg.prefs"]) == {"lang": "fr", "newer": [1]}
    notice = dict(ctrl.page.notices)["notice.prefs_ignored"]
    assert "speed" in notice["reason"] and "lang" not in notice["reason"]


def test_good_preferences_are_read_silently():
    assert saves.read_prefs('{"lang": "de", "speed": "slow", "setup": {"game": "dracula"}}') == (
        {"lang": "de", "speed": "slow", "setup": {"game": "dracula"}}, None)
    assert Keeper(MemoryStorage(), MemoryStorage()).prefs() == ({}, None)


# -- every key at once, as tests/browser/test_stored_values.py puts them ---------------------

ALL_AT_ONCE = {"garbage": "{[", "another type": '[5, null, "x"]',
               "wrong fields": '{"lang": 5, "speed": [], "setup": {"game": "zzz"}, "format": 1}',
               "huge": "x" * 300_000}
KEYS_AT_ONCE = {"local": ("jhg.prefs", "jhg.stats", "jhg.save.dracula", "jhg.online.jekyll-hyde",
                          "jhg.online.seat.room1", "jhg.broken.20260101T000000"),
                "older": ("jhg.save", "jhg.current")}
SAID_AT_ONCE = {"local": ("notice.prefs_ignored", "stats.broken", "broken"),
                "older": ("broken",)}


@pytest.mark.parametrize("group", KEYS_AT_ONCE)
@pytest.mark.parametrize("damage", ALL_AT_ONCE)
def test_every_key_damaged_at_once_the_page_plays_says_so_once_and_keeps_the_game(damage, group):
    """Every key of a group damaged together (this tab's own `jhg.current` too):
    each fault told once at start and never again, a new game deals, and the
    duel's save beside them is never written over and goes on."""
    duel = a_save()
    stored = {key: ALL_AT_ONCE[damage] for key in KEYS_AT_ONCE[group]}
    stored["jhg.save.jekyll-vs-hyde"] = duel
    tab = {}
    if group == "local":  # Dracula's damaged save is the game to resume
        stored["jhg.current"] = "dracula"
        tab["jhg.current"] = ALL_AT_ONCE[damage]
    ctrl, screen, _ = make_page(stored, speed="")
    ctrl.keeper.tab_store.items.update(tab)
    ctrl.start(None)
    assert screen.errors == []
    for said in SAID_AT_ONCE[group]:
        assert told(ctrl).count(said) == 1, (said, told(ctrl))
    ctrl.command("start", {})  # a new game of the start screen's game (Werner's) deals
    assert ctrl.page.view == "table" and ctrl.state.game_id == "jekyll-hyde"
    assert items(ctrl)["jhg.save.jekyll-vs-hyde"] == duel
    again, _ = start(dict(items(ctrl)))  # told once: the next visit says nothing of it
    assert not {"notice.prefs_ignored", "stats.broken"} & set(told(again)), told(again)
    resumed, _ = start({**items(ctrl), "jhg.current": "jekyll-vs-hyde"})
    assert resumed.page.view == "table" and resumed.state.game_id == "jekyll-vs-hyde"
    assert resumed.session.save["transcript"] == json.loads(duel)["transcript"]


# -- the one save of earlier versions (tests/browser/test_saves_links.py keeps one game) -----

def _played_save(game: str, seed: int) -> str:
    ctrl, _, thinking = make_page()
    ctrl.dispatch(SetupChanged({"game": game, "seed": str(seed)}))
    ctrl.command("start", {})
    thinking.run()
    return items(ctrl)[saves.key(game)]


@pytest.mark.parametrize("game", ["jekyll-hyde", "jekyll-vs-hyde", "dracula"])
def test_the_one_save_of_earlier_versions_is_resumed_then_kept_under_its_games_key(game):
    text = _played_save(game, 8)
    before, _ = start({saves.key(game): text, saves.CURRENT_KEY: game})
    ctrl, screen = start({saves.LEGACY_KEY: text})
    assert screen.errors == [] and ctrl.page.broken is None
    assert ctrl.page.view == "table" and ctrl.state.to_json() == before.state.to_json()
    assert ctrl.session.played == before.session.played
    assert saves.LEGACY_KEY not in items(ctrl) and items(ctrl)[saves.key(game)] == text
    assert 'id="broken-save"' not in screen.last.regions["notices"]


def test_an_old_save_beside_a_newer_one_of_its_game_is_kept_aside():
    old, newer = _played_save("dracula", 8), _played_save("dracula", 9)
    ctrl, screen = start({saves.key("dracula"): newer, saves.CURRENT_KEY: "dracula",
                          saves.LEGACY_KEY: old})
    assert 'id="broken-save"' in screen.last.regions["notices"]
    assert ctrl.state.game_id == "dracula" and ctrl.save["transcript"]["seed"] == 9
    kept = [v for k, v in items(ctrl).items() if k.startswith(saves.BROKEN_PREFIX)]
    assert kept == [old] and saves.LEGACY_KEY not in items(ctrl)
