"""The Werner table's markup under CPython: every markup function returns Html,
and names and score values from a save come out as text, never as markup (issue 20).
"""

from __future__ import annotations

import copy
import random
from html.parser import HTMLParser
from types import SimpleNamespace
from typing import Any, Callable

import pytest

from game import new_game
from game.web.html import Html, esc
from game.web.i18n import Translator
from game.web.tables import jekyll_hyde as jh

# Tags, attributes and attribute breakers a tampered save could try.
PAYLOADS = ('<img src=x onerror="alert(document.domain)">',
            "'><img src=x onerror=alert(1)>",
            '" onmouseover="alert(2)" x="')


class _Elements(HTMLParser):
    """Every element and attribute name the browser would build from a piece of markup."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: set[str] = set()
        self.attrs: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.add(tag)
        self.attrs |= {name for name, _ in attrs}

    handle_startendtag = handle_starttag


def assert_inert(markup: Any, where: str) -> None:
    """`markup` is Html and the payloads in it are text: no <img>, no on... attribute."""
    assert isinstance(markup, Html), (where, type(markup))
    parsed = _Elements()
    parsed.feed(markup)
    assert "img" not in parsed.tags and "<img" not in markup, (where, markup)
    assert not [a for a in parsed.attrs if a.startswith("on")], (where, parsed.attrs)


def _ctx(seat: int, lang: str = "en") -> SimpleNamespace:
    return SimpleNamespace(t=Translator(lang), seat=seat, thinking=None, log=[])


def _panels(obs: dict, ctx: SimpleNamespace) -> dict[str, Callable[[], Any]]:
    """Every markup function that draws an observation, by name."""
    panels = {"render": lambda: jh.render(obs, ctx), "score_sheet": lambda: jh.score_sheet(obs, ctx),
              "last_trick": lambda: jh.last_trick(obs, ctx)}
    if obs["history"]:
        panels["hand_summary"] = lambda: jh.hand_summary(obs, ctx)
    if obs["over"]:
        panels["final_summary"] = lambda: jh.final_summary(obs, ctx)
    return panels


def _play(options: dict, seed: int):
    """Every state of a random game (seeded), from the deal to the end."""
    state = new_game("jekyll-hyde", options, seed)
    rng = random.Random(seed)
    yield state
    while not state.over:
        state = state.apply(rng.choice(state.legal_actions()))
        yield state


def test_three_player_names_are_text_everywhere():
    """In 3-player mode the names key the scores and label the seats, the log and the sheet."""
    options = {"players": 3, "names": list(PAYLOADS), "target": 40}
    seen: set[str] = set()
    for state in _play(options, seed=3):
        for seat in (0, 1, 3):
            obs = state.observation(seat)
            for name, draw in _panels(obs, _ctx(seat)).items():
                markup = draw()
                assert_inert(markup, name)
                if "&lt;img" in markup:
                    seen.add(name)
    # The names were really on screen (escaped), not silently left out.
    assert seen == {"render", "score_sheet", "last_trick", "hand_summary", "final_summary"}


def _tampered(obs: dict, payload: str) -> dict:
    """`obs` as a tampered save would give it: every displayed value of the history a payload."""
    obs = copy.deepcopy(obs)
    for entry in obs["history"]:
        for field in ("points", "multiplier"):
            entry[field] = {team: payload for team in ("jekyll", "hyde")}
        entry["soloist"] = payload
    obs["winner"] = payload
    obs["scores"] = {**obs["scores"], payload: 0}
    if obs["options"].get("players") == 3:
        obs["names"] = {seat: payload + seat for seat in obs["names"]}
    return obs


@pytest.mark.parametrize("options", [{"players": 4, "seating": "A", "target": 40},
                                     {"players": 3, "target": 40}])
@pytest.mark.parametrize("payload", PAYLOADS)
def test_history_values_from_a_save_are_text(options, payload):
    """Issue 20's exploit: `history[0].points.jekyll` held an <img onerror> that ran."""
    states = list(_play(options, seed=5))
    over = states[-1]
    first_hand_done = next(s for s in states if s.to_json()["history"])
    seats = (0, 1, 3) if options["players"] == 3 else (0, 1, 2, 3)
    for state in (first_hand_done, over):
        for seat in seats:
            obs = _tampered(state.observation(seat), payload)
            for name, draw in _panels(obs, _ctx(seat, "fr")).items():
                markup = draw()
                assert_inert(markup, name)
                if name in ("score_sheet", "hand_summary", "final_summary"):
                    assert esc(payload) in markup, name  # shown, as text


def test_setup_form_is_html_whatever_the_values():
    t = Translator("it")
    bots = ["random", "heuristic", "search"]
    for values in ({"mode": "4A"}, {"mode": "4B", "me": "3"}, {"mode": "3", "me": PAYLOADS[0]},
                   {"mode": PAYLOADS[1], "bot1": PAYLOADS[2], "target": PAYLOADS[0]}):
        assert_inert(jh.setup_form(t, bots, values), "setup_form")


def test_hint_words_name_the_card_or_the_seat():
    """The hint says the action in words; the shell highlights its `data-act` itself."""
    from game.web.hint import describe

    for state in _play({"players": 4, "seating": "A", "target": 40}, seed=8):
        if any(a.startswith("@") for a in state.legal_actions()):
            break
    me = state.to_act
    obs, ctx = state.observation(me), _ctx(me)
    for action in obs["legal"]:
        words, selectors = describe(jh.GAME_ID, jh, action, obs, ctx)
        assert selectors == []
        if action.startswith("@"):
            assert jh.seat_name(obs, int(action[1:])) in words
        else:
            assert jh.card_name(action, ctx.t) in words
        assert f'data-act="{action}"' in jh.render(obs, ctx)
