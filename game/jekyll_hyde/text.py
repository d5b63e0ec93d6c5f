"""Plain-text views of Dr. Jekyll & Mr. Hyde for the terminal `play` command."""

from __future__ import annotations

from typing import Any

from game.jekyll_hyde.rules import JekyllHydeState

CARD_NAMES = {
    "T": "Transformation", "A": "{hero}", "B": "Utterson", "C": "Lanyon", "D": "Enfield",
    "E": "Poole", "1": "{a1}", "2": "{a2}", "3": "{a3}",
}
ACTIONS = {"J": ("Charity", "Pity", "Remorse"), "H": ("Fury", "Brutality", "Murder")}


def card_name(card: str) -> str:
    """An English name for a card code.

    >>> card_name("JA"), card_name("HF6"), card_name("H3")
    ('Dr. Jekyll', 'Hyde location 6', 'Murder x3')
    """
    side, face = card[0], card[1:]
    if face[0] == "F":
        return f"{'Jekyll' if side == 'J' else 'Hyde'} location {face[1]}"
    if face.isdigit():
        return f"{ACTIONS[side][int(face) - 1]} x{face}"
    return CARD_NAMES[face].format(hero="Dr. Jekyll" if side == "J" else "Mr. Hyde")


def seat_label(obs: dict[str, Any], seat: int) -> str:
    name = obs["names"].get(str(seat)) or f"seat {seat}"
    you = " (you)" if seat == obs.get("player") else ""
    return f"{name}{you} [{obs['teams'][str(seat)]}]"


def intro(obs: dict[str, Any]) -> str:
    opts = obs["options"]
    mode = "3 players" if opts["players"] == 3 else f"4 players, seating {opts['seating']}"
    return (f"Dr. Jekyll & Mr. Hyde — {mode}, game to {opts['target']}.\n"
            f"You are {seat_label(obs, obs['player'])}. Play a card code, or @<seat> "
            "to make that seat give a card of your side.")


def render(obs: dict[str, Any]) -> str:
    lines = []
    for seat in range(4):
        backs = obs["backs"][str(seat)]
        lines.append(f"  {seat_label(obs, seat)}: {backs['J']} Jekyll, {backs['H']} Hyde")
    trick = obs["trick"]
    if obs["carried"]:
        lines.append(f"  on the table from a Transformation: {' '.join(obs['carried'])}")
    played = " ".join(f"{p['seat']}:{p['card']}" for p in trick["plays"]) or "(empty)"
    lines.append(f"  trick {len(obs['tricks']) + 1}: {played}")
    if obs["ghost"] is not None:
        lines.append(f"  ghost's open hand: {' '.join(obs['ghost'])}")
    lines.append(f"  your hand: {' '.join(obs['hand'])}")
    if obs["designated"] is not None:
        lines.append(f"  seat {obs['turn']} asks you for a {obs['need'].title()} card")
    else:
        lines.append(f"  you play a {obs['need'].title()} card (yours, or designate a seat)")
    return "\n".join(lines)


def describe(state: JekyllHydeState, action: str) -> str:
    """What `action`, about to be applied to `state`, does — in words, public facts only."""
    turn = state.turn
    if action.startswith("@"):
        return (f"seat {turn} asks seat {action[1:]} for a "
                f"{'Jekyll' if state.need() == 0 else 'Hyde'} card")
    giver = state.designated if state.designated >= 0 else turn
    who = f"seat {giver}" + (f" for seat {turn}" if giver != turn else "")
    text = f"{who} plays {action} ({card_name(action)})"
    after = state.apply(action)
    if len(after.tricks) > len(state.tricks) or after.hand_number > state.hand_number:
        if after.hand_number > state.hand_number or after.to_act is None:
            entry = after.history[-1]
            text += (f"\n  hand over: jekyll {entry['points']['jekyll']} x "
                     f"{entry['multiplier']['jekyll']} = {entry['score']['jekyll']}, hyde "
                     f"{entry['points']['hyde']} x {entry['multiplier']['hyde']} = "
                     f"{entry['score']['hyde']}; totals {after.to_json()['scores']}")
        else:
            winner = after.tricks[-1][2]
            text += ("\n  Transformation: the cards stay on the table" if winner is None
                     else f"\n  seat {winner} takes the trick")
    return text


def final(obs: dict[str, Any]) -> str:
    return f"Game over. Scores {obs['scores']}; winner: {obs['winner']}."
