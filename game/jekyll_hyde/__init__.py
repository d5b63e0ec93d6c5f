"""Dr. Jekyll & Mr. Hyde (Wolfgang Werner), game id `jekyll-hyde`."""

from game.jekyll_hyde.rules import GAME_ID, JekyllHydeState, hand_gains, new_state, sides

State = JekyllHydeState
__all__ = ["GAME_ID", "JekyllHydeState", "State", "hand_gains", "new_state", "sides"]
