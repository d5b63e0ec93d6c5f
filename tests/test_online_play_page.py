"""Play with friends through the pages themselves, in CPython: a host page
and guest pages (the real controllers, tests/page_kit.py) joined by a
loopback wire. The host opens the table from the start screen, a guest
opens the invite, joins, is seated and plays from what its page draws,
clicking parts of its decisions as at a local table; a reload of either
page keeps the table; a dropped guest is stood in for and comes back."""

from __future__ import annotations

import dataclasses
import json
import random
import re
from urllib.parse import unquote
from dataclasses import dataclass, field
from typing import Callable

import pytest

from game.online import guest as g
from game.online import host as h
from game.online import messages as m
from game.online.wire import PeerJoined, PeerLeft, Received, RelaysChanged, WireEvent, WireFailed
from game.web.runtime import online_door as ol
from game.web.model import session as ts
from game.web.model.links import Link
from game.web.online import guest as online_guest
from game.web.runtime.online_door import Decide, Heard
from game.web.model.page import SetupChanged
from game.web.draw.tables import renderer
from game.web.draw.tables.jekyll_hyde import SEAT_NAMES
from tests.online_kit import SECRET
from tests.page_kit import items, make_page


@dataclass
class LoopNet:
    """Pages in rooms: every open wire meets the others of its room; what is
    sent waits in a queue until `pump` (as a network would, never re-entrant)."""
    rooms: dict[str, dict[str, Callable[[WireEvent], None]]] = field(default_factory=dict)
    queue: list[tuple[Callable[[WireEvent], None], WireEvent]] = field(default_factory=list)
    count: int = 0
    opened: list[tuple[str, str]] = field(default_factory=list)
    sent: list[str] = field(default_factory=list)
    code_wires: dict[str, LoopCodeWire] = field(default_factory=dict)
    relays: int = 1  # the relays a page reaches (the loopback's one, or none)

    def code_wire(self) -> LoopCodeWire:
        self.count += 1
        return LoopCodeWire(self, f"c{self.count}")

    def decisions(self) -> int:
        return sum(1 for text in self.sent if json.loads(text).get("type") == "decide")

    def wire(self) -> LoopWire:
        self.count += 1
        return LoopWire(self, f"p{self.count}")

    def pump(self, most: int = 100_000) -> None:
        for _ in range(most):
            if not self.queue:
                return
            heard, event = self.queue.pop(0)
            heard(event)
        raise AssertionError("the pages never stopped talking")


@dataclass
class LoopWire:
    net: LoopNet
    me: str
    room: str | None = None

    def open(self, room: str, secret: str, heard: Callable[[WireEvent], None]) -> None:
        self.room = room
        self.net.opened.append((room, secret))
        # The page's wire counts the relays it reaches, as the browser's does every 2 s.
        self.net.queue.append((heard, RelaysChanged(self.net.relays > 0, self.net.relays, 1)))
        if not self.net.relays:
            self.net.queue.append((heard, WireFailed("no-relay")))
            return
        peers = self.net.rooms.setdefault(room, {})
        for peer, other in peers.items():
            self.net.queue += [(other, PeerJoined(self.me)), (heard, PeerJoined(peer))]
        peers[self.me] = heard

    def send(self, peer: str, text: str) -> None:
        self.net.sent.append(text)
        heard = self.net.rooms.get(self.room or "", {}).get(peer)
        if heard is not None:
            self.net.queue.append((heard, Received(self.me, text)))

    def close(self) -> None:
        peers = self.net.rooms.get(self.room or "", {})
        peers.pop(self.me, None)
        self.net.queue += [(other, PeerLeft(self.me)) for other in peers.values()]


@dataclass
class LoopCodeWire:
    """The wire with no third party, on the loopback: the host's invitation
    code names it and the guest's link; the host's `accept` of the answer
    joins the two pages."""
    net: LoopNet
    me: str
    heard: Callable[[WireEvent], None] | None = None
    links: dict[str, LoopCodeWire] = field(default_factory=dict)  # peer -> the other page
    made: int = 0

    def open(self, room: str, secret: str, heard: Callable[[WireEvent], None]) -> None:
        self.heard = heard
        self.net.opened.append(("", ""))
        self.net.code_wires[self.me] = self

    async def invite(self) -> list[str]:
        self.made += 1
        return [f"link-{self.made}", f"o~loop~{self.me}~{self.made}~127.0.0.1_1"]

    async def answering(self, code: str) -> str:
        _, _, host, n, _ = code.split("~")
        self.net.code_wires[host].links[f"link-{n}"] = self
        self.links["host"] = self.net.code_wires[host]
        return f"a~loop~{self.me}~{n}~127.0.0.1_2"

    def answer(self, code: str):
        if not code.startswith("o~loop~"):
            raise ValueError("not an invitation")
        return self.answering(code)

    def accept(self, peer: str, code: str):
        if not code.startswith("a~loop~") or peer not in self.links:
            raise ValueError("not an answer")

        async def join() -> None:
            guest = self.links[peer]
            self.net.queue += [(self.heard, PeerJoined(peer)), (guest.heard, PeerJoined("host"))]
        return join()

    def send(self, peer: str, text: str) -> None:
        other = self.links.get(peer)
        if other is None:
            return
        self.net.sent.append(text)
        name = "host" if peer != "host" else next(p for p, w in other.links.items() if w is self)
        self.net.queue.append((other.heard, Received(name, text)))

    def close(self) -> None:
        self.heard = None


class Pages:
    """A host page and its guests on one loopback net."""

    def __init__(self, game: str, setup: dict[str, str]) -> None:
        self.net = LoopNet()
        self.now = 0.0
        self.host, self.host_screen, self.host_thinking = self.page()
        self.host.start(None)
        self.host.dispatch(SetupChanged({"game": game, **setup}))
        self.host.command("online-host", {})
        self.guests: list = []

    def page(self, link: Link | None = None, stored: dict[str, str] | None = None,
             lang: str = "en"):
        ctrl, screen, thinking = make_page(stored=stored, link=link, lang=lang)
        ctrl.online.make_wire = self.net.wire
        ctrl.online.make_code_wire = self.net.code_wire
        ctrl.online.now = lambda: self.now
        ctrl.online.grace = 5.0
        return ctrl, screen, thinking

    def screen_html(self, screen) -> str:
        return str(screen.last.regions["screen"])

    def invite(self) -> str:
        """The lobby's invite link (the same link again once the game is on)."""
        if getattr(self, "link", None):
            return self.link
        self.net.pump()  # (the link is shown once the host's page reaches a relay)
        found = re.search(r'id="invite-link" href="[^"?]*\?join=([^"]+)"', self.screen_html(
            self.host_screen))
        assert found is not None
        self.link: str = found.group(1)
        return self.link

    def guest(self, name: str, stored: dict[str, str] | None = None):
        ctrl, screen, thinking = self.page(Link(join=self.invite()), stored)
        ctrl.start(None)
        self.guests.append((ctrl, screen))
        return ctrl, screen

    def play(self, most: int = 20_000) -> None:
        """Everyone plays to the end: each guest clicks the parts of a legal
        action on its own table; the host's bots think; the host's person
        acts and closes each hand's summary."""
        rng = random.Random(4)
        for _ in range(most):
            self.net.pump()
            s = self.host.session
            assert s is not None
            if s.state.over:
                return
            self.now += 1.0  # a second a decision: faster is a flood
            for g, screen in self.guests:  # each friend reads a hand's summary, and closes it
                if 'id="next-hand"' in dialog_html(screen):
                    g.command("online-ack-hand", {})
            guest = next((g for g, _ in self.guests if g.page.online.guest.my_turn), None)
            if guest is not None:
                click_a_legal_action(guest, rng)
            elif s.waiting_for_ack:
                self.host.on_table(ts.AckHand())
            elif s.human_to_act:
                self.host.on_table(ts.Act(rng.choice(s.state.legal_actions())))
            elif s.bots_on_turn:
                assert self.host_thinking.run()
            else:
                assert s.remote_on_turn is not None  # waiting for a friend's message
        raise AssertionError("the game did not end")


def dialog_html(screen) -> str:
    """The dialog over the page as last drawn ("" if none)."""
    dialog = screen.last.dialog
    return "" if dialog is None else str(dialog.markup())


def click_a_legal_action(ctrl, rng: random.Random) -> None:
    """A guest's clicks: the parts of one legal action, one by one, as drawn."""
    action = rng.choice(ctrl.page.online.guest.legal)
    parts = getattr(renderer(ctrl.page.online.game), "parts", lambda a: (a,))(action)
    for part in parts:
        online = ctrl.page.online
        if online.guest.my_turn and part not in online.seat.picked:
            ol.event(ctrl, Decide(None, part))
    if ctrl.page.online.seat.picked:
        ctrl.command("confirm", {})  # at a guest's table: the guest's confirm, sent to the host


def test_host_opens_a_table_a_friend_joins_and_they_play_a_duel_to_the_end():
    pages = Pages("jekyll-vs-hyde", {"jvh_role": "J", "jvh_bot": "random"})
    html = pages.screen_html(pages.host_screen)
    assert 'id="online-contacts"' in html and "nos.lol" in html and not pages.net.opened
    pages.host.command("online-open", {})
    assert len(pages.net.opened) == 1  # contacted only once chosen
    guest, guest_screen = pages.guest("Ann")
    assert 'id="online-join"' in pages.screen_html(guest_screen)
    assert len(pages.net.opened) == 1  # the invite alone contacts nothing
    guest.command("online-join", {"name": "Ann"})
    pages.net.pump()
    assert "Ann" in pages.screen_html(pages.host_screen)  # seated at once in the bot's seat
    assert 'id="online-waiting"' in pages.screen_html(guest_screen)
    pages.host.command("online-start", {})
    pages.net.pump()
    setup = pages.host.session.save["setup"]
    assert setup["remote"] == {"H": "Ann"} and setup["me"] == "J" and setup["no_takebacks"]
    assert 'id="online-bar"' in pages.screen_html(guest_screen)
    # Each table names the other person, not "the bot".
    assert "Hyde (Ann)" in pages.screen_html(pages.host_screen)
    assert "(bot)" not in pages.screen_html(pages.host_screen)
    assert "Jekyll (Host)" in pages.screen_html(guest_screen)
    pages.play()
    assert pages.net.decisions() > 3  # the friend's own clicks played their seat
    assert guest.page.online.guest.transcript == pages.host.session.save["transcript"]
    assert 'id="online-review"' in pages.screen_html(guest_screen)
    guest.command("online-download", {})
    name, text = guest.screen.downloads[-1]
    assert json.loads(text)["actions"] == pages.host.session.save["transcript"]["actions"]


@pytest.mark.slow  # a whole online game
def test_a_dracula_deal_with_a_friend():
    pages = Pages("dracula", {"dr_bot": "random"})
    pages.host.command("online-open", {})
    guest, _ = pages.guest("Bo")
    guest.command("online-join", {"name": "Bo"})
    pages.net.pump()
    pages.host.command("online-start", {})
    pages.play()
    assert pages.host.session.state.over


def seated(game: str, setup: dict[str, str], names: list[str]) -> Pages:
    """The host's table open, each friend joined and seated, the game started."""
    pages = Pages(game, setup)
    pages.host.command("online-open", {})
    for name in names:
        guest, _ = pages.guest(name)
        guest.command("online-join", {"name": name})
        pages.net.pump()
    pages.host.command("online-start", {})
    pages.net.pump()
    return pages


@pytest.mark.slow  # a whole online game
def test_a_werner_game_with_two_friends_a_bot_and_the_host():
    pages = seated("jekyll-hyde", {"players": "4", "jh_me": "0", "jh_bot": "random"},
                   ["Ann", "Bob"])
    setup = pages.host.session.save["setup"]
    assert sorted(setup["remote"].values()) == ["Ann", "Bob"] and len(setup["bots"]) == 1
    # The table names the people as the strip over it does (the bot keeps its seat's name).
    names = pages.host.session.state.to_json()["options"]["names"]
    assert names == ["Host", *[setup["remote"].get(str(i), SEAT_NAMES[i]) for i in (1, 2, 3)]]
    for guest, screen in pages.guests:
        mine = setup["remote"][guest.page.online.guest.seat]
        assert f"{mine} (you)" in pages.screen_html(screen)
    pages.play()
    assert pages.net.decisions() > 10
    for guest, screen in pages.guests:
        assert guest.page.online.guest.transcript == pages.host.session.save["transcript"]


@pytest.mark.slow  # a whole online game
def test_a_guest_who_reloads_takes_the_seat_back_from_the_same_link():
    pages = seated("jekyll-vs-hyde", {"jvh_role": "J", "jvh_bot": "random"}, ["Ann"])
    guest, _ = pages.guests.pop()
    guest.online.wire.close()  # the tab reloads: its connection goes
    pages.net.pump()
    assert "online.dropped" in [key for key, _ in pages.host.page.notices]
    again, screen = pages.guest("Ann", stored=dict(items(guest)))
    pages.net.pump()  # no Join pressed: the token kept in this browser rejoins
    assert again.page.online.guest.status == "playing"
    assert 'id="online-bar"' in pages.screen_html(screen)
    assert screen.last.title == "Jekyll vs Hyde"  # the game played, not the start screen's
    assert pages.host.page.online.room.seat("H").peer is not None
    pages.play()
    assert again.page.online.guest.transcript is not None


@pytest.mark.slow  # a whole online game
def test_a_dropped_guest_is_stood_in_for_after_the_grace_and_gets_the_seat_back():
    pages = seated("jekyll-vs-hyde", {"jvh_role": "H", "jvh_bot": "random"}, ["Ann"])
    guest, _ = pages.guests.pop()
    kept = dict(items(guest))
    guest.online.wire.close()
    pages.net.pump()
    s = pages.host.session
    assert s.save["setup"].get("stood_in", []) == []
    pages.now += 6.0  # past the grace period the test set (5 s)
    ol.tick(pages.host)
    s = pages.host.session
    assert s.save["setup"]["stood_in"] == ["J"] and s.save["setup"]["bots"]["J"] == "random"
    assert "online.stood_in" in [key for key, _ in pages.host.page.notices]
    for _ in range(30):  # the stand-in bot plays the seat meanwhile
        s = pages.host.session
        if s.human_to_act and not s.waiting_for_ack:
            pages.host.on_table(ts.Act(s.state.legal_actions()[0]))
        elif s.bots_on_turn:
            pages.host_thinking.run()
    assert len(pages.host.session.save["transcript"]["actions"]) > 2
    back, _ = pages.guest("Ann", stored=kept)
    pages.net.pump()
    setup = pages.host.session.save["setup"]
    assert setup["stood_in"] == [] and "J" not in setup["bots"]
    assert back.page.online.guest.status == "playing"
    # Only the newest word on Ann stays over the host's table (not a pile of them).
    assert [k for k, words in pages.host.page.notices if words.get("name") == "Ann"] == [
        "online.back"]
    pages.play()


@pytest.mark.slow  # a whole online game
def test_a_reload_of_the_host_page_keeps_the_table_and_the_friends_come_back():
    pages = seated("dracula", {"dr_bot": "random"}, ["Bo"])
    for _ in range(3):
        s = pages.host.session
        if s.human_to_act:
            pages.host.on_table(ts.Act(s.state.legal_actions()[0]))
            pages.net.pump()
    host_items = dict(items(pages.host))
    pages.host.online.wire.close()  # the host's tab reloads
    pages.net.pump()
    guest, screen = pages.guests[0]
    assert guest.page.online.guest.status == "reconnecting"
    assert "Connection lost" in pages.screen_html(screen)
    pages.host, pages.host_screen, pages.host_thinking = pages.page(stored=host_items)
    pages.host.start(None)
    pages.net.pump()
    assert pages.host.page.online is not None and pages.host.page.view == "table"
    assert guest.page.online.guest.status == "playing"
    pages.play()
    assert guest.page.online.guest.transcript == pages.host.session.save["transcript"]


@pytest.mark.slow  # a whole online game
def test_garbage_from_a_stranger_does_not_stop_the_host():
    pages = seated("jekyll-vs-hyde", {"jvh_role": "J", "jvh_bot": "random"}, ["Ann"])
    stranger = pages.net.wire()
    heard: list = []
    room = pages.host.page.online.room.room_id
    stranger.open(room, "wrong", heard.append)
    pages.net.pump()
    host_peer = next(e.peer for e in heard if isinstance(e, PeerJoined))
    for text in ("not json", "{}", '{"type": "decide"}', "x" * 1_000_000,
                 json.dumps({"type": "join", "v": 3, "secret": "nope", "name": "Eve"})):
        stranger.send(host_peer, text)
        pages.net.pump()
    pages.play()
    assert pages.host.session.state.over and pages.host_screen.errors == []


@pytest.mark.slow  # a whole online game
def test_a_refused_message_is_neither_drawn_nor_kept():
    """A flood of bad messages costs the host's page their reading only: no
    drawing and no save for each (a browser test measures the delay)."""
    pages = seated("jekyll-vs-hyde", {"jvh_role": "J", "jvh_bot": "random"}, ["Ann"])
    rogue = pages.net.wire()
    rogue.open(pages.host.page.online.room.room_id, "", lambda event: None)
    pages.net.pump()
    kept: list[str] = []
    keep = pages.host.keep
    pages.host.keep = lambda key, text: (kept.append(key), keep(key, text))
    drawn = len(pages.host_screen.drawn)
    for n in range(100):
        rogue.send("p1", json.dumps({"v": 3, "type": "react", "key": "wow", "n": n}))
    pages.net.pump()
    assert len(pages.host_screen.drawn) == drawn and kept == []
    pages.play()  # and the game goes on
    assert pages.host.session.state.over


@pytest.mark.slow  # a whole online game
def test_an_online_game_is_counted_in_a_bucket_of_its_own():
    from game.web.model import stats as st

    pages = seated("jekyll-vs-hyde", {"jvh_role": "J", "jvh_bot": "random"}, ["Ann"])
    pages.play()
    record = st.load(items(pages.host)[st.KEY])
    assert [g.level for g in record.games] == ["online"]
    assert [b.level for b in st.by_level(record, "jekyll-vs-hyde", ["random"])] == ["online"]
    # The friend's browser counts it too, from its own seat, once.
    guest, _ = pages.guests[0]
    theirs = st.load(items(guest)[st.KEY]).games
    assert [(g.level, g.mode) for g in theirs] == [("online", "standard-H")]
    mine = record.games[0]
    assert {mine.result, theirs[0].result} in ({"won", "lost"}, {"drawn"})
    again, _ = pages.guest("Ann", stored=dict(items(guest)))  # rejoins at the end screen
    pages.net.pump()
    assert again.page.online.guest.transcript is not None
    assert len(st.load(items(again)[st.KEY]).games) == 1


def test_a_refused_decision_is_explained_in_the_guests_own_language():
    pages = Pages("jekyll-vs-hyde", {"jvh_role": "H", "jvh_bot": "random"})
    pages.host.command("online-open", {})
    guest, screen, _ = pages.page(Link(join=pages.invite()), lang="fr")
    guest.start(None)
    pages.guests.append((guest, screen))
    guest.command("online-join", {"name": "Ann"})
    pages.net.pump()
    pages.host.command("online-start", {})
    pages.net.pump()
    assert guest.page.online.guest.my_turn  # Jekyll gives first
    # What no click makes: the host's engine says no.
    guest.run([guest.online.stamp(Heard(g.DecideNow("not-an-action")))])
    guest.redraw()
    pages.net.pump()
    online = guest.page.online
    assert online.guest.errors
    message = re.search(r'id="message"[^>]*>([^<]*)<', pages.screen_html(screen)).group(1)
    assert message and message == online_guest.error_words(guest.page)
    assert message != make_page(lang="en")[0].t(f"error.{online.guest.errors[-1]['code']}")


def test_friends_on_one_network_join_by_codes_with_no_third_party():
    pages = Pages("jekyll-vs-hyde", {"jvh_role": "J", "jvh_bot": "random"})
    pages.host.command("online-open-codes", {})
    html = pages.screen_html(pages.host_screen)
    assert 'id="online-no-third-party"' in html and 'id="invite-link"' not in html
    pages.host.command("online-invite-code", {})
    pages.host_thinking.run()
    link = re.search(r'id="code-link-(link-1)" href="\?join=([^"&]+)&amp;code=([^"]+)"',
                     pages.screen_html(pages.host_screen))
    assert link is not None
    code = unquote(link.group(3))
    guest, screen, thinking = pages.page(Link(join=link.group(2), code=code))
    guest.start(None)
    pages.guests.append((guest, screen))
    guest.command("online-join", {"name": "Ann"})
    thinking.run()
    answer = re.search(r'id="answer-code">([^<]+)<', pages.screen_html(screen)).group(1)
    pages.host.command("online-accept", {"peer": "link-2", "answer": answer})  # no such
    pages.host.command("online-accept", {"peer": "link-1", "answer": "garbage"})
    assert "not valid" in pages.screen_html(pages.host_screen)
    pages.host.command("online-accept", {"peer": "link-1", "answer": answer})
    pages.host_thinking.run()
    pages.net.pump()
    assert 'id="online-waiting"' in pages.screen_html(screen)
    pages.host.command("online-start", {})
    pages.play()
    assert guest.page.online.guest.transcript == pages.host.session.save["transcript"]
    assert all(room == "" for room, _ in pages.net.opened)  # no relay was ever opened


def test_online_play_waits_for_its_modules_before_its_first_step():
    """In the browser they are fetched the first time (game.web.dom.parts)."""
    ctrl, screen, thinking = make_page()
    fetched: list[str] = []

    async def load() -> None:
        fetched.append("online")

    ctrl.online.load = load
    ctrl.start(None)
    ctrl.command("online-host", {})
    assert ctrl.page.online is None and ctrl.page.view == "start"  # not yet here
    thinking.run()
    assert fetched == ["online"] and ctrl.page.online is not None
    assert 'id="online-intro"' in str(screen.last.regions["screen"])
    ctrl.command("online-back", {})
    assert fetched == ["online"] and ctrl.page.view == "start"  # once


def test_a_page_ticks_and_draws_its_table_before_online_play_is_fetched(monkeypatch):
    """The browser's timer ticks every 2 s from the start, and a table is
    drawn: with no online table, nothing of online play's part is imported
    (it is not there yet)."""
    import sys

    import game.web

    ctrl, screen, _ = make_page()
    ctrl.start(None)
    monkeypatch.delattr(game.web, "online", raising=False)
    for name in ("", ".host", ".guest", ".runner", ".state", ".table", ".view"):
        monkeypatch.setitem(sys.modules, f"game.web.online{name}", None)  # (importing it fails)
    drawn = len(screen.drawn)
    ol.tick(ctrl)
    ctrl.command("start", {})  # and the page goes on: a game on the table, drawn
    assert screen.errors == [] and len(screen.drawn) == drawn + 1
    assert ctrl.page.at_table and 'id="online-bar"' not in str(screen.last.regions)


def test_the_lobby_shows_the_whole_invite_link_and_its_qr_code():
    pages = Pages("dracula", {"dr_bot": "random"})
    pages.host.online.address = "https://example.org/cards/"
    pages.host.command("online-open", {})
    pages.net.pump()  # a relay reached
    html = pages.screen_html(pages.host_screen)
    link = re.search(r'id="invite-link" href="([^"]+)"', html).group(1)
    assert link.startswith("https://example.org/cards/?join=dracula.")
    assert '<figure class="online-qr" id="online-qr"><svg' in html
    # An address too long for a QR code (the page's address is known when it opens the table).
    pages = Pages("dracula", {"dr_bot": "random"})
    pages.host.online.address = "https://example.org/" + "x" * 300
    pages.host.command("online-open", {})
    pages.net.pump()
    html = pages.screen_html(pages.host_screen)
    assert 'id="invite-link"' in html and 'id="online-qr"' not in html


def test_the_host_chooses_the_bot_that_stands_in_for_a_friend_who_is_away():
    pages = Pages("jekyll-vs-hyde", {"jvh_role": "H", "jvh_bot": "strong"})
    pages.host.command("online-open", {})
    lobby = pages.screen_html(pages.host_screen)
    # The start screen's strength, at first; the host may change it.
    assert re.search(r'id="online-standin">.*<option value="strong" selected', lobby)
    pages.host.command("online-standin", {"value": "no-such-level"})
    pages.host.command("online-standin", {"value": "easy"})
    assert re.search(r'<option value="easy" selected', pages.screen_html(pages.host_screen))
    guest, _ = pages.guest("Ann")
    guest.command("online-join", {"name": "Ann"})
    pages.net.pump()
    pages.host.command("online-start", {})
    pages.net.pump()
    guest.online.wire.close()
    pages.net.pump()
    pages.now += 6.0
    ol.tick(pages.host)
    setup = pages.host.session.save["setup"]
    assert setup["stood_in"] == ["J"] and setup["bots"]["J"] == "easy"


def test_the_other_friends_are_told_when_one_drops_is_stood_in_for_and_is_back():
    pages = seated("jekyll-hyde", {"players": "4", "jh_me": "0", "jh_bot": "random"},
                   ["Ann", "Bob"])
    (ann, ann_screen), (bob, _) = pages.guests
    kept = dict(items(bob))
    bob.online.wire.close()
    pages.net.pump()
    assert "Bob lost the connection." in pages.screen_html(ann_screen)
    pages.now += 6.0
    ol.tick(pages.host)
    pages.net.pump()
    assert "Bob is still away: a bot plays" in pages.screen_html(ann_screen)
    pages.guests.pop()
    pages.guest("Bob", stored=kept)
    pages.net.pump()
    assert '<p class="online-news" id="online-news" role="status">Bob is back.' in \
        pages.screen_html(ann_screen)


@pytest.mark.slow  # a whole online game
def test_a_three_player_werner_table_is_named_after_its_people():
    pages = seated("jekyll-hyde", {"players": "3", "jh_me": "0", "jh_bot": "random"},
                   ["Ann", "Bob"])
    setup = pages.host.session.save["setup"]
    assert sorted(setup["remote"]) == ["Ann", "Bob"] and setup["remote"]["Ann"] == "Ann"
    (ann, ann_screen), _ = pages.guests
    assert ann.page.online.guest.seat == "Ann"
    table = pages.screen_html(ann_screen)
    assert "Ann (you)" in table and "Betty" not in table and "Christian" not in table
    pages.play()
    assert pages.host.session.state.over
    assert ann.page.online.guest.transcript == pages.host.session.save["transcript"]


# A room or a seat token that fails its checks (issue 55, item 10): ignored,
# told once, and the game goes on; what the browser keeps of each is data from
# outside like a save.
DAMAGED = ("{[", '["not", "a", "room"]', '{"room": 5}', "x" * 300_000)


def test_a_damaged_room_kept_with_the_host_game_is_told_once_and_the_game_goes_on():
    for text in DAMAGED:
        pages = seated("jekyll-vs-hyde", {"jvh_role": "J", "jvh_bot": "random"}, ["Ann"])
        host_items = dict(items(pages.host))
        [key] = [k for k in host_items if k.startswith("jhg.online.") and "seat" not in k]
        host_items[key] = text
        pages.host.online.wire.close()  # the host's tab reloads
        pages.net.pump()
        host, screen, _ = pages.page(stored=host_items)
        host.start(None)
        notices = [k for k, _ in host.page.notices]
        assert notices.count("notice.room_ignored") == 1, (text[:20], notices)
        assert host.page.view == "table" and screen.errors == []
        assert key not in items(host)  # forgotten: the next start says nothing
        assert host.session.save["transcript"] == pages.host.session.save["transcript"]
        assert host.session.state.to_json() == pages.host.session.state.to_json()  # game kept


def test_a_damaged_seat_token_is_told_once_and_the_friend_joins_anew():
    for text in DAMAGED[:3] + ('{"token": 7}', "t" * 5000):
        pages = Pages("jekyll-vs-hyde", {"jvh_role": "J", "jvh_bot": "random"})
        pages.host.command("online-open", {})
        room = pages.host.page.online.room.room_id
        key = f"jhg.online.seat.{room}"
        guest, screen = pages.guest("Ann", stored={key: text})
        pages.net.pump()
        assert [k for k, _ in guest.page.notices] == ["notice.seat_ignored"], text[:20]
        assert key not in items(guest) and screen.errors == []
        assert 'id="online-join"' in pages.screen_html(screen)  # asked, as a new friend
        guest.command("online-join", {"name": "Ann"})
        pages.net.pump()
        assert pages.host.page.online.room.seat("H").name == "Ann"  # seated in the bot's seat
        assert key in items(guest)  # and her new seat kept


@pytest.mark.slow  # a whole online game
def test_a_table_the_guest_cannot_draw_keeps_the_last_good_one_and_the_game_goes_on():
    """Issue 57, item 4: nine malformed tables from the host's peer (a host
    of another version, or a page holding its key). None throws the guest
    out: her page keeps the last table it could draw, says why, and draws
    the next good one; her seat token stays kept."""
    pages = seated("jekyll-vs-hyde", {"jvh_role": "J", "jvh_bot": "random"}, ["Ann"])
    guest, screen = pages.guests[0]
    host_peer, kept = guest.page.online.guest.host, dict(items(guest))
    good = json.loads(next(t for t in reversed(pages.net.sent)
                           if json.loads(t).get("type") == "table"))
    obs = good["observation"]
    spoilt = [{**good, "observation": {**obs, **change}} for change in (
        {"hand": ["ZZ9", *obs["hand"][1:]]}, {"hand": "P1"}, {"hand": 7}, {"hand": None},
        {"trick": None}, {"hand_sizes": "ten"})]
    spoilt += [{**good, "observation": {}}, {**good, "player": {"seat": "H"}}]
    spoilt = [json.dumps({**bad, "state": good["state"] + 1 + i}) for i, bad in enumerate(spoilt)]
    spoilt.append(m.encode(m.Error("must_follow", {}, good["state"])))
    drawn = pages.screen_html(screen)
    for text in spoilt:
        ol.heard(guest, Received(host_peer, text))
        assert screen.errors == [], text[:80]
        html = pages.screen_html(screen)
        assert "this page cannot show" in html, text[:80]
        assert guest.page.view == "online" and 'id="online-bar"' in html
    assert all(card in pages.screen_html(screen) for card in obs["hand"][:3])  # the last good table
    assert drawn.count('class="card') == pages.screen_html(screen).count('class="card')
    pages.play()
    assert guest.page.online.guest.transcript == pages.host.session.save["transcript"]
    seat_token = next(k for k in kept if k.startswith("jhg.online.seat."))
    assert items(guest)[seat_token] == kept[seat_token]


def test_names_are_unique_at_a_table_and_a_seated_friend_keeps_theirs():
    """Issue 57, item 6: "Host", "Hоst" (a Cyrillic о), "ANN" and "Ánn" beside
    an "Ann" are refused, and the friend is asked for another name on the
    same form; a friend seated keeps the name they sat down with (a pile of
    renames is no pile of notices)."""
    pages = Pages("jekyll-hyde", {"players": "4", "jh_me": "0", "jh_bot": "random"})
    pages.host.command("online-open", {})
    ann, _ = pages.guest("Ann")
    ann.command("online-join", {"name": "Ann"})
    pages.net.pump()
    for name, why, retry in (("Host", "is the host’s or a role’s word", "Zoë"),
                             ("Hоst", "is the host’s or a role’s word", "Yann"),
                             ("ANN", "already called ANN", None),
                             ("Ánn", "already called Ánn", None)):
        other, screen = pages.guest(name)
        other.command("online-join", {"name": name})
        pages.net.pump()
        html = pages.screen_html(screen)
        assert 'id="online-join-form"' in html and why in html, (name, html[-400:])
        if retry:
            other.command("online-join", {"name": retry})  # another name, on the same form
            pages.net.pump()
            assert other.page.online.guest.status == "seated", name
    room = pages.host.page.online.room
    assert sorted(s.name for s in room.seats if s.kind == "person") == ["Ann", "Yann", "Zoë"]
    notices = len(pages.host.page.notices)
    for again in ("Anna", "Annie", "Anette"):
        ann.online.wire.send(ann.page.online.guest.host, m.encode(m.Join(
            ann.page.online.guest.secret, again, None)))
        pages.net.pump()
    room = pages.host.page.online.room
    assert "Ann" in [s.name for s in room.seats] and len(pages.host.page.notices) == notices


def test_a_friend_waiting_unseated_renames_once():
    room = h.Room("room-1", SECRET, "dracula", (h.Seat("0", "host", "Hal"), h.Seat("1", "bot")))
    room = dataclasses.replace(room, peers=(h.Peer("ann", "Ann", joined=True),))
    notices = []
    for name in ("Anna", "Annie"):
        room, _, effects = h.reduce(room, Received("ann", m.encode(m.Join(SECRET, name, None))),
                                    0.0)
        notices += [e for e in effects if isinstance(e, h.Notice)]
    assert room.peer("ann").name == "Anna"
    assert notices == [h.Notice("joined", {"name": "Anna", "was": "Ann"})]


@pytest.mark.slow  # a whole online game
def test_a_seat_taken_by_another_tab_is_said_on_the_first_and_play_here_takes_it_back():
    """Issue 57, item 5: Ann opens the link in a second tab (her token kept):
    the seat goes there, the first tab says so with "Play here" (rather than
    "Ann (you) to play" and a refused click), and the host is told; "Play
    here" brings the seat back, and the game plays on from the first tab."""
    pages = seated("jekyll-vs-hyde", {"jvh_role": "J", "jvh_bot": "random"}, ["Ann"])
    first, first_screen = pages.guests[0]
    second, second_screen = pages.guest("Ann", stored=dict(items(first)))
    pages.net.pump()
    assert second.page.online.guest.status == "playing"
    assert first.page.online.guest.status == "elsewhere"
    html = pages.screen_html(first_screen)
    assert "This seat is played in another tab or device." in html and \
        'id="online-play-here"' in html and 'id="online-bar"' not in html
    assert ("online.moved", {"name": "Ann"}) in pages.host.page.notices
    first.command("online-play-here", {})
    pages.net.pump()
    assert first.page.online.guest.status == "playing"
    assert second.page.online.guest.status == "elsewhere"
    pages.guests.pop()  # the second tab only says where the seat is now
    pages.play()
    assert first.page.online.guest.transcript == pages.host.session.save["transcript"]


def test_a_friend_who_opens_the_link_after_the_start_is_told_to_ask_for_the_next_game():
    """Issue 57, item 8: told at once, in words that say what to do."""
    pages = seated("dracula", {"dr_bot": "random"}, ["Bo"])
    late, screen = pages.guest("Zed")
    late.command("online-join", {"name": "Zed"})
    pages.net.pump()
    assert late.page.online.guest.status == "refused"
    assert "ask the host for a seat at the next one" in pages.screen_html(screen)
    assert pages.host.session.save["setup"]["remote"] == {"1": "Bo"}  # nobody moved


@pytest.mark.parametrize("game, setup, seats", [
    ("jekyll-hyde", {"players": "4"}, ["Seat 1", "Seat 2", "Seat 3", "Seat 4"]),
    ("jekyll-hyde", {"players": "3"}, ["Adam", "Betty", "Christian"]),
    ("jekyll-vs-hyde", {}, ["Jekyll", "Hyde"]),
    ("dracula", {}, ["Seat 1", "Seat 2"]),
])
def test_the_lobby_names_each_seat_as_its_game_does(game, setup, seats):
    pages = Pages(game, setup)
    pages.host.command("online-open", {})
    html = pages.screen_html(pages.host_screen)
    assert re.findall(r'<label class="field"><span>([^<]*)</span><select data-cmd="online-seat"',
                      html) == seats


@pytest.mark.slow  # a whole online game
def test_a_guests_table_is_drawn_once_for_each_message_or_click_that_changes_it(monkeypatch):
    """A message is checked by drawing the table it brings (`drawable`); the
    page's draw after it takes that drawing, not a second one."""
    pages = seated("jekyll-vs-hyde", {"jvh_role": "J", "jvh_bot": "random"}, ["Ann"])
    table = renderer("jekyll-vs-hyde")  # Ann plays Hyde, the host Jekyll
    drawn, changes = [], []

    def render(obs, ctx, _render=table.render, **kw):
        drawn.extend(["H"] if ctx.seat == "H" else [])
        return _render(obs, ctx, **kw)
    monkeypatch.setattr(table, "render", render)
    for name in ("_drawable", "_take"):  # a message checked, a click taken
        monkeypatch.setattr(online_guest, name, lambda *a, _f=getattr(online_guest, name): (
            changes.append(1), _f(*a))[1])
    pages.play()
    assert changes and 0 < len(drawn) <= len(changes)
