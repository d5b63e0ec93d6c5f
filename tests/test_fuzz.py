"""Fuzzing every entry point with damaged input: saves (`state_from_json`),
transcripts (`Transcript.from_json` and `replay`), the command line's
`replay`, and `new_game` options and deals.

The damage starts from real data: saves of states reached by random legal
play in every game and mode, and the transcripts in `tests/transcripts/` and
`static/scenarios/`.  Every case must either load into a state that passes
the invariants and plays to the end with random legal moves, or raise a
`GameError`; `replay` must exit 0, or 2 with one `error:` line.

A few thousand cases run in the normal test run (a quarter of them in the
quick run, `pytest -n auto -m "not browser and not slow"`, which also leaves
out the damaged saves: tests/strength.py); `pytest --fuzz-long
tests/test_fuzz.py` runs 100,000 per entry point (and prints the counts).
"""

from __future__ import annotations

import io
import json
import random
import time
from contextlib import redirect_stderr, redirect_stdout
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game import GAMES, GameError, game_options, new_game, state_from_json
from game.__main__ import main
from game.core.transcript import Transcript
from game.dracula.cards import DECK as DRACULA_DECK
from game.jekyll_hyde.cards import DECK as WERNER_DECK
from game.jekyll_vs_hyde.cards import DECK as DUEL_DECK
from tests.strength import examples

ROOT = Path(__file__).parent.parent
CARDS = sorted(set(WERNER_DECK) | set(DUEL_DECK) | set(DRACULA_DECK))
MODES: list[tuple[str, dict[str, Any]]] = [
    ("jekyll-hyde", {"players": 4, "seating": "A", "target": 300}),
    ("jekyll-hyde", {"players": 4, "seating": "B", "target": 300}),
    ("jekyll-hyde", {"players": 3, "target": 300}),
    ("jekyll-hyde", {}),
    ("jekyll-vs-hyde", {"variant": "standard"}),
    ("jekyll-vs-hyde", {"variant": "return-match"}),
    ("dracula", {"first_dealer": 0}),
    ("dracula", {"first_dealer": 1}),
]
NORMAL = {"saves": 1500, "transcripts": 700, "cli": 400, "options": 600}
LONG = 100_000
MOVES_TO_THE_END = 20_000  # far more than any game to the highest target


def _nested(depth: int) -> list:
    value: list = []
    for _ in range(depth - 1):
        value = [value]
    return value


# -- the corpus --------------------------------------------------------------

@lru_cache(maxsize=None)
def saves() -> tuple[str, ...]:
    """Saves (as JSON text) of states reached by random legal play, every game and mode."""
    rng = random.Random(2026)
    found = []
    for game_id, options in MODES:
        for seed in (1, 2):
            state = new_game(game_id, options, seed=seed)
            moments = [state]
            while not state.over:
                state = state.apply(rng.choice(state.legal_actions()))
                if rng.random() < 0.03:
                    moments.append(state)
            moments.append(state)
            found += [json.dumps(s.to_json()) for s in moments]
    return tuple(found)


@lru_cache(maxsize=None)
def transcripts() -> tuple[str, ...]:
    files = sorted((ROOT / "tests" / "transcripts").rglob("*.json"))
    files += sorted((ROOT / "static" / "scenarios").rglob("*.json"))
    return tuple(f.read_text(encoding="utf-8") for f in files)


# -- damage ------------------------------------------------------------------

HUGE = 10**5000
junk = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 12), st.integers(),
    st.sampled_from([10**30, -(10**30), 2**63, HUGE, 3.0, 1.0, 0.0, -0.0]),
    st.floats(), st.text(max_size=6), st.sampled_from(CARDS),
    st.lists(st.sampled_from(CARDS), max_size=8), st.builds(dict), st.builds(list),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
    # Deeper than Python's recursion limit; fresh each time, as damage changes it.
    st.builds(_nested, st.sampled_from([20, 1500])),
    st.sampled_from(["J", "H", "0", "1", "jekyll", "hyde", "give", "swap", "play", "Q", "K"]),
)


def _place(rng: random.Random, doc: Any) -> tuple[Any, Any] | None:
    """A random (container, key) of a JSON document: a walk down from the top that
    stops at each level with probability 1/3 (top-level fields get damaged most)."""
    node, place = doc, None
    while isinstance(node, (dict, list)) and node:
        key = rng.choice(list(node)) if isinstance(node, dict) else rng.randrange(len(node))
        place = (node, key)
        if rng.random() < 1 / 3:
            break
        node = node[key]
    return place


def _fresh(value: Any) -> Any:
    """A copy of a JSON value: damage changes containers in place."""
    if not isinstance(value, (dict, list)):
        return value
    try:
        return json.loads(json.dumps(value))
    except RecursionError:  # deep nesting junk
        return _nested(1500)
    except ValueError:  # a number over 4300 digits inside
        return [HUGE]


def damage(rng: random.Random, values: list, doc: Any) -> Any:
    """`doc` (a JSON document, changed in place) with 1-3 kinds of damage, chosen by
    `rng`, putting in junk from `values`."""
    for _ in range(rng.randint(1, 3)):
        place = _place(rng, doc)
        if place is None:
            return _fresh(rng.choice(values))
        node, key = place
        kind = rng.choice(["junk", "junk", "delete", "extra", "copy", "truncate"])
        if kind == "junk":
            node[key] = _fresh(rng.choice(values))
        elif kind == "delete":
            del node[key]
        elif kind == "extra":
            if isinstance(node, dict):
                node[rng.choice(["x", "", "hands", "0", "🂡", "seed"])] = _fresh(rng.choice(values))
            else:
                node.insert(key, _fresh(rng.choice([node[key], rng.choice(values)])))
        elif kind == "copy":  # another value of the document: duplicated cards, swapped fields
            other = _place(rng, doc)
            if other is not None:
                node[key] = _fresh(other[0][other[1]])
        elif isinstance(node[key], (list, str)):
            node[key] = node[key][:rng.randrange(max(1, len(node[key])))]
    return doc


def _dump(doc: Any, fallback: str) -> str:
    try:
        return json.dumps(doc)
    except (ValueError, RecursionError):
        return fallback


def damage_text(rng: random.Random, values: list, text: str) -> str:
    """Damage to the text of a file: truncation, odd characters, numbers and nesting
    no JSON reader should be made to swallow."""
    kind = rng.choice(["truncate", "char", "digits", "deep", "none"])
    at = rng.randint(0, len(text))
    if kind == "truncate":
        return text[:at]
    if kind == "char":
        odd = next((v for v in values if isinstance(v, str) and v), "\u00b2")
        return text[:at] + odd + text[at + 1:]
    if kind == "digits":
        return text[:at] + "9" * rng.choice([5, 400, 4301]) + text[at:]
    if kind == "deep":
        depth = rng.choice([50, 2000, 100_000])
        return text[:at] + "[" * depth + "]" * depth + text[at:]
    return text


# -- what must hold ----------------------------------------------------------

def plays_to_the_end(state: Any, rng: random.Random) -> None:
    """The invariants of a state that loaded: its save loads back to itself, every
    player can be shown his view, and random legal moves finish the game."""
    data = state.to_json()
    assert state_from_json(json.loads(json.dumps(data))).to_json() == data
    _observe(state)
    for moves in range(MOVES_TO_THE_END):
        if state.over:
            break
        legal = state.legal_actions()
        assert legal, "the player on turn has no legal action"
        state = state.apply(rng.choice(legal))
    assert state.over, "the game never ends"
    _observe(state)
    state.returns()


def _observe(state: Any) -> None:
    """Every player can be shown his view."""
    for player in state.players:
        try:
            state.observation(player)
        except GameError:  # the ghost seat of 3-player Jekyll & Hyde is nobody
            assert state.game_id == "jekyll-hyde" and player == 2


def load_or_game_error(load: Callable[[], Any], rng: random.Random) -> bool:
    """True if `load()` gave a state (which then passed the invariants), False if it
    raised a GameError; anything else fails the test."""
    try:
        state = load()
    except GameError as e:
        assert e.code and json.dumps(e.to_json())  # coded, with JSON-ready params
        return False
    plays_to_the_end(state, rng)
    return True


BATCH = 10  # damaged inputs per hypothesis example: its overhead, shared


def run(request: pytest.FixtureRequest, name: str,
        test: Callable[[random.Random, list], bool]) -> None:
    """Run `test(rng, junk values)` on NORMAL[name] damaged inputs (a quarter in the
    quick run, tests/strength.py; LONG with --fuzz-long), BATCH per hypothesis
    example, and report the count and time.
    `test` says whether the input was accepted (it loaded and played to the end,
    or `replay` exited 0) or refused."""
    cases = LONG if request.config.getoption("--fuzz-long") else examples(NORMAL[name])
    counts = {True: 0, False: 0}

    @settings(max_examples=cases // BATCH, deadline=None, database=None, derandomize=True,
              suppress_health_check=list(HealthCheck))
    @given(st.integers(0, 2**32), st.lists(junk, min_size=4, max_size=8))
    def fuzz(seed: int, values: list) -> None:
        rng = random.Random(seed)
        for _ in range(BATCH):
            counts[test(rng, values)] += 1

    start = time.monotonic()
    fuzz()
    seconds = time.monotonic() - start
    print(f"\nfuzz {name}: {counts[True] + counts[False]} cases in {seconds:.1f} s "
          f"({counts[True]} accepted, {counts[False]} refused with a GameError)")
    # A fuzzer whose every case is refused (or accepted) tests nothing.
    assert counts[True] and counts[False]


# -- the entry points --------------------------------------------------------

@pytest.mark.slow  # every damaged save is played on
def test_damaged_saves_load_and_play_or_raise_game_errors(request):
    def case(rng: random.Random, values: list) -> bool:
        doc = damage(rng, values, json.loads(rng.choice(saves())))
        return load_or_game_error(lambda: state_from_json(doc), rng)

    run(request, "saves", case)


def test_damaged_transcripts_replay_or_raise_game_errors(request):
    def case(rng: random.Random, values: list) -> bool:
        doc = damage(rng, values, json.loads(rng.choice(transcripts())))
        return load_or_game_error(lambda: Transcript.from_json(doc).replay(), rng)

    run(request, "transcripts", case)


@lru_cache(maxsize=None)
def _deals(game_id: str) -> tuple[str, ...]:
    return tuple(json.dumps(json.loads(t)["deals"]) for t in transcripts()
                 if f'"{game_id}"' in t and '"deals"' in t)


def test_damaged_options_and_deals_start_a_game_or_raise_game_errors(request):
    def case(rng: random.Random, values: list) -> bool:
        game_id = rng.choice(list(GAMES))
        options: dict[str, Any] = {}
        for spec in game_options(game_id):
            choice = rng.randrange(4)
            if choice == 1:
                options[spec.name] = rng.choice(spec.choices or (spec.lo, spec.hi, spec.default))
            elif choice >= 2:
                options[spec.name] = _fresh(rng.choice(values))
        if rng.randrange(10) == 0:
            options[rng.choice(["colour", "", "Players"])] = _fresh(rng.choice(values))
        seed = rng.choice([rng.randrange(100), rng.randrange(100), _fresh(rng.choice(values))])
        deals = None
        if _deals(game_id) and rng.random() < 0.5:
            deals = damage(rng, values, json.loads(rng.choice(_deals(game_id))))
        return load_or_game_error(lambda: new_game(game_id, options, seed, deals), rng)

    run(request, "options", case)


def test_replay_command_exits_0_or_2_with_one_error_line(request, tmp_path):
    path = tmp_path / "t.json"

    def case(rng: random.Random, values: list) -> bool:
        original = rng.choice(transcripts())
        if rng.random() < 0.5:
            original = _dump(damage(rng, values, json.loads(original)), original)
        text = damage_text(rng, values, original)
        raw = text.encode("utf-8", "surrogatepass")
        path.write_bytes(raw if rng.randrange(10) else b"\xff" + raw)
        out, err = io.StringIO(), io.StringIO()
        with redirect_stdout(out), redirect_stderr(err):
            code = main(["replay", str(path)])
        if code == 0:
            assert err.getvalue() == "" and json.loads(out.getvalue())["game"] in GAMES
            return True
        assert code == 2, (code, err.getvalue())
        assert out.getvalue() == "" and err.getvalue().startswith("error: ")
        assert err.getvalue().count("\n") == 1, err.getvalue()
        return False

    run(request, "cli", case)
