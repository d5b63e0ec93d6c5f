"""A guest's page at an online table: the `Guest` value (game.online.guest)
with its wire, the parts of a decision picked so far, and the table drawn
from what the host sent with the game's own renderer.

A click picks parts of a decision exactly as at a local table
(game.web.choice over the observation's legal actions); a whole decision is
sent to the host, who checks it with the engine. A simultaneous choice the
engine asks the other player for first (the duel's exchange) may be made
at once from the observation's `ahead`: the page holds it, and sends it the
moment the host's table says this seat is asked. Nothing is contacted before
the person presses Join. The seat token is kept in this browser (with the
name), so a reload or the same link takes the seat back.
"""

from __future__ import annotations

import dataclasses
import json
import secrets
from typing import TYPE_CHECKING, Any, Awaitable

from game.core.state import GameError
from game.online import guest as g
from game.online.wire import KeyedWire, Wire, WireEvent
from game.web import page as pg
from game.web import stats as st
from game.web.choice import Choice
from game.web.html import EMPTY, Html, html, join
from game.web.online_view import (bar, guest_answer, guest_end, guest_join, guest_message,
                                  guest_waiting)
from game.web.stats_page import now_ms
from game.web.tables import TableContext, event_lines, explain, renderer

if TYPE_CHECKING:
    from game.web.online import Online

TOKEN_PREFIX = "jhg.online.seat."
TOKEN_LIMIT = 4096  # characters: a token and a name take about a hundred


class OnlineGuest:
    def __init__(self, online: Online, game: str, room: str, secret: str,
                 key: str | None = None, code: str | None = None) -> None:
        self.online, self.ctrl = online, online.ctrl
        self.game, self.room = game, room
        self.table = renderer(game)
        kept = self.kept()
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
                             nonce=secrets.token_urlsafe(18))
        self.verifying: set[tuple[str, str]] = set()  # proofs whose check is under way
        self.wire: Wire | None = None
        self.picked: tuple[str, ...] = ()
        self.held: str | None = None  # a choice made ahead, sent once this seat is asked
        self.message = ""
        self.code = code  # the host's invitation code: no third party
        self.answer: str | None = None  # this page's answer code, once made

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
            if isinstance(self.wire, KeyedWire) and self.guest.key is not None:
                self.wire.keyed(self.guest.key)  # (the relayed path meets the host only)
            self.wire.open(self.room, self.guest.secret, self.online.heard)

    def tick(self, now: float) -> bool:
        """Time passes on this page (its beat to the host); whether what the
        page shows changed (the host has stopped, or started again, answering)."""
        silent = self.guest.host_silent
        self.hear(g.Tick(now))
        return self.guest.host_silent != silent

    def play_here(self) -> None:
        """The seat back to this page from the other tab or device that took it."""
        self.hear(g.PlayHere())

    async def answering(self, answer: Awaitable[str]) -> None:
        self.answer = await answer

    def hear(self, event: g.Event | WireEvent) -> None:
        before = self.guest
        token, transcript = before.token, before.transcript
        self.guest, sends = g.reduce(before, event)
        if not self.drawable(before):  # (a host of another version, or a rogue page)
            self.guest, sends = before, ()
            self.message = self.ctrl.t("online.host_unreadable")
        for peer, text in sends:
            if self.wire is not None:
                self.wire.send(peer, text)
        if self.guest.token is not None and self.guest.token != token:
            self.ctrl.keep(TOKEN_PREFIX + self.room, json.dumps(
                {"token": self.guest.token, "name": self.guest.name, "key": self.link_key}))
        if self.picked and not self.choice.allows(self.picked):
            self.picked = ()  # (picked ahead, they go on once this seat is asked)
        if isinstance(event, g.DecideNow | g.LeaveNow):
            self.picked, self.message = (), ""
        if self.held is not None:
            held = self.held
            if self.guest.my_turn:
                self.held = None
                if held in self.guest.legal:
                    self.hear(g.DecideNow(held))
            elif held not in self.ahead_of(self.guest):
                self.held = None
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

    # -- deciding ---------------------------------------------------------------------

    @staticmethod
    def ahead_of(guest: g.Guest) -> list[str]:
        """The actions the observation offers this seat ahead of being asked."""
        if guest.status != "playing" or guest.my_turn:
            return []
        ahead = (guest.observation or {}).get("ahead", [])
        return [a for a in ahead if type(a) is str] if isinstance(ahead, list) else []

    @property
    def ahead(self) -> list[str]:
        """What this page may choose now ahead of being asked (none once held)."""
        return [] if self.held is not None else self.ahead_of(self.guest)

    @property
    def choice(self) -> Choice:
        actions = self.guest.legal if self.guest.my_turn else self.ahead
        return Choice(actions, self.table.parts)

    def decide(self, act: str | None, part: str | None) -> None:
        """A click on the table: a whole action, or a part of one (as at a local table)."""
        self.message = ""
        if not self.guest.my_turn and not self.ahead:
            self.message = self.ctrl.t("online.not_your_turn")
            return
        if act is not None:
            self.decide_now(act)
            return
        if part is None:
            return
        choice = self.choice
        picked = set(self.picked) ^ {part}
        if not choice.allows(picked):
            picked = {part} if choice.allows({part}) else set()
            if not picked:
                self.message = self.ctrl.t("msg.not_offered")
        action = choice.complete(picked)
        if action is not None and choice.decisive(picked) and not self.table.confirm(action):
            self.decide_now(action)
        else:
            self.picked = tuple(sorted(picked))

    def confirm(self) -> None:
        action = self.choice.complete(self.picked) if self.picked else None
        if action is not None:
            self.decide_now(action)

    def decide_now(self, action: str) -> None:
        """Sent to the host if this seat is asked; else held, if offered ahead."""
        if self.guest.my_turn:
            self.hear(g.DecideNow(action))
        elif action in self.ahead:
            self.held, self.picked = action, ()
        else:
            self.message = self.ctrl.t("msg.not_offered")

    # -- what the page shows ------------------------------------------------------------

    def context(self) -> TableContext:
        guest = self.guest
        ctx = TableContext(t=self.ctrl.t, seat=guest.player, log=list(guest.log))
        # The people at the table by name (their lasting player, as the seats
        # name them); the bots stay "the bot".
        ctx.people = {str(e.get("seat")): str(e.get("name") or self.ctrl.t("online.host"))
                      for e in guest.seats if e.get("kind") in ("host", "person", "away")
                      and str(e.get("seat")) != guest.seat}
        ctx.held = self.held
        if guest.my_turn or self.ahead:
            choice = self.choice
            ctx.ahead = not guest.my_turn
            ctx.picked, ctx.offers = self.picked, choice.offers(self.picked)
            ctx.complete = choice.complete(self.picked) if self.picked else None
        return ctx

    def error_words(self) -> str:
        """The host's last word on this page's decision, in this page's language."""
        if not self.guest.errors:
            return self.message
        error = self.guest.errors[-1]
        t = self.ctrl.t
        key = "online.refused." + str(error["code"])
        if t.has(key):
            return t(key, **{k: str(v) for k, v in error["params"].items()})
        cause = GameError(str(error["code"]), code=str(error["code"]), params=error["params"])
        return explain(self.table, cause, self.guest.observation or {}, self.context())

    def html(self, contacts: Html) -> Html:
        guest, t = self.guest, self.ctrl.t
        if self.wire is None and guest.status == "connecting":
            return guest_join(t, self.game, contacts, guest.name)
        if guest.status == "elsewhere":
            return guest_message(t, "online.elsewhere", {}, html(
                '<div class="buttons"><button type="button" class="primary" '
                'data-cmd="online-play-here" id="online-play-here">{}</button></div>',
                t("notice.play_here")))
        if guest.status == "refused" and g.name_refused(guest):  # another name, and Join
            return guest_join(t, self.game, contacts, guest.name, self.refusal_words())
        if guest.status in ("refused", "failed"):
            refusal = guest.refusal or {"code": "wire_failed", "params": {}}
            code = str(refusal["code"])
            key = {"wire_failed": "online.wire_failed", "bad_code": "online.bad_code"}.get(
                code, "online.refused." + code)
            return guest_message(t, key, refusal["params"])
        if guest.observation is None:
            if guest.status == "host_left":
                return guest_message(t, "online.host_left", {}, guest_end(t, False))
            if guest.status in ("lobby", "seated"):
                return guest_waiting(t, list(guest.seats), guest.seat, guest.host_silent)
            if self.code is not None and guest.status == "connecting":
                return guest_answer(t, self.answer)
            return guest_message(t, "online.connecting", {})
        return self.table_html()

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
        except Exception:
            return False
        return True

    def refusal_words(self) -> str:
        refusal = self.guest.refusal or {}
        params = {k: str(v) for k, v in dict(refusal.get("params") or {}).items()}
        return self.ctrl.t("online.refused." + str(refusal.get("code")), **params)

    def table_html(self) -> Html:
        guest, t = self.guest, self.ctrl.t
        status = {"reconnecting": t("online.reconnecting"), "host_left": t("online.host_left"),
                  "connecting": t("online.reconnecting")}.get(guest.status, "")
        if guest.host_silent:
            status = t("online.host_silent")
        strip = bar(t, list(guest.seats), guest.turn, guest.seat,
                    [(self.name_of(who), key) for who, key in guest.reactions], status)
        drawn = self.table.render(guest.observation or {}, self.context())
        over = guest.transcript is not None
        end = guest_end(t, over) if over or guest.status == "host_left" else EMPTY
        news = EMPTY if guest.news is None else html(
            '<p class="online-news" id="online-news" role="status">{}</p>',
            t(guest.news[0], name=guest.news[1]))
        return html('{}{}{}{}<div id="message" class="message" role="alert" '
                    'aria-live="assertive">{}</div>', strip, news, drawn, end, self.error_words())

    def name_of(self, who: str) -> str:
        entry = next((s for s in self.guest.seats if str(s.get("seat")) == who), {})
        return str(entry.get("name") or self.ctrl.t("online.host"))

    def side(self) -> Html:
        """The log, as this seat saw it."""
        if self.guest.observation is None:
            return EMPTY
        lines = event_lines(self.table, list(self.guest.log)[-150:], self.context())
        return html('<ol class="log" id="log" tabindex="0" aria-label="{}">{}</ol>',
                    self.ctrl.t("menu.log"), join(html("<li>{}</li>", x) for x in lines))

    def record(self) -> str:
        """What this page saw, as a file: the transcript once the game is over."""
        guest = self.guest
        return json.dumps(guest.transcript if guest.transcript is not None else {
            "game": self.game, "seat": guest.seat, "observation": guest.observation,
            "log": list(guest.log)}, ensure_ascii=False, indent=1)
