"""Pieces every game shares: the State protocol, errors, seeded deals, transcripts."""

from game.core.state import (
    BadOptionsError,
    BadStateError,
    GameError,
    IllegalActionError,
    MalformedActionError,
    State,
)

__all__ = [
    "BadOptionsError",
    "BadStateError",
    "GameError",
    "IllegalActionError",
    "MalformedActionError",
    "State",
]
