"""The page's sequences in CPython: the real controller, reducers and views
(game.web.runtime.controller, page, session, views), a store in memory and a screen
that records what it was asked to do. The browser tests keep what only a
browser shows (focus, motion, the live region, layout)."""

from __future__ import annotations

import json
import re

import pytest

from game import GAMES
from game.web.model import saves
from game.web.model import session as ts
from game.web.model.files import transcript_text
from game.web.draw.html import html
from game.web.model.links import Link
from game.web.model.page import FileChosen, StorageChanged
from game.web.model.page import BackToTable, OpenSetup, SetLanguage, SetupChanged
from game.web.draw.start_screen import SPEEDS
from game.web.draw.tables.common import PERSON
from game.web.draw.views import news
from tests.page_kit import TickingClock, deal, items, make_page, my_turn, to_a_hands_summary


def test_a_new_game_is_dealt_saved_drawn_and_its_bots_think():
    ctrl, screen, thinking = make_page()
    deal(ctrl, "dracula", 7, first="bot")
    saved = json.loads(items(ctrl)[saves.key("dracula")])
    assert saved["transcript"]["seed"] == 7 and saved["transcript"]["actions"] == []
    assert screen.last.body["view"] == "table" and screen.last.body["toAct"] == "bot"
    assert thinking.waiting, "the bot on turn thinks"
    s = my_turn(ctrl, thinking)
    assert s.played >= 1 and screen.last.body["toAct"] == "me"
    assert json.loads(items(ctrl)[saves.key("dracula")])["transcript"]["actions"] \
        == s.save["transcript"]["actions"]
    assert 'data-cmd="hint"' in screen.last.regions["tools"]


def test_a_bot_of_one_game_never_plays_another_at_the_same_seat_and_level():
    # Werner's easy bot at seat 1 read Dracula's observation for a teams key
    # it lacks: "bot error: KeyError: 'teams'", and Dracula's bot never moved.
    ctrl, screen, thinking = make_page()
    deal(ctrl, "jekyll-hyde", 5, players="4", seating="A", me="3",
          bot0="easy", bot1="easy", bot2="easy")
    assert my_turn(ctrl, thinking).played >= 3  # seats 0, 1 and 2 played
    deal(ctrl, "dracula", 7, first="bot", dr_bot="easy")
    assert ctrl.session.save["setup"]["bots"] == {"1": "easy"}
    s = my_turn(ctrl, thinking)
    assert s.state.game_id == "dracula" and s.played >= 1
    assert screen.errors == []


def test_a_click_out_of_turn_or_illegal_changes_nothing_and_says_why():
    ctrl, screen, thinking = make_page()
    deal(ctrl, "dracula", 7, first="bot")
    before = ctrl.session
    ctrl.on_table(ts.Act("no-such-action"))
    assert ctrl.session.state is before.state and screen.flashed, "a word, not a move"
    s = my_turn(ctrl, thinking)
    ctrl.on_table(ts.Act("no-such-action"))
    assert ctrl.session.state is s.state and ctrl.session.message


def test_a_hint_that_arrives_after_the_person_acted_is_dropped():
    ctrl, screen, thinking = make_page()
    deal(ctrl, "jekyll-vs-hyde", 21, jvh_role="J")
    s = my_turn(ctrl, thinking)
    thinking.drop()
    ctrl.command("hint", {})
    assert ctrl.session.hint is not None and len(thinking.waiting) == 1
    hint = thinking.waiting.pop()
    ctrl.on_table(ts.Act(s.state.legal_actions()[0]))  # the person acts meanwhile
    asked = ctrl.session
    thinking.waiting.insert(0, hint)
    thinking.run(limit=1)
    assert ctrl.session.hint is None and ctrl.session.state is asked.state
    # A hint asked and awaited is shown, with its action marked on the table.
    s = my_turn(ctrl, thinking)
    thinking.drop()
    ctrl.command("hint", {})
    thinking.run(limit=1)
    hint = ctrl.session.fresh_hint
    assert hint is not None and hint.action in s.state.legal_actions()
    assert screen.last.hinted[0] == hint.action


def test_the_expert_bot_and_the_hint_think_on_the_pages_clock():
    """Their second of search ends on the controller's clock, not on the
    machine's: a test's ticking clock ends each after its readings."""
    clock = TickingClock()
    ctrl, _, thinking = make_page(clock=clock)
    deal(ctrl, "jekyll-vs-hyde", 21, jvh_role="H", jvh_bot="expert")
    s = my_turn(ctrl, thinking)
    assert s.played >= 1 and clock.time >= 1, "the bot's move took its second on the clock"
    thinking.drop()
    before = clock.time
    ctrl.command("hint", {})
    thinking.run(limit=1)
    assert ctrl.session.fresh_hint.action in s.state.legal_actions()
    assert clock.time - before >= 1, "the hint's second, on the page's clock"


def test_a_bots_pause_is_on_the_pages_clock():
    clock = TickingClock()
    ctrl, _, thinking = make_page(speed="slow", clock=clock)
    deal(ctrl, "dracula", 7, first="bot", dr_bot="random")
    s = my_turn(ctrl, thinking)
    assert s.played >= 1 and clock.time >= s.played * SPEEDS["slow"], "paused on the page's clock"


def test_a_bot_move_with_an_old_token_is_dropped():
    ctrl, _, thinking = make_page()
    deal(ctrl, "dracula", 7, first="bot")
    stale = ctrl.session.token
    thinking.drop()
    ctrl.dispatch(OpenSetup())  # the start screen: the bot's thinking is dropped
    ctrl.dispatch(BackToTable())
    legal = ctrl.session.state.legal_actions()[0]
    ctrl.on_table(ts.BotMoved(stale, legal))
    assert ctrl.session.played == 0
    assert thinking.waiting, "back at the table, the bot thinks again"


def test_undo_takes_back_the_persons_decision_and_marks_practice():
    ctrl, screen, thinking = make_page()
    deal(ctrl, "dracula", 3, first="me")
    s = my_turn(ctrl, thinking)
    before = s.state.to_json()
    ctrl.on_table(ts.Act(s.state.legal_actions()[0]))
    thinking.drop()
    assert 'id="undo"' in screen.last.regions["tools"]
    ctrl.command("undo", {})
    assert ctrl.session.state.to_json() == before and ctrl.session.save["practice"] is True
    assert json.loads(items(ctrl)[saves.key("dracula")])["practice"] is True


def test_pass_and_play_hands_the_device_over_and_shows_no_card_meanwhile():
    ctrl, screen, thinking = make_page()
    deal(ctrl, "dracula", 5, first="me", dr_bot=PERSON, dr_name="Ann")
    s = ctrl.session
    assert s.human_to_act
    ctrl.on_table(ts.Act(s.state.legal_actions()[0]))
    assert ctrl.page.handover_due is not None
    drawn = screen.last
    assert drawn.body["view"] == "handover" and drawn.regions["side"] == ""
    assert "data-card" not in drawn.regions["screen"] and drawn.dialog is None
    ctrl.command("handover-ready", {})
    assert ctrl.page.handover_due is None and screen.last.body["view"] == "table"
    assert ctrl.session.human_to_act


def test_a_lesson_leaves_the_real_game_untouched_and_ends_on_its_start_screen():
    ctrl, screen, thinking = make_page()
    deal(ctrl, "dracula", 9, first="me")
    real = items(ctrl)[saves.key("dracula")]
    ctrl.command("lesson", {})
    assert ctrl.session.coach is not None and screen.last.body["lesson"] == "dracula"
    assert "#coach-next, #coach" in screen.focused
    for _ in range(400):  # through the lesson, as the coach wants it
        s = ctrl.session
        if s.state.over or s.waiting_for_ack:
            break
        if s.coach_waiting:
            ctrl.command("coach-next", {})
        elif s.human_to_act:
            ctrl.on_table(ts.Act(s.coach.lesson.expected(s.played)))
        else:
            thinking.run(limit=1)
    assert screen.last.dialog is not None and 'data-cmd="lesson-done"' in screen.last.dialog.buttons
    assert items(ctrl)[saves.key("dracula")] == real, "a lesson is never saved"
    ctrl.command("lesson-done", {})
    assert ctrl.page.view == "start" and ctrl.session.coach is None
    assert ctrl.session.save["transcript"]["seed"] == 9


def test_switching_games_keeps_each_in_its_own_save():
    ctrl, screen, thinking = make_page()
    deal(ctrl, "dracula", 9, first="me")
    deal(ctrl, "jekyll-vs-hyde", 4, jvh_role="J")
    assert {saves.key("dracula"), saves.key("jekyll-vs-hyde")} <= set(items(ctrl))
    ctrl.dispatch(OpenSetup())
    assert 'data-game="dracula"' in screen.last.regions["screen"]  # "Continue Dracula"
    ctrl.command("switch", {"game": "dracula"})
    assert ctrl.session.state.game_id == "dracula" and ctrl.page.view == "table"
    assert ctrl.session.save["transcript"]["seed"] == 9


def test_a_game_file_continues_at_the_chosen_step_after_asking_about_the_save():
    ctrl, screen, thinking = make_page()
    deal(ctrl, "dracula", 9, first="me")
    for _ in range(6):
        s = my_turn(ctrl, thinking)
        ctrl.on_table(ts.Act(s.state.legal_actions()[0]))
    text = transcript_text(ctrl.session.save).encode()
    played = ctrl.session.played
    ctrl.command("file-open", {})
    assert screen.chooser == ["game"]
    ctrl.perform(FileChosen("game", "mine.json", len(text), text))
    assert ctrl.page.overlay == "file" and screen.last.dialog.part == "file-panel"
    assert not thinking.waiting or ctrl.current(ctrl.session.token) is not None
    ctrl.command("file-continue", {"step": "abc"})
    assert 'aria-invalid="true"' in screen.last.dialog.body  # a step that is no number: said, kept
    ctrl.command("file-continue", {"step": "3"})
    assert 'data-cmd="file-replace"' in screen.last.dialog.body  # a save would go: asked first
    ctrl.command("file-replace", {})
    assert ctrl.page.overlay == "none" and ctrl.session.played == 3 < played
    assert json.loads(items(ctrl)[saves.key("dracula")])["transcript"]["actions"] \
        == ctrl.session.save["transcript"]["actions"]


def test_a_file_that_is_not_a_game_is_refused_with_a_message():
    ctrl, screen, _ = make_page()
    ctrl.perform(FileChosen("game", "cat.png", 4, b"\x89PNG"))
    assert ctrl.page.overlay == "file" and 'role="alertdialog"' in screen.last.dialog.body
    ctrl.command("file-close", {})
    assert ctrl.page.overlay == "none" and screen.last.dialog is None


def test_another_tab_taking_the_game_makes_this_one_read_only_until_play_here():
    ctrl, screen, thinking = make_page()
    deal(ctrl, "dracula", 5, first="me")
    s = my_turn(ctrl, thinking)
    ctrl.lost_to_another_tab("dracula")
    assert 'id="play-here"' in screen.last.regions["notices"]
    ctrl.on_table(ts.Act(s.state.legal_actions()[0]))
    assert ctrl.session.played == s.played and ctrl.message == ctrl.t("notice.elsewhere")
    stored = items(ctrl)[saves.key("dracula")]
    ctrl.command("play-here", {})
    assert 'id="play-here"' not in screen.last.regions["notices"]
    assert items(ctrl)[saves.key("dracula")] == stored
    ctrl.on_table(ts.Act(ctrl.session.state.legal_actions()[0]))
    assert ctrl.session.played == s.played + 1


def test_a_newer_save_written_by_another_tab_stops_this_one():
    ctrl, screen, thinking = make_page()
    deal(ctrl, "dracula", 5, first="me")
    record = json.loads(items(ctrl)[saves.key("dracula")])
    record["revision"] += 5
    ctrl.perform(StorageChanged(saves.key("dracula"), json.dumps(record)))
    assert ctrl.page.hold.elsewhere == "dracula" and ctrl.page.hold.owner is None


def test_a_damaged_save_is_kept_aside_and_reported_at_start():
    ctrl, screen, _ = make_page({saves.key("dracula"): '{"not": "a save"}',
                                 saves.CURRENT_KEY: "dracula"})
    ctrl.start(None)
    assert ctrl.session is None and ctrl.page.broken is not None
    assert saves.key("dracula") not in items(ctrl)
    assert any(k.startswith(saves.BROKEN_PREFIX) for k in items(ctrl))
    assert 'id="broken-save"' in screen.last.regions["notices"]


def test_a_full_storage_is_said_once_and_the_game_goes_on():
    ctrl, screen, thinking = make_page(quota=400)
    deal(ctrl, "jekyll-hyde", 5, players="4", seating="A", me="0", target="100")
    assert ctrl.page.store_problem == "full"
    assert 'id="unsaved"' in screen.last.regions["notices"]
    assert ctrl.session is not None and ctrl.page.view == "table"
    ctrl.command("dismiss-unsaved", {})
    assert 'id="unsaved"' not in screen.last.regions["notices"]


def test_a_deal_link_asks_before_replacing_the_game_in_progress():
    ctrl, screen, _ = make_page()
    deal(ctrl, "dracula", 9, first="me")
    stored = dict(items(ctrl))
    again, screen, thinking = make_page(stored, link=Link(game="dracula", deal=12))
    again.start(None)
    assert again.session.save["transcript"]["seed"] == 9
    assert screen.last.dialog is not None and 'id="deal-replace"' in screen.last.dialog.buttons
    assert not thinking.waiting or again.page.asked_deal is not None
    again.command("deal-replace", {})
    assert again.session.save["transcript"]["seed"] == 12 and screen.last.dialog is None


def test_an_unknown_link_parameter_is_reported_and_ignored():
    ctrl, screen, _ = make_page(link=Link(ignored=["colour"]))
    ctrl.start(None)
    assert "colour" in screen.last.regions["notices"] and ctrl.page.view == "start"


@pytest.mark.parametrize("lang", ["en", "de", "fr", "it"])
def test_the_start_screen_says_in_one_line_what_the_chosen_game_is_like(lang):
    """A newcomer choosing among the games reads, under the game picker, how
    many play it and what it is like, and finds the way to "How to play"."""
    ctrl, screen, _ = make_page(lang=lang)
    ctrl.start(None)
    said = {}
    for game in GAMES:
        ctrl.dispatch(SetupChanged({"game": game}))
        markup = screen.last.regions["screen"]
        about = re.search(r'<p class="game-about" id="game-about">(.*?)</p>', markup)
        assert about, (lang, game)
        assert markup.index('id="f-game"') < about.start() < markup.index('id="start"')
        assert 'href="#side"' in about.group(1)
        assert 'class="help"' in screen.last.regions["side"]  # where the link leads
        said[game] = re.sub(r"<a .*", "", about.group(1)).strip()
        assert len(said[game]) > 20, (lang, game, said[game])
    assert len(set(said.values())) == len(GAMES), said  # each game its own words


@pytest.mark.parametrize("game", GAMES)
def test_a_newcomer_meets_the_game_and_how_to_begin_before_the_tables_choices(game):
    """Issue 55, item 4: not eight dropdowns first. Under the game and its
    line come Deal and Learn by playing; the table's choices (each already
    set) follow under a heading of their own."""
    ctrl, screen, _ = make_page()
    ctrl.start(None)
    ctrl.dispatch(SetupChanged({"game": game}))
    markup = str(screen.last.regions["screen"])
    fields = [m.start() for m in re.finditer(r"<select name=\"(?!game\")", markup)]
    assert fields, game
    assert markup.index('id="game-about"') < markup.index('id="start"') < markup.index(
        'id="setup-choices"') < min(fields)
    assert markup.index('data-cmd="lesson"') < min(fields)


def test_a_bad_seed_is_said_on_the_start_screen():
    ctrl, screen, _ = make_page()
    deal(ctrl, "dracula", "twelve")
    assert ctrl.session is None and ctrl.page.setup_error
    assert "#f-seed" in screen.focused


def test_an_unexpected_error_keeps_the_save_aside_and_shows_the_start_screen(monkeypatch):
    ctrl, screen, thinking = make_page()
    deal(ctrl, "dracula", 9, first="me")

    def broken(*_):
        raise RuntimeError("boom")
    monkeypatch.setattr(ctrl.session.table, "score_sheet", broken)  # drawn by the tab
    ctrl.command("panel", {"panel": "scores"})
    assert ctrl.session is None and ctrl.page.view == "start"
    assert ctrl.page.broken is not None and "boom" in ctrl.page.broken.reason
    assert screen.errors and "RuntimeError" in screen.errors[0]


@pytest.mark.parametrize("lang", ["fr", "de"])
def test_the_language_changes_every_region_and_is_kept(lang):
    ctrl, screen, _ = make_page()
    deal(ctrl, "dracula", 9, first="me")
    english = screen.last.regions
    ctrl.dispatch(SetLanguage(lang))
    assert screen.last.body["lang"] == lang
    assert all(screen.last.regions[r] != english[r] for r in ("menu", "side", "table-info"))
    assert json.loads(items(ctrl)[saves.PREFS_KEY])["lang"] == lang


def test_the_statistics_page_opens_over_a_halted_table_and_goes_back_to_it():
    ctrl, screen, thinking = make_page()
    deal(ctrl, "dracula", 9, first="bot")
    thinking.drop()
    ctrl.command("stats", {})
    assert ctrl.page.view == "stats" and screen.last.body["view"] == "stats"
    assert not ctrl.page.bots_may_think
    ctrl.command("stats-close", {})
    assert ctrl.page.view == "table" and thinking.waiting


def test_one_dialog_host_shows_the_topmost_and_brings_the_one_below_back():
    ctrl, screen, thinking = make_page()
    deal(ctrl, "dracula", 5, first="me")
    for _ in range(60):  # to the end of the first hand: its summary
        s = my_turn(ctrl, thinking)
        if s.waiting_for_ack or s.state.over:
            break
        ctrl.on_table(ts.Act(s.state.legal_actions()[0]))
    summary = screen.last.dialog
    assert summary is not None and 'id="next-hand"' in summary.buttons
    ctrl.command("keys", {})
    assert screen.last.dialog.part == "keys" and "keys-close" in screen.last.dialog.body
    ctrl.command("keys-close", {})
    assert screen.last.dialog == summary


def test_bots_think_here_while_another_event_loop_runs():
    """A full test run has Playwright's event loop running in this thread
    (tests/browser): the bots of these tests think all the same."""
    import asyncio

    previous = asyncio.events._get_running_loop()  # Playwright's, in a full run: put back
    loop = asyncio.new_event_loop()
    asyncio.events._set_running_loop(loop)
    try:
        ctrl, _, thinking = make_page()
        deal(ctrl, "dracula", 7, first="bot")
        assert my_turn(ctrl, thinking).played >= 1
    finally:
        asyncio.events._set_running_loop(previous)
        loop.close()


def _hand_mine(markup: str, game: str) -> str:
    """The markup of the person's hand on the table."""
    opening = 'class="dr-hand' if game == "dracula" else 'class="hand mine'
    return markup.split(opening, 1)[1].split("</div>", 1)[0]


@pytest.mark.parametrize("game, values", [
    ("dracula", {"first": "me"}),
    ("jekyll-hyde", {"players": "4", "seating": "A", "me": "0", "target": "1000"}),
    ("jekyll-hyde", {"players": "3", "me": "1", "target": "300"}),
    ("jekyll-vs-hyde", {"variant": "return-match", "jvh_role": "H"})],
    ids=["dracula", "werner4", "werner3", "duel"])
def test_behind_a_hands_summary_the_table_shows_that_hand_not_the_next(game, values):
    """Issue 31: the engine deals the next hand as it scores one, and the table
    behind the summary showed the next deal. It shows the hand just scored
    (its last trick whole, or its full coffin; no card in hand; "… is over"),
    after a reload too, and the next hand once the summary is closed."""
    ctrl, screen, thinking = make_page()
    deal(ctrl, game, 5, **values)
    s = to_a_hands_summary(ctrl, thinking)
    entry = s.observation["history"][-1]
    shown, over = {
        "dracula": (entry.get("grid"), "Deal 1 of 6 is over"),
        "jekyll-hyde": ([[p["card"] for p in entry.get("last_trick", {}).get("plays", [])]],
                        "Hand 1 is over"),
        "jekyll-vs-hyde": ([[entry.get("tricks_played", [{}])[-1].get(k) for k in ("lead", "follow")]],
                           "Round 1 is over")}[game]
    dealt = s.observation["hand"]
    assert dealt, "the engine has dealt the next hand"
    reloaded = make_page(dict(items(ctrl)))[0]
    reloaded.start(None)
    for page in (ctrl, reloaded):
        assert page.session.waiting_for_ack
        markup = page.screen.last.regions["screen"]
        assert f'id="prompt">{over}<' in markup
        assert "data-card=" not in _hand_mine(markup, game), "a card in the person's hand"
        for row in shown:
            for card in row:
                assert f'data-card="{card}"' in markup, card
    ctrl.command("ack-hand", {})
    markup = ctrl.screen.last.regions["screen"]
    assert over not in markup
    assert all(f'data-card="{c}"' in _hand_mine(markup, game) for c in dealt)


@pytest.mark.parametrize("game, values, next_deal", [
    ("dracula", {"first": "me"}, "Deal 2"),
    ("jekyll-hyde", {"players": "4", "seating": "A", "me": "0", "target": "1000"}, "Hand 2"),
    ("jekyll-hyde", {"players": "3", "me": "1", "target": "300"}, "Hand 2"),
    ("jekyll-vs-hyde", {"variant": "return-match", "jvh_role": "H"}, "Round 2")],
    ids=["dracula", "werner4", "werner3", "duel"])
def test_behind_a_hands_summary_the_log_stops_at_that_hand(game, values, next_deal):
    """Issue 31: while a hand's summary is open the table behind shows that
    hand, but the log (and the live region) went on with the next deal's
    first lines. They stop at the hand's scoring, after a reload too, and
    the next deal's lines come when the summary is closed."""
    ctrl, screen, thinking = make_page()
    deal(ctrl, game, 5, **values)
    s = to_a_hands_summary(ctrl, thinking)
    reloaded = make_page(dict(items(ctrl)))[0]
    reloaded.start(None)
    for page in (ctrl, reloaded):
        side = str(page.screen.last.regions["side"])
        last_line = side.rsplit("<li>", 1)[1]
        assert next_deal not in last_line, last_line
        log, lines_of, _ = news(page.page)
        assert next_deal not in " ".join(map(str, lines_of(log))), "read out before the close"
    ctrl.command("ack-hand", {})
    side = str(ctrl.screen.last.regions["side"])
    assert next_deal in side.rsplit("<li>", 2)[1] + side.rsplit("<li>", 1)[1]
    log, lines_of, _ = news(ctrl.page)
    assert next_deal in " ".join(map(str, lines_of(log[-3:])))


@pytest.mark.parametrize("game", ["jekyll-hyde", "jekyll-vs-hyde", "dracula"])
def test_while_a_lessons_note_holds_the_hand_nothing_is_offered_to_play(game):
    """Issue 31: during a lesson's note ("Continue") the seats kept their "?"
    marks and the playable cards their ring, as if the person could act. They
    come back when the note is read."""
    marks = ('playable"', "playable ", "designatable")
    ctrl, screen, thinking = make_page()
    ctrl.dispatch(SetupChanged({"game": game}))
    ctrl.command("lesson", {})
    held = offered = 0
    for _ in range(400):
        s = ctrl.session
        if s.state.over or s.waiting_for_ack:
            break
        markup = str(screen.last.regions["screen"])
        if s.coach_waiting:
            if s.human_to_act:
                held += 1
                assert not any(m in markup for m in marks), (s.played, markup)
            ctrl.command("coach-next", {})
        elif s.human_to_act:
            offered += any(m in markup for m in marks)
            ctrl.on_table(ts.Act(s.coach.lesson.expected(s.played)))
        else:
            thinking.run(limit=1)
    assert held, "no note held the person's decision"
    assert offered or game == "dracula", "the table never offered a card"


def test_the_coachs_objection_is_worded_again_at_once_in_the_language_chosen():
    """Issue 53 item 3: the coach's objection to another choice kept the
    language it was made in; it is a catalog key the bubble words."""
    ctrl, screen, thinking = make_page()
    ctrl.dispatch(SetupChanged({"game": "jekyll-hyde"}))
    ctrl.command("lesson", {})
    for _ in range(400):
        s = ctrl.session
        if s.coach_waiting:
            ctrl.command("coach-next", {})
        elif s.human_to_act and len(s.state.legal_actions()) > 1:
            break
        elif s.human_to_act:
            ctrl.on_table(ts.Act(s.coach.lesson.expected(s.played)))
        else:
            thinking.run(limit=1)
    lesson = s.coach.lesson
    task = lesson.task(s.played)
    why = task.why if task is not None and task.why else "coach.why"
    ctrl.on_table(ts.Act(next(a for a in s.state.legal_actions()
                              if a != lesson.expected(s.played))))
    said = {}
    for lang in ("fr", "en"):
        ctrl.dispatch(SetLanguage(lang))
        bubble = re.search(r'id="coach-why">([^<]*)<', str(screen.last.regions["side"]))
        said[lang] = str(html("{}", ctrl.t(why)))
        assert bubble is not None and bubble.group(1) == said[lang], lang
    assert said["fr"] != said["en"]


# -- drawing only what changed --------------------------------------------------------

WERNER = {"players": "4", "jh_me": "0", "jh_bot": "random"}


def _thinking_seats(screen) -> list[str]:
    return re.findall(r'class="seat[^"]*\bthinking\b[^"]*"[^>]*data-seat="(\d)"',
                      str(screen.last.regions["screen"]))


def test_a_bots_move_is_one_redraw_and_its_turn_shows_it_thinking_at_once():
    ctrl, screen, thinking = make_page()
    deal(ctrl, "jekyll-hyde", 5, **WERNER)
    s = my_turn(ctrl, thinking)
    thinking.drop()
    ctrl.on_table(ts.Act(s.state.legal_actions()[0]))
    bot = ctrl.session.state.to_act
    assert ctrl.session.bots_on_turn and len(thinking.waiting) == 1
    # The frame of the person's move already marks the bot on turn thinking...
    assert _thinking_seats(screen) == [str(bot)]
    frames = len(screen.drawn)
    thinking.run(limit=1)  # ...and the bot's move is one frame more, not two
    assert ctrl.session.state.to_act != bot and len(screen.drawn) == frames + 1


def test_a_region_whose_slice_of_the_page_did_not_change_is_not_drawn_again(monkeypatch):
    from game.web.draw import views

    ctrl, screen, thinking = make_page()
    deal(ctrl, "jekyll-hyde", 5, **WERNER)
    s = my_turn(ctrl, thinking)
    thinking.drop()
    drawn: list[str] = []
    for name in ("menu", "table_info", "side"):
        monkeypatch.setattr(views, name, lambda *a, _f=getattr(views, name), _n=name, **k: (
            drawn.append(_n), _f(*a, **k))[1])
    render = s.table.render
    monkeypatch.setattr(s.table, "render", lambda *a: (drawn.append("table"), render(*a))[1])
    ctrl.command("panel", {"panel": "scores"})  # only the side panel changes
    assert drawn == ["side"] and "panel-scores" in screen.last.regions["side"]
    drawn.clear()
    ctrl.on_table(ts.Act(s.state.legal_actions()[0]))  # the table and its side panel
    assert sorted(drawn) == ["side", "table"]


def test_the_log_words_each_event_once_and_all_of_them_again_in_another_language(monkeypatch):
    ctrl, screen, thinking = make_page()
    deal(ctrl, "jekyll-hyde", 5, **WERNER)
    table = ctrl.session.table
    worded = []
    event_text = table.event_text
    monkeypatch.setattr(table, "event_text", lambda ev, ctx: (
        worded.append(ctx.t.lang), event_text(ev, ctx))[1])
    for _ in range(12):
        s = my_turn(ctrl, thinking)
        ctrl.on_table(ts.Act(s.state.legal_actions()[0]))
    events = len(ctrl.session.log)
    assert events > 12 and len(worded) <= events
    worded.clear()
    ctrl.dispatch(SetLanguage("de"))
    assert worded == ["de"] * events
    side = str(screen.last.regions["side"])
    assert "Karte" in side or "Stich" in side, side[-400:]
