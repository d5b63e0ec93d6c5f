"""What a guest's page knows of an online table, as one value changed only by
`reduce`: the connection's status, the seats, its own seat and token, the
latest observation of its seat, the event log (each state id once, so a
resend after a rejoin is harmless), the errors to show, the reactions and,
once the game is over, the transcript. Everything in it came from the host
and was checked (game.online.messages); the observation, `player` and the
log are what a table's renderer draws from (game.web.draw.tables), as for the
person at the host's screen.

The guest answers the host's peer only: in a mesh it also sees the other
guests, whose messages are ignored. With the host's key (the invite link
carries it, game.online.proof) the guest first challenges every page it
meets, and takes as its host only the one whose proof its page verified
(`checking` holds the proofs to verify, `Proven` says the result); before
that it sends that page neither the secret, its name nor its seat token.
Without a key (codes carried by hand: the one page at the other end is the
host's, its identity fixed by the code) the first page that answers is the host.

Time comes in as `Tick(now)` (the page's clock, every few seconds): the
guest beats to its host every `messages.BEAT_SECONDS`, and says the host is
not answering once nothing came from it for `messages.SILENT_SECONDS`
(`host_silent`). Table updates are numbered (their state id): a gap, or a
host's beat ahead of the newest table, asks the host for what was missed
(`m.Sync`).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Union

from game.online import messages as m
from game.online.wire import PeerJoined, PeerLeft, PeerPath, Received, RelaysChanged, WireFailed

# connecting: waiting for the host; lobby: joined, not seated; seated: in the
# lobby with a seat; playing; reconnecting: the host's connection dropped;
# refused: the host said no (`refusal`); host_left; left: this guest left;
# failed: the wire is gone.
# elsewhere: the seat is played from another tab or device (`PlayHere` takes it back).
STATUSES = ("connecting", "lobby", "seated", "playing", "reconnecting", "refused",
            "host_left", "left", "failed", "elsewhere")
KEEP_ERRORS = 5
KEEP_REACTIONS = 20
KEEP_CHECKS = 8  # proofs waiting to be verified (a page sending many keeps one)
AT_TABLE = ("lobby", "seated", "playing")  # joined: this page beats, and listens for the host's


@dataclass(frozen=True)
class Guest:
    secret: str
    name: str
    token: str | None = None  # kept in this browser: a reload or a new link rejoins
    status: str = "connecting"
    host: str | None = None  # the host's peer, once it answered
    game: str | None = None
    seats: tuple[dict[str, Any], ...] = ()
    seat: str | None = None  # the lasting player this guest plays
    player: Any = None  # the engine's player whose observation it holds (its seat this deal)
    observation: dict[str, Any] | None = None
    state_id: int = -1
    turn: str | None = None
    log: tuple[dict[str, Any], ...] = ()
    log_ids: frozenset[int] = frozenset()
    # The log's events by state id, oldest first: a gap filled later goes in its place.
    entries: tuple[tuple[int, tuple[dict[str, Any], ...]], ...] = ()
    errors: tuple[dict[str, Any], ...] = ()  # {"code", "params"}, newest last
    reactions: tuple[tuple[str, str], ...] = ()  # (seat, key), newest last
    refusal: dict[str, Any] | None = None
    transcript: dict[str, Any] | None = None
    news: tuple[str, str] | None = None  # the latest change at another seat: (key, name)
    key: str | None = None  # the host's public key, from the invite link
    nonce: str = ""  # this page's challenge (random, made by the page)
    checking: tuple[tuple[str, str], ...] = ()  # (peer, its proof) for the page to verify
    clock: float = 0.0  # the page's time at the last tick
    heard: bool = False  # the host spoke since the last tick
    heard_at: float | None = None  # the last tick that found the host had spoken
    beat_at: float | None = None  # when this page last beat to the host
    asked: int = -1  # the state id a `sync` last asked from (asked once per gap)
    watching: bool = False  # this page only watches: it asks for no seat (`m.Watch`)
    watchers: tuple[str, ...] = ()  # the names of those watching, from the last table

    @property
    def my_turn(self) -> bool:
        return self.status == "playing" and self.turn is not None and self.turn == self.seat

    @property
    def host_silent(self) -> bool:
        """Nothing came from the host for SILENT_SECONDS while at its table."""
        return (self.status in AT_TABLE and not self.heard and self.heard_at is not None
                and self.clock - self.heard_at >= m.SILENT_SECONDS)

    @property
    def legal(self) -> list[str]:
        """The actions the observation offers now (empty when not this seat's turn)."""
        legal = (self.observation or {}).get("legal", [])
        return [a for a in legal if type(a) is str] if self.my_turn else []


@dataclass(frozen=True)
class DecideNow:
    """The person at this page decides `action`."""
    action: str


@dataclass(frozen=True)
class JoinAgain:
    """The person chose another name after the host refused theirs."""
    name: str


@dataclass(frozen=True)
class PlayHere:
    """The person takes their seat back to this page from another tab or device."""


@dataclass(frozen=True)
class ReactNow:
    key: str


@dataclass(frozen=True)
class LeaveNow:
    pass


@dataclass(frozen=True)
class Tick:
    """Time passes on this page's clock (seconds)."""
    now: float


@dataclass(frozen=True)
class Proven:
    """The page verified `peer`'s proof `signature`: `ok` if it is the host's."""
    peer: str
    signature: str
    ok: bool


Event = Union[PeerJoined, PeerLeft, Received, WireFailed, RelaysChanged, PeerPath, DecideNow,
              JoinAgain, PlayHere, ReactNow, LeaveNow, Proven, Tick]
Result = tuple[Guest, tuple[tuple[str, str], ...]]  # the guest, and (peer, text) to send


def reduce(guest: Guest, event: Event) -> Result:
    """The guest after `event`, and the texts to send (each to a peer)."""
    if isinstance(event, PeerJoined):
        if guest.host is not None and event.peer != guest.host or guest.status in (
                "left", "host_left", "elsewhere"):  # (elsewhere: only Play here takes it back)
            return guest, ()
        if guest.key is not None:  # who says it is the host proves it first
            return guest, ((event.peer, m.encode(m.Challenge(guest.nonce))),)
        return guest, ((event.peer, _join(guest)),)
    if isinstance(event, Proven):
        checking = tuple(c for c in guest.checking if c != (event.peer, event.signature))
        guest = dataclasses.replace(guest, checking=checking)
        if not event.ok or guest.host is not None or guest.status in ("left", "host_left"):
            return guest, ()
        return dataclasses.replace(guest, host=event.peer), ((event.peer, _join(guest)),)
    if isinstance(event, PeerLeft):
        if event.peer != guest.host or guest.status in ("host_left", "left", "refused",
                                                         "elsewhere"):
            return guest, ()
        return dataclasses.replace(guest, status="reconnecting", host=None), ()
    if isinstance(event, Tick):
        return _tick(guest, event.now)
    if isinstance(event, RelaysChanged):  # (the host's page says it: nobody new can join)
        return guest, ()
    if isinstance(event, PeerPath):  # (the wire carries on either way; its page may say which)
        return guest, ()
    if isinstance(event, WireFailed):
        return dataclasses.replace(guest, status="failed", refusal={"code": event.code,
                                                                    "params": {}}), ()
    if isinstance(event, Received):
        return _heard(guest, event)
    if isinstance(event, PlayHere):
        if guest.status != "elsewhere" or guest.host is None:
            return guest, ()
        return dataclasses.replace(guest, status="reconnecting"), ((guest.host, _join(guest)),)
    if isinstance(event, JoinAgain):
        host = guest.host
        if guest.status != "refused" or host is None or not name_refused(guest):
            return guest, ()
        guest = dataclasses.replace(guest, name=event.name, status="connecting", refusal=None)
        return guest, ((host, _join(guest)),)
    if guest.host is None or guest.token is None:
        return guest, ()
    if isinstance(event, DecideNow):
        return guest, ((guest.host, m.encode(m.Decide(event.action, guest.state_id,
                                                      guest.token))),)
    if isinstance(event, ReactNow):
        return guest, ((guest.host, m.encode(m.React(event.key))),)
    return dataclasses.replace(guest, status="left"), ((guest.host, m.encode(m.Leave())),)


NAME_REFUSALS = ("name_taken", "name_reserved")  # the person may choose another and join


def name_refused(guest: Guest) -> bool:
    return guest.refusal is not None and guest.refusal.get("code") in NAME_REFUSALS


def _join(guest: Guest) -> str:
    if guest.watching:
        return m.encode(m.Watch(guest.secret, guest.name))
    return m.encode(m.Join(guest.secret, guest.name, guest.token))


def _heard(guest: Guest, event: Received) -> Result:
    known = guest.host is not None and event.peer == guest.host
    if guest.host is not None and not known:
        return guest, ()
    try:
        message = m.read_host(event.text)
    except m.MessageError:  # another guest's message, or a broken one: not the host's
        return guest, ()
    if guest.key is not None and not known:  # not proven yet: only its proof is read
        if not isinstance(message, m.Proof) or guest.status in ("left", "host_left"):
            return guest, ()
        others = tuple(c for c in guest.checking if c[0] != event.peer)  # its newest only
        return dataclasses.replace(
            guest, checking=(*others, (event.peer, message.signature))[-KEEP_CHECKS:]), ()
    if isinstance(message, m.Proof):
        return guest, ()
    guest = dataclasses.replace(guest, host=event.peer, heard=True)
    return _catch_up(_apply(guest, message), message)


def _tick(guest: Guest, now: float) -> Result:
    """The clock moves on: the host's silence is measured, and this page beats."""
    heard_at = now if guest.heard or guest.heard_at is None else guest.heard_at
    guest = dataclasses.replace(guest, clock=now, heard=False, heard_at=heard_at)
    if (guest.host is None or guest.status not in AT_TABLE
            or guest.beat_at is not None and now - guest.beat_at < m.BEAT_SECONDS):
        return guest, ()
    return dataclasses.replace(guest, beat_at=now), ((guest.host, m.encode(m.Beat())),)


def _catch_up(guest: Guest, message: m.HostMessage) -> Result:
    """A `sync` for the first state id this page has not seen, when a table
    update or the host's beat shows one was lost (asked once per gap, and
    again at each beat while it lasts)."""
    if guest.status != "playing" or guest.host is None or not isinstance(
            message, (m.TableUpdate, m.HostBeat, m.Watching)):
        return guest, ()
    missing = next((n for n in range(max(message.state, guest.state_id) + 1)
                    if n not in guest.log_ids), None)
    if missing is None or isinstance(message, (m.TableUpdate, m.Watching)) and \
            missing == guest.asked:
        return guest, ()
    return (dataclasses.replace(guest, asked=missing),
            ((guest.host, m.encode(m.Sync(missing))),))


def _apply(guest: Guest, message: m.HostMessage) -> Guest:
    replace = dataclasses.replace
    if isinstance(message, m.Refused):
        refusal = {"code": message.code, "params": message.params}
        if message.code == "seat_elsewhere" and guest.token is not None:
            return replace(guest, status="elsewhere")
        if guest.status in ("connecting", "reconnecting"):  # not let in at all
            host = guest.host if refusal["code"] in NAME_REFUSALS else None  # (asked again)
            return replace(guest, status="refused", refusal=refusal, host=host)
        return replace(guest, errors=(*guest.errors, refusal)[-KEEP_ERRORS:])
    if isinstance(message, m.Lobby):
        status = "seated" if message.you is not None else "lobby"
        return replace(guest, status=status, game=message.game, seats=tuple(message.seats),
                       seat=message.you)
    if isinstance(message, m.Seated):
        return replace(guest, seat=message.seat, token=message.token)
    if isinstance(message, (m.TableUpdate, m.Watching)):
        return _table(guest, message)
    if isinstance(message, m.Error):
        error = {"code": message.code, "params": message.params}
        return replace(guest, errors=(*guest.errors, error)[-KEEP_ERRORS:])
    if isinstance(message, m.Reaction):
        reactions = (*guest.reactions, (message.seat, message.key))[-KEEP_REACTIONS:]
        return replace(guest, reactions=reactions)
    if isinstance(message, m.Over):
        return replace(guest, transcript=message.transcript)
    if isinstance(message, m.HostBeat):
        return guest
    return replace(guest, status="host_left")


def _table(guest: Guest, update: m.TableUpdate | m.Watching) -> Guest:
    """The newest table (a watcher's: the public one, with no seat); the log
    gains the events of state ids not seen yet, each in its place (those a
    `sync` brought fill their gap)."""
    entries, ids = list(guest.entries), set(guest.log_ids)
    for entry in update.log:
        if (len(entry) == 2 and type(entry[0]) is int and type(entry[1]) is list
                and entry[0] not in ids):
            ids.add(entry[0])
            entries.append((entry[0], tuple(e for e in entry[1] if type(e) is dict)))
    log = guest.log
    if len(entries) > len(guest.entries):
        added = entries[len(guest.entries):]
        if guest.entries and min(n for n, _ in added) < guest.entries[-1][0]:
            entries.sort(key=lambda entry: entry[0])
            log = tuple(e for _, events in entries for e in events)
        else:
            log += tuple(e for _, events in added for e in events)
    if isinstance(update, m.TableUpdate):
        seat, player = update.you, update.player
    else:
        seat, player = None, None
    watchers = tuple(update.watchers)
    return dataclasses.replace(
        guest, status="playing", game=update.game, seat=seat, player=player, watchers=watchers,
        observation=update.observation, state_id=update.state, turn=update.turn,
        seats=tuple(update.seats), log=log, log_ids=frozenset(ids), entries=tuple(entries),
        errors=(),
        news=_news(guest, update.seats) or guest.news)


def _news(guest: Guest, seats: list[dict[str, Any]]) -> tuple[str, str] | None:
    """What changed at another person's seat since the last table: they
    dropped, a bot stands in for them, or they are back (as the host is told).

    >>> away = {"seat": "J", "kind": "away", "name": "Bo", "level": ""}
    >>> here = {**away, "kind": "person"}
    >>> was = Guest("s", "Ann", status="playing", seat="H", seats=(here,))
    >>> _news(was, [away]), _news(was, [here])
    (('online.dropped', 'Bo'), None)
    >>> _news(dataclasses.replace(was, seats=(away,)), [{**away, "level": "easy"}])
    ('online.stood_in', 'Bo')
    >>> _news(dataclasses.replace(was, seats=(away,)), [here])
    ('online.back', 'Bo')
    """
    if guest.status != "playing":
        return None
    before = {str(e.get("seat")): e for e in guest.seats}
    found = None
    for entry in seats:
        old = before.get(str(entry.get("seat")))
        if old is None or str(entry.get("seat")) == guest.seat:
            continue
        name, kind, was = str(entry.get("name", "")), entry.get("kind"), old.get("kind")
        if was == "person" and kind == "away":
            found = ("online.dropped", name)
        elif was == "away" and kind == "away" and entry.get("level") and not old.get("level"):
            found = ("online.stood_in", name)
        elif was == "away" and kind == "person":
            found = ("online.back", name)
    return found
