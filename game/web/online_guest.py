"""A guest's page at an online table: the `Guest` value (game.online.guest)
with its wire, and its table (`SeatTable`, game.web.online_table: drawn,
picked and summed up by the same code as the table here, from what the host
sent).

A click picks parts of a decision exactly as at a local table; a whole
decision is sent to the host, who checks it with the engine. A simultaneous
choice the engine asks the other player for first (the duel's exchange) may
be made at once from the observation's `ahead`: the page holds it, and sends
it the moment the host's table says this seat is asked. The cards move and
the live region reads out the events as at the table here; Hint thinks from
this seat's own observation. Nothing is contacted before
the person presses Join. The seat token is kept in this browser (with the
name), so a reload or the same link takes the seat back.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import secrets
from typing import TYPE_CHECKING, Any, Awaitable

from game.core.state import GameError
from game.online import guest as g
from game.online.wire import KeyedWire, PeerPath, RelaysChanged, Wire, WireEvent
from game.web import online_table as ot
from game.web import page as pg
from game.web import stats as st
from game.web.html import EMPTY, Html, html
from game.web.online_table import SeatTable, Turn
from game.web.online_view import (bar, guest_answer, guest_end, guest_join, guest_message,
                                  guest_waiting)
from game.web.stats_page import now_ms
from game.web.tables import explain, renderer
from game.web.views import GuestParts

if TYPE_CHECKING:
    from game.web.online import Online

TOKEN_PREFIX = "jhg.online.seat."
TOKEN_LIMIT = 4096  # characters: a token and a name take about a hundred
# Relays reached and no host after this long (seconds): the page says why it may be.
HOST_WAIT_S = 10.0
# A wire's failure in the player's words (its code; others: "the connection failed").
FAILURES = {"wire_failed": "online.wire_failed", "bad_code": "online.bad_code",
            "no-relay": "online.no_relay_guest", "no-webrtc": "online.no_webrtc"}


class OnlineGuest:
    def __init__(self, online: Online, game: str, room: str, secret: str,
                 key: str | None = None, code: str | None = None,
                 watching: bool = False) -> None:
        self.online, self.ctrl = online, online.ctrl
        self.game, self.room = game, room
        self.table = renderer(game)
        kept = {} if watching else self.kept()  # (a watcher is never given a seat token)
        # The seat token goes back only to the host it was issued by: kept with
        # the key of the link it was issued through, it is used again only
        # through a link with that key, and never through a link without one
        # where this page can check keys (a page holding the link alone could
        # answer first and take the seat).
        self.link_key = key or ""
        checks = online.keys is not None
        same_host = kept.get("key", "") == self.link_key and (key is not None or code is not None
                                                              or not checks)
        # By codes the one page at the other end is the host's (the code fixes
        # its connection's keys): the key is asked for only in the relays' mesh.
        key = key if code is None and checks else None
        self.guest = g.Guest(secret, str(kept.get("name", "")),
                             kept.get("token") if same_host else None, key=key,
                             nonce=secrets.token_urlsafe(18), watching=watching)
        self.verifying: set[tuple[str, str]] = set()  # proofs whose check is under way
        self.wire: Wire | None = None
        self.seat = SeatTable()
        self.drawn: tuple[tuple[Any, ...], Html] | None = None  # the table as last drawn, and from what
        self.message = ""  # a word on the connection (a host this page cannot read)
        self.code = code  # the host's invitation code: no third party
        self.answer: str | None = None  # this page's answer code, once made
        self.reach: tuple[int, int] | None = None  # (relays reached, of all), as last counted
        self.opened_at: float | None = None  # when the wire opened (the page's clock)
        self.host_missing = False  # relays reached, and no host answered for HOST_WAIT_S
        self.path = "direct"  # how this page reaches the host ("relayed": through the relays)
        self.paths: dict[str, str] = {}  # each page met: how it is reached

    # -- this browser's seat token ----------------------------------------------------

    def kept(self) -> dict[str, Any]:
        """The seat token and name this browser kept for the room; one that
        fails its checks is forgotten and told once (the person joins anew)."""
        key = TOKEN_PREFIX + self.room
        text = self.ctrl.stored(key)
        if not text:
            return {}
        try:
            data = json.loads(text) if len(text) <= TOKEN_LIMIT else None
        except ValueError:
            data = None
        if isinstance(data, dict) and all(isinstance(v, str) for v in data.values()):
            return data
        self.ctrl.forget(key)
        self.ctrl.dispatch(pg.Notice("notice.seat_ignored", {}))
        return {}

    @property
    def rejoins(self) -> bool:
        """A token kept from before: join again at once (the person chose to before)."""
        return self.guest.token is not None

    # -- the wire -----------------------------------------------------------------------

    def join(self, name: str) -> None:
        name = " ".join(name.split())[:24] or self.ctrl.t("online.guest")
        if self.wire is not None and g.name_refused(self.guest):
            self.hear(g.JoinAgain(name))
            return
        self.guest = dataclasses.replace(self.guest, name=name)
        if self.wire is None and self.code is not None:
            wire = self.online.make_code_wire()
            self.wire = wire
            wire.open(self.room, self.guest.secret, self.online.heard)
            try:
                self.online.later(self.answering(wire.answer(self.code)))
            except ValueError:  # mistyped, cut short, or not an invitation
                self.guest = dataclasses.replace(self.guest, status="failed", refusal={
                    "code": "bad_code", "params": {}})
        elif self.wire is None:
            self.wire = self.online.make_wire()
            self.opened_at = self.online.now()
            if isinstance(self.wire, KeyedWire) and self.guest.key is not None:
                self.wire.keyed(self.guest.key)  # (the relayed path meets the host only)
            self.wire.open(self.room, self.guest.secret, self.online.heard)

    def tick(self, now: float) -> bool:
        """Time passes on this page (its beat to the host); whether what the
        page shows changed (the host has stopped, or started again, answering)."""
        silent, missing = self.guest.host_silent, self.host_missing
        self.hear(g.Tick(now))
        self.host_missing = (self.opened_at is not None and self.guest.host is None
                             and self.guest.status == "connecting"
                             and now - self.opened_at >= HOST_WAIT_S)
        return self.guest.host_silent != silent or self.host_missing != missing

    def play_here(self) -> None:
        """The seat back to this page from the other tab or device that took it."""
        self.hear(g.PlayHere())

    async def answering(self, answer: Awaitable[str]) -> None:
        self.answer = await answer

    def hear(self, event: g.Event | WireEvent) -> None:
        if isinstance(event, RelaysChanged) and event.reached >= 0:
            self.reach = (event.reached, event.of)
        if isinstance(event, PeerPath):
            self.paths[event.peer] = "relayed" if event.relayed else "direct"
        before = self.guest
        token, transcript = before.token, before.transcript
        self.guest, sends = g.reduce(before, event)
        self.path = self.paths.get(self.guest.host or "", "direct")
        if not self.drawable(before):  # (a host of another version, or a rogue page)
            self.guest, sends = before, ()
            self.message = self.ctrl.t("online.host_unreadable")
        for peer, text in sends:
            if self.wire is not None:
                self.wire.send(peer, text)
        if self.guest.token is not None and self.guest.token != token:
            self.ctrl.keep(TOKEN_PREFIX + self.room, json.dumps(
                {"token": self.guest.token, "name": self.guest.name, "key": self.link_key}))
        self.table_heard(before)
        if isinstance(event, g.LeaveNow):
            self.message = ""
        for check in set(self.guest.checking) - self.verifying:
            self.verifying.add(check)
            self.online.later(self.verify(*check))
        if self.guest.transcript is not None and self.guest.transcript != transcript:
            self.count()

    def count(self) -> None:
        """The game just over, in this browser's statistics (the online bucket),
        judged by this page's engine from the host's transcript; counted once by
        its id (its deal and room), so a rejoin at the end adds nothing. A
        transcript that does not end its game (a damaged message) counts nothing."""
        stats = self.ctrl.stats
        try:
            game = st.finished_online(self.guest.transcript or {}, self.room, self.guest.seat,
                                   now_ms())
            if game is not None:
                recorded, new = st.record(stats.read(), game)
                if new:
                    stats.write(recorded)
        except GameError:  # not a finished game: the host's next `over` may be
            return
        except Exception as e:  # a host's odd transcript must never take the page down
            self.ctrl.screen.error(f"statistics: {type(e).__name__}: {e}")

    async def verify(self, peer: str, signature: str) -> None:
        """Whether `peer`'s proof is the host's signature for this page's
        challenge and this page's id as the host's wire names it."""
        from game.online.proof import proof_text

        keys, wire, key = self.online.keys, self.wire, self.guest.key
        ok = False
        if keys is not None and wire is not None and key is not None:
            ok = await keys.verify(key, proof_text(self.room, self.guest.nonce, wire.me),
                                   signature)
        self.verifying.discard((peer, signature))
        self.hear(g.Proven(peer, signature, ok))

    def leave(self) -> None:
        if self.wire is not None:
            self.hear(g.LeaveNow())
            self.wire.close()
            self.wire = None

    # -- its table (game.web.online_table) -------------------------------------------

    def table_heard(self, before: g.Guest) -> None:
        """The table after the guest changed: the live region and the cards
        follow the events the host sent; a choice held ahead goes once asked."""
        after = self.guest
        if after.observation is not None and before.observation is None:
            # A first table: read out from the deal; after a rejoin, from now on.
            fresh = before.status in ("lobby", "seated")
            self.ctrl.screen.still()
            self.ctrl.screen.heard(0 if fresh else len(after.log))
        elif before.observation is not None:
            # The cards move for the states after the table shown (a gap a
            # `sync` filled is in the log, never on the table: nothing moves for it).
            shown = max(before.log_ids, default=-1)
            moving = [e for n, events in after.entries if n > shown for e in events]
            if moving:
                self.ctrl.screen.moved(self.game, moving, after.player)
        self.seat = ot.heard(self.seat, before, after, self.table)
        self.take(ot.held_due(self.seat, self.guest))

    def take(self, turn: Turn) -> None:
        """A click's outcome: the table, and the decision sent to the host."""
        self.seat = turn.seat
        if turn.send is not None:
            self.hear(g.DecideNow(turn.send))

    def decide(self, act: str | None, part: str | None) -> None:
        """A click on the table: a whole action, or a part of one (as at a local table)."""
        if act is not None:
            self.take(ot.act(self.seat, self.guest, act))
        elif part is not None:
            self.take(ot.pick(self.seat, self.guest, self.table, part))

    def confirm(self) -> None:
        self.take(ot.confirm(self.seat, self.guest, self.table))

    def clear_choice(self) -> None:
        self.seat = dataclasses.replace(self.seat, picked=())

    def ack_hand(self) -> None:
        self.seat = ot.ack_hand(self.seat, self.guest)

    def close_final(self) -> None:
        self.seat = dataclasses.replace(self.seat, closed_final=True)

    def ask_hint(self) -> None:
        """Hint for this seat's decision, thought from its own observation only."""
        guest = self.guest
        if not ot.asked(self.seat, guest) or self.seat.hint is not None:
            return
        self.seat = dataclasses.replace(self.seat, hint=(guest.state_id, None))
        self.ctrl.spawn(self.hinting(guest.state_id, dict(guest.observation or {})))

    async def hinting(self, state_id: int, observation: dict[str, Any]) -> None:
        from game.web.hint import Hint, hint_rng
        from game.web.thinking import SLICE

        try:
            hint = Hint(observation, hint_rng(self.room, state_id))
            while not hint.done():
                hint.step(SLICE)
                await asyncio.sleep(0)
                if self.seat.hint != (state_id, None):
                    return  # the table moved on (or the page left it): the hint is moot
            action: str | None = hint.best()
        except Exception as e:  # a hint must never take the page down
            self.ctrl.screen.error(f"hint error: {type(e).__name__}: {e}")
            action = None

        def ready() -> None:
            if self.seat.hint == (state_id, None):
                self.seat = dataclasses.replace(
                    self.seat, hint=None if action is None else (state_id, action))
        self.ctrl.guarded(lambda: self.ctrl.change(ready))

    # -- what the page shows ------------------------------------------------------------

    def error_words(self) -> str:
        """The host's last word on this page's decision, in this page's language;
        else the table's own message."""
        t = self.ctrl.t
        if not self.guest.errors:
            return self.message or ot.message_words(self.seat, self.guest, self.table, t)
        error = self.guest.errors[-1]
        key = "online.refused." + str(error["code"])
        if t.has(key):
            return t(key, **{k: str(v) for k, v in error["params"].items()})
        cause = GameError(str(error["code"]), code=str(error["code"]), params=error["params"])
        return explain(self.table, cause, self.guest.observation or {},
                       ot.context(self.seat, self.guest, self.table, t))

    def html(self, contacts: Html) -> Html:
        guest, t = self.guest, self.ctrl.t
        if self.wire is None and guest.status == "connecting":
            return guest_join(t, self.game, contacts, guest.name, watching=guest.watching)
        if guest.status == "elsewhere":
            return guest_message(t, "online.elsewhere", {}, html(
                '<div class="buttons"><button type="button" class="primary" '
                'data-cmd="online-play-here" id="online-play-here">{}</button></div>',
                t("notice.play_here")))
        if guest.status == "refused" and g.name_refused(guest):  # another name, and Join
            return guest_join(t, self.game, contacts, guest.name, self.refusal_words(),
                              watching=guest.watching)
        if guest.status in ("refused", "failed"):
            refusal = guest.refusal or {"code": "wire_failed", "params": {}}
            code = str(refusal["code"])
            key = FAILURES.get(code, "online.refused." + code)
            return guest_message(t, key, refusal["params"])
        if guest.observation is None:
            if guest.status == "host_left":
                return guest_message(t, "online.host_left", {}, guest_end(t, False))
            if guest.status in ("lobby", "seated"):
                return guest_waiting(t, list(guest.seats), guest.seat, guest.host_silent,
                                     self.path, watching=guest.watching)
            if self.code is not None and guest.status == "connecting":
                return guest_answer(t, self.answer)
            return self.looking()
        return self.table_html()

    def looking(self) -> Html:
        """Looking for the host: how many relays answer, whether the host was
        found, and (nobody answering this link) why that may be."""
        t, guest = self.ctrl.t, self.guest
        key = ("online.host_found" if guest.host is not None or guest.checking
               else "online.host_missing" if self.host_missing else "online.connecting")
        reach = EMPTY if self.reach is None else html(
            '<p class="online-status" id="online-relays">{}</p>',
            t("online.guest_relays", reached=self.reach[0], of=self.reach[1]))
        return guest_message(t, key, {}, reach)

    def drawable(self, before: g.Guest) -> bool:
        """Whether the table as the host sent it now can be drawn: its messages
        pass their checks (game.online.messages), but only the game's own
        renderer knows every card and count. A table that cannot be drawn is
        not taken: the last good one stays on screen."""
        now = self.guest
        if now.observation is None or all(a is b for a, b in (
                (now.observation, before.observation), (now.log, before.log),
                (now.seats, before.seats), (now.player, before.player),
                (now.errors, before.errors))):
            return True
        try:
            self.table_html()
            self.side()
            self.parts()
        except Exception:
            return False
        return True

    def refusal_words(self) -> str:
        refusal = self.guest.refusal or {}
        params = {k: str(v) for k, v in dict(refusal.get("params") or {}).items()}
        return self.ctrl.t("online.refused." + str(refusal.get("code")), **params)

    def table_html(self) -> Html:
        # A message is checked by drawing its table (`drawable`): the page's
        # draw after it takes that drawing, not a second one.
        inputs = (self.guest, self.seat, self.ctrl.t, self.ctrl.page.prefs, self.error_words())
        if self.drawn is None or not all(a is b or (isinstance(b, str) and a == b)
                                         for a, b in zip(self.drawn[0], inputs)):
            self.drawn = (inputs, self.draw_table())
        return self.drawn[1]

    def draw_table(self) -> Html:
        guest, t = self.guest, self.ctrl.t
        status = {"reconnecting": t("online.reconnecting"), "host_left": t("online.host_left"),
                  "connecting": t("online.reconnecting")}.get(guest.status, "")
        if guest.host_silent:
            status = t("online.host_silent")
        strip = bar(t, list(guest.seats), guest.turn, guest.seat,
                    [(self.name_of(who), key) for who, key in guest.reactions], status,
                    watchers=list(guest.watchers), watching=guest.watching)
        over = guest.transcript is not None
        end = guest_end(t, over) if over or guest.status == "host_left" else EMPTY
        news = EMPTY if guest.news is None else html(
            '<p class="online-news" id="online-news" role="status">{}</p>',
            t(guest.news[0], name=guest.news[1]))
        return ot.screen(self.ctrl.page, self.seat, guest, self.table, strip + news, end,
                         self.error_words())

    def name_of(self, who: str) -> str:
        entry = next((s for s in self.guest.seats if str(s.get("seat")) == who), {})
        return str(entry.get("name") or self.ctrl.t("online.host"))

    def side(self) -> Html:
        """The log, the last trick and the score sheet, as this seat saw them."""
        if self.guest.observation is None:
            return EMPTY
        return ot.side(self.ctrl.page, self.seat, self.guest, self.table)

    def at_table(self) -> bool:
        """Its table is on the screen (the observation came, the page can draw it)."""
        guest = self.guest
        return (guest.observation is not None and guest.status not in ("elsewhere", "refused",
                                                                         "failed")
                and not (self.wire is None and guest.status == "connecting"))

    def parts(self) -> GuestParts | None:
        return ot.parts(self.ctrl.page, self.seat, self.guest, self.table) \
            if self.at_table() else None

    def record(self) -> str:
        """What this page saw, as a file: the transcript once the game is over."""
        guest = self.guest
        return json.dumps(guest.transcript if guest.transcript is not None else {
            "game": self.game, "seat": guest.seat, "observation": guest.observation,
            "log": list(guest.log)}, ensure_ascii=False, indent=1)
