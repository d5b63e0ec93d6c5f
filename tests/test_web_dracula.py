"""The Dracula table renderer under CPython (no browser): whole games in every
language, hidden cards never shown, errors and log lines in words."""

from __future__ import annotations

import random
import string
from html.parser import HTMLParser
from types import SimpleNamespace

import pytest

from game import GameError, new_game
from game.web.i18n import LANGUAGES, Translator, catalog
from game.web.tables import dracula as dr


def _fields(text: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(text) if f}


def test_every_language_has_every_text():
    en = {k: v for k, v in catalog("en").items() if k.startswith("dr.")}
    assert len(en) > 100
    for lang in LANGUAGES:
        cat = catalog(lang)
        for key, text in en.items():
            assert key in cat, (lang, key)
            assert _fields(cat[key]) == _fields(text), (lang, key)


class _Words(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []

    def handle_data(self, data: str) -> None:
        self.parts.append(data)

    def handle_starttag(self, tag, attrs) -> None:  # labels are read out too
        self.parts += [v for k, v in attrs if k in ("aria-label", "title") and v]


def _text(html: str) -> str:
    p = _Words()
    p.feed(html)
    return " ".join(p.parts)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_whole_games_render(lang):
    t = Translator(lang)
    for seed in (1, 2):
        state = new_game("dracula", {"first_dealer": seed % 2}, seed=seed)
        rng = random.Random(seed)
        ctx = SimpleNamespace(t=t, seat=0, thinking=None, log=[])
        log = dr.first_events(state, ctx)
        while not state.over:
            obs = state.observation(0)
            html = dr.render(obs, ctx)
            assert 'class="dr-table' in html
            for card in state.to_json()["hands"]["1"]:  # the bot's hand stays hidden
                assert f'data-card="{card}"' not in html
            for part in (html, dr.score_sheet(obs, ctx), dr.last_trick(obs, ctx)):
                words = _text(part)
                assert "dr." not in words and "{" not in words
            if obs["history"]:
                assert "×" in _text(dr.hand_summary(obs, ctx))
            if state.to_act == 0:
                for bad in ("@00", "@11", "QH@00", "V1@11", "way:Q", "nonsense"):
                    try:
                        state.apply(bad)
                    except GameError as e:
                        text = dr.explain(str(e), obs, ctx)
                        assert "legal" not in text and "player" not in text, (str(e), text)
            action = rng.choice(state.legal_actions())
            after = state.apply(action)
            dr.merge_event(log, dr.events(state, action, after, ctx))
            state = after
        obs = state.observation(0)
        final = _text(dr.final_summary(obs, ctx))
        assert str(obs["scores"]["0"]) in final and str(obs["scores"]["1"]) in final
        for ev in log:
            line = dr.event_text(ev, ctx)
            assert line and "{" not in line and not line.startswith("dr."), ev


def test_explain_names_the_problem():
    t = Translator("en")
    state = new_game("dracula", {"first_dealer": 1}, seed=5).apply("way:Q")
    ctx = SimpleNamespace(t=t, seat=0, thinking=None, log=[])
    obs = state.observation(0)
    card = obs["hand"][0]
    for action, words in ((f"{card}@00", "touches no card"), (f"{card}@11", "taken"),
                          ("@01", "Choose a card")):
        with pytest.raises(GameError) as e:
            state.apply(action)
        assert words in dr.explain(str(e.value), obs, ctx)


def test_deal_result_and_tie_rule():
    obs = {"ways": {"0": "Q", "1": "K"}}
    grid = [["QH", "10H", "5H"], ["2S", "V1", "KC"], ["AD", "3D", "KD"]]
    entry = {"grid": grid, "lines": {"0": [125, 0, 20], "1": [3, 0, 25]},
             "score": {"0": 125, "1": 25}}
    res = dr.deal_result(entry, obs)
    assert res["rank"] == 0 and res["line"] == {0: 0, 1: 2}
    tied = {"grid": grid, "lines": {"0": [60, 40, 10], "1": [40, 60, 5]},
            "score": {"0": 10, "1": 5}}
    res = dr.deal_result(tied, obs)
    assert res["rank"] == 2 and res["line"] == {0: 2, 1: 2} and res["equal"] == [60, 40]


def test_line_values_as_cards_go_down():
    assert dr.line_info(["QH", None, "5H"], "Q")["sum"] == 15
    assert dr.line_info(["QH", None, "5H"], "Q")["mult"] == 2  # two of a suit already
    assert dr.line_info(["QH", "V2", None], "K")["state"] == "vampire"
    full = dr.line_info(["QH", "10H", "5H"], "K")
    assert (full["sum"], full["mult"], full["value"]) == (15, 5, 75)


def test_setup():
    t = Translator("fr")
    html = dr.setup_form(t, ["random", "easy", "heuristic"], {})
    assert 'name="first"' in html and 'name="dr_bot"' in html
    assert dr.parse_setup({"first": "bot"}, ["random"])["options"] == {"first_dealer": 1}
    setup = dr.parse_setup({"first": "me", "dr_bot": "nope"}, ["random", "heuristic"])
    assert setup == {"options": {"first_dealer": 0}, "me": 0, "bots": {"1": "heuristic"}}
    a = dr.parse_setup({"first": "random", "seed": "41"}, ["random"])
    assert a == dr.parse_setup({"first": "random", "seed": "41"}, ["random"])


def test_the_line_shown_as_scored_is_the_engines_score():
    from game.dracula.cards import deal_scores

    for seed in range(40):
        state = new_game("dracula", {"first_dealer": seed % 2}, seed=seed)
        rng = random.Random(seed)
        while not state.over:
            state = state.apply(rng.choice(state.legal_actions()))
        obs = state.observation(0)
        for entry in obs["history"]:
            res = dr.deal_result(entry, obs)
            lines = entry["lines"]
            scored = tuple(lines[str(p)][res["line"][p]] for p in (0, 1))
            assert scored == deal_scores(lines["0"], lines["1"])
            ranked = [sorted(lines[p], reverse=True)[res["rank"]] for p in "01"]
            assert tuple(ranked) == scored
