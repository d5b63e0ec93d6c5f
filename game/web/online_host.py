"""The host's page at an online table: its room (game.online.host), its wire,
its lobby, and the glue between the room and the game on the table.

The game stays the page's own: it is dealt and played by the controller as
any game, with `setup.remote` seats for the friends (no bot thinks for them).
After every move the state is handed to the room (`GameChanged`) and the
room's messages sent; a friend's checked decision (`Decided`) comes back to
the session as `RemoteMoved`; `StandIn`/`HandBack` make a seat a bot's or the
friend's again. The room is kept beside the save (`jhg.online.<game>`), so a
reload of the host's page keeps the table and opens the wire again.
"""

from __future__ import annotations

import dataclasses
import json
import math
import secrets
from urllib.parse import quote
from typing import TYPE_CHECKING, Any, Awaitable, Callable

from game.core.state import BadStateError, State
from game.online import host as h
from game.online import messages as m
from game.online.wire import KeyedWire, PeerPath, RelaysChanged, Wire, WireEvent, WireFailed
from game.web import handover
from game.web import page as pg
from game.web import turn as tn
from game.web.html import EMPTY, Html, html, join
from game.web.online_view import (bar, codes_html, host_intro, lobby, reinvitations,
                                  relay_status, seat_choices, stand_in_choice, turn_settings)
from game.web.stats import new_game_id
from game.web.stats_page import now_ms
from game.web.tables import renderer

if TYPE_CHECKING:
    from game.online.wire import CodeWire
    from game.web.online import Online

ROOM_PREFIX = "jhg.online."
# Notices that only inform (a friend joined, is back): they go by themselves
# after this long (seconds), at the page's next tick.
FLEETING = ("joined", "back")
NOTICE_SECONDS = 8.0


def room_key(game: str) -> str:
    return ROOM_PREFIX + game


def codes_key(game: str) -> str:
    """Kept beside the room of a table joined by codes: a reload opens no relay."""
    return ROOM_PREFIX + "codes." + game


def new_token() -> str:
    """A seat token or a room's secret: random, as messages.TOKEN wants."""
    return secrets.token_urlsafe(18)


def invite_of(game: str, room: str, secret: str, key: str = "") -> str:
    """The invite link's query: the game, the room, its secret and the host's public key."""
    return f"?join={game}.{room}.{secret}" + (f".{key}" if key else "")


class OnlineHost:
    def __init__(self, online: Online, room: h.Room, state: State, seed: int) -> None:
        from game.bots import levels

        self.online, self.ctrl = online, online.ctrl
        self.room, self.state, self.seed = room, state, seed
        self.levels = list(levels(room.game))
        self.wire: Wire | None = None
        self.by_code: CodeWire | None = None  # the wire, when codes are carried by hand
        self.keying = False  # the key pair is being made: the wire opens next
        self.invitations: dict[str, str] = {}  # peer -> its invitation code, until answered
        self.invited_for: dict[str, str] = {}  # peer -> the away friend's seat it is made for
        self.error = ""
        self.heard: list[tuple[str, str]] = []  # (name, reaction key), newest last
        # No relay answers now: the friends here go on directly, nobody new can join.
        self.relays_down = False
        self.reach: tuple[int, int] | None = None  # (relays reached, of all), as last counted
        self.relays_ever = False  # a relay answered since the wire opened
        self.no_relay = False  # none answered in time: no link would work
        # peer -> how its page is reached ("direct" unless the wire says "relayed").
        self.paths: dict[str, str] = {}
        self.waiting_said = ""  # the strip's word on whom the table waits for, as last drawn
        self.fleeting: list[tuple[str, dict[str, str], float]] = []  # (key, words, shown at)
        self.turn: tn.TurnForm = tn.TurnForm()  # the host's own TURN server, before the table opens

    @property
    def game(self) -> str:
        return self.room.game

    # -- the wire -------------------------------------------------------------------

    def open(self, by_code: bool = False) -> None:
        """Contact the relays now (the person chose to), or (`by_code`) no
        third party at all: each friend is joined by codes carried by hand."""
        keys = self.online.keys
        if self.wire is not None or self.keying:
            return
        if not by_code and keys is not None and not self.room.key:
            self.keying = True  # the key pair first: the invite link carries its public half
            self.online.later(self.keyed(keys.make()))
            return
        if by_code:
            self.wire = self.by_code = self.online.make_code_wire()
        else:
            self.wire = self.online.make_wire()
            if isinstance(self.wire, KeyedWire) and self.room.private:
                self.wire.keyed(self.room.key, self.room.private)  # (the relayed path's key signed)
        tn.hand_to(self.wire, tn.stored(self.ctrl))
        self.wire.open(self.room.room_id, self.room.secret, self.online.heard)

    async def keyed(self, made: Awaitable[list[str]]) -> None:
        try:
            key, private = await made
        finally:  # (a failure is said on the page; Open tries again)
            self.keying = False
        self.room = dataclasses.replace(self.room, key=key, private=private)
        self.open()

    async def proving(self, effect: h.Prove) -> None:
        """A page asked this one to prove it is the host: the signed answer."""
        keys, wire = self.online.keys, self.wire
        if keys is not None and wire is not None and self.room.private:
            signature = await keys.sign(self.room.private, effect.text)
            wire.send(effect.peer, m.encode(m.Proof(signature)))

    def keep_turn(self, data: dict[str, str] | None) -> None:
        """The host's own TURN server kept in this browser (None: forgotten)."""
        if data is None:
            self.turn.forget(self.ctrl)
        else:
            self.turn.keep(self.ctrl, data)

    def retry(self, by_code: bool) -> None:
        """No relay answered: the relays tried afresh, or the codes way instead."""
        if not self.no_relay or self.wire is None:
            return
        self.wire.close()
        self.wire = None
        self.reach, self.no_relay = None, False
        self.open(by_code)

    async def invite_by_code(self, seat: str = "") -> None:
        """A new invitation code, for one friend (`seat`: an away friend's,
        at the table: their seat's token takes it back)."""
        if self.by_code is not None:
            peer, code = await self.by_code.invite()
            self.invitations = {**self.invitations, peer: code}
            if seat:
                self.invited_for = {**self.invited_for, peer: seat}

    def accept(self, peer: str, answer: str) -> None:
        """A friend's answer code, pasted by the host: their page connects."""
        self.error = ""
        if self.by_code is None or peer not in self.invitations:
            return
        try:
            step = self.by_code.accept(peer, answer.strip())
        except ValueError:  # mistyped, cut short, or not an answer
            self.error = self.ctrl.t("online.bad_code")
            return
        self.invitations = {p: c for p, c in self.invitations.items() if p != peer}
        self.invited_for = {p: w for p, w in self.invited_for.items() if p != peer}
        self.online.later(step)

    def close(self) -> None:
        self.hear(h.Close())
        if self.wire is not None:
            self.wire.close()
            self.wire = None
        self.ctrl.forget(room_key(self.game))
        self.ctrl.forget(codes_key(self.game))

    def hear(self, event: h.Event | WireEvent) -> None:
        """The room after `event`: its messages sent, its effects carried out."""
        rest = self.take(event)
        if rest is not None:
            rest()

    def take(self, event: h.Event | WireEvent) -> Callable[[], None] | None:
        """The room after `event`, its messages sent; then what is left to do
        on this page, or None when nothing it shows or keeps has changed (a
        refused message: a flood costs its reading, not a drawing and a save each)."""
        if isinstance(event, RelaysChanged):
            return self.relays_changed(event)
        if isinstance(event, PeerPath):  # (the lobby's list says each friend's)
            self.paths[event.peer] = "relayed" if event.relayed else "direct"
            return lambda: None
        if isinstance(event, WireFailed) and event.code == "no-relay":  # said in the lobby
            if self.no_relay:
                return None
            self.no_relay = True
            return lambda: None
        before = self.shown()
        self.room, sends, effects = h.reduce(self.room, event, self.online.now())
        for send in sends:
            if self.wire is not None:
                self.wire.send(send.peer, send.text)
        waiting, gone = self.waiting_words(), self.expired()
        if not effects and self.shown() == before and waiting == self.waiting_said and not gone:
            return None
        self.waiting_said = waiting

        def rest() -> None:
            if gone:
                self.ctrl.dispatch(pg.NoticesGone(tuple(gone)))
            for effect in effects:
                self.carry_out(effect)
            if not self.room.started:
                self.auto_seat()  # (after the messages above: a seat is told last)
            else:
                self.ctrl.keep(room_key(self.game), json.dumps(h.room_to_json(self.room)))
        return rest

    def relays_changed(self, event: RelaysChanged) -> Callable[[], None] | None:
        """How many relays answer (counted from the start, as they change): the
        lobby says it, and shows the link only once one does."""
        before = (self.reach, self.relays_ever, self.relays_down, self.no_relay)
        if event.reached >= 0:
            self.reach = (event.reached, event.of)
        if event.up:
            self.relays_ever, self.no_relay = True, False
        self.relays_down = not event.up and (self.relays_ever or event.reached < 0)
        return None if before == (self.reach, self.relays_ever, self.relays_down,
                                  self.no_relay) else lambda: None

    def waiting_words(self) -> str:
        """Whom the host's table waits for: a friend on turn, or one away, with
        the seconds before a bot takes their seat."""
        s, t = self.ctrl.session, self.ctrl.t
        who = s.remote_on_turn if s is not None and s.save.get("game") == self.game else None
        seat = self.room.seat(who) if who is not None and self.room.started else None
        if seat is None or seat.kind != "person":
            return ""
        if seat.peer is None and seat.away_since is not None and not seat.stood_in:
            left = math.ceil(seat.away_since + self.room.grace - self.online.now())
            return t("online.waiting_away", name=seat.name, seconds=max(left, 0))
        return t("online.waiting_for", name=seat.name)

    def expired(self) -> list[tuple[str, dict[str, str]]]:
        """The fleeting notices shown long enough, forgotten here."""
        now = self.online.now()
        gone = [(key, words) for key, words, at in self.fleeting if now - at >= NOTICE_SECONDS]
        self.fleeting = [n for n in self.fleeting if now - n[2] < NOTICE_SECONDS]
        return gone

    def shown(self) -> tuple[Any, ...]:
        """What of the room this page draws or keeps (not a peer's message count)."""
        room = self.room
        return (room.seats, room.state_id, room.started,
                tuple((p.peer, p.name, p.joined, p.seat) for p in room.peers))

    def carry_out(self, effect: h.Effect) -> None:
        from game.web import session as ts

        ctrl = self.ctrl
        if isinstance(effect, h.Decided):  # applied like a bot's move, unless the game moved on
            if effect.state_id == self.room.state_id and self.room.state is not None:
                ctrl.on_table(ts.RemoteMoved(self.room.state, effect.who, effect.action))
        elif isinstance(effect, (h.StandIn, h.HandBack)):
            self.stood_in(effect.who, effect.level if isinstance(effect, h.StandIn) else None)
        elif isinstance(effect, h.Notice):
            words = {k: str(v) for k, v in effect.params.items()}
            ctrl.dispatch(pg.Notice("online." + effect.key, words))
            if effect.key in FLEETING:
                self.fleeting = [*self.fleeting, ("online." + effect.key, words,
                                                  self.online.now())]
        elif isinstance(effect, h.Prove):
            self.online.later(self.proving(effect))
        else:
            seat = self.room.seat(effect.who)
            self.heard = [*self.heard, (seat.name if seat else effect.who, effect.key)][-3:]

    def stood_in(self, who: str, level: str | None) -> None:
        """A bot of `level` plays `who`'s seat (None: the friend is back)."""
        s = self.ctrl.session
        if s is None or s.save.get("game") != self.game:
            return
        setup = dict(s.save["setup"])
        stood = [w for w in setup.get("stood_in", []) if w != who]
        bots = {k: v for k, v in setup["bots"].items() if k != who}
        if level is not None:
            stood, bots = [*stood, who], {**bots, who: level}
        self.ctrl.update_save(setup={**setup, "stood_in": stood, "bots": bots})
        self.ctrl.persist()
        self.ctrl.schedule()

    def moved(self, after: State) -> None:
        """The game on the table moved: the room tells every friend."""
        s = self.ctrl.session
        if (self.room.started and self.room.state is not after and s is not None
                and s.state is after and s.save.get("game") == self.game):
            self.hear(h.GameChanged(after, s.save["transcript"]["actions"][-1]))

    # -- the lobby ------------------------------------------------------------------

    def auto_seat(self) -> None:
        """A friend who joined and has no seat takes the first seat a bot holds."""
        room = self.room
        if room.started:
            return
        for peer in room.peers:
            if peer.joined and peer.seat is None:
                seat = next((s for s in self.room.seats if s.kind in ("bot", "open")), None)
                if seat is None:
                    return
                self.hear(h.SeatPerson(seat.who, peer.peer, new_token()))

    def choose(self, who: str, value: str) -> None:
        """The lobby's choice for a seat: host, here, peer:<id>, bot:<level>, open."""
        self.error = ""
        name = self.ctrl.t("online.host")
        if value == "host" or value == "here":
            here = sum(1 for s in self.room.seats if s.kind == "host")
            self.hear(h.SeatHost(who, name if value == "host" else
                                 self.ctrl.t("setup.player", n=here + 1)))
        elif value.startswith("peer:"):
            self.hear(h.SeatPerson(who, value[5:], new_token()))
        elif value.startswith("bot:") and value[4:] in self.levels:
            self.hear(h.SeatBot(who, value[4:]))
        else:
            self.hear(h.OpenSeat(who))

    def choose_stand_in(self, level: str) -> None:
        if level in self.levels:
            self.hear(h.ChooseStandIn(level))

    def start(self) -> None:
        """Deal the game with the lobby's seats: it goes on the table as any game."""
        hosts = [s.who for s in self.room.seats if s.kind == "host"]
        if not hosts or any(s.kind == "open" for s in self.room.seats):
            self.error = self.ctrl.t("online.need_seats")
            return
        state, game = self.named(), self.game
        renamed = dict(zip(h.lasting_players(self.state), h.lasting_players(state)))
        if any(old != new for old, new in renamed.items()):  # players that are names
            self.hear(h.RenameSeats(renamed))
        seats = self.room.seats
        hosts = [s.who for s in seats if s.kind == "host"]
        setup: dict[str, Any] = {
            "me": hosts[0], "bots": {s.who: s.level for s in seats if s.kind == "bot"},
            "remote": {s.who: s.name for s in seats if s.kind == "person"},
            "no_takebacks": True, "online": self.room.room_id}
        if len(hosts) > 1:
            setup["people"] = {s.who: s.name for s in seats if s.kind == "host"}
        transcript = {"game": game, "options": state.to_json()["options"], "seed": self.seed,
                      "actions": []}
        self.ctrl.put_on_table(renderer(game), state, {
            "game": game, "setup": setup, "transcript": transcript,
            "log": handover.log_events(state, setup), "seen_hands": 0,
            "id": new_game_id(self.seed, now_ms())})
        self.hear(h.Start(state, transcript))
        if self.by_code is not None:
            self.ctrl.keep(codes_key(game), "1")
        self.ctrl.schedule()

    def named(self) -> State:
        """The game dealt again (the same deal) with the people's names on
        their seats, where the game's table names seats (Werner's: with three
        players the seats themselves are renamed)."""
        from game import new_game

        options = self.state.to_json()["options"]
        people = {s.who: s.name for s in self.room.seats if s.kind in ("host", "person")}
        named = renderer(self.game).online_options(options, people)
        return self.state if named == options else new_game(self.game, named, self.seed)

    def html(self, contacts: Html) -> Html:
        t = self.ctrl.t
        if self.wire is None:
            kept = tn.stored(self.ctrl)
            return host_intro(t, self.game, contacts, turn_settings(
                t, kept.host if kept else "", self.turn.typed, self.turn.error, self.turn.used))
        joined = [p for p in self.room.peers if p.joined]
        names = [f"{p.name} · {t('online.path.' + self.paths.get(p.peer, 'direct'))}"
                 for p in joined]
        rows = []
        for seat in self.room.seats:
            current = {"host": "host" if seat.name == t("online.host") else "here",
                       "person": f"peer:{seat.peer}", "bot": f"bot:{seat.level}"}.get(
                seat.kind, "open")
            people = [(p.peer, p.name) for p in joined]
            rows.append((seat.who, self.seat_word(seat.who), seat_choices(t, current, self.levels, people)))
        invite = self.online.address + invite_of(self.game, self.room.room_id, self.room.secret,
                                                 self.room.key)
        if self.relays_down:
            contacts = join((contacts, html('<p class="online-status" id="online-status" '
                                            'role="status">{}</p>', t("online.relays_down"))))
        if self.by_code is not None:
            codes = [(peer, invite + "&code=" + quote(code, safe=""))
                     for peer, code in self.invitations.items()]
            return lobby(t, invite, rows, names, self.error, EMPTY,
                         codes_html(t, codes), by_code=True, stand_in=self.stand_in_html())
        # The link only once a relay answers: through none, nobody could use it.
        inviting = self.relays_ever and not self.no_relay
        return lobby(t, invite, rows, names, self.error, contacts,
                     self.qr(invite) if inviting else EMPTY, stand_in=self.stand_in_html(),
                     relays=relay_status(t, self.reach, self.no_relay), inviting=inviting)

    def stand_in_html(self) -> Html:
        """Which bot plays a friend's seat while they are away (the start
        screen's strength at first)."""
        return stand_in_choice(self.ctrl.t, self.room.stand_in_level, self.levels,
                               round(self.room.grace))

    def qr(self, invite: str) -> Html:
        """The invite link as a QR code drawn by the page, for a phone's camera
        (only a whole address: a link relative to this page means nothing there)."""
        from game.web.qr import qr_svg

        if not self.online.address:
            return EMPTY
        try:
            drawn = qr_svg(invite, self.ctrl.t("online.qr"))
        except ValueError:  # an address too long for a QR code: the link alone
            return EMPTY
        return html('<figure class="online-qr" id="online-qr">{}</figure>', drawn)

    def seat_word(self, who: str) -> str:
        """A seat as the game's table names it (Werner's by number, the duel's
        by its side, a three-player game's by the name the engine gives it)."""
        return renderer(self.game).seat_word(who, self.ctrl.t)

    def bar(self) -> Html:
        """The strip over the host's table."""
        s, room = self.ctrl.session, self.room
        if s is None or not room.started or s.save.get("game") != self.game:
            return EMPTY
        turn = None if s.state.to_act is None else str(s.state.identity(s.state.to_act))
        return bar(self.ctrl.t, room.entries(), turn, str(s.save["setup"]["me"]), self.heard,
                   self.ctrl.t("online.relays_down") if self.relays_down else "",
                   self.waiting_words(), self.reinvite_html())

    def reinvite_html(self) -> Html:
        """By codes: a new invitation for each friend away (a reload of theirs
        needs a new code: the old one was for a connection that is gone)."""
        if self.by_code is None:
            return EMPTY
        made = {seat: peer for peer, seat in self.invited_for.items()}
        invite = self.online.address + invite_of(self.game, self.room.room_id, self.room.secret,
                                                 self.room.key)
        away = []
        for seat in self.room.seats:
            if seat.kind == "person" and seat.peer is None:
                peer = made.get(seat.who)
                code = self.invitations.get(peer or "")
                link = (peer, invite + "&code=" + quote(code, safe="")) if peer and code else None
                away.append((seat.who, seat.name, link))
        return reinvitations(self.ctrl.t, away)


def new_host(online: Online, setup: dict[str, str]) -> OnlineHost:
    """A room for the start screen's choices: its seats as they chose (me and
    the people here at the host's screen, bots elsewhere), the game dealt."""
    from game import new_game
    from game.bots import levels

    game, t = setup["game"], online.ctrl.t
    parsed = renderer(game).parse_setup(setup, list(levels(game)))
    seed = int(setup["seed"]) if setup.get("seed", "").isdigit() else secrets.randbelow(2**31)
    state = new_game(game, parsed["options"], seed)
    here = handover.people(parsed)
    seats = tuple(h.Seat(who, "host", here.get(who) or t("online.host")) if who in here
                  else h.Seat(who, "bot", level=parsed["bots"].get(who, "random"))
                  for who in h.lasting_players(state))
    grace = h.GRACE_SECONDS if online.grace is None else online.grace
    chosen = [s.level for s in seats if s.kind == "bot"]
    room = h.Room(new_token()[:12], new_token(), game, seats,
                  options=state.to_json()["options"], grace=grace,
                  stand_in_level=chosen[0] if chosen else h.Room.stand_in_level)
    return OnlineHost(online, room, state, seed)


def reopen(online: Online) -> OnlineHost | None:
    """After a reload: the room kept beside the save of the game on the table,
    back with the same seats and tokens, its wire open again."""
    ctrl = online.ctrl
    s = ctrl.session
    if s is None or s.coach is not None or not s.save["setup"].get("remote"):
        return None
    key = room_key(s.save["game"])
    text = ctrl.stored(key)
    if not text:
        return None
    try:
        room = h.room_from_json(json.loads(text), s.state, online.now())
    except Exception as e:  # damaged (stored data is data from outside): told once
        reason = str(e) if isinstance(e, BadStateError) else "not a table kept by this site"
        ctrl.forget(key)
        ctrl.dispatch(pg.Notice("notice.room_ignored", {"reason": reason[:200]}))
        return None  # the seats stay as saved
    host = OnlineHost(online, room, s.state, s.save["transcript"]["seed"])
    # By codes, again by codes: every friend is away, and the table offers each a new invitation.
    host.open(by_code=bool(ctrl.stored(codes_key(s.save["game"]))))
    return host
