"""Dracula (David Parlett): the complete rules.

Players 0 and 1.  The first dealer chooses `way:Q` (he scores the rows) or
`way:K` (the columns); then six deals, the dealer alternating.  Each deal
gives 4 cards to each player, one at a time, non-dealer first, then turns the
next card face up as the nail in the centre of the coffin; the stock is
never reshuffled, so the six deals use the whole 54-card pack.  The players,
non-dealer first, place cards (`<card>@<row><col>`) on empty cells
orthogonally adjacent to a placed card until the coffin is full.  See
docs/RULES.md section 3 for the rules and the readings chosen.  Where the engine
had to decide more:
- the way is chosen before anything is dealt (the hands are empty then);
- the tie rule compares the two players' lines rank by rank (best with
  best, then second with second, then third with third);
- on equal totals the bonus goes to the higher single deal score (RULES.md),
  which is the highest line a player scored; a line built but not scored
  (lost to the tie rule) does not count;
- once the game is over the grid still shows the last coffin, and `moves`
  (this deal's placements) is empty: they are in the history.

>>> s = new_state({"first_dealer": 0}, seed=1)
>>> s.to_act, s.legal_actions()
(0, ['way:Q', 'way:K'])
>>> s = s.apply("way:K")
>>> s.to_act, s.ways, len(s.hands[0]), len(s.hands[1]), s.grid[4] is not None
(1, ('K', 'Q'), 4, 4, True)

Events (`state.events(player)`; the first state has none: nothing is dealt
before the way is chosen):

| kind | params |
|---|---|
| `way_chosen` | `player`, `way` (Q, K), `ways` {"0", "1"} |
| `dealt` | `deal_number`, `dealer`, `nail`, `held` {"0", "1"}, `stock`, `hands` {player: cards}: only the player's own (a watcher's: empty) |
| `placed` | `player`, `card`, `cell` ("01"), `row`, `column`, `lines` (the row and the column through the cell, as they are now: a line below) |
| `line_scored` | a line the card filled, as below |
| `deal_scored` | `deal_number`, `dealer`, `ways`, `lines` {"0", "1": three lines}, `vampires` (cells), `rank` (0 best, 1 second, 2 third: the tie rule), `tied` (the equal values skipped), `scored_line` {"0", "1": its index}, `score`, `totals` |

A line is `player` (who scores it), `way`, `line` (0-2), `cells`, and
`cards.line_detail`'s `state` (empty, open, full, vampire), `cards`
(None where empty), `values`, `sum`, `multiplier` (so far at least while
open; null with a Vampire), `value` (null while open).
| `game_over` | `winner` ("0", "1", null), `reason` (higher_total, best_deal, draw), `totals`, `bonus`, `scores` |

Error codes: malformed_way, ways_already_chosen, choose_way_first,
card_in_coffin, cell_taken, cell_not_adjacent, and the shared
card_not_in_hand, game_over, not_a_string, malformed_action, no_such_player,
game_not_over.
"""

from __future__ import annotations

from typing import Any, Sequence, cast

from game.core.options import OptionSpec, read_options
from game.core.rng import deal_rng, fresh_seed, shuffled
from game.core.state import (
    BadOptionsError,
    BadStateError,
    Event,
    IllegalActionError,
    MalformedActionError,
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
    read_card,
    read_choice,
    read_list,
    read_object,
    read_seed,
    read_str,
)
from game.dracula.cards import (
    CELL_INDEX,
    CELLS,
    DECK,
    LINES,
    NAIL,
    NEIGHBOURS,
    ORDER,
    WAYS,
    deal_scores,
    line_detail,
    line_values,
    scored_rank,
    sort_cards,
)

GAME_ID = "dracula"
DRAWS = True  # equal totals and equal best deals: nobody wins (`winner` None)
OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec("first_dealer", "int", 0, choices=(0, 1),
               help="the player who deals first and chooses the way"),
)
DEFAULTS: dict[str, Any] = {o.name: o.default for o in OPTIONS}
DEALS = 6
CARDS_PER_DEAL = 9  # 4 + 4 + the nail
_WAY_ACTIONS = ("way:Q", "way:K")


class Table:
    """The fixed settings of one game: options, seed and the order of the pack.

    Shared, never copied, by every state of the game.
    """

    __slots__ = ("options", "first_dealer", "seed", "deals", "deck")

    def __init__(self, options: dict[str, Any] | None, seed: int | None,
                 deals: list[Any] | None) -> None:
        opts = read_options(GAME_ID, OPTIONS, options)
        self.options = opts
        self.first_dealer: int = opts["first_dealer"]
        self.seed = fresh_seed() if seed is None else read_seed(seed, "seed", BadOptionsError)
        if deals is None:
            deals = []
        if type(deals) is not list:
            raise BadOptionsError(f"deals must be a list, not {type(deals).__name__}",
                                  code="invalid_field", params={"path": "deals"})
        if len(deals) > 1:
            raise BadOptionsError(
                f'{GAME_ID} takes at most one deal, {{"deck": [54 cards]}}: the order of '
                f"the whole pack for the six deals; got {len(deals)}",
                code="invalid_deal", params={"path": "deals"})
        self.deals = tuple(_check_deck(d, i) for i, d in enumerate(deals))
        if self.deals:
            self.deck: tuple[str, ...] = self.deals[0]
        else:
            self.deck = tuple(shuffled(DECK, deal_rng(GAME_ID, self.seed, 0)))

    def deal(self, number: int, dealer: int) -> tuple[tuple[tuple[str, ...], tuple[str, ...]], str]:
        """The two hands (by player) and the nail of deal `number` (0-based)."""
        cards = self.deck[CARDS_PER_DEAL * number:CARDS_PER_DEAL * (number + 1)]
        non_dealer = 1 - dealer
        hands: list[tuple[str, ...]] = [(), ()]
        hands[non_dealer] = sort_cards(cards[0:8:2])
        hands[dealer] = sort_cards(cards[1:8:2])
        return (hands[0], hands[1]), cards[8]


def _check_deck(deal: Any, index: int) -> tuple[str, ...]:
    where = f"deals[{index}]"
    if type(deal) is not dict or set(deal) != {"deck"} or type(deal["deck"]) is not list:
        raise BadOptionsError(f'{where} must be {{"deck": [the 54 cards in dealing order]}}',
                              code="invalid_deal", params={"path": where})
    deck = deal["deck"]
    if len(deck) > 2 * len(DECK):
        fail(BadOptionsError, at(where, "deck"), "a list of the 54 cards", deck, "invalid_deal")
    for i, card in enumerate(deck):
        read_card(card, at(at(where, "deck"), i), BadOptionsError, ORDER,
                  "; cards are AS..KS, AH..KH, AD..KD, AC..KC (10 for ten), V1, V2")
    twice = sort_cards({c for c in deck if deck.count(c) > 1})
    missing = sort_cards(set(DECK) - set(deck))
    if twice or missing or len(deck) != len(DECK):
        problems = [f"{len(deck)} cards, not 54"] if len(deck) != len(DECK) else []
        if twice:
            problems.append("twice: " + " ".join(twice))
        if missing:
            problems.append("missing: " + " ".join(missing))
        raise BadOptionsError(f"{where}.deck must hold each of the 54 cards once; "
                              + "; ".join(problems), code="invalid_deal",
                              params={"path": at(where, "deck"), "twice": list(twice),
                                      "missing": list(missing)})
    return tuple(deck)


def parse_placement(action: str) -> tuple[str, int] | None:
    """`(card, cell index)` of a well-formed placement such as `QH@01`, else None.

    >>> parse_placement("QH@01"), parse_placement("10S@22"), parse_placement("QH@31")
    (('QH', 1), ('10S', 8), None)
    """
    card, at, cell = action.partition("@")
    if not at or card not in ORDER or cell not in CELL_INDEX:
        return None
    return card, CELL_INDEX[cell]


class DraculaState(State):
    """A moment of a game of Dracula."""

    game_id = GAME_ID
    players = (0, 1)
    __slots__ = ("table", "ways", "deal_number", "dealer", "grid", "hands", "moves",
                 "totals", "history", "final", "winner_name", "_to_act")

    table: Table
    ways: tuple[str, str] | None  # per player, None until the first dealer chooses
    deal_number: int  # 0..5
    dealer: int
    grid: tuple[str | None, ...]  # 9 cells row by row
    hands: tuple[tuple[str, ...], tuple[str, ...]]
    moves: tuple[str, ...]  # this deal's placements, non-dealer first, alternating
    totals: tuple[int, int]  # finished deals, before the bonus
    history: tuple[dict[str, Any], ...]
    final: tuple[int, int] | None  # scores after the bonus, once over
    winner_name: str | None
    _to_act: int | None

    # -- construction ---------------------------------------------------

    @classmethod
    def start(cls, table: Table) -> "DraculaState":
        s = cls.__new__(cls)
        s.table = table
        s.ways = None
        s.deal_number = 0
        s.dealer = table.first_dealer
        s.grid = (None,) * 9
        s.hands = ((), ())
        s.moves = ()
        s.totals = (0, 0)
        s.history = ()
        s.final = None
        s.winner_name = None
        s._to_act = table.first_dealer  # he chooses the way before the first deal
        s._events = []  # nothing is dealt before the way is chosen
        return s

    def _start_deal(self, number: int) -> None:
        self.deal_number = number
        self.dealer = self.table.first_dealer ^ (number & 1)
        self.hands, nail = self.table.deal(number, self.dealer)
        grid: list[str | None] = [None] * 9
        grid[NAIL] = nail
        self.grid = tuple(grid)
        self.moves = ()
        self._to_act = 1 - self.dealer
        if self._events is not None:
            public = {"kind": "dealt", "deal_number": number, "dealer": self.dealer,
                      "nail": nail, "held": {"0": len(self.hands[0]), "1": len(self.hands[1])},
                      "stock": len(DECK) - CARDS_PER_DEAL * (number + 1)}
            hands = {"0": list(self.hands[0]), "1": list(self.hands[1])}
            self._events.append(Private({**public, "hands": hands},
                                        {p: {**public, "hands": {str(p): hands[str(p)]}}
                                         for p in (0, 1)},
                                        {**public, "hands": {}}))


    # -- the protocol ---------------------------------------------------

    @property
    def to_act(self) -> int | None:
        return self._to_act

    @property
    def winner(self) -> str | None:
        return self.winner_name

    def open_cells(self) -> list[int]:
        """Empty cells orthogonally adjacent to a placed card, in reading order."""
        grid = self.grid
        return [i for i in range(9) if grid[i] is None
                and any(grid[n] is not None for n in NEIGHBOURS[i])]

    def legal_actions(self) -> list[str]:
        """Before the first deal `way:Q way:K`; then every card of the hand
        (pack order) on every open cell (reading order)."""
        player = self._to_act
        if player is None:
            return []
        if self.ways is None:
            return list(_WAY_ACTIONS)
        cells = [CELLS[i] for i in self.open_cells()]
        return [f"{card}@{cell}" for card in self.hands[player] for cell in cells]

    def apply(self, action: str) -> "DraculaState":
        player = self._to_act
        if not isinstance(action, str):
            raise MalformedActionError(f"{action!r} is not an action: actions are strings",
                                       code="not_a_string",
                                       params={"action": json_ready(action)})
        if player is None:
            raise IllegalActionError(f"{action!r}: the game is over, no action is legal",
                                     code="game_over", params={"action": action})
        legal = self.legal_actions()
        hint = legal_hint(legal)
        if action.startswith("way:"):
            if action not in _WAY_ACTIONS:
                raise MalformedActionError(
                    f"{action!r} is not an action: the way is way:Q (rows) or way:K "
                    f"(columns); player {player} is to act; {hint}", code="malformed_way",
                    params={"action": action, "player": player, "legal": legal})
            if self.ways is not None:
                raise IllegalActionError(
                    f"{action!r}: the ways are already chosen (player 0 scores "
                    f"{self.ways[0]}, player 1 {self.ways[1]}); "
                    f"player {player} places a card; {hint}", code="ways_already_chosen",
                    params={"action": action, "player": player, "legal": legal,
                            "ways": {"0": self.ways[0], "1": self.ways[1]}})
            way = action[4]
            s = self._copy()
            other = WAYS[1 - WAYS.index(way)]
            s.ways = (way, other) if player == 0 else (other, way)
            s._events = [{"kind": "way_chosen", "player": player, "way": way,
                          "ways": {"0": s.ways[0], "1": s.ways[1]}}]
            s._start_deal(0)
            return s
        placement = parse_placement(action)
        if placement is None:
            raise MalformedActionError(
                f"{action!r} is not an action: write <card>@<row><col> with rows and columns "
                f"0-2, e.g. QH@01, 10S@12, V1@00; player {player} is to act; {hint}",
                code="malformed_action", params={"action": action, "player": player,
                                                 "legal": legal})
        card, cell = placement
        params = {"action": action, "player": player, "card": card, "cell": CELLS[cell],
                  "legal": legal}
        if self.ways is None:
            raise IllegalActionError(
                f"{action!r}: player {player} deals first and must choose the way before "
                f"the first deal; {hint}", code="choose_way_first", params=params)
        grid = self.grid
        if card not in self.hands[player]:
            where = ("is in the coffin" if card in grid else
                     "is not in player %d's hand" % player)
            raise IllegalActionError(
                f"{action!r}: {card} {where}; player {player} holds "
                f"{' '.join(self.hands[player])}; {hint}",
                code="card_in_coffin" if card in grid else "card_not_in_hand",
                params={**params, "hand": list(self.hands[player])})
        if grid[cell] is not None:
            raise IllegalActionError(
                f"{action!r}: player {player} cannot place on cell {CELLS[cell]}, it is "
                f"taken by {grid[cell]}; {hint}", code="cell_taken",
                params={**params, "taken_by": grid[cell]})
        if all(grid[n] is None for n in NEIGHBOURS[cell]):
            raise IllegalActionError(
                f"{action!r}: player {player} cannot place on cell {CELLS[cell]}, it touches "
                f"no placed card side by side; {hint}", code="cell_not_adjacent",
                params=params)
        s = self._copy()
        s._events = []
        s._place(player, card, cell, action)
        return s

    def apply_in_place(self, action: str) -> None:
        """Apply a legal action to this very state, unchecked.

        The fast path of search playouts, on a state they own (a copy from
        `apply` or a sampled world); everything else uses `apply`.  It records
        no events.
        """
        self._events = None
        if action[0] == "w":
            way = action[4]
            other = WAYS[1 - WAYS.index(way)]
            self.ways = (way, other) if self._to_act == 0 else (other, way)
            self._start_deal(0)
            return
        card, _, cell = action.partition("@")
        me = self._to_act
        assert me is not None  # apply_in_place is given legal actions only
        self._place(me, card, CELL_INDEX[cell], action)

    # -- applying -------------------------------------------------------

    def _place(self, player: int, card: str, cell: int, action: str) -> None:
        held = self.hands[player]
        at = held.index(card)
        hand = held[:at] + held[at + 1:]
        self.hands = (hand, self.hands[1]) if player == 0 else (self.hands[0], hand)
        self.grid = self.grid[:cell] + (card,) + self.grid[cell + 1:]
        self.moves = self.moves + (action,)
        if self._events is not None:
            self._events.extend(self._placed_events(player, card, cell))
        if len(self.moves) < 8:
            self._to_act = 1 - player
        else:
            self._finish_deal()

    def _placed_events(self, player: int, card: str, cell: int) -> list[Event]:
        """`placed` with the row and the column it changed, then `line_scored`
        for each of them it fills up."""
        row, column = divmod(cell, 3)
        lines = [self._line_event(way, index) for way, index in (("Q", row), ("K", column))]
        events: list[Event] = [{"kind": "placed", "player": player, "card": card,
                                "cell": CELLS[cell], "row": row, "column": column,
                                "lines": lines}]
        events += [{"kind": "line_scored", **line} for line in lines
                   if None not in line["cards"]]
        return events

    def _line_event(self, way: str, index: int) -> Event:
        """Line `index` of `way` as it stands, for the player who scores it."""
        assert self.ways is not None
        cells = LINES[way][index]
        return {"player": self.ways.index(way), "way": way, "line": index,
                "cells": [CELLS[i] for i in cells],
                **line_detail([self.grid[i] for i in cells], way)}

    def _deal_event(self, lines: tuple[list[int], list[int]], score: tuple[int, int]) -> Event:
        """`deal_scored`: every line of both players, and which one counts (tie rule)."""
        ways = self.ways
        assert ways is not None
        rank = scored_rank(lines[0], lines[1])
        return {"kind": "deal_scored", "deal_number": self.deal_number, "dealer": self.dealer,
                "ways": {"0": ways[0], "1": ways[1]},
                "lines": {str(p): [self._line_event(ways[p], k) for k in range(3)]
                          for p in (0, 1)},
                "vampires": [CELLS[i] for i in range(9) if self.grid[i] in ("V1", "V2")],
                "rank": rank,
                "tied": sorted(lines[0], reverse=True)[:rank],
                "scored_line": {str(p): lines[p].index(score[p]) for p in (0, 1)},
                "score": {"0": score[0], "1": score[1]},
                "totals": {"0": self.totals[0], "1": self.totals[1]}}

    def _finish_deal(self) -> None:
        ways = self.ways
        assert ways is not None
        full = cast("tuple[str, ...]", self.grid)  # every cell is filled when a deal ends
        lines = (line_values(full, ways[0]), line_values(full, ways[1]))
        score = deal_scores(lines[0], lines[1])
        self.history = self.history + ({
            "dealer": self.dealer,
            "grid": _rows(self.grid),
            "lines": {"0": lines[0], "1": lines[1]},
            "score": {"0": score[0], "1": score[1]},
            "moves": list(self.moves),
        },)
        self.totals = (self.totals[0] + score[0], self.totals[1] + score[1])
        if self._events is not None:
            self._events.append(self._deal_event(lines, score))
        if self.deal_number + 1 < DEALS:
            self._start_deal(self.deal_number + 1)
            return
        self._to_act = None
        self.moves = ()  # they are in the history; the grid keeps showing the last coffin
        self.final, self.winner_name = final_scores(
            self.totals, [tuple(h["score"][p] for p in "01") for h in self.history])
        if self._events is not None:
            a, b = self.totals
            self._events.append({
                "kind": "game_over", "winner": self.winner_name,
                "reason": ("higher_total" if a != b else "best_deal" if self.winner_name
                           else "draw"),
                "totals": {"0": a, "1": b},
                "bonus": {"0": self.final[0] - a, "1": self.final[1] - b},
                "scores": {"0": self.final[0], "1": self.final[1]}})

    # -- views ----------------------------------------------------------

    def scores(self) -> tuple[int, int]:
        """The totals, with the bonus once the game is over."""
        return self.final if self.final is not None else self.totals

    def _public(self) -> dict[str, Any]:
        """What both players see."""
        over = self._to_act is None
        scores = self.scores()
        bonus = [a - b for a, b in zip(scores, self.totals)]
        return {
            "game": GAME_ID,
            "options": dict(self.table.options),
            "over": over,
            "to_act": self._to_act,
            "winner": self.winner_name,
            "phase": "over" if over else ("way" if self.ways is None else "place"),
            "ways": None if self.ways is None else {"0": self.ways[0], "1": self.ways[1]},
            "deal_number": self.deal_number,
            "dealer": self.dealer,
            "grid": _rows(self.grid),
            "moves": list(self.moves),
            "history": [_copy_entry(h) for h in self.history],
            "totals": {"0": self.totals[0], "1": self.totals[1]},
            "bonus": {"0": bonus[0], "1": bonus[1]},
            "scores": {"0": scores[0], "1": scores[1]},
            "held": {"0": len(self.hands[0]), "1": len(self.hands[1])},
            "stock": len(DECK) - CARDS_PER_DEAL * (self.deal_number + 1) if self.ways else 54,
        }

    def observation(self, player: int) -> dict[str, Any]:
        """What `player` may know: his hand, the coffin, earlier deals, the scores.

        Never the opponent's hand or the order of the stock.
        """
        self._check_player(player)
        obs = self._public()
        obs["player"] = player
        obs["hand"] = list(self.hands[player])
        obs["legal"] = self.legal_actions() if self._to_act == player else []
        return obs

    def public_observation(self) -> dict[str, Any]:
        """What a watcher may know: the coffin, earlier deals, the scores, how
        many cards each holds and the stock holds; never a card in them.

        >>> s = new_state({"first_dealer": 0}, seed=1).apply("way:K")
        >>> w = s.public_observation()
        >>> w["player"], w["held"], w["stock"], w["grid"][1][1] == s.grid[4], "hand" in w
        (None, {'0': 4, '1': 4}, 45, True, False)
        """
        obs = self._public()
        obs["player"] = None
        obs["legal"] = []
        return obs

    def _check_player(self, player: Any) -> None:
        if player not in (0, 1) or isinstance(player, bool):
            raise BadOptionsError(f"no player {player!r}: the players are 0 and 1",
                                  code="no_such_player", params={"player": json_ready(player)})

    @property
    def hands_scored(self) -> int:
        return len(self.history)

    def to_json(self) -> dict[str, Any]:
        data = self._public()
        data.update({
            "seed": self.table.seed,
            "deals": [{"deck": list(d)} for d in self.table.deals],
            "legal": self.legal_actions(),
            "hands": {"0": list(self.hands[0]), "1": list(self.hands[1])},
        })
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "DraculaState":
        """Rebuild a state by replaying its moves, then check it says the same.
        Anything wrong raises BadStateError naming the field."""
        return load_save(GAME_ID, data, ("ways", "history", "moves"), Table, cls._rebuild)

    @classmethod
    def _rebuild(cls, data: dict[str, Any], table: Table) -> "DraculaState":
        E = BadStateError
        moves = []
        for k, entry in enumerate(read_list(data["history"], "history", E, 0, DEALS)):
            moves += _moves(read_object(entry, at("history", k), E, ("moves",), None)["moves"],
                            at(at("history", k), "moves"))
        moves += _moves(data["moves"], "moves")
        s = cls.start(table)
        ways = data["ways"]
        if ways is not None:
            way = read_object(ways, "ways", E, ("0", "1"), ())[str(table.first_dealer)]
            s = s.apply("way:" + read_choice(way, at("ways", str(table.first_dealer)), E, WAYS))
        for move in moves:
            s = s.apply(move)
        check_rebuilt(data, s)
        return s


def _moves(value: Any, path: str) -> list[str]:
    moves = read_list(value, path, BadStateError, 0, 8)
    for i, move in enumerate(moves):
        read_str(move, at(path, i), BadStateError, 10)
    return moves


def final_scores(totals: tuple[int, int],
                 deal_scores_: list[tuple[int, int]]) -> tuple[tuple[int, int], str | None]:
    """The scores after the bonus, and the winner ("0", "1" or None for a draw).

    The higher total adds the difference; on equal totals the player with the
    highest single deal adds that deal's score; if that is equal too, a draw.

    >>> final_scores((245, 272), [])
    ((245, 299), '1')
    >>> final_scores((200, 200), [(90, 40), (30, 100), (80, 60)])
    ((200, 300), '1')
    >>> final_scores((200, 200), [(90, 40), (30, 90)])
    ((200, 200), None)
    """
    a, b = totals
    if a != b:
        if a > b:
            return (a + a - b, b), "0"
        return (a, b + b - a), "1"
    best = [max((d[p] for d in deal_scores_), default=0) for p in (0, 1)]
    if best[0] > best[1]:
        return (a + best[0], b), "0"
    if best[1] > best[0]:
        return (a, b + best[1]), "1"
    return (a, b), None


def _rows(grid: Sequence[str | None]) -> list[list[str | None]]:
    return [list(grid[0:3]), list(grid[3:6]), list(grid[6:9])]


def _copy_entry(entry: dict[str, Any]) -> dict[str, Any]:
    return {
        "dealer": entry["dealer"],
        "grid": [list(r) for r in entry["grid"]],
        "lines": {p: list(v) for p, v in entry["lines"].items()},
        "score": dict(entry["score"]),
        "moves": list(entry["moves"]),
    }


def sides(options: dict[str, Any] | None) -> dict[str, list[int]]:
    """The two camps a match pits against each other: one player each.

    >>> sides(None)
    {'0': [0], '1': [1]}
    """
    Table(options, 0, None)
    return {"0": [0], "1": [1]}


def new_state(options: dict[str, Any] | None = None, seed: int | None = None,
              deals: list[Any] | None = None) -> DraculaState:
    """A new game: the first dealer is to choose the way."""
    return DraculaState.start(Table(options, seed, deals))
