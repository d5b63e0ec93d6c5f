"""A guest's table is the table here: the same news for the live region, the
cards moving, the hand's and the game's summary, the score sheet and Hint
(from the guest's own observation), through the real host and guest pages on
the loopback net of tests/test_online_play_page.py."""

from __future__ import annotations

import random
import re

import pytest

from game.online.messages import REACTIONS
from game.web.runtime import online_door as ol
from game.web.model import session as ts
from game.web.runtime.online_door import Decide
from game.web.model.page import SetLanguage
from game.web.draw.tables import renderer
from tests.page_kit import FramedScreen
from tests.test_online_play_page import Pages, click_a_legal_action, dialog_html

DUEL = {"jvh_role": "J", "jvh_bot": "random", "seed": "21"}  # a deal whose first round does not end the game


def duel_pages() -> tuple[Pages, FramedScreen, object, FramedScreen]:
    """A host (Jekyll) and a friend (Hyde) at a duel, each page's frames made as posted."""
    pages = Pages("jekyll-vs-hyde", DUEL)
    host_screen = pages.host.screen = pages.host_screen = FramedScreen()
    pages.host.command("online-open", {})
    guest, _ = pages.guest("Ann")
    guest_screen = guest.screen = FramedScreen()
    pages.guests[-1] = (guest, guest_screen)
    guest.command("online-join", {"name": "Ann"})
    pages.net.pump()
    pages.host.command("online-start", {})
    pages.net.pump()
    return pages, host_screen, guest, guest_screen


def play_until(pages: Pages, guest, done, rng: random.Random) -> None:
    """Both people play (each clicks a legal action on their own table) until `done()`."""
    for _ in range(2_000):
        pages.net.pump()
        if done():
            return
        s = pages.host.session
        if guest.page.online.guest.my_turn:
            click_a_legal_action(guest, rng)
        elif s.human_to_act:
            pages.host.on_table(ts.Act(rng.choice(s.state.legal_actions())))
        else:
            raise AssertionError("nobody to play")
    raise AssertionError("never done")


def test_a_guest_hears_and_sees_a_duel_round_as_the_host_does():
    pages, host_screen, guest, guest_screen = duel_pages()
    play_until(pages, guest, lambda: pages.host.session.state.hands_scored >= 1,
               random.Random(4))
    host, heard = host_screen.news, guest_screen.news
    # The same events, in the same order; only a seat's own choices are worded its way.
    assert len(heard) == len(host) > 30
    differ = [(a, b) for a, b in zip(host, heard) if a != b]
    assert len(differ) < len(host) // 4
    assert all("you" in a.lower() + b.lower() for a, b in differ)
    assert heard[-1].startswith("Round over")
    # The cards fly on the guest's table as on the host's.
    assert len(guest_screen.planned) > 20
    assert abs(len(guest_screen.planned) - len(host_screen.planned)) <= 4
    # The round's summary over the hand it sums up, as the host has it.
    summary = dialog_html(guest_screen)
    assert "Round 1 is over" in summary and "jvh-track" in summary
    assert 'data-cmd="online-ack-hand"' in summary
    assert "Round 1 is over" in dialog_html(host_screen)
    # Its side panel has the host's tabs: the score sheet too.
    guest.command("panel", {"panel": "scores"})
    side = str(guest_screen.last.regions["side"])
    assert 'role="tablist"' in side and 'id="panel-scores"' in side
    assert side.count("<tr") >= 2  # the rounds table: a heading and round 1
    guest.command("online-ack-hand", {})
    assert dialog_html(guest_screen) == ""


@pytest.mark.slow  # a whole online game
def test_a_guest_reads_the_final_summary_and_closes_it():
    pages, _, guest, guest_screen = duel_pages()
    pages.play()  # (each reads every round's summary and closes it)
    pages.net.pump()
    final = dialog_html(guest_screen)
    assert "jvh-track" in final and 'id="next-hand"' not in final
    assert 'data-cmd="online-close-final"' in final and 'id="review-open"' in final
    guest.command("online-close-final", {})
    assert dialog_html(guest_screen) == ""
    assert 'id="online-review"' in str(guest_screen.last.regions["screen"])
    # The way back to the summary, and to the analysis of the last round under it.
    tools = str(guest_screen.last.regions["tools"])
    assert 'data-cmd="online-open-final"' in tools and "Game summary" in tools
    guest.command("online-open-final", {})
    again = dialog_html(guest_screen)
    assert again == final and 'data-cmd="online-analyse"' in again
    assert 'online-open-final' not in str(guest_screen.last.regions["tools"])


def test_a_guests_hint_thinks_from_its_own_observation(monkeypatch):
    import game.web.runtime.hint as hint_module

    seen = []
    real = hint_module.Hint

    class Watched(real):  # type: ignore[misc, valid-type]
        def __init__(self, observation, rng, **kw):
            seen.append(observation)
            # Its clock is the test's: the 1 s budget passes in a few hundred readings.
            ticks = iter(range(10**9))
            super().__init__(observation, rng, **{"clock": lambda: next(ticks) / 200, **kw})

    monkeypatch.setattr(hint_module, "Hint", Watched)
    pages, _, guest, guest_screen = duel_pages()
    play_until(pages, guest, lambda: guest.page.online.guest.my_turn, random.Random(6))
    seat = guest.page.online.guest
    assert 'data-cmd="online-hint"' in str(guest_screen.last.regions["tools"])
    guest.command("online-hint", {})
    assert "Thinking" in str(guest_screen.last.regions["tools"])
    assert guest.spawn.run()
    tools = str(guest_screen.last.regions["tools"])
    action = re.search(r'id="hint-text" role="status" data-action="([^"]+)"', tools)
    assert action is not None and action.group(1) in seat.legal
    assert seen == [seat.observation]  # this seat's observation, never the host's state
    assert guest_screen.last.hinted[0] == action.group(1)  # its card ringed on the table


def test_the_quick_reactions_say_what_they_do_in_every_language():
    for lang, words in (("en", "Say to the table: Hello!"), ("de", "Dem Tisch sagen: Hallo!")):
        pages = Pages("jekyll-vs-hyde", DUEL)
        pages.host.dispatch(SetLanguage(lang))
        pages.host.command("online-open", {})
        guest, guest_screen = pages.guest("Ann")
        guest.command("online-join", {"name": "Ann"})
        pages.net.pump()
        pages.host.command("online-start", {})
        pages.net.pump()
        for screen in (pages.host_screen, guest_screen):
            markup = str(screen.last.regions["screen"])
            buttons = re.findall(r'<button [^>]*data-cmd="online-react"[^>]*>', markup)
            assert len(buttons) == len(REACTIONS)
            for button in buttons:
                label = re.search(r'aria-label="([^"]+)"', button)
                title = re.search(r'title="([^"]+)"', button)
                assert label is not None and title is not None and label.group(1) == title.group(1)
        if lang == "de":
            assert words in str(pages.host_screen.last.regions["screen"])


def test_escape_drops_the_parts_a_guest_picked():
    from game.web.runtime.gestures import carry_out

    pages, _, guest, guest_screen = duel_pages()
    rng = random.Random(7)
    table = renderer(guest.page.online.game)
    for _ in range(200):  # to a decision of several clicks (the exchange's cards to give)
        play_until(pages, guest, lambda: guest.page.online.guest.my_turn, rng)
        several = [a for a in guest.page.online.guest.legal if len(table.parts(a)) > 1
                   or table.confirm(a)]
        if several:
            break
        click_a_legal_action(guest, rng)
    ol.event(guest, Decide(None, table.parts(several[0])[0]))
    assert guest.page.online.seat.picked and 'aria-pressed="true"' in str(
        guest_screen.last.regions["screen"])
    carry_out(guest, {"kind": "escape"})
    assert guest.page.online.seat.picked == ()
