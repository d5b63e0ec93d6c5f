"""Watching an online table in real browsers (the host, a guest and a watcher
in separate contexts of one Chromium, through the local relay, as
tests/browser/test_online_play.py joins them): the watcher opens the host's
watch link, is told what a watcher sees, and follows a duel round on the
guest's own table drawn from the public view: the round's summary, the score
sheet, the cards moving, and every line the host's live region reads out that
every seat hears alike. axe finds no violation on the lobby, the host's, the
guest's or the watcher's table. Screenshots (SCREENSHOTS) of the watch link,
the watcher's lobby and table, at phone and desktop size. A whole Dracula
game, watched (the guest and the watcher each read its final summary and
score sheet) is test_online_relayed.py's, played through the relays."""

from __future__ import annotations

import pytest

from tests.browser.test_axe import Axe, axe_source  # noqa: F401 (a fixture)
from tests.browser.test_online_play import host_and_guests, play, public_lines

pytestmark = pytest.mark.browser


def test_a_watcher_sees_and_hears_a_duel_round_as_the_guest_and_the_host(people, site_url,
                                                                           axe_source):
    host, (guest,) = host_and_guests(people, site_url, "jekyll-vs-hyde",
                                     {"jvh_role": "J", "jvh_bot": "random"}, watch=True)
    link = host.page.get_attribute("#watch-link", "href")
    assert link.startswith(site_url + "?watch=")
    assert host.page.get_attribute("#online-copy-watch", "aria-label") == "Copy the watch link"
    watcher = people("phone", watch=True)
    watcher.open(link + "&lang=en")
    watcher.page.wait_for_selector("#online-watch-intro")
    watcher.shoot("watch-join")
    watcher.page.fill("#online-name", "Wendy")
    watcher.page.click("#online-join")
    watcher.page.wait_for_selector("#online-waiting >> text=You are watching")
    host.page.wait_for_selector("#online-joined >> text=Watching: Wendy")
    watcher.shoot("watch-waiting")
    host.shoot("watch-host-lobby")
    Axe(host.page, axe_source).check("the host's lobby with its watch link")
    Axe(watcher.page, axe_source).check("a watcher's lobby")

    host.page.click("#online-start")
    for person in (guest, watcher):
        person.page.wait_for_selector("#online-bar", timeout=30000)
    for person in (host, guest, watcher):  # every strip names the watchers
        assert "Watching: Wendy" in person.page.inner_text("#online-watchers")
    assert watcher.page.locator("#screen [data-cmd=online-react]").count() == 0
    assert watcher.page.locator("#screen .hand.mine .card").count() == 0  # no hand face up
    watcher.shoot("watch-table")
    host.shoot("watch-host-table")
    for person, where in ((host, "the host's"), (guest, "a guest's"), (watcher, "a watcher's")):
        Axe(person.page, axe_source).check(f"{where} duel table, watched")

    play(host, [guest], lambda: watcher.page.locator("#modal #next-hand").count() > 0
         and guest.page.locator("#modal #next-hand").count() > 0)
    for person in (guest, watcher):  # the round's summary over the hand it sums up
        summary = person.page.inner_text("#modal")
        assert "Round 1 is over" in summary and "Tricks taken" in summary
        person.page.wait_for_function(
            "() => window.heardLines.some(l => l.startsWith('Round over'))")
    told = public_lines(host)
    assert len(told) > 20 and public_lines(guest) == told and public_lines(watcher) == told
    assert watcher.page.locator("#screen [data-cmd=online-hint]").count() == 0
    flights = [p.page.evaluate("window.flights") for p in (host, guest, watcher)]
    assert flights[2] > 20 and flights[2] >= flights[0] * 2 // 3, flights
    watcher.shoot("watch-round-summary")
    Axe(watcher.page, axe_source).check("a watcher's round summary")
    watcher.page.click("#modal #next-hand")
    watcher.page.click("#side [data-panel=scores]")
    watcher.page.wait_for_selector("#side #panel-scores")
    assert watcher.page.locator("#side #panel-scores tr").count() >= 2
    Axe(watcher.page, axe_source).check("a watcher's score sheet")
