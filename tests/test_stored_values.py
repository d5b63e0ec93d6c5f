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
