"""An online table on one machine, in plain Python: a loopback wire between
the host's room (game.online.host) and guest pages (game.online.guest), the
host page's part played by this harness (it applies decisions, lets its bots
move, hands every new state in), and a checker that no card hidden from a
guest's seat is in any message that guest received."""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass, field
from typing import Any

from game import new_game
from game.bots import make_bot
from game.core.state import State
from game.online import guest as g
from game.online import host as h
from game.online import messages as m
from game.online.wire import PeerJoined, PeerLeft, Received

HOST = "host-peer"
SECRET = "room-secret-1234"
SEED = 734_219_883_117  # large, so that finding its digits in a message means it was sent


def token(n: int) -> str:
    return f"seat-token-{n:08d}"


@dataclass
class Capture:
    """A message a guest received, with the host's state when it was sent."""
    text: str
    state: State | None
    who: str | None


@dataclass
class LoopTable:
    """The host page and its guests. `plan` maps each seat (lasting player as
    text) to ("guest", name), ("bot", level) or ("host", level): a person at
    the host's screen, played here by a bot of that level."""

    game: str
    options: dict[str, Any]
    plan: dict[str, tuple[str, str]]
    now: float = 0.0
    grace: float = 30.0
    room: h.Room = field(init=False)
    state: State = field(init=False)
    guests: dict[str, g.Guest] = field(default_factory=dict)  # peer -> guest page
    received: dict[str, list[Capture]] = field(default_factory=dict)
    effects: list[h.Effect] = field(default_factory=list)
    stood_in: set[str] = field(default_factory=set)
    rng: random.Random = field(default_factory=lambda: random.Random(5))
    # Guests whose channel is silent while their connection stays up (a frozen
    # tab, a network that drops): nothing they send or are sent gets through.
    silent: set[str] = field(default_factory=set)
    watchers: set[str] = field(default_factory=set)  # peers that only watch

    def __post_init__(self) -> None:
        self.state = new_game(self.game, self.options, seed=SEED)
        seats = tuple(h.Seat(who) for who in h.lasting_players(self.state))
        assert [s.who for s in seats] == list(self.plan)
        self.room = h.Room("room-1", SECRET, self.game, seats, options=self.options,
                           grace=self.grace)

    # -- the wire ------------------------------------------------------------------
    def host_hears(self, event: h.Event) -> None:
        if isinstance(event, h.Tick):  # the guests' pages tick too: they beat
            for peer in list(self.guests):
                self.guest_hears(peer, g.Tick(self.now))
        self.room, sends, effects = h.reduce(self.room, event, self.now)
        self.effects += effects
        for send in sends:
            self.deliver(send.peer, send.text)
        for effect in effects:
            self.carry_out(effect)

    def deliver(self, peer: str, text: str) -> None:
        if peer in self.watchers:  # a watcher's page reads nothing back here
            self.received.setdefault(peer, []).append(Capture(text, self.room.state, None))
            return
        if peer not in self.guests or peer in self.silent:
            return  # gone: the wire drops it
        self.received.setdefault(peer, []).append(
            Capture(text, self.room.state, self.guests[peer].seat))
        self.guest_hears(peer, Received(HOST, text))

    def guest_hears(self, peer: str, event: g.Event) -> None:
        self.guests[peer], sends = g.reduce(self.guests[peer], event)
        for to, text in sends:
            assert to == HOST
            if peer not in self.silent:
                self.host_hears(Received(peer, text))

    def connect(self, peer: str, name: str, token_kept: str | None = None) -> None:
        self.guests[peer] = g.Guest(SECRET, name, token_kept)
        self.host_hears(PeerJoined(peer))
        self.guest_hears(peer, PeerJoined(HOST))

    def watch(self, peer: str, name: str) -> None:
        """A watcher knocks and asks to watch (no seat, no token)."""
        self.watchers.add(peer)
        self.host_hears(PeerJoined(peer))
        self.host_hears(Received(peer, m.encode(m.Watch(SECRET, name))))

    def drop(self, peer: str) -> g.Guest:
        self.host_hears(PeerLeft(peer))
        return self.guests.pop(peer)

    # -- the host page -------------------------------------------------------------
    def seat_everyone(self) -> None:
        for n, (who, (kind, arg)) in enumerate(self.plan.items()):
            if kind == "guest":
                peer = f"peer-{who}"
                self.connect(peer, arg)
                self.host_hears(h.SeatPerson(who, peer, token(n)))
            elif kind == "bot":
                self.host_hears(h.SeatBot(who, arg))
            else:
                self.host_hears(h.SeatHost(who, "Host"))
        transcript = {"game": self.game, "options": self.options, "seed": SEED, "actions": []}
        self.host_hears(h.Start(self.state, transcript))

    def carry_out(self, effect: h.Effect) -> None:
        if isinstance(effect, h.Decided):  # applied like a bot's move, unless stale
            if effect.state_id == self.room.state_id:
                self.move(effect.action)
        elif isinstance(effect, h.StandIn):
            self.stood_in.add(effect.who)
        elif isinstance(effect, h.HandBack):
            self.stood_in.discard(effect.who)

    def move(self, action: str) -> None:
        self.state = self.state.apply(action)
        self.host_hears(h.GameChanged(self.state, action))

    def peer_of(self, who: str) -> str | None:
        seat = self.room.seat(who)
        return seat.peer if seat is not None else None

    def step(self) -> None:
        """One decision: a guest's from its own page's data, else a host-side bot's.
        A second passes (a guest deciding faster would be a flood)."""
        self.now += 1.0
        who = str(self.state.identity(self.state.to_act))
        kind, arg = self.plan[who]
        peer = self.peer_of(who)
        if kind == "guest" and who not in self.stood_in and peer is not None:
            guest = self.guests[peer]
            assert guest.my_turn and guest.state_id == self.room.state_id
            bot = make_bot(self.game, "random")
            action = bot.choose(guest.observation or {}, guest.legal, self.rng)
            self.guest_hears(peer, g.DecideNow(action))
        else:
            level = "random" if kind == "guest" else arg
            bot = make_bot(self.game, level)
            player = self.state.to_act
            self.move(bot.choose(self.state.observation(player), self.state.legal_actions(),
                                 self.rng))

    def play_out(self, most: int = 100_000) -> None:
        for _ in range(most):
            if self.state.over:
                return
            self.step()
        raise AssertionError("the game did not end")


# -- what a seat may not see --------------------------------------------------------------

def hidden_cards(state: State, who: str) -> set[str]:
    """The cards the lasting player `who` may not see in `state` (RULES.md): the
    other hands (Werner's ghost hand is open), the duel's cards set aside,
    Dracula's stock; less those it knows are there (the duel: what it gave)."""
    player = state.seat_of(who)
    data = state.to_json()
    if state.game_id == "jekyll-hyde":
        open_seats = {player, 2} if data["options"]["players"] == 3 else {player}
        return {c for s, cards in data["hands"].items() if int(s) not in open_seats
                for c in cards}
    if state.game_id == "jekyll-vs-hyde":
        other = "H" if player == "J" else "J"
        gave = set(data["given"].get(player) or [])
        gave |= {c for swap in data["swaps"] for c in swap[player]}
        return (set(data["hands"][other]) | set(data["aside"])) - gave
    dealt = 9 * (data["deal_number"] + 1)
    stock = state.table.deck[dealt:] if not state.over else ()
    return set(data["hands"][str(1 - player)]) | set(stock)


CARD_TOKEN = re.compile(r"[A-Za-z0-9+]+")
PAST_DEALS = ("history", "legs")  # an observation's record of finished deals


def _strings(value: Any, skip: tuple[str, ...] = ()) -> list[str]:
    if isinstance(value, dict):
        return [s for k, v in value.items() if k not in skip
                for s in [k, *_strings(v, skip)]]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v, skip)]
    return [str(value)]


def _current_deal(log: list[list[Any]]) -> list[Any]:
    """The events from the last deal on: earlier ones tell of finished deals,
    whose cards were all shown (a reshuffled pack deals the same codes again)."""
    events = [e for _, entry in log for e in entry]
    dealt = [i for i, e in enumerate(events) if isinstance(e, dict) and e.get("kind") == "dealt"]
    return events[dealt[-1]:] if dealt else events


def leaks(capture: Capture, hidden: set[str] | None = None) -> list[str]:
    """What `capture` shows that its seat may not see: a hidden card's code
    anywhere in the current deal's part of the message, the seed, or a key
    only the full state has. Empty when the message is clean. `hidden`: the
    cards a watcher may not see (its capture has no seat)."""
    text, state, who = capture.text, capture.state, capture.who
    data = json.loads(text)
    if data.get("type") == "over" and state is not None and state.over:
        return []  # the game is over: everything may be shown now
    found = [f"seed {SEED}"] if str(SEED) in text else []
    keys = set(_strings(data)) & {"seed", "deals"}
    found += [f"key {k}" for k in sorted(keys)]
    if state is None or who is None and hidden is None:
        return found
    hidden = hidden_cards(state, who) if who is not None else hidden or set()
    if data.get("type") in ("table", "watching"):
        parts = [data["observation"], _current_deal(data["log"]),
                 {k: v for k, v in data.items() if k not in ("observation", "log")}]
        words = [w for part in parts for s in _strings(part, PAST_DEALS)
                 for w in CARD_TOKEN.findall(s)]
    else:
        words = [w for s in _strings(data) for w in CARD_TOKEN.findall(s)]
    found += sorted({f"card {w}" for w in words if w in hidden})
    return found
