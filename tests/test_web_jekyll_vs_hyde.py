"""The duel's table renderer under CPython: every piece of markup is `Html`, and
a hostile text reaching it (a translation, a name) comes out escaped."""

from __future__ import annotations

import random
from types import SimpleNamespace

from game import new_game
from game.web.html import Html
from game.web.i18n import Translator
from game.web.tables import jekyll_vs_hyde as jvh

PAYLOAD = '<img src=x onerror=alert(1)>"\''


class _HostileTranslator:
    """Every text is the payload followed by its key and values."""

    def __call__(self, key: str, **kw) -> str:
        return f"{PAYLOAD}{key}{sorted(kw.items())}"

    def has(self, key: str) -> bool:
        return True


def _positions(seed: int, variant: str):
    """(state, observing seat) at every step of a random whole game, for both seats."""
    state = new_game("jekyll-vs-hyde", {"variant": variant}, seed)
    rng = random.Random(seed)
    while True:
        for seat in jvh.ROLES:
            yield state, seat
        if state.over:
            return
        state = state.apply(rng.choice(state.legal_actions()))


def _markup(obs: dict, ctx) -> list:
    parts = [jvh.render(obs, ctx), jvh.score_sheet(obs, ctx), jvh.last_trick(obs, ctx)]
    if obs["history"]:
        parts.append(jvh.hand_summary(obs, ctx))
    if obs["over"]:
        parts.append(jvh.final_summary(obs, ctx))
    return parts


def test_every_markup_function_returns_html_and_escapes_its_texts():
    hostile = _HostileTranslator()
    for seed, variant in ((1, "standard"), (2, "return-match")):
        for state, seat in _positions(seed, variant):
            ctx = SimpleNamespace(t=hostile, seat=seat, thinking=state.to_act, log=[])
            for markup in _markup(state.observation(seat), ctx):
                assert isinstance(markup, Html)
                assert "<img" not in markup and "onerror=alert(1)>" not in markup
                assert "&lt;img src=x onerror=alert(1)&gt;&quot;&#x27;" in markup


def test_card_pieces_are_html():
    t = Translator("en")
    for card, big in (("P1", "1"), ("G7", "7"), ("3+", "3+")):
        for piece in (jvh.card_svg(card), jvh.card_html(card, t),
                      jvh.card_html(card, t, "mini", act=False)):
            assert isinstance(piece, Html) and f">{big}</text>" in piece
    assert isinstance(jvh.token_html("R", t), Html)
