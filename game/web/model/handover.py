"""Friends at one screen (pass-and-play): who is at the screen, and when the
device must be handed over. Pure Python (no browser import): tested in
CPython, used by the page (`game.web.model.session`, `game.web.draw.views`).

A save's `setup.people` maps each person's lasting player (`identity`, as
text) to the name they gave; bots fill the other seats (`setup.bots`). A save
without it has one person, `setup.me`, and behaves as before.
`save["at_screen"]` is the person whose view the table shows; when another
person is on turn the shell shows only the hand-over panel (no card of any
hand) until that person taps, which makes them the one at the screen.

Undo (see `game.web.model.undo`) takes back only the decisions of the person at
the screen since another person last decided: nobody takes back a decision
that was not theirs, nor one the next person has already seen.
"""

from __future__ import annotations

from typing import Any

from game.core.state import Event, Player, State
from game.web.draw.html import Html, html


def people(setup: dict[str, Any]) -> dict[str, str]:
    """The people at the screen: lasting player (as text) -> name ("" when
    there is only one person, who needs no name).

    >>> people({"me": 1, "bots": {"0": "random"}})
    {'1': ''}
    >>> people({"me": 1, "people": {"1": "Ann", "3": "Bob"}})
    {'1': 'Ann', '3': 'Bob'}
    """
    named = setup.get("people")
    if isinstance(named, dict) and named:
        return {str(k): str(v) for k, v in named.items()}
    return {str(setup["me"]): ""}


def shared(setup: dict[str, Any]) -> bool:
    """Whether several people share the screen (pass-and-play)."""
    return len(people(setup)) > 1


def person_on_turn(state: State, setup: dict[str, Any]) -> str | None:
    """The person who decides now (a designated person too: the engine says
    who decides), or None when a bot does or the game is over."""
    if state.to_act is None:
        return None
    who = str(state.identity(state.to_act))
    return who if who in people(setup) else None


def at_screen(save: dict[str, Any]) -> str:
    """The person whose view the table shows (the first person until a hand-over)."""
    setup = save["setup"]
    who = save.get("at_screen")
    return who if isinstance(who, str) and who in people(setup) else str(setup["me"])


def handover_to(state: State, save: dict[str, Any]) -> str | None:
    """The person the device must go to before the table is drawn again, or
    None: the person on turn is the one at the screen, or a bot is on turn."""
    who = person_on_turn(state, save["setup"])
    return who if who is not None and who != at_screen(save) else None


def seat(state: State, who: str) -> Player:
    """Where the person `who` sits in `state`'s deal (seats move between hands
    in the 3-player game); the first seat if nowhere."""
    found = state.seat_of(who)
    return state.players[0] if found is None else found


def log_events(state: State, setup: dict[str, Any]) -> list[Event]:
    """The events that produced `state`, for the log. With one person, as they
    see them. With several: once if every person sees them alike, else each
    person's own view marked `"for": person` (a deal shows each their own
    hand), so that the log never shows one person another's cards."""
    views = {who: state.events(seat(state, who)) for who in people(setup)}
    first = next(iter(views.values()))
    if all(view == first for view in views.values()):
        return first
    return [{**event, "for": who} for who, view in views.items() for event in view]


def seen_by(log: list[Event], who: str) -> list[Event]:
    """The entries of the log that `who` may read.

    >>> seen_by([{"kind": "a"}, {"kind": "b", "for": "1"}, {"kind": "b", "for": "2"}], "2")
    [{'kind': 'a'}, {'kind': 'b', 'for': '2'}]
    """
    return [event for event in log if event.get("for", who) == who]


def panel_html(t: Any, name: str) -> Html:
    """The hand-over panel: nothing of the game but whom to give the device to."""
    return html(
        '<section class="handover" id="handover" aria-labelledby="handover-title">'
        '<h1 id="handover-title">{title}</h1><p>{hidden}</p>'
        '<button type="button" class="primary" data-cmd="handover-ready" id="handover-ready">'
        '{ready}</button></section>',
        title=t("handover.title", name=name), hidden=t("handover.hidden", name=name),
        ready=t("handover.ready", name=name))
