"""The messages of an online table: JSON text with a version and a `type`,
checked field by field like a game file before anything reads them.

Guest -> host: `join` (the room's secret, a chosen name, the seat token kept
in that browser when rejoining), `decide` (an action in the game's notation,
the state id it answers and the seat token), `react` (a key of `REACTIONS`: no free text),
`leave`, `challenge` (a nonce: prove you are the host, game.online.proof),
`beat` (this page is alive, every few seconds) and `sync` (the first state id
missing from this page's log: a table update was lost); `watch` (the room's
secret and a name: a watcher, who asks for no seat and is never seated).

Host -> guest: `proof` (the signature that answers a challenge), `refused` (a code and its params), `lobby` (the seats and
which one is yours), `seated` (your seat and its token), `table` (your
seat's observation, its new events by state id, whose turn, the seats, the
watchers' names),
`error` (an engine error's code and params, for the guest to say in its own
language), `reaction`, `over` (the whole transcript, once the game is over),
`host_left` and `beat` (the host's page is alive; its newest state id, so a
guest that missed the last update asks for it). A watcher is sent the lobby
before the start, then `watching` (the public observation, the public log by
state id, whose turn, the seats, the watchers' names), `reaction` and `over`.

What never crosses before the game is over: the seed (it rebuilds every
hidden hand), the full state, the transcript, another seat's observation.
A host message carries only what `State.observation(seat)` and
`State.events(seat)` give that seat (game.online.host builds them).

>>> read_guest(encode(Join("s3cret-room", "Ann", None)))
Join(secret='s3cret-room', name='Ann', token=None)
>>> read_guest('{"v": 3, "type": "decide", "action": "HA", "state": "7", "token": ""}')
Traceback (most recent call last):
...
game.online.messages.MessageError: decide.state must be a whole number >= 0
"""

from __future__ import annotations

import dataclasses
import json
import re
import unicodedata
from dataclasses import dataclass
from typing import Any, Callable, ClassVar, Mapping, Union

from game.core.state import GameError
from game.core.transcript import too_deep
from game.online import proof

# 3: the watchers' names in `table` (2: the heartbeats and `sync`); a page of another
# version is told to reload.
VERSION = 3
# A guest's message is a few dozen characters: anything far larger is refused
# before it is parsed (a 1 MB message costs one len()).
MAX_GUEST_CHARS = 4_000
# The host's messages carry observations, event logs and at the end the
# transcript: a whole long game's log stays well under this.
MAX_HOST_CHARS = 2_000_000
MAX_DEPTH = 40
NAME_CHARS = 24
BEAT_SECONDS = 5.0  # every page at a table says it is alive this often
SILENT_SECONDS = 15.0  # three beats missed: that page is away (the host: not answering)
TOKEN = re.compile(r"[A-Za-z0-9_-]{16,64}")
SECRET = re.compile(r"[A-Za-z0-9_-]{8,64}")
CODE = re.compile(r"[a-z][a-z0-9_]{0,59}")
# The quick phrases and reactions a seat can send (catalog keys `react.<key>`).
REACTIONS = ("hello", "good_game", "well_played", "oops", "thinking", "thanks", "wow",
             "laugh", "bye")
SEAT_KINDS = ("host", "person", "bot", "open", "away")


class MessageError(GameError):
    """A message that is not one of ours: too big, not JSON, unknown type, a
    field missing or of the wrong kind. `code` says which, `params` where."""

    default_code = "bad_message"


# -- guest -> host ------------------------------------------------------------------

@dataclass(frozen=True)
class Join:
    TYPE: ClassVar[str] = "join"
    secret: str
    name: str
    token: str | None  # the seat token kept in this browser: a rejoin


@dataclass(frozen=True)
class Decide:
    TYPE: ClassVar[str] = "decide"
    action: str
    state: int  # the state id of the table update it answers
    token: str  # the seat's token (the host checks it besides the connection)


@dataclass(frozen=True)
class React:
    TYPE: ClassVar[str] = "react"
    key: str


@dataclass(frozen=True)
class Leave:
    TYPE: ClassVar[str] = "leave"


@dataclass(frozen=True)
class Challenge:
    TYPE: ClassVar[str] = "challenge"
    nonce: str


@dataclass(frozen=True)
class Beat:
    """This guest's page is alive (sent every few seconds while it is at a table)."""
    TYPE: ClassVar[str] = "beat"


@dataclass(frozen=True)
class Sync:
    """Send me the table again, with the log from state id `state` on (the
    guest saw a gap in the update numbers, or a host's beat it is behind)."""
    TYPE: ClassVar[str] = "sync"
    state: int


@dataclass(frozen=True)
class Watch:
    """Let me watch this table: no seat asked for, none ever given (a new type,
    so that `join` and every seat's flow stay as they were)."""
    TYPE: ClassVar[str] = "watch"
    secret: str
    name: str


GuestMessage = Union[Join, Decide, React, Leave, Challenge, Beat, Sync, Watch]


# -- host -> guest ------------------------------------------------------------------

@dataclass(frozen=True)
class Refused:
    TYPE: ClassVar[str] = "refused"
    code: str
    params: dict[str, Any]


@dataclass(frozen=True)
class Lobby:
    TYPE: ClassVar[str] = "lobby"
    game: str
    seats: list[dict[str, Any]]  # {seat, kind, name, level}: see `seat_entry`
    you: str | None  # your seat, None while the host has not seated you


@dataclass(frozen=True)
class Seated:
    TYPE: ClassVar[str] = "seated"
    seat: str
    token: str


@dataclass(frozen=True)
class TableUpdate:
    TYPE: ClassVar[str] = "table"
    game: str
    you: str
    player: Any  # the engine's player whose observation this is (your seat this deal)
    observation: dict[str, Any]
    log: list[list[Any]]  # [state id, [events as your seat saw them]], oldest first
    state: int
    turn: str | None  # the seat (lasting player) on turn, None once over
    seats: list[dict[str, Any]]
    # The names of those watching the table (left out by a host before watchers: none).
    watchers: list[str] = dataclasses.field(default_factory=list)


@dataclass(frozen=True)
class Watching:
    """The table as someone not at it sees it: `State.public_observation()` and
    the `public_events()` of each state by state id (the whole log on joining,
    then the new entries), never a seat's own view."""
    TYPE: ClassVar[str] = "watching"
    game: str
    observation: dict[str, Any]
    log: list[list[Any]]  # [state id, [public events]], oldest first
    state: int
    turn: str | None
    seats: list[dict[str, Any]]
    watchers: list[str]  # the names of everyone watching, this one included


@dataclass(frozen=True)
class Error:
    TYPE: ClassVar[str] = "error"
    code: str
    params: dict[str, Any]
    state: int


@dataclass(frozen=True)
class Reaction:
    TYPE: ClassVar[str] = "reaction"
    seat: str
    key: str


@dataclass(frozen=True)
class Over:
    TYPE: ClassVar[str] = "over"
    transcript: dict[str, Any]


@dataclass(frozen=True)
class HostLeft:
    TYPE: ClassVar[str] = "host_left"


@dataclass(frozen=True)
class Proof:
    """The host's signature of proof_text(room, the challenge's nonce, the asker)."""
    TYPE: ClassVar[str] = "proof"
    signature: str


@dataclass(frozen=True)
class HostBeat:
    """The host's page is alive; `state` is its newest state id (0 before the start)."""
    TYPE: ClassVar[str] = "beat"
    state: int


HostMessage = Union[Refused, Lobby, Seated, TableUpdate, Error, Reaction, Over, HostLeft, Proof,
                    HostBeat, Watching]
Message = Union[GuestMessage, HostMessage]


def encode(message: Message) -> str:
    """The message as the text that crosses the wire."""
    data = {"v": VERSION, "type": message.TYPE}
    # Field by field, not dataclasses.asdict: that deep-copies a whole observation.
    data.update((f.name, getattr(message, f.name)) for f in dataclasses.fields(message))
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False)


# -- reading: every field checked ----------------------------------------------------

Check = Callable[[Any, str], Any]


def _bad(where: str, wanted: str, code: str = "bad_field") -> MessageError:
    return MessageError(f"{where} must be {wanted}", code=code,
                        params={"field": where, "wanted": wanted})


def _text(most: int) -> Check:
    def check(value: Any, where: str) -> str:
        if type(value) is not str or not value or len(value) > most:
            raise _bad(where, f"a text of 1 to {most} characters")
        return value
    return check


def _pattern(pattern: re.Pattern[str], wanted: str) -> Check:
    def check(value: Any, where: str) -> str:
        if type(value) is not str or not pattern.fullmatch(value):
            raise _bad(where, wanted)
        return value
    return check


def _optional(check: Check) -> Check:
    def optional(value: Any, where: str) -> Any:
        return None if value is None else check(value, where)
    return optional


def _count(value: Any, where: str) -> int:
    if type(value) is not int or value < 0:
        raise _bad(where, "a whole number >= 0")
    return value


def _object(value: Any, where: str) -> dict[str, Any]:
    if type(value) is not dict:
        raise _bad(where, "an object")
    return value


def _list_of(check: Check) -> Check:
    def items(value: Any, where: str) -> list[Any]:
        if type(value) is not list:
            raise _bad(where, "a list")
        return [check(item, f"{where}[{i}]") for i, item in enumerate(value)]
    return items


def _any(value: Any, where: str) -> Any:
    return value


def read_name(value: Any, where: str = "name") -> str:
    """A person's name: 1 to NAME_CHARS characters once its spaces are
    collapsed, and no control, format or private-use character (a bidi
    override would turn the lobby around).

    >>> read_name("  Ann   Lee ")
    'Ann Lee'
    >>> read_name("Eve\\u202e")
    Traceback (most recent call last):
    ...
    game.online.messages.MessageError: name must be 1 to 24 printable characters
    """
    name = " ".join(value.split()) if type(value) is str else ""
    if not name or len(name) > NAME_CHARS or any(
            unicodedata.category(c).startswith("C") for c in name):
        raise MessageError(f"{where} must be 1 to {NAME_CHARS} printable characters",
                           code="bad_name", params={"field": where, "most": NAME_CHARS})
    return name


def _reaction(value: Any, where: str) -> str:
    if value not in REACTIONS:
        raise MessageError(f"{where} must be one of {', '.join(REACTIONS)}",
                           code="unknown_reaction", params={"field": where})
    return str(value)


def _seat_entry(value: Any, where: str) -> dict[str, Any]:
    entry = _object(value, where)
    _text(40)(entry.get("seat"), where + ".seat")
    if entry.get("kind") not in SEAT_KINDS:
        raise _bad(where + ".kind", "one of " + ", ".join(SEAT_KINDS))
    if type(entry.get("name", "")) is not str or type(entry.get("level", "")) is not str:
        raise _bad(where, "a seat with a text name and level")
    return entry


_SEAT = _text(40)
_TOKEN = _pattern(TOKEN, "a seat token (16 to 64 letters, digits, - or _)")
_CODE = _pattern(CODE, "an error code")
_LOG_ENTRY = _list_of(_any)

FIELDS: dict[type, dict[str, Check]] = {
    Join: {"secret": _pattern(SECRET, "the room's secret"), "name": read_name,
           "token": _optional(_TOKEN)},
    Decide: {"action": _pattern(re.compile(r"[ -~]{1,200}"), "an action in the game's notation"),
             "state": _count, "token": _TOKEN},
    React: {"key": _reaction},
    Leave: {},
    Challenge: {"nonce": _pattern(proof.NONCE, "a nonce (16 to 64 letters, digits, - or _)")},
    Beat: {},
    Sync: {"state": _count},
    Watch: {"secret": _pattern(SECRET, "the room's secret"), "name": read_name},
    Refused: {"code": _CODE, "params": _object},
    Lobby: {"game": _text(40), "seats": _list_of(_seat_entry), "you": _optional(_SEAT)},
    Seated: {"seat": _SEAT, "token": _TOKEN},
    TableUpdate: {"game": _text(40), "you": _SEAT, "player": _any, "observation": _object,
                  "log": _list_of(_LOG_ENTRY), "state": _count, "turn": _optional(_SEAT),
                  "seats": _list_of(_seat_entry), "watchers": _list_of(read_name)},
    Watching: {"game": _text(40), "observation": _object, "log": _list_of(_LOG_ENTRY),
               "state": _count, "turn": _optional(_SEAT), "seats": _list_of(_seat_entry),
               "watchers": _list_of(read_name)},
    Error: {"code": _CODE, "params": _object, "state": _count},
    Reaction: {"seat": _SEAT, "key": _reaction},
    Over: {"transcript": _object},
    HostLeft: {},
    Proof: {"signature": _pattern(proof.SIGNATURE, "a P-256 signature in base64url")},
    HostBeat: {"state": _count},
}
GUEST_TYPES = {kind.TYPE: kind for kind in (Join, Decide, React, Leave, Challenge, Beat, Sync,
                                            Watch)}
HOST_TYPES = {kind.TYPE: kind for kind in (Refused, Lobby, Seated, TableUpdate, Error, Reaction,
                                           Over, HostLeft, Proof, HostBeat, Watching)}


def _read(text: Any, types: Mapping[str, Any], most: int) -> Any:
    if type(text) is not str:
        raise MessageError("a message must be text", code="not_text")
    if len(text) > most:  # before parsing: a huge message costs nothing more
        raise MessageError(f"a message holds at most {most} characters", code="too_big",
                           params={"most": most})
    if too_deep(text, MAX_DEPTH):
        raise MessageError("a message nests too deep", code="too_deep",
                           params={"most": MAX_DEPTH})
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise MessageError("a message must be JSON", code="not_json") from None
    if type(data) is not dict:
        raise MessageError("a message must be a JSON object", code="not_json")
    if type(data.get("v")) is not int or data["v"] != VERSION:
        raise MessageError(f"a message of version {VERSION} expected", code="bad_version",
                           params={"version": VERSION})
    kind = types.get(data["type"]) if type(data.get("type")) is str else None
    if kind is None:
        raise MessageError("unknown message type", code="unknown_type",
                           params={"types": sorted(types)})
    checks = FIELDS[kind]
    extra = set(data) - {"v", "type", *checks}
    if extra:
        raise MessageError(f"{kind.TYPE} has no field {sorted(extra)[0][:40]!r}",
                           code="unknown_field", params={"field": sorted(extra)[0][:40]})
    values = {}
    optional = {f.name for f in dataclasses.fields(kind)
                if f.default_factory is not dataclasses.MISSING}
    for name, check in checks.items():
        if name not in data and name in optional:
            continue  # (its default: a field added since, left out by an older page)
        if name not in data:
            raise MessageError(f"{kind.TYPE}.{name} is missing", code="missing_field",
                               params={"field": f"{kind.TYPE}.{name}"})
        values[name] = check(data[name], f"{kind.TYPE}.{name}")
    return kind(**values)


def read_guest(text: Any) -> GuestMessage:
    """A guest's message, checked; anything else raises MessageError."""
    message: GuestMessage = _read(text, GUEST_TYPES, MAX_GUEST_CHARS)
    return message


def read_host(text: Any) -> HostMessage:
    """The host's message, checked (a guest trusts the host's game, not its
    wire: a broken message must not take the guest's page down)."""
    message: HostMessage = _read(text, HOST_TYPES, MAX_HOST_CHARS)
    return message
