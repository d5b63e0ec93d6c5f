"""Dr. Jekyll & Mr. Hyde: the rulebook's examples and every edge case, as transcripts."""

from __future__ import annotations

from pathlib import Path

import pytest

from game import GameError, IllegalActionError, MalformedActionError, new_game, state_from_json
from game.core.transcript import Transcript, TranscriptError

TRANSCRIPTS = Path(__file__).parent / "transcripts" / "jekyll_hyde"


def transcript(name: str) -> Transcript:
    return Transcript.load(TRANSCRIPTS / f"{name}.json")


def replay(name: str):
    return transcript(name).replay()


def test_designation_example_from_the_rulebook():
    """Adam @Christian, Betty @Adam, Christian @Doris, Doris plays herself."""
    states = transcript("designation_example").states()
    before, after_trick = states[0], states[-1]
    assert before.to_act == 1  # Adam, left of the dealer Doris, leads
    assert states[1].to_act == 3 and states[1].turn == 1  # Christian gives for Adam
    data = after_trick.to_json()
    plays = data["tricks"][0]["plays"]
    assert plays == [
        {"seat": 1, "card": "HF4", "from": 3},
        {"seat": 2, "card": "JE", "from": 1},
        {"seat": 3, "card": "H1", "from": 0},
        {"seat": 0, "card": "JD", "from": 0},
    ]
    # Doris used two cards, Betty none; each seat has one card in front of it.
    assert [len(data["hands"][s]) for s in "0123"] == [5, 6, 7, 6]
    assert sorted(p["seat"] for p in plays) == [0, 1, 2, 3]
    # JD (rank 5) beats Poole and the location: Doris wins and leads.
    assert data["tricks"][0]["winner"] == 0 and after_trick.to_act == 0


def test_scoring_example_36_points():
    """(6 + 1 + 1 + 1) x (Charity 1 + Remorse 3) = 36; Fury counts nothing for Jekyll."""
    state = replay("scoring_example_36")
    entry = state.to_json()["history"][0]
    assert entry["points"] == {"jekyll": 9, "hyde": 43}
    assert entry["multiplier"] == {"jekyll": 4, "hyde": 2}
    assert entry["score"] == {"jekyll": 36, "hyde": 86}
    assert state.to_json()["scores"] == {"jekyll": 36, "hyde": 86}


def test_transformation_trick_goes_to_the_next_trick_winner():
    states = transcript("scoring_example_36").states()
    after_first = states[4].to_json()
    assert after_first["tricks"][0]["winner"] is None
    assert after_first["carried"] == ["JC", "HA", "J1", "HT"]
    assert after_first["to_act"] == 3  # the seat in front of which the Transformation lies
    after_second = states[8].to_json()
    assert after_second["carried"] == []
    assert sorted(after_second["taken"]["jekyll"]) == sorted(
        ["JC", "HA", "J1", "HT", "HF6", "JB", "H1", "J3"])


def test_transformation_in_the_last_trick_goes_to_nobody():
    states = transcript("scoring_example_36").states()
    last = states[-2].to_json()  # before the last card of the hand
    assert len(last["tricks"]) == 6
    taken = last["taken"]
    final = states[-1].to_json()["history"][0]
    # The last trick (H3 JT HF7 JA) adds nothing to either team.
    assert final["points"]["hyde"] == sum(
        {"HF3": 3, "HF4": 4, "HF5": 5, "JF3": 3, "JF4": 4, "JF5": 5, "JF6": 6, "JF7": 7}.get(c, 0)
        or (1 if c[1] in "ABCDE" else 0) for c in taken["hyde"])
    assert "JA" not in taken["hyde"] and "JA" not in taken["jekyll"]


def test_second_transformation_in_the_following_trick_carries_all_eight_cards():
    states = transcript("transformation_twice").states()
    after_two = states[8].to_json()
    assert [t["winner"] for t in after_two["tricks"]] == [None, None]
    assert len(after_two["carried"]) == 8
    assert after_two["to_act"] == 2  # led by the seat of the second Transformation
    final = states[-1].to_json()
    assert final["tricks"][2]["winner"] == 2
    assert len(final["taken"]["jekyll"]) == 12 and final["carried"] == []


def test_both_transformations_in_one_trick_the_first_one_leads():
    states = transcript("transformation_same_trick").states()
    after_one = states[4].to_json()
    assert after_one["tricks"][0]["winner"] is None and after_one["to_act"] == 0
    final = states[-1].to_json()
    assert final["tricks"][1]["winner"] == 0
    assert len(final["taken"]["jekyll"]) == 8


def test_a_team_without_its_own_action_scores_zero():
    entry = replay("no_own_action").to_json()["history"][0]
    assert entry["points"]["jekyll"] == 11
    assert entry["multiplier"]["jekyll"] == 0
    assert entry["score"]["jekyll"] == 0


def test_earliest_of_equal_ranks_wins():
    # Trick 3 of the 36 example is JD HB JF3 H2; trick 5 is HD JF5 HF4 J2 (HD first).
    state = transcript("scoring_example_36").states()[20]
    trick = state.to_json()["tricks"][4]
    assert [p["card"] for p in trick["plays"]] == ["HD", "JF5", "HF4", "J2"]
    assert trick["winner"] == 1
    # Two locations: the first played wins even with fewer points.
    s = new_game("jekyll-hyde", {"dealer": 3}, deals=[{"hands": {
        "0": ["JF3", "JA", "JB", "JC", "JD", "JE", "J1"],
        "1": ["HF7", "HA", "HB", "HC", "HD", "HE", "H1"],
        "2": ["JF7", "JF4", "JF5", "JF6", "J2", "J3", "JT"],
        "3": ["HF3", "HF4", "HF5", "HF6", "H2", "H3", "HT"]}}])
    for a in ["JF3", "HF7", "JF7", "HF3"]:
        s = s.apply(a)
    assert s.to_json()["tricks"][0]["winner"] == 0


def test_seating_b_partners_side_by_side():
    state = replay("seating_b")
    data = state.to_json()
    assert data["teams"] == {"0": "jekyll", "1": "jekyll", "2": "hyde", "3": "hyde"}
    assert data["tricks"][0]["winner"] == 0 and data["taken"]["jekyll"]


def test_dealer_passes_left_and_left_of_dealer_leads():
    state = replay("scoring_example_36")
    assert state.dealer == 0 and state.to_act == 1 and state.hand_number == 1


def test_a_seat_without_a_card_of_its_side_must_designate():
    s = new_game("jekyll-hyde", {"dealer": 3}, deals=[{"hands": {
        "0": ["HA", "HB", "HC", "HD", "HE", "HF3", "HF4"],
        "1": ["JA", "JB", "JC", "JD", "JE", "JF3", "JF4"],
        "2": ["JF5", "JF6", "JF7", "J1", "J2", "J3", "JT"],
        "3": ["HF5", "HF6", "HF7", "H1", "H2", "H3", "HT"]}}])
    assert s.legal_actions() == ["@1", "@2"]  # seat 0 holds no Jekyll card
    with pytest.raises(IllegalActionError, match="seat 3 has no Jekyll card"):
        s.apply("@3")
    s = s.apply("@1")
    assert s.to_act == 1 and s.legal_actions() == ["JA", "JB", "JC", "JD", "JE", "JF3", "JF4"]


def test_turn_passes_left_of_the_seat_on_turn_not_the_giver():
    s = transcript("designation_example").states()[2]  # Christian gave for Adam
    assert s.turn == 2 and s.to_act == 2


class TestThreePlayers:
    def test_soloist_plays_from_his_hand_or_the_ghost(self):
        states = transcript("three_players").states()
        start = states[0]
        assert start.to_act == 0
        legal = start.legal_actions()
        assert "H1" in legal and "HA" in legal  # ghost's and his own
        assert "@2" not in legal and "@1" in legal and "@3" in legal
        data = states[-1].to_json()
        plays = data["tricks"][0]["plays"]
        assert plays[0] == {"seat": 0, "card": "H1", "from": 2}
        assert plays[2] == {"seat": 2, "card": "HA", "from": 0}
        assert plays[3] == {"seat": 3, "card": "JD", "from": 0}
        assert data["tricks"][0]["winner"] == 2  # the ghost's seat wins for the soloist
        assert states[5].to_act == 0  # the ghost's seat leads: the soloist decides

    def test_designated_ghost_gives_what_the_soloist_picks(self):
        s = new_game("jekyll-hyde", {"players": 3}, seed=5)
        s = s.apply(next(a for a in s.legal_actions() if not a.startswith("@")))
        ghost_jekyll = [c for c in s.hand(2) if c[0] == "J"]
        if ghost_jekyll:
            t = s.apply("@2")
            assert t.to_act == 0 and t.legal_actions() == ghost_jekyll

    def test_roles_rotate_and_each_player_scores_alone(self):
        s = new_game("jekyll-hyde", {"players": 3, "names": ["A", "B", "C"]}, seed=11)
        seen = []
        for hand in range(3):
            seen.append(s.seat_names())
            while s.hand_number == hand:
                s = s.apply(s.legal_actions()[0])
        assert [n[0] for n in seen] == ["A", "C", "B"]  # soloist A -> C -> B
        assert seen[1] == {0: "C", 1: "A", 2: "ghost", 3: "B"}
        totals = {"A": 0, "B": 0, "C": 0}
        for entry, names in zip(s.history, seen):
            assert entry["soloist"] == names[0]
            for seat, name in names.items():
                if seat == 0:
                    totals[name] += entry["score"]["hyde"]
                elif seat in (1, 3):
                    totals[name] += entry["score"]["jekyll"]
        assert s.to_json()["scores"] == totals


def test_game_ends_at_the_target_and_equal_totals_play_another_hand():
    actions = transcript("scoring_example_36").actions

    def finish(scores):
        # Scores carried in from earlier hands (a save must show those hands in its
        # history, so the totals are set on the state itself).
        state = transcript("scoring_example_36").start()
        state.scores = (scores["jekyll"], scores["hyde"])
        for a in actions:
            state = state.apply(a)
        return state

    tied = finish({"jekyll": 1014, "hyde": 964})  # both end on 1050
    assert tied.to_act is not None and tied.winner is None and tied.hand_number == 1
    won = finish({"jekyll": 1014, "hyde": 965})
    assert won.to_act is None and won.winner == "hyde"
    assert won.legal_actions() == [] and won.to_json()["over"] is True
    assert won.returns() == {0: 0.0, 1: 1.0, 2: 0.0, 3: 1.0}


class TestBadInput:
    def setup_method(self):
        self.state = transcript("designation_example").start()  # Adam (seat 1) on turn

    def test_card_not_in_hand_names_the_seat_and_the_legal_actions(self):
        with pytest.raises(IllegalActionError) as e:
            self.state.apply("HA")
        message = str(e.value)
        assert "HA is not in seat 1's hand" in message and "legal: HB HC HF5 H2" in message

    def test_card_of_the_wrong_side(self):
        with pytest.raises(IllegalActionError, match="seat 1 needs a Hyde card and JE is a Jekyll"):
            self.state.apply("JE")

    def test_designating_oneself(self):
        with pytest.raises(IllegalActionError, match="cannot designate itself"):
            self.state.apply("@1")

    def test_malformed(self):
        for bad in ["", "XX", "@7", "jf5", "@", 5]:
            with pytest.raises(MalformedActionError, match="is not an action"):
                self.state.apply(bad)

    def test_designated_seat_must_give_not_designate(self):
        s = self.state.apply("@3")
        with pytest.raises(IllegalActionError, match="seat 3 was designated"):
            s.apply("@0")
        with pytest.raises(IllegalActionError, match="HB is not in seat 3's hand"):
            s.apply("HB")

    def test_errors_are_value_errors_and_leave_the_state_unchanged(self):
        before = self.state.to_json()
        with pytest.raises(ValueError):
            self.state.apply("JZ")
        assert self.state.to_json() == before

    def test_bad_options(self):
        for options, message in [({"players": 5}, "players must be 3 or 4"),
                                 ({"seating": "C"}, "seating must be"),
                                 ({"colour": 1}, "unknown option 'colour'"),
                                 ({"dealer": 4}, "dealer must be"),
                                 ({"players": 3, "names": ["a", "a", "b"]}, "names must be 3 different"),
                                 ({"names": ["a", "b"]}, "names must be 4 different")]:
            with pytest.raises(GameError, match=message):
                new_game("jekyll-hyde", options)

    def test_bad_deal(self):
        with pytest.raises(GameError, match="JA, JB, JC, JD dealt twice"):
            new_game("jekyll-hyde", deals=[{"hands": {
                "0": ["JA"] * 7, "1": ["JB"] * 7, "2": ["JC"] * 7, "3": ["JD"] * 7}}])

    def test_replay_error_names_the_action_index(self):
        t = transcript("designation_example")
        t.actions[5] = "HA"
        with pytest.raises(TranscriptError, match=r"action 5 'HA': HA is not in seat 0's hand"):
            t.replay()


# -- the card winning the trick under way (observation["winning"]) --------------

PLACES_DEAL = [{"hands": {
    "0": ["JF3", "JA", "JB", "JC", "JD", "JE", "J1"],
    "1": ["HF7", "HA", "HB", "HC", "HD", "HE", "H1"],
    "2": ["JF7", "JF4", "JF5", "JF6", "J2", "J3", "JT"],
    "3": ["HF3", "HF4", "HF5", "HF6", "H2", "H3", "HT"]}}]


def winning_after(actions: list[str]) -> list:
    """observation["winning"] (seat, card, transformation) after each action,
    the same for every seat; dealer 3, so seat 0 leads."""
    s = new_game("jekyll-hyde", {"dealer": 3}, deals=PLACES_DEAL)
    seen = [s.observation(0)["winning"]]
    for action in actions:
        s = s.apply(action)
        views = [s.observation(p)["winning"] for p in range(4)]
        assert all(v == views[0] for v in views)
        seen.append(views[0] and tuple(views[0].values()))
    return seen


def test_winning_places_tie_and_the_earlier_card_wins():
    seen = winning_after(["JF3", "HF7", "JF7", "HF3"])
    assert seen[:4] == [None, (0, "JF3", None), (0, "JF3", None), (0, "JF3", None)]
    assert seen[4] is None  # the trick is over: no trick under way


def test_winning_follows_rank_characters_beat_places_and_actions_are_lowest():
    # 0 leads J1 (an action), 1 HF7 (a place beats it), 2 asks 0 for JE (Poole,
    # 1 point, beats the 7-point place; it lies in front of 2), 3 HF6.
    actions = ["J1", "HF7", "@0", "JE", "HF6"]
    seen = winning_after(actions)
    assert seen[1:5] == [(0, "J1", None), (1, "HF7", None), (1, "HF7", None), (2, "JE", None)]
    s = new_game("jekyll-hyde", {"dealer": 3}, deals=PLACES_DEAL)
    for a in actions:
        s = s.apply(a)
    assert s.to_json()["tricks"][0]["winner"] == 2  # and the engine agrees at the end


def test_a_transformation_never_wins_and_says_who_leads_next():
    # JA is the highest character, yet the Transformation after it means nobody wins.
    seen = winning_after(["JA", "HA", "JT", "HT"])
    assert seen[1:3] == [(0, "JA", None), (0, "JA", None)]
    assert seen[3] == (None, None, 2)  # the first Transformation's seat leads next


def test_winning_agrees_with_every_trick_the_engine_decides():
    """Random games: whatever `winning` said before the fourth card, extended by
    that card, is the trick's winner (or nobody) the engine then records."""
    import random
    from game.jekyll_hyde.rules import winning
    rng = random.Random(5)
    for options in ({"players": 4}, {"players": 4, "seating": "B"}, {"players": 3}):
        s = new_game("jekyll-hyde", {**options, "target": 60}, seed=rng.randrange(10**6))
        while s.to_act is not None:
            plays = s.plays
            after = s.apply(rng.choice(s.legal_actions()))
            if len(after.tricks) > len(s.tricks) or after.hand_number > s.hand_number:
                full = after.tricks[-1][1] if after.hand_number == s.hand_number else None
                if full is not None:
                    said = winning(full)
                    assert said is not None and said["seat"] == after.tricks[-1][2]
                    assert full[:3] == plays[:3]
            s = after
