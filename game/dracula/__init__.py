"""Dracula (David Parlett), game id `dracula`."""

from game.dracula.rules import GAME_ID, DraculaState, new_state, sides

State = DraculaState
__all__ = ["GAME_ID", "DraculaState", "State", "new_state", "sides"]
