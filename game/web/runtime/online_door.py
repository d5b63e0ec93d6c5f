"""Play with friends: online play's actions, effects and drivers, as the
statistics and the file panel have theirs (the controller routes its
`online-*` commands, COMMANDS below, by its one table).

An online table's state is a value in the page (`Page.online`,
game.web.online.state): the host's (game.web.online.host: the game runs
here) or a guest's (game.web.online.guest: it only has its seat's
observation). Each command, wire event, tick and answer is an action
(`Stamped`: with the runtime's clock and randomness, so the reducers draw
neither) reduced by those modules' `reduce` (game.web.runtime.controller's `reduce`
picks one); what needs the outside world (the wire, the
store, the signer, the screen) is an effect carried out by the runtime
(game.web.online.runner) and answered with actions.

The drivers (`OnlineDrivers`: the wire factories, the signer, the clock) are
set by the browser (game.web.dom.worker_online) or a test. Online play's
modules (game.online, game.web.online, the wire) are not in a first
visit's download (game.build.PARTS): they are imported only once `load` has
fetched them, the first time a person chooses Play with friends, opens an
invite, or reloads a host's table.
"""

from __future__ import annotations

import base64
import os
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Awaitable, Callable, Coroutine, Protocol, Sequence, Union

from game.web.model.links import Link, read_join
from game.web.model.turn import TURN_KEY

if TYPE_CHECKING:  # online play's modules: fetched when first needed (game.build.PARTS)
    from game.analysis import Decision
    from game.core.state import Player, State
    from game.online.proof import Keys
    from game.online.wire import CodeWire, Wire, WireEvent
    from game.web.runtime.drivers import Clock, Screen
    from game.web.model.page import Page, PageAction, PageEffect
    from game.web.model.session import Session
    from game.web.model.stats_page import WriteStats
    from game.web.draw.tables import Table

ROOM_PREFIX = "jhg.online."  # the host's room, kept beside the save (+ the game)
TOKEN_PREFIX = "jhg.online.seat."  # a guest's seat token (+ the room)
# A guest's decisions at its last table, for its own analysis (game.web.online.seat_analysis).
DECISIONS_KEY = "jhg.online.decisions"


def room_key(game: str) -> str:
    return ROOM_PREFIX + game


def codes_key(game: str) -> str:
    """Kept beside the room of a table joined by codes: a reload opens no relay."""
    return ROOM_PREFIX + "codes." + game


def no_wire() -> Any:
    raise RuntimeError("online play is not available on this page")


class OnlineDrivers:
    """What online play needs of the outside world, and the wire open now
    (one a page: the host's or the guest's). No page state: that is `Page.online`."""

    def __init__(self) -> None:
        self.make_wire: Callable[[], Wire] = no_wire
        self.make_code_wire: Callable[[], CodeWire] = no_wire
        # The page's signer (the browser's WebCrypto): None, no key in the invite link.
        self.keys: Keys | None = None
        self.now: Callable[[], float] = time.monotonic
        self.address = ""  # this page's address (the browser's), for a whole invite link
        self.grace: float | None = None  # seconds; None: the room's own (game.online.host)
        # Fetches online play's modules (the browser: game.web.dom.parts); None: they are here.
        self.load: Callable[[], Awaitable[None]] | None = None
        self.wire: Wire | None = None
        self.by_code: CodeWire | None = None  # the wire, when codes are carried by hand
        # What this browser keeps (the host's own TURN server, read when a table opens).
        self.stored: Callable[[str], str | None] = lambda key: None

    def stamp(self, act: OnlineAct) -> Stamped:
        """`act` with the clock and fresh randomness (online play's reducers draw neither)."""
        # (os.urandom, as secrets does: secrets would bring hashlib into the page's start)
        fresh = base64.urlsafe_b64encode(os.urandom(18)).decode()
        return Stamped(act, self.now(), fresh)


class Runtime(Protocol):
    """What online play needs of the controller (game.web.runtime.controller's), handed
    in each time: nothing of online play keeps it."""
    online: OnlineDrivers
    screen: Screen
    link: Link
    clock: Clock

    @property
    def page(self) -> Page: ...

    @property
    def session(self) -> Session | None: ...

    def run(self, actions: Sequence[PageAction | Stamped]) -> None: ...

    def change(self, update: Callable[[], None], quiet: bool = False) -> None: ...

    def guarded(self, update: Callable[[], None]) -> None: ...

    def spawn(self, work: Coroutine[Any, Any, None]) -> Any: ...

    def stored(self, key: str) -> str | None: ...

    def keep(self, key: str, value: str) -> bool: ...

    def forget(self, key: str) -> None: ...

    def put_on_table(self, table: Table, state: State, save: dict[str, Any]) -> None: ...

    def write_stats(self, how: WriteStats) -> None: ...


def event(rt: Runtime, act: OnlineAct) -> None:
    """An online action from outside a command (a click on a guest's table,
    an effect's answer: a key pair, a proof checked...), drawn once."""
    rt.guarded(lambda: rt.change(lambda: rt.run([rt.online.stamp(act)])))


def heard(rt: Runtime, wire_event: WireEvent) -> None:
    """A wire's event (from the browser's callbacks): drawn only if what the
    page shows changed (a refused message is not: a flood must not stall it)."""
    rt.guarded(lambda: rt.change(lambda: rt.run([rt.online.stamp(Heard(wire_event))]),
                                 quiet=True))


def tick(rt: Runtime) -> None:
    """Every few seconds (the browser's timer; a test letting time pass)."""
    if rt.page.online is None:
        return  # (no table: nothing beats, and no drawing)
    rt.guarded(lambda: rt.change(lambda: rt.run([rt.online.stamp(Tick())]), quiet=True))


def ready(rt: Runtime, update: Callable[[], None]) -> None:
    """`update` once online play's modules are here: at once, or (the first
    time, in the browser) after they are fetched, as one change drawn once."""
    load = rt.online.load
    if load is None:
        update()
        return

    async def run() -> None:
        await load()
        rt.online.load = None
        rt.guarded(lambda: rt.change(update))
    rt.spawn(run())


def resume(rt: Runtime, join: str | None, watch: str | None = None) -> None:
    """Start-up: an invite in the address (`watch`: a watch link, no seat
    asked for), else the host's table kept from before."""
    invite = read_join(join) if join else None
    watched = read_join(watch) if watch and invite is None else None
    s, drivers = rt.session, rt.online
    found = invite or watched
    if found is not None:
        game, room, secret, key = found
        watching = invite is None
        # (a watcher is never given a seat token, nor joins by codes)
        ready(rt, lambda: rt.run([drivers.stamp(Invited(
            game, room, secret, key, None if watching else rt.link.code,
            None if watching else rt.stored(TOKEN_PREFIX + room),
            drivers.keys is not None, watching,
            None if watching else rt.stored(DECISIONS_KEY)))]))
    elif s is not None and s.coach is None and s.save["setup"].get("remote"):
        kept = s.save["game"]
        ready(rt, lambda: rt.run([drivers.stamp(Reopened(
            rt.stored(room_key(kept)), bool(rt.stored(codes_key(kept))), drivers.address,
            drivers.keys is not None, rt.stored(TURN_KEY)))]))


# -- the actions: commands, what the wire and the clock say, the effects' answers -----

@dataclass(frozen=True)
class HostTable:
    """A new room for the start screen's choices (a room already playing closes);
    `turn`: the host's own TURN server as this browser keeps it (game.web.model.turn)."""
    address: str
    grace: float | None
    signs: bool
    turn: str | None = None


@dataclass(frozen=True)
class Reopened:
    """After a reload: the room kept beside the save (`text`; None: none kept)."""
    text: str | None
    by_code: bool
    address: str
    signs: bool
    turn: str | None = None  # the host's own TURN server, as kept (game.web.model.turn)


@dataclass(frozen=True)
class Invited:
    """An invite link opened: `kept`, the seat token this browser kept for the
    room; `decisions`, the decisions it kept (game.web.online.seat_analysis)."""
    game: str
    room: str
    secret: str
    key: str | None
    code: str | None
    kept: str | None
    signs: bool
    watching: bool = False  # a watch link: no seat asked for
    decisions: str | None = None


@dataclass(frozen=True)
class OpenWire:
    by_code: bool
    address: str  # this page's address, for a whole invite link
    signs: bool  # this page can sign (its drivers have the signer)


@dataclass(frozen=True)
class InviteByCode:
    seat: str = ""  # an away friend's (at the table: their seat's token takes it back)


@dataclass(frozen=True)
class Retry:
    by_code: bool


@dataclass(frozen=True)
class Accept:
    """A friend's answer code, pasted by the host."""
    peer: str
    answer: str


@dataclass(frozen=True)
class ChooseSeat:
    who: str
    value: str  # host, here, peer:<id>, bot:<level>, open


@dataclass(frozen=True)
class ChooseStandIn:
    level: str


@dataclass(frozen=True)
class Start:
    pass


@dataclass(frozen=True)
class Join:
    name: str


@dataclass(frozen=True)
class Decide:
    """A click on a guest's table: a whole action, or a part of one."""
    act: str | None
    part: str | None


@dataclass(frozen=True)
class Confirm:
    pass


@dataclass(frozen=True)
class ClearChoice:
    pass


@dataclass(frozen=True)
class AskHint:
    pass


@dataclass(frozen=True)
class AckHand:
    pass


@dataclass(frozen=True)
class CloseFinal:
    pass


@dataclass(frozen=True)
class OpenFinal:
    """The game's summary, closed, opened again (its analysis and review are there)."""


@dataclass(frozen=True)
class PlayHere:
    pass


@dataclass(frozen=True)
class React:
    key: str


@dataclass(frozen=True)
class Leave:
    """Back to this page's own games; the others are told."""


@dataclass(frozen=True)
class DownloadRecord:
    pass


@dataclass(frozen=True)
class ReviewRecord:
    pass


@dataclass(frozen=True)
class Analyse:
    """A guest's "Analyse this hand" on a summary: its own decisions judged on its device."""


@dataclass(frozen=True)
class CancelAnalysis:
    pass


@dataclass(frozen=True)
class SeatDecided:
    """The guest's analysis judged the next decision of run `run` (game.web.runtime.analysis_run)."""
    run: int
    decision: Decision


@dataclass(frozen=True)
class Heard:
    """A wire's event."""
    event: WireEvent


@dataclass(frozen=True)
class Tick:
    """Time passes: the pages at a table beat, a silent friend is away, an
    away friend's grace period may end, a silent host is said on a guest's page."""


@dataclass(frozen=True)
class GameMoved:
    """The game on the table moved (the host's room tells every friend)."""
    after: State


@dataclass(frozen=True)
class KeysMade:
    key: str
    private: str


@dataclass(frozen=True)
class KeysFailed:
    pass


@dataclass(frozen=True)
class CodeMade:
    """An invitation code made for `peer` (for an away friend's `seat`)."""
    peer: str
    code: str
    seat: str


@dataclass(frozen=True)
class AnswerTaken:
    peer: str


@dataclass(frozen=True)
class AnswerRefused:
    """The pasted answer code was mistyped, cut short, or not an answer."""


@dataclass(frozen=True)
class Started:
    """The host's game is on the table: the room starts it."""
    state: State
    transcript: dict[str, Any]


@dataclass(frozen=True)
class Answered:
    """This guest page's answer code, made."""
    answer: str


@dataclass(frozen=True)
class InvitationRefused:
    """The host's invitation code was mistyped, cut short, or not an invitation."""


@dataclass(frozen=True)
class Verified:
    peer: str
    signature: str
    ok: bool


@dataclass(frozen=True)
class HintThought:
    state_id: int
    action: str | None


@dataclass(frozen=True)
class KeepTurn:
    """The host keeps its own TURN server in this browser (game.web.model.turn)."""
    address: str
    user: str
    credential: str


@dataclass(frozen=True)
class ForgetTurn:
    """The host's own TURN server forgotten in this browser."""


OnlineAct = Union[HostTable, Reopened, Invited, OpenWire, InviteByCode, Retry, Accept,
                  ChooseSeat, ChooseStandIn, Start, Join, Decide, Confirm, ClearChoice,
                  AskHint, AckHand, CloseFinal, OpenFinal, PlayHere, React, Leave, DownloadRecord,
                  ReviewRecord, Heard, Tick, GameMoved, KeysMade, KeysFailed, CodeMade,
                  AnswerTaken, AnswerRefused, Started, Answered, InvitationRefused, Verified,
                  HintThought, KeepTurn, ForgetTurn, Analyse, CancelAnalysis, SeatDecided]


@dataclass(frozen=True)
class Stamped:
    """An online action with the runtime's clock (`now`, seconds) and fresh
    randomness (tokens and ids are made from it: game.web.online.state.derived)."""
    act: OnlineAct
    now: float
    fresh: str


# -- the effects: carried out by the runtime (game.web.online.runner) ------------------

@dataclass(frozen=True)
class Effect:
    """What online play's reducers ask of the runtime."""


@dataclass(frozen=True)
class Send(Effect):
    peer: str
    text: str


@dataclass(frozen=True)
class OpenLine(Effect):
    """Open a wire (`by_code`: the codes carried by hand) for the room;
    `keyed`: the keys its relayed path is signed or checked with; `turn`: the
    host's own TURN server (an RTCIceServer) its direct channels may use."""
    by_code: bool
    room: str
    secret: str
    keyed: tuple[str, ...] = ()
    turn: dict[str, str] | None = None


@dataclass(frozen=True)
class CloseLine(Effect):
    pass


@dataclass(frozen=True)
class Keep(Effect):
    key: str
    value: str


@dataclass(frozen=True)
class Forget(Effect):
    key: str


@dataclass(frozen=True)
class MakeKeys(Effect):
    """The host's key pair (answered by KeysMade, or KeysFailed)."""


@dataclass(frozen=True)
class Sign(Effect):
    """Prove to `peer` that this page is the host: `text` signed, sent as a Proof."""
    peer: str
    private: str
    text: str


@dataclass(frozen=True)
class Check(Effect):
    """Whether `signature` is the host's (`key`) for this page's challenge
    (answered by Verified)."""
    peer: str
    signature: str
    key: str | None  # (None: the link had none, and the check fails)
    room: str
    nonce: str


@dataclass(frozen=True)
class MakeInvitation(Effect):
    seat: str


@dataclass(frozen=True)
class TakeAnswer(Effect):
    peer: str
    answer: str


@dataclass(frozen=True)
class AnswerInvitation(Effect):
    code: str


@dataclass(frozen=True)
class PutOnTable(Effect):
    """The host's game on the table as any game (answered by Started)."""
    game: str
    state: State
    save: dict[str, Any]


@dataclass(frozen=True)
class Redraw(Effect):
    """What the page shows changed (a wire's event or a tick is drawn only then)."""


@dataclass(frozen=True)
class ScreenStill(Effect):
    """Nothing in flight; the live region takes the first `heard` log entries as read."""
    heard: int


@dataclass(frozen=True)
class CardsMoved(Effect):
    game: str
    events: tuple[dict[str, Any], ...]
    seat: Player


@dataclass(frozen=True)
class Download(Effect):
    name: str
    text: str


@dataclass(frozen=True)
class Review(Effect):
    transcript: dict[str, Any]
    seat: str | None


@dataclass(frozen=True)
class Count(Effect):
    """The guest's finished game, in this browser's statistics (its online bucket)."""
    transcript: dict[str, Any]
    room: str
    seat: str | None


@dataclass(frozen=True)
class AnalyseSeat(Effect):
    """Judge the guest's running analysis's decisions one by one (its `run`)."""
    run: int


@dataclass(frozen=True)
class ThinkHint(Effect):
    room: str
    state_id: int
    observation: dict[str, Any]


Result = tuple["Page", tuple[Union["PageEffect", Effect], ...]]


# The commands of online play (`data-cmd`), each an action (made with what
# the drivers know) once its modules are here: entries of the page's one
# routing table (game.web.runtime.controller's ROUTES). "online-copy" never comes:
# the page copies.
COMMANDS: dict[str, Callable[[OnlineDrivers, dict[str, str]], OnlineAct]] = {
    "online-host": lambda drivers, _: HostTable(drivers.address, drivers.grace,
                                                drivers.keys is not None,
                                                drivers.stored(TURN_KEY)),
    "online-turn": lambda _, data: KeepTurn(data.get("address", ""), data.get("user", ""),
                                            data.get("credential", "")),
    "online-turn-forget": lambda _, __: ForgetTurn(),
    "online-open": lambda drivers, _: OpenWire(False, drivers.address, drivers.keys is not None),
    "online-open-codes": lambda drivers, _: OpenWire(True, drivers.address,
                                                     drivers.keys is not None),
    "online-invite-code": lambda _, data: InviteByCode(data.get("seat", "")),
    "online-retry": lambda _, data: Retry(by_code=data.get("way") == "codes"),
    "online-accept": lambda _, data: Accept(data.get("peer", ""), data.get("answer", "")),
    "online-seat": lambda _, data: ChooseSeat(data.get("seat", ""), data.get("value", "")),
    "online-standin": lambda _, data: ChooseStandIn(data.get("value", "")),
    "online-start": lambda _, __: Start(),
    "online-join": lambda _, data: Join(data.get("name", "")),
    "online-confirm": lambda _, __: Confirm(),
    "online-hint": lambda _, __: AskHint(),
    "online-ack-hand": lambda _, __: AckHand(),
    "online-close-final": lambda _, __: CloseFinal(),
    "online-open-final": lambda _, __: OpenFinal(),
    "online-play-here": lambda _, __: PlayHere(),
    "online-react": lambda _, data: React(data.get("key", "")),
    "online-leave": lambda _, __: Leave(),
    "online-back": lambda _, __: Leave(),
    "online-download": lambda _, __: DownloadRecord(),
    "online-review": lambda _, __: ReviewRecord(),
    "online-analyse": lambda _, __: Analyse(),
    "online-analysis-cancel": lambda _, __: CancelAnalysis()}
