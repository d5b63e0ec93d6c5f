"""What a watcher sees (`public_observation`, `public_events`), over random whole
games of every game and mode:

- no card hidden at that moment (in a hand, the duel's aside cards, Dracula's
  stock; with 3 players in jekyll-hyde the ghost's hand lies open) is ever
  named, nor the seed or the deals; a finished deal's history, written as the
  next deal is dealt, names only cards that deal showed, none hidden then;
- everything a watcher is shown, every seated player is shown the same way:
  each key of the public observation is in every player's observation with the
  same value, and each public event is part of that player's version of it;
- a player's observation holds nothing more than the public one but his own
  things (his hand, his choices), so a watcher's table lacks nothing public.

Each of these leaks, made on purpose, fails it: a hand in the public
observation, Jekyll's gift in the duel's public exchange, Dracula's hands in
its public deal, a round's aside cards in the duel's history.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest

from game import new_game
from game.core.state import State
from tests.strength import examples
from tests.test_conformance import DECKS, MODES, strings_in, viewers

# The keys of a player's observation that are his alone; a watcher has `player`
# None and `legal` empty in their place.
OWN = {"jekyll-hyde": {"hand"},
       "jekyll-vs-hyde": {"hand", "you", "chosen", "exchange", "swaps", "must_give_potion",
                          "ahead"},
       "dracula": {"hand"}}
WATCHER = {"player": None, "legal": []}
NEVER = {"seed", "deals"}  # keys of `to_json` no watcher may see
FACE_DOWN = ("give:", "swap:", "way:", "@")  # actions that put no card face up


def hidden(state: State) -> set[str]:
    """The cards nobody but their holder may see now, from the omniscient view."""
    data = state.to_json()
    if state.game_id == "dracula":  # the hands and the stock: all not yet in a coffin
        coffins = [data["grid"]] + [deal["grid"] for deal in data["history"]]
        return set(DECKS["dracula"]) - {c for grid in coffins for row in grid for c in row}
    open_seats = {"2"} if state.game_id == "jekyll-hyde" and data["options"]["players"] == 3 \
        else set()
    cards = {c for seat, hand in data["hands"].items() if seat not in open_seats for c in hand}
    return cards | set(data.get("aside", ()))


def face_up(action: str) -> set[str]:
    """The card `action` puts face up on the table, if any ("4+:R" -> 4+, "QH@01" -> QH)."""
    return set() if action.startswith(FACE_DOWN) else {re.split("[@:]", action)[0]}


def part_of(public: Any, seen: Any) -> bool:
    """Whether `public` says nothing that `seen` does not say the same way."""
    if isinstance(public, dict) and isinstance(seen, dict):
        return all(k in seen and part_of(v, seen[k]) for k, v in public.items())
    return bool(public == seen)


def named(data: Any, cards: set[str]) -> set[str]:
    return strings_in(data) & cards


class Watcher:
    """Someone following a game from outside, checking what he is shown."""

    def __init__(self, game: str) -> None:
        self.deck = set(DECKS[game])
        self.before: set[str] = set()  # hidden before the last action, which did not show them
        self.history: list[Any] = []  # the public history before the last action
        self.shown: set[str] = set()  # every card the public view named in this deal

    def action(self, state: State, action: str) -> None:
        """Note what is hidden as `action` is about to be applied to `state`."""
        self.before = hidden(state) - face_up(action)
        self.history = state.public_observation()["history"]

    def check(self, state: State) -> None:
        """`state` as a watcher sees it, after the action noted last."""
        game, now = state.game_id, hidden(state)
        watcher = state.public_observation()
        events = state.public_events()
        assert json.loads(json.dumps([watcher, events])) == [watcher, events]
        assert not NEVER & strings_in([watcher, events])
        table = {k: v for k, v in watcher.items() if k != "history"}
        assert not named(table, now), f"the public observation shows {named(table, now)}"

        # The events before a new deal close the last one (a trick, its scoring);
        # with no new deal, nothing was hidden since.
        deal = next((i for i, e in enumerate(events) if e["kind"] == "dealt"), len(events))
        closing = self.before if deal < len(events) else self.before | now
        assert not named(events[:deal], closing), f"events show {named(events[:deal], closing)}"
        assert not named(events[deal:], now), f"events show {named(events[deal:], now)}"

        # A finished deal's history may name cards dealt again since; it names
        # only cards shown before, and none hidden when it was written.
        old, new = watcher["history"][:len(self.history)], watcher["history"][len(self.history):]
        assert old == self.history, "the history never changes"
        assert not named(new, self.before), f"the history shows {named(new, self.before)}"
        unseen = named(new, self.deck) - self.shown - named(events[:deal], self.deck)
        assert not unseen, f"the history names {unseen}, never shown"
        if deal < len(events):  # what this deal has shown so far
            self.shown = named([table, events[deal:]], self.deck)
        else:
            self.shown |= named([table, events], self.deck)

        assert {k: watcher[k] for k in WATCHER} == WATCHER
        full = state.events(None)
        assert [e["kind"] for e in events] == [e["kind"] for e in full]
        for player in viewers(state):
            obs = state.observation(player)
            differs = [k for k, v in watcher.items() if k not in WATCHER and obs.get(k, v) != v]
            missing = [k for k in watcher if k not in obs]
            assert not differs and not missing, (player, differs, missing)
            assert set(obs) - set(watcher) <= OWN[game], set(obs) - set(watcher)
            seen = state.events(player)
            assert len(seen) == len(events)
            assert all(part_of(e, s) for e, s in zip(events, seen)), player


def play_watched(game: str, options: dict[str, Any], seed: int) -> int:
    """Play one random game checking a watcher's view after every action; the
    number of actions."""
    rng = random.Random(seed)
    state = new_game(game, options, seed=seed)
    watcher = Watcher(game)
    actions = 0
    while True:
        watcher.check(state)
        if state.to_act is None:
            return actions
        action = rng.choice(state.legal_actions())
        watcher.action(state, action)
        state = state.apply(action)
        actions += 1


# The quick run watches one game of each mode; the full run all of them.
@pytest.mark.parametrize("seeds", [pytest.param(range(1), id="first"),
                                   pytest.param(range(1, examples(20)), id="more",
                                                marks=pytest.mark.slow)])
@pytest.mark.parametrize("game,options", MODES, ids=[f"{g}-{'-'.join(map(str, o.values()))}"
                                                     for g, o in MODES])
def test_a_watcher_sees_no_hidden_card(game: str, options: dict[str, Any], seeds: range) -> None:
    for seed in seeds:
        assert play_watched(game, options, 100 + seed) > 0
