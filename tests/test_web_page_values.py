"""Everything the page knows is in `Page` (issue 53, item 1): the statistics
screen, the file dialog and the review are frozen values in it, each with a
pure reducer over small actions returning the value and its effects; what
needs storage, the clock or the browser is an effect the controller's
runtime carries out and answers with an action. Each part is played twice:
through its reducer alone (feed actions, check the value and the effects),
and through the real controller as the page's commands and files reach it."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest

from game import new_game
from game.web.model import file_panel as fp
from game.web.model import page as pg
from game.web.model import replay, saves
from game.web.model import stats as st
from game.web.model import stats_page as sp
from game.web.model.effects import ChooseFile, Focus
from game.web.draw.i18n import LANGUAGES, Translator
from game.web.model.review import ReviewCommand, Reviewing, opened, review
from game.web.model.session import Said
from game.web.model.page import FileChosen
from tests.page_kit import items, make_page, put_on_table


def played(game: str, seed: int, steps: int | None = None) -> dict[str, Any]:
    """A transcript of `game` played by random legal moves (to the end, or `steps` actions)."""
    state, rng, actions = new_game(game, None, seed), random.Random(seed), []
    while not state.over and (steps is None or len(actions) < steps):
        actions.append(rng.choice(state.legal_actions()))
        state = state.apply(actions[-1])
    return {"game": game, "options": new_game(game, None, seed).to_json()["options"],
            "seed": seed, "actions": actions}


def _file(transcript: dict[str, Any]) -> bytes:
    return json.dumps(transcript).encode()


def _record(*ids: int) -> st.Stats:
    return st.Stats(tuple(st.GameRecord(id=f"{n}-{1000 + n}", game="dracula", mode="standard",
                                        level="random", result="won", score=10, ended=1000 + n)
                          for n in ids))


# -- continue from a file -----------------------------------------------------------------

def test_continuing_a_file_is_a_sequence_of_the_dialog_s_actions():
    transcript = played("dracula", 5, 12)
    dialog, effects = fp.reduce(fp.FileDialog(), fp.GameFileChosen("deal.json", 99,
                                                                   _file(transcript)))
    assert dialog.opened is not None and dialog.step == 12 and dialog.problem is None
    assert effects == (Focus("#file-panel .buttons button"),)
    refused, effects = fp.reduce(dialog, fp.AskContinue("13"))  # past the file's last step
    assert refused.step_error == Said("file.bad_step", {"steps": 12})
    assert effects == (Focus("#file-panel #file-step"),)
    asked, effects = fp.reduce(refused, fp.AskContinue("4"))
    assert asked.step == 4 and asked.step_error is None
    assert effects == (fp.ContinueFile(dialog.opened, 4, ask=True),)  # the runtime looks for a save
    confirming, effects = fp.reduce(asked, fp.SaveFound())  # ...and found one
    assert confirming.confirming and effects == (Focus("#file-panel .buttons button"),)
    back, _ = fp.reduce(confirming, fp.KeepSave())
    assert not back.confirming
    _, effects = fp.reduce(confirming, fp.ReplaceSave())
    assert effects == (fp.ContinueFile(dialog.opened, 4, ask=False),)
    # A file too big is never read; one unreadable says so: no effect but the focus.
    big, _ = fp.reduce(fp.FileDialog(), fp.GameFileChosen("big.json", 10**9, b""))
    assert big.opened is None and big.problem is not None and big.problem[1] is not None
    assert fp.reduce(fp.FileDialog(), fp.GameFileChosen("x", 3, None))[0].problem == ("x", None)
    assert fp.reduce(fp.FileDialog(), fp.OpenFileChooser())[1] == (ChooseFile("game"),)


def test_the_page_opens_the_file_dialog_over_itself_and_a_new_table_closes_it():
    page = pg.Page(t=Translator("en"))
    page, _ = pg.reduce(page, fp.GameFileChosen("deal.json", 9, _file(played("dracula", 5, 3))))
    assert page.overlay == "file" and page.file.opened is not None
    closed, effects = pg.reduce(page, fp.CloseFile())
    assert closed.overlay == "none" and closed.file == fp.FileDialog()
    assert pg.Resume() in effects


def test_continuing_a_file_over_a_saved_game_through_the_controller():
    ctrl, screen, _ = make_page()
    ctrl.dispatch(pg.SetupChanged({"game": "dracula"}))
    ctrl.command("start", {})  # a Dracula game in progress, saved
    first_id = ctrl.save["id"]
    transcript = played("dracula", 5, 12)
    ctrl.perform(FileChosen("game", "deal.json", 99, _file(transcript)))
    assert ctrl.page.overlay == "file" and 'id="file-step"' in screen.last.dialog.markup()
    ctrl.command("file-continue", {"step": "4"})
    assert ctrl.page.file.confirming, "the game in progress is not replaced without asking"
    assert 'data-cmd="file-replace"' in screen.last.dialog.markup()
    ctrl.command("file-replace", {})
    s = ctrl.page.session
    assert s is not None and s.save["transcript"]["actions"] == transcript["actions"][:4]
    assert s.message == Said("file.continued", {"n": 4, "file": "deal.json"})
    assert ctrl.page.overlay == "none" and ctrl.page.file == fp.FileDialog()
    stored = json.loads(items(ctrl)[saves.key("dracula")])
    assert stored["transcript"]["actions"] == transcript["actions"][:4]
    assert stored.get("id") != first_id and screen.focused[-1] == "fallback"


# -- statistics: import and reset ---------------------------------------------------------

def test_importing_and_resetting_statistics_are_sequences_of_the_screen_s_actions():
    mine, theirs = _record(1, 2), _record(2, 3, 4)
    screen, effects = sp.reduce(sp.StatsScreen(record=mine), sp.ChooseImport())
    assert effects == (ChooseFile("stats"),)
    screen, effects = sp.reduce(screen, sp.StatsFileChosen(9, st.dump(theirs).encode()))
    assert screen.pending == "import" and screen.incoming == theirs
    assert effects == (Focus("#stats-merge"),)
    screen, effects = sp.reduce(screen, sp.TakeImport(merge=True))
    write = sp.WriteStats("merge", theirs)
    assert screen.pending == "" and effects == (write, sp.TITLE)
    merged, new = sp.changed(mine, write)  # what the runtime writes, read afresh
    assert new and [g.id for g in merged.games] == ["1-1001", "2-1002", "3-1003", "4-1004"]
    screen, _ = sp.reduce(screen, sp.StatsWritten("merge", merged, written=True, stored=True))
    assert screen.record == merged and screen.note == Said("stats.imported", {"n": 4})
    assert not screen.note_is_error
    screen, effects = sp.reduce(screen, sp.AskReset())
    assert screen.pending == "reset" and effects == (Focus("#stats-cancel"),)
    screen, effects = sp.reduce(screen, sp.ConfirmReset())
    assert effects == (sp.WriteStats("reset"), sp.TITLE)
    assert sp.changed(merged, sp.WriteStats("reset")) == (st.Stats(), True)
    refused, _ = sp.reduce(screen, sp.StatsWritten("reset", st.Stats(), written=False,
                                                   stored=True))
    assert refused.note == Said("stats.write_failed") and refused.unwritten == st.Stats()
    bad, effects = sp.reduce(screen, sp.StatsFileChosen(5, b"\xff{"))
    assert bad.pending == "" and bad.note_is_error and bad.note is not None
    assert bad.note.key == "stats.bad_file" and effects == (sp.TITLE,)


def test_importing_and_resetting_statistics_through_the_controller():
    ctrl, screen, _ = make_page({st.KEY: st.dump(_record(1, 2))})
    ctrl.command("stats", {})
    assert ctrl.page.view == "stats" and ctrl.page.stats.record == _record(1, 2)
    ctrl.command("stats-import", {})
    assert screen.chooser == ["stats"]
    ctrl.perform(FileChosen("stats", "mine.json", 99, st.dump(_record(2, 3)).encode()))
    assert 'id="stats-merge"' in screen.last.regions["screen"]
    ctrl.command("stats-merge", {})
    assert [g.id for g in st.load(items(ctrl)[st.KEY]).games] == ["1-1001", "2-1002", "3-1003"]
    assert ctrl.t("stats.imported", n=3) in screen.last.regions["screen"]
    ctrl.command("stats-reset", {})
    assert screen.focused[-1] == "#stats-cancel"
    ctrl.command("stats-confirm-reset", {})
    assert st.load(items(ctrl)[st.KEY]) == st.Stats() == ctrl.page.stats.record
    assert ctrl.t("stats.reset_done") in screen.last.regions["screen"]
    ctrl.command("stats-close", {})
    assert ctrl.page.view == "start"


# -- the review, stepped --------------------------------------------------------------------

def test_the_review_steps_plays_and_chooses_a_hand_as_a_sequence_of_its_actions():
    transcript = played("dracula", 3)
    r = opened(transcript, 0, on_table=False)
    assert isinstance(r, Reviewing) and r.hand == 0 and r.at.step == r.at.first == 0
    nxt, effects = review(r, ReviewCommand("next", "ex-next"))
    assert nxt is not None and nxt.at.step == 1 and effects == (replay.Draw("ex-next"),)
    playing, effects = review(nxt, ReviewCommand("play"))
    assert playing is not None and playing.at.playing
    assert effects == (replay.Draw(), replay.Wait(playing.at.run))
    ticked, effects = review(playing, replay.Tick(playing.at.run))
    assert ticked is not None and ticked.at.step == 2
    assert effects == (replay.Draw(), replay.Wait(playing.at.run))
    assert review(ticked, replay.Tick(playing.at.run - 1)) == (ticked, ())  # a stale run
    last, _ = review(ticked, ReviewCommand("last"))
    assert last is not None and not last.at.playing and last.at.step == last.at.last
    assert review(last, replay.Tick(playing.at.run))[1] == ()  # stopped: its ticks are moot
    second, effects = review(last, ReviewCommand("hand", value="1"))
    assert second is not None and second.hand == 1 and second.at.step == second.at.first > 0
    assert effects == (replay.Draw(),)
    assert review(second, ReviewCommand("close")) == (None, ())
    assert review(second, ReviewCommand("no-such-command")) == (second, ())
    broken = dict(transcript, actions=["no such move"])
    assert opened(broken, 0, on_table=False)[0] == "review.failed"


def test_the_page_opens_the_review_over_itself_heads_it_once_and_closes_it():
    page = pg.Page(t=Translator("en"))
    page, effects = pg.reduce(page, pg.OpenReview(played("dracula", 3), 0))
    assert page.overlay == "review" and page.review is not None
    assert effects == (pg.DrawReview(None, head=True),)
    page, effects = pg.reduce(page, ReviewCommand("next", "ex-next"))
    assert effects == (pg.DrawReview("ex-next", head=False),)  # the same hand: no new heading
    again, effects = pg.reduce(page, pg.OpenReview(played("dracula", 4), 0))
    assert again == page and effects == ()  # one review at a time
    page, effects = pg.reduce(page, ReviewCommand("close"))
    assert page.review is None and page.overlay == "none"
    assert effects == (pg.ReviewGone(), pg.Resume())


def test_the_review_stepped_through_the_controller(monkeypatch):
    import game.web.runtime.controller as controller

    monkeypatch.setattr(controller, "AUTOPLAY_SECONDS", 0)
    ctrl, screen, thinking = make_page()
    final = new_game("dracula", None, 3)
    transcript = played("dracula", 3)
    for action in transcript["actions"]:
        final = final.apply(action)
    put_on_table(ctrl, final, {"game": "dracula", "setup": {"me": 0, "bots": {"1": "random"}},
                               "transcript": transcript, "log": [], "seen_hands": 0})
    ctrl.command("review", {})
    frame = screen.review_frames[-1]
    assert frame["name"] == "review" and "head" in frame and ctrl.page.overlay == "review"
    last = int(frame["data"]["last"])
    assert frame["step"] == int(frame["data"]["first"]) > 0  # the game's last hand, from its deal
    ctrl.review_message({"cmd": "next", "keep": "ex-next"})
    assert screen.review_frames[-1]["step"] == frame["step"] + 1
    assert screen.review_frames[-1]["keep"] == "ex-next" and "head" not in screen.review_frames[-1]
    ctrl.review_message({"cmd": "play"})
    thinking.run()  # the autoplay steps to the hand's last step, then stops
    assert screen.review_frames[-1]["step"] == last and not ctrl.page.review.at.playing
    ctrl.review_message({"cmd": "close"})
    assert screen.review_frames[-1] == {"name": "review", "closed": True}
    assert ctrl.page.review is None and ctrl.page.overlay == "none"


# -- the link's parameters, the deal link and the rules links (issue 15, items 7, 9, 11) ----
# (The address read and a reload by the browser: tests/browser/test_saves_links.py.)

def _linked(search: str, stored: dict[str, str] | None = None):
    """The page started from the address `search`, read as game/web/dom/worker.py reads it."""
    from urllib.parse import parse_qsl

    from game.web.draw.i18n import pick_language
    from game.web.model.links import read_link

    link = read_link(parse_qsl(search.lstrip("?"), keep_blank_values=True))
    ctrl, screen, thinking = make_page(stored, lang=pick_language(link.lang, "en"), link=link)
    ctrl.start(None)
    return ctrl, screen, thinking


def test_every_bad_parameter_is_reported_in_one_notice_and_good_ones_in_none():
    ctrl, screen, _ = _linked("?game=nope&lang=xx&deal=abc&utm_source=x&speed=warp")
    notices = screen.last.regions["notices"]
    assert notices.count('class="notice"') == 1
    for bad in ("game=nope", "lang=xx", "deal=abc", "utm_source", "speed=warp"):
        assert bad in notices, (bad, notices)
    assert ctrl.page.view == "start" and ctrl.session is None  # nothing was dealt
    assert screen.last.body["lang"] == "en"
    ctrl, screen, _ = _linked("?game=dracula&lang=fr-CA&deal=12&speed=fast")
    assert 'class="notice"' not in screen.last.regions["notices"]
    assert ctrl.state.game_id == "dracula" and ctrl.save["transcript"]["seed"] == 12
    # Dracula has six deals of its own: its number is a shuffle's, named apart.
    assert ">Mélange n° 12</a>" in screen.last.regions["table-info"]
    assert "Donne 1 sur 6" in screen.last.regions["screen"]


def test_a_deal_link_deals_that_deal_the_same_cards_every_time_and_links_itself():
    hands = []
    for _ in range(2):
        ctrl, screen, _ = _linked("?game=jekyll-hyde&deal=77&speed=instant")
        assert ctrl.save["transcript"]["seed"] == 77 and ctrl.page.view == "table"
        hands.append(ctrl.state.to_json()["hands"])
    assert hands[0] == hands[1] and hands[0]
    ctrl, screen, _ = _linked("?game=jekyll-vs-hyde&deal=1234&speed=instant&lang=en")
    link = re.search(r'<a id="deal-link" href="([^"]*)"[^>]*>([^<]*)</a>',
                     screen.last.regions["table-info"])
    assert link and link.groups() == ("?game=jekyll-vs-hyde&amp;deal=1234", "Shuffle #1234")


@pytest.mark.parametrize("game", ["jekyll-hyde", "jekyll-vs-hyde", "dracula"])
def test_every_table_links_its_rules_page_in_the_pages_language(game):
    _, screen, _ = _linked(f"?game={game}&deal=3&speed=instant&lang=it")
    assert re.search(rf'<a id="rules-link" href="\./static/rules/{game}\.it\.html" '
                     r'target="_blank"', screen.last.regions["table-info"])
    # The rules page the link opens leads back to this game, in this language.
    from pathlib import Path

    rules = (Path(__file__).parent.parent / "static" / "rules" / f"{game}.it.html").read_text(
        encoding="utf-8")
    assert re.search(rf'<a class="play" href="[^"]*index\.html\?game={game}&amp;lang=it"', rules)


def test_how_to_play_links_the_chosen_games_illustrated_rules():
    ctrl, screen, _ = _linked("?lang=de")
    for game in ("jekyll-hyde", "jekyll-vs-hyde", "dracula"):
        ctrl.dispatch(pg.SetupChanged({"game": game}))
        link = re.search(r'<a id="rules-page" href="([^"]*)"[^>]*>([^<]*)</a>',
                         screen.last.regions["side"])
        assert link and link.group(1).endswith(f"{game}.de.html")
        assert link.group(2) == "Die bebilderten Regeln, mit Beispielen"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_bots_pace_and_strength_share_no_word(lang):
    import html as markup

    def options(region: str, select: str) -> list[str]:
        found = re.search(select + r".*?</select>", region, re.S)
        assert found, (select, region)
        return [markup.unescape(o) for o in re.findall(r"<option[^>]*>([^<]*)</option>",
                                                       found.group(0))]

    def words(texts: list[str]) -> set[str]:
        return {w for t in texts for w in re.findall(r"\w{3,}", t.lower())}

    _, screen, _ = _linked(f"?game=jekyll-hyde&lang={lang}")
    paces = options(screen.last.regions["menu"], r'<select id="speed"')
    strengths = [o for m in re.finditer(r'<select[^>]*name="bot[^"]*".*?</select>',
                                        screen.last.regions["screen"], re.S)
                 for o in options(m.group(0), "<select")]
    assert len(paces) == 4 and len(strengths) >= 4
    assert not words(paces) & words(strengths), (paces, strengths)
