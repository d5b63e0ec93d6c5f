"""The duel's table renderer under CPython: every piece of markup is `Html`, a
hostile text reaching it (a translation, a name) comes out escaped, and no
inline script is left for a strict Content-Security-Policy to block."""

from __future__ import annotations

import random
import re

from game import new_game
from game.web.html import Html, html
from game.web.i18n import Translator
from game.web.tables import TableContext
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
            ctx = TableContext(t=hostile, seat=seat, thinking=state.to_act)
            for markup in _markup(state.observation(seat), ctx):
                assert isinstance(markup, Html)
                assert "<img" not in markup and "onerror=alert(1)>" not in markup
                assert "&lt;img src=x onerror=alert(1)&gt;&quot;&#x27;" in markup


def test_no_inline_script_anywhere():
    """Clicks are `data-act`/`data-part` for the shell: no handler attribute, no form."""
    t = Translator("en")
    for state, seat in _positions(3, "standard"):
        ctx = TableContext(t=t, seat=seat)
        for markup in _markup(state.observation(seat), ctx):
            assert not re.search(r"\son[a-z]+=|<script|<form|<input|javascript:", markup)


def test_setup_form_is_html_and_escapes_its_texts():
    form = jvh.setup_form(_HostileTranslator(), ["random", "heuristic"], {"jvh_role": PAYLOAD})
    assert isinstance(form, Html) and form.count('<select name="jvh_') == 3
    assert "<img" not in form and "&lt;img src=x" in form


def test_card_pieces_are_html():
    t = Translator("en")
    for card, big in (("P1", "1"), ("G7", "7"), ("3+", "3+")):
        button = jvh.card_html(card, t, click=html('data-act="{}"', card))
        picture = jvh.card_html(card, t, "mini")
        for piece in (jvh.card_svg(card), button, picture):
            assert isinstance(piece, Html) and f">{big}</text>" in piece
        assert button.startswith("<button") and f'data-act="{card}"' in button
        assert picture.startswith("<div") and "data-act" not in picture
    assert isinstance(jvh.token_html("R", t), Html)
