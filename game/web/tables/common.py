"""Pieces every table renderer's start-screen form uses."""

from __future__ import annotations

from game.web.html import Html, html, join
from game.web.i18n import Translator


def select_field(name: str, options: list[tuple[str, str]], value: str, label: str) -> Html:
    """A labelled <select>; changing it updates the start screen."""
    opts = join(html('<option value="{}"{}>{}</option>', v, html(" selected") if v == value
                     else "", text) for v, text in options)
    return html('<label class="field"><span>{label}</span>'
                '<select name="{name}" id="f-{name}" data-cmd="setup-change">{opts}</select>'
                '</label>', label=label, name=name, opts=opts)


def default_bot(bots: list[str]) -> str:
    """The strength a new bot seat starts with: normal (the heuristic) where there is one."""
    return "heuristic" if "heuristic" in bots else bots[-1]


def bot_options(t: Translator, bots: list[str]) -> list[tuple[str, str]]:
    """(bot, its name in the interface's language) for a strength <select>."""
    return [(b, t(f"bot.{b}") if t.has(f"bot.{b}") else b) for b in bots]
