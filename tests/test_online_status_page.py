"""What an online table's pages say about the connection and whom they wait
for, in CPython through the real pages (tests/test_online_play_page.py's
loopback): the relays reached (n of m) and the link shown only once one
answers, why nothing works when nothing does, a friend invited by codes told
that only the host's device is contacted and invited again after a drop,
the host's table naming the friend it waits for (and the seconds before a
bot takes over), and a join notice that goes by itself."""

from __future__ import annotations

import re
from urllib.parse import unquote

from game.online.wire import PeerLeft, PeerPath, RelaysChanged
from game.web.runtime import online_door as ol
from game.web.model import session as ts
from game.web.model.links import Link
from tests.page_kit import items
from tests.test_online_play_page import Pages, seated

DUEL = ("jekyll-vs-hyde", {"jvh_role": "J", "jvh_bot": "random"})


def text(html: str) -> str:
    """What a person reads: the markup's words, without tags."""
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def test_the_lobby_counts_the_relays_and_shows_the_link_only_once_one_answers():
    pages = Pages(*DUEL)
    pages.host.command("online-open", {})
    lobby = pages.screen_html(pages.host_screen)
    assert 'id="online-relays"' in lobby and "Reaching the relays" in lobby
    assert 'id="invite-link"' not in lobby  # no relay counted yet: no link to send
    pages.net.queue.clear()
    ol.heard(pages.host, RelaysChanged(False, 0, 6))  # the first count, at once
    lobby = pages.screen_html(pages.host_screen)
    assert "0 of 6 answer so far" in text(lobby) and 'id="invite-link"' not in lobby
    ol.heard(pages.host, RelaysChanged(True, 4, 6))
    lobby = pages.screen_html(pages.host_screen)
    assert "Relays reached: 4 of 6." in text(lobby) and 'id="invite-link"' in lobby
    assert "No relay answers right now" not in lobby  # (that is for a relay lost later)


def test_no_relay_reachable_says_why_shows_no_link_and_offers_the_codes_way():
    pages = Pages(*DUEL)
    pages.net.relays = 0
    pages.host.online.address = "https://example.org/"
    pages.host.command("online-open", {})
    pages.net.pump()
    lobby = pages.screen_html(pages.host_screen)
    said = text(lobby)
    assert "No relay can be reached from this network (0 of 1)" in said
    assert "Try another network" in said
    assert 'id="invite-link"' not in lobby and 'id="online-qr"' not in lobby
    assert "online.wire_failed" not in [key for key, _ in pages.host.page.notices]
    pages.host.command("online-retry", {"way": "codes"})
    lobby = pages.screen_html(pages.host_screen)
    assert 'id="online-no-third-party"' in lobby and 'id="online-relays"' not in lobby


def test_a_relay_answering_later_brings_the_link_back():
    pages = Pages(*DUEL)
    pages.net.relays = 0
    pages.host.command("online-open", {})
    pages.net.pump()
    pages.net.relays = 1
    pages.host.command("online-retry", {})  # Try again: the relays afresh
    pages.net.pump()
    lobby = pages.screen_html(pages.host_screen)
    assert "Relays reached: 1 of 1." in text(lobby) and 'id="invite-link"' in lobby
    assert len(pages.net.opened) == 2


def test_the_friends_page_counts_the_relays_and_says_when_no_host_answers():
    pages = Pages(*DUEL)
    pages.host.command("online-open", {})
    pages.invite()
    pages.host.command("online-leave", {})  # the host's page is closed
    pages.net.pump()
    guest, screen = pages.guest("Ann")
    guest.command("online-join", {"name": "Ann"})
    pages.net.pump()
    said = text(pages.screen_html(screen))
    assert "Looking for the host" in said and "Relays reached: 1 of 1." in said
    pages.now += 4.0
    ol.tick(guest)
    assert "No host answers" not in pages.screen_html(screen)  # not yet: it may be slow
    pages.now += 7.0
    ol.tick(guest)
    said = text(pages.screen_html(screen))
    assert "the host’s page may be closed, or the link is from an old table" in said
    assert "Relays reached: 1 of 1." in said


def test_a_friend_who_finds_the_host_is_told_how_the_pages_are_connected():
    pages = Pages(*DUEL)
    pages.host.command("online-open", {})
    guest, screen = pages.guest("Ann")
    guest.command("online-join", {"name": "Ann"})
    pages.net.pump()
    assert "Connected to the host: direct." in text(pages.screen_html(screen))
    assert "Ann · direct" in text(pages.screen_html(pages.host_screen))


def test_each_page_says_what_carries_the_channel_a_turn_server_or_the_relays():
    """A direct channel through the host's TURN server is not called direct:
    the server passes every message on (issue 54, item 3)."""
    pages = Pages(*DUEL)
    pages.host.command("online-open", {})
    guest, screen = pages.guest("Ann")
    guest.command("online-join", {"name": "Ann"})
    pages.net.pump()
    ann = next(p.peer for p in pages.host.page.online.room.peers if p.name == "Ann")
    host = guest.page.online.guest.host
    ol.heard(pages.host, PeerPath(ann, False, turn=True))
    ol.heard(guest, PeerPath(host, False, turn=True))
    assert "Ann · through your TURN server" in text(pages.screen_html(pages.host_screen))
    assert "Connected to the host: through the host’s TURN server." in text(
        pages.screen_html(screen))
    ol.heard(pages.host, PeerPath(ann, True))
    ol.heard(guest, PeerPath(host, True))
    assert "Ann · through the relays" in text(pages.screen_html(pages.host_screen))
    assert "Connected to the host: through the relays." in text(pages.screen_html(screen))


def test_the_host_s_strip_at_the_table_says_how_each_friend_is_reached():
    """A table may mix direct and relayed friends: its strip says which (issue 54, item 1)."""
    pages = seated("jekyll-hyde", {"players": "4", "jh_me": "0", "jh_bot": "random"},
                   ["Ann", "Bob"])
    peers = {p.name: p.peer for p in pages.host.page.online.room.peers}
    ol.heard(pages.host, PeerPath(peers["Bob"], True))
    strip = re.search(r'<section class="online-bar".*?</section>',
                      pages.screen_html(pages.host_screen), re.S)
    assert strip is not None
    seats = {name.strip(): way for name, way in re.findall(
        r'<li class="online-seat kind-person"[^>]*>([^<]+)(?:<span[^>]*>[^<]*</span>)*?'
        r'\s*<span class="online-way">· ([^<]+)</span>', strip.group(0))}
    assert seats == {"Ann": "direct", "Bob": "through the relays"}, strip.group(0)


def test_a_friend_who_reaches_no_relay_is_told_why_in_their_words():
    pages = Pages(*DUEL)
    pages.host.command("online-open", {})
    pages.invite()
    pages.net.relays = 0
    guest, screen = pages.guest("Ann")
    guest.command("online-join", {"name": "Ann"})
    pages.net.pump()
    said = text(pages.screen_html(screen))
    assert "No relay can be reached from this network" in said and "failed" not in said


def codes_table(name: str = "Ann"):
    """A duel by codes: the host invites, the friend answers, the game starts."""
    pages = Pages(*DUEL)
    pages.host.command("online-open-codes", {})
    pages.host.command("online-invite-code", {})
    pages.host_thinking.run()
    guest, screen = codes_guest(pages, "link-1")
    guest.command("online-join", {"name": name})
    answer_back(pages, guest, screen, "link-1")
    pages.host.command("online-start", {})
    pages.net.pump()
    return pages, guest, screen


def codes_guest(pages: Pages, peer: str, stored: dict[str, str] | None = None):
    link = re.search(rf'id="code-link-{peer}" href="\?join=([^"&]+)&amp;code=([^"]+)"',
                     pages.screen_html(pages.host_screen))
    assert link is not None
    guest, screen, thinking = pages.page(Link(join=link.group(1), code=unquote(link.group(2))),
                                         stored)
    guest.start(None)
    pages.guests.append((guest, screen))
    guest.thinking = thinking
    return guest, screen


def answer_back(pages: Pages, guest, screen, peer: str) -> None:
    guest.thinking.run()
    answer = re.search(r'id="answer-code">([^<]+)<', pages.screen_html(screen)).group(1)
    pages.host.command("online-accept", {"peer": peer, "answer": answer})
    pages.host_thinking.run()
    pages.net.pump()


def test_a_codes_invitation_says_nothing_but_the_hosts_device_is_contacted():
    pages = Pages(*DUEL)
    pages.host.command("online-open-codes", {})
    pages.host.command("online-invite-code", {})
    pages.host_thinking.run()
    _, screen = codes_guest(pages, "link-1")
    said = text(pages.screen_html(screen))
    assert "nothing but the host’s device" in said
    assert "STUN server (" not in said and "nos.lol" not in said and "relays (" not in said


def test_a_friend_who_dropped_by_codes_gets_a_new_invitation_for_their_seat():
    pages, guest, _ = codes_table()
    assert 'id="online-reinvite"' not in pages.screen_html(pages.host_screen)
    kept = dict(items(guest))
    guest.online.wire.close()  # her tab reloads: the connection of that code is gone
    ol.heard(pages.host, PeerLeft("link-1"))  # (as the host's link wire says it)
    pages.guests.pop()
    table = pages.screen_html(pages.host_screen)
    assert "Ann is away: send a new invitation for their seat." in text(table)
    pages.host.command("online-invite-code", {"seat": "H"})
    pages.host_thinking.run()
    table = pages.screen_html(pages.host_screen)
    assert "Send this link to Ann" in text(table) and 'id="online-answer-link-2"' in table
    back, screen = codes_guest(pages, "link-2", stored=kept)
    back.command("online-join", {"name": "Ann"})
    answer_back(pages, back, screen, "link-2")
    assert back.page.online.guest.status == "playing" and back.page.online.guest.seat == "H"
    assert pages.host.page.online.room.seat("H").peer == "link-2"
    assert 'id="online-reinvite"' not in pages.screen_html(pages.host_screen)
    pages.play()
    assert back.page.online.guest.transcript == pages.host.session.save["transcript"]


def to_friends_turn(pages: Pages) -> None:
    """The host's own decisions until the game waits for the friend."""
    for _ in range(50):
        pages.net.pump()
        s = pages.host.session
        if s.remote_on_turn is not None:
            return
        if s.waiting_for_ack:
            pages.host.on_table(ts.AckHand())
        elif s.human_to_act:
            pages.host.on_table(ts.Act(s.state.legal_actions()[0]))
        else:
            pages.host_thinking.run()
    raise AssertionError("the friend was never on turn")


def strip(pages: Pages) -> str:
    found = re.search(r'id="online-wait"[^>]*>([^<]*)<', pages.screen_html(pages.host_screen))
    return found.group(1) if found else ""


def test_the_hosts_table_says_whom_it_waits_for_and_when_a_bot_takes_over():
    pages = seated(*DUEL, ["Gina"])
    to_friends_turn(pages)
    assert strip(pages) == "Waiting for Gina…"
    guest, _ = pages.guests.pop()
    guest.online.wire.close()
    pages.net.pump()
    assert strip(pages) == "Waiting for Gina (away, a bot takes over in 5 s)…"  # the grace: 5 s
    pages.now += 2.0
    ol.tick(pages.host)
    assert strip(pages) == "Waiting for Gina (away, a bot takes over in 3 s)…"
    pages.now += 4.0
    ol.tick(pages.host)  # the grace is over: the bot plays, nobody is waited for
    assert pages.host.session.save["setup"]["stood_in"] == ["H"]
    assert "Waiting for Gina" not in strip(pages)


def test_a_join_notice_goes_by_itself_and_a_drop_stays():
    pages = Pages(*DUEL)
    pages.host.command("online-open", {})
    guest, _ = pages.guest("Ann")
    guest.command("online-join", {"name": "Ann"})
    pages.net.pump()
    assert ("online.joined", {"name": "Ann"}) in pages.host.page.notices
    assert "Ann joined the table." in str(pages.host_screen.last.regions)
    pages.now += 4.0
    ol.tick(pages.host)
    assert ("online.joined", {"name": "Ann"}) in pages.host.page.notices
    pages.now += 5.0
    ol.tick(pages.host)
    assert ("online.joined", {"name": "Ann"}) not in pages.host.page.notices
    assert "Ann joined the table." not in str(pages.host_screen.last.regions)


def test_a_reload_of_a_codes_hosts_page_contacts_no_relay_and_invites_each_friend_again():
    pages, guest, _ = codes_table()
    kept, host_items = dict(items(guest)), dict(items(pages.host))
    pages.host.online.wire.close()  # the host's tab reloads
    pages.guests.pop()
    pages.host, pages.host_screen, pages.host_thinking = pages.page(stored=host_items)
    pages.host.start(None)
    pages.net.pump()
    assert all(room == "" for room, _ in pages.net.opened)  # no relay, ever
    assert "New invitation for Ann" in pages.screen_html(pages.host_screen)
    pages.host.command("online-invite-code", {"seat": "H"})
    pages.host_thinking.run()
    back, screen = codes_guest(pages, "link-1", stored=kept)
    back.command("online-join", {"name": "Ann"})
    answer_back(pages, back, screen, "link-1")
    assert back.page.online.guest.status == "playing"
    pages.play()
    assert back.page.online.guest.transcript == pages.host.session.save["transcript"]
