"""What a watcher sees (`public_observation`, `public_events`), over random whole
games of every game and mode:

- no card hidden at that moment (in a hand, the duel's aside cards, Dracula's
  stock; with 3 players in jekyll-hyde the ghost's hand lies open) is ever
  named, nor the seed or the deals;
- everything a watcher is shown, every seated player is shown the same way:
  each key of the public observation is in every player's observation with the
  same value, and each public event is part of that player's version of it;
- a player's observation holds nothing more than the public one but his own
  things (his hand, his choices), so a watcher's table lacks nothing public.
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


def check_public(state: State, before: set[str], history: list[Any]) -> None:
    """`state` as a watcher sees it: `before` are the cards hidden before the
    action that made it (and that it did not turn up), `history` the public
    history a watcher saw then."""
    game, now = state.game_id, hidden(state)
    watcher = state.public_observation()
    assert json.loads(json.dumps(watcher)) == watcher
    assert not NEVER & strings_in(watcher)
    # A finished deal's history may name cards dealt again since: it is checked
    # against the cards hidden when it was written.
    assert watcher["history"][:len(history)] == history, "the history never changes"
    assert not named(watcher["history"][len(history):], before)
    table = {k: v for k, v in watcher.items() if k != "history"}
    assert not named(table, now), f"the public observation shows {named(table, now)}"
    assert {k: watcher[k] for k in WATCHER} == WATCHER
    for player in viewers(state):
        obs = state.observation(player)
        differs = [k for k, v in watcher.items() if k not in WATCHER and obs.get(k, v) != v]
        missing = [k for k in watcher if k not in obs]
        assert not differs and not missing, (player, differs, missing)
        assert set(obs) - set(watcher) <= OWN[game], set(obs) - set(watcher)

    events = state.public_events()
    assert json.loads(json.dumps(events)) == events
    assert not NEVER & strings_in(events)
    # The events before a new deal close the last one (a trick, its scoring);
    # with no new deal, nothing was hidden since.
    deal = next((i for i, e in enumerate(events) if e["kind"] == "dealt"), len(events))
    closing = before if deal < len(events) else before | now
    assert not named(events[:deal], closing), f"events show {named(events[:deal], closing)}"
    assert not named(events[deal:], now), f"events show {named(events[deal:], now)}"
    full = state.events(None)
    assert [e["kind"] for e in events] == [e["kind"] for e in full]
    for player in viewers(state):
        seen = state.events(player)
        assert len(seen) == len(events)
        assert all(part_of(e, s) for e, s in zip(events, seen)), player


def play_watched(game: str, options: dict[str, Any], seed: int) -> int:
    """Play one random game checking a watcher's view after every action; the
    number of actions."""
    rng = random.Random(seed)
    state = new_game(game, options, seed=seed)
    before: set[str] = set()
    history: list[Any] = []
    actions = 0
    while True:
        check_public(state, before, history)
        if state.to_act is None:
            return actions
        history = state.public_observation()["history"]
        action = rng.choice(state.legal_actions())
        before = hidden(state) - face_up(action)
        state = state.apply(action)
        actions += 1


@pytest.mark.parametrize("game,options", MODES, ids=[f"{g}-{'-'.join(map(str, o.values()))}"
                                                     for g, o in MODES])
def test_a_watcher_sees_no_hidden_card(game: str, options: dict[str, Any]) -> None:
    for seed in range(examples(20)):
        assert play_watched(game, options, 100 + seed) > 0
