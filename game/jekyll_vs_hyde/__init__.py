"""Jekyll vs Hyde (Mandoo Games), the 2-player duel, game id `jekyll-vs-hyde`."""

from game.jekyll_vs_hyde.rules import GAME_ID, JekyllVsHydeState, new_state, sides

State = JekyllVsHydeState
__all__ = ["GAME_ID", "JekyllVsHydeState", "State", "new_state", "sides"]
