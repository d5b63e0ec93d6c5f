"""A guest's page at an online table: its screen (`GuestScreen`,
game.web.online.state: the `Guest` value of game.online.guest and its
`SeatTable`), the pure reducer that changes it, and what it draws (drawn,
picked and summed up by game.web.online.table, the same code as the table
here, from what the host sent).

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

import dataclasses
import json
from typing import Any, Callable

from game.core.state import GameError
from game.online import guest as g
from game.online.wire import PeerPath, RelaysChanged, WireEvent
from game.web.runtime import online_door as ol
from game.web.model import effects as fx
from game.web.online import seat_analysis as sa
from game.web.online import table as ot
from game.web.model import page as pg
from game.web.draw.html import EMPTY, Html, html
from game.web.online.host import left
from game.web.online.state import GuestScreen, SeatTable, derived
from game.web.online.table import Turn
from game.web.online.view import (bar, guest_answer, guest_end, guest_join, guest_message,
                                  guest_waiting)
from game.web.model.page import Page
from game.web.draw.tables import WordedLog, explain, renderer
from game.web.draw.views import GuestParts

TOKEN_LIMIT = 4096  # characters: a token and a name take about a hundred
# Relays reached and no host after this long (seconds): the page says why it may be.
HOST_WAIT_S = 10.0
# A wire's failure in the player's words (its code; others: "the connection failed").
FAILURES = {"wire_failed": "online.wire_failed", "bad_code": "online.bad_code",
            "no-relay": "online.no_relay_guest", "no-webrtc": "online.no_webrtc"}

Effects = tuple[Any, ...]  # the page's and online play's effects (game.web.runtime.online_door.Result)


def _guest(page: Page) -> GuestScreen:
    assert isinstance(page.online, GuestScreen)
    return page.online


def _with(page: Page, screen: GuestScreen, **changes: Any) -> Page:
    return dataclasses.replace(page, online=dataclasses.replace(screen, **changes))


# -- an invite opened -----------------------------------------------------------------

def _kept(text: str | None) -> dict[str, Any] | None:
    """The seat token and name this browser kept for the room ({}: none);
    None: one that fails its checks (forgotten and told once: the person joins anew)."""
    if not text:
        return {}
    try:
        data = json.loads(text) if len(text) <= TOKEN_LIMIT else None
    except ValueError:
        data = None
    if isinstance(data, dict) and all(isinstance(v, str) for v in data.values()):
        return data
    return None


def _invited(page: Page, st: ol.Stamped) -> ol.Result:
    act = st.act
    assert isinstance(act, ol.Invited)
    kept = _kept(act.kept)
    out: Effects = ()
    if kept is None:
        page, out = pg.reduce(page, pg.Notice("notice.seat_ignored", {}))
        out = (ol.Forget(ol.TOKEN_PREFIX + act.room), *out)
        kept = {}
    # The seat token goes back only to the host it was issued by: kept with
    # the key of the link it was issued through, it is used again only
    # through a link with that key, and never through a link without one
    # where this page can check keys (a page holding the link alone could
    # answer first and take the seat).
    link_key = act.key or ""
    same_host = kept.get("key", "") == link_key and (act.key is not None or act.code is not None
                                                     or not act.signs)
    # By codes the one page at the other end is the host's (the code fixes
    # its connection's keys): the key is asked for only in the relays' mesh.
    key = act.key if act.code is None and act.signs else None
    guest = g.Guest(act.secret, str(kept.get("name", "")),
                    kept.get("token") if same_host else None, key=key,
                    nonce=derived(st.fresh, "nonce"), watching=act.watching)
    decisions = sa.from_kept(act.decisions, act.room)
    if decisions is None:
        page, told = pg.reduce(page, pg.Notice("notice.decisions_ignored", {}))
        out = (*out, ol.Forget(ol.DECISIONS_KEY), *told)
    # (a new seat starts with none: they were another seat's)
    seen = decisions if decisions and guest.token is not None else ()
    screen = GuestScreen(act.game, act.room, guest, link_key=link_key, code=act.code,
                         analysis=sa.SeatAnalysis(seen=seen))
    more: Effects
    page, more = pg.reduce(page, pg.SetupChanged({"game": act.game}))  # the page named after it
    page = dataclasses.replace(page, online=screen, view="online", overlay="none")
    out = (*out, *more)
    if screen.rejoins and screen.code is None:
        page, more = _join(page, screen.guest.name, st.now)
        out = (*out, *more)
    return page, out


# -- the wire -----------------------------------------------------------------------------

def _join(page: Page, name: str, now: float) -> ol.Result:
    screen = _guest(page)
    name = " ".join(name.split())[:24] or page.t("online.guest")
    if screen.wired and g.name_refused(screen.guest):
        return hear(page, g.JoinAgain(name))
    screen = dataclasses.replace(screen, guest=dataclasses.replace(screen.guest, name=name))
    if screen.wired:
        return dataclasses.replace(page, online=screen), ()
    line = ol.OpenLine(screen.code is not None, screen.room, screen.guest.secret,
                       (screen.guest.key,) if screen.guest.key is not None and screen.code is None
                       else ())
    if screen.code is not None:
        return _with(page, screen, wired=True), (line, ol.AnswerInvitation(screen.code))
    return _with(page, screen, wired=True, opened_at=now), (line,)


def _tick(page: Page, screen: GuestScreen, st: ol.Stamped) -> ol.Result:
    """Time passes on this page (its beat to the host); drawn only if what the
    page shows changed (the host has stopped, or started again, answering)."""
    if not screen.wired:
        return page, ()
    silent, missing = screen.guest.host_silent, screen.host_missing
    page, out = hear(page, g.Tick(st.now))
    screen = _guest(page)
    guest = screen.guest
    missing_now = (screen.opened_at is not None and guest.host is None
                   and guest.status == "connecting" and st.now - screen.opened_at >= HOST_WAIT_S)
    page = _with(page, screen, host_missing=missing_now)
    out = tuple(e for e in out if not isinstance(e, ol.Redraw))
    if guest.host_silent != silent or missing_now != missing:
        out += (ol.Redraw(),)
    return page, out


def hear(page: Page, event: g.Event | WireEvent) -> ol.Result:
    screen = _guest(page)
    if isinstance(event, RelaysChanged) and event.reached >= 0:
        screen = dataclasses.replace(screen, reach=(event.reached, event.of))
    if isinstance(event, PeerPath):
        screen = dataclasses.replace(screen, paths={
            **screen.paths, event.peer: event.way})
    before = screen.guest
    guest, sends = g.reduce(before, event)
    screen = dataclasses.replace(screen, guest=guest,
                                 path=screen.paths.get(guest.host or "", "direct"))
    checked = _drawable(dataclasses.replace(page, online=screen), before)
    if checked is None:  # (a host of another version, or a rogue page)
        screen = dataclasses.replace(screen, guest=before,
                                     message=page.t("online.host_unreadable"))
        sends = ()
    else:
        screen = checked
    out: Effects = tuple(ol.Send(peer, text) for peer, text in sends) if screen.wired else ()
    guest = screen.guest
    if guest.token is not None and guest.token != before.token:
        out += (ol.Keep(ol.TOKEN_PREFIX + screen.room, json.dumps(
            {"token": guest.token, "name": guest.name, "key": screen.link_key})),)
    page, more = _table_heard(dataclasses.replace(page, online=screen), before)
    out += more
    screen = _guest(page)
    if isinstance(event, g.LeaveNow):
        screen = dataclasses.replace(screen, message="")
    checks = set(screen.guest.checking) - screen.verifying
    out += tuple(ol.Check(peer, signature, screen.guest.key, screen.room, screen.guest.nonce)
                 for peer, signature in sorted(checks))
    screen = dataclasses.replace(screen, verifying=screen.verifying | checks)
    guest = screen.guest
    if guest.transcript is not None and guest.transcript != before.transcript:
        out += (ol.Count(guest.transcript, screen.room, guest.seat),)
    return dataclasses.replace(page, online=screen), (*out, ol.Redraw())


def _verified(page: Page, screen: GuestScreen, st: ol.Stamped) -> ol.Result:
    act = st.act
    assert isinstance(act, ol.Verified)
    page = _with(page, screen, verifying=screen.verifying - {(act.peer, act.signature)})
    return hear(page, g.Proven(act.peer, act.signature, act.ok))


def _leave(page: Page, screen: GuestScreen, st: ol.Stamped) -> ol.Result:
    out: Effects = ()
    if screen.wired:
        page, out = hear(page, g.LeaveNow())
        page, out = _with(page, _guest(page), wired=False), (*out, ol.CloseLine())
    page, more = left(page)
    return page, (*out, *more)


# -- its table (game.web.online.table) -------------------------------------------------------

def _table_heard(page: Page, before: g.Guest) -> ol.Result:
    """The table after the guest changed: the live region and the cards
    follow the events the host sent; a choice held ahead goes once asked."""
    screen = _guest(page)
    after = screen.guest
    out: Effects = ()
    if after.observation is not None and before.observation is None:
        # A first table: read out from the deal; after a rejoin, from now on.
        fresh = before.status in ("lobby", "seated")
        out = (ol.ScreenStill(0 if fresh else len(after.log)),)
    elif before.observation is not None:
        # The cards move for the states after the table shown (a gap a
        # `sync` filled is in the log, never on the table: nothing moves for it).
        shown = max(before.log_ids, default=-1)
        moving = tuple(e for n, events in after.entries if n > shown for e in events)
        if moving:
            out = (ol.CardsMoved(screen.game, moving, after.player),)
    seat = ot.heard(screen.seat, before, after, renderer(screen.game))
    record = sa.heard(screen.analysis, after.state_id)
    if record.seen != screen.analysis.seen:  # (kept for a reload)
        out = (*out, ol.Keep(ol.DECISIONS_KEY, sa.kept_text(screen.room, record)))
    page, more = _take(_with(page, screen, seat=seat, analysis=record), ot.held_due(seat, after))
    return page, (*out, *more)


def _take(page: Page, turn: Turn) -> ol.Result:
    """A click's outcome: the table, and the decision sent to the host (kept
    with the observation it answers, for this seat's own analysis)."""
    screen = _guest(page)
    guest = screen.guest
    if turn.send is None:
        return _with(page, screen, seat=turn.seat), ()
    record = screen.analysis
    if guest.host is not None and guest.token is not None:  # (else nothing goes)
        record = sa.sent(record, guest.state_id, ot.hands(guest) + 1, guest.player,
                         dict(guest.observation or {}), turn.send)
    return hear(_with(page, screen, seat=turn.seat, analysis=record), g.DecideNow(turn.send))


def _decide(page: Page, screen: GuestScreen, st: ol.Stamped) -> ol.Result:
    """A click on the table: a whole action, or a part of one (as at a local table)."""
    act = st.act
    assert isinstance(act, ol.Decide)
    if act.act is not None:
        return _take(page, ot.act(screen.seat, screen.guest, act.act))
    if act.part is not None:
        return _take(page, ot.pick(screen.seat, screen.guest, renderer(screen.game), act.part))
    return page, ()


def _ask_hint(page: Page, screen: GuestScreen, st: ol.Stamped) -> ol.Result:
    """Hint for this seat's decision, thought from its own observation only."""
    guest = screen.guest
    if not ot.asked(screen.seat, guest) or screen.seat.hint is not None:
        return page, ()
    page = _with(page, screen, seat=dataclasses.replace(screen.seat, hint=(guest.state_id, None)))
    return page, (ol.ThinkHint(screen.room, guest.state_id, dict(guest.observation or {})),)


def _hint_thought(page: Page, screen: GuestScreen, st: ol.Stamped) -> ol.Result:
    act = st.act
    assert isinstance(act, ol.HintThought)
    if screen.seat.hint != (act.state_id, None):
        return page, ()  # the table moved on (or the page left it): the hint is moot
    hint = None if act.action is None else (act.state_id, act.action)
    return _with(page, screen, seat=dataclasses.replace(screen.seat, hint=hint)), ()


def _seat(change: Callable[[GuestScreen], SeatTable]) -> Reducer:
    return lambda page, screen, _: (_with(page, screen, seat=change(screen)), ())


def _closing(change: Callable[[GuestScreen], SeatTable]) -> Reducer:
    """A summary closed: its analysis, if running, stops with it."""
    return lambda page, screen, _: (_with(page, screen, seat=change(screen),
                                          analysis=sa.cancel(screen.analysis)), ())


def _summary_open(screen: GuestScreen) -> bool:
    """A hand's summary, or the game's, is over this seat's table."""
    guest, seat = screen.guest, screen.seat
    return ot.waiting_for_ack(seat, guest) or (ot.over(guest) and not seat.closed_final)


def _analyse(page: Page, screen: GuestScreen, st: ol.Stamped) -> ol.Result:
    """"Analyse this hand" on a summary: this seat's decisions in that hand,
    judged on this device (a watcher made none)."""
    guest = screen.guest
    if guest.watching or guest.seat is None or not _summary_open(screen):
        return page, ()
    hand = ot.hands(guest)
    record = sa.begin(screen.analysis, guest.seat, hand)
    found = sa.current(record, hand)
    if record is screen.analysis or found is None:
        return page, ()  # (under way, or done: as it is)
    page = _with(page, screen, analysis=record)
    if found.status == "running":
        return page, (ol.AnalyseSeat(found.run), fx.Focus("#ga-cancel"))
    return page, (fx.Focus("#ga-analysis-head"),)


def _cancel_analysis(page: Page, screen: GuestScreen, st: ol.Stamped) -> ol.Result:
    found = sa.current(screen.analysis, ot.hands(screen.guest))
    if found is None or found.status != "running":
        return page, ()
    return _with(page, screen, analysis=sa.cancel(screen.analysis)), (
        fx.Focus("#ga-resume" if found.decisions else "#analyse-open"),)


def _seat_decided(page: Page, screen: GuestScreen, st: ol.Stamped) -> ol.Result:
    act = st.act
    assert isinstance(act, ol.SeatDecided)
    record = sa.decided(screen.analysis, act.run, act.decision)
    return (page, ()) if record is None else (_with(page, screen, analysis=record), ())


def _download(page: Page, screen: GuestScreen, st: ol.Stamped) -> ol.Result:
    """A guest's game as a file (what its seat saw)."""
    return page, (ol.Download(f"{screen.game}-online.json", record(screen)),)


def _review(page: Page, screen: GuestScreen, st: ol.Stamped) -> ol.Result:
    transcript = screen.guest.transcript
    return page, (ol.Review(transcript, screen.guest.seat),) if transcript else ()


def _answered(page: Page, screen: GuestScreen, st: ol.Stamped) -> ol.Result:
    assert isinstance(st.act, ol.Answered)
    return _with(page, screen, answer=st.act.answer), ()


def _invitation_refused(page: Page, screen: GuestScreen, st: ol.Stamped) -> ol.Result:
    guest = dataclasses.replace(screen.guest, status="failed", refusal={
        "code": "bad_code", "params": {}})
    return _with(page, screen, guest=guest), ()


def _join_asked(page: Page, screen: GuestScreen, st: ol.Stamped) -> ol.Result:
    assert isinstance(st.act, ol.Join)
    return _join(page, st.act.name, st.now)


Reducer = Callable[[Page, GuestScreen, ol.Stamped], ol.Result]
ACTIONS: dict[type, Reducer] = {
    ol.Join: _join_asked,
    ol.Tick: _tick,
    ol.Heard: lambda page, _, st: hear(page, st.act.event) if isinstance(st.act, ol.Heard)
    else (page, ()),
    ol.Verified: _verified,
    ol.Answered: _answered,
    ol.InvitationRefused: _invitation_refused,
    ol.Decide: _decide,
    ol.Confirm: lambda page, screen, _: _take(page, ot.confirm(
        screen.seat, screen.guest, renderer(screen.game))),
    ol.ClearChoice: _seat(lambda screen: dataclasses.replace(screen.seat, picked=())),
    ol.AckHand: _closing(lambda screen: ot.ack_hand(screen.seat, screen.guest)),
    ol.CloseFinal: _closing(lambda screen: dataclasses.replace(screen.seat, closed_final=True)),
    ol.OpenFinal: _seat(lambda screen: dataclasses.replace(screen.seat, closed_final=False)),
    ol.Analyse: _analyse,
    ol.CancelAnalysis: _cancel_analysis,
    ol.SeatDecided: _seat_decided,
    ol.AskHint: _ask_hint,
    ol.HintThought: _hint_thought,
    ol.PlayHere: lambda page, _, __: hear(page, g.PlayHere()),
    ol.React: lambda page, _, st: hear(page, g.ReactNow(st.act.key))
    if isinstance(st.act, ol.React) else (page, ()),
    ol.Leave: _leave,
    ol.DownloadRecord: _download,
    ol.ReviewRecord: _review,
}


def reduce(page: Page, st: ol.Stamped) -> ol.Result:
    if isinstance(st.act, ol.Invited):
        return _invited(page, st)
    do = ACTIONS.get(type(st.act))
    if do is None or not isinstance(page.online, GuestScreen):
        return page, ()
    return do(page, page.online, st)


# -- what the page shows ------------------------------------------------------------------

def screen_html(page: Page) -> Html:
    from game.web.online.connection import relay_hosts, stun_hosts
    from game.web.online.view import codes_contact_sentence, contact_sentence

    screen, t = _guest(page), page.t
    if screen.code is not None:  # invited by codes: the host's device alone
        contacts = codes_contact_sentence(t)
    else:
        contacts = contact_sentence(t, relay_hosts(), stun_hosts(), guest=True)
    guest = screen.guest
    if not screen.wired and guest.status == "connecting":
        return guest_join(t, screen.game, contacts, guest.name, watching=guest.watching)
    if guest.status == "elsewhere":
        return guest_message(t, "online.elsewhere", {}, html(
            '<div class="buttons"><button type="button" class="primary" '
            'data-cmd="online-play-here" id="online-play-here">{}</button></div>',
            t("notice.play_here")))
    if guest.status == "refused" and g.name_refused(guest):  # another name, and Join
        return guest_join(t, screen.game, contacts, guest.name, _refusal_words(page),
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
                                 screen.path, watching=guest.watching)
        if screen.code is not None and guest.status == "connecting":
            return guest_answer(t, screen.answer)
        return _looking(page)
    return table_html(page)


def _looking(page: Page) -> Html:
    """Looking for the host: how many relays answer, whether the host was
    found, and (nobody answering this link) why that may be."""
    screen, t = _guest(page), page.t
    guest = screen.guest
    key = ("online.host_found" if guest.host is not None or guest.checking
           else "online.host_missing" if screen.host_missing else "online.connecting")
    reach = EMPTY if screen.reach is None else html(
        '<p class="online-status" id="online-relays">{}</p>',
        t("online.guest_relays", reached=screen.reach[0], of=screen.reach[1]))
    return guest_message(t, key, {}, reach)


def error_words(page: Page) -> str:
    """The host's last word on this page's decision, in this page's language;
    else the table's own message."""
    screen, t = _guest(page), page.t
    guest, table = screen.guest, renderer(screen.game)
    if not guest.errors:
        return screen.message or ot.message_words(screen.seat, guest, table, t)
    error = guest.errors[-1]
    key = "online.refused." + str(error["code"])
    if t.has(key):
        return t(key, **{k: str(v) for k, v in error["params"].items()})
    cause = GameError(str(error["code"]), code=str(error["code"]), params=error["params"])
    return explain(table, cause, guest.observation or {},
                   ot.context(screen.seat, guest, table, t))


def _drawable(page: Page, before: g.Guest) -> GuestScreen | None:
    """The screen as the host's message left it, if its table can be drawn
    (with that drawing kept, for the draw after it); None if not. Its messages
    pass their checks (game.online.messages), but only the game's own
    renderer knows every card and count. A table that cannot be drawn is not
    taken: the last good one stays on screen."""
    screen = _guest(page)
    now = screen.guest
    if now.observation is None or all(a is b for a, b in (
            (now.observation, before.observation), (now.log, before.log),
            (now.seats, before.seats), (now.player, before.player),
            (now.errors, before.errors))):
        return screen
    try:
        drawn = _inputs(page), _draw_table(page)
        if page.panel != "log":  # (a log line never fails: an odd event words as none)
            side_html(page)
        parts(page)
    except Exception:
        return None
    return dataclasses.replace(screen, drawn=drawn)


def _refusal_words(page: Page) -> str:
    refusal = _guest(page).guest.refusal or {}
    params = {k: str(v) for k, v in dict(refusal.get("params") or {}).items()}
    return page.t("online.refused." + str(refusal.get("code")), **params)


def _inputs(page: Page) -> tuple[Any, ...]:
    screen = _guest(page)
    return (screen.guest, screen.seat, page.t, page.prefs, error_words(page))


def table_html(page: Page) -> Html:
    # A message is checked by drawing its table (`_drawable`): the page's
    # draw after it takes that drawing, not a second one.
    drawn, inputs = _guest(page).drawn, _inputs(page)
    if drawn is not None and all(a is b or (isinstance(b, str) and a == b)
                                 for a, b in zip(drawn[0], inputs)):
        return drawn[1]
    return _draw_table(page)


def _draw_table(page: Page) -> Html:
    screen, t = _guest(page), page.t
    guest = screen.guest
    status = {"reconnecting": t("online.reconnecting"), "host_left": t("online.host_left"),
              "connecting": t("online.reconnecting")}.get(guest.status, "")
    if guest.host_silent:
        status = t("online.host_silent")
    strip = bar(t, list(guest.seats), guest.turn, guest.seat,
                [(_name_of(page, who), key) for who, key in guest.reactions], status,
                watchers=list(guest.watchers), watching=guest.watching)
    over = guest.transcript is not None
    end = guest_end(t, over) if over or guest.status == "host_left" else EMPTY
    news = EMPTY if guest.news is None else html(
        '<p class="online-news" id="online-news" role="status">{}</p>',
        t(guest.news[0], name=guest.news[1]))
    return ot.screen(page, screen.seat, guest, renderer(screen.game), strip + news, end,
                     error_words(page))


def _name_of(page: Page, who: str) -> str:
    entry = next((s for s in _guest(page).guest.seats if str(s.get("seat")) == who), {})
    return str(entry.get("name") or page.t("online.host"))


def side_html(page: Page, log: WordedLog | None = None) -> Html:
    """A guest's log at the table (as this seat saw it: the log, the last
    trick and the score sheet); else how to play the game of the table."""
    from game.web.draw.start_screen import help_html

    screen = page.online
    if isinstance(screen, GuestScreen) and screen.guest.observation is not None:
        return ot.side(page, screen.seat, screen.guest, renderer(screen.game), log)
    return EMPTY if screen is None else help_html(page.t, screen.game)


def _at_table(screen: GuestScreen) -> bool:
    """Its table is on the screen (the observation came, the page can draw it)."""
    guest = screen.guest
    return (guest.observation is not None and guest.status not in ("elsewhere", "refused",
                                                                     "failed")
            and not (not screen.wired and guest.status == "connecting"))


def parts(page: Page) -> GuestParts | None:
    screen = page.online
    if not isinstance(screen, GuestScreen) or not _at_table(screen):
        return None
    return ot.parts(page, screen.seat, screen.guest, renderer(screen.game), screen.analysis)


def record(screen: GuestScreen) -> str:
    """What this page saw, as a file: the transcript once the game is over."""
    guest = screen.guest
    return json.dumps(guest.transcript if guest.transcript is not None else {
        "game": screen.game, "seat": guest.seat, "observation": guest.observation,
        "log": list(guest.log)}, ensure_ascii=False, indent=1)
