"""The bot ladder: the rating fit, the ratings file the start screen reads,
the levels with their ratings on the start screen, and the benchmark's runs."""

from __future__ import annotations

import itertools
import json
import math
import re
from html import escape
from pathlib import Path

import pytest

from game import GAMES, game_module
from game.bots import LEVEL_NAMES, levels, make_bot, think_seconds
from game.bots.ratings import ELO, VIRTUAL_DRAWS, Z95, fit, level_ratings, load_ratings
from game.core.match import wilson95
from game.core.state import GameError
from game.web.draw.i18n import LANGUAGES, Translator
from game.web.draw.start_screen import setup_html
from tests.benchmark_module import load_benchmark


def _ladder():  # type: ignore[no-untyped-def]  # the module's functions, untyped to mypy
    return load_benchmark("ladder")


def _win(gap: float) -> float:
    return 1 / (1 + 10 ** (-gap / 400))


def test_fit_recovers_known_ratings_from_a_round_robin() -> None:
    truth = {"a": 1100.0, "b": 1300.0, "c": 1500.0, "d": 1720.0, "e": 1800.0}
    games = 10_000_000  # expected scores: the fit must give the ratings back
    results = {(x, y): (games * _win(truth[x] - truth[y]), games)
               for x, y in itertools.combinations(truth, 2)}
    fitted = fit(results, anchor="c", anchor_rating=1500)
    for level, rating in truth.items():
        assert fitted[level].rating == pytest.approx(rating, abs=0.05)
        assert fitted[level].low <= fitted[level].rating <= fitted[level].high


def test_fit_of_one_pair_is_its_odds_with_the_fisher_interval() -> None:
    points, games = 700.0, 1000
    fitted = fit({("strong", "weak"): (points, games)}, anchor="weak", anchor_rating=1000)
    won, played = points + VIRTUAL_DRAWS / 2, games + VIRTUAL_DRAWS
    p = won / played
    assert fitted["strong"].rating == pytest.approx(1000 + 400 * math.log10(p / (1 - p)))
    half = Z95 * ELO / math.sqrt(played * p * (1 - p))
    assert fitted["strong"].high - fitted["strong"].rating == pytest.approx(half)
    assert fitted["weak"] == fitted["weak"].__class__(1000, 1000, 1000)


def test_a_chain_of_pairs_adds_up_and_its_intervals_widen_away_from_the_anchor() -> None:
    results = {("b", "a"): (650.0, 1000), ("c", "b"): (650.0, 1000)}
    fitted = fit(results, anchor="b", anchor_rating=1500)
    step = 400 * math.log10(650.5 / 350.5)
    assert fitted["a"].rating == pytest.approx(1500 - step)
    assert fitted["c"].rating == pytest.approx(1500 + step)
    fitted_from_a = fit(results, anchor="a", anchor_rating=1000)
    assert (fitted_from_a["c"].high - fitted_from_a["c"].low
            > fitted_from_a["b"].high - fitted_from_a["b"].low)


def test_a_perfect_score_still_gives_a_finite_rating_and_unlinked_levels_are_left_out() -> None:
    fitted = fit({("strong", "normal"): (500.0, 500), ("x", "y"): (3.0, 4)}, anchor="normal")
    assert math.isfinite(fitted["strong"].rating) and fitted["strong"].rating > 1500 + 400
    assert set(fitted) == {"strong", "normal"}


# -- the ratings file -----------------------------------------------------------------

MODES = [("jekyll-hyde", {"players": 4}), ("jekyll-hyde", {"players": 3}),
         ("jekyll-vs-hyde", {}), ("jekyll-vs-hyde", {"variant": "return-match"}),
         ("dracula", {})]


def test_the_ratings_file_rates_every_level_of_every_game_and_mode_from_what_it_records() -> None:
    ladder = _ladder()
    data = load_ratings()
    assert {(m["game"], json.dumps(m["options"])) for m in data["modes"].values()} == {
        (g, json.dumps(o)) for g, o in MODES}
    for key, mode in data["modes"].items():
        assert key == ladder.mode_key(mode["game"], mode["options"])
        # beginner, easy and normal always; strong and expert once their pairs were played
        # keyed by the levels' names as players see them
        assert [LEVEL_NAMES[level] for level in levels(mode["game"])] == ladder.LADDER == [
            "beginner", "easy", "normal", "strong", "expert"]
        assert {"beginner", "easy", "normal"} <= set(mode["levels"]) <= set(ladder.LADDER)
        assert mode["anchor"] == {"level": "normal", "rating": 1500.0}
        assert mode["machine"] and re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d UTC", mode["fitted"])
        results = {}
        specs, _ = ladder.level_specs(mode["game"])
        for name, pair in mode["pairs"].items():
            low, high = name.split("-")
            assert ladder.LADDER.index(low) < ladder.LADDER.index(high)
            assert pair["games"] == pair["blocks"] * pair["block"] > 0
            assert 0 <= pair["points"] <= pair["games"]
            # the blocks' own scores, where kept (the latest blocks of a pair begun before)
            scored = pair.get("block_points", [])
            assert len(scored) <= pair["blocks"] and sum(scored) <= pair["points"]
            assert all(0 <= p <= pair["block"] for p in scored)
            assert sum(played for _, played in pair["by_side"].values()) == pair["games"]
            # played by the levels as they think now (as the page plays them)
            assert pair["bots"] == [specs[high], specs[low]], (key, name)
            assert 0 <= pair["load"][0] <= pair["load"][1] and len(pair["dates"]) == 2
            results[(high, low)] = (pair["points"], pair["games"])
        # the shown ratings are the fit of the games on file: nothing added by hand
        fitted = fit(results, "normal", 1500)
        shown = ladder.shown_ratings(mode["pairs"], fitted)
        for level, rating in fitted.items():
            stored = mode["levels"][level]
            assert stored["spec"] == specs[level]  # the bot that level plays
            assert stored["shown"] == shown[level]
            assert stored["rating"] == pytest.approx(rating.rating, abs=0.06)
            assert stored["ci95"] == pytest.approx([rating.low, rating.high], abs=0.06)
        # the levels every player meets are measured well enough to be shown
        assert all(shown[level] for level in ("beginner", "easy", "normal"))
    # Dracula's ladder sits one bot lower: its strong level is the heuristic
    dracula = data["modes"]["dracula"]["levels"]
    assert (dracula["normal"]["spec"], dracula["strong"]["spec"]) == (
        "easy:random_share=0.25", "heuristic")


def test_level_ratings_pick_the_mode_played() -> None:
    data = load_ratings()
    four = level_ratings("jekyll-hyde", {"players": 4, "seating": "A", "target": 1000}, data)
    three = level_ratings("jekyll-hyde", {"players": 3, "target": 1000}, data)
    assert four["heuristic"] == three["heuristic"] == "1500"  # by the page's level ids
    by_name = data["modes"]['jekyll-hyde players=4']["levels"]
    assert four == {level: by_name[name]["shown"] for level, name in LEVEL_NAMES.items()
                    if by_name.get(name, {}).get("shown")}
    assert three != four
    assert level_ratings("no-such-game", {}, data) == {}


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game,options", MODES)
def test_the_start_screen_names_each_level_with_its_rating(lang: str, game: str,
                                                           options: dict[str, int]) -> None:
    t = Translator(lang)
    values = {"game": game, **{k: str(v) for k, v in options.items()}}
    form = str(setup_html(t, list(GAMES), values))
    ratings = level_ratings(game, options)
    assert {"random", "easy", "heuristic"} <= set(ratings)
    seconds = think_seconds(game)
    for name, bot in levels(game).items():
        level = t(f"bot.{name}")
        if bot in seconds:  # a level on the page's clock says how long its bot thinks
            level = t("bot.thinks", level=level, seconds=f"{seconds[bot]:g}")
            assert f"{seconds[bot]:g} s" in level
        label = t("bot.rated", level=level, rating=ratings[name]) if name in ratings else level
        if name == "expert" and name not in ratings:  # never measured: says so, not a blank
            label = t("bot.unrated_strongest", level=level)
        assert f">{label}</option>" in form
    assert levels(game)["expert"] in seconds and t("bot.expert") != t("bot.strong")
    assert escape(t("bot.ratings_note")) in form and "1500" in t("bot.ratings_note")


# -- the benchmark ------------------------------------------------------------------


def test_the_ladder_plays_in_blocks_and_a_rerun_adds_only_the_missing_games(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ladder = _ladder()
    file = str(tmp_path / "ratings.json")
    specs, _ = ladder.level_specs("jekyll-vs-hyde")
    args = ("jekyll-vs-hyde", {}, "beginner", "easy", specs)
    ladder.play_pair(file, "jekyll-vs-hyde", *args, wanted=4, block=2, seed=5, workers=1,
                     note="")
    first = json.loads(Path(file).read_text())["modes"]["jekyll-vs-hyde"]["pairs"]["beginner-easy"]
    assert (first["games"], first["blocks"]) == (4, 2)
    ladder.play_pair(file, "jekyll-vs-hyde", *args, wanted=6, block=2, seed=5, workers=1,
                     note="")
    again = json.loads(Path(file).read_text())["modes"]["jekyll-vs-hyde"]["pairs"]["beginner-easy"]
    assert (again["games"], again["blocks"]) == (6, 3)
    # each block's score is kept, for an interval from the blocks' spread
    assert len(again["block_points"]) == 3 and sum(again["block_points"]) == again["points"]
    table = ladder.refit(file, "jekyll-vs-hyde", specs, "")
    assert re.search(r"easy vs beginner +6 ", table)
    # a level by its name, with the bot it plays beside (only normal, the anchor, is linked)
    assert re.search(r"\n  normal +1500 .*shown: .* heuristic$", table)
    assert "block 3" in capsys.readouterr().out


def test_a_refit_drops_the_games_of_a_level_that_now_thinks_otherwise(tmp_path: Path) -> None:
    ladder = _ladder()
    file = str(tmp_path / "ratings.json")
    specs, _ = ladder.level_specs("jekyll-vs-hyde")
    ladder.play_pair(file, "jekyll-vs-hyde", "jekyll-vs-hyde", {}, "beginner", "easy", specs,
                     wanted=2, block=2, seed=5, workers=1, note="")
    data = json.loads(Path(file).read_text())
    pairs = data["modes"]["jekyll-vs-hyde"]["pairs"]
    stale = {**pairs["beginner-easy"], "bots": ["strong:iterations=7", "heuristic"]}
    pairs["normal-strong"] = stale  # played when strong thought otherwise
    Path(file).write_text(json.dumps(data))
    ladder.refit(file, "jekyll-vs-hyde", specs, "")
    mode = json.loads(Path(file).read_text())["modes"]["jekyll-vs-hyde"]
    assert set(mode["pairs"]) == {"beginner-easy"} and "strong" not in mode["levels"]
    assert mode["levels"]["normal"]["spec"] == specs["normal"] == "heuristic"


def test_a_level_above_a_pair_won_every_time_shows_a_floor_and_a_vague_one_nothing() -> None:
    ladder = _ladder()
    pairs = {"beginner-easy": {"games": 1000, "points": 800.0},
             "easy-normal": {"games": 1000, "points": 700.0},
             "normal-strong": {"games": 10, "points": 10.0},
             "strong-expert": {"games": 40, "points": 30.0}}
    results = {(high, low): (p["points"], p["games"]) for low, high in
               (name.split("-") for name in pairs) for p in [pairs[f"{low}-{high}"]]}
    ratings = fit(results, "normal", 1500)
    shown = ladder.shown_ratings(pairs, ratings)
    strong_floor = 1500 + 400 * math.log10(0.7225 / 0.2775)  # Wilson's low end of 10 of 10
    assert shown["strong"] == f"{strong_floor:.0f}+"
    expert_low = wilson95(30, 40)[0]
    assert shown["expert"] == f"{strong_floor + 400 * math.log10(expert_low / (1 - expert_low)):.0f}+"
    assert shown["normal"] == "1500" and shown["easy"] == f"{ratings['easy'].rating:.0f}"
    pairs["strong-expert"]["points"] = 24.0  # its low end under 50%: no floor to show
    assert ladder.shown_ratings(pairs, ratings)["expert"] is None
    pairs["normal-strong"]["points"] = 9.0  # not perfect: fitted, but ±100 is not reached
    ratings = fit({**results, ("strong", "normal"): (9.0, 10)}, "normal", 1500)
    assert ladder.shown_ratings(pairs, ratings)["strong"] is None


def test_the_ladder_refuses_an_unknown_pair() -> None:
    with pytest.raises(ValueError, match="no pair easy-beginner"):
        _ladder().planned_pairs("easy-beginner", 10, 0)
    with pytest.raises(ValueError, match="no pair easy-heuristic"):  # a bot, not a level
        _ladder().planned_pairs("easy-heuristic", 10, 0)


def test_a_tried_spec_plays_its_level_but_never_into_the_pages_ratings(tmp_path: Path) -> None:
    ladder = _ladder()
    other = tmp_path / "tried.json"
    tried = ladder.tried_specs("jekyll-hyde", ["expert=expert:browser=1;infer=1"], other)
    assert tried == {"expert": "expert:browser=1;infer=1"}
    with pytest.raises(ValueError, match="give --file another ratings file"):
        ladder.tried_specs("jekyll-hyde", ["expert=expert:browser=1;infer=1"],
                           ladder.RATINGS_FILE)
    with pytest.raises(ValueError, match="a level of beginner"):
        ladder.tried_specs("jekyll-hyde", ["heuristic=strong"], other)  # a bot, not a level
    with pytest.raises(GameError, match="no bot 'nonsense'"):
        ladder.tried_specs("jekyll-hyde", ["expert=nonsense"], other)
    assert ladder.tried_specs("jekyll-hyde", [], ladder.RATINGS_FILE) == {}


def test_a_respaced_ladder_keeps_the_games_its_bots_played_under_the_levels_that_now_play(
        tmp_path: Path) -> None:
    ladder = _ladder()
    file = str(tmp_path / "ratings.json")
    specs, _ = ladder.level_specs("jekyll-vs-hyde")
    ladder.play_pair(file, "jekyll-vs-hyde", "jekyll-vs-hyde", {}, "beginner", "easy", specs,
                     wanted=2, block=2, seed=5, workers=1, note="")
    played = json.loads(Path(file).read_text())["modes"]["jekyll-vs-hyde"]["pairs"]["beginner-easy"]
    # a ladder one bot lower: random plays easy, and easy normal
    lower = {**specs, "beginner": "easy:random_share=0.9", "easy": specs["beginner"],
             "normal": specs["easy"]}
    ladder.refit(file, "jekyll-vs-hyde", lower, "")
    mode = json.loads(Path(file).read_text())["modes"]["jekyll-vs-hyde"]
    assert mode["pairs"] == {"easy-normal": played}
    assert mode["levels"]["normal"]["spec"] == specs["easy"]
    ladder.refit(file, "jekyll-vs-hyde", specs, "")
    mode = json.loads(Path(file).read_text())["modes"]["jekyll-vs-hyde"]
    assert mode["pairs"] == {"beginner-easy": played}


def test_each_games_ladder_climbs_level_by_level() -> None:
    """Every level is played by a bot of its game, and rated above the one below."""
    import importlib

    for game in GAMES:  # a game's LADDER names levels, not some other word for one
        ladder = getattr(importlib.import_module(game_module(game).__name__ + ".bots"),
                         "LADDER", {})
        assert set(ladder) <= set(levels(game)), game
    for key, mode in load_ratings()["modes"].items():
        ladder_bots = levels(mode["game"])
        assert all(make_bot(mode["game"], spec) for spec in ladder_bots.values())
        # a rating too vague to be shown claims nothing (Werner's expert: a few hands)
        rated = [mode["levels"][name]["rating"] for name in map(LEVEL_NAMES.get, ladder_bots)
                 if mode["levels"].get(name, {}).get("shown")]
        assert rated == sorted(rated) and len(set(rated)) == len(rated), key


def test_the_page_plays_each_level_with_the_bot_its_ladder_names() -> None:
    from game.bots import EasyBot
    from game.web.draw.tables.common import seat_bot

    for game in ("jekyll-hyde", "jekyll-vs-hyde"):
        assert seat_bot(game, "strong").iterations == 100
        assert seat_bot(game, "expert").budget == 1.0
        assert type(seat_bot(game, "heuristic")).__name__ == "HeuristicBot"
    # Dracula's search gains nothing from 3 s: its ladder sits one bot lower
    normal = seat_bot("dracula", "heuristic")
    assert isinstance(normal, EasyBot) and normal.random_share == 0.25
    assert type(seat_bot("dracula", "strong")).__name__ == "HeuristicBot"
    assert seat_bot("dracula", "expert").budget == 1.0
    assert seat_bot("dracula", "no-such-level").budget == seat_bot("dracula", "expert").budget


@pytest.mark.parametrize("game,options", MODES)
def test_the_start_screen_rates_all_five_levels_in_every_mode(game: str,
                                                             options: dict[str, int]) -> None:
    """No level is left without a figure: a newcomer can tell each from the one below."""
    ratings = level_ratings(game, options)
    assert set(ratings) == set(levels(game)), (game, options)
    figures = [int(ratings[level].rstrip("+")) for level in levels(game)]
    assert figures == sorted(figures)


def test_a_level_measured_in_hands_shows_a_floor_above_the_level_below() -> None:
    """A hand's edge is smaller than a game's: hands give a floor, never a figure."""
    ladder = _ladder()
    pairs = {"beginner-easy": {"games": 1000, "points": 800.0},
             "easy-normal": {"games": 1000, "points": 700.0},
             "normal-strong": {"games": 1000, "points": 900.0},
             "strong-expert": {"games": 2000, "points": 1300.0, "unit": "hands"}}
    results = {(high, low): (p["points"], p["games"]) for low, high in
               (name.split("-") for name in pairs) for p in [pairs[f"{low}-{high}"]]}
    ratings = fit(results, "normal", 1500)
    assert (ratings["expert"].high - ratings["expert"].low) / 2 < ladder.SHOWN_HALF_WIDTH
    shown = ladder.shown_ratings(pairs, ratings)
    assert shown["strong"] == f"{ratings['strong'].rating:.0f}"
    low = wilson95(1300, 2000)[0]
    assert shown["expert"] == f"{ratings['strong'].rating + 400 * math.log10(low / (1 - low)):.0f}+"
    pairs["strong-expert"]["points"] = 1000.0  # even: no floor above strong
    assert ladder.shown_ratings(pairs, ratings)["expert"] is None


def test_the_ladder_keeps_hands_apart_from_games_of_the_same_bots(tmp_path: Path) -> None:
    ladder = _ladder()
    file = str(tmp_path / "ratings.json")
    specs, _ = ladder.level_specs("jekyll-hyde")
    args = ("jekyll-hyde players=4", "jekyll-hyde", {"players": 4}, "beginner", "easy", specs)

    def pair() -> dict[str, object]:
        data = json.loads(Path(file).read_text())
        record: dict[str, object] = data["modes"]["jekyll-hyde players=4"]["pairs"]["beginner-easy"]
        return record

    ladder.play_pair(file, *args, wanted=2, block=2, seed=5, workers=1, note="", unit="hands")
    assert pair()["unit"] == "hands" and pair()["games"] == 2
    ladder.play_pair(file, *args, wanted=2, block=2, seed=5, workers=1, note="")
    assert "unit" not in pair() and pair()["games"] == 2  # games start afresh, not added to hands
    assert re.search(r"easy vs beginner +2 ", ladder.refit(file, "jekyll-hyde players=4", specs, ""))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_strongest_level_not_yet_rated_reads_as_the_strongest_not_as_unrated_and_weaker(
        lang: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A strongest level with no rating to show yet (as Werner's expert had, with
    too few hands measured for a floor): the start screen says it is the
    strongest, not yet rated, and invents no number."""
    from game.web.draw.tables import common

    t = Translator(lang)
    for players in (3, 4):
        measured = level_ratings("jekyll-hyde", {"players": players})
        unrated = {level: shown for level, shown in measured.items() if level != "expert"}
        monkeypatch.setattr(common, "level_ratings", lambda game, options: unrated)
        expert = common.level_labels(t, "jekyll-hyde", {"players": players})["expert"]
        thinks = t("bot.thinks", level=t("bot.expert"), seconds="1")
        assert expert == t("bot.unrated_strongest", level=thinks) != thinks
        # and with its floor on file, the floor is shown
        monkeypatch.setattr(common, "level_ratings", lambda game, options: measured)
        shown = common.level_labels(t, "jekyll-hyde", {"players": players})["expert"]
        assert shown == t("bot.rated", level=thinks, rating=measured["expert"])
        assert measured["expert"].endswith("+")  # measured in hands: a floor
