"""Dracula: the rules from hand-built transcripts, the errors, the protocol."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from game import new_game, state_from_json
from game.core.state import (
    BadOptionsError,
    BadStateError,
    GameError,
    IllegalActionError,
    MalformedActionError,
)
from game.core.transcript import Transcript, TranscriptError
from game.dracula import cards
from game.dracula.rules import DraculaState, final_scores, sides
from tests.command_line import run_main as run

TRANSCRIPTS = Path(__file__).parent / "transcripts" / "dracula"


def replay(name: str) -> dict:
    return Transcript.load(TRANSCRIPTS / name).replay().to_json()


def first_deal(name: str) -> dict:
    return replay(name)["history"][0]


# -- scoring, from transcripts (player 0 scores the rows, player 1 the columns) --

def test_multipliers_rows():
    deal = first_deal("multipliers.json")
    assert deal["grid"] == [["QH", "10H", "5H"], ["2S", "9C", "AS"], ["KD", "3H", "7C"]]
    # QH 10H 5H: (10+10+5) x5; 2S 9C AS: 12 x3 (all black beats two spades);
    # KD 3H 7C: the King is 0 in a row, 10 x1.
    assert deal["lines"]["0"] == [125, 36, 10]
    # Columns: QH 2S KD: the Queen is 0, the King 10 -> 12 x1; 10H 9C 3H: 22 x2.
    assert deal["lines"]["1"] == [12, 44, 13]
    assert deal["score"] == {"0": 125, "1": 44}


def test_multipliers_columns():
    deal = first_deal("multipliers-columns.json")
    assert deal["lines"]["0"] == [13, 38, 18]  # x1, x2 (two diamonds), x2
    assert deal["lines"]["1"] == [100, 30, 33]  # KC 7C 3C x5, 4H QD 6H all red x3
    assert deal["score"] == {"0": 38, "1": 100}


def test_vampire_zeroes_its_row_and_its_column():
    deal = first_deal("vampire-row-column.json")
    assert deal["grid"][0][1] == "V1"
    assert deal["lines"]["0"] == [0, 120, 27]  # row 0 holds the Vampire
    assert deal["lines"]["1"] == [42, 0, 21]  # so does column 1
    assert deal["score"] == {"0": 120, "1": 42}


def test_vampire_as_the_nail():
    state = Transcript.load(TRANSCRIPTS / "vampire-nail.json").states()[1]
    assert state.grid[4] == "V2"
    deal = first_deal("vampire-nail.json")
    assert deal["lines"]["0"] == [135, 0, 15]
    assert deal["lines"]["1"] == [16, 0, 14]


def test_two_vampires():
    deal = first_deal("two-vampires.json")
    assert deal["lines"] == {"0": [0, 36, 0], "1": [0, 18, 0]}


@pytest.mark.parametrize("name, lines, score", [
    ("tie-second.json", {"0": [6, 18, 57], "1": [30, 57, 15]}, {"0": 18, "1": 30}),
    ("tie-third.json", {"0": [5, 48, 22], "1": [22, 15, 48]}, {"0": 5, "1": 15}),
    ("tie-all.json", {"0": [63, 34, 26], "1": [26, 34, 63]}, {"0": 26, "1": 26}),
])
def test_deal_tie_rule(name, lines, score):
    deal = first_deal(name)
    assert deal["lines"] == lines
    assert deal["score"] == score


def test_rulebook_bonus_example():
    data = replay("bonus-245-272.json")
    assert data["over"] and data["to_act"] is None
    assert data["totals"] == {"0": 245, "1": 272}
    assert data["scores"] == {"0": 245, "1": 299}
    assert data["bonus"] == {"0": 0, "1": 27}
    assert data["winner"] == "1"
    assert len(data["history"]) == 6
    assert sum(h["score"]["0"] for h in data["history"]) == 245


def test_equal_totals_highest_deal_takes_the_bonus():
    data = replay("bonus-tie-break.json")
    assert data["totals"]["0"] == data["totals"]["1"]
    best = {p: max(h["score"][p] for h in data["history"]) for p in "01"}
    winner = max(best, key=best.get)
    assert best["0"] != best["1"]
    assert data["winner"] == winner
    assert data["scores"][winner] == data["totals"][winner] + best[winner]
    assert data["scores"][str(1 - int(winner))] == data["totals"]["0"]
    # first_dealer 1 chose the King's way.
    assert data["ways"] == {"0": "Q", "1": "K"}
    assert [h["dealer"] for h in data["history"]] == [1, 0, 1, 0, 1, 0]


def test_draw_when_totals_and_best_deals_are_equal():
    data = replay("draw.json")
    assert data["totals"]["0"] == data["totals"]["1"] == data["scores"]["0"]
    assert data["winner"] is None
    state = Transcript.load(TRANSCRIPTS / "draw.json").replay()
    assert state.returns() == {0: 0.5, 1: 0.5}


def test_final_scores_function():
    assert final_scores((245, 272), []) == ((245, 299), "1")
    assert final_scores((300, 100), []) == ((500, 100), "0")
    assert final_scores((50, 50), [(10, 30), (40, 20)]) == ((90, 50), "0")
    assert final_scores((50, 50), [(40, 30), (10, 40)]) == ((50, 50), None)


@pytest.mark.parametrize("line, way, value", [
    (("AS", "2S", "3S"), "Q", 30),
    (("JH", "QH", "KH"), "Q", 50),
    (("JH", "QH", "KH"), "K", 50),
    (("JH", "QD", "KS"), "Q", 10),
    (("10C", "10S", "3C"), "K", 69),
    (("10C", "10S", "3H"), "K", 23),
    (("10C", "3C", "3H"), "K", 32),
    (("10D", "3D", "3H"), "Q", 48),
    (("5D", "V1", "5H"), "Q", 0),
])
def test_line_value(line, way, value):
    assert cards.line_value(line, way) == value


# -- the course of a game --------------------------------------------------

def test_deal_order_and_alternating_dealer():
    deck = list(cards.DECK)
    s = new_game("dracula", {"first_dealer": 1}, deals=[{"deck": deck}])
    assert s.to_act == 1 and s.legal_actions() == ["way:Q", "way:K"]
    assert s.hands == ((), ()) and s.to_json()["stock"] == 54
    s = s.apply("way:Q")
    assert s.ways == ("K", "Q")
    # Non-dealer (0) gets cards 1, 3, 5, 7 of the pack; the dealer 2, 4, 6, 8; the 9th is the nail.
    assert s.hands == (("AS", "3S", "5S", "7S"), ("2S", "4S", "6S", "8S"))
    assert s.grid[4] == "9S" and s.to_act == 0
    assert s.to_json()["stock"] == 45
    for _ in range(8):
        s = s.apply(s.legal_actions()[0])
    assert s.deal_number == 1 and s.dealer == 0 and s.to_act == 1
    assert s.hands == (("JS", "KS", "2H", "4H"), ("10S", "QS", "AH", "3H"))
    assert s.grid[4] == "5H"


def test_the_first_placements_touch_the_nail():
    s = new_game("dracula", seed=4).apply("way:K")
    card = s.hands[s.to_act][0]
    assert s.legal_actions()[:4] == [f"{card}@{c}" for c in ("01", "10", "12", "21")]
    assert len(s.legal_actions()) == 16


def test_legal_actions_are_pack_order_then_reading_order():
    s = new_game("dracula", seed=11).apply("way:Q")
    hand = list(s.hands[s.to_act])
    assert hand == sorted(hand, key=cards.ORDER.__getitem__)
    assert s.legal_actions() == [f"{c}@{x}" for c in hand for x in ("01", "10", "12", "21")]
    assert s.legal_actions() == s.legal_actions()


def test_apply_leaves_the_old_state_alone():
    s = new_game("dracula", seed=2).apply("way:Q")
    before = s.to_json()
    t = s.apply(s.legal_actions()[5])
    assert s.to_json() == before
    assert t.to_json() != before


def test_json_round_trip_and_replay_cli(tmp_path):
    path = TRANSCRIPTS / "bonus-245-272.json"
    out = run("replay", str(path))
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["scores"] == {"0": 245, "1": 299}
    rebuilt = state_from_json(data)
    assert rebuilt.to_json() == data
    for key in ("game", "options", "over", "to_act", "legal", "scores", "winner", "ways",
                "grid", "hands", "history", "totals", "seed", "deals"):
        assert key in data


def test_replay_cli_reports_an_illegal_action(tmp_path):
    data = json.loads((TRANSCRIPTS / "multipliers.json").read_text())
    data["actions"][3] = "QH@22"
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    out = run("replay", str(path))
    assert out.returncode == 2
    assert out.stderr.startswith("error: action 3 'QH@22': ")
    assert out.stderr.count("\n") == 1


# -- errors ----------------------------------------------------------------

@pytest.fixture
def placing() -> DraculaState:
    deck = list(cards.DECK)
    return new_game("dracula", {"first_dealer": 0}, deals=[{"deck": deck}]).apply("way:Q")


@pytest.mark.parametrize("action, error, words", [
    ("", MalformedActionError, "<card>@<row><col>"),
    ("AS", MalformedActionError, "<card>@<row><col>"),
    ("ZZ@01", MalformedActionError, "<card>@<row><col>"),
    ("AS@3", MalformedActionError, "rows and columns"),
    ("AS@33", MalformedActionError, "0-2"),
    ("way:X", MalformedActionError, "way:Q"),
    ("way:Q", IllegalActionError, "already chosen"),
    ("2S@01", IllegalActionError, "not in player 1's hand"),
    ("9S@01", IllegalActionError, "9S is in the coffin"),
    ("AS@11", IllegalActionError, "cell 11, it is taken by 9S"),
    ("AS@00", IllegalActionError, "touches no placed card"),
])
def test_bad_actions(placing, action, error, words):
    with pytest.raises(error) as info:
        placing.apply(action)
    message = str(info.value)
    assert isinstance(info.value, ValueError)
    assert words in message
    if action:
        assert repr(action) in message
    assert "player 1" in message and "legal: AS@01 AS@10" in message
    if error is IllegalActionError:
        assert "legal: AS@01 AS@10" in message and "player 1" in message


def test_non_string_action(placing):
    with pytest.raises(MalformedActionError):
        placing.apply(None)  # type: ignore[arg-type]


def test_placement_before_the_way(placing):
    s = new_game("dracula", seed=1)
    with pytest.raises(IllegalActionError, match="choose the way.*legal: way:Q way:K"):
        s.apply("AS@01")


def test_no_action_once_over():
    s = Transcript.load(TRANSCRIPTS / "bonus-245-272.json").replay()
    assert s.legal_actions() == []
    with pytest.raises(IllegalActionError, match="the game is over"):
        s.apply("AS@01")


@pytest.mark.parametrize("options, deals, words", [
    ({"first_dealer": 2}, None, "first_dealer must be 0 or 1"),
    ({"first_dealer": True}, None, "first_dealer must be 0 or 1"),
    ({"dealer": 0}, None, "unknown option 'dealer'"),
    (None, [{"deck": list(cards.DECK)[:-1]}], "53 cards, not 54; missing: V2"),
    (None, [{"deck": list(cards.DECK)[:-1] + ["AS"]}], "twice: AS; missing: V2"),
    (None, [{"deck": list(cards.DECK)[:-1] + ["XX"]}], "'XX' is not a card"),
    (None, [{"hands": {}}], '{"deck": [the 54 cards'),
    (None, [{"deck": list(cards.DECK)}] * 2, "at most one deal"),
    (None, {"deck": []}, "deals must be a list"),
])
def test_bad_options_and_deals(options, deals, words):
    with pytest.raises(BadOptionsError) as info:
        new_game("dracula", options, seed=1, deals=deals)
    assert words in str(info.value)


def test_bad_transcript_deck_is_a_transcript_error(tmp_path):
    data = json.loads((TRANSCRIPTS / "multipliers.json").read_text())
    data["deals"][0]["deck"][5] = data["deals"][0]["deck"][6]
    with pytest.raises(TranscriptError, match="twice"):
        Transcript.from_json(data).replay()


def test_from_json_rejects_bad_saves(placing):
    good = placing.apply(placing.legal_actions()[0]).to_json()
    assert state_from_json(good).to_json() == good
    for broken in (
        {"game": "dracula"},
        {**good, "moves": ["AS@00"]},
        {**good, "hands": {"0": [], "1": []}},
        {**good, "grid": [[None] * 3] * 3},
        {**good, "totals": {"0": 5, "1": 0}},
        {**good, "ways": {"0": "X", "1": "Q"}},
        {**good, "options": {"first_dealer": 7}},
        {**good, "history": 3},
    ):
        with pytest.raises(BadStateError):
            DraculaState.from_json(broken)
    with pytest.raises(BadStateError):
        DraculaState.from_json([])  # type: ignore[arg-type]


# -- what a player sees ------------------------------------------------------

def _deck_with_hidden_changes() -> tuple[list[str], list[str]]:
    """Two packs that differ only in player 1's hand (deal 1) and the stock order."""
    a = list(cards.DECK)
    b = list(a)
    b[0], b[20] = b[20], b[0]  # a card of player 1 (the non-dealer) swapped with the stock
    rest = b[9:]
    random.Random(3).shuffle(rest)
    b[9:] = rest
    return a, b


def test_observation_hides_the_opponents_hand_and_the_stock():
    a, b = _deck_with_hidden_changes()
    sa = new_game("dracula", deals=[{"deck": a}], seed=1).apply("way:Q")
    sb = new_game("dracula", deals=[{"deck": b}], seed=2).apply("way:Q")
    assert sa.hands[0] == sb.hands[0] and sa.hands[1] != sb.hands[1]
    assert sa.observation(0) == sb.observation(0)
    assert sa.observation(1) != sb.observation(1)
    # Still equal after player 1 places a card both hands share, and player 0 answers.
    shared = next(c for c in sa.hands[1] if c in sb.hands[1])
    sa, sb = sa.apply(f"{shared}@01"), sb.apply(f"{shared}@01")
    assert sa.observation(0) == sb.observation(0)
    move = sa.legal_actions()[0]
    sa, sb = sa.apply(move), sb.apply(move)
    assert sa.observation(0) == sb.observation(0)
    obs = sa.observation(0)
    flat = json.dumps(obs)
    for hidden in ("seed", "deals", "hands", "deck"):
        assert f'"{hidden}"' not in flat
    assert obs["hand"] == list(sa.hands[0]) and obs["held"] == {"0": 3, "1": 3}


def test_observation_of_the_player_to_act_has_the_legal_actions():
    s = new_game("dracula", seed=9).apply("way:K")
    p = s.to_act
    assert s.observation(p)["legal"] == s.legal_actions()
    assert s.observation(1 - p)["legal"] == []
    with pytest.raises(GameError):
        s.observation(2)


# -- bots, simulate, text ----------------------------------------------------

def test_sides():
    assert sides(None) == {"0": [0], "1": [1]}


def test_heuristic_beats_random():
    from game.core.match import simulate

    result = simulate("dracula", ["heuristic", "random"], 8, seed=3)
    assert result.win_rate()["heuristic"] >= 0.8


def test_heuristic_way_choice_and_last_move():
    from game.bots import make_bot

    bot = make_bot("dracula", "heuristic")
    s = new_game("dracula", seed=8)
    rng = random.Random(0)
    assert bot.choose(s.observation(0), s.legal_actions(), rng) in ("way:Q", "way:K")
    s = s.apply("way:Q")
    while s.to_act is not None and s.deal_number == 0:
        action = bot.choose(s.observation(s.to_act), s.legal_actions(), rng)
        assert action in s.legal_actions()
        s = s.apply(action)


def test_heuristic_spoils_with_a_vampire():
    """Its last card a Vampire, it kills the opponent's dangerous column."""
    from game.dracula.bots import HeuristicBot

    # Player 0 scores the rows: his row 1 (10D 10H 9D, 87) is safe and full; rows 0
    # and 2 are weak.  Player 1's column 2 (9D 2D) can become x5 with a diamond,
    # column 0 (2S 10D) at best x2.  The Vampire goes to 02 and kills column 2.
    grid = [["2S", "3H", None], ["10D", "10H", "9D"], [None, "4C", "2D"]]
    obs = {"player": 0, "ways": {"0": "Q", "1": "K"}, "grid": grid, "hand": ["V1"],
           "history": [], "held": {"0": 1, "1": 1}}
    legal = ["V1@02", "V1@20"]
    assert HeuristicBot().choose(obs, legal, random.Random(1)) == "V1@02"


def test_text_views():
    from game.dracula import text

    s = new_game("dracula", seed=6)
    assert "chooses the way" in text.intro(s.observation(0))
    assert "way:Q" in text.render(s.observation(0))
    assert "rows" in text.describe(s, "way:Q")
    s = s.apply("way:Q")
    view = text.render(s.observation(s.to_act))
    assert "your hand" in view and s.hands[1 - s.to_act][0] not in view.split("your hand")[1]
    while s.to_act is not None:
        line = text.describe(s, s.legal_actions()[0])
        s = s.apply(s.legal_actions()[0])
    assert "deal over" in line
    assert "Game over" in text.final(s.observation(0))


def test_play_cli_runs_a_whole_game():
    moves = "way:Q\n" + "1\n" * 30
    out = run("play", "--game", "dracula", "--bots", "heuristic", "--seed", "4", stdin=moves)
    assert out.returncode == 0, out.stderr
    assert "Game over" in out.stdout


def test_heuristic_with_a_deadline_in_the_past_still_plays_legally():
    from game.dracula.bots import HeuristicBot

    s = new_game("dracula", seed=12).apply("way:Q")
    rng = random.Random(2)
    while s.to_act is not None and s.deal_number == 0:
        action = HeuristicBot().choose(s.observation(s.to_act), s.legal_actions(), rng,
                                       deadline=0.0)
        s = s.apply(action)
    assert s.deal_number == 1


def test_in_the_last_deal_the_bot_plays_to_win_the_game():
    from game.dracula.bots import _Scorer

    grid = ["10H", "9H", "8H", "2C", "3D", "4S", "AS", "JD", "5C"]
    plain = _Scorer(("Q", "K"), 0)
    # Player 0 scores 135 (10H 9H 8H), player 1 36 (9H 3D JD, 12 x3): 99 ahead.
    assert plain.diff(grid) > 0
    behind = _Scorer(("Q", "K"), 0, lead=-500)
    ahead = _Scorer(("Q", "K"), 0, lead=500)
    assert behind.diff(grid) < 0 < ahead.diff(grid)
    assert ahead.diff(grid) - plain.diff(grid) == 1000
