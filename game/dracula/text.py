"""Plain-text views of Dracula for the terminal `play` command."""

from __future__ import annotations

from typing import Any

from game.dracula.cards import WAY_NAME, card_name
from game.dracula.rules import DraculaState


def _cell(code: str | None) -> str:
    return f"{code or '.':>4}"


def coffin(grid: list[list[str | None]]) -> list[str]:
    """The 3x3 coffin with row and column numbers.

    >>> print("\\n".join(coffin([[None, "QH", None], [None, "10S", None], [None] * 3])))
             0   1   2
      0      .  QH   .
      1      . 10S   .
      2      .   .   .
    """
    lines = ["         0   1   2"]
    for r, row in enumerate(grid):
        lines.append(f"  {r}   " + "".join(_cell(c) for c in row))
    return lines


def intro(obs: dict[str, Any]) -> str:
    me = obs["player"]
    first = obs["options"]["first_dealer"]
    text = (f"Dracula — six deals. You are player {me}; player {first} deals first "
            "and chooses the way. Place a card with <card>@<row><col>, e.g. QH@01.")
    if obs["ways"]:
        text += f"\nYou score the {WAY_NAME[obs['ways'][str(me)]]}."
    return text


def render(obs: dict[str, Any]) -> str:
    me = obs["player"]
    if obs["ways"] is None:
        return ("  Choose your way for the whole game: way:Q scores the rows (Queens "
                "count 10 there), way:K the columns (Kings count 10 there).")
    other = str(1 - me)
    lines = [f"  deal {obs['deal_number'] + 1} of 6, dealer: player {obs['dealer']}; "
             f"totals: you {obs['totals'][str(me)]}, opponent {obs['totals'][other]}; "
             f"you score {WAY_NAME[obs['ways'][str(me)]]}"]
    lines += coffin(obs["grid"])
    lines.append(f"  your hand: {' '.join(obs['hand'])}   "
                 f"(opponent holds {obs['held'][other]})")
    return "\n".join(lines)


def describe(state: DraculaState, action: str) -> str:
    """What `action`, about to be applied to `state`, does — in words, public facts only."""
    player = state.to_act
    if action.startswith("way:"):
        return f"player {player} chooses the {WAY_NAME[action[4]]}"
    card, _, cell = action.partition("@")
    text = f"player {player} places {card} ({card_name(card)}) at {cell}"
    after = state.apply(action)
    if len(after.history) > len(state.history):
        entry = after.history[-1]
        ways = after.ways or ("?", "?")
        text += "\n" + "\n".join(coffin(entry["grid"]))
        text += "\n  deal over: " + "; ".join(
            f"player {p} ({ways[int(p)]}) lines {entry['lines'][p]} scores {entry['score'][p]}"
            for p in "01")
        if after.to_act is not None:
            nail = after.grid[4]
            assert nail is not None  # a new deal starts with its nail in place
            text += (f"\n  totals {after.totals[0]} - {after.totals[1]}; next deal: "
                     f"player {after.dealer} deals, the nail is {nail} ({card_name(nail)})")
    return text


def final(obs: dict[str, Any]) -> str:
    t, s, b = obs["totals"], obs["scores"], obs["bonus"]
    text = (f"Game over. Totals {t['0']} - {t['1']}; bonus {b['0']} - {b['1']}; "
            f"final {s['0']} - {s['1']}. ")
    winner = obs["winner"]
    if winner is None:
        return text + "A draw."
    return text + ("You win." if winner == str(obs["player"]) else f"Player {winner} wins.")
