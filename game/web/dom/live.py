"""The polite live region `#live`: what a screen reader reads out, each
thing once — the log's new events (as the person at the screen sees them),
then the prompt of their turn, and a lesson's coach."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from pyodide.ffi import to_js
from pyscript import document, window

from game.web.dom.focus import q
from game.web.html import EMPTY, html, join, set_html

LIVE_KEPT = 8  # bursts kept in the live region (older ones are read already)


@dataclass
class Heard:
    """What the live region has read out: the log's first `events` entries,
    and the prompt of the person's turn ("" while it is not their turn)."""

    events: int = 0
    prompt: str = ""
    coach: str = ""  # the coach's last words read out (a lesson)


def _say(lines: list[str]) -> None:
    live = q("#live")
    if live is None or not lines:
        return
    burst = document.createElement("div")
    set_html(burst, join(html("<p>{}</p>", line) for line in lines))
    live.append(burst)
    while live.childElementCount > LIVE_KEPT:
        live.firstElementChild.remove()


def announce(heard: Heard, log: list[dict[str, Any]],
             lines_of: Callable[[list[dict[str, Any]]], list[str]], my_turn: bool) -> None:
    """Read out the events the log gained since the last time (`lines_of`
    turns them into the person's own words), then the prompt if it is the
    person's turn: one burst per redraw that has news, none on a redraw that has none."""
    fresh = log[min(heard.events, len(log)):]  # the log may have been cut (an undo)
    heard.events = len(log)
    lines = lines_of(fresh)
    prompt_el = q("#screen #prompt")
    prompt = " ".join(str(prompt_el.textContent).split()) if prompt_el and my_turn else ""
    if prompt and (lines or prompt != heard.prompt):
        lines.append(prompt)  # after the events: what the person is to do now
    heard.prompt = prompt
    _say(lines)


def hush(heard: Heard) -> None:
    """The device goes to another person: nothing of the game stays to be read."""
    live = q("#live")
    if live is not None:
        set_html(live, EMPTY)
    heard.prompt = ""


def announce_coach(heard: Heard) -> None:
    """The coach's words, read out once each (after the table's news)."""
    coach = q("#coach")
    said = " ".join(str(coach.textContent).split()) if coach is not None else ""
    if said and said != heard.coach and q("#live") is not None:
        _say([said])
        # New words: on a phone the bubble sits under the hand, perhaps below the fold.
        coach.scrollIntoView(to_js({"block": "nearest"}, dict_converter=window.Object.fromEntries))
    heard.coach = said
