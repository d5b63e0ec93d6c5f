"""Pieces every table renderer's start-screen form uses."""

from __future__ import annotations

from html import escape


def select_field(name: str, options: list[tuple[str, str]], value: str, label: str) -> str:
    """A labelled <select>; changing it updates the start screen."""
    opts = "".join(f'<option value="{escape(v)}"{" selected" if v == value else ""}>'
                   f'{escape(text)}</option>' for v, text in options)
    return (f'<label class="field"><span>{escape(label)}</span>'
            f'<select name="{name}" id="f-{name}" data-cmd="setup-change">{opts}</select></label>')


def default_bot(bots: list[str]) -> str:
    """The strength a new bot seat starts with: normal (the heuristic) where there is one."""
    return "heuristic" if "heuristic" in bots else bots[-1]


def bot_options(t, bots: list[str]) -> list[tuple[str, str]]:
    """(bot, its name in the interface's language) for a strength <select>."""
    return [(b, t(f"bot.{b}") if t.has(f"bot.{b}") else b) for b in bots]
