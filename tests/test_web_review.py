"""The Review's pure part under CPython (game.web.model.review, game.web.model.replay):
each step is the engine's replay of that many actions, the steps stay in the
chosen hand, captions are that step's events, and only hands the transcript
has finished are ever shown open."""

from __future__ import annotations

import copy
import random
import re

import pytest

from game import new_game
from game.core.state import State
from game.core.transcript import Transcript
from game.web.draw.i18n import LANGUAGES, Translator
from game.web.model.replay import Steps, replay_states
from game.web.model.review import Review, hand_ranges
from game.web.draw.tables import renderer
from game.web.draw.tables.dracula import card_name as dracula_card
from game.web.draw.tables.jekyll_hyde import card_name as werner_card
from game.web.model.undo import hands_scored, seat_of
from tests.page_kit import random_transcript

GAMES = [("jekyll-hyde", {"players": 4, "target": 150}, 0),
         ("jekyll-hyde", {"players": 3, "target": 150, "names": ["Ann", "Bob", "Cy"]}, "Bob"),
         ("jekyll-vs-hyde", {}, "H"),
         ("dracula", {}, 1)]
IDS = ["werner-4", "werner-3", "duel", "dracula"]


def _engine(transcript: dict, n: int) -> State:
    """The engine's own replay of the first `n` actions."""
    state = new_game(transcript["game"], transcript["options"], transcript["seed"])
    for action in transcript["actions"][:n]:
        state = state.apply(action)
    return state


def _review(transcript: dict, me=None, lang: str = "en", **kw) -> Review:
    parsed = Transcript.from_json(transcript)
    return Review(parsed, parsed.states(), renderer(parsed.game), Translator(lang), me, **kw)


@pytest.mark.parametrize("game,options,me", GAMES, ids=IDS)
def test_every_step_is_the_engine_replay_of_that_many_actions(game, options, me):
    transcript = random_transcript(game, 11, options=options)
    review = _review(transcript, me)
    assert len(review.hands) == hands_scored(review.states[-1]) >= 2
    seen = set()
    for hand in range(len(review.hands)):
        review.choose(hand)
        first, last = review.first, review.last
        assert review.step == first and hands_scored(review.states[first]) == hand
        while True:
            seen.add(review.step)
            assert (review.states[review.step].to_json()
                    == _engine(transcript, review.step).to_json())
            if review.step == last:
                break
            review.move("next")
        review.move("next")  # never past the hand's end
        assert review.step == last
        review.move("first")
        assert review.step == first
        review.move("prev")
        assert review.step == first
        review.move("last")
        assert review.step == last
        assert hands_scored(review.states[last]) == hand + 1  # the step that scores it
    assert seen == set(range(len(transcript["actions"]) + 1))  # every step, once a hand


def test_undo_and_review_replay_the_same_way():
    transcript = random_transcript("dracula", 4, options={})
    states = replay_states(transcript)
    assert [s.to_json() for s in states] == [
        _engine(transcript, n).to_json() for n in range(len(transcript["actions"]) + 1)]


@pytest.mark.parametrize("game,options,me", GAMES, ids=IDS)
def test_each_caption_tells_that_step_s_events(game, options, me):
    transcript = random_transcript(game, 5, options=options)
    review = _review(transcript, me)
    table = review.table
    for hand in range(len(review.hands)):
        review.choose(hand)
        for step in range(review.first + 1, review.last + 1):
            review.step = step
            lines = review.caption_lines()
            assert lines, f"step {step} has no caption"
            action = transcript["actions"][step - 1]
            # The action's own move is in the caption, in the table's words.
            if game == "jekyll-hyde" and not action.startswith("@"):
                assert werner_card(action, review.t) in lines[0]
            if game == "dracula" and "@" in action:
                assert dracula_card(action.split("@")[0], review.t) in lines[0]
            # ...and the events are the person's own view of that action.
            seat = seat_of(review.states[step], me)
            own = [table.event_text(e, review.context(step)) for e in
                   review.states[step].events(seat)]
            assert all(line in own for line in lines)
        # A hand's first step tells its deal, not the end of the one before.
        review.step = review.first
        first = review.caption_lines()
        if hand > 0:
            previous = review.states[review.first].events(seat_of(review.states[0], me))
            said = [e for e in previous if table.event_text(e, review.context(review.first))]
            assert 0 < len(first) < len(said)
        if hand < len(review.hands) - 1:  # the end of a hand does not tell the next deal
            review.move("last")
            end = review.caption_lines()
            review.choose(hand + 1)
            deal = review.caption_lines()
            assert deal and end and not set(deal) & set(end)
            review.choose(hand)


@pytest.mark.parametrize("game,options,me", GAMES, ids=IDS)
def test_a_finished_hand_is_open_and_the_hand_under_way_never(game, options, me):
    # The live game at the end of its first hand: the next deal lies under the summary.
    transcript = random_transcript(game, 3, options=options, stop=lambda s: hands_scored(s) == 1)
    review = _review(transcript, me, first_step=0)
    assert len(review.hands) == 1
    first, last, _ = review.hands[0]
    for step in range(first, last):
        review.step = step
        ctx = review.context(step)
        state = review.states[step]
        assert ctx.open_hands == {str(p): c for p, c in state.to_json()["hands"].items()}
        page = str(review.table_html())
        me_seat = seat_of(state, me)
        for player, cards in ctx.open_hands.items():
            if player != str(me_seat) and cards:
                assert all(f'data-card="{c}"' in page for c in cards)
        assert "playable" not in page  # nothing to decide in a review
    # The last step is the next deal, still being played: only the person's view.
    review.step = last
    assert not review.is_open(last) and review.context(last).open_hands is None
    page = str(review.table_html())
    assert "open-hand" not in page and "jvh-open" not in page and "dr-open" not in page
    # A game cut in the middle of a hand: that hand is never open.
    cut = dict(transcript, actions=transcript["actions"] + _more(transcript, 3))
    review = _review(cut, me)
    review.choose(len(review.hands) - 1)
    assert review.hand_number() == 1
    for step in range(review.first, review.last + 1):
        assert not review.is_open(step) and review.context(step).open_hands is None


def _more(transcript: dict, n: int) -> list[str]:
    state, rng, actions = _engine(transcript, len(transcript["actions"])), random.Random(1), []
    for _ in range(n):
        actions.append(rng.choice(state.legal_actions()))
        state = state.apply(actions[-1])
    return actions


def test_the_range_and_the_opening_step():
    transcript = random_transcript("jekyll-vs-hyde", 2, options={})
    states = replay_states(transcript)
    ranges = hand_ranges(states)
    assert ranges[0][0] == 0 and ranges[-1][1] == len(states) - 1
    assert all(a[1] == b[0] for a, b in zip(ranges, ranges[1:]))
    # One hand of the range only.
    a, b = ranges[1]
    review = _review(transcript, "J", first_step=a, last_step=b)
    assert [(x, y) for x, y, _ in review.hands] == [(a, b)] and review.step == a
    assert review.hand_number() == 1
    # The whole game, opened in its last hand.
    review = _review(transcript, "J", step=ranges[-1][0] + 2)
    assert review.hand == len(ranges) - 1 and review.step == ranges[-1][0] + 2
    assert 'id="rv-hand"' in str(review.head_html())
    # Nothing to show, and a transcript left untouched by all of it.
    empty = {"game": "dracula", "seed": 1, "actions": []}
    assert _review(empty).hands == []
    before = copy.deepcopy(transcript)
    review = _review(transcript, "J")
    for _ in range(30):
        review.move("next")
        review.table_html()
    assert transcript == before


def test_controls_say_where_the_step_is_in_every_language():
    transcript = random_transcript("dracula", 8, options={})
    for lang in LANGUAGES:
        review = _review(transcript, 0, lang)
        start = str(review.controls_html(False))
        assert re.search(r'id="ex-first" disabled', start) and re.search(r'id="ex-prev" disabled', start)
        assert 'id="ex-next" aria' in start and 'id="ex-last" aria' in start
        review.move("last")
        end = str(review.controls_html(True))
        assert re.search(r'id="ex-next" disabled', end) and re.search(r'id="ex-last" disabled', end)
        assert 'aria-pressed="true"' in end
        assert review.t("review.close") in str(review.head_html())


def test_the_embed_player_is_the_same_steps():
    assert issubclass(Review, Steps)
