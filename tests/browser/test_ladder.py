"""The start screen offers the five levels of the bot ladder, each with its
measured rating, for the game and mode chosen, in every language."""

from __future__ import annotations

import pytest

from game.bots import levels, think_seconds
from game.bots.ratings import level_ratings
from game.web.draw.i18n import Translator

PlaywrightTimeout = pytest.importorskip("playwright.sync_api").TimeoutError

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1366, "height": 768}


def _labels(page, select: str) -> dict[str, str]:
    return page.eval_on_selector(
        select, "el => Object.fromEntries([...el.options].map(o => [o.value, o.text]))")


def _shown(page, select: str, expected: dict[str, str]) -> dict[str, str]:
    """`select`'s labels (the person's choice aside) once the start screen's
    redraw for the last choice is on the page: the game answers from its
    worker, a few ms after the choice. Waits for `expected`, then compares,
    so that a wrong label fails with the difference."""
    try:
        page.wait_for_function(
            """([select, expected]) => { const el = document.querySelector(select);
              if (!el) return false;
              const shown = [...el.options].filter(o => o.value !== 'person');
              return shown.length === Object.keys(expected).length
                && shown.every(o => expected[o.value] === o.text); }""",
            arg=[select, expected], timeout=30000)
    except PlaywrightTimeout:
        pass
    return {k: v for k, v in _labels(page, select).items() if k != "person"}


def _expected(lang: str, game: str, options: dict[str, int]) -> dict[str, str]:
    t = Translator(lang)
    ratings = level_ratings(game, options)
    assert {"random", "easy", "heuristic"} <= set(ratings)
    seconds = think_seconds(game)
    names = {b: t("bot.thinks", level=t(f"bot.{b}"), seconds=f"{seconds[bot]:g}")
             if bot in seconds else t(f"bot.{b}") for b, bot in levels(game).items()}
    return {b: t("bot.rated", level=name, rating=ratings[b]) if b in ratings
            else t("bot.unrated_strongest", level=name) if b == "expert" else name
            for b, name in names.items()}


# How long each search level thinks, as an English player reads it.
THINKING = {"jekyll-hyde": ("strong", "expert (1 s a move)"),
            "jekyll-vs-hyde": ("strong", "expert (1 s a move)"),
            "dracula": ("strong", "expert (1 s a move)")}


@pytest.mark.browser
@pytest.mark.parametrize("lang", ["en", "de"])
def test_each_game_and_mode_offers_the_levels_with_their_ratings(page, ui, lang):
    ui.open_site(page, f"?lang={lang}")
    for size in (PHONE, DESKTOP):
        page.set_viewport_size(size)
        page.select_option("#f-game", "jekyll-hyde")
        page.select_option("#f-players", "4")
        expected = _expected(lang, "jekyll-hyde", {"players": 4})
        four = _shown(page, "select[name=bot1]", expected)
        assert four == expected
        page.select_option("select[name=bot1]", "expert")  # the longest labels, shown closed
        page.select_option("select[name=bot2]", "strong")
        assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
        ui.screenshot(page, f"ladder-jekyll-hyde-4-{lang}-{size['width']}")
        page.select_option("#f-players", "3")
        expected = _expected(lang, "jekyll-hyde", {"players": 3})
        three = _shown(page, "select[name=bot1]", expected)
        assert three == expected
        assert three != four  # the mode chosen decides the ratings shown
        ui.screenshot(page, f"ladder-jekyll-hyde-3-{lang}-{size['width']}")
        if lang == "en":
            assert [four[level].split(" · ")[0] for level in ("strong", "expert")] == list(
                THINKING["jekyll-hyde"])
        for game, select in (("jekyll-vs-hyde", "#f-jvh_bot"), ("dracula", "#f-dr_bot")):
            page.select_option("#f-game", game)
            expected = _expected(lang, game, {})
            shown = _shown(page, select, expected)
            assert shown == expected
            if lang == "en":
                assert [shown[level].split(" · ")[0] for level in ("strong", "expert")] == list(
                    THINKING[game])
            ui.screenshot(page, f"ladder-{game}-{lang}-{size['width']}")
        page.select_option("#f-game", "jekyll-vs-hyde")
        page.select_option("#f-variant", "return-match")  # a match of two games: its own ratings
        expected = _expected(lang, "jekyll-vs-hyde", {"variant": "return-match"})
        match = _shown(page, "#f-jvh_bot", expected)
        assert match == expected
        page.select_option("#f-variant", "standard")
        expected = _expected(lang, "jekyll-vs-hyde", {})
        assert _shown(page, "#f-jvh_bot", expected) == expected != match
        assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
