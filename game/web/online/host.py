"""The host's page at an online table: its screen (`HostScreen`,
game.web.online.state: the room of game.online.host and what its lobby
says), the pure reducer that changes it, and its lobby and strip.

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
from urllib.parse import quote
from typing import Any, Callable

from game.core.state import BadStateError, State
from game.online import host as h
from game.online.wire import PeerPath, RelaysChanged, WireEvent, WireFailed
from game.web.model import handover
from game.web.runtime import online_door as ol
from game.web.model import page as pg
from game.web.model import turn as tn
from game.web.model import session as ts
from game.web.draw.html import EMPTY, Html, html, join
from game.web.online.state import HostScreen, derived
from game.web.online.view import (bar as strip, codes_html, host_intro, lobby, reinvitations,
                                  relay_status, seat_choices, stand_in_choice, turn_settings,
                                  watch_share)
from game.web.model.page import Page
from game.web.draw.tables import renderer

# Notices that only inform (a friend joined, is back): they go by themselves
# after this long (seconds), at the page's next tick.
FLEETING = ("joined", "back", "watcher_joined", "watcher_left")
NOTICE_SECONDS = 8.0

Effects = tuple[Any, ...]  # the page's and online play's effects (game.web.runtime.online_door.Result)


def hosting(page: Page) -> bool:
    return isinstance(page.online, HostScreen)


def invite_of(game: str, room: str, secret: str, key: str = "", marker: str = "join") -> str:
    """The invite link's query: the game, the room, its secret and the host's
    public key (`marker` "watch": the link that watches, game.web.model.links)."""
    return f"?{marker}={game}.{room}.{secret}" + (f".{key}" if key else "")


def _with(page: Page, host: HostScreen, **changes: Any) -> Page:
    return dataclasses.replace(page, online=dataclasses.replace(host, **changes))


def _host(page: Page) -> HostScreen:
    assert isinstance(page.online, HostScreen)
    return page.online


def _then(page: Page, effects: Effects, action: pg.PageAction) -> ol.Result:
    """`action` of the page's own reduced after `effects` (a notice, the table's move)."""
    page, more = pg.reduce(page, action)
    return page, (*effects, *more)


# -- the room hears: its messages sent, its effects carried out ---------------------------

def hear(page: Page, event: h.Event | WireEvent, now: float, fresh: str) -> ol.Result:
    """The room after `event`, its messages sent; what it changed on this page
    said by `Redraw` (none for a refused message: a flood costs its reading,
    not a drawing and a save each)."""
    host = _host(page)
    if isinstance(event, RelaysChanged):
        return _relays_changed(page, host, event)
    if isinstance(event, PeerPath):  # (the lobby's list says each friend's)
        paths = {**host.paths, event.peer: event.way}
        return _with(page, host, paths=paths), (ol.Redraw(),)
    if isinstance(event, WireFailed) and event.code == "no-relay":  # said in the lobby
        return (page, ()) if host.no_relay else (_with(page, host, no_relay=True),
                                                 (ol.Redraw(),))
    before = _shown(host.room)
    room, sends, effects = h.reduce(host.room, event, now)
    out: Effects = tuple(ol.Send(s.peer, s.text) for s in sends) if host.wire else ()
    page = _with(page, host, room=room)
    waiting = waiting_words(page, now)
    fleeting = tuple(n for n in host.fleeting if now - n[2] < NOTICE_SECONDS)
    gone = tuple((key, words) for key, words, at in host.fleeting if now - at >= NOTICE_SECONDS)
    if not effects and _shown(room) == before and waiting == host.waiting_said and not gone:
        return page, out
    page = _with(page, _host(page), waiting_said=waiting, fleeting=fleeting)
    out += (ol.Redraw(),)
    if gone:
        page, out = _then(page, out, pg.NoticesGone(gone))
    for effect in effects:
        page, more = _room_effect(page, effect, now)
        out += more
    host = _host(page)
    if not host.room.started:
        page, more = _auto_seat(page, now, fresh)  # (after the messages above: a seat is told last)
        return page, (*out, *more)
    # The strip's word as the effects left the table (a bot standing in waits for nobody).
    page = _with(page, host, waiting_said=waiting_words(page, now))
    return page, (*out, ol.Keep(ol.room_key(host.game), json.dumps(h.room_to_json(host.room))))


def _relays_changed(page: Page, host: HostScreen, event: RelaysChanged) -> ol.Result:
    """How many relays answer (counted from the start, as they change): the
    lobby says it, and shows the link only once one does."""
    reach = (event.reached, event.of) if event.reached >= 0 else host.reach
    ever = host.relays_ever or event.up
    no_relay = host.no_relay and not event.up
    down = not event.up and (ever or event.reached < 0)
    after = dataclasses.replace(host, reach=reach, relays_ever=ever, no_relay=no_relay,
                                relays_down=down)
    if after == host:
        return page, ()
    return dataclasses.replace(page, online=after), (ol.Redraw(),)


def _shown(room: h.Room) -> tuple[Any, ...]:
    """What of the room this page draws or keeps (not a peer's message count)."""
    return (room.seats, room.state_id, room.started,
            tuple((p.peer, p.name, p.joined, p.seat) for p in room.peers))


def waiting_words(page: Page, now: float) -> str:
    """Whom the host's table waits for: a friend on turn, or one away, with
    the seconds before a bot takes their seat."""
    host, s, t = _host(page), page.session, page.t
    who = s.remote_on_turn if s is not None and s.save.get("game") == host.game else None
    seat = host.room.seat(who) if who is not None and host.room.started else None
    if seat is None or seat.kind != "person":
        return ""
    if seat.peer is None and seat.away_since is not None and not seat.stood_in:
        left = math.ceil(seat.away_since + host.room.grace - now)
        return t("online.waiting_away", name=seat.name, seconds=max(left, 0))
    return t("online.waiting_for", name=seat.name)


def _room_effect(page: Page, effect: h.Effect, now: float) -> ol.Result:
    host = _host(page)
    room = host.room
    if isinstance(effect, h.Decided):  # applied like a bot's move, unless the game moved on
        if effect.state_id == room.state_id and room.state is not None:
            return pg.reduce(page, pg.OnTable(ts.RemoteMoved(room.state, effect.who,
                                                             effect.action)))
        return page, ()
    if isinstance(effect, (h.StandIn, h.HandBack)):
        return _stood_in(page, effect.who, effect.level if isinstance(effect, h.StandIn) else None)
    if isinstance(effect, h.Notice):
        words = {k: str(v) for k, v in effect.params.items()}
        if effect.key in FLEETING:
            page = _with(page, host, fleeting=(*host.fleeting, ("online." + effect.key, words, now)))
        return pg.reduce(page, pg.Notice("online." + effect.key, words))
    if isinstance(effect, h.Prove):  # a page asked this one to prove it is the host
        proves = host.signs and host.wire != "" and bool(room.private)
        return page, (ol.Sign(effect.peer, room.private, effect.text),) if proves else ()
    seat = room.seat(effect.who)
    return _with(page, host, heard=(*host.heard, (seat.name if seat else effect.who,
                                                  effect.key))[-3:]), ()


def _stood_in(page: Page, who: str, level: str | None) -> ol.Result:
    """A bot of `level` plays `who`'s seat (None: the friend is back)."""
    s = page.session
    if s is None or s.save.get("game") != _host(page).game:
        return page, ()
    setup = dict(s.save["setup"])
    stood = [w for w in setup.get("stood_in", []) if w != who]
    bots = {k: v for k, v in setup["bots"].items() if k != who}
    if level is not None:
        stood, bots = [*stood, who], {**bots, who: level}
    page, effects = pg.reduce(page, pg.SaveUpdated({"setup": {**setup, "stood_in": stood,
                                                              "bots": bots}}))
    return _then(page, (*effects, ts.Persist()), pg.BotsAnew())


def _auto_seat(page: Page, now: float, fresh: str) -> ol.Result:
    """A friend who joined and has no seat takes the first seat a bot holds."""
    out: Effects = ()
    for peer in _host(page).room.peers:
        if peer.joined and peer.seat is None:
            seat = next((s for s in _host(page).room.seats if s.kind in ("bot", "open")), None)
            if seat is None:
                break
            page, more = hear(page, h.SeatPerson(seat.who, peer.peer,
                                                 derived(fresh, "seat." + peer.peer)), now, fresh)
            out += more
    return page, out


# -- a new room, or the one kept beside the save -------------------------------------------

def _new_host(page: Page, act: ol.HostTable, fresh: str) -> HostScreen:
    """A room for the start screen's choices: its seats as they chose (me and
    the people here at the host's screen, bots elsewhere), the game dealt."""
    from game import new_game
    from game.bots import levels

    setup, t = page.setup, page.t
    game = setup["game"]
    parsed = renderer(game).parse_setup(setup, list(levels(game)))
    seed = (int(setup["seed"]) if setup.get("seed", "").isdigit()
            else int(derived(fresh, "seed").encode().hex(), 16) % 2**31)
    state = new_game(game, parsed["options"], seed)
    here = handover.people(parsed)
    seats = tuple(h.Seat(who, "host", here.get(who) or t("online.host")) if who in here
                  else h.Seat(who, "bot", level=parsed["bots"].get(who, "random"))
                  for who in h.lasting_players(state))
    grace = h.GRACE_SECONDS if act.grace is None else act.grace
    chosen = [s.level for s in seats if s.kind == "bot"]
    room = h.Room(derived(fresh, "room")[:12], derived(fresh, "secret"), game, seats,
                  options=state.to_json()["options"], grace=grace,
                  stand_in_level=chosen[0] if chosen else h.Room.stand_in_level)
    return HostScreen(room, state, seed, tuple(levels(game)), act.address, act.signs,
                      turn=tn.TurnForm(tn.read(act.turn)))


def _host_table(page: Page, st: ol.Stamped) -> ol.Result:
    """A new room hosted here, its lobby shown (a room already playing closes)."""
    assert isinstance(st.act, ol.HostTable)
    out: Effects = ()
    if hosting(page) and _host(page).room.started:
        page, out = _close(page, st)
    page = dataclasses.replace(page, online=_new_host(page, st.act, st.fresh), view="online",
                               overlay="none")
    return page, out


def _reopened(page: Page, st: ol.Stamped) -> ol.Result:
    """After a reload: the room kept beside the save of the game on the table,
    back with the same seats and tokens, its wire open again."""
    from game.bots import levels

    act, s = st.act, page.session
    assert isinstance(act, ol.Reopened)
    if s is None or s.coach is not None or not s.save["setup"].get("remote") or not act.text:
        return page, ()
    key = ol.room_key(s.save["game"])
    try:
        room = h.room_from_json(json.loads(act.text), s.state, st.now)
    except Exception as e:  # damaged (stored data is data from outside): told once
        reason = str(e) if isinstance(e, BadStateError) else "not a table kept by this site"
        return _then(page, (ol.Forget(key),), pg.Notice("notice.room_ignored",
                                                         {"reason": reason[:200]}))
    host = HostScreen(room, s.state, s.save["transcript"]["seed"], tuple(levels(room.game)),
                      act.address, act.signs, turn=tn.TurnForm(tn.read(act.turn)))
    # By codes, again by codes: every friend is away, and the table offers each a new invitation.
    return _open(dataclasses.replace(page, online=host), act.by_code)


# -- the wire -------------------------------------------------------------------------

def _open(page: Page, by_code: bool) -> ol.Result:
    """Contact the relays now (the person chose to), or (`by_code`) no
    third party at all: each friend is joined by codes carried by hand."""
    host = _host(page)
    room = host.room
    if host.wire or host.keying:
        return page, ()
    if not by_code and host.signs and not room.key:
        # The key pair first: the invite link carries its public half.
        return _with(page, host, keying=True), (ol.MakeKeys(),)
    keyed = (room.key, room.private) if not by_code and room.private else ()
    kept = host.turn.kept  # the host's own TURN server (the codes way takes none)
    turn = kept.ice_server() if kept is not None and not by_code else None
    return _with(page, host, wire="codes" if by_code else "relays"), (
        ol.OpenLine(by_code, room.room_id, room.secret, keyed, turn),)


def _keep_turn(page: Page, host: HostScreen, st: ol.Stamped) -> ol.Result:
    """The host's own TURN server kept in this browser, before the table opens."""
    act = st.act
    assert isinstance(act, ol.KeepTurn)
    form, text = tn.kept_as(host.turn, act.address, act.user, act.credential)
    return _with(page, host, turn=form), (() if text is None else (ol.Keep(tn.TURN_KEY, text),))


def _forget_turn(page: Page, host: HostScreen) -> ol.Result:
    return _with(page, host, turn=tn.TurnForm(used=True)), (ol.Forget(tn.TURN_KEY),)


def _open_wire(page: Page, host: HostScreen, st: ol.Stamped) -> ol.Result:
    """The person chose to open the table (what the drivers know by now: the
    page's address for a whole invite link, the signer for its key)."""
    act = st.act
    assert isinstance(act, ol.OpenWire)
    return _open(_with(page, host, address=act.address, signs=act.signs), act.by_code)


def _keys_made(page: Page, host: HostScreen, st: ol.Stamped) -> ol.Result:
    assert isinstance(st.act, ol.KeysMade)
    room = dataclasses.replace(host.room, key=st.act.key, private=st.act.private)
    return _open(_with(page, host, room=room, keying=False), by_code=False)


def _retry(page: Page, host: HostScreen, st: ol.Stamped) -> ol.Result:
    """No relay answered: the relays tried afresh, or the codes way instead."""
    assert isinstance(st.act, ol.Retry)
    if not host.no_relay or not host.wire:
        return page, ()
    page, out = _open(_with(page, host, wire="", reach=None, no_relay=False), st.act.by_code)
    return page, (ol.CloseLine(), *out)


def _accept(page: Page, host: HostScreen, st: ol.Stamped) -> ol.Result:
    """A friend's answer code, pasted by the host: their page connects."""
    act = st.act
    assert isinstance(act, ol.Accept)
    page = _with(page, host, error="")
    if not host.by_code or act.peer not in host.invitations:
        return page, ()
    return page, (ol.TakeAnswer(act.peer, act.answer.strip()),)


def _answer_taken(page: Page, host: HostScreen, st: ol.Stamped) -> ol.Result:
    peer = st.act.peer if isinstance(st.act, ol.AnswerTaken) else ""
    return _with(page, host,
                 invitations={p: c for p, c in host.invitations.items() if p != peer},
                 invited_for={p: w for p, w in host.invited_for.items() if p != peer}), ()


def _invite_by_code(page: Page, host: HostScreen, st: ol.Stamped) -> ol.Result:
    """A new invitation by codes (for an away friend's seat, at the table)."""
    assert isinstance(st.act, ol.InviteByCode)
    return page, (ol.MakeInvitation(st.act.seat),) if host.by_code else ()


def _code_made(page: Page, host: HostScreen, st: ol.Stamped) -> ol.Result:
    act = st.act
    assert isinstance(act, ol.CodeMade)
    invited_for = {**host.invited_for, act.peer: act.seat} if act.seat else host.invited_for
    return _with(page, host, invitations={**host.invitations, act.peer: act.code},
                 invited_for=invited_for), ()


def _close(page: Page, st: ol.Stamped) -> ol.Result:
    host = _host(page)
    page, out = hear(page, h.Close(), st.now, st.fresh)
    wire: Effects = (ol.CloseLine(),) if host.wire else ()
    page = _with(page, _host(page), wire="")
    return page, (*out, *wire, ol.Forget(ol.room_key(host.game)),
                  ol.Forget(ol.codes_key(host.game)))


# -- the lobby and the table ------------------------------------------------------------

def _choose(page: Page, host: HostScreen, st: ol.Stamped) -> ol.Result:
    """The lobby's choice for a seat: host, here, peer:<id>, bot:<level>, open."""
    act = st.act
    assert isinstance(act, ol.ChooseSeat)
    page, who, value, t = _with(page, host, error=""), act.who, act.value, page.t
    event: h.Event
    if value == "host" or value == "here":
        here = sum(1 for s in host.room.seats if s.kind == "host")
        event = h.SeatHost(who, t("online.host") if value == "host"
                           else t("setup.player", n=here + 1))
    elif value.startswith("peer:"):
        event = h.SeatPerson(who, value[5:], derived(st.fresh, "chosen"))
    elif value.startswith("bot:") and value[4:] in host.levels:
        event = h.SeatBot(who, value[4:])
    else:
        event = h.OpenSeat(who)
    return hear(page, event, st.now, st.fresh)


def _choose_stand_in(page: Page, host: HostScreen, st: ol.Stamped) -> ol.Result:
    assert isinstance(st.act, ol.ChooseStandIn)
    if st.act.level not in host.levels:
        return page, ()
    return hear(page, h.ChooseStandIn(st.act.level), st.now, st.fresh)


def _start(page: Page, host: HostScreen, st: ol.Stamped) -> ol.Result:
    """Deal the game with the lobby's seats: it goes on the table as any game
    (the runtime's PutOnTable, answered by Started)."""
    if not any(s.kind == "host" for s in host.room.seats) or any(
            s.kind == "open" for s in host.room.seats):
        return _with(page, host, error=page.t("online.need_seats")), ()
    state, game = _named(host), host.game
    renamed = dict(zip(h.lasting_players(host.state), h.lasting_players(state)))
    out: Effects = ()
    if any(old != new for old, new in renamed.items()):  # players that are names
        page, out = hear(page, h.RenameSeats(renamed), st.now, st.fresh)
    seats = _host(page).room.seats
    hosts = [s.who for s in seats if s.kind == "host"]
    setup: dict[str, Any] = {
        "me": hosts[0], "bots": {s.who: s.level for s in seats if s.kind == "bot"},
        "remote": {s.who: s.name for s in seats if s.kind == "person"},
        "no_takebacks": True, "online": host.room.room_id}
    if len(hosts) > 1:
        setup["people"] = {s.who: s.name for s in seats if s.kind == "host"}
    transcript = {"game": game, "options": state.to_json()["options"], "seed": host.seed,
                  "actions": []}
    return page, (*out, ol.PutOnTable(game, state, {
        "game": game, "setup": setup, "transcript": transcript,
        "log": handover.log_events(state, setup), "seen_hands": 0}))


def _started(page: Page, host: HostScreen, st: ol.Stamped) -> ol.Result:
    act = st.act
    assert isinstance(act, ol.Started)
    page, out = hear(page, h.Start(act.state, act.transcript), st.now, st.fresh)
    if host.by_code:
        out += (ol.Keep(ol.codes_key(host.game), "1"),)
    return _then(page, out, pg.BotsAnew())


def _named(host: HostScreen) -> State:
    """The game dealt again (the same deal) with the people's names on
    their seats, where the game's table names seats (Werner's: with three
    players the seats themselves are renamed)."""
    from game import new_game

    options = host.state.to_json()["options"]
    people = {s.who: s.name for s in host.room.seats if s.kind in ("host", "person")}
    named = renderer(host.game).online_options(options, people)
    return host.state if named == options else new_game(host.game, named, host.seed)


def _moved(page: Page, host: HostScreen, st: ol.Stamped) -> ol.Result:
    """The game on the table moved: the room tells every friend."""
    assert isinstance(st.act, ol.GameMoved)
    after, s, room = st.act.after, page.session, host.room
    if (room.started and room.state is not after and s is not None
            and s.state is after and s.save.get("game") == host.game):
        return hear(page, h.GameChanged(after, s.save["transcript"]["actions"][-1]), st.now,
                    st.fresh)
    return page, ()


def _react(page: Page, host: HostScreen, st: ol.Stamped) -> ol.Result:
    assert isinstance(st.act, ol.React)
    if page.session is None:
        return page, ()
    me = str(page.session.save["setup"]["me"])
    return hear(page, h.HostReacts(me, st.act.key), st.now, st.fresh)


def _leave(page: Page, host: HostScreen, st: ol.Stamped) -> ol.Result:
    page, out = _close(page, st)
    page, more = left(page)
    return page, (*out, *more)


def left(page: Page) -> ol.Result:
    """Back to this page's own games (the host's and a guest's leaving)."""
    page = dataclasses.replace(page, online=None, view="start")
    out: Effects = (ol.ScreenStill(len(page.session.log_so_far)),) \
        if page.session is not None else (ts.StopMotion(),)  # (the story so far was read out)
    return _then(page, out, pg.BackToTable()) if page.session is not None else (page, out)


Reducer = Callable[[Page, HostScreen, ol.Stamped], ol.Result]
ACTIONS: dict[type, Reducer] = {
    ol.OpenWire: _open_wire,
    ol.KeepTurn: lambda page, host, st: _keep_turn(page, host, st),
    ol.ForgetTurn: lambda page, host, _: _forget_turn(page, host),
    ol.KeysMade: _keys_made,
    ol.KeysFailed: lambda page, host, _: (_with(page, host, keying=False), ()),
    ol.Retry: _retry,
    ol.InviteByCode: _invite_by_code,
    ol.CodeMade: _code_made,
    ol.Accept: _accept,
    ol.AnswerTaken: _answer_taken,
    ol.AnswerRefused: lambda page, host, _: (_with(page, host,
                                                   error=page.t("online.bad_code")), ()),
    ol.ChooseSeat: _choose,
    ol.ChooseStandIn: _choose_stand_in,
    ol.Start: _start,
    ol.Started: _started,
    ol.GameMoved: _moved,
    ol.React: _react,
    ol.Leave: _leave,
    ol.Heard: lambda page, _, st: hear(page, st.act.event, st.now, st.fresh)
    if isinstance(st.act, ol.Heard) else (page, ()),
    ol.Tick: lambda page, host, st: hear(page, h.Tick(), st.now, st.fresh) if host.wire
    else (page, ()),
}


def reduce(page: Page, st: ol.Stamped) -> ol.Result:
    if isinstance(st.act, ol.HostTable):
        return _host_table(page, st)
    if isinstance(st.act, ol.Reopened):
        return _reopened(page, st)
    do = ACTIONS.get(type(st.act))
    return (page, ()) if do is None else do(page, _host(page), st)


# -- what the page shows ------------------------------------------------------------------

def screen_html(page: Page) -> Html:
    from game.web.online.connection import relay_hosts, stun_hosts
    from game.web.online.view import contact_sentence

    host, t = _host(page), page.t
    kept = host.turn.kept
    contacts = contact_sentence(t, relay_hosts(), stun_hosts(), kept.host if kept else "")
    if not host.wire:
        form = host.turn
        return host_intro(t, host.game, contacts, turn_settings(
            t, kept.host if kept else "", form.typed, form.error, form.used))
    joined = [p for p in host.room.peers if p.joined]
    names = [f"{p.name} · {t('online.path.' + host.paths.get(p.peer, 'direct'))}"
             for p in joined]
    rows = []
    for seat in host.room.seats:
        current = {"host": "host" if seat.name == t("online.host") else "here",
                   "person": f"peer:{seat.peer}", "bot": f"bot:{seat.level}"}.get(
            seat.kind, "open")
        people = [(p.peer, p.name) for p in joined]
        rows.append((seat.who, renderer(host.game).seat_word(seat.who, t),
                     seat_choices(t, current, list(host.levels), people)))
    invite = _invite(host)
    if host.relays_down:
        contacts = join((contacts, html('<p class="online-status" id="online-status" '
                                        'role="status">{}</p>', t("online.relays_down"))))
    stand_in = stand_in_choice(t, host.room.stand_in_level, list(host.levels),
                               round(host.room.grace))
    if host.by_code:
        codes = [(peer, invite + "&code=" + quote(code, safe=""))
                 for peer, code in host.invitations.items()]
        return lobby(t, invite, rows, names, host.error, EMPTY,
                     codes_html(t, codes), by_code=True, stand_in=stand_in)
    # The link only once a relay answers: through none, nobody could use it.
    inviting = host.relays_ever and not host.no_relay
    return lobby(t, invite, rows, names, host.error, contacts,
                 _qr(page, invite) if inviting else EMPTY, stand_in=stand_in,
                 relays=relay_status(t, host.reach, host.no_relay), inviting=inviting,
                 watch=_watch_link(host), watchers=host.room.watchers())


def _invite(host: HostScreen) -> str:
    room = host.room
    return host.address + invite_of(host.game, room.room_id, room.secret, room.key)


def _watch_link(host: HostScreen) -> str:
    """The link that watches this table ("" by codes: each code lets one friend in)."""
    if host.by_code:
        return ""
    room = host.room
    return host.address + invite_of(host.game, room.room_id, room.secret, room.key,
                                    marker="watch")


def _qr(page: Page, invite: str) -> Html:
    """The invite link as a QR code drawn by the page, for a phone's camera
    (only a whole address: a link relative to this page means nothing there)."""
    from game.web.online.qr import qr_svg

    if not _host(page).address:
        return EMPTY
    try:
        drawn = qr_svg(invite, page.t("online.qr"))
    except ValueError:  # an address too long for a QR code: the link alone
        return EMPTY
    return html('<figure class="online-qr" id="online-qr">{}</figure>', drawn)


def bar(page: Page) -> Html:
    """The strip over the host's table."""
    s = page.session
    if not hosting(page) or s is None:
        return EMPTY
    host = _host(page)
    if not host.room.started or s.save.get("game") != host.game:
        return EMPTY
    turn = None if s.state.to_act is None else str(s.state.identity(s.state.to_act))
    # Each friend here with the way the game reaches them (direct, the relays, the TURN server).
    entries = [{**entry, "path": host.paths.get(seat.peer, "direct")}
               if seat.kind == "person" and seat.peer is not None else entry
               for seat, entry in zip(host.room.seats, host.room.entries())]
    return strip(page.t, entries, turn, str(s.save["setup"]["me"]), list(host.heard),
                 page.t("online.relays_down") if host.relays_down else "",
                 host.waiting_said, _reinvite_html(page) + watch_share(
                     page.t, "" if host.relays_down else _watch_link(host)),
                 watchers=host.room.watchers())


def _reinvite_html(page: Page) -> Html:
    """By codes: a new invitation for each friend away (a reload of theirs
    needs a new code: the old one was for a connection that is gone)."""
    host = _host(page)
    if not host.by_code:
        return EMPTY
    made = {seat: peer for peer, seat in host.invited_for.items()}
    invite = _invite(host)
    away = []
    for seat in host.room.seats:
        if seat.kind == "person" and seat.peer is None:
            peer = made.get(seat.who)
            code = host.invitations.get(peer or "")
            link = (peer, invite + "&code=" + quote(code, safe="")) if peer and code else None
            away.append((seat.who, seat.name, link))
    return reinvitations(page.t, away)
