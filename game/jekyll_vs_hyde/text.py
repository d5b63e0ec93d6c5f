"""Plain-text views of Jekyll vs Hyde for the terminal `play` command.

Colours are spelt out (purple, red, green) so the text never relies on colour.
"""

from __future__ import annotations

from typing import Any

from game.jekyll_vs_hyde.cards import COLOUR, COLOUR_NAME
from game.jekyll_vs_hyde.rules import ROLE_NAME, JekyllVsHydeState

SINS = {"P": "Pride", "R": "Wrath", "G": "Envy"}


def card_name(card: str) -> str:
    """An English name for a card code.

    >>> card_name("R5"), card_name("3+")
    ('red 5 (Wrath)', 'Potion 3+')
    """
    colour = COLOUR[card]
    if colour is None:
        return f"Potion {card}"
    return f"{COLOUR_NAME[colour]} {card[1]} ({SINS[colour]})"


def track(marker: int) -> str:
    """The personality track, Jekyll's end on the left.

    >>> track(3)
    'Jekyll [0 1 2 (3) 4 5 6 7 8 9 10] Hyde'
    """
    cells = [f"({i})" if i == marker else str(i) for i in range(11)]
    return f"Jekyll [{' '.join(cells)}] Hyde"


def ranking_text(ranking: list[str]) -> str:
    if not ranking:
        return "no colour ranked yet"
    text = " < ".join(COLOUR_NAME[c] for c in ranking)
    return text + (" < (the next colour played is middle, the last strongest)"
                   if len(ranking) == 1 else "")


def intro(obs: dict[str, Any]) -> str:
    role = obs["player"]
    variant = obs["options"]["variant"]
    match = (" Return match: two games, roles swapped; the better Hyde wins."
             if variant == "return-match" else "")
    goal = ("keep your trick count level with Hyde's: the marker moves by the difference"
            if role == "J" else
            "make the trick counts differ as much as you can: the marker must reach 10")
    return (f"Jekyll vs Hyde — you play {ROLE_NAME[role]} ({role}).{match}\n"
            f"Your aim: {goal}.\n"
            "Play a card code (R5, 3+), lead a Potion naming a colour (4+:R), "
            "give:<c>,<c> in the exchange, swap:<c>,<c> for a green Potion.")


def render(obs: dict[str, Any]) -> str:
    role = obs["player"]
    other = "H" if role == "J" else "J"
    leg = f"game {obs['leg']}, " if obs["options"]["variant"] == "return-match" else ""
    lines = [f"  {leg}round {obs['round']}, you are {ROLE_NAME[role]}   {track(obs['marker'])}",
             f"  colours: {ranking_text(obs['ranking'])}",
             f"  tricks: you {obs['tricks'][role]}, {ROLE_NAME[other]} {obs['tricks'][other]}"
             f" (difference now {abs(obs['tricks']['J'] - obs['tricks']['H'])});"
             f" {ROLE_NAME[other]} holds {obs['hand_sizes'][other]} cards"]
    if obs["exchange"]["got"]:
        lines.append(f"  exchange: you gave {' '.join(obs['exchange']['gave'])}, "
                     f"received {' '.join(obs['exchange']['got'])}")
    phase = obs["phase"]
    if phase == "give":
        n = obs["give_count"]
        lines.append(f"  exchange: give {n} card{'s' if n > 1 else ''} to {ROLE_NAME[other]}"
                     + (" (you were dealt 2+ Potions: include at least one)"
                        if obs["must_give_potion"] else ""))
    elif phase == "swap":
        cards = " and ".join(card_name(c) for c in obs["trick"]["cards"])
        lines.append(f"  green Potion ({cards}): choose {obs['swap_count']} card(s) to swap")
    else:
        trick = obs["trick"]
        if trick["cards"]:
            named = f", naming {COLOUR_NAME[trick['named']]}" if trick["named"] else ""
            lines.append(f"  {ROLE_NAME[trick['leader']]} led {card_name(trick['cards'][0])}"
                         f"{named}")
        else:
            lines.append("  you lead")
    lines.append(f"  your hand: {' '.join(obs['hand'])}")
    return "\n".join(lines)


def describe(state: JekyllVsHydeState, action: str) -> str:
    """What `action`, about to be applied to `state`, does — public facts only."""
    mover = state.to_act
    assert mover is not None, "describe an action of a game under way"
    who = ROLE_NAME[mover]
    after = state.apply(action)
    lines = []
    if state.phase in ("give", "swap"):
        what = "the exchange" if state.phase == "give" else "the green swap"
        lines.append(f"{who} has chosen for {what}")
        if after.phase != state.phase or after.round != state.round:
            lines.append("the cards change hands")
    else:
        card, _, named = action.partition(":")
        lines.append(f"{who} plays {card_name(card)}"
                     + (f", naming {COLOUR_NAME[named]}" if named else ""))
        if after.phase == "swap":
            lines.append(f"green Potion: both players choose {after.swap_count()} card(s) "
                         "to swap")
    if len(after.history) > len(state.history):
        last = after.history[-1]
        lines.append(_record_text(last["tricks_played"][-1]))
        lines.append(f"round over: Jekyll {last['tricks']['J']}, Hyde {last['tricks']['H']} "
                     f"tricks; the marker moves {last['moved']} to {last['marker']}")
        if after.over:
            lines.append(f"game over: {final_line(after.to_json())}")
        elif after.leg != state.leg:
            lines.append("second game of the match: the roles are swapped")
    elif len(after.played) > len(state.played):
        lines.append(_record_text(after.to_json()["played"][-1]))
    return "\n  ".join(lines)


def _record_text(trick: dict[str, Any]) -> str:
    text = f"{ROLE_NAME[trick['winner']]} takes the trick"
    effect = trick["effect"]
    if effect == "purple":
        text += (" and steals one of the other's tricks (purple Potion)" if trick["stolen"]
                 else " (purple Potion: no trick to steal)")
    elif effect == "red":
        text += "; red Potion: the colour ranking is reset"
    elif effect == "green":
        text += " (green Potion)"
    return text


def final_line(data: dict[str, Any]) -> str:
    winner = data["winner"]
    if data["options"]["variant"] == "return-match":
        scores = data["scores"]
        head = (f"Hyde scores: player J {scores['J']}, player H {scores['H']}; ")
        return head + ("a draw" if winner is None else f"player {winner} wins the match")
    return f"{ROLE_NAME[winner]} wins" if winner else "a draw"


def final(obs: dict[str, Any]) -> str:
    return f"Game over. Marker on {obs['marker']}. {final_line(obs)}."
