"""Jekyll vs Hyde: the rules, from transcripts of the rulebook's examples and of
hand-built edge cases, the errors, saves and the command line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from game import (
    BadOptionsError,
    BadStateError,
    IllegalActionError,
    MalformedActionError,
    new_game,
    state_from_json,
)
from game.core.transcript import Transcript
from game.jekyll_vs_hyde import sides
from game.jekyll_vs_hyde.rules import match_winner
from tests.command_line import run_main as run

TRANSCRIPTS = Path(__file__).parent / "transcripts" / "jekyll_vs_hyde"
GAME = "jekyll-vs-hyde"

# Round 1 deal used by several hand-built cases.
DEAL = {"J": ["P1", "P2", "P3", "P4", "R1", "R2", "G1", "G2", "G3", "2+"],
        "H": ["P7", "R3", "R4", "R5", "R6", "R7", "G5", "G6", "G7", "5+"],
        "aside": ["P5", "P6", "G4", "3+", "4+"]}


def replay(name: str):
    return Transcript.load(TRANSCRIPTS / name).states()


def play(state, *actions):
    for action in actions:
        state = state.apply(action)
    return state


# -- the rulebook's examples ------------------------------------------------

def test_rulebook_example_first_colour_weakest_then_middle_then_strongest():
    states = replay("rulebook_ranking.json")
    after_lead = states[3]
    assert after_lead.ranking == ("P",)
    end = states[-1].to_json()
    assert end["ranking"] == ["P", "R", "G"]
    assert end["tricks"] == {"J": 0, "H": 1}
    assert end["to_act"] == "H"  # the winner leads


def test_rulebook_example_potion_lead_names_red_and_resets_the_ranking():
    states = replay("rulebook_potion_red.json")
    first = states[4].to_json()  # P6 against the Potion 3+
    assert first["tricks"] == {"J": 1, "H": 0}
    assert first["played"][-1]["effect"] == "purple" and not first["played"][-1]["stolen"]
    before = states[5]
    assert before.ranking == ("P",)
    assert before.legal_actions() == ["R3", "R4", "R5", "R6", "R7"]  # not the Potion
    end = states[-1].to_json()
    assert end["ranking"] == []
    assert end["tricks"] == {"J": 1, "H": 1}
    assert end["played"][-1] == {"leader": "J", "lead": "4+", "named": "R", "follow": "R6",
                                 "winner": "H", "effect": "red", "stolen": False}


# -- Potions ----------------------------------------------------------------

def test_purple_potion_winner_steals_one_of_the_losers_tricks():
    end = replay("purple_steal.json")[-1].to_json()
    assert end["tricks"] == {"J": 0, "H": 3}
    assert end["played"][-1]["stolen"] is True
    assert {frozenset(t) for t in end["piles"]["H"]} == {
        frozenset(t) for t in (("G3", "G5"), ("P1", "5+"), ("P4", "P7"))}
    assert end["piles"]["J"] == []


def test_purple_potion_with_nothing_to_steal():
    s = play(new_game(GAME, seed=1, deals=[DEAL]), "give:G3", "give:G5", "P1", "5+")
    assert s.tricks == {"J": 0, "H": 1}
    assert s.to_json()["played"][-1]["stolen"] is False


def test_green_potion_swaps_cards_simultaneously_then_the_trick_is_taken():
    states = replay("green_swap.json")
    before = states[4]
    assert before.phase == "swap" and before.to_act == "J"
    assert before.tricks == {"J": 0, "H": 0}  # the effect comes first
    assert len(before.legal_actions()) == 36  # 2 of 9 cards
    chose = states[5]
    assert chose.to_act == "H"
    # Hyde cannot tell what Jekyll chose.
    other = before.apply("swap:R1,R2")
    assert chose.observation("H") == other.observation("H")
    assert "P1" not in json.dumps(chose.observation("H")["swaps"])
    end = states[-1]
    assert end.tricks == {"J": 0, "H": 1} and end.to_act == "H" and end.phase == "play"
    assert {"R3", "R4"} <= set(end.hands[0]) and {"P1", "P2"} <= set(end.hands[1])
    obs = end.observation("J")
    assert obs["swaps"] == [{"gave": ["P1", "P2"], "got": ["R3", "R4"]}]


LAST_DEAL = {"J": ["P1", "P2", "P3", "P4", "R1", "R2", "R3", "G1", "G2", "G3"],
             "H": ["P5", "P6", "P7", "R4", "R5", "R6", "R7", "G4", "G5", "5+"],
             "aside": ["G6", "G7", "2+", "3+", "4+"]}
# Eight tricks to Hyde: Jekyll keeps G1 and G5, Hyde G4 and 5+.
EIGHT_TRICKS = ["give:G3", "give:G5", "P1", "P5", "P6", "P2", "P7", "P3", "R4", "R1", "R5", "R2",
                "R6", "R3", "R7", "P4", "G3", "G2"]


def test_green_potion_on_the_last_trick_asks_for_no_swap():
    s = play(new_game(GAME, seed=1, deals=[LAST_DEAL]), *EIGHT_TRICKS, "G4", "G5")
    assert s.to_act == "J" and len(s.played) == 9 and s.hands == (("G1",), ("5+",))
    end = play(s, "G1", "5+")
    assert end.round == 2 and end.phase == "give"
    entry = end.history[-1]
    assert entry["tricks_played"][-1]["effect"] == "green"
    assert entry["tricks"] == {"J": 1, "H": 9} and entry["moved"] == 8


def test_green_potion_with_one_card_each_swaps_that_card():
    s = play(new_game(GAME, seed=1, deals=[LAST_DEAL]), *EIGHT_TRICKS, "5+:G", "G1")
    assert s.phase == "swap" and s.swap_count() == 1 and s.tricks == {"J": 0, "H": 8}
    assert s.legal_actions() == ["swap:G5"]
    s = s.apply("swap:G5")
    assert s.legal_actions() == ["swap:G4"]
    s = s.apply("swap:G4")
    assert s.phase == "play" and s.to_act == "H" and s.hands == (("G4",), ("G5",))
    assert s.tricks == {"J": 0, "H": 9}


def test_double_potion_cancels():
    end = replay("double_potion.json")[-1].to_json()
    assert end["played"][-1]["effect"] is None
    assert end["tricks"] == {"J": 0, "H": 1}
    assert end["ranking"] == []


def test_colour_named_with_a_potion_lead_sets_no_rank_and_must_be_followed():
    s = play(new_game(GAME, seed=1, deals=[DEAL]), "give:G3", "give:G5", "2+:R")
    assert s.ranking == ()
    assert s.legal_actions() == ["R3", "R4", "R5", "R6", "R7"]
    with pytest.raises(IllegalActionError, match="must play red"):
        s.apply("5+")
    s = s.apply("R3")
    assert s.ranking == ()  # red effect: reset right after red was ranked
    assert s.tricks == {"J": 0, "H": 1}


def test_colour_lead_may_be_answered_by_a_potion_or_anything_when_void():
    s = play(new_game(GAME, seed=1, deals=[DEAL]), "give:G3", "give:G5")
    s = s.apply("P4")
    assert s.legal_actions() == ["P7", "5+"]
    with pytest.raises(IllegalActionError, match="must follow purple or play a Potion"):
        s.apply("R3")
    s = play(s, "P7", "R3")  # Hyde leads red; Jekyll has red
    assert s.legal_actions() == ["R1", "R2", "2+"]


def test_different_colours_the_stronger_colour_wins_whatever_the_numbers():
    s = play(new_game(GAME, seed=1, deals=[DEAL]), "give:G3", "give:G5", "P4", "P7")
    # Hyde leads G3: green middle, red strongest. Jekyll has green (G5) and must follow.
    s = play(s, "G3", "G5")
    assert s.ranking == ("P", "G", "R") and s.to_act == "J"
    s = play(s, "R1", "R7", "R3")  # Hyde leads R3, Jekyll plays R2: same colour, 3 > 2
    s = s.apply("R2")
    assert s.tricks == {"J": 1, "H": 3}


# -- the exchange -----------------------------------------------------------

def test_exchange_potion_obligation():
    s = new_game(GAME, seed=1, deals=[json.loads((TRANSCRIPTS / "double_potion.json")
                                                  .read_text())["deals"][0]])
    assert s.legal_actions() == ["give:2+", "give:3+"]
    assert s.observation("J")["must_give_potion"] is True
    with pytest.raises(IllegalActionError, match="dealt 2 Potions and must give at least one"):
        s.apply("give:G1")


def test_exchange_is_simultaneous_and_hidden_until_both_are_in():
    s = new_game(GAME, seed=1, deals=[DEAL])
    a, b = s.apply("give:P1"), s.apply("give:2+")
    assert a.to_act == "H"
    assert a.observation("H") == b.observation("H")
    assert a.observation("H")["hand_sizes"] == {"J": 10, "H": 10}
    done = a.apply("give:R3")
    assert done.observation("J")["exchange"] == {"gave": ["P1"], "got": ["R3"]}
    assert done.observation("H")["exchange"] == {"gave": ["R3"], "got": ["P1"]}
    assert "R3" in done.hands[0] and "P1" in done.hands[1]


def test_exchange_sizes_by_round_and_leader_by_marker():
    s = Transcript.load(TRANSCRIPTS / "hyde_wins_early.json").states()
    round2 = next(x for x in s if x.round == 2)
    assert round2.marker == 6
    assert all(len(a.split(":")[1].split(",")) == 2 for a in round2.legal_actions())
    assert round2.leader == 1  # marker on 5 or beyond: Hyde leads
    first = s[0]
    assert first.leader == 0
    assert all(len(a.split(":")[1].split(",")) == 1 for a in first.legal_actions())


def test_leader_in_round_two_is_jekyll_on_spaces_0_to_4():
    s = new_game(GAME, seed=5)
    while s.round == 1:
        s = s.apply(s.legal_actions()[0])
    expected = 0 if s.marker <= 4 else 1
    assert s.leader == expected


# -- the end of the game ----------------------------------------------------

def test_hyde_wins_the_moment_the_marker_reaches_10():
    end = replay("hyde_wins_early.json")[-1]
    data = end.to_json()
    assert data["over"] and data["winner"] == "H" and data["marker"] == 10
    assert data["round"] == 2 and len(data["history"]) == 2
    assert [h["moved"] for h in data["history"]] == [6, 8]
    assert data["scores"] == {"J": 0, "H": 10}
    assert end.returns() == {"J": 0.0, "H": 1.0}
    assert data["legal"] == [] and data["to_act"] is None


def test_jekyll_wins_after_round_three_below_10():
    s = new_game(GAME, seed=11)
    while not s.over:
        s = s.apply(s.legal_actions()[0])
    data = s.to_json()
    if data["marker"] < 10:
        assert data["winner"] == "J" and len(data["history"]) == 3
    else:
        assert data["winner"] == "H"


def test_return_match_swaps_the_roles_and_the_better_hyde_wins():
    s = new_game(GAME, {"variant": "return-match"}, seed=3)
    assert s.identity("J") == "J"
    while s.leg == 0:
        s = s.apply(s.legal_actions()[-1])
    assert s.identity("J") == "H" and s.identity("H") == "J"
    assert s.marker == 0 and s.round == 1 and s.to_act == "J"
    assert s.observation("J")["you"] == "H"
    first = s.legs[0]
    assert first["hyde"] == "H" and s.scores()["H"] == first["score"]
    while not s.over:
        s = s.apply(s.legal_actions()[0])
    data = s.to_json()
    assert len(data["legs"]) == 2 and data["legs"][1]["hyde"] == "J"
    assert data["winner"] == match_winner(data["legs"])
    assert data["scores"] == {"J": data["legs"][1]["score"], "H": data["legs"][0]["score"]}


def test_return_match_tie_breaks():
    assert match_winner([{"hyde": "H", "score": 8, "rounds": 3},
                         {"hyde": "J", "score": 4, "rounds": 3}]) == "H"
    assert match_winner([{"hyde": "H", "score": 10, "rounds": 2},
                         {"hyde": "J", "score": 10, "rounds": 3}]) == "H"
    assert match_winner([{"hyde": "H", "score": 10, "rounds": 3},
                         {"hyde": "J", "score": 10, "rounds": 3}]) is None
    assert match_winner([{"hyde": "H", "score": 4, "rounds": 3},
                         {"hyde": "J", "score": 4, "rounds": 3}]) is None


def test_sides():
    assert sides(None) == {"jekyll": ["J"], "hyde": ["H"]}
    assert sides({"variant": "return-match"}) == {"starts-jekyll": ["J"],
                                                  "starts-hyde": ["H"]}


# -- errors -----------------------------------------------------------------

@pytest.mark.parametrize("action, error, words", [
    ("Z9", MalformedActionError, "not an action"),
    ("give:Q1", MalformedActionError, "'Q1' is not a card"),
    ("P1", IllegalActionError, "Jekyll (J) cannot play 'P1' now: it is the exchange"),
    ("give:P5", IllegalActionError, "P5 is not in Jekyll (J)'s hand"),
    ("give:P1,P2", IllegalActionError, "must give exactly 1 card, not 2"),
    ("give:P1,P1", IllegalActionError, "names a card twice"),
])
def test_bad_actions_in_the_exchange(action, error, words):
    s = new_game(GAME, seed=1, deals=[DEAL])
    with pytest.raises(error) as e:
        s.apply(action)
    assert words in str(e.value)
    assert "legal: give:P1 give:P2" in str(e.value)
    assert isinstance(e.value, ValueError)


@pytest.mark.parametrize("action, error, words", [
    ("2+", IllegalActionError, "leading a Potion names a colour: 2+:P, 2+:R or 2+:G"),
    ("P1:R", IllegalActionError, "only a Potion lead names a colour"),
    ("2+:X", MalformedActionError, "not an action"),
    ("P7", IllegalActionError, "P7 is not in Jekyll (J)'s hand"),
    ("give:P1", IllegalActionError, "it is a trick"),
    ("swap:P1,P2", IllegalActionError, "it is a trick"),
    ("", MalformedActionError, "not an action"),
])
def test_bad_leads(action, error, words):
    s = play(new_game(GAME, seed=1, deals=[DEAL]), "give:G3", "give:G5")
    with pytest.raises(error) as e:
        s.apply(action)
    assert words in str(e.value) and "legal: P1 P2" in str(e.value)


def test_bad_follow_and_after_the_end():
    s = play(new_game(GAME, seed=1, deals=[DEAL]), "give:G3", "give:G5", "P1")
    with pytest.raises(IllegalActionError, match="only the leader names a colour"):
        s.apply("5+:R")
    with pytest.raises(MalformedActionError):
        s.apply(None)  # type: ignore[arg-type]
    end = replay("hyde_wins_early.json")[-1]
    with pytest.raises(IllegalActionError, match="the game is over"):
        end.apply("P1")


def test_swap_errors():
    s = replay("green_swap.json")[4]
    with pytest.raises(IllegalActionError, match="it is a green Potion swap, he chooses 2"):
        s.apply("P3")
    with pytest.raises(IllegalActionError, match="must swap exactly 2 cards, not 1"):
        s.apply("swap:P3")
    with pytest.raises(IllegalActionError, match="it is a green Potion swap"):
        s.apply("give:P3,P4")


@pytest.mark.parametrize("deals, words", [
    ([{"J": [], "H": []}], '"J": [10 cards]'),
    ([{"J": DEAL["J"][:9], "H": DEAL["H"], "aside": DEAL["aside"]}], "'J' must be a list of 10"),
    ([{"J": DEAL["J"], "H": DEAL["H"], "aside": DEAL["aside"][:4] + ["P1"]}], "P1 dealt twice"),
    ([{"J": DEAL["J"], "H": DEAL["H"][:9] + ["X7"], "aside": DEAL["aside"]}], "'X7' is not a card"),
    ("nope", "deals must be a list"),
])
def test_bad_deals(deals, words):
    with pytest.raises(BadOptionsError) as e:
        new_game(GAME, seed=1, deals=deals)
    assert words in str(e.value)


def test_bad_options():
    with pytest.raises(BadOptionsError, match="unknown option 'players'"):
        new_game(GAME, {"players": 2})
    with pytest.raises(BadOptionsError, match="variant must be"):
        new_game(GAME, {"variant": "expert"})
    with pytest.raises(BadOptionsError, match="no player"):
        new_game(GAME, seed=1).observation(0)


def test_given_deals_are_used_in_order_then_the_seed():
    s = new_game(GAME, seed=9, deals=[DEAL])
    assert list(s.hands[0]) == DEAL["J"]
    t = new_game(GAME, seed=9)
    assert s.table.deal(1) == t.table.deal(1)


# -- saves ------------------------------------------------------------------

def test_to_json_keys_and_round_trip():
    s = replay("green_swap.json")[5]  # mid-swap: Jekyll's choice pending
    data = s.to_json()
    for key in ["game", "options", "over", "to_act", "legal", "scores", "winner", "round",
                "marker", "ranking", "tricks", "hands", "history", "seed", "deals"]:
        assert key in data
    assert data["game"] == GAME and data["tricks"] == {"J": 0, "H": 0}
    again = state_from_json(json.loads(json.dumps(data)))
    assert again.to_json() == data
    assert again.apply("swap:R3,R4").to_json() == s.apply("swap:R3,R4").to_json()


@pytest.mark.parametrize("change", [
    lambda d: d.pop("marker"),
    lambda d: d["hands"]["J"].append("P7"),
    lambda d: d.update(phase="bid"),
    lambda d: d["hands"].update(J="P1"),
    lambda d: d.update(to_act="J"),
    lambda d: d.update(ranking=["P", "R"]),
    lambda d: d.update(marker=11),
])
def test_from_json_rejects_bad_saves(change):
    data = replay("rulebook_ranking.json")[3].to_json()
    change(data)
    with pytest.raises(BadStateError):
        state_from_json(data)


# -- the command line -------------------------------------------------------

def test_replay_command_prints_the_final_state():
    result = run("replay", str(TRANSCRIPTS / "hyde_wins_early.json"))
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["winner"] == "H" and data["marker"] == 10


def test_replay_command_reports_an_illegal_action(tmp_path):
    data = json.loads((TRANSCRIPTS / "rulebook_ranking.json").read_text())
    data["actions"][3] = "P1"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    result = run("replay", str(bad))
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.startswith("error: action 3 'P1': P1 is not in Hyde (H)'s hand")
    assert result.stderr.count("\n") == 1


def test_play_command_in_the_terminal():
    lines = "\n".join(["1"] * 200) + "\n"
    result = run("play", "--game", GAME, "--seed", "3", "--seat", "H", stdin=lines)
    assert result.returncode == 0, result.stderr
    assert "you play Mr. Hyde" in result.stdout or "you play Hyde" in result.stdout
    assert "Game over" in result.stdout
