"""Friends at one screen (game.web.model.handover and the start screens' person
seats): who is at the screen, when the device is handed over, what the log
lets each person read, and that undo never crosses another person's decision."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest

from game import new_game
from game.bots import levels
from game.core.state import State
from game.web.model import handover, saves
from game.web.draw.i18n import Translator
from game.web.draw.tables import TableContext, renderer
from game.web.draw.tables.common import PERSON
from game.web.model.undo import CannotRewind, take_back, undoable

# (game, start-screen values): two people and (in Werner's game) two bots.
TWO_PEOPLE = [
    ("jekyll-hyde", {"players": "4", "seating": "A", "me": "0", "bot1": "random",
                     "bot2": PERSON, "name2": "Bob", "bot3": "random", "name0": "Ann"}),
    ("jekyll-hyde", {"players": "3", "me": "0", "bot1": PERSON, "bot2": "random"}),
    ("jekyll-vs-hyde", {"jvh_role": "J", "jvh_bot": PERSON, "jvh_name": "Ann",
                        "jvh_name_other": "Bob"}),
    ("dracula", {"first": "bot", "dr_bot": PERSON, "dr_name": "Ann"}),
]


def setup_of(game: str, values: dict[str, str]) -> dict[str, Any]:
    return renderer(game).parse_setup(values, list(levels(game)))


def test_the_start_screens_seat_people_and_bots() -> None:
    werner = setup_of(*TWO_PEOPLE[0])
    assert werner["me"] == 0 and werner["people"] == {"0": "Ann", "2": "Bob"}
    assert werner["bots"] == {"1": "random", "3": "random"}
    # People's names label their seats at the table; bots keep the seats' names.
    assert werner["options"]["names"] == ["Ann", "Adam", "Bob", "Christian"]
    three = setup_of(*TWO_PEOPLE[1])  # three players: people are the engine's names
    assert three["people"] == {"Adam": "Adam", "Betty": "Betty"}
    assert three["bots"] == {"Christian": "random"} and "names" not in three["options"]
    renamed = setup_of("jekyll-hyde", {**TWO_PEOPLE[1][1], "name0": "Zoe"})
    assert renamed["options"]["names"] == ["Zoe", "Betty", "Christian"]
    assert renamed["me"] == "Zoe" and renamed["people"] == {"Zoe": "Zoe", "Betty": "Betty"}
    # Two alike, or a word the engine keeps: the seats keep their own names.
    for clash in ({"name0": "Betty"}, {"name0": "ghost"}):
        kept = setup_of("jekyll-hyde", {**TWO_PEOPLE[1][1], **clash})
        assert "names" not in kept["options"] and kept["people"] == three["people"]
    duel = setup_of(*TWO_PEOPLE[2])
    assert duel["people"] == {"J": "Ann", "H": "Bob"} and duel["bots"] == {}
    dracula = setup_of(*TWO_PEOPLE[3])  # an unnamed person: "Player 2" in the page's words
    assert dracula["people"] == {"0": "Ann", "1": ""} and dracula["bots"] == {}
    # One person: no `people`, the save is as before pass-and-play.
    alone = setup_of("jekyll-hyde", {"players": "4", "me": "1", "bot0": "random"})
    assert alone["people"] == {} and set(alone["bots"]) == {"0", "2", "3"}
    assert handover.people({"me": 1, "bots": alone["bots"]}) == {"1": ""}


@pytest.mark.parametrize("game,values", TWO_PEOPLE)
def test_each_person_seat_has_a_name_field_in_every_language(game: str,
                                                             values: dict[str, str]) -> None:
    for lang in ("en", "fr", "it", "de"):
        form = str(renderer(game).setup_form(Translator(lang), list(levels(game)), values))
        assert form.count('value="person"') >= 1
        assert form.count('type="text"') == 2, form  # both people's names
    alone = str(renderer(game).setup_form(Translator("en"), list(levels(game)), {}))
    assert 'type="text"' not in alone and 'value="person"' in alone


def names_from_setup(setup: dict[str, Any]) -> dict[str, Any]:
    return {"setup": {"me": setup["me"], "bots": setup["bots"], "people": setup["people"]}}


def hands_of(state: State) -> dict[str, list[str]]:
    data = state.to_json()
    return {str(k): list(v) for k, v in data["hands"].items() if isinstance(v, list)}


@pytest.mark.parametrize("game,values", TWO_PEOPLE)
def test_the_device_goes_to_whoever_decides_and_only_then(game: str,
                                                          values: dict[str, str]) -> None:
    """Random games: a hand-over exactly when a person other than the one at
    the screen is on turn; after the tap that person is at the screen."""
    setup = setup_of(game, values)
    rng = random.Random(5)
    for seed in range(3):
        state = new_game(game, setup["options"], seed)
        save = names_from_setup(setup)
        handovers = 0
        while not state.over:
            due = handover.handover_to(state, save)
            on_turn = handover.person_on_turn(state, save["setup"])
            if on_turn is None:
                assert due is None  # a bot decides: no hand-over
            elif on_turn == handover.at_screen(save):
                assert due is None  # the same person again (or only bots between)
            else:
                assert due == on_turn
                save["at_screen"] = due  # the tap
                handovers += 1
            state = state.apply(rng.choice(state.legal_actions()))
        assert handovers > 0


def test_a_designated_person_gets_the_device() -> None:
    """Werner's game: Ann makes Bob give a card: Bob chooses it, so the
    device goes to Bob; then back to whoever is next."""
    setup = setup_of(*TWO_PEOPLE[0])
    for seed in range(200):
        state = new_game("jekyll-hyde", setup["options"], seed)
        while not state.over and not (state.to_act == 0 and "@2" in state.legal_actions()):
            state = state.apply(state.legal_actions()[0])
        if not state.over:
            break
    else:
        pytest.fail("no deal lets seat 0 designate seat 2")
    save = names_from_setup(setup)
    assert handover.handover_to(state, save) is None  # Ann is at the screen and on turn
    state = state.apply("@2")
    assert state.to_act == 2
    assert handover.handover_to(state, save) == "2"
    assert set(state.legal_actions()) <= set(hands_of(state)["2"])  # Bob's own cards


@pytest.mark.parametrize("game,values", TWO_PEOPLE)
def test_the_log_never_shows_one_person_another_persons_cards(game: str,
                                                              values: dict[str, str]) -> None:
    setup = setup_of(game, values)
    state = new_game(game, setup["options"], 11)
    log = handover.log_events(state, setup)
    while not all(hands_of(state).values()):  # Dracula: the ways are chosen, then dealt
        state = state.apply(state.legal_actions()[0])
        log += handover.log_events(state, setup)
    assert any("for" in event for event in log)  # each person's deal is their own
    hands = hands_of(state)
    for who in handover.people(setup):
        seen = {str(handover.seat(state, who))}
        if game == "jekyll-hyde" and values["players"] == "3":
            seen.add("2")  # the ghost's hand lies open
        hidden = {card for seat, cards in hands.items() if seat not in seen for card in cards}
        hidden -= {card for seat in seen for card in hands[seat]}
        text = json.dumps(handover.seen_by(log, who))
        assert hidden and not any(f'"{card}"' in text for card in hidden)
        assert any(f'"{card}"' in text for seat in seen for card in hands[seat])
    # One person: the log is their view, unmarked (as before pass-and-play).
    alone = {"me": setup["me"], "bots": {}}
    assert handover.log_events(state, alone) == state.events(handover.seat(state,
                                                                           str(setup["me"])))


def test_undo_stays_within_one_persons_turns() -> None:
    """Ann's decision, then Bob's: Ann may take back nothing (Bob saw the
    table after it), Bob only his own."""
    setup = setup_of(*TWO_PEOPLE[3])  # Dracula, the other player (Bob) first
    folks = list(handover.people(setup))
    state = new_game("dracula", setup["options"], 3)
    transcript: dict[str, Any] = {"game": "dracula", "options": state.to_json()["options"],
                                  "seed": 3, "actions": []}
    deciders = []
    for _ in range(3):
        deciders.append(str(state.to_act))
        action = state.legal_actions()[0]
        state = state.apply(action)
        transcript["actions"].append(action)
    assert deciders == ["1", "0", "1"]
    assert undoable(transcript, "1") == [0, 2]  # alone, the player would take back both
    assert undoable(transcript, "1", folks) == [2]
    assert undoable(transcript, "0", folks) == []
    with pytest.raises(CannotRewind):
        take_back(transcript, "0", state, folks)
    rewind = take_back(transcript, "1", state, folks,
                       lambda past: handover.log_events(past, setup))
    assert rewind.actions == transcript["actions"][:2] and rewind.undoable == []
    assert any(event.get("for") == "0" for event in rewind.log)


def test_a_save_names_its_people_soundly() -> None:
    state = new_game("dracula", {"first_dealer": 0}, 1)
    save = {"game": "dracula", "setup": {"me": 0, "bots": {}, "people": {"0": "Ann", "1": "Bob"}},
            "transcript": {"game": "dracula", "options": state.to_json()["options"], "seed": 1,
                           "actions": []},
            "state": state.to_json(), "log": [], "seen_hands": 0, "at_screen": "1"}
    data, _ = saves.load(saves.dump(save))
    assert handover.at_screen(data) == "1"
    for bad in ({"setup": {**save["setup"], "people": ["Ann"]}},
                {"setup": {**save["setup"], "people": {"0": 7}}},
                {"at_screen": 1}):
        with pytest.raises(saves.BrokenSave):
            saves.load(saves.dump({**save, **bad}))
    # A person who is not in the game is never at the screen: the first one is.
    assert handover.at_screen({**save, "at_screen": "9"}) == "0"


BOT_WORD = re.compile(r"\b(?:ro)?bots?\b", re.IGNORECASE)  # "bot", "Bots", "robot"


@pytest.mark.parametrize("lang", ["en", "fr", "it", "de"])
@pytest.mark.parametrize("game,values", TWO_PEOPLE[2:])
def test_the_other_person_is_named_never_called_the_bot(game: str, values: dict[str, str],
                                                        lang: str) -> None:
    """The duel and Dracula between two people: every screen and log line of
    a whole game, from each person's side, names the other person; none
    says "the bot" (the same game against a bot does)."""
    setup = setup_of(game, values)
    table = renderer(game)
    state = new_game(game, setup["options"], 2)
    rng = random.Random(2)
    states, log = [state], handover.log_events(state, setup)
    while not state.over:
        state = state.apply(rng.choice(state.legal_actions()))
        states.append(state)
        log += handover.log_events(state, setup)
    t = Translator(lang)
    names = {who: name or f"P{i}" for i, (who, name) in enumerate(handover.people(setup).items())}
    for people, should_name in (({}, False), (names, True)):
        for who in names:
            seen: list[str] = []
            for s in (states[len(states) // 2], states[-1]):
                seat = handover.seat(s, who)
                ctx = TableContext(t=t, seat=seat, log=handover.seen_by(log, who),
                                   people={str(handover.seat(s, w)): n for w, n in people.items()})
                obs = s.observation(seat)
                seen += [str(table.render(obs, ctx)), str(table.score_sheet(obs, ctx)),
                         str(table.final_summary(obs, ctx)), str(table.last_trick(obs, ctx))]
                seen += [table.event_text(event, ctx) for event in ctx.log]
            text = re.sub(r"<[^>]*>", " ", " ".join(seen))  # the words, not class names
            other = next(name for w, name in names.items() if w != who)
            if should_name:
                assert not BOT_WORD.search(text), BOT_WORD.search(text)
                assert other in text
            else:
                assert BOT_WORD.search(text)
