"""Dr. Jekyll & Mr. Hyde (Wolfgang Werner): the complete rules.

Seats 0-3 play clockwise and the turn passes to the left (0 -> 1 -> 2 -> 3).
An action is a card code (put that card in front of the seat on turn) or
`@<seat>` (designate a seat, which then gives a card of the needed side).
See docs/RULES.md section 1 for the rules and the readings chosen.

>>> s = new_state({"players": 4, "seating": "A", "dealer": 0}, seed=1)
>>> s.to_act, s.legal_actions()        # seat 1, left of the dealer, plays for Hyde
(1, ['HT', 'HD', 'HF7', '@0', '@2', '@3'])
>>> asked = s.apply("@3")              # seat 3 must now give one of its Hyde cards
>>> asked.to_act, asked.turn, s.to_act  # the card will lie in front of seat 1
(3, 1, 1)
>>> s.apply("JA")
Traceback (most recent call last):
...
game.core.state.IllegalActionError: seat 1 needs a Hyde card and JA is a Jekyll card; legal: HT HD HF7 @0 @2 @3

Events (`state.events(player)`), in the order one action makes them:

| kind | params |
|---|---|
| `designated` | `by` (the seat on turn), `whom` (the seat that gives), `need` (jekyll, hyde), `decider` (who picks the card: the soloist for the ghost) |
| `played` | `seat` (the card lies in front of it), `card`, `from` (the seat whose hand it left: the designated one, or the ghost 2 when the soloist takes its card), `place` (0-3 in the trick), `trick` (0-6) |
| `trick_won` | `trick`, `winner` (seat), `team`, `card` (the winning one), `cards` (the trick's four), `taken` (with the cards Transformations left), `points` |
| `transformation` | `trick`, `seat` (the first Transformation's, who leads next), `cards`, `staying` (every card now left on the table), `to_nobody` (last trick: the cards nobody takes) |
| `hand_scored` | `hand_number`, `teams` {jekyll, hyde: `cards` [{card, points}], `actions` [{card, multiplier}] (its own side's), `other_actions` (worth nothing), `points`, `multiplier`, `score`, `zero` (null, no_own_action, no_points)}, `scores` (totals); 3 players: `soloist`, `gained` {name: points} |
| `game_over` | `winner`, `scores` |
| `soloist_changed` | 3 players, from the second hand: `soloist` (name), `names` {seat: name} |
| `dealt` | `hand_number`, `dealer`, `leader`, `names`, `backs` {seat: {J, H}}, `hands` {seat: cards}: only the player's own (and the open ghost's, "2"; a watcher sees only the ghost's) |

An observation's `winning` says who would take the trick under way if it ended
now (`winning()`), so that a table marks that card without applying a rule.

Error codes: wrong_side, card_not_in_hand, not_in_soloist_or_ghost_hand,
designated_must_give, cannot_designate_self, soloist_takes_hyde_directly,
no_card_of_side, and the shared game_over, not_a_string, malformed_action,
no_such_player, game_not_over.
"""

from __future__ import annotations

from bisect import bisect_left
from typing import Any, Iterable

from game.core.options import OptionSpec, read_options
from game.core.rng import deal_rng, fresh_seed
from game.core.state import (
    BadOptionsError,
    BadStateError,
    IllegalActionError,
    MalformedActionError,
    Event,
    Private,
    State,
    json_ready,
    legal_hint,
)
from game.core.validate import (
    at,
    check_rebuilt,
    load_save,
    fail,
    read_bool,
    read_card,
    read_int,
    read_list,
    read_object,
    read_seed,
)
from game.jekyll_hyde.cards import DECK, MULTIPLIER, ORDER, POINTS, RANK, SIDE_NAME

GAME_ID = "jekyll-hyde"
DRAWS = False  # the game ends when one alone is first at the target
TEAMS = ("jekyll", "hyde")
DEFAULT_NAMES = ("Adam", "Betty", "Christian")
OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec("players", "int", 4, choices=(3, 4),
               help="4: two teams of two; 3: a soloist with an open ghost hand"),
    OptionSpec("seating", "choice", "A", choices=("A", "B"),
               help="A: seats 0 and 2 play Jekyll; B: seats 0 and 1"),
    OptionSpec("dealer", "int", 3, lo=0, hi=3, help="the first dealer's seat (4 players)"),
    OptionSpec("target", "int", 1000, lo=1, hi=10_000, help="the score that ends the game"),
    OptionSpec("names", "names", None,
               help="a name per seat; with 3 players (soloist, left, right) they key the scores"),
)
DEFAULTS: dict[str, Any] = {o.name: o.default for o in OPTIONS if o.default is not None}
TRICKS_PER_HAND = 7
MAX_HANDS = 10_000  # far beyond any game to the highest target
GHOST = 2  # in 3-player mode: seat 0 is the soloist, seat 2 his open ghost hand
_J, _H = 0, 1  # side indexes: the hands are stored as 8 tuples, 2 * seat + side


class Table:
    """The fixed settings of one game: options, seed, given deals.

    Shared, never copied, by every state of the game.
    """

    __slots__ = ("options", "players", "seating", "target", "names", "seed", "deals",
                 "side", "decider")

    def __init__(self, options: dict[str, Any] | None, seed: int | None,
                 deals: list[Any] | None) -> None:
        opts = read_options(GAME_ID, OPTIONS, options)
        players, seating, target = opts["players"], opts["seating"], opts["target"]
        if players == 3 and opts.get("names") is None:
            opts["names"] = list(DEFAULT_NAMES)
        names = opts.get("names")
        if names is not None and (
                not isinstance(names, list) or len(names) != players
                or not all(isinstance(n, str) and n for n in names)
                or len(set(names)) != players or set(names) & {*TEAMS, "ghost"}):
            raise BadOptionsError(
                f"names must be {players} different non-empty names in seat order"
                + (" (soloist, left, right)" if players == 3 else "")
                + ", none of them 'jekyll', 'hyde' or 'ghost'",
                code="invalid_option", params={"option": "names", "path": "options.names"})
        # With 4 players names only label the seats; with 3 they key the scores.
        self.names: tuple[str, ...] = tuple(names or ())
        if players == 3:
            self.side = (_H, _J, _H, _J)
            self.decider = (0, 1, 0, 3)
        else:
            self.side = (_J, _H, _J, _H) if seating == "A" else (_J, _J, _H, _H)
            self.decider = (0, 1, 2, 3)
        self.options = opts
        self.players, self.seating, self.target = players, seating, target
        self.seed = fresh_seed() if seed is None else read_seed(seed, "seed", BadOptionsError)
        given_deals = [] if deals is None else read_list(deals, "deals", BadOptionsError, 0,
                                                         MAX_HANDS)
        self.deals = tuple(_check_deal(d, i) for i, d in enumerate(given_deals))

    def deal(self, hand_number: int, first_seat: int) -> tuple[tuple[str, ...], ...]:
        """The 8 side-split hands of hand `hand_number`: given, or from the seed."""
        if hand_number < len(self.deals):
            by_seat = [sorted(map(ORDER.__getitem__, cards)) for cards in self.deals[hand_number]]
        else:
            deck = list(range(28))  # card indexes in DECK: the 14 Jekyll cards come first
            deal_rng(GAME_ID, self.seed, hand_number).shuffle(deck)
            # One card at a time, starting with the seat left of the dealer.
            by_seat = [sorted(deck[(seat - first_seat) % 4::4]) for seat in range(4)]
        hands: list[tuple[str, ...]] = []
        for cards in by_seat:
            cut = bisect_left(cards, 14)
            hands.append(tuple(map(DECK.__getitem__, cards[:cut])))
            hands.append(tuple(map(DECK.__getitem__, cards[cut:])))
        return tuple(hands)


def _check_deal(deal: Any, index: int) -> list[list[str]]:
    where = f"deals[{index}]"
    if type(deal) is not dict or type(deal.get("hands")) is not dict:
        raise BadOptionsError(f'{where} must be {{"hands": {{"0": [7 cards], ...}}}}',
                              code="invalid_deal", params={"path": where})
    hands = read_object(deal["hands"], at(where, "hands"), BadOptionsError, _SEATS, ())
    seen: list[str] = []
    for seat in _SEATS:
        path = at(at(where, "hands"), seat)
        cards = read_list(hands[seat], path, BadOptionsError, 7, 7)
        for i, card in enumerate(cards):
            read_card(card, at(path, i), BadOptionsError, ORDER)
        seen.extend(cards)
    if len(set(seen)) != 28:
        twice = sorted({c for c in seen if seen.count(c) > 1}, key=ORDER.__getitem__)
        raise BadOptionsError(f"{where}: {', '.join(twice)} dealt twice", code="card_dealt_twice",
                              params={"path": where, "cards": twice})
    return [list(hands[s]) for s in _SEATS]


_SEATS = ("0", "1", "2", "3")


class JekyllHydeState(State):
    """A moment of a game of Dr. Jekyll & Mr. Hyde."""

    game_id = GAME_ID
    players = (0, 1, 2, 3)
    __slots__ = ("table", "hand_number", "dealer", "hands", "turn", "designated",
                 "leader", "plays", "tricks", "carried", "won", "scores", "history",
                 "winner_name", "_to_act")

    table: Table
    hand_number: int
    dealer: int
    hands: tuple[tuple[str, ...], ...]  # 2 * seat + side -> cards of that side
    turn: int  # the seat whose card is being put down
    designated: int  # the seat asked to give that card, or -1
    leader: int
    plays: tuple[tuple[int, str, int], ...]  # (seat, card, from seat) of this trick
    # (leader, plays, winner) of each finished trick
    tricks: tuple[tuple[int, tuple[tuple[int, str, int], ...], int | None], ...]
    carried: tuple[str, ...]  # cards left on the table by Transformations
    won: tuple[tuple[str, ...], tuple[str, ...]]  # cards taken by team jekyll, hyde
    scores: tuple[int, ...]  # per team (4 players) or per name (3 players)
    history: tuple[dict[str, Any], ...]
    winner_name: str | None
    _to_act: int | None

    # -- construction ---------------------------------------------------

    @classmethod
    def start(cls, table: Table) -> "JekyllHydeState":
        s = cls.__new__(cls)
        s.table = table
        s.scores = (0,) * (2 if table.players == 4 else 3)
        s.history = ()
        s.winner_name = None
        s._events = []
        s._start_hand(0, table.options["dealer"] if table.players == 4 else 3)
        return s

    def _start_hand(self, hand_number: int, dealer: int) -> None:
        self.hand_number = hand_number
        self.dealer = dealer
        first = (dealer + 1) % 4
        self.hands = self.table.deal(hand_number, first)
        # The seat left of the dealer leads; in 3-player mode the soloist.
        self.leader = self.turn = 0 if self.table.players == 3 else first
        self.designated = -1
        self.plays = ()
        self.tricks = ()
        self.carried = ()
        self.won = ((), ())
        self._to_act = self.table.decider[self.turn]
        if self._events is not None:  # built when asked for, from a snapshot
            self._events.append((JekyllHydeState._deal_events, self._copy()))

    def _deal_events(self) -> list[Event | Private]:
        """`soloist_changed` (3 players, from the second hand) and `dealt`: each
        player sees his own hand (and, with 3 players, the open ghost's)."""
        events: list[Event | Private] = []
        names = {str(seat): name for seat, name in self.seat_names().items()}
        if self.table.players == 3 and self.hand_number:
            events.append({"kind": "soloist_changed", "soloist": names["0"], "names": names})
        public = {"kind": "dealt", "hand_number": self.hand_number, "dealer": self.dealer,
                  "leader": self.leader, "names": names,
                  "backs": {str(s): {"J": len(self.hands[2 * s]), "H": len(self.hands[2 * s + 1])}
                            for s in range(4)}}
        hands = {str(s): list(self.hand(s)) for s in range(4)}
        open_seats = ("2",) if self.table.players == 3 else ()
        seen = {p: {**public, "hands": {s: hands[s] for s in (str(p),) + open_seats}}
                for p in self._viewers()}
        events.append(Private({**public, "hands": hands}, seen,
                              {**public, "hands": {s: hands[s] for s in open_seats}}))
        return events


    # -- the protocol ---------------------------------------------------

    @property
    def to_act(self) -> int | None:
        return self._to_act

    @property
    def winner(self) -> str | None:
        return self.winner_name

    def wins(self, player: Any) -> bool:
        """Whether seat `player` (4 players) or the named player (3) won."""
        if self.winner_name is None:
            return False
        if self.table.players == 3:
            return bool(player == self.winner_name)
        return TEAMS[self.table.side[player]] == self.winner_name

    def identity(self, player: int) -> Any:
        """The seat with 4 players; with 3, the name of who sits there this hand."""
        if self.table.players == 3:
            return self.seat_names()[self.table.decider[player]]
        return player

    def returns(self) -> dict[Any, float]:
        """Per seat with 4 players, per name with 3: 1 win, 0 loss, 0.5 draw."""
        if self._to_act is not None:
            raise IllegalActionError("the game is not over yet", code="game_not_over")
        keys = self.table.names if self.table.players == 3 else self.players
        return {k: float(self.wins(k)) for k in keys}

    def need(self) -> int:
        """The side (0 Jekyll, 1 Hyde) of the card the seat on turn must put down."""
        return self.table.side[self.turn]

    def legal_actions(self) -> list[str]:
        if self._to_act is None:
            return []
        side = self.table.side[self.turn]
        hands = self.hands
        if self.designated >= 0:
            return list(hands[2 * self.designated + side])
        turn = self.turn
        if self.table.players == 3 and side == _H:
            # The soloist takes a Hyde card from his hand or the ghost's.
            actions = sorted(hands[1] + hands[5], key=ORDER.__getitem__)
            return actions + [_DESIGNATE[s] for s in (1, 3) if hands[2 * s + side]]
        actions = list(hands[2 * turn + side])
        for seat in _OTHERS[turn]:
            if hands[2 * seat + side]:
                actions.append(_DESIGNATE[seat])
        return actions

    def apply(self, action: str) -> "JekyllHydeState":
        if self._to_act is None:
            raise IllegalActionError("the game is over: no action is legal", code="game_over",
                                     params={"action": json_ready(action)})
        if not isinstance(action, str):
            raise MalformedActionError(f"{action!r} is not an action: actions are strings",
                                       code="not_a_string",
                                       params={"action": json_ready(action)})
        side = self.table.side[self.turn]
        if action in ORDER:
            source = self._source_of(action, side)
            s = self._copy()
            s._events = []
            s._put_down(action, source, side)
            return s
        if action in _SEAT_OF:
            seat = _SEAT_OF[action]
            self._check_designation(seat, side)
            s = self._copy()
            s._events = [{"kind": "designated", "by": self.turn, "whom": seat,
                          "need": SIDE_NAME["JH"[side]], "decider": self.table.decider[seat]}]
            s.designated = seat
            s._to_act = self.table.decider[seat]
            return s
        legal = self.legal_actions()
        raise MalformedActionError(
            f"{action!r} is not an action: write a card code such as JF5 or HA, "
            f"or @<seat> to designate a seat; {legal_hint(legal)}",
            code="malformed_action", params={"action": action, "legal": legal})

    def apply_in_place(self, action: str) -> None:
        """Apply a legal action to this very state, unchecked.

        The fast path of search playouts, on a state they own (a copy from
        `apply` or a sampled world); everything else uses `apply`.  It records
        no events.
        """
        self._events = None
        side = self.table.side[self.turn]
        if action[0] == "@":
            self.designated = seat = _SEAT_OF[action]
            self._to_act = self.table.decider[seat]
            return
        if self.designated >= 0:
            source = self.designated
        elif action in self.hands[2 * self.turn + side]:
            source = self.turn
        else:  # 3 players: the soloist's and the ghost's Hyde cards
            source = GHOST if self.turn == 0 else 0
        self._put_down(action, source, side)

    # -- applying -------------------------------------------------------

    def _source_of(self, card: str, side: int) -> int:
        """The seat whose hand `card` comes from, or raise why it cannot be played."""
        turn, designated = self.turn, self.designated
        legal = self.legal_actions()
        if card[0] != _LETTER[side]:
            need, given = SIDE_NAME["JH"[side]], SIDE_NAME[card[0]]  # ids, as in observations
            raise IllegalActionError(
                f"seat {turn} needs a {need.title()} card and {card} is a {given.title()} "
                f"card; {legal_hint(legal)}", code="wrong_side",
                params={"seat": turn, "need": need, "card": card, "side": given,
                        "legal": legal})
        if designated >= 0:
            if card not in self.hands[2 * designated + side]:
                raise IllegalActionError(
                    f"{card} is not in seat {designated}'s hand; {legal_hint(legal)}",
                    code="card_not_in_hand",
                    params={"card": card, "player": designated, "legal": legal})
            return designated
        if card in self.hands[2 * turn + side]:
            return turn
        if self.table.players == 3 and side == _H:
            # The soloist and the ghost share their Hyde cards.
            other = GHOST if turn == 0 else 0
            if card in self.hands[2 * other + side]:
                return other
        if self.table.players == 3 and side == _H:
            raise IllegalActionError(
                f"{card} is not in the soloist's or the ghost's hand; {legal_hint(legal)}",
                code="not_in_soloist_or_ghost_hand", params={"card": card, "legal": legal})
        raise IllegalActionError(f"{card} is not in seat {turn}'s hand; {legal_hint(legal)}",
                                 code="card_not_in_hand",
                                 params={"card": card, "player": turn, "legal": legal})

    def _check_designation(self, seat: int, side: int) -> None:
        turn = self.turn
        need = SIDE_NAME["JH"[side]]  # the id, as in observations; the message says it titled
        if self.designated >= 0:
            problem = (f"seat {self.designated} was designated and must now give a "
                       f"{need.title()} card",
                       "designated_must_give", {"seat": self.designated, "need": need})
        elif seat == turn:
            problem = (f"seat {turn} cannot designate itself: play a card instead",
                       "cannot_designate_self", {"seat": turn})
        elif self.table.players == 3 and side == _H and seat in (0, GHOST):
            problem = ("the soloist takes Hyde cards from his own hand or the ghost's directly",
                       "soloist_takes_hyde_directly", {"seat": seat})
        elif not self.hands[2 * seat + side]:
            problem = (f"seat {seat} has no {need.title()} card", "no_card_of_side",
                       {"seat": seat, "need": need})
        else:
            return
        why, code, params = problem
        legal = self.legal_actions()
        raise IllegalActionError(f"{why}; {legal_hint(legal)}", code=code,
                                 params={**params, "legal": legal})

    def _put_down(self, card: str, source: int, side: int) -> None:
        """Move `card` from seat `source` to the table in front of the seat on turn."""
        index = 2 * source + side
        held = self.hands[index]
        at = held.index(card)
        self.hands = self.hands[:index] + (held[:at] + held[at + 1:],) + self.hands[index + 1:]
        self.plays = self.plays + ((self.turn, card, source),)
        if self._events is not None:
            self._events.append((_played_event, self.turn, card, source, len(self.plays) - 1,
                                 len(self.tricks)))
        self.designated = -1
        if len(self.plays) < 4:
            self.turn = (self.turn + 1) % 4
            self._to_act = self.table.decider[self.turn]
        else:
            self._finish_trick()

    def _finish_trick(self) -> None:
        plays = self.plays
        transformations = [seat for seat, card, _ in plays if card[1] == "T"]
        on_table = self.carried + tuple(card for _, card, _ in plays)
        last_trick = len(self.tricks) == TRICKS_PER_HAND - 1
        winner: int | None = None
        if transformations:
            # Nobody wins; the first Transformation's seat leads. In the last
            # trick everything still on the table goes to nobody.
            self.carried = () if last_trick else on_table
            next_leader = transformations[0]
        else:
            winner = trick_winner(plays)
            assert winner is not None  # four cards and no Transformation
            team = self.table.side[winner]
            won = list(self.won)
            won[team] = won[team] + on_table
            self.won = (won[0], won[1])
            self.carried = ()
            next_leader = winner
        if self._events is not None:
            self._events.append(self._trick_event(winner, on_table, last_trick))
        self.tricks = self.tricks + ((self.leader, plays, winner),)
        self.plays = ()
        if last_trick:
            self._finish_hand()
        else:
            self.leader = self.turn = next_leader
            self._to_act = self.table.decider[next_leader]

    def _trick_event(self, winner: int | None, on_table: tuple[str, ...],
                     last_trick: bool) -> Event:
        """`trick_won`, or `transformation` when a Transformation leaves the cards."""
        trick = len(self.tricks)
        cards = [card for _, card, _ in self.plays]
        if winner is None:
            first = next(seat for seat, card, _ in self.plays if card[1] == "T")
            return {"kind": "transformation", "trick": trick, "seat": first, "cards": cards,
                    "staying": [] if last_trick else list(on_table),
                    "to_nobody": list(on_table) if last_trick else []}
        card = next(card for seat, card, _ in self.plays if seat == winner)
        return {"kind": "trick_won", "trick": trick, "winner": winner,
                "team": TEAMS[self.table.side[winner]], "card": card, "cards": cards,
                "taken": list(on_table), "points": sum(POINTS[c] for c in on_table)}

    def _hand_event(self, points: list[int], multiplier: list[int], score: list[int],
                    entry: dict[str, Any]) -> Event:
        """`hand_scored`: per team every card taken with its points, its own
        actions with their multipliers, and why a score is 0."""
        teams: dict[str, Any] = {}
        for team, cards in enumerate(self.won):
            own = "JH"[team]
            teams[TEAMS[team]] = {
                "cards": [{"card": c, "points": POINTS[c]} for c in cards],
                "actions": [{"card": c, "multiplier": MULTIPLIER[c]} for c in cards
                            if MULTIPLIER[c] and c[0] == own],
                "other_actions": [c for c in cards if MULTIPLIER[c] and c[0] != own],
                "points": points[team], "multiplier": multiplier[team], "score": score[team],
                "zero": ("no_own_action" if not multiplier[team]
                         else "no_points" if not points[team] else None),
            }
        event = {"kind": "hand_scored", "hand_number": self.hand_number, "teams": teams,
                 "scores": self._scores_json()}
        if "soloist" in entry:
            seats = self.seat_names()
            event["soloist"] = entry["soloist"]
            event["gained"] = {seats[0]: score[1], seats[1]: score[0], seats[3]: score[0]}
        return event

    def _finish_hand(self) -> None:
        table = self.table
        points = [sum(POINTS[c] for c in cards) for cards in self.won]
        multiplier = [sum(MULTIPLIER[c] for c in cards if c[0] == "JH"[team])
                      for team, cards in enumerate(self.won)]
        score = [p * m for p, m in zip(points, multiplier)]
        entry: dict[str, Any] = {
            "points": dict(zip(TEAMS, points)),
            "multiplier": dict(zip(TEAMS, multiplier)),
            "score": dict(zip(TEAMS, score)),
            "last_trick": self._trick_json(*self.tricks[-1]),  # still shown once the next hand is dealt
        }
        if table.players == 4:
            self.scores = (self.scores[0] + score[0], self.scores[1] + score[1])
            totals = dict(zip(TEAMS, self.scores))
        else:
            seats = self.seat_names()
            entry["soloist"] = seats[0]
            gained = {seats[0]: score[1], seats[1]: score[0], seats[3]: score[0]}
            self.scores = tuple(total + gained[name]
                                for total, name in zip(self.scores, table.names))
            totals = dict(zip(table.names, self.scores))
        self.history = self.history + (entry,)
        if self._events is not None:
            self._events.append((JekyllHydeState._hand_event, self._copy(), points,
                                 multiplier, score, entry))
        best = max(totals.values())
        leaders = [name for name, total in totals.items() if total == best]
        if best >= table.target and len(leaders) == 1:
            self.winner_name = leaders[0]
            self._to_act = None
            self.turn = self.designated = -1
            if self._events is not None:
                self._events.append({"kind": "game_over", "winner": self.winner_name,
                                     "scores": dict(totals)})
            return
        # Equal totals at the top: another hand. The deal passes left.
        self._start_hand(self.hand_number + 1,
                         (self.dealer + 1) % 4 if table.players == 4 else 3)

    # -- views ----------------------------------------------------------

    def hand(self, seat: int) -> tuple[str, ...]:
        """The cards seat `seat` holds, Jekyll cards first."""
        return self.hands[2 * seat] + self.hands[2 * seat + 1]

    def seat_names(self) -> dict[int, str]:
        """The player at each seat this hand (3 players: seat 2 is the ghost), if named."""
        names, k = self.table.names, self.hand_number
        if len(names) != 3:
            return dict(enumerate(names))
        return {0: names[-k % 3], 1: names[(1 - k) % 3], 2: "ghost", 3: names[(2 - k) % 3]}

    def team_of(self, seat: int) -> str:
        return TEAMS[self.table.side[seat]]

    def _trick_json(self, leader: int, plays: Iterable[tuple[int, str, int]],
                    winner: int | None) -> dict[str, Any]:
        return {"leader": leader,
                "plays": [{"seat": s, "card": c, "from": f} for s, c, f in plays],
                "winner": winner}

    def _scores_json(self) -> dict[str, int]:
        keys = self.table.names if self.table.players == 3 else TEAMS
        return dict(zip(keys, self.scores))

    def _public(self) -> dict[str, Any]:
        """What every player sees."""
        over = self._to_act is None
        tricks = [self._trick_json(*t) for t in self.tricks]
        if self.plays or not over:
            current = self._trick_json(self.leader, self.plays, None)
        else:
            current = None
        return {
            "game": GAME_ID,
            "options": dict(self.table.options),
            "over": over,
            "to_act": self._to_act,
            "winner": self.winner_name,
            "scores": self._scores_json(),
            "history": [dict(h) for h in self.history],
            "hand_number": self.hand_number,
            "dealer": self.dealer,
            "turn": None if over else self.turn,
            "designated": None if self.designated < 0 else self.designated,
            "need": None if over else SIDE_NAME["JH"[self.table.side[self.turn]]],
            "teams": {str(s): self.team_of(s) for s in range(4)},
            "names": {str(s): n for s, n in self.seat_names().items()},
            "backs": {str(s): {"J": len(self.hands[2 * s]), "H": len(self.hands[2 * s + 1])}
                      for s in range(4)},
            "trick": current,
            "tricks": tricks,
            "carried": list(self.carried),
            "taken": {team: list(cards) for team, cards in zip(TEAMS, self.won)},
        }

    def observation(self, player: int) -> dict[str, Any]:
        """What seat `player` may know: own hand, backs of the others, the table.

        In 3-player mode the ghost's hand (seat 2) is open to everyone and
        player 2 is not a player: the soloist (0) decides for it.
        """
        self._check_player(player)
        return self._seen_by(player)

    def public_observation(self) -> dict[str, Any]:
        """What a watcher may know: the table and the backs, no hand but the
        ghost's, which lies open with 3 players.

        >>> s = new_state({"players": 3}, seed=2)
        >>> w = s.public_observation()
        >>> w["player"], w["legal"], w["ghost"] == s.observation(0)["ghost"], "hand" in w
        (None, [], True, False)
        >>> w["backs"]["1"], w["to_act"], w["need"]
        ({'J': 2, 'H': 5}, 0, 'hyde')
        """
        return self._seen_by(None)

    def _seen_by(self, player: int | None) -> dict[str, Any]:
        """The observation of seat `player`, or a watcher's (None: no hand, no legal)."""
        obs = self._public()
        obs["player"] = player
        if player is not None:
            obs["hand"] = list(self.hand(player))
        obs["ghost"] = list(self.hand(GHOST)) if self.table.players == 3 else None
        on_turn = player is not None and self._to_act == player
        obs["legal"] = self.legal_actions() if on_turn else []
        # Only in observations, never in saves: it follows from the plays.
        obs["winning"] = winning(self.plays)
        return obs

    def _viewers(self) -> tuple[int, ...]:
        """The seats with a player: with 3 players not the ghost's."""
        return (0, 1, 3) if self.table.players == 3 else (0, 1, 2, 3)

    def _check_player(self, player: Any) -> None:
        if player not in self._viewers():
            raise BadOptionsError(
                f"no player at seat {player!r}: seats are 0-3"
                + (" and seat 2 is the ghost, played by seat 0" if self.table.players == 3
                   else ""), code="no_such_player", params={"player": json_ready(player)})

    @property
    def hands_scored(self) -> int:
        return len(self.history)

    def to_json(self) -> dict[str, Any]:
        data = self._public()
        data.update({
            "seed": self.table.seed,
            "deals": [{"hands": {str(s): list(h) for s, h in enumerate(d)}}
                      for d in self.table.deals],
            "legal": self.legal_actions(),
            "hands": {str(s): list(self.hand(s)) for s in range(4)},
        })
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "JekyllHydeState":
        """Rebuild a save: options, seed and deals give the hand under way,
        whose plays are replayed; everything else in the save must follow.
        Anything wrong raises BadStateError naming the field."""
        keys = ("over", "hand_number", "history", "tricks", "trick", "designated", "hands")
        return load_save(GAME_ID, data, keys, Table, cls._rebuild)

    @classmethod
    def _rebuild(cls, data: dict[str, Any], table: Table) -> "JekyllHydeState":
        E = BadStateError
        over = read_bool(data["over"], "over", E)
        hand_number = read_int(data["hand_number"], "hand_number", E, 0, MAX_HANDS)
        finished = hand_number + over  # hands in the history
        history = tuple(_history_entry(h, at("history", k), table, k) for k, h in
                        enumerate(read_list(data["history"], "history", E, finished, finished)))
        plays = [p for i, t in enumerate(read_list(data["tricks"], "tricks", E, 0,
                                                   TRICKS_PER_HAND))
                 for p in _read_plays(t, at("tricks", i))]
        if data["trick"] is not None:
            plays += _read_plays(data["trick"], "trick")
        designated = data["designated"]
        if designated is not None:
            read_int(designated, "designated", E, 0, 3)
        dealt = _dealt_hands(read_object(data["hands"], "hands", E, _SEATS, ()), plays)

        s = cls.__new__(cls)
        s._events = None  # rebuilding records nothing; the replayed actions do
        s.table = table
        s.history = history[:hand_number]  # a finished game replays its last hand too
        s.scores = _totals(table, s.history)
        s.winner_name = None
        s._start_hand(hand_number, (table.options["dealer"] + hand_number) % 4
                      if table.players == 4 else 3)
        s.hands = tuple(tuple(c for c in dealt[seat] if c[0] == letter)
                        for seat in range(4) for letter in _LETTER)
        for seat, card, source in plays:
            if source != seat and not (table.players == 3 and {seat, source} <= {0, GHOST}):
                s = s.apply(_DESIGNATE[source])
            s = s.apply(card)
        if designated is not None:
            s = s.apply(_DESIGNATE[designated])
        check_rebuilt(data, s, read=("hands",))
        return s


def _read_plays(trick: Any, path: str) -> list[tuple[int, str, int]]:
    """The (seat, card, from seat) of a saved trick's plays."""
    read_object(trick, path, BadStateError, ("leader", "plays", "winner"), None)
    plays = []
    path = at(path, "plays")
    for i, play in enumerate(read_list(trick["plays"], path, BadStateError, 0, 4)):
        where = at(path, i)
        read_object(play, where, BadStateError, ("seat", "card", "from"), None)
        plays.append((read_int(play["seat"], at(where, "seat"), BadStateError, 0, 3),
                      read_card(play["card"], at(where, "card"), BadStateError, ORDER),
                      read_int(play["from"], at(where, "from"), BadStateError, 0, 3)))
    return plays


def trick_winner(plays: Iterable[tuple[int, str, int]]) -> int | None:
    """The seat whose card wins these (seat, card, from) plays, if the trick
    ended now: the highest rank, the earliest of equal ranks; None when a
    Transformation lies among them (nobody wins) or nothing does.

    >>> trick_winner([(1, "HF4", 3), (2, "JE", 1), (3, "H1", 0), (0, "JD", 0)])
    0
    >>> trick_winner([(1, "HF7", 1), (2, "JF3", 2)])  # places tie: the earlier wins
    1
    >>> trick_winner([(1, "HT", 1), (2, "JA", 2)]) is None
    True
    """
    winner, best_rank = None, -1
    for seat, card, _ in plays:
        if card[1] == "T":
            return None
        if RANK[card] > best_rank:  # strict: the earliest of equal ranks wins
            best_rank, winner = RANK[card], seat
    return winner


def winning(plays: tuple[tuple[int, str, int], ...]) -> dict[str, Any] | None:
    """The observation's `winning`: who would take the trick under way if it
    ended now. None before its first card; else `seat` and `card` of the
    winning card (both None once a Transformation lies: nobody wins it) and
    `transformation`, the seat of the first Transformation (it leads next), or None.

    >>> winning(((1, "HF4", 3), (2, "JE", 1)))
    {'seat': 2, 'card': 'JE', 'transformation': None}
    >>> winning(((1, "HA", 1), (2, "JT", 2), (3, "HT", 0)))
    {'seat': None, 'card': None, 'transformation': 2}
    """
    if not plays:
        return None
    seat = trick_winner(plays)
    return {"seat": seat, "card": next((c for s, c, _ in plays if s == seat), None),
            "transformation": next((s for s, c, _ in plays if c[1] == "T"), None)}


def _played_event(seat: int, card: str, source: int, place: int, trick: int) -> Event:
    return {"kind": "played", "seat": seat, "card": card, "from": source, "place": place,
            "trick": trick}




def _dealt_hands(hands: dict[str, Any], plays: list[tuple[int, str, int]]) -> list[list[str]]:
    """The hands as dealt for the hand under way: the saved hands (which may differ
    from the seed's deal: they are the state) and the cards each seat gave since.
    Every card of the pack must be in exactly one place."""
    where: dict[str, str] = {}
    dealt: list[list[str]] = [[] for _ in range(4)]
    for seat, key in enumerate(_SEATS):
        path = at("hands", key)
        for i, card in enumerate(read_list(hands[key], path, BadStateError, 0, 7)):
            read_card(card, at(path, i), BadStateError, ORDER)
            _place(card, at(path, i), where)
            dealt[seat].append(card)
    for n, (_, card, source) in enumerate(plays):
        _place(card, f"play {n} of this hand", where)
        dealt[source].append(card)
    for seat in range(4):
        if len(dealt[seat]) != 7:
            path = at("hands", _SEATS[seat])
            raise BadStateError(
                f"{path}: seat {seat} holds and gave {len(dealt[seat])} cards this hand, "
                "not the 7 dealt", code="inconsistent_state", params={"path": path})
    for seat in range(4):
        dealt[seat].sort(key=ORDER.__getitem__)
    return dealt


def _place(card: str, path: str, where: dict[str, str]) -> None:
    if card in where:
        raise BadStateError(f"{path}: {card} is also in {where[card]}", code="duplicate_card",
                            params={"path": path, "card": card, "also": where[card]})
    where[card] = path


def _history_entry(entry: Any, path: str, table: Table, hand_number: int) -> dict[str, Any]:
    """A finished hand of the history, checked: its scores are points x multiplier,
    its last trick four plays, and with 3 players the soloist the one of that hand."""
    E = BadStateError
    three = table.players == 3
    read_object(entry, path, E, ("points", "multiplier", "score", "last_trick")
                + (("soloist",) if three else ()), ())
    checked: dict[str, Any] = {}
    for key, hi in (("points", 60), ("multiplier", 6), ("score", 360)):
        values = read_object(entry[key], at(path, key), E, TEAMS, ())
        checked[key] = {team: read_int(values[team], at(at(path, key), team), E, 0, hi)
                        for team in TEAMS}
    for team in TEAMS:
        if checked["score"][team] != checked["points"][team] * checked["multiplier"][team]:
            where = at(at(path, "score"), team)
            raise BadStateError(f"{where}: not the points times the multiplier",
                                code="inconsistent_state", params={"path": where})
    last = entry["last_trick"]
    plays = _read_plays(last, at(path, "last_trick"))
    if len(plays) != 4:
        fail(E, at(at(path, "last_trick"), "plays"), "4 plays", last["plays"])
    winner = last["winner"]
    if winner is not None:
        read_int(winner, at(at(path, "last_trick"), "winner"), E, 0, 3)
    checked["last_trick"] = {
        "leader": read_int(last["leader"], at(at(path, "last_trick"), "leader"), E, 0, 3),
        "plays": [{"seat": s, "card": c, "from": f} for s, c, f in plays], "winner": winner}
    if three:
        soloist = table.names[-hand_number % 3]
        if entry["soloist"] != soloist:
            fail(E, at(path, "soloist"), repr(soloist), entry["soloist"], "inconsistent_state")
        checked["soloist"] = soloist
    return checked


def _totals(table: Table, history: tuple[dict[str, Any], ...]) -> tuple[int, ...]:
    """The scores after the hands of `history`, which must not have ended the game:
    per team with 4 players, per name with 3."""
    keys = table.names if table.players == 3 else TEAMS
    totals = dict.fromkeys(keys, 0)
    for k, entry in enumerate(history):
        score = entry["score"]
        if table.players == 4:
            gained = score
        else:
            gained = {name: score["hyde" if name == entry["soloist"] else "jekyll"]
                      for name in keys}
        for key in keys:
            totals[key] += gained[key]
        best = max(totals.values())
        if best >= table.target and list(totals.values()).count(best) == 1:
            where = at("history", k)
            raise BadStateError(f"{where}: the game ended with this hand, yet goes on",
                                code="inconsistent_state", params={"path": where})
    return tuple(totals.values())


_DESIGNATE = ("@0", "@1", "@2", "@3")
_SEAT_OF = {a: s for s, a in enumerate(_DESIGNATE)}
_OTHERS = tuple(tuple(s for s in range(4) if s != turn) for turn in range(4))
_LETTER = ("J", "H")


def sides(options: dict[str, Any] | None) -> dict[str, list[Any]]:
    """The two camps a match pits against each other, as lasting players.

    With 3 players the roles rotate, so a match is one player against two.

    >>> sides({"seating": "B"})
    {'jekyll': [0, 1], 'hyde': [2, 3]}
    >>> sides({"players": 3})
    {'first': ['Adam'], 'others': ['Betty', 'Christian']}
    """
    table = Table(options, 0, None)
    if table.players == 3:
        return {"first": [table.names[0]], "others": list(table.names[1:])}
    return {team: [s for s in range(4) if table.side[s] == i] for i, team in enumerate(TEAMS)}


def hand_gains(state: JekyllHydeState) -> dict[Any, int] | None:
    """The points each lasting player (as `sides` names them) gained in the
    game's first hand, once it is scored; None before. A benchmark's unit:
    seat-swapped duplicate hands (game.core.match.simulate, unit "hands").

    >>> state = new_state({"players": 3}, seed=1)
    >>> hand_gains(state) is None
    True
    """
    if not state.history:
        return None
    entry, table = state.history[0], state.table
    score = entry["score"]
    if table.players == 4:
        return {seat: score[TEAMS[table.side[seat]]] for seat in range(4)}
    return {name: score["hyde" if name == entry["soloist"] else "jekyll"] for name in table.names}


def new_state(options: dict[str, Any] | None = None, seed: int | None = None,
              deals: list[Any] | None = None) -> JekyllHydeState:
    """A new game: the first hand is dealt and the seat left of the dealer is on turn."""
    return JekyllHydeState.start(Table(options, seed, deals))
