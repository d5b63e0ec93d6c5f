"""One conformance test over every game in `GAMES`: random games in every mode.

- events are JSON-ready and never name a card their player could not see
  (in his observation before or after the action);
- together they account for every card that moves: a model of the hands,
  the table and the tricks, built from the omniscient events alone, matches
  `to_json()` after every action, and every player sees the same public
  events;
- every illegal or malformed action tried raises a GameError with a
  snake_case code that has a text in every catalog (en, fr, it), whose
  placeholders are all in the error's JSON-ready params.
"""

from __future__ import annotations

import importlib
import json
import random
import re
import string
from functools import lru_cache
from pathlib import Path
from typing import Any

import pytest

from game import GAMES, GameError, game_module, new_game
from game.core.state import State
from game.dracula.cards import CELLS

I18N = Path(__file__).resolve().parent.parent / "static" / "i18n"
LANGUAGES = ("en", "fr", "it")
DECKS = {game: importlib.import_module(f"{module}.cards").DECK for game, module in GAMES.items()}
PRIVATE_KINDS = {"dealt", "chose"}  # the only kinds that players see differently

MODES = [
    ("jekyll-hyde", {"players": 4, "seating": "A", "target": 250}),
    ("jekyll-hyde", {"players": 4, "seating": "B", "target": 250}),
    ("jekyll-hyde", {"players": 3, "target": 250}),
    ("jekyll-vs-hyde", {"variant": "standard"}),
    ("jekyll-vs-hyde", {"variant": "return-match"}),
    ("dracula", {"first_dealer": 1}),
]


def viewers(state: State) -> list[Any]:
    """The players who may look: with 3 players in jekyll-hyde not the ghost."""
    if state.game_id == "jekyll-hyde" and state.table.players == 3:
        return [0, 1, 3]
    return list(state.players)


def strings_in(data: Any, found: set[str] | None = None) -> set[str]:
    """Every string in `data`, dict keys included (added to `found`)."""
    found = set() if found is None else found
    if isinstance(data, str):
        found.add(data)
    elif isinstance(data, dict):
        found.update(k for k in data if isinstance(k, str))
        for value in data.values():
            strings_in(value, found)
    elif isinstance(data, (list, tuple)):
        for value in data:
            strings_in(value, found)
    return found


class Model:
    """Hands, table and tricks rebuilt from the omniscient events alone."""

    def __init__(self, game: str) -> None:
        self.game = game
        self.hands: dict[str, list[str]] = {}
        self.trick: list[str] = []
        self.grid: list[str | None] = [None] * 9
        self.carried: list[str] = []
        self.taken: dict[str, list[str]] = {"jekyll": [], "hyde": []}
        self.scored: dict | None = None  # the last hand, round or deal scored
        self.over: dict | None = None

    def take(self, who: str, card: str) -> None:
        assert card in self.hands[who], f"{card} left {who}'s hand but was not in it"
        self.hands[who].remove(card)

    def feed(self, events: list[dict]) -> None:
        for e in events:
            kind = e["kind"]
            if kind == "dealt":
                self.hands = {k: list(v) for k, v in e["hands"].items()}
                self.trick, self.carried = [], []
                if self.game == "jekyll-hyde":
                    self.taken = {"jekyll": [], "hyde": []}
                if self.game == "dracula":
                    self.grid = [None] * 9
                    self.grid[4] = e["nail"]
            elif kind == "played":
                who = str(e.get("from", e.get("player")))
                self.take(who, e["card"])
                self.trick.append(e["card"])
            elif kind == "placed":
                self.take(str(e["player"]), e["card"])
                assert self.grid[CELLS.index(e["cell"])] is None
                self.grid[CELLS.index(e["cell"])] = e["card"]
            elif kind == "exchange":
                j, h = e["J"], e["H"]
                for c in j:
                    self.take("J", c)
                for c in h:
                    self.take("H", c)
                self.hands["J"] += h
                self.hands["H"] += j
            elif kind in ("trick_won", "transformation"):
                assert e["cards"] == self.trick, "a trick's cards are the cards played to it"
                if kind == "transformation":
                    assert e["staying"] + e["to_nobody"] == self.carried + self.trick
                    self.carried = e["staying"]
                elif self.game == "jekyll-hyde":
                    assert e["taken"] == self.carried + self.trick
                    self.taken[e["team"]] += e["taken"]
                    self.carried = []
                self.trick = []
            elif kind in ("hand_scored", "round_scored", "deal_scored"):
                self.scored = e
            elif kind == "game_over":
                self.over = e

    def check(self, data: dict) -> None:
        """The model agrees with the omniscient `to_json()`."""
        if self.over is not None:
            assert self.over["winner"] == data["winner"] and data["over"]
        if self.scored is not None:
            self.check_scored(self.scored, data["history"][-1])
            self.scored = None
        for who, cards in self.hands.items():
            assert sorted(cards) == sorted(data["hands"][who]), f"hand {who}"
        if self.game == "dracula":
            assert self.grid == [c for row in data["grid"] for c in row]
            return
        if self.game == "jekyll-hyde":
            assert self.carried == data["carried"]
            assert {t: sorted(c) for t, c in self.taken.items()} == \
                {t: sorted(c) for t, c in data["taken"].items()}
            current = data["trick"]["plays"] if data["trick"] else []
            assert self.trick == [p["card"] for p in current]
        else:
            assert self.trick == data["trick"]["cards"]


    def check_scored(self, e: dict, entry: dict) -> None:
        """A scoring event says what the history entry it made says."""
        if e["kind"] == "hand_scored":
            for team, detail in e["teams"].items():
                assert [detail[k] for k in ("points", "multiplier", "score")] == \
                    [entry[k][team] for k in ("points", "multiplier", "score")]
                assert detail["score"] == detail["points"] * detail["multiplier"]
                assert sum(c["points"] for c in detail["cards"]) == detail["points"]
                assert sum(a["multiplier"] for a in detail["actions"]) == detail["multiplier"]
        elif e["kind"] == "round_scored":
            assert (e["tricks"], e["moved"], e["marker"]) == \
                (entry["tricks"], entry["moved"], entry["marker"])
        else:
            assert e["score"] == entry["score"]
            assert {p: [line["value"] for line in lines] for p, lines in e["lines"].items()} \
                == entry["lines"]


def wrong_actions(state: State, rng: random.Random) -> list[Any]:
    """A sample of malformed and illegal actions for `state`."""
    deck = DECKS[state.game_id]
    legal = set(state.legal_actions())
    cards = rng.sample(deck, 3)
    hand = state.to_json()["hands"].get(str(state.to_act)) or cards
    pool = ["", "xyz", "@9", "way:X", "give:", "swap:Z9", "QH@33", f"{cards[0]}@",
            *cards, f"{cards[0]}:P", f"{cards[1]}:X", "@0", "@1", "@2", "@3",
            f"give:{cards[0]}", f"give:{cards[0]},{cards[0]}", f"give:{cards[0]},{cards[1]}",
            f"swap:{cards[1]},{cards[2]}", f"{cards[2]}@{rng.choice(CELLS)}", "way:Q", "way:K",
            "2+", "3+:R", "G7", "P1:G", *hand, *(f"{c}:R" for c in hand)]
    for size in (1, 2, 3):  # the player's own cards, in every count
        pool += [f"{verb}:{','.join(rng.sample(hand, min(size, len(hand))))}"
                 for verb in ("give", "swap")]
    wrong = [a for a in pool if a not in legal]
    wrong += [a for a in (f"{c}@{cell}" for c in hand for cell in CELLS) if a not in legal]
    return rng.sample(wrong, min(8, len(wrong))) + [None, 7]


@lru_cache(maxsize=None)
def catalog(lang: str, game: str) -> tuple[dict[str, str], dict[str, str]]:
    shared = json.loads((I18N / f"{lang}.json").read_text(encoding="utf-8"))
    path = I18N / f"{lang}.{game}.json"
    own = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
    return shared, own


def placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def check_error(game: str, error: GameError) -> None:
    assert re.fullmatch(r"[a-z][a-z0-9_]*", error.code), error.code
    assert str(error), "every error keeps its English message"
    assert json.loads(json.dumps(error.params)) == error.params
    for lang in LANGUAGES:
        shared, own = catalog(lang, game)
        key = f"error.{error.code}"
        # One text, or a counted one: a singular and a plural (game.web.draw.i18n).
        forms = [k for k in (key, f"{key}.1", f"{key}.n") if k in own or k in shared]
        assert forms, f"{key} has no text in {lang} for {game}"
        assert forms == [key] or {"n", "count"} & set(error.params), f"{key}: counted by what?"
        for form in forms:
            text = own.get(form, shared.get(form, ""))
            missing = placeholders(text) - set(error.params)
            assert not missing, f"{form} ({lang}) uses {missing}, not in params {error.params}"


def play_checked(game: str, options: dict, seed: int) -> set[str]:
    """Play one random game checking everything; the event kinds seen."""
    rng = random.Random(seed)
    state = new_game(game, options, seed=seed)
    deck = set(DECKS[game])
    model = Model(game)
    kinds: set[str] = set()
    # The strings each player sees before and after an action: his events name no other card.
    before = {p: strings_in(state.observation(p)) for p in viewers(state)}
    first = True
    while True:
        everything = state.events(None)
        kinds.update(e["kind"] for e in everything)
        model.feed(everything)
        model.check(state.to_json())
        assert state.hands_scored == len(state.to_json().get("history", []))
        after = {p: strings_in(state.observation(p)) for p in viewers(state)}
        public = [e for e in everything if e["kind"] not in PRIVATE_KINDS]
        for p in viewers(state):
            seen = state.events(p)
            assert json.loads(json.dumps(seen)) == seen
            assert all(isinstance(e["kind"], str) for e in seen)
            assert [e for e in seen if e["kind"] not in PRIVATE_KINDS] == public
            leaked = (strings_in(seen) & deck) - before[p] - after[p]
            assert not leaked, f"events show {sorted(leaked)} to {p}"
        if first and game != "dracula":  # Dracula deals once the way is chosen
            assert any(e["kind"] == "dealt" for e in everything)
        before = after
        if state.to_act is None:
            break
        else:
            with pytest.raises(GameError) as caught:
                state.returns()
            check_error(game, caught.value)
        if first or rng.random() < 0.3:
            for action in wrong_actions(state, rng):
                with pytest.raises(GameError) as caught:
                    state.apply(action)
                check_error(game, caught.value)
        first = False
        state = state.apply(rng.choice(state.legal_actions()))
    assert state.events(None)[-1]["kind"] == "game_over"
    with pytest.raises(GameError) as caught:
        state.apply(rng.choice(sorted(deck)))
    assert caught.value.code == "game_over"
    check_error(game, caught.value)
    for bad in (5, "nobody"):
        for look in (state.observation, state.events):
            with pytest.raises(GameError) as caught:
                look(bad)
            assert caught.value.code == "no_such_player"
            check_error(game, caught.value)
    return kinds


EXPECTED_KINDS = {
    "jekyll-hyde": {"dealt", "designated", "played", "trick_won", "transformation",
                    "hand_scored", "game_over"},
    "jekyll-vs-hyde": {"dealt", "chose", "exchange", "played", "colour_ranked", "potion",
                       "trick_won", "round_scored", "game_over"},
    "dracula": {"way_chosen", "dealt", "placed", "line_scored", "deal_scored", "game_over"},
}


@pytest.mark.parametrize("game,options", MODES, ids=[f"{g}-{'-'.join(map(str, o.values()))}"
                                                     for g, o in MODES])
def test_random_games_conform(game: str, options: dict) -> None:
    kinds: set[str] = set()
    for seed in range(2):
        kinds |= play_checked(game, options, seed)
    assert EXPECTED_KINDS[game] <= kinds
    if options.get("players") == 3:
        assert "soloist_changed" in kinds
    if options.get("variant") == "return-match":
        assert "leg_over" in kinds


def test_every_game_is_covered() -> None:
    assert {g for g, _ in MODES} == set(GAMES)


def test_error_texts_agree_across_languages() -> None:
    """Each error key is defined once per language, in every language, with the
    same placeholders."""
    keys: dict[str, dict[str, set[str]]] = {}
    for lang in LANGUAGES:
        seen: dict[str, set[str]] = {}
        for path in sorted(I18N.glob(f"{lang}.*json")):
            if path.name != f"{lang}.json" and path.name.split(".")[1] not in GAMES:
                continue
            for key, text in json.loads(path.read_text(encoding="utf-8")).items():
                if key.startswith("error."):
                    assert key not in seen, f"{key} is defined twice in {lang}"
                    seen[key] = placeholders(text)
        keys[lang] = seen
    assert keys["en"] == keys["fr"] == keys["it"]


def test_rule_module_states_start_with_their_events() -> None:
    """A game's first state reports its deal (Dracula deals after the way)."""
    for game in GAMES:
        state = game_module(game).new_state(None, seed=1)
        kinds = [e["kind"] for e in state.events(None)]
        assert kinds == ([] if game == "dracula" else ["dealt"])


@pytest.mark.parametrize("game,options,actions,wrong,code", [
    ("jekyll-vs-hyde", None, [], "give:P1", "must_give_potion"),
    ("jekyll-hyde", {"players": 3}, [], "HA", "not_in_soloist_or_ghost_hand"),
    ("dracula", None, ["way:Q"], "KD@01", "card_in_coffin"),
])
def test_rare_errors_are_coded(game: str, options: dict | None, actions: list[str],
                               wrong: str, code: str) -> None:
    """Codes that random games reach only now and then (seed 1 deals what they need)."""
    state = new_game(game, options, seed=1)
    for action in actions:
        state = state.apply(action)
    with pytest.raises(GameError) as caught:
        state.apply(wrong)
    assert caught.value.code == code
    check_error(game, caught.value)
