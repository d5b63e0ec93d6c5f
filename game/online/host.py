"""The host's table as one value, changed only by `reduce`.

A `Room` holds what the host's page knows of an online table besides the
game itself: its id and secret, the game and its options, every seat (the
host's own people, remote people with their seat token and their peer or
the time they went away, bots, open seats), the peers that knocked, each
peer's message count in the current rate window, and what each remote seat
was last sent. `reduce(room, event, now)` takes a wire event, a command of
the host's lobby, the game's new state or a tick, and returns the next room,
the messages to send (`Send`) and what the page must do (`Decided`,
`StandIn`, `HandBack`, `Notice`, `ShowReaction`).

The game stays the page's: a remote seat's decision comes out as `Decided`
(the page applies it through its session like a bot's move, and drops it if
the game has moved on), and the page hands every new state back in with
`GameChanged`. What a remote seat is sent comes from that state's
`observation(seat)` and `events(seat)` only: never the seed, the full state
or the transcript before the game is over (game.online.messages).

Undo is not offered at an online table: a decision that others have seen is
not taken back.

A table never stalls in silence: every page beats every `beat` seconds
(`m.Beat`, `m.HostBeat`); a seated friend not heard for `silence` seconds is
away as if their connection had dropped (the grace period, then the
stand-in), and gets the seat back by speaking again on the same connection.
The host's beat carries its newest state id, and a guest that sees a gap in
the update numbers asks for what it missed (`m.Sync`); a seat the game has
waited on for `resend` seconds is sent its table again.

A watcher (`m.Watch`: the secret and a name, at most `watchers_max` of them)
asks for no seat and is never given one: it is sent the lobby before the
start, then `m.Watching`, built from `public_observation()` and the public log
(`public_events()` of every state by state id, whole on joining), so no
hidden card reaches it; its `decide` or `react` is refused, and it leaves by
leaving.
"""

from __future__ import annotations

import dataclasses
import hmac
import re
import unicodedata
from dataclasses import dataclass, field
from typing import Any, Union

from game.core.state import BadStateError, GameError, State
from game.core.validate import (at, fail, read_bool, read_choice, read_int, read_list,
                                read_object, read_str)
from game.online import messages as m
from game.online import proof
from game.online.wire import PeerJoined, PeerLeft, PeerPath, Received, RelaysChanged, WireFailed

# Names no friend may take: the host's word in each language, and the roles.
RESERVED_NAMES = frozenset({"host", "hote", "gastgeber", "ospite", "bot", "jekyll", "hyde"})
# Letters of other scripts that look like Latin ones, folded before names are compared.
LOOKALIKES = str.maketrans(dict(zip("аеорсухіјѕһԁӏԛԝνοαρτυκιεχ", "aeopcyxijshdlqwvoaptukiex")))


def name_key(name: str) -> str:
    """A name as two names are told apart at a table: case, accents, width,
    spacing and look-alike letters of other scripts folded.

    >>> name_key("Hоst") == name_key("HOST") == name_key("Hôst ") == "host"
    True
    """
    folded = unicodedata.normalize("NFKD", name.casefold())
    folded = "".join(c for c in folded if not unicodedata.combining(c))
    return " ".join(folded.translate(LOOKALIKES).split())


GRACE_SECONDS = 60.0  # an away person's seat waits this long before a bot plays it
BEAT_SECONDS, SILENT_SECONDS = m.BEAT_SECONDS, m.SILENT_SECONDS
RATE_LIMIT = 20  # messages a peer may send in one window; more is a flood
RATE_WINDOW = 10.0  # seconds
WATCHERS_MAX = 8  # watchers at one table: each is sent every update


@dataclass(frozen=True)
class Seat:
    """One seat: `who` is the engine's lasting player as text (the seat for
    most games; with 3 players a name, since seats change hands)."""

    who: str
    kind: str = "open"  # host (a person at the host's screen), person (remote), bot, open
    name: str = ""
    level: str = ""  # a bot's level; an away person's stand-in's while it plays
    token: str = ""  # a remote person's seat token
    peer: str | None = None  # the remote person's connection now
    away_since: float | None = None  # when they dropped (None: here)
    stood_in: bool = False  # the host's stand-in bot plays for them now

    def entry(self) -> dict[str, Any]:
        """The seat as the guests see it (no token, no peer): an away person's
        level is that of the bot standing in, if one does."""
        kind = "away" if self.kind == "person" and self.peer is None else self.kind
        level = self.level if self.kind == "bot" or self.stood_in else ""
        return {"seat": self.who, "kind": kind, "name": self.name, "level": level}


@dataclass(frozen=True)
class Peer:
    """A connection that knocked: `name` once it joined with the secret,
    `seat` once the host seated it."""

    peer: str
    name: str = ""
    joined: bool = False
    seat: str | None = None
    window_start: float = 0.0
    count: int = 0  # messages in the window starting at `window_start`
    answered: int = -1  # the last state id it decided for (a replay is refused)
    renamed: bool = False  # a joined peer may change its name once, before it is seated
    heard_at: float = 0.0  # when its last message came (its beats: it is alive)
    watching: bool = False  # a watcher: never joined, never seated


@dataclass(frozen=True)
class Room:
    room_id: str
    secret: str
    game: str
    seats: tuple[Seat, ...]
    options: dict[str, Any] = field(default_factory=dict)
    stand_in_level: str = "random"
    grace: float = GRACE_SECONDS
    rate_limit: int = RATE_LIMIT
    rate_window: float = RATE_WINDOW
    peers: tuple[Peer, ...] = ()
    state: State | None = None  # the game on the table, once started
    state_id: int = 0  # counts the states handed in: what a decision answers
    transcript: dict[str, Any] | None = None  # sent to all only once the game is over
    # Each remote seat's log: (state id, events as its seat saw them), sent
    # whole on a rejoin so the guest's log catches up.
    logs: dict[str, tuple[tuple[int, list[dict[str, Any]]], ...]] = field(default_factory=dict)
    sent: dict[str, int] = field(default_factory=dict)  # seat -> last state id sent
    # The host's key pair (game.online.proof): the public key, as the invite
    # link carries it, and the private key in the form the page's signer
    # keeps it. Empty: the guests trust the page that answers (codes by hand).
    key: str = ""
    private: str = ""
    beat: float = BEAT_SECONDS
    silence: float = SILENT_SECONDS
    resend: float = 2 * BEAT_SECONDS  # a seat waited on this long is sent its table again
    beat_at: float | None = None  # when this page last beat to the peers
    waited_at: float = 0.0  # when the seat on turn was last sent the table
    # What a watcher may see of each state: (state id, public events).
    public_log: tuple[tuple[int, list[dict[str, Any]]], ...] = ()
    watchers_max: int = WATCHERS_MAX

    @property
    def started(self) -> bool:
        return self.state is not None

    def seat(self, who: str) -> Seat | None:
        return next((s for s in self.seats if s.who == who), None)

    def peer(self, peer: str) -> Peer | None:
        return next((p for p in self.peers if p.peer == peer), None)

    def seat_of_peer(self, peer: str) -> Seat | None:
        return next((s for s in self.seats if s.kind == "person" and s.peer == peer), None)

    def entries(self) -> list[dict[str, Any]]:
        return [s.entry() for s in self.seats]

    def watchers(self) -> list[str]:
        """The names of those watching, in the order they came."""
        return [p.name for p in self.peers if p.watching]

    def with_seat(self, seat: Seat) -> Room:
        return dataclasses.replace(
            self, seats=tuple(seat if s.who == seat.who else s for s in self.seats))

    def with_peer(self, peer: Peer) -> Room:
        others = tuple(p for p in self.peers if p.peer != peer.peer)
        return dataclasses.replace(self, peers=(*others, peer))

    def without_peer(self, peer: str) -> Room:
        return dataclasses.replace(self, peers=tuple(p for p in self.peers if p.peer != peer))


def lasting_players(state: State) -> list[str]:
    """The seats of an online table for this game: its lasting players, as text.

    >>> from game import new_game
    >>> lasting_players(new_game("jekyll-hyde", {"players": 3}, seed=1))
    ['Adam', 'Betty', 'Christian']
    >>> lasting_players(new_game("jekyll-vs-hyde", seed=1))
    ['J', 'H']
    """
    return list(dict.fromkeys(str(state.identity(p)) for p in state.players))


# -- what comes in --------------------------------------------------------------------

@dataclass(frozen=True)
class SeatPerson:
    """The host seats a peer that joined; `token` (random, made by the page)
    lets that browser take the seat back after a drop."""
    who: str
    peer: str
    token: str


@dataclass(frozen=True)
class SeatBot:
    who: str
    level: str


@dataclass(frozen=True)
class SeatHost:
    """A person at the host's own screen (pass-and-play seats can be mixed in)."""
    who: str
    name: str = ""


@dataclass(frozen=True)
class OpenSeat:
    who: str


@dataclass(frozen=True)
class RenameSeats:
    """Before the start: the seats' players renamed (`names`: old -> new), when
    the game is dealt again with the people's names as its players (Werner's
    game with three, whose players are names)."""
    names: dict[str, str]


@dataclass(frozen=True)
class ChooseStandIn:
    """The bot level that plays an away friend's seat after the grace period."""
    level: str


@dataclass(frozen=True)
class Start:
    """The game begins: its first state and its transcript (seed included,
    kept here until the game is over)."""
    state: State
    transcript: dict[str, Any]


@dataclass(frozen=True)
class GameChanged:
    """The page applied `action` (anyone's): `state` is the game now."""
    state: State
    action: str


@dataclass(frozen=True)
class HostReacts:
    who: str
    key: str


@dataclass(frozen=True)
class Close:
    """The host leaves the table."""


@dataclass(frozen=True)
class Tick:
    """Time passes (the page ticks every few seconds): grace periods end."""


Command = Union[SeatPerson, SeatBot, SeatHost, OpenSeat, RenameSeats, ChooseStandIn, Start,
                GameChanged, HostReacts, Close, Tick]
Event = Union[PeerJoined, PeerLeft, Received, WireFailed, RelaysChanged, PeerPath, Command]


# -- what goes out ---------------------------------------------------------------------

@dataclass(frozen=True)
class Send:
    peer: str
    text: str


@dataclass(frozen=True)
class Decided:
    """A remote seat's decision, legal in the state numbered `state_id`: apply
    it like a bot's move, unless the game has moved on."""
    who: str
    action: str
    state_id: int


@dataclass(frozen=True)
class StandIn:
    """The away person's seat is played by a bot of `level` until they return."""
    who: str
    level: str


@dataclass(frozen=True)
class HandBack:
    """The person is back: their seat is theirs again."""
    who: str


@dataclass(frozen=True)
class Notice:
    """Something every one at the host's screen is told: a catalog key
    (`online.<key>`) and its params. The guests are told through the seats."""
    key: str
    params: dict[str, Any]


@dataclass(frozen=True)
class ShowReaction:
    who: str
    key: str


@dataclass(frozen=True)
class Prove:
    """Sign `text` with the room's private key and send it to `peer` as a
    `proof` (the signer is the browser's, and asynchronous)."""
    peer: str
    text: str


Effect = Union[Decided, StandIn, HandBack, Notice, ShowReaction, Prove]
Result = tuple[Room, tuple[Send, ...], tuple[Effect, ...]]


# -- the reducer ------------------------------------------------------------------------

def reduce(room: Room, event: Event, now: float) -> Result:
    """The room after `event` at time `now` (seconds), the messages to send and
    what the page must do. A bad message changes nothing but the sender's
    rate count, and is answered with a `refused` message naming its code."""
    if isinstance(event, PeerJoined):
        found = room.peer(event.peer)
        return room.with_peer(found or Peer(event.peer, window_start=now, heard_at=now)), (), ()
    if isinstance(event, PeerLeft):
        return _gone(room, event.peer, now)
    if isinstance(event, Received):
        return _received(room, event, now)
    if isinstance(event, WireFailed):
        return room, (), (Notice("wire_failed", {"code": event.code}),)
    if isinstance(event, RelaysChanged):  # (said by the page: the table goes on regardless)
        return room, (), ()
    if isinstance(event, PeerPath):  # (direct or relayed, the messages are the same)
        return room, (), ()
    if isinstance(event, Tick):
        return _tick(room, now)
    if isinstance(event, GameChanged):  # the seat on turn is waited on from now
        room = dataclasses.replace(room, waited_at=now)
    result: Result = _COMMANDS[type(event)](room, event)
    return result


def _refuse(peer: str, code: str, params: dict[str, Any] | None = None) -> Send:
    return Send(peer, m.encode(m.Refused(code, params or {})))


def _received(room: Room, event: Received, now: float) -> Result:
    peer = room.peer(event.peer) or Peer(event.peer, window_start=now)
    if now - peer.window_start >= room.rate_window:
        peer = dataclasses.replace(peer, window_start=now, count=0)
    peer = dataclasses.replace(peer, count=peer.count + 1, heard_at=now)
    room = room.with_peer(peer)
    if peer.count > room.rate_limit:  # a flood: said once, then dropped unread
        if peer.count == room.rate_limit + 1:
            return room, (_refuse(peer.peer, "flood", {"most": room.rate_limit,
                                                        "seconds": room.rate_window}),), ()
        return room, (), ()
    try:
        message = m.read_guest(event.text)
    except m.MessageError as e:
        return room, (_refuse(peer.peer, e.code, e.params),), ()
    silenced = room.seat(peer.seat) if peer.seat is not None and room.started else None
    if (silenced is not None and silenced.kind == "person" and silenced.peer is None
            and not isinstance(message, m.Leave)):  # away by silence, heard again: back
        return _rejoin(room, peer, silenced)
    if isinstance(message, m.Beat):
        return room, (), ()
    if isinstance(message, m.Watch):
        return _watch(room, peer, message)
    if peer.watching and isinstance(message, (m.Join, m.Decide, m.React)):
        return room, (_refuse(peer.peer, "watching"),), ()  # a watcher never plays
    if peer.watching and isinstance(message, m.Sync):
        return room, (_watching_send(room, peer, since=message.state),), ()
    if isinstance(message, m.Sync):
        seat = room.seat_of_peer(peer.peer)
        if seat is None or not room.started:
            return room, (_refuse(peer.peer, "not_seated"),), ()
        return room, (_table_send(room, seat, since=message.state),), ()
    if isinstance(message, m.Join):
        return _join(room, peer, message)
    if isinstance(message, m.Decide):
        return _decide(room, peer, message)
    if isinstance(message, m.Challenge):
        if not room.private:  # no key: the guests of this room do not ask
            return room, (_refuse(peer.peer, "no_key"),), ()
        return room, (), (Prove(peer.peer, proof.proof_text(room.room_id, message.nonce,
                                                            peer.peer)),)
    if isinstance(message, m.React):
        seat = room.seat_of_peer(peer.peer)
        if seat is None:
            return room, (_refuse(peer.peer, "not_seated"),), ()
        return _react(room, seat.who, message.key)
    return _gone(room, peer.peer, now)  # leaves; a seated person may come back with the token


def _join(room: Room, peer: Peer, join: m.Join) -> Result:
    if not hmac.compare_digest(join.secret.encode(), room.secret.encode()):
        return room, (_refuse(peer.peer, "bad_secret"),), ()
    mine = next((s for s in room.seats if s.kind == "person" and join.token is not None
                 and hmac.compare_digest(s.token.encode(), join.token.encode())), None)
    if mine is not None:
        return _rejoin(room, peer, mine)
    if room.started:
        return room, (_refuse(peer.peer, "game_started"),), ()
    if peer.joined and (peer.seat is not None or peer.renamed or join.name == peer.name):
        return room, (), ()  # one rename at most, and none once seated
    taken = {name_key(s.name) for s in room.seats if s.kind in ("host", "person")}
    taken |= {name_key(p.name) for p in room.peers
              if (p.joined or p.watching) and p.peer != peer.peer}
    if name_key(join.name) in RESERVED_NAMES:
        return room, (_refuse(peer.peer, "name_reserved", {"name": join.name}),), ()
    if name_key(join.name) in taken:
        return room, (_refuse(peer.peer, "name_taken", {"name": join.name}),), ()
    if peer.joined:
        room = room.with_peer(dataclasses.replace(peer, name=join.name, renamed=True))
        return room, _everyone(room), (Notice("joined", {"name": join.name,
                                                         "was": peer.name}),)
    waiting = sum(1 for p in room.peers if p.joined and p.seat is None)
    persons = sum(1 for s in room.seats if s.kind == "person")
    places = sum(1 for s in room.seats if s.kind != "host")
    if waiting + persons >= places:
        return room, (_refuse(peer.peer, "table_full", {"seats": len(room.seats)}),), ()
    room = room.with_peer(dataclasses.replace(peer, name=join.name, joined=True))
    return room, _everyone(room), (Notice("joined", {"name": join.name}),)


def _watch(room: Room, peer: Peer, watch: m.Watch) -> Result:
    """A watcher comes: checked like a join (secret, name), then sent the
    table as anyone may see it, with the public log so far."""
    if not hmac.compare_digest(watch.secret.encode(), room.secret.encode()):
        return room, (_refuse(peer.peer, "bad_secret"),), ()
    if peer.joined or peer.watching:  # already at the table (as a friend or watching)
        return room, (), ()
    taken = {name_key(s.name) for s in room.seats if s.kind in ("host", "person")}
    taken |= {name_key(p.name) for p in room.peers if p.joined or p.watching}
    if name_key(watch.name) in RESERVED_NAMES:
        return room, (_refuse(peer.peer, "name_reserved", {"name": watch.name}),), ()
    if name_key(watch.name) in taken:
        return room, (_refuse(peer.peer, "name_taken", {"name": watch.name}),), ()
    if len(room.watchers()) >= room.watchers_max:
        return room, (_refuse(peer.peer, "watchers_full", {"most": room.watchers_max}),), ()
    room = room.with_peer(dataclasses.replace(peer, name=watch.name, watching=True))
    peer = room.peer(peer.peer) or peer
    if not room.started:
        sends = [Send(peer.peer, m.encode(m.Lobby(room.game, room.entries(), None)))]
    else:  # the others' strips name the new watcher too
        sends = [_watching_send(room, peer, since=0),
                 *(s for s in _everyone(room) if s.peer != peer.peer)]
        if room.state is not None and room.state.over and room.transcript is not None:
            sends.append(Send(peer.peer, m.encode(m.Over(room.transcript))))
    return room, tuple(sends), (Notice("watcher_joined", {"name": watch.name}),)


def _rejoin(room: Room, peer: Peer, seat: Seat) -> Result:
    """The seat's token from a new connection: the seat is theirs again, and
    they are sent all they need to catch up."""
    old = seat.peer
    moved: list[Send] = []
    if old is not None and old != peer.peer:  # another tab or device of theirs: told so
        room = room.without_peer(old)
        moved.append(_refuse(old, "seat_elsewhere"))
    effects: list[Effect] = [Notice("moved", {"name": seat.name}) if moved
                             else Notice("back", {"name": seat.name})]
    if seat.stood_in:
        effects.insert(0, HandBack(seat.who))
    seat = dataclasses.replace(seat, peer=peer.peer, away_since=None, stood_in=False, level="")
    room = room.with_seat(seat).with_peer(
        dataclasses.replace(peer, name=seat.name, joined=True, seat=seat.who))
    sends = [Send(peer.peer, m.encode(m.Seated(seat.who, seat.token)))]
    if room.started:
        sends.append(_table_send(room, seat, whole_log=True))
    if room.state is not None and room.state.over and room.transcript is not None:
        sends.append(Send(peer.peer, m.encode(m.Over(room.transcript))))  # to review it too
    sends += [s for s in _everyone(room) if s.peer != peer.peer or not room.started]
    sends += moved
    return _sent(room, sends), tuple(sends), tuple(effects)


def _decide(room: Room, peer: Peer, decide: m.Decide) -> Result:
    seat = room.seat_of_peer(peer.peer)
    refusal: tuple[str, dict[str, Any]] | None = None
    state = room.state
    if seat is None:
        refusal = "not_seated", {}
    elif not hmac.compare_digest(seat.token.encode(), decide.token.encode()):
        refusal = "bad_token", {}
    elif state is None:
        refusal = "not_started", {}
    elif decide.state == peer.answered:
        refusal = "replayed", {"state": decide.state}
    elif decide.state != room.state_id:
        refusal = "stale_state", {"state": decide.state, "now": room.state_id}
    elif state.to_act is None:
        refusal = "game_over", {}
    elif str(state.identity(state.to_act)) != seat.who:
        refusal = "not_your_turn", {"turn": str(state.identity(state.to_act))}
    if refusal is not None or seat is None or state is None:
        code, params = refusal or ("not_seated", {})
        return room, (_refuse(peer.peer, code, params),), ()
    try:
        state.apply(decide.action)
    except GameError as e:  # the engine's own words, by code, for the guest's language
        error = m.Error(e.code, e.params, room.state_id)
        return room, (Send(peer.peer, m.encode(error)),), ()
    room = room.with_peer(dataclasses.replace(peer, answered=decide.state))
    return room, (), (Decided(seat.who, decide.action, decide.state),)


def _react(room: Room, who: str, key: str) -> Result:
    text = m.encode(m.Reaction(who, key))
    sends = tuple(Send(s.peer, text) for s in room.seats if s.kind == "person" and s.peer)
    sends += tuple(Send(p.peer, text) for p in room.peers if p.watching)
    return room, sends, (ShowReaction(who, key),)


def _gone(room: Room, peer: str, now: float) -> Result:
    seat = room.seat_of_peer(peer)
    known = room.peer(peer)
    room = room.without_peer(peer)
    if seat is None and known is not None and known.watching:
        return room, _everyone(room) if room.started else (), (
            Notice("watcher_left", {"name": known.name}),)
    if seat is None:  # only a waiting guest leaving the lobby changes what others see
        waiting = known is not None and known.joined and not room.started
        return room, _everyone(room) if waiting else (), ()
    room = room.with_seat(dataclasses.replace(seat, peer=None, away_since=now))
    return room, _everyone(room), (Notice("dropped", {"name": seat.name}),)


def _tick(room: Room, now: float) -> Result:
    """Time passes: a friend not heard for `silence` seconds is away; an away
    person's grace period over, in a game under way, the host's chosen bot
    plays for them until they rejoin; the host beats; a seat waited on for
    `resend` seconds is sent its table again."""
    effects: list[Effect] = []
    for seat in room.seats:
        peer = room.peer(seat.peer) if seat.kind == "person" and seat.peer else None
        if room.started and peer is not None and now - peer.heard_at >= room.silence:
            room = room.with_seat(dataclasses.replace(seat, peer=None, away_since=now))
            effects.append(Notice("dropped", {"name": seat.name}))  # (the peer is kept: see _received)
    for seat in room.seats:
        if (room.started and seat.kind == "person" and seat.away_since is not None
                and not seat.stood_in and now - seat.away_since >= room.grace):
            room = room.with_seat(dataclasses.replace(seat, stood_in=True,
                                                      level=room.stand_in_level))
            effects += [StandIn(seat.who, room.stand_in_level),
                        Notice("stood_in", {"name": seat.name, "level": room.stand_in_level})]
    sends = list(_everyone(room)) if effects else []
    if room.beat_at is None or now - room.beat_at >= room.beat:
        beat = m.encode(m.HostBeat(room.state_id))
        sends += [Send(p.peer, beat) for p in room.peers if p.joined or p.watching]
        room = dataclasses.replace(room, beat_at=now)
    waited = _waited_on(room)
    if waited is not None and not effects and now - room.waited_at >= room.resend:
        sends.append(_table_send(room, waited))
        room = dataclasses.replace(room, waited_at=now)
    return room, tuple(sends), tuple(effects)


def _waited_on(room: Room) -> Seat | None:
    """The friend on turn, if the game waits on them and they are here."""
    state = room.state
    if state is None or state.to_act is None:
        return None
    seat = room.seat(str(state.identity(state.to_act)))
    return seat if seat is not None and seat.kind == "person" and seat.peer else None


# -- the host's commands ------------------------------------------------------------------

def _rename(room: Room, command: RenameSeats) -> Result:
    if room.started:
        return room, (), ()
    names = command.names
    seats = tuple(dataclasses.replace(s, who=names.get(s.who, s.who)) for s in room.seats)
    peers = tuple(dataclasses.replace(p, seat=names.get(p.seat, p.seat)) if p.seat else p
                  for p in room.peers)
    return dataclasses.replace(room, seats=seats, peers=peers), (), ()


def _place(room: Room, seat: Seat) -> Result:
    """Put `seat` in place of the seat of the same player, before the game starts;
    a person seated there before goes back to waiting."""
    old = room.seat(seat.who)
    if room.started or old is None:
        return room, (), ()
    if old.kind == "person" and old.peer is not None:
        known = room.peer(old.peer)
        if known is not None:
            room = room.with_peer(dataclasses.replace(known, seat=None))
    return room.with_seat(seat), _everyone(room.with_seat(seat)), ()


def _seat_person(room: Room, command: SeatPerson) -> Result:
    peer = room.peer(command.peer)
    if room.started or peer is None or not peer.joined or room.seat(command.who) is None:
        return room, (), ()
    if peer.seat is not None:  # moved from another seat: that one opens
        room = room.with_seat(Seat(peer.seat))
    seat = Seat(command.who, "person", peer.name, token=command.token, peer=peer.peer)
    room, _, effects = _place(room, seat)
    room = room.with_peer(dataclasses.replace(peer, seat=command.who))
    seated = Send(peer.peer, m.encode(m.Seated(command.who, command.token)))
    return room, (seated, *_everyone(room)), effects


def _start(room: Room, start: Start) -> Result:
    if room.started:
        return room, (), ()
    state = start.state
    logs: dict[str, tuple[tuple[int, list[dict[str, Any]]], ...]] = {
        s.who: ((0, _events(state, s.who)),) for s in room.seats if s.kind == "person"}
    room = dataclasses.replace(room, state=state, state_id=0, transcript=start.transcript,
                               logs=logs, public_log=((0, state.public_events()),))
    waiting = [p.peer for p in room.peers if p.seat is None and not p.watching]
    sends = [_refuse(p, "game_started") for p in waiting]
    for peer in waiting:
        room = room.without_peer(peer)
    sends += _everyone(room)
    return _sent(room, sends), tuple(sends), ()


def _game_changed(room: Room, changed: GameChanged) -> Result:
    state = changed.state
    if room.state is None or state is room.state:
        return room, (), ()
    state_id = room.state_id + 1
    logs = {who: (*entries, (state_id, _events(state, who))) for who, entries in room.logs.items()}
    transcript = room.transcript or {}
    transcript = {**transcript, "actions": [*transcript.get("actions", []), changed.action]}
    public_log = (*room.public_log, (state_id, state.public_events()))
    room = dataclasses.replace(room, state=state, state_id=state_id, logs=logs,
                               transcript=transcript, public_log=public_log)
    sends = list(_everyone(room))
    if state.over:
        over = m.encode(m.Over(transcript))
        sends += [Send(s.peer, over) for s in room.seats if s.kind == "person" and s.peer]
        sends += [Send(p.peer, over) for p in room.peers if p.watching]
    return _sent(room, sends), tuple(sends), ()


def _close(room: Room, _: Close) -> Result:
    text = m.encode(m.HostLeft())
    sends = tuple(Send(p.peer, text) for p in room.peers)
    return dataclasses.replace(room, peers=()), sends, ()


_COMMANDS: dict[type, Any] = {
    SeatPerson: _seat_person,
    SeatBot: lambda room, c: _place(room, Seat(c.who, "bot", level=c.level)),
    SeatHost: lambda room, c: _place(room, Seat(c.who, "host", c.name)),
    OpenSeat: lambda room, c: _place(room, Seat(c.who)),
    RenameSeats: _rename,
    ChooseStandIn: lambda room, c: (dataclasses.replace(room, stand_in_level=c.level), (), ()),
    Start: _start,
    GameChanged: _game_changed,
    HostReacts: lambda room, c: _react(room, c.who, c.key),
    Close: _close,
}


# -- what each guest is sent ---------------------------------------------------------------

def _events(state: State, who: str) -> list[dict[str, Any]]:
    player = state.seat_of(who)
    return [] if player is None else state.events(player)


def _table_send(room: Room, seat: Seat, whole_log: bool = False, since: int | None = None) -> Send:
    """The table as `seat` may see it: its observation and its new events
    (all of them after a rejoin, those from state id `since` on when the
    guest asked for what it missed), nothing else of the state."""
    state = room.state
    assert state is not None and seat.peer is not None
    player = state.seat_of(seat.who)
    log = room.logs.get(seat.who, ())
    turn = None if state.to_act is None else str(state.identity(state.to_act))
    update = m.TableUpdate(
        game=room.game, you=seat.who, player=player,
        observation=state.observation(player) if player is not None else {},
        log=[[n, events] for n, events in (
            log if whole_log else log[-1:] if since is None else
            [entry for entry in log if entry[0] >= since])],
        state=room.state_id, turn=turn, seats=room.entries(), watchers=room.watchers())
    return Send(seat.peer, m.encode(update))


def _watching_send(room: Room, peer: Peer, since: int | None = None) -> Send:
    """The table as a watcher may see it: the public observation and the
    public log (its newest entry, or from state id `since` on)."""
    state = room.state
    assert state is not None
    turn = None if state.to_act is None else str(state.identity(state.to_act))
    log = room.public_log[-1:] if since is None else [e for e in room.public_log if e[0] >= since]
    update = m.Watching(game=room.game, observation=state.public_observation(),
                        log=[[n, events] for n, events in log], state=room.state_id,
                        turn=turn, seats=room.entries(), watchers=room.watchers())
    return Send(peer.peer, m.encode(update))


def _everyone(room: Room) -> tuple[Send, ...]:
    """Every joined peer's view of the room now: the lobby before the game,
    the table after (what changed for the others is in its seats); a
    watcher's, the public table."""
    sends = []
    for peer in room.peers:
        seat = room.seat_of_peer(peer.peer)
        if peer.watching:
            sends.append(_watching_send(room, peer) if room.started else Send(
                peer.peer, m.encode(m.Lobby(room.game, room.entries(), None))))
        elif room.started and seat is not None:
            sends.append(_table_send(room, seat, whole_log=room.sent.get(seat.who) is None))
        elif peer.joined and not room.started:  # (after it: a seated friend gone silent)
            lobby = m.Lobby(room.game, room.entries(), peer.seat)
            sends.append(Send(peer.peer, m.encode(lobby)))
    return tuple(sends)


def _sent(room: Room, sends: list[Send] | tuple[Send, ...]) -> Room:
    """Record the state id each seat was sent last."""
    sent = dict(room.sent)
    for send in sends:
        seat = room.seat_of_peer(send.peer)
        if seat is not None and room.started:
            sent[seat.who] = room.state_id
    return dataclasses.replace(room, sent=sent)


# -- a reload of the host's page ---------------------------------------------------------------

SEAT_FIELDS = ("who", "kind", "name", "level", "token", "stood_in")


def room_to_json(room: Room) -> dict[str, Any]:
    """The room as JSON-ready data, kept beside the host's save so that a
    reload goes on with the same table (the game itself is the save's).
    Connections are not kept: they do not survive a reload."""
    return {
        "room": room.room_id, "secret": room.secret, "game": room.game,
        "options": room.options, "stand_in_level": room.stand_in_level, "grace": room.grace,
        "seats": [{name: getattr(seat, name) for name in SEAT_FIELDS} for seat in room.seats],
        "state_id": room.state_id, "transcript": room.transcript,
        "logs": {who: [[n, events] for n, events in entries]
                 for who, entries in room.logs.items()},
        "key": room.key, "private": room.private,
        "public_log": [[n, events] for n, events in room.public_log],
    }


def room_from_json(data: Any, state: State | None, now: float) -> Room:
    """The room `room_to_json` kept, with the game `state` from the save (None
    before the start). Every remote person is away from `now`: they rejoin
    with their seat token, or a bot stands in after the grace period.
    Anything malformed raises BadStateError naming the field."""
    E = BadStateError
    data = read_object(data, "room", E, ("room", "secret", "game", "options", "stand_in_level",
                                         "grace", "seats", "state_id", "transcript", "logs"),
                       ("key", "private", "public_log"))
    seats = []
    for i, raw in enumerate(read_list(data["seats"], "room.seats", E, 1, 8)):
        where = at("room.seats", i)
        seat = read_object(raw, where, E, SEAT_FIELDS, None)
        read_choice(seat["kind"], at(where, "kind"), E, ("host", "person", "bot", "open"))
        for name in ("who", "name", "level", "token"):
            if type(seat[name]) is not str:
                fail(E, at(where, name), "a text", seat[name])
        read_bool(seat["stood_in"], at(where, "stood_in"), E)
        away = now if seat["kind"] == "person" else None
        seats.append(Seat(**seat, away_since=away))
    if state is not None and type(data["transcript"]) is not dict:
        fail(E, "room.transcript", "the game's transcript", data["transcript"])
    grace = data["grace"]
    if type(grace) not in (int, float) or not 0 <= grace <= 86_400:
        fail(E, "room.grace", "seconds, 0-86400", grace)
    return Room(
        read_str(data["room"], "room.room", E), read_str(data["secret"], "room.secret", E),
        read_str(data["game"], "room.game", E), tuple(seats),
        options=read_object(data["options"], "room.options", E, (), None),
        stand_in_level=read_str(data["stand_in_level"], "room.stand_in_level", E),
        grace=float(grace), state=state,
        state_id=read_int(data["state_id"], "room.state_id", E, 0, 10**9),
        transcript=data["transcript"], logs=_read_logs(data["logs"]),
        public_log=_read_log(data.get("public_log", []), "room.public_log"),
        key=_read_key(data.get("key", ""), proof.KEY, "room.key"),
        private=_read_key(data.get("private", ""), PRIVATE, "room.private"))


PRIVATE = re.compile(r"[ -~]{1,1000}")  # the signer's private key (a JWK, as JSON text)


def _read_key(value: Any, pattern: re.Pattern[str], where: str) -> str:
    """A key of the room ("" for none: a room kept before keys, or by codes)."""
    if value != "" and (type(value) is not str or not pattern.fullmatch(value)):
        fail(BadStateError, where, "a key", value)
    return str(value)


def _read_logs(value: Any) -> dict[str, tuple[tuple[int, list[dict[str, Any]]], ...]]:
    return {who: _read_log(entries, at("room.logs", str(who))) for who, entries in
            read_object(value, "room.logs", BadStateError, (), None).items()}


def _read_log(entries: Any, where: str) -> tuple[tuple[int, list[dict[str, Any]]], ...]:
    kept = []
    for i, entry in enumerate(read_list(entries, where, BadStateError)):
        n, events = read_list(entry, at(where, i), BadStateError, 2, 2)
        read_int(n, at(at(where, i), 0), BadStateError, 0, 10**9)
        read_list(events, at(at(where, i), 1), BadStateError)
        kept.append((n, events))
    return tuple(kept)
