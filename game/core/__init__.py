"""Pieces every game shares: the State protocol, errors, seeded deals, transcripts."""

from game.core.state import (
    BadOptionsError,
    BadStateError,
    Event,
    GameError,
    IllegalActionError,
    MalformedActionError,
    Private,
    State,
)

__all__ = [
    "BadOptionsError",
    "BadStateError",
    "Event",
    "GameError",
    "IllegalActionError",
    "MalformedActionError",
    "Private",
    "State",
]
