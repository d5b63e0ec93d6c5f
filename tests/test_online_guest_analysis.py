"""A friend at an online table analyses their own decisions on their own
device (issue 56): "Analyse this round" on the round's summary and the
game's, through the real host and guest pages on the loopback net, the
verdicts drawn under the summary, equal to `judge` on the observations the
guest's table received (with the guest's seeds), no hindsight line (and the
panel says why), nothing sent to the host for it, and the recorded
observations exactly the seat's own (`State.observation`). A watcher made no
decision: no Analyse. The searches run a few iterations a decision."""

from __future__ import annotations

import json
import random
import re

import pytest

from game.analysis import decision_steps, identity_of, judge
from game.core.transcript import Transcript
from tests.page_kit import ANALYSIS_ITERATIONS as QUICK
from tests.test_online_guest_table import duel_pages, play_until
from tests.test_online_play_page import dialog_html

pytestmark = pytest.mark.usefixtures("quick_analysis")  # a few iterations a decision


def _analysis(guest, hand: int):
    from game.web.online import seat_analysis as sa  # (online play's part)

    return sa.current(guest.page.online.analysis, hand)


def _host_states(pages):
    transcript = Transcript.from_json(pages.host.session.save["transcript"])
    return transcript, transcript.states()


def test_a_guest_analyses_its_round_on_its_own_device_as_judge_does():
    pages, _, guest, guest_screen = duel_pages()
    play_until(pages, guest, lambda: pages.host.session.state.hands_scored >= 1,
               random.Random(4))
    summary = dialog_html(guest_screen)
    assert "Round 1 is over" in summary
    assert 'data-cmd="online-analyse"' in summary and "Analyse this round" in summary
    sent = len(pages.net.sent)
    guest.command("online-analyse", {})
    a = _analysis(guest, 1)
    assert a is not None and a.status == "running" and len(a.steps) >= 3
    panel = dialog_html(guest_screen)
    assert "Round 1 is over" in panel  # under the summary, which stays
    assert f"0 of {len(a.steps)} decisions" in panel and 'id="ga-cancel"' in panel
    assert 'id="analyse-open"' not in panel
    assert guest_screen.focused[-1] == "#ga-cancel"
    assert guest.spawn.run()  # its worker judges, between frames
    a = _analysis(guest, 1)
    assert a.status == "done" and len(a.decisions) == len(a.steps)
    panel = dialog_html(guest_screen)
    assert "Accuracy" in panel and panel.count('class="rv-compare v-') == len(a.decisions)
    assert "this device knows only what you saw" in panel and "With hindsight" not in panel
    # Each verdict opens its sentence ("Blunder: it cost about..."; a fine choice a
    # little below the expert's: "Fine: it cost about..., close to the expert's choice").
    assert not re.search(r"A (fine|inaccuracy|mistake|blunder)\b", panel)
    assert len(pages.net.sent) == sent  # nothing asked of the host, nothing sent
    # The same verdicts as `judge` gives for the observations the guest's table received.
    from game.web.online import seat_analysis as sa  # (online play's part)

    record = guest.page.online.analysis
    screen = guest.page.online
    for d in a.decisions:
        seen = sa.at(record, d.step)
        found = judge(seen.observation, random.Random(sa.seed(screen.game, screen.room, d.step)),
                      QUICK)
        assert (d.best, d.costs) == (found.best, found.costs)
        assert d.chosen == seen.chosen and d.hindsight is None
    # Its decisions are those the host's game has for that seat, in round 1.
    transcript, states = _host_states(pages)
    who = identity_of(states[0], guest.page.online.guest.seat)
    assert [s for s, _ in a.steps] == [s for s, _ in decision_steps(states, who, 1)]
    assert [d.chosen for d in a.decisions] == [transcript.actions[d.step] for d in a.decisions]
    # Next round closes the summary: the verdicts go with it, the table plays on.
    guest.command("online-ack-hand", {})
    assert dialog_html(guest_screen) == ""


def test_cancel_stops_it_and_go_on_finishes_it():
    pages, _, guest, guest_screen = duel_pages()
    play_until(pages, guest, lambda: pages.host.session.state.hands_scored >= 1,
               random.Random(4))
    guest.command("online-analyse", {})
    coro = guest.spawn.waiting.pop()
    while not _analysis(guest, 1).decisions:
        coro.send(None)
    guest.command("online-analysis-cancel", {})
    with pytest.raises(StopIteration):
        coro.send(None)  # it stops at its next look
    a = _analysis(guest, 1)
    assert a.status == "cancelled" and len(a.decisions) == 1
    assert f"Stopped at 1 of {len(a.steps)}" in dialog_html(guest_screen)
    guest.command("online-analyse", {})
    assert guest.spawn.run()
    assert _analysis(guest, 1).status == "done"


def test_the_game_s_summary_offers_it_for_the_last_round_and_a_watcher_gets_none():
    from tests.test_online_watch_page import watcher

    pages, _, guest, guest_screen = duel_pages()
    watching, watching_screen = watcher(pages)
    pages.play()  # (each reads every round's summary and closes it)
    pages.net.pump()
    # A watcher made no decision: its final summary offers no analysis, and asking does nothing.
    seen = dialog_html(watching_screen)
    assert 'data-cmd="online-close-final"' in seen and 'online-analyse' not in seen
    watching.command("online-analyse", {})
    assert watching.page.online.analysis.analyses == () and watching.spawn.waiting == []
    final = dialog_html(guest_screen)
    assert 'data-cmd="online-close-final"' in final and 'data-cmd="online-analyse"' in final
    guest.command("online-analyse", {})
    assert guest.spawn.run()
    hand = pages.host.session.state.hands_scored
    a = _analysis(guest, hand)
    assert a is not None and a.status == "done" and a.hand == hand
    assert "Accuracy" in dialog_html(guest_screen)


@pytest.mark.parametrize("game, setup", [
    ("jekyll-vs-hyde", None),
    pytest.param("dracula", {"dr_bot": "random"}, marks=pytest.mark.slow),  # (the duel: quick)
    pytest.param("jekyll-hyde", {"players": "4", "jh_me": "0", "jh_bot": "random"},  # roles rotate
                 marks=pytest.mark.slow),  # (a whole four-player game: 9 s)
])
def test_the_recorded_decisions_are_the_seats_own_observations(game, setup):
    """Every decision the guest's page kept, in a whole game: the observation
    the host's state gives that seat at that step (nothing more), the action
    the game took there, its player and hand."""
    from tests.test_online_play_page import seated

    if setup is None:
        pages, _, guest, _ = duel_pages()
    else:
        pages = seated(game, setup, ["Ann"])
        guest = pages.guests[0][0]
    pages.play()
    pages.net.pump()
    transcript, states = _host_states(pages)
    record = guest.page.online.analysis
    who = identity_of(states[0], guest.page.online.guest.seat)
    assert record.sent is None and len(record.seen) > 10
    for seen in record.seen:
        state = states[seen.step]
        assert state.identity(state.to_act) == who and seen.player == state.to_act
        assert seen.observation == json.loads(json.dumps(state.observation(state.to_act)))
        assert seen.chosen == transcript.actions[seen.step]
        assert seen.hand == state.hands_scored + 1
    with_choice = [s.step for s in record.seen if len(s.observation["legal"]) > 1]
    assert with_choice == [s for s, _ in decision_steps(states, who)]


def test_the_dialog_stays_scrolled_as_the_verdicts_come_in():
    """The summary's dialog, drawn again with each verdict, keeps the scroll
    the person left it at (game.web.front.screen, on a document)."""
    from tests.front_kit import FrontScreen

    pages, _, guest, _ = duel_pages()
    play_until(pages, guest, lambda: pages.host.session.state.hands_scored >= 1,
               random.Random(4))
    screen = guest.screen = FrontScreen()
    guest.command("online-analyse", {})
    coro = guest.spawn.waiting.pop()
    screen.doc.querySelector("#modal .sheet").scrollTop = 120
    while len(_analysis(guest, 1).decisions) < 2:
        coro.send(None)
    sheet = screen.doc.querySelector("#modal .sheet")
    assert len(sheet.querySelectorAll(".rv-compare")) == 2 and sheet.scrollTop == 120
    guest.command("online-ack-hand", {})
    coro.close()


def test_it_waits_while_the_guests_hint_thinks():
    import dataclasses

    pages, _, guest, _ = duel_pages()
    play_until(pages, guest, lambda: pages.host.session.state.hands_scored >= 1,
               random.Random(4))
    guest.command("online-analyse", {})
    coro = guest.spawn.waiting.pop()
    screen = guest.page.online
    thinking = dataclasses.replace(screen.seat, hint=(screen.guest.state_id, None))
    guest.page = dataclasses.replace(guest.page, online=dataclasses.replace(screen, seat=thinking))
    for _ in range(20):
        coro.send(None)
    assert _analysis(guest, 1).decisions == ()
    screen = guest.page.online
    guest.page = dataclasses.replace(guest.page, online=dataclasses.replace(
        screen, seat=dataclasses.replace(screen.seat, hint=None)))
    with pytest.raises(StopIteration):
        while True:
            coro.send(None)
    assert _analysis(guest, 1).status == "done"


def test_a_reload_mid_round_keeps_the_decisions_taken_before_it():
    from game.web.online import seat_analysis as sa  # (online play's part)
    from tests.page_kit import FramedScreen, items

    pages, _, guest, _ = duel_pages()
    rng = random.Random(4)
    play_until(pages, guest, lambda: len(guest.page.online.analysis.seen) >= 2, rng)
    before = guest.page.online.analysis.seen
    kept = dict(items(guest))
    assert sa.from_kept(kept["jhg.online.decisions"], guest.page.online.room) == before
    pages.guests.pop()
    guest.online.wire.close()  # the tab reloads: its connection goes, the browser keeps
    pages.net.pump()
    again, _ = pages.guest("Ann", stored=kept)
    screen = again.screen = FramedScreen()
    pages.guests[-1] = (again, screen)
    pages.net.pump()  # the token kept rejoins
    assert again.page.online.guest.status == "playing"
    assert again.page.online.analysis.seen == before
    play_until(pages, again, lambda: pages.host.session.state.hands_scored >= 1, rng)
    again.command("online-analyse", {})
    assert again.spawn.run()
    a = _analysis(again, 1)
    assert a.status == "done" and len(a.decisions) == len(a.steps)
    transcript, states = _host_states(pages)
    who = identity_of(states[0], again.page.online.guest.seat)
    assert [s for s, _ in a.steps] == [s for s, _ in decision_steps(states, who, 1)]
    assert {s for s, _ in a.steps} >= {s.step for s in before
                                      if len(s.observation["legal"]) > 1}


def _kept(*seen: list) -> str:
    return json.dumps({"room": "r1", "seen": list(seen)})


GOOD = [3, 1, "H", {"legal": ["a", "b"]}, "a"]


@pytest.mark.parametrize("text", [
    "{[", "[]", '{"room": 5, "seen": []}', '{"room": "r1"}', _kept([3, 1, "H", {}]),
    _kept([-1, 1, "H", {"legal": []}, "a"]), _kept([3, 0, "H", {"legal": []}, "a"]),
    _kept([3, 1, True, {"legal": []}, "a"]), _kept([3, 1, "H", {"legal": "a"}, "a"]),
    _kept([3, 1, "H", {"legal": []}, 7]), _kept(GOOD, GOOD), "x" * 2_000_001])
def test_damaged_kept_decisions_are_refused(text):
    from game.web.online import seat_analysis as sa  # (online play's part)

    assert sa.from_kept(text, "r1") is None
    assert sa.from_kept(_kept(GOOD), "r1") == (sa.Seen(3, 1, "H", {"legal": ["a", "b"]}, "a"),)
    assert sa.from_kept(_kept(GOOD), "r2") == () and sa.from_kept(None, "r1") == ()


def test_past_the_limit_the_oldest_hands_decisions_are_not_kept(monkeypatch):
    from game.web.online import seat_analysis as sa  # (online play's part)

    seen = tuple(sa.Seen(step, 1 + step // 4, "H", {"legal": ["a", "b"]}, "a")
                 for step in range(12))  # hands 1, 2 and 3, four decisions each
    record = sa.SeatAnalysis(seen=seen)
    assert sa.from_kept(sa.kept_text("r1", record), "r1") == seen
    monkeypatch.setattr(sa, "KEPT_LIMIT", len(sa.kept_text("r1", record)) - 1)
    assert sa.from_kept(sa.kept_text("r1", record), "r1") == seen[4:]
    monkeypatch.setattr(sa, "KEPT_LIMIT", len(sa.kept_text("r1", sa.SeatAnalysis())))
    assert sa.from_kept(sa.kept_text("r1", record), "r1") == ()


def test_damaged_kept_decisions_are_told_once_and_the_seat_is_taken_back():
    from tests.page_kit import items
    from tests.test_online_play_page import Pages

    pages = Pages("jekyll-vs-hyde", {"jvh_role": "J", "jvh_bot": "random"})
    pages.host.command("online-open", {})
    guest, _ = pages.guest("Ann")
    guest.command("online-join", {"name": "Ann"})
    pages.net.pump()
    kept = dict(items(guest))
    kept["jhg.online.decisions"] = "{["
    pages.guests.pop()
    guest.online.wire.close()
    pages.net.pump()
    again, screen = pages.guest("Ann", stored=kept)
    pages.net.pump()
    assert [k for k, _ in again.page.notices] == ["notice.decisions_ignored"]
    assert "jhg.online.decisions" not in items(again) and screen.errors == []
    assert again.page.online.guest.status in ("seated", "playing")
