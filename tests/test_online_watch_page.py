"""Watchers through the pages themselves (the real controllers on the loopback
net of tests/test_online_play_page.py): the host's lobby and table offer a
watch link; a watcher's page asks for a name, then draws the guest's table
from the public view (no hand face up, nothing to play, no Hint); every strip
names the watchers; the host is told who comes and goes; a refused watcher
reads why. And the tables themselves: every public view of whole games of
all five modes draws, with no hidden card on it."""

from __future__ import annotations

import dataclasses
import random
import re

import pytest

from game import new_game
from game.web.runtime import online_door as ol
from game.web.model import stats as st
from game.web.runtime.online_door import Decide
from game.web.draw.i18n import Translator
from game.web.model.links import Link, read_link
from game.web.online.host import NOTICE_SECONDS
from game.web.draw.tables import TableContext, event_lines, renderer
from tests.page_kit import FramedScreen, items
from tests.test_online_games import CASES, cases
from tests.test_online_guest_table import DUEL, duel_pages, play_until
from tests.test_online_play_page import Pages, dialog_html
from tests.test_public_view import hidden


def screen(page_screen) -> str:
    return str(page_screen.last.regions["screen"])


def watch_value(pages: Pages) -> str:
    """The watch link's `?watch=` value, as the host's page shows it."""
    pages.net.pump()
    found = re.search(r'id="watch-link" href="[^"?]*\?watch=([^"]+)"', screen(pages.host_screen))
    assert found is not None
    return found.group(1)


def watcher(pages: Pages, name: str | None = "Wendy"):
    """A page opened at the watch link (joined as `name`, unless None), its
    frames made as posted."""
    ctrl, _, _ = pages.page(Link(watch=watch_value(pages)))
    ctrl.screen = page_screen = FramedScreen()
    ctrl.start(None)
    if name is not None:
        ctrl.command("online-join", {"name": name})
        pages.net.pump()
    return ctrl, page_screen


def cards_on(markup: str) -> set[str]:
    return set(re.findall(r'data-card="([^"]+)"', markup))


def test_the_host_offers_a_watch_link_in_the_lobby_and_at_the_table():
    pages = Pages("jekyll-vs-hyde", DUEL)
    pages.host.command("online-open", {})
    pages.net.pump()
    lobby = screen(pages.host_screen)
    value = watch_value(pages)
    assert value == pages.invite()  # the invite's value, under another name
    assert read_link([("watch", value)]).watch == value
    copy = re.search(r'<button [^>]*data-copy="#watch-link"[^>]*>', lobby)
    assert copy is not None and 'aria-label="Copy the watch link"' in copy.group(0)
    guest, _ = pages.guest("Ann")
    guest.command("online-join", {"name": "Ann"})
    pages.net.pump()
    pages.host.command("online-start", {})
    pages.net.pump()
    bar = str(pages.host_screen.last.regions["screen"])
    assert f'?watch={value}"' in bar and 'id="online-watch"' in bar


def test_a_strange_watch_value_is_said_and_nothing_is_watched():
    pages = Pages("jekyll-vs-hyde", DUEL)
    ctrl, page_screen, _ = pages.page(read_link([("watch", "dracula.short")]))
    ctrl.start(None)
    assert ctrl.page.online is None
    said = [key for key, _ in ctrl.page.notices]
    assert said == ["notice.bad_watch_link"]  # its own words, not the list of ignored names


def test_a_watcher_joining_mid_game_sees_the_public_log_and_the_table():
    pages, host_screen, guest, _ = duel_pages()
    play_until(pages, guest, lambda: pages.host.page.online.room.state_id >= 6,
               random.Random(3))
    page, page_screen = watcher(pages, None)
    form = screen(page_screen)
    assert "You are invited to watch a table" in form and "never a hidden card" in form
    page.command("online-join", {"name": "Wendy"})
    pages.net.pump()
    room, state = pages.host.page.online.room, pages.host.session.state
    seen = page.page.online.guest
    assert seen.watching and seen.seat is None and seen.status == "playing"
    assert list(seen.log) == [e for _, events in room.public_log for e in events]
    table = screen(page_screen)
    assert 'class="table jvh"' in table and "You are watching" in table
    assert not cards_on(table) & hidden(state)  # no hand face up
    for clickable in ('class="card jvh-card c-', "jvh-pick", 'data-cmd="confirm"'):
        assert not re.search(clickable + r'[^"]*playable', table)
    assert 'data-cmd="online-react"' not in table  # watchers do not speak either
    ol.event(page, Decide(sorted(state.legal_actions())[0], None))  # a click on the table
    assert "You are watching this table: watchers do not play." in screen(page_screen)
    page.command("panel", {"panel": "log"})
    side = str(page_screen.last.regions["side"])
    lines = re.findall(r"<li>(.*?)</li>", side)
    assert len(lines) >= 6 and "Round 1" in side


def test_every_strip_names_the_watchers_and_the_host_is_told_who_comes_and_goes():
    pages, host_screen, guest, guest_screen = duel_pages()
    page, page_screen = watcher(pages)
    for strip in (host_screen, guest_screen, page_screen):
        assert "Watching: Wendy" in screen(strip)
    assert ("online.watcher_joined", {"name": "Wendy"}) in pages.host.page.notices
    page.command("online-leave", {})
    pages.net.pump()
    for strip in (host_screen, guest_screen):
        assert "Watching:" not in screen(strip)
    assert ("online.watcher_left", {"name": "Wendy"}) in pages.host.page.notices
    pages.now += NOTICE_SECONDS  # fleeting, like a friend's join
    ol.tick(pages.host)
    assert not [n for n in pages.host.page.notices if n[0].startswith("online.watcher")]


def test_a_refused_watcher_reads_why():
    pages, _, _, _ = duel_pages()
    host = pages.host.page.online
    pages.host.page = dataclasses.replace(pages.host.page, online=dataclasses.replace(
        host, room=dataclasses.replace(host.room, watchers_max=1)))
    watcher(pages, "Wendy")
    taken, taken_screen = watcher(pages, "Ann")  # Ann has a seat
    assert "already called Ann" in screen(taken_screen)
    assert 'id="online-join-form"' in screen(taken_screen)  # another name, and Watch again
    taken.command("online-join", {"name": "Walt"})
    pages.net.pump()
    assert "This table already has 1 watchers." in screen(taken_screen)


def test_a_watcher_hears_and_sees_a_duel_round_as_the_host_does():
    pages = Pages("jekyll-vs-hyde", DUEL)
    host_screen = pages.host.screen = pages.host_screen = FramedScreen()
    pages.host.command("online-open", {})
    guest, _ = pages.guest("Ann")
    guest.command("online-join", {"name": "Ann"})
    page, page_screen = watcher(pages)  # from the lobby on
    assert "You are watching Host’s table" in screen(page_screen)
    pages.host.command("online-start", {})
    pages.net.pump()
    play_until(pages, guest, lambda: pages.host.session.state.hands_scored >= 1,
               random.Random(4))
    host, heard = host_screen.news, page_screen.news
    assert len(heard) == len(host) > 30
    differ = [(a, b) for a, b in zip(host, heard) if a != b]
    assert len(differ) < len(host) // 4  # only the host's own choices, worded its way
    assert all("you" in a.lower() for a, _ in differ)
    assert heard[-1].startswith("Round over")
    assert len(page_screen.planned) > 10  # the cards fly on the watcher's table too
    summary = dialog_html(page_screen)
    assert "Round 1 is over" in summary and 'data-cmd="online-ack-hand"' in summary
    page.command("panel", {"panel": "scores"})
    side = str(page_screen.last.regions["side"])
    assert 'id="panel-scores"' in side and side.count("<tr") >= 2
    assert 'data-cmd="online-hint"' not in str(page_screen.last.regions["tools"])




@pytest.mark.parametrize("mode", cases())
def test_a_watchers_table_draws_every_public_view_with_no_hidden_card(mode):
    """Random whole games: the public view drawn as a watcher's table (from
    the table's watch seat, a spectator), its summaries, score sheet, log
    and motion; no card hidden from someone not at the table is on it."""
    game, options, _ = CASES[mode]
    table, t = renderer(game), Translator("en")
    state, rng = new_game(game, options, seed=11), random.Random(11)
    log = list(state.public_events())
    while True:
        obs = state.public_observation()
        ctx = TableContext(t=t, seat=table.WATCH_SEAT, log=log, spectator=True)
        drawn = str(table.render(obs, ctx))
        table.score_sheet(obs, ctx)
        if obs.get("history"):  # (finished hands: their cards were all shown)
            table.hand_summary(obs, ctx)
        if obs["over"]:
            final = str(table.final_summary(obs, ctx))
            break
        assert not cards_on(drawn) & hidden(state), mode
        assert not re.search(r'data-act="way:|data-part=|class="[^"]*playable', drawn), mode
        prompt = re.search(r'id="prompt">(.*?)</div>', drawn)
        assert prompt is not None and not re.search(r"\byou", prompt.group(1).lower()), prompt
        assert not re.search(r"\byours?\b", re.sub("<[^>]+>", " ", drawn).lower()), mode
        event_lines(table, state.public_events(), ctx)
        table.motion(state.public_events(), None)
        state = state.apply(rng.choice(state.legal_actions()))
        log += state.public_events()
    verdict = re.search(r'<p class="winner">(.*?)</p>', final)
    assert verdict is None or "you" not in verdict.group(1).lower()  # nobody watching won


def test_a_watcher_reads_the_final_summary_and_reviews_the_game():
    pages = Pages("jekyll-vs-hyde", DUEL)
    pages.host.command("online-open", {})
    guest, _ = pages.guest("Ann")
    guest.command("online-join", {"name": "Ann"})
    pages.net.pump()
    pages.host.command("online-start", {})
    page, page_screen = watcher(pages)
    pages.play()
    pages.net.pump()
    final = dialog_html(page_screen)
    assert "jvh-track" in final and 'data-cmd="online-close-final"' in final
    verdict = re.search(r'<p class="winner">(.*?)</p>', final)
    assert verdict is not None and "you" not in verdict.group(1).lower()
    page.command("online-close-final", {})
    assert 'id="online-review"' in screen(page_screen)
    page.command("online-review", {})
    assert page_screen.reviews and page_screen.reviews[-1][1] is None  # from no seat
    assert page.page.review is not None
    assert st.KEY not in items(page)  # a game watched is no game played: nothing counted
