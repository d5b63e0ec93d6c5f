"""Take-backs: the person's own decisions undone by replaying the transcript.

The engine is deterministic from the seed and the bots' choices are recorded
as actions, so any earlier position is the replay of a shorter list of
actions.  A take-back goes back to just before the person's last decision of
the current hand (and drops the bot moves that followed it), never across a
hand's scoring.  Pure Python: tested in CPython, used by `game.web.model.session`.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Hashable
from dataclasses import dataclass
from typing import Any

from game.core.state import Event, Player, State
from game.web.model.replay import replay_states


def seat_of(state: State, me: Hashable) -> Player:
    """The seat of the person at the screen (`setup.me`, a lasting player) in
    `state`'s deal; the first seat if `me` sits nowhere."""
    seat = state.seat_of(me)
    return state.players[0] if seat is None else seat


def mine(state: State, me: Hashable) -> bool:
    """Whether the decision in `state` is the person's (any seat of theirs, a ghost's too)."""
    return state.to_act is not None and str(state.identity(state.to_act)) == str(me)


def hands_scored(state: State) -> int:
    """How many hands (rounds, deals) of the game have been scored."""
    return state.hands_scored


def seen_events(state: State, me: Hashable) -> list[Event]:
    """The events that produced `state`, as the person at the screen may see them."""
    return state.events(seat_of(state, me))


@dataclass(frozen=True)
class Rewind:
    """A take-back: the actions that remain, the position they lead to, the
    log the person sees there and the decisions they may still take back."""

    actions: list[str]
    state: State
    log: list[Event]
    undoable: list[int]


class CannotRewind(ValueError):
    """The transcript does not replay to the position on the table."""


def _undoable(states: list[State], me: Hashable, people: Collection[str] = ()) -> list[int]:
    """The indices of the person's decisions since the last hand was scored
    and since another of `people` (pass-and-play) last decided."""
    scored = hands_scored(states[-1])
    others = {str(p) for p in people} - {str(me)}
    start = 1 + max((i for i, state in enumerate(states[:-1])
                     if state.to_act is not None and str(state.identity(state.to_act)) in others),
                    default=-1)
    return [i for i, state in enumerate(states[:-1])
            if i >= start and mine(state, me) and hands_scored(state) == scored]


def undoable(transcript: dict[str, Any], me: Hashable, people: Collection[str] = ()) -> list[int]:
    """The indices (in `transcript["actions"]`) of the person's decisions that
    may be taken back: those since the last hand was scored (and, with
    several `people` at the screen, since another of them last decided).

    >>> from game import new_game
    >>> s = new_game("dracula", {"first_dealer": 1}, seed=3)
    >>> t = {"game": "dracula", "options": s.to_json()["options"], "seed": 3, "actions": []}
    >>> s.to_act, undoable(t, 1)
    (1, [])
    >>> t["actions"] = [s.legal_actions()[0]]
    >>> undoable(t, 1), undoable(t, 0)
    ([0], [])
    >>> t["actions"].append(s.apply(t["actions"][0]).legal_actions()[0])
    >>> undoable(t, 1), undoable(t, 1, people=["0", "1"])
    ([0], [])
    """
    return _undoable(replay_states(transcript), me, people)


def take_back(transcript: dict[str, Any], me: Hashable, now: State,
              people: Collection[str] = (),
              seen: Callable[[State], list[Event]] | None = None) -> Rewind:
    """Undo the person's last decision of this hand and all that followed it
    (never past another of `people`'s decisions); the log is rebuilt with
    `seen` (the events of one state, as the log holds them: by default as
    the person sees them).

    Raises CannotRewind if there is none, or if the transcript does not lead
    to `now` (a save whose parts disagree is not rewritten).
    """
    states = replay_states(transcript)
    if states[-1].to_json() != now.to_json():
        raise CannotRewind("the transcript does not replay to the game on the table")
    choices = _undoable(states, me, people)
    if not choices:
        raise CannotRewind("no decision of yours to take back in this hand")
    back = choices[-1]
    # The log as the shell builds it: the deal's events, then each action's.
    log = [event for state in states[:back + 1]
           for event in (seen(state) if seen is not None else seen_events(state, me))]
    return Rewind(list(transcript["actions"][:back]), states[back], log, choices[:-1])
