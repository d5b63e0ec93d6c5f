"""Play with friends: the page's part of an online table, beside the
controller as the statistics and the file panel are (game.web.controller
keeps one `Online` and hands it every move; its `online-*` commands are
this module's COMMANDS, routed by the controller's one table).

This page is either the host (game.web.online_host: the game runs here) or a
guest (game.web.online_guest: it only has its seat's observation). The wire
is a driver (game.online.wire.Wire) made by `make_wire`, which the browser
sets to its relay wire (game.web.dom.wire) and the tests to a loopback; its
events arrive here, each one a change of the page drawn once. `now` is the
clock the room's grace periods are measured with; `tick` is called every
few seconds by the browser (and by the tests when they let time pass).

Online play's modules (game.online, game.web.online_*, the wire) are not in
a first visit's download (game.build.PARTS): this module imports them only
once `load` has fetched them (`ready`), the first time a person chooses Play
with friends, opens an invite, or reloads a host's table.
"""

from __future__ import annotations

import dataclasses
import time
from typing import TYPE_CHECKING, Any, Awaitable, Callable

from game.web import page as pg
from game.web.html import EMPTY, Html
from game.web.links import read_join

if TYPE_CHECKING:  # online play's modules: fetched when first needed (game.build.PARTS)
    from game.core.state import State
    from game.online.host import Event as HostEvent
    from game.online.proof import Keys
    from game.online.wire import CodeWire, Wire, WireEvent
    from game.web.controller import Controller
    from game.web.online_guest import OnlineGuest
    from game.web.online_host import OnlineHost
    from game.web.views import GuestParts


def no_wire() -> Any:
    raise RuntimeError("online play is not available on this page")


class Online:
    def __init__(self, ctrl: Controller) -> None:
        self.ctrl = ctrl
        self.make_wire: Callable[[], Wire] = no_wire
        self.make_code_wire: Callable[[], CodeWire] = no_wire
        # The page's signer (the browser's WebCrypto): None, no key in the invite link.
        self.keys: Keys | None = None
        self.now: Callable[[], float] = time.monotonic
        self.address = ""  # this page's address (the browser's), for a whole invite link
        self.grace: float | None = None  # seconds; None: the room's own (game.online.host)
        # Fetches online play's modules (the browser: game.web.dom.parts); None: they are here.
        self.load: Callable[[], Awaitable[None]] | None = None
        self.host: OnlineHost | None = None
        self.guest: OnlineGuest | None = None

    def contacts(self) -> Html:
        from game.web.connection import relay_hosts, stun_hosts
        from game.web.online_view import contact_sentence
        from game.web.turn import stored

        turn = stored(self.ctrl) if self.host is not None else None
        return contact_sentence(self.ctrl.t, relay_hosts(), stun_hosts(),
                                turn.host if turn is not None else "", guest=self.guest is not None)

    def show(self) -> None:
        self.ctrl.page = dataclasses.replace(self.ctrl.page, view="online", overlay="none")

    # -- what comes in ----------------------------------------------------------------

    def heard(self, event: WireEvent) -> None:
        """A wire's event (from the browser's callbacks): one change, drawn once."""
        host, guest = self.host, self.guest
        if host is not None:
            self.hosted(host, event)
        elif guest is not None:
            self.ctrl.guarded(lambda: self.ctrl.change(lambda: guest.hear(event)))

    def hosted(self, host: OnlineHost, event: WireEvent | HostEvent) -> None:
        """The host's room hears `event`; the page is drawn only if something it
        shows changed (not for a refused message: a flood must not stall it)."""
        def update() -> None:
            rest = host.take(event)
            if rest is not None:
                self.ctrl.change(rest)
        self.ctrl.guarded(update)

    def tick(self) -> None:
        """Time passes: the pages at a table beat, a silent friend is away, an
        away friend's grace period may end, a silent host is said on a guest's page."""
        host, guest = self.host, self.guest
        if host is not None and host.wire is not None:
            from game.online.host import Tick

            self.hosted(host, Tick())
        elif guest is not None and guest.wire is not None:
            def step() -> None:
                if guest.tick(self.now()):
                    self.ctrl.change(lambda: None)
            self.ctrl.guarded(step)

    def moved(self, after: State) -> None:
        if self.host is not None:
            self.host.moved(after)

    def ready(self, update: Callable[[], None]) -> None:
        """`update` once online play's modules are here: at once, or (the first
        time, in the browser) after they are fetched, as one change drawn once."""
        load = self.load
        if load is None:
            update()
            return

        async def run() -> None:
            await load()
            self.load = None
            self.ctrl.guarded(lambda: self.ctrl.change(update))
        self.ctrl.spawn(run())

    def resume(self, join: str | None) -> None:
        """Start-up: an invite in the address, else the host's table kept from before."""
        invite = read_join(join) if join else None
        s = self.ctrl.session
        if invite is not None:
            self.ready(lambda: self.invited(*invite))
        elif s is not None and s.coach is None and s.save["setup"].get("remote"):
            self.ready(self.reopen)

    def invited(self, game: str, room: str, secret: str, key: str | None) -> None:
        from game.web.online_guest import OnlineGuest

        self.guest = OnlineGuest(self, game, room, secret, key, code=self.ctrl.link.code)
        self.ctrl.dispatch(pg.SetupChanged({"game": game}))  # the page named after it
        self.show()
        if self.guest.rejoins and self.guest.code is None:
            self.guest.join(self.guest.guest.name)

    def reopen(self) -> None:
        from game.web.online_host import reopen

        self.host = reopen(self)

    # -- the commands (`online-*`, COMMANDS below) ------------------------------------

    def host_table(self) -> None:
        """A new room hosted here, its lobby shown (a room already playing closes)."""
        from game.web.online_host import new_host

        if self.host is not None and self.host.room.started:
            self.host.close()
        self.host = new_host(self, self.ctrl.page.setup)
        self.show()

    def invite_by_code(self, seat: str = "") -> None:
        """A new invitation by codes (for an away friend's `seat`, at the table)."""
        if self.host is not None:
            self.later(self.host.invite_by_code(seat))

    def download_record(self) -> None:
        """A guest's game as a file (what its seat saw)."""
        guest = self.guest
        if guest is not None:
            self.ctrl.screen.download(f"{guest.game}-online.json", guest.record())

    def review_record(self) -> None:
        guest = self.guest
        if guest is not None and guest.guest.transcript:
            self.ctrl.screen.review(self.ctrl, guest.guest.transcript, guest.guest.seat)

    def later(self, work: Awaitable[None]) -> None:
        """`work` of the code wire, awaited: then one change, drawn once."""
        async def run() -> None:
            try:
                await work
            except Exception as e:  # a wire's failure is said on the page, never a crash
                self.ctrl.screen.error(f"online: {type(e).__name__}: {e}")
            self.ctrl.guarded(lambda: self.ctrl.change(lambda: None))
        self.ctrl.spawn(run())

    def react(self, key: str) -> None:
        from game.online import guest as g
        from game.online.host import HostReacts

        if self.guest is not None:
            self.guest.hear(g.ReactNow(key))
        elif self.host is not None and self.ctrl.session is not None:
            self.host.hear(HostReacts(str(self.ctrl.session.save["setup"]["me"]), key))

    def decide(self, act: str | None, part: str | None) -> None:
        """A click on a guest's table."""
        guest = self.guest
        if guest is not None:
            self.ctrl.change(lambda: guest.decide(act, part))

    def clear_choice(self) -> None:
        guest = self.guest
        if guest is not None:
            self.ctrl.change(guest.clear_choice)

    def leave(self) -> None:
        """Back to this page's own games; the others are told."""
        if self.host is not None:
            self.host.close()
        if self.guest is not None:
            self.guest.leave()
        self.host = self.guest = None
        self.ctrl.page = dataclasses.replace(self.ctrl.page, view="start")
        self.ctrl.screen.still()
        if self.ctrl.session is not None:
            self.ctrl.screen.heard(len(self.ctrl.session.log_so_far))  # (read out before)
            self.ctrl.dispatch(pg.BackToTable())

    # -- what the page shows -----------------------------------------------------------

    def screen_html(self) -> Html:
        if self.guest is not None:
            if self.guest.code is not None:  # invited by codes: the host's device alone
                from game.web.online_view import codes_contact_sentence

                return self.guest.html(codes_contact_sentence(self.ctrl.t))
            return self.guest.html(self.contacts())
        if self.host is not None:
            return self.host.html(self.contacts())
        return EMPTY

    def side_html(self) -> Html:
        """A guest's log at the table; else how to play the game of the table."""
        from game.web.start_screen import help_html

        guest = self.guest
        if guest is not None and guest.guest.observation is not None:
            return guest.side()
        game = guest.game if guest is not None else self.host.game if self.host else None
        return help_html(self.ctrl.t, game) if game is not None else EMPTY

    def bar(self) -> Html:
        return self.host.bar() if self.host is not None else EMPTY

    def guest_parts(self) -> GuestParts | None:
        """A guest's table's tools, dialog, news and hint (the host's table is the page's own)."""
        return self.guest.parts() if self.guest is not None else None


OnlineCommand = Callable[[Online, dict[str, str]], None]


def _on_host(do: Callable[[OnlineHost, dict[str, str]], object]) -> OnlineCommand:
    """A command of the host's page: nothing on any other."""
    def run(online: Online, data: dict[str, str]) -> None:
        if online.host is not None:
            do(online.host, data)
    return run


def _on_guest(do: Callable[[OnlineGuest, dict[str, str]], object]) -> OnlineCommand:
    """A command of a guest's page: nothing on any other."""
    def run(online: Online, data: dict[str, str]) -> None:
        if online.guest is not None:
            do(online.guest, data)
    return run


# The commands of online play (`data-cmd`), each run once its modules are
# here (`Online.ready`): entries of the page's one routing table
# (game.web.controller's ROUTES). "online-copy" never comes: the page copies.
COMMANDS: dict[str, OnlineCommand] = {
    "online-host": lambda online, _: online.host_table(),
    "online-open": _on_host(lambda host, _: host.open(by_code=False)),
    "online-open-codes": _on_host(lambda host, _: host.open(by_code=True)),
    "online-invite-code": lambda online, data: online.invite_by_code(data.get("seat", "")),
    "online-retry": _on_host(lambda host, data: host.retry(by_code=data.get("way") == "codes")),
    "online-accept": _on_host(lambda host, data: host.accept(data.get("peer", ""),
                                                             data.get("answer", ""))),
    "online-seat": _on_host(lambda host, data: host.choose(data.get("seat", ""),
                                                           data.get("value", ""))),
    "online-standin": _on_host(lambda host, data: host.choose_stand_in(data.get("value", ""))),
    "online-start": _on_host(lambda host, _: host.start()),
    "online-turn": _on_host(lambda host, data: host.keep_turn(data)),
    "online-turn-forget": _on_host(lambda host, _: host.keep_turn(None)),
    "online-join": _on_guest(lambda guest, data: guest.join(data.get("name", ""))),
    "online-confirm": _on_guest(lambda guest, _: guest.confirm()),
    "online-hint": _on_guest(lambda guest, _: guest.ask_hint()),
    "online-ack-hand": _on_guest(lambda guest, _: guest.ack_hand()),
    "online-close-final": _on_guest(lambda guest, _: guest.close_final()),
    "online-play-here": _on_guest(lambda guest, _: guest.play_here()),
    "online-react": lambda online, data: online.react(data.get("key", "")),
    "online-leave": lambda online, _: online.leave(),
    "online-back": lambda online, _: online.leave(),
    "online-download": lambda online, _: online.download_record(),
    "online-review": lambda online, _: online.review_record()}
