"""A new game, a lesson, a file, switching games, another tab (issue 53, item
2): each is a page action its pure reducer decides (the seed parsed, the save
built, what to show), asking the outside world only through effects (a
random seed, storage, this tab's locks) that are answered with actions.
Each is played twice: through `game.web.model.page.reduce` alone, answering its
effects by hand as the runtime would, and through the real controller."""

from __future__ import annotations

import dataclasses

import json
import random
from typing import Any

from game import new_game
from game.web.model import file_panel as fp
from game.web.model import page as pg
from game.web.model import saves
from game.web.model import session as ts
from game.web.model import stats as st
from game.web.model import stats_page as sp
from game.web.model.effects import Focus
from game.web.model.files import transcript_text
from game.web.draw.i18n import Translator
from game.web.model.links import Link
from game.web.model.session import Said, Session
from game.web.draw.views import setup_error_text
from tests.page_kit import deal, items, make_page, random_transcript


def _record(*ids: int) -> st.Stats:
    return st.Stats(tuple(st.GameRecord(id=f"{n}-{1000 + n}", game="dracula", mode="standard",
                                        level="random", result="won", score=10, ended=1000 + n)
                          for n in ids))


def _seated(effects: tuple[pg.PageEffect, ...]) -> Session:
    """The session a `SeatTable` among `effects` puts on the table."""
    seats = [e for e in effects if isinstance(e, pg.SeatTable)]
    assert len(seats) == 1, effects
    return seats[0].session


def _at_table(game: str, seed: int, page: pg.Page | None = None) -> pg.Page:
    """`page` (a fresh one if None) with a deal of `game` on its table, held by
    this tab and written: the reducer's sequence, the runtime's answers by hand."""
    page = page or pg.Page(t=Translator("en"))
    page, _ = pg.reduce(page, pg.SetupChanged({"game": game, "seed": str(seed)}))
    page, _ = pg.reduce(page, pg.NewGame())
    page, effects = pg.reduce(page, pg.Drawn(seed, 1000))
    page, _ = pg.reduce(page, pg.NewTable(_seated(effects), 0))
    page, _ = pg.reduce(page, pg.Claimed(game, True, False))
    page, _ = pg.reduce(page, pg.Written(1))
    assert page.plays_here and page.hold == pg.Hold(owner=game, revision=1)
    return page


# -- a new game: the seed from the form, or drawn at random --------------------------------

def test_a_new_game_with_the_form_s_seed_is_decided_by_the_reducer():
    page = pg.Page(t=Translator("en"), setup={"game": "dracula", "seed": " 42 "})
    page, effects = pg.reduce(page, pg.NewGame())
    assert effects == (pg.Draw(42),) and page.session is None  # only the clock is asked
    page, effects = pg.reduce(page, pg.Drawn(42, 1700))
    assert page.prefs["setup"] == page.setup  # the choices kept as the next game's
    assert effects[0] == pg.SavePrefs() and effects[-1] == pg.Resume()
    session = _seated(effects)
    assert effects[1] == pg.SeatTable(session, heard=0, saved=True)
    save = session.save
    assert save["transcript"]["seed"] == 42 and save["id"] == "42-1700"
    assert session.state.to_json() == new_game(
        "dracula", save["transcript"]["options"], 42).to_json()
    page, effects = pg.reduce(page, pg.NewTable(session, 3))  # the stored save's revision
    assert page.view == "table" and page.session == session
    assert page.hold == pg.Hold(revision=3, unwritten=True) and not page.plays_here
    assert effects == (pg.MakeCurrent("dracula"), ts.Persist(), pg.Claim("dracula", False))
    page, effects = pg.reduce(page, pg.Claimed("dracula", True, False))
    assert page.plays_here and effects == (ts.Persist(), pg.Resume())  # written once held


def test_a_seed_that_is_no_number_is_refused_by_the_reducer_in_the_page_s_words():
    page = pg.Page(t=Translator("de"), setup={"game": "dracula", "seed": "12x"})
    page, effects = pg.reduce(page, pg.NewGame())
    assert effects == (Focus("#f-seed"),) and page.session is None
    assert setup_error_text(page) == (f"{page.say('setup.seed')}: „12x“ "
                                      "ist keine Zahl aus den Ziffern 0-9")  # all of it German
    page = dataclasses.replace(page, setup={"game": "dracula", "seed": "9" * 30})
    page, _ = pg.reduce(page, pg.NewGame())
    assert setup_error_text(page) == (f"{page.say('setup.seed')}: „99999999999…“ liegt nicht "
                                      f"zwischen 0 und {2**63 - 1}")
    ctrl, screen, _ = make_page()
    deal(ctrl, "dracula", "12x")
    assert ctrl.session is None and screen.focused[-1] == "#f-seed"
    assert ctrl.page.say("setup.seed") + ": " in screen.last.regions["screen"]


def test_a_new_game_with_no_seed_draws_one_from_the_injected_random_source():
    page = pg.Page(t=Translator("en"), setup={"game": "dracula", "seed": ""})
    assert pg.reduce(page, pg.NewGame())[1] == (pg.Draw(None),)
    ctrl, _, _ = make_page(rng=random.Random(7))
    deal(ctrl, "dracula", "")
    drawn = random.Random(7).randrange(1, 2**31)
    assert ctrl.save["transcript"]["seed"] == drawn and ctrl.page.plays_here
    stored = json.loads(items(ctrl)[saves.key("dracula")])
    assert stored["transcript"]["seed"] == drawn and stored["id"].startswith(f"{drawn}-")


def test_the_embed_s_restart_halts_the_bots_and_deals_the_same_choices_anew():
    page = _at_table("dracula", 5)
    token = page.session.token
    page, effects = pg.reduce(page, pg.DealAgain())
    assert effects == (pg.Draw(5),) and page.session.token == token + 1


# -- switching games ------------------------------------------------------------------------

def test_switching_games_loads_the_other_save_and_holds_its_game():
    page = _at_table("dracula", 5)
    other = _at_table("jekyll-hyde", 8).session
    page, _ = pg.reduce(page, pg.OpenSetup())
    token = page.session.token
    page, effects = pg.reduce(page, pg.SwitchGame("jekyll-hyde"))
    assert effects == (pg.Load(saves.key("jekyll-hyde"), claim=True), pg.Resume())
    assert page.session.token == token + 1  # the bots of the game on the table stop
    page, _ = pg.reduce(page, pg.SaveLoaded(other, 4))  # the runtime's load, told
    page, effects = pg.reduce(page, pg.LoadDone(loaded=True, claim=True))
    assert effects == (pg.Release("dracula"), pg.Claim("jekyll-hyde", False))
    page, effects = pg.reduce(page, pg.Claimed("jekyll-hyde", True, False))
    assert page.view == "table" and page.hold == pg.Hold(owner="jekyll-hyde", revision=4)
    assert effects == (pg.Resume(),)  # loaded: nothing to write
    assert pg.reduce(page, pg.LoadDone(loaded=False, claim=True))[1] == ()
    assert pg.reduce(page, pg.SwitchGame("no-such-game"))[1] == (pg.Resume(),)
    damaged = pg.Broken(saves.key("dracula"), "bad", "{", in_place=True)
    page = pg.Page(t=Translator("en"), broken=damaged)  # left in place: it cannot go on
    assert pg.reduce(page, pg.SwitchGame("dracula"))[1] == (pg.Resume(),)


def test_switching_games_through_the_controller():
    ctrl, screen, _ = make_page()
    deal(ctrl, "dracula", 5)
    deal(ctrl, "jekyll-hyde", 8)
    kept = items(ctrl)[saves.key("jekyll-hyde")]
    ctrl.command("new", {})
    assert 'data-game="dracula"' in screen.last.regions["screen"]
    ctrl.command("switch", {"game": "dracula"})
    assert ctrl.state.game_id == "dracula" and ctrl.save["transcript"]["seed"] == 5
    assert ctrl.page.view == "table" and ctrl.page.hold.owner == "dracula"
    assert items(ctrl)[saves.key("jekyll-hyde")] == kept  # the one left stays saved


# -- a game file: continued, or refused --------------------------------------------------

def test_continuing_from_a_file_and_a_damaged_one_through_the_reducer():
    page = _at_table("dracula", 5)
    before = page.session
    transcript = random_transcript("dracula", 3, 12)
    data = json.dumps(transcript).encode()
    page, _ = pg.reduce(page, pg.FileChosen("game", "deal.json", len(data), data))
    assert page.overlay == "file" and page.file.opened is not None
    page, effects = pg.reduce(page, fp.AskContinue("4"))
    assert effects == (fp.ContinueFile(page.file.opened, 4, ask=True),)
    opened = page.file.opened
    page, effects = pg.reduce(page, fp.SaveFound())  # the runtime: that game has a save
    assert page.file.confirming and page.session.save == before.save  # asked first
    page, effects = pg.reduce(page, fp.ReplaceSave())
    assert effects == (fp.ContinueFile(opened, 4, ask=False),)
    page, effects = pg.reduce(page, pg.ContinueFrom(opened, 4))
    session = _seated(effects)
    assert effects[1:] == (Focus("fallback"), pg.Resume())
    assert session.save["transcript"]["actions"] == transcript["actions"][:4]
    assert session.save["from_file"] and session.message == Said(
        "file.continued", {"n": 4, "file": "deal.json"})
    assert effects[0] == pg.SeatTable(session, heard=len(session.save["log"]), saved=True)
    broken = _at_table("dracula", 5)
    page, effects = pg.reduce(broken, pg.FileChosen("game", "deal.json", 7, b'{"game"'))
    assert page.overlay == "file" and page.file.problem is not None
    assert page.session.save == broken.session.save and page.hold == broken.hold  # nothing lost
    assert not [e for e in effects if isinstance(e, (pg.SeatTable, fp.ContinueFile))]


def test_a_damaged_file_says_why_and_loses_nothing_through_the_controller():
    ctrl, screen, _ = make_page()
    deal(ctrl, "dracula", 5)
    stored, session = items(ctrl)[saves.key("dracula")], ctrl.session
    text = transcript_text(ctrl.save)[:-9].encode()  # cut short
    ctrl.perform(pg.FileChosen("game", "mine.json", len(text), text))
    assert ctrl.page.overlay == "file" and 'role="alertdialog"' in screen.last.dialog.body
    assert "mine.json" in screen.last.dialog.body
    ctrl.command("file-close", {})
    assert ctrl.session.save == session.save and ctrl.state == session.state
    assert items(ctrl)[saves.key("dracula")] == stored


# -- statistics: import and reset, at the page's level -------------------------------------

def test_statistics_import_and_reset_through_the_page_reducer():
    mine, theirs = _record(1, 2), _record(2, 3)
    page, effects = pg.reduce(pg.Page(t=Translator("en")), pg.ShowStats())
    assert page.view == "stats" and effects == (sp.ReadStats(), sp.TITLE)
    page, _ = pg.reduce(page, pg.StatsRead(mine))  # the runtime's read
    data = st.dump(theirs).encode()
    page, effects = pg.reduce(page, pg.FileChosen("stats", "theirs.json", len(data), data))
    assert page.stats.pending == "import" and effects == (Focus("#stats-merge"),)
    page, effects = pg.reduce(page, sp.TakeImport(merge=True))
    assert effects == (sp.WriteStats("merge", theirs), sp.TITLE)
    merged, _ = sp.changed(mine, effects[0])
    page, _ = pg.reduce(page, pg.StatsWritten("merge", merged, written=True, stored=True))
    assert page.stats.record == merged and page.stats.note == Said("stats.imported", {"n": 3})
    page, _ = pg.reduce(page, sp.AskReset())
    page, effects = pg.reduce(page, sp.ConfirmReset())
    assert effects == (sp.WriteStats("reset"), sp.TITLE)
    page, effects = pg.reduce(page, pg.StorageChanged(st.KEY, None))  # another tab's reset
    assert effects == (sp.ReadStats(),)


# -- a lesson, started and ended ----------------------------------------------------------

def test_a_lesson_is_put_on_the_table_unsaved_and_ends_with_the_real_game_behind():
    page = _at_table("dracula", 5)
    page, _ = pg.reduce(page, pg.OpenSetup())
    page, effects = pg.reduce(page, pg.StartLesson())
    lesson = _seated(effects)
    assert lesson.coach is not None and lesson.state.game_id == "dracula"
    assert effects == (pg.SeatTable(lesson, heard=0, saved=False),
                       Focus("#coach-next, #coach"), pg.Resume())
    page, effects = pg.reduce(page, pg.NewTable(lesson, None))  # a lesson: never saved
    assert effects == () and page.lesson and page.hold.owner == "dracula"
    page, effects = pg.reduce(page, pg.EndLesson())
    assert page.session is None
    assert effects == (pg.Load(None, claim=True), pg.Then(pg.ShowStart("dracula")))
    assert pg.reduce(page, pg.EndLesson()) == (page, ())  # no lesson: nothing to end


def test_a_lesson_started_and_ended_through_the_controller():
    ctrl, screen, _ = make_page()
    deal(ctrl, "dracula", 5)
    stored, real = items(ctrl)[saves.key("dracula")], ctrl.session
    ctrl.command("new", {})
    ctrl.command("lesson", {})
    assert ctrl.page.lesson and ctrl.page.view == "table"
    assert screen.focused[-1] == "#coach-next, #coach"
    ctrl.command("lesson-done", {})
    assert ctrl.page.view == "start" and screen.focused[-1] == "#start"
    assert ctrl.session is not None and ctrl.session.coach is None
    assert ctrl.session.save["id"] == real.save["id"] and ctrl.page.plays_here
    assert ctrl.state.to_json() == real.state.to_json()
    assert items(ctrl)[saves.key("dracula")] == stored  # the real game untouched


# -- another tab: its write, and taking the game back ------------------------------------

def test_another_tab_s_newer_save_stops_this_one_until_play_here():
    page = _at_table("dracula", 5)
    key, save = saves.key("dracula"), page.session.save
    same = json.dumps({**save, "revision": 1})
    assert pg.reduce(page, pg.StorageChanged(key, same)) == (page, ())  # its own write
    token = page.session.token
    page, effects = pg.reduce(page, pg.StorageChanged(key, json.dumps({**save, "revision": 2})))
    assert page.hold == pg.Hold(elsewhere="dracula", revision=1) and effects == (
        pg.Release("dracula"),)
    assert page.session.token == token + 1  # its bots halted
    page, effects = pg.reduce(page, pg.PlayHere())
    assert effects == (pg.Claim("dracula", True),)
    page, effects = pg.reduce(page, pg.Claimed("dracula", True, True))
    assert page.plays_here and effects == (pg.Load(key), pg.Resume())  # its latest moves
    lost, effects = pg.reduce(page, pg.Claimed("dracula", False, False))
    assert lost.hold.elsewhere == "dracula" and effects == (pg.Release("dracula"),)
    assert pg.reduce(page, pg.Claimed("jekyll-hyde", True, False))[1] == (
        pg.Release("jekyll-hyde"),)  # the table moved on meanwhile: let go


def test_another_tab_s_save_taken_back_with_play_here_through_the_controller():
    ctrl, screen, _ = make_page()
    deal(ctrl, "dracula", 5)
    record: dict[str, Any] = json.loads(items(ctrl)[saves.key("dracula")])
    record["revision"] += 5
    items(ctrl)[saves.key("dracula")] = json.dumps(record)  # the other tab's write
    ctrl.perform(pg.StorageChanged(saves.key("dracula"), json.dumps(record)))
    assert 'id="play-here"' in screen.last.regions["notices"] and not ctrl.page.plays_here
    ctrl.command("play-here", {})
    assert ctrl.page.plays_here and ctrl.page.hold.revision == record["revision"]
    assert 'id="play-here"' not in screen.last.regions["notices"]


# -- a deal link's deal instead of the game in progress ----------------------------------

def test_a_deal_link_s_deal_replaces_the_game_in_progress_once_asked():
    page = _at_table("dracula", 5)
    page, effects = pg.reduce(page, pg.DealLinked(9))
    assert page.asked_deal == 9 and effects == ()  # a game in progress is never discarded
    page, effects = pg.reduce(page, pg.TakeDeal())
    assert page.asked_deal is None and page.setup["seed"] == "9" and effects == (pg.Draw(9),)
    fresh, effects = pg.reduce(pg.Page(t=Translator("en"), setup={"game": "dracula"}),
                               pg.DealLinked(9))
    assert effects == (pg.Draw(9),)  # no game in progress: dealt at once


def test_a_deal_link_s_deal_replaces_the_game_through_the_controller():
    first, _, _ = make_page()
    deal(first, "dracula", 5)
    ctrl, screen, _ = make_page(dict(items(first)), link=Link(game="dracula", deal=9))
    ctrl.start(None)
    assert ctrl.page.asked_deal == 9 and ctrl.save["transcript"]["seed"] == 5
    ctrl.command("deal-replace", {})
    assert ctrl.save["transcript"]["seed"] == 9 and ctrl.page.asked_deal is None
    assert json.loads(items(ctrl)[saves.key("dracula")])["transcript"]["seed"] == 9


# -- a damaged save left in place, discarded ----------------------------------------------

def test_discarding_a_damaged_save_left_in_place_forgets_its_key():
    damaged = pg.Broken(saves.key("dracula"), "bad", "{", in_place=True)
    page = pg.Page(t=Translator("en"), broken=damaged, setup_error=Said("setup.broken_in_place"))
    page, effects = pg.reduce(page, pg.DiscardBroken())
    assert page.broken is None and page.setup_error is None
    assert effects == (pg.Forget(saves.key("dracula")),)
    aside = pg.Page(t=Translator("en"), broken=pg.Broken("jhg.broken.x", "bad", "{"))
    assert pg.reduce(aside, pg.DiscardBroken()) == (aside, ())  # kept aside: nothing to free
