"""The lessons of "Learn by playing" (game/web/model/coach.py) under CPython: every
game has one; each replays legally with the engine to the end of its first
hand; every step sits where it belongs (a "do" at a decision of the person, a
note before the hand's end, the scoring note at it) and every text of it is in
all four catalogs; the coach accepts the lesson's action and objects to another;
through the real controller and front, each lesson is done by clicking what the
coach highlights (tests/browser/test_coach.py keeps one game's lesson in the
browser, the bubble's place and the rules page's link)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from game import GAMES
from game.web.model.coach import BadLesson, Coach, Lesson, load
from game.web.draw.i18n import LANGUAGES, Translator, catalog
from tests.strength import quick_first

ROOT = Path(__file__).resolve().parents[1]


def test_every_game_has_a_lesson_file():
    assert {p.stem for p in (ROOT / "static" / "lessons").glob("*.json")} == set(GAMES)


def _keys(lesson: Lesson) -> set[str]:
    keys = {"coach.start", "coach.title", "coach.next", "coach.do",
            "coach.why", "coach.real_game", "coach.again"}
    for step in lesson.steps:
        keys.add(step.key)
        if step.why:
            keys.add(step.why)
    return keys


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_lesson_replays_one_whole_hand_with_the_engine(game):
    lesson = load(game)
    assert lesson.game == game
    state = lesson.start()
    mine = []  # the numbers of actions played when the person decides
    for n, action in enumerate(lesson.actions):
        assert action in state.legal_actions(), (n, action, state.legal_actions())
        assert not state.to_json()["history"], f"the hand ended before action {n}"
        if str(state.identity(state.to_act)) == str(lesson.me):
            mine.append(n)
        state = state.apply(action)
    assert len(state.to_json()["history"]) == 1, "the lesson ends with its first hand scored"
    assert len(mine) >= 5, "the person makes the lesson's decisions"
    for step in lesson.steps:
        if step.kind == "do":
            assert step.at in mine, f"{step.key}: not a decision of the person"
        else:
            assert step.why is None
    assert lesson.ending() is not None, "the scoring is explained"
    assert lesson.note(0, set()) is not None, "the lesson opens with a note"


@pytest.mark.parametrize("game", sorted(GAMES))
@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_text_of_the_lesson_is_in_every_catalog(game, lang):
    words = catalog(lang)
    for key in _keys(load(game)):
        assert words.get(key, "").strip(), f"{key} is missing in {lang}"


def test_the_coach_accepts_the_lessons_action_and_explains_another():
    lesson = load("jekyll-hyde")
    t = Translator("fr")
    coach = Coach(lesson, set())
    assert coach.waiting(0)  # the welcome holds the hand
    coach.next_note(0)
    assert not coach.waiting(0)
    first = lesson.task(0)
    assert first is not None and first.why
    assert coach.text(0, True, t) == t(first.key)
    other = next(a for a in lesson.start().legal_actions() if a != lesson.expected(0))
    assert coach.check(0, other) == first.why == coach.objection
    assert coach.check(0, lesson.expected(0)) is None and coach.objection == ""
    # Another choice where the lesson says no particular why: the generic words.
    bare = next(s.at for s in lesson.steps if s.kind == "do" and not s.why)
    assert coach.check(bare, "nonsense") == "coach.why"


@pytest.mark.parametrize("game", sorted(GAMES))
@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_decision_of_the_lesson_has_its_own_explanation(game, lang):
    """No decision of the person falls back on words shared with another:
    each has its own "do" step, with its own text, in every language."""
    lesson = load(game)
    t = Translator(lang)
    state = lesson.start()
    coach = Coach(lesson, set(range(len(lesson.steps))))  # every note read
    texts: dict[str, int] = {}
    for n, action in enumerate(lesson.actions):
        if str(state.identity(state.to_act)) == str(lesson.me):
            task = lesson.task(n)
            assert task is not None, f"{game}: decision {n} ({action}) is not explained"
            text = coach.text(n, True, t)
            assert text == t(task.key) and text != task.key, (game, n, lang)
            assert text not in texts, f"decision {n} repeats decision {texts.get(text)}'s words"
            texts[text] = n
        state = state.apply(action)
    assert len(texts) >= 5


@pytest.mark.parametrize("bad", [[], {"game": "dracula"},
                                 {"game": "dracula", "me": 0, "actions": [1], "steps": []},
                                 {"game": "dracula", "me": 0, "actions": [],
                                  "steps": [{"at": 3, "note": "x"}]}])
def test_a_malformed_lesson_is_refused(bad):
    with pytest.raises(BadLesson):
        Lesson.from_json(json.loads(json.dumps(bad)))


@pytest.mark.parametrize("game", quick_first(["jekyll-vs-hyde", "dracula", "jekyll-hyde"], keep=2))
def test_the_lesson_is_completed_by_clicking_what_the_coach_highlights(game):
    """The page (the real controller and front on a fake document): each
    lesson is done by Continue on each note and a click on each part the
    front highlights (then the duel's confirm); a legal choice the coach did
    not ask for gets its reason and changes nothing; the lesson ends on its
    last note, never saved, and Done leaves it for the start screen."""
    from game.web.model import saves
    from tests.front_kit import dealt
    from tests.page_kit import items

    ctrl, screen, thinking = dealt(game, seed=5, **({"jvh_role": "J"} if game == "jekyll-vs-hyde"
                                                    else {}))
    doc = screen.doc
    real = items(ctrl).get(saves.key(game))
    doc.dispatch("click", doc.querySelector('[data-cmd="new"]'))
    doc.dispatch("click", doc.querySelector("#lesson"))
    s = ctrl.session
    lesson = s.coach.lesson
    assert doc.body.getAttribute("data-lesson") == game
    notes = objections = decisions = 0
    for _ in range(400):
        s = ctrl.session
        if s.state.over or s.waiting_for_ack:
            break
        note = doc.querySelector("#coach-next")
        if note is not None:
            assert doc.activeElement is note or doc.activeElement.closest("#coach") is not None
            notes += 1
            doc.dispatch("click", note)
            continue
        if not s.human_to_act:
            assert thinking.run(limit=1)
            continue
        played = s.played
        if not objections:
            others = [next((el for el in doc.querySelectorAll(f"#screen {where}")
                            if "hinted" not in el.getAttribute("class")), None)
                      for where in ((".dr-hand [data-part]", ".coffin .cell.open")
                                    if game == "dracula" else (".playable[data-act]",))]
            if all(el is not None for el in others):
                for el in others:  # (Dracula: a card, then a cell)
                    doc.dispatch("click", doc.querySelector(
                        f'#screen [data-part="{el.getAttribute("data-part")}"]')
                        if el.getAttribute("data-part") else el)
                why = doc.querySelector("#coach-why")
                assert why is not None and ctrl.session.played == played
                assert why.textContent.strip() == ctrl.t(ctrl.session.coach.objection)
                objections += 1
        clicked: set[str] = set()
        while ctrl.session.played == played:
            fresh = [el for el in doc.querySelectorAll("#screen .hinted")
                     if (el.getAttribute("data-act") or el.getAttribute("data-part")) not in clicked]
            if not fresh:
                break
            clicked.add(fresh[0].getAttribute("data-act") or fresh[0].getAttribute("data-part"))
            doc.dispatch("click", fresh[0])
        confirm = doc.querySelector("#jvh-confirm")
        if ctrl.session.played == played and confirm is not None:
            doc.dispatch("click", confirm)
        assert clicked and ctrl.session.played == played + 1, (played, clicked)
        decisions += 1
    else:
        pytest.fail("the lesson did not end")
    assert ctrl.session.played == len(lesson.actions)
    assert notes == sum(1 for st in lesson.steps if st.kind == "note") - 1
    assert decisions >= 5 and objections == 1
    assert items(ctrl).get(saves.key(game)) == real, "a lesson is never saved"
    ctrl.command("lesson-done", {})
    assert ctrl.page.view == "start" and ctrl.session.coach is None
