"""The game on the table as a value (game.web.model.session): sequences of page
actions run through the page's own reducer in CPython — whole games,
hand-overs, a lesson, hints and bots whose results come too late."""

from __future__ import annotations

import random
from typing import Any

import pytest

from game import new_game
from game.bots import levels
from game.web.model import handover
from game.web.model.coach import Coach, load
from game.web.draw.i18n import Translator
from game.web.model.session import (AckHand, Act, BotMoved, ClearChoice, CloseFinal,
                              CoachNext, Flash, GameOver, Halt, HintAsked, HintReady,
                              NotYourTurn, Persist, Pick, Refused, Session, TakeOver, Think,
                              ThinkHint, Undo, reduce)
from game.web.draw.tables import renderer
from game.web.draw.views import hint_words, message_text

T = Translator("en")


def _session(game: str, values: dict[str, str], seed: int, coach: Coach | None = None,
             **setup: Any) -> Session:
    table = renderer(game)
    parsed = table.parse_setup(values, list(levels(game)))
    state = new_game(game, parsed["options"], seed)
    kept = {"me": parsed["me"], "bots": parsed["bots"], **setup}
    if parsed.get("people"):
        kept["people"] = parsed["people"]
    return Session.start(table, state, {
        "game": game, "setup": kept, "seen_hands": 0,
        "transcript": {"game": game, "options": state.to_json()["options"], "seed": seed,
                       "actions": []},
        "log": handover.log_events(state, kept)}, coach=coach)


def _step(session: Session, rng: random.Random) -> tuple[Session, tuple[Any, ...]]:
    """The next move of whoever decides, as the page would make it."""
    if session.waiting_for_ack:
        return reduce(session, AckHand())
    if session.handover_due is not None:
        return reduce(session, TakeOver())
    action = rng.choice(session.state.legal_actions())
    if session.human_to_act:
        return reduce(session, Act(action))
    return reduce(session, BotMoved(session.token, action))


@pytest.mark.parametrize("game,values", [
    ("jekyll-hyde", {"players": "4", "seating": "A", "me": "0", "target": "100"}),
    ("jekyll-hyde", {"players": "3", "me": "1", "target": "100"}),
    ("jekyll-vs-hyde", {"variant": "return-match", "jvh_role": "H"}),
    ("dracula", {"first": "bot"}),
])
def test_a_whole_game_through_the_reducer_keeps_a_save_that_replays(game, values):
    from game.web.model.replay import replay_states

    rng = random.Random(game)
    session = _session(game, values, seed=9)
    ended = 0
    for _ in range(3000):
        if session.state.over:
            break
        before, log = session.save["transcript"]["actions"], session.save["log"]
        played, logged = len(before), len(log)
        session, effects = _step(session, rng)
        if len(session.save["transcript"]["actions"]) > played:
            assert Persist() in effects and Think() in effects
            ended += GameOver() in effects
        assert (len(before), len(log)) == (played, logged)  # the save before: never changed
    assert session.state.over and ended == 1
    assert replay_states(session.save["transcript"])[-1].to_json() == session.state.to_json()
    session, effects = reduce(session, CloseFinal())
    assert session.save["closed_final"] and Persist() in effects


def test_a_move_out_of_turn_or_illegal_is_refused_with_a_message():
    session = _session("dracula", {"first": "bot"}, seed=3)
    assert not session.human_to_act
    after, effects = reduce(session, Act(session.state.legal_actions()[0]))
    assert after.message == NotYourTurn() and after.state is session.state
    assert effects == (Flash(),) and "turn" in message_text(after, T)
    session, _ = reduce(session, BotMoved(session.token, session.state.legal_actions()[0]))
    assert session.human_to_act
    after, effects = reduce(session, Act("nonsense"))
    assert isinstance(after.message, Refused) and after.state is session.state
    assert effects == (Flash(),) and message_text(after, T)


def test_a_bots_move_or_a_hint_that_comes_too_late_changes_nothing():
    session = _session("dracula", {"first": "bot"}, seed=3)
    stale = session.token
    session, _ = reduce(session, Halt())  # the page left the table meanwhile
    assert reduce(session, BotMoved(stale, session.state.legal_actions()[0])) == (session, ())
    session, _ = reduce(session, BotMoved(session.token, session.state.legal_actions()[0]))
    # The person asks for a hint, then acts before it comes: it is dropped.
    asked, effects = reduce(session, HintAsked())
    assert ThinkHint() in effects and asked.fresh_hint is not None
    assert asked.fresh_hint.action is None  # thinking
    assert reduce(asked, HintAsked()) == (asked, ())  # asked once
    position = asked.state
    moved, _ = reduce(asked, Act(asked.state.legal_actions()[0]))
    assert moved.fresh_hint is None
    assert reduce(moved, HintReady(position, "anything")) == (moved, ())
    # In time, it is shown in words.
    ready, _ = reduce(asked, HintReady(position, position.legal_actions()[-1]))
    assert ready.fresh_hint is not None and ready.fresh_hint.action is not None
    assert hint_words(ready.table, ready.fresh_hint.action, ready.observation, ready.context(T))


def test_an_undo_points_nowhere_past_the_hint_of_the_same_count():
    """After an Undo the same number of actions is another position: a hint
    asked before it never shows after it."""
    rng = random.Random(4)
    session = _session("dracula", {"first": "me"}, seed=3)
    while not session.human_to_act or not session.undo_points:
        session, _ = _step(session, rng)
    asked, _ = reduce(session, HintAsked())
    position = asked.state
    undone, effects = reduce(asked, Undo())
    assert undone.save["practice"] and message_text(undone, T) == T("undo.done")
    assert undone.fresh_hint is None
    assert reduce(undone, HintReady(position, position.legal_actions()[0])) == (undone, ())


def test_picking_parts_then_escape_and_the_duels_exchange_confirmed():
    session = _session("jekyll-vs-hyde", {"variant": "standard", "jvh_role": "J"}, seed=5)
    rng = random.Random(1)
    while not session.human_to_act:
        session, _ = _step(session, rng)
    first = sorted(session.choice.offers(()))[0]
    picked, effects = reduce(session, Pick(first))
    assert picked.picked == (first,) or len(picked.save["transcript"]["actions"]) > \
        len(session.save["transcript"]["actions"])
    if picked.picked:
        cleared, _ = reduce(picked, ClearChoice())
        assert cleared.picked == ()


def test_pass_and_play_hands_the_device_over_and_nothing_crosses_it():
    session = _session("dracula", {"first": "me", "dr_bot": "person", "dr_name": "Ann",
                                   "dr_name_other": "Bob"}, seed=6)
    rng = random.Random(2)
    seen = {session.at_screen}
    for _ in range(12):
        due = session.handover_due
        if due is not None:
            session, effects = reduce(session, TakeOver())
            assert session.at_screen == due and session.undo_points == () and Persist() in effects
            seen.add(due)
            continue
        # Whoever is on turn is the person at the screen: the reducer never lets a
        # decision be made from the other person's view.
        assert session.human_to_act
        session, _ = _step(session, rng)
    assert seen == {"0", "1"}


def test_a_lesson_objects_to_another_choice_and_waits_on_its_notes():
    lesson = load("jekyll-hyde")
    state = lesson.start()
    setup = {"me": lesson.me, "bots": {str(state.identity(p)): "expert" for p in state.players
                                       if str(state.identity(p)) != str(lesson.me)}}
    session = Session.start(renderer("jekyll-hyde"), state, {
        "game": "jekyll-hyde", "setup": setup, "seen_hands": 0,
        "transcript": {"game": "jekyll-hyde", "options": state.to_json()["options"],
                       "seed": lesson.seed, "actions": []},
        "log": handover.log_events(state, setup)}, coach=Coach(lesson, set()))
    assert not session.takebacks_allowed and session.coach_waiting and not session.bots_on_turn
    while session.coach_waiting:
        session, effects = reduce(session, CoachNext())
    for _ in range(200):
        if session.human_to_act and not session.coach_waiting:
            break
        session, _ = reduce(session, BotMoved(session.token, lesson.expected(session.played)))
        while session.coach_waiting:
            session, _ = reduce(session, CoachNext())
    expected = lesson.expected(session.played)
    other = next(a for a in session.state.legal_actions() if a != expected)
    objected, _ = reduce(session, Act(other))
    assert objected.state is session.state and objected.coach is not None
    assert objected.coach.objection and session.coach is not None
    assert session.coach.objection == ""  # the session before is untouched
    taken, _ = reduce(objected, Act(expected))
    assert taken.played == session.played + 1 and taken.coach is not None
    assert taken.coach.objection == ""
