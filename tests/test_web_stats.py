"""The statistics under CPython: what a finished game records, once; streaks,
best and average; practice left out; damaged records refused (and, in the
page part, kept aside); export and import round trips. The browser side is
tests/browser/test_stats.py."""

from __future__ import annotations

import dataclasses
import json
import random
import re
from typing import Any

import pytest

from game import new_game
from game.web.model import saves
from game.web.model import stats as st
from game.web.model import stats_page as sp
from game.web.draw.html import esc
from game.web.draw.i18n import LANGUAGES, Translator
from game.web.model.page import playable
from game.web.model.session import Said
from game.web.model.page import StorageChanged
from game.web.runtime.controller import record_game
from tests.page_kit import items, make_page, put_on_table


def _finished(game: str, options: dict[str, Any], seed: int) -> Any:
    state = new_game(game, options, seed=seed)
    rng = random.Random(seed)
    while not state.over:
        state = state.apply(rng.choice(state.legal_actions()))
    return state


def _save(state: Any, me: Any, bots: dict[str, str], **extra: Any) -> dict[str, Any]:
    return {"game": state.game_id, "setup": {"me": me, "bots": bots},
            "transcript": {"game": state.game_id, "options": state.to_json()["options"],
                           "seed": 1, "actions": []}, "state": state.to_json(), "log": [],
            "seen_hands": 0, **extra}


def _rec(n: int, result: str = "won", score: int = 10, game: str = "dracula",
         mode: str = "standard", level: str = "random") -> st.GameRecord:
    return st.GameRecord(id=f"{n}-{1000 + n}", game=game, mode=mode, level=level,
                         result=result, score=score, ended=1000 + n)


# -- who won, from the engine ------------------------------------------------------

def test_werner_team_win_counts_for_both_partners_and_the_team_score():
    state = _finished("jekyll-hyde", {"players": 4, "seating": "A", "target": 100}, 3)
    data = state.to_json()
    winners = {seat for seat, share in state.returns().items() if share == 1}
    assert len(winners) == 2  # a team
    for seat in range(4):
        result, score = st.outcome(state, seat)
        assert result == ("won" if seat in winners else "lost")
        assert score in data["scores"].values()
    partner_results = {st.outcome(state, s)[0] for s in winners}
    assert partner_results == {"won"}
    # the winning team's total is the winners' score
    assert st.outcome(state, next(iter(winners)))[1] == data["scores"][data["winner"]]


def test_three_players_a_named_player_wins_alone():
    state = _finished("jekyll-hyde", {"players": 3, "target": 100}, 3)
    data = state.to_json()
    for name, total in data["scores"].items():
        assert st.outcome(state, name) == ("won" if name == data["winner"] else "lost", total)


@pytest.mark.parametrize("variant", ["standard", "return-match"])
def test_duel_outcome_per_lasting_player(variant):
    state = _finished("jekyll-vs-hyde", {"variant": variant}, 4)
    data = state.to_json()
    for me in ("J", "H"):
        result, score = st.outcome(state, me)
        assert score == data["scores"][me]
        assert result == ("drawn" if data["winner"] is None else
                          "won" if data["winner"] == me else "lost")


def test_a_drawn_game_is_a_draw_for_both():
    state = _finished("dracula", {}, 5)
    data = state.to_json()

    class Drawn:  # the engine's answer for a draw (rare with random play): half each
        game_id = "dracula"

        def returns(self) -> dict[int, float]:
            return {0: 0.5, 1: 0.5}

        def to_json(self) -> dict[str, Any]:
            return data

    assert st.outcome(Drawn(), 0) == ("drawn", data["scores"]["0"])  # type: ignore[arg-type]
    assert st.outcome(Drawn(), 1)[0] == "drawn"  # type: ignore[arg-type]


def test_modes_and_levels():
    assert st.mode_of("jekyll-hyde", {"players": 4, "seating": "A", "target": 100}, 1) == "4A-100"
    assert st.level_of({"1": "easy"}) == "easy"
    assert st.level_of({"1": "easy", "2": "strong", "3": "easy"}) == st.MIXED


# -- recording -------------------------------------------------------------------

def test_a_finished_game_is_recorded_once():
    state = _finished("dracula", {}, 5)
    save = _save(state, 0, {"1": "strong"}, id="5-123")
    game = st.finished_game(save, state, 777)
    assert game is not None
    assert (game.id, game.game, game.mode, game.level, game.ended) == (
        "5-123", "dracula", "standard", "strong", 777)
    stats, new = st.record(st.Stats(), game)
    assert new and len(stats.games) == 1
    again, new = st.record(stats, st.finished_game(save, state, 999))  # a reload at the end
    assert not new and again == stats


def test_practice_unfinished_and_id_less_games_are_not_recorded():
    state = _finished("dracula", {}, 5)
    assert st.finished_game(_save(state, 0, {"1": "random"}, id="1-2", practice=True),
                            state, 1) is None
    assert st.finished_game(_save(state, 0, {"1": "random"}), state, 1) is None
    assert st.finished_game(_save(state, 0, {"1": "random"}, id="<b>x</b>"), state, 1) is None
    fresh = new_game("dracula", {}, seed=5)
    assert st.finished_game(_save(fresh, 0, {"1": "random"}, id="1-2"), fresh, 1) is None


def test_games_from_a_file_or_between_people_are_not_recorded():
    state = _finished("dracula", {}, 5)
    assert st.finished_game(_save(state, 0, {"1": "random"}, id="1-2", from_file=True),
                            state, 1) is None
    people = _save(state, 0, {}, id="1-2")
    people["setup"]["people"] = {"0": "Ann", "1": "Bob"}
    assert st.finished_game(people, state, 1) is None
    people["setup"]["people"] = {"0": "Ann"}  # one person against the bots: counted
    people["setup"]["bots"] = {"1": "random"}
    assert st.finished_game(people, state, 1) is not None


def test_the_oldest_games_go_first_beyond_the_limit(monkeypatch):
    monkeypatch.setattr(st, "MAX_GAMES", 3)
    stats = st.Stats()
    for n in range(5):
        stats, _ = st.record(stats, _rec(n))
    assert [g.ended for g in stats.games] == [1002, 1003, 1004]


# -- summed up ---------------------------------------------------------------------

def test_streaks_best_and_average_per_bucket():
    results = ["won", "won", "won", "lost", "won", "drawn", "won", "won"]
    scores = [10, 30, 20, -5, 40, 0, 15, 25]
    stats = st.Stats(tuple(_rec(n, r, s) for n, (r, s) in enumerate(zip(results, scores))))
    other = _rec(99, "lost", 500, mode="other")  # another mode: its own bucket
    (bucket, alone) = st.buckets(st.Stats((*stats.games, other)), "dracula")
    assert (bucket.played, bucket.count("won"), bucket.count("lost"), bucket.count("drawn")) == (
        8, 6, 1, 1)
    assert bucket.win_rate == 6 / 8
    assert (bucket.streak, bucket.best_streak) == (2, 3)
    assert (bucket.best_score, bucket.average_score) == (40, sum(scores) / 8)
    assert (alone.mode, alone.played, alone.streak, alone.best_score) == ("other", 1, 0, 500)
    assert st.buckets(stats, "jekyll-hyde") == []


def test_by_level_orders_weakest_first_and_mixed_last():
    games = [_rec(1, level="strong"), _rec(2, level=st.MIXED), _rec(3, level="random"),
             _rec(4, "lost", level="strong")]
    levels = st.by_level(st.Stats(tuple(games)), "dracula", ["random", "easy", "strong"])
    assert [(b.level, b.played) for b in levels] == [("random", 1), ("strong", 2), ("mixed", 1)]


# -- stored, exported, imported ------------------------------------------------------

def test_dump_and_load_round_trip():
    stats = st.Stats((_rec(1), _rec(2, "lost", -3, game="jekyll-vs-hyde", mode="standard-J",
                                    level="strong"), _rec(3, "drawn", 0, level=st.MIXED)))
    text = st.dump(stats)
    assert json.loads(text)["version"] == st.VERSION
    assert st.load(text) == stats
    assert st.load(st.dump(st.load(text))) == stats


def test_a_version_1_record_moves_draculas_games_to_the_level_their_bot_plays_now():
    old = {"format": st.FORMAT, "version": 1, "games": [
        {**vars(r), "level": level} for r, level in zip(
            (_rec(1), _rec(2), _rec(3), _rec(4), _rec(5, game="jekyll-vs-hyde", mode="standard-J")),
            ("heuristic", "strong", "expert", "easy", "heuristic"))]}
    moved = st.load(json.dumps(old))
    # the heuristic is Dracula's strong now, and the 1 s search its expert
    assert [g.level for g in moved.games] == ["strong", "expert", "expert", "easy", "heuristic"]
    assert json.loads(st.dump(moved))["version"] == 2
    assert st.load(st.dump(moved)) == moved  # a version-2 record is read as it is


def _damaged(change: Any) -> str:
    data = json.loads(st.dump(st.Stats((_rec(1), _rec(2)))))
    change(data)
    return json.dumps(data)


@pytest.mark.parametrize("text", [
    "", "{", "[]", "null", '"x"', "[" * 5000,
    json.dumps({"format": "jekyll-hyde-games/save", "version": 1, "games": []}),
    _damaged(lambda d: d.update(version=3)),
    _damaged(lambda d: d.update(version=True)),
    _damaged(lambda d: d.update(games={})),
    _damaged(lambda d: d["games"][0].update(result="victory")),
    _damaged(lambda d: d["games"][0].update(score="10")),
    _damaged(lambda d: d["games"][0].update(score=True)),
    _damaged(lambda d: d["games"][0].update(score=1.5)),
    _damaged(lambda d: d["games"][0].update(ended=-1)),
    _damaged(lambda d: d["games"][0].update(game="chess")),
    _damaged(lambda d: d["games"][0].update(level="cheater")),
    _damaged(lambda d: d["games"][0].update(level=["strong"])),
    _damaged(lambda d: d["games"][0].update(mode="<img src=x>")),
    _damaged(lambda d: d["games"][0].update(id="<script>")),
    _damaged(lambda d: d["games"][1].update(id=d["games"][0]["id"])),  # counted twice
    _damaged(lambda d: d["games"][0].update(extra=1)),
    _damaged(lambda d: d["games"][0].pop("score")),
    _damaged(lambda d: d["games"].append(7)),
])
def test_damaged_records_are_refused_with_a_reason(text):
    with pytest.raises(st.BrokenStats) as refused:
        st.load(text)
    assert str(refused.value)


def test_deep_nesting_is_refused_before_parsing():
    """Pyodide's stack overflows (a fatal error) long before Python's recursion limit."""
    with pytest.raises(st.BrokenStats, match="nested too deeply"):
        st.load("[" * 5000 + "]" * 5000)


def test_merge_counts_each_game_once_in_the_order_they_ended():
    mine = st.Stats((_rec(1), _rec(4)))
    theirs = st.Stats((_rec(2), _rec(4, "lost"), _rec(3)))
    merged = st.merge(mine, theirs)
    assert [g.ended for g in merged.games] == [1001, 1002, 1003, 1004]
    assert merged.games[-1].result == "won"  # the copy already here is kept
    assert st.merge(merged, merged) == merged


# -- the page part: the page's own controller, with a store in memory -------------------

def _table(ctrl, state, save):
    put_on_table(ctrl, state, save)


def _final_note(app):
    return sp.final_note(app.t, app.save, app.page.stats)


def _page_html(app):
    return sp.page_html(app.t, app.page.stats)


def test_the_page_records_a_finished_game_once_and_gives_an_old_save_an_id():
    app, _, _ = make_page()
    state = _finished("jekyll-vs-hyde", {}, 4)
    _table(app, state, _save(state, "H", {"J": "easy"}))  # a save without an id
    record_game(app)
    assert st.valid_id(app.save["id"])
    assert json.loads(items(app)[saves.key("jekyll-vs-hyde")])["id"] == app.save["id"]
    record_game(app)  # the end screen again (a reload)
    stats = st.load(items(app)[st.KEY])
    assert len(stats.games) == 1 and stats.games[0].mode == "standard-H"
    assert "stats-note" in _final_note(app) and "Counted" in _final_note(app)
    app.update_save(practice=True)
    assert "not counted" in _final_note(app)
    app.update_save(practice=False)
    del items(app)[st.KEY]  # the record could not be kept (storage refused it): the end says so
    app.perform(StorageChanged(st.KEY, None))
    assert "could not be stored" in _final_note(app)


def _read_stats(app) -> st.Stats:
    """The record as the statistics screen reads it afresh (a damaged one set aside)."""
    app.tell(app.keeper.stats_read(app.page))
    return app.page.stats.record


def test_a_result_the_browser_cannot_keep_is_counted_from_memory_until_it_can():
    app, _, _ = make_page()
    app.keeper.store.quota = 0  # storage full
    first = _finished("dracula", {}, 2)
    _table(app, first, _save(first, 0, {"1": "random"}, id="2-3"))
    record_game(app)
    assert st.KEY not in items(app)
    assert [g.id for g in _read_stats(app).games] == ["2-3"] and "Counted" in _final_note(app)
    app.keeper.store.quota = None  # room again: the next game's record holds both
    second = _finished("dracula", {}, 5)
    _table(app, second, _save(second, 0, {"1": "random"}, id="5-6"))
    record_game(app)
    assert [g.id for g in st.load(items(app)[st.KEY]).games] == ["2-3", "5-6"]


def test_a_practice_game_is_not_recorded_by_the_page():
    app, _, _ = make_page()
    state = _finished("dracula", {}, 2)
    _table(app, state, _save(state, 0, {"1": "random"}, id="2-3", practice=True))
    record_game(app)
    assert st.KEY not in items(app)


def test_a_damaged_stored_record_is_kept_aside_and_reported():
    damaged = '{"format": "jekyll-hyde-games/stats", "version": 1, "games": [1]}'
    app, _, _ = make_page({st.KEY: damaged})
    assert st.KEY not in items(app)
    aside = [k for k in items(app) if k.startswith(saves.BROKEN_PREFIX)]
    assert len(aside) == 1 and items(app)[aside[0]] == damaged
    assert [key for key, _ in app.page.notices] == ["stats.broken"]
    key, words = app.page.notices[0]
    assert words["where"] == aside[0] and aside[0] in app.t(key, **words)  # as the page says it
    assert _read_stats(app) == st.Stats()  # a new record starts, reported once
    assert len(app.page.notices) == 1


def test_a_damaged_record_that_cannot_be_kept_aside_is_never_written_over():
    damaged = "{"
    # storage full: what is there may be rewritten, nothing new fits
    app, _, _ = make_page({st.KEY: damaged}, speed="",
                          quota=len(st.KEY) + len(damaged))
    state = _finished("dracula", {}, 2)
    _table(app, state, _save(state, 0, {"1": "random"}, id="2-3"))
    record_game(app)
    assert items(app)[st.KEY] == damaged
    (key, words), = app.page.notices
    assert key == "stats.broken_kept_in_place" and words["where"] == st.KEY
    assert "could not be stored" in _final_note(app)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_page_shows_every_game_and_its_figures(lang):
    games = (_rec(1, "won", 120, game="jekyll-hyde", mode="4A-100", level="random"),
             _rec(2, "lost", 80, game="jekyll-hyde", mode="3-300", level=st.MIXED),
             _rec(3, "drawn", 5, level="strong"))
    app, _, _ = make_page({st.KEY: st.dump(st.Stats(games))}, lang)
    markup = _page_html(app)
    t = app.t
    for game in playable():
        assert esc(t("game." + game)) in markup
    assert markup.count("<svg viewBox") == 2  # a chart per game with games
    assert markup.count('role="img"') == 2 and "<title id=" in markup
    assert esc(t("stats.mode.jekyll-hyde.4A", target=100)) in markup
    assert esc(t("stats.none")) in markup  # the duel has none
    assert markup.count("<tbody>") == 2
    export = markup.split('id="stats-export"')[1].split('href="')[1].split('"')[0]
    from urllib.parse import unquote
    assert st.load(unquote(export.split(",", 1)[1])) == st.Stats(games)


@pytest.mark.parametrize("game, options", [
    ("jekyll-hyde", {"players": 4, "seating": "B", "target": 300}),
    ("jekyll-hyde", {"players": 3, "target": 1000}),
    ("jekyll-vs-hyde", {"variant": "standard"}),
    ("jekyll-vs-hyde", {"variant": "return-match"}),
    ("dracula", {}),
])
def test_each_row_names_its_level_with_the_rating_the_start_screen_gave_it(game, options):
    """A row's rating is the one of the mode it was played in (the 3-player
    game's strong is not the 4-player game's); mixed bots have none."""
    from game.bots.ratings import level_ratings
    from game.web.draw.tables.common import level_labels

    me = "H" if game == "jekyll-vs-hyde" else 0
    mode = st.mode_of(game, options, me)
    games = (_rec(1, game=game, mode=mode, level="heuristic"),
             _rec(2, game=game, mode=mode, level="easy"), _rec(3, game=game, mode=mode,
                                                              level=st.MIXED))
    app, _, _ = make_page({st.KEY: st.dump(st.Stats(games))}, "de")
    markup = _page_html(app)
    t = app.t
    rated = level_ratings(game, options)
    assert rated["heuristic"] == "1500" and rated["easy"]  # what the test is about
    start_screen = level_labels(t, game, options)
    for level in ("heuristic", "easy"):
        shown = t("bot.rated", level=t("stats.level." + level), rating=rated[level])
        assert f'data-label="{esc(t("stats.col.level"))}">{esc(shown)}</td>' in markup
        assert rated[level] in start_screen[level]
    assert f'>{esc(t("stats.level.mixed"))}</td>' in markup
    assert markup.count(esc(t("bot.ratings_note"))) == 1


def test_a_mode_from_another_version_shows_its_levels_without_a_rating():
    app, _, _ = make_page({st.KEY: st.dump(st.Stats((_rec(1, game="jekyll-hyde", mode="4C-300",
                                                          level="easy"),)))})
    markup = _page_html(app)
    assert ">4C-300</th>" in markup and f'>{esc(app.t("stats.level.easy"))}</td>' in markup


def test_the_ratings_are_explained_only_where_a_game_shows_them():
    app, _, _ = make_page()
    assert esc(app.t("bot.ratings_note")) not in _page_html(app)


def test_the_page_escapes_what_an_import_says():
    app, _, _ = make_page()
    said = Said("stats.bad_file", {"reason": "<img src=x onerror=alert(1)>"})
    markup = sp.page_html(app.t, dataclasses.replace(app.page.stats, note=said))
    assert "<img" not in markup and "&lt;img" in markup


def test_each_game_shows_its_modes_in_words_and_a_drawn_column_only_if_it_has_draws():
    """The words and columns each game's table gives its rows: Werner's
    players, seating and target, the duel's variants and roles, Dracula's one
    mode; a "drawn" column for the duel and Dracula, whose rules know a draw."""
    modes = {"jekyll-hyde": {"4A-100": "4 players, partners opposite, to 100",
                             "4B-300": "4 players, partners side by side, to 300",
                             "3-1000": "3 players, to 1000", "4C-300": "4C-300"},
             "jekyll-vs-hyde": {"standard-J": "Standard, as Dr. Jekyll",
                                "standard-H": "Standard, as Mr. Hyde",
                                "return-match": "Return match", "sudden": "sudden"},
             "dracula": {"standard": "Two players"}}
    games = tuple(_rec(10 * i + j, game=game, mode=mode)
                  for i, (game, shown) in enumerate(modes.items()) for j, mode in enumerate(shown))
    app, _, _ = make_page({st.KEY: st.dump(st.Stats(games))}, "en")
    markup = _page_html(app)
    drawn = f'data-label="{esc(app.t("stats.col.drawn"))}"'
    for game, shown in modes.items():
        part = markup.split(f'data-game="{game}"')[1].split('class="stats-game"')[0]
        rows = re.findall(r'<th scope="row" role="rowheader">([^<]*)</th>', part)
        assert rows == [esc(text) for text in shown.values()], game
        assert (drawn in part) == (game != "jekyll-hyde"), game


def test_a_game_ended_by_the_bots_last_move_is_recorded_by_the_page():
    """Dracula's last card played by the bot (no click of the person's): the
    controller records the game once, as the engine scores it for the person."""
    from game.web.model.undo import hands_scored

    for seed in range(1, 200):
        state, rng, actions = new_game("dracula", {}, seed=seed), random.Random(seed), []
        while not state.apply(action := rng.choice(state.legal_actions())).over:
            actions.append(action)
            state = state.apply(action)
        if state.to_act == 1:
            break
    else:
        raise AssertionError("no seed ends with the bot's move")
    save = {**_save(state, 0, {"1": "random"}, id="7-8"),
            "transcript": {"game": "dracula", "options": state.to_json()["options"],
                           "seed": seed, "actions": actions},
            "seen_hands": hands_scored(state)}  # the deals before it were seen
    app, _, thinking = make_page({saves.key("dracula"): saves.dump(save),
                                  "jhg.current": "dracula"})
    app.resume()  # the page opened on that save
    while not app.session.state.over:
        assert thinking.run(), "the bot on turn was not asked to think"
    assert app.session.state.over
    game, = st.load(items(app)[st.KEY]).games
    assert (game.id, game.game, game.level) == ("7-8", "dracula", "random")
    assert (game.result, game.score) == st.outcome(app.session.state, 0)
    assert "Counted" in _final_note(app)
    record_game(app)  # the end screen again: still once
    assert len(st.load(items(app)[st.KEY]).games) == 1
