"""Jekyll vs Hyde (Mandoo Games): the complete rules, game id `jekyll-vs-hyde`.

Two roles, `"J"` (Dr. Jekyll) and `"H"` (Mr. Hyde); `to_act` and
`observation` use them.  A round is an exchange (`give:<c>,...`, Jekyll's
first, Hyde's second), then ten tricks (`R5`, a Potion lead names a colour:
`4+:R`), with a green Potion interrupting a trick for a swap
(`swap:<c>,<c>`, Jekyll first).  See docs/RULES.md section 2.

Readings taken here, beyond those of docs/RULES.md:

- A simultaneous choice (the exchange, a green swap) is entered Jekyll
  first; nothing of Jekyll's choice is visible to Hyde until both are in,
  and the cards stay in the hands until then.  Hyde's options do not depend
  on Jekyll's choice, so while Jekyll chooses Hyde's observation offers them
  as `ahead` (and `check_ahead` says why another is not one): a page may let
  Hyde choose at once and hand the choice over when the engine asks.
- Green swap size: both players always hold the same number of cards when a
  trick ends, so both swap min(2, cards held).  After the tenth trick the
  hands are empty: the green effect does nothing and no swap is asked for.
  With one card each, the swap is still asked for (one legal action).
- Once a second colour has been ranked, the third is ranked strongest at
  once, so `ranking` holds 0, 1 or 3 colours.
- A purple steal takes the loser's most recent trick (only the count
  matters).  The trick winner also leads the next trick after a green swap.
- Return match (`"variant": "return-match"`): two games ("legs") with the
  roles swapped; a player keeps his id "J" or "H" for the whole match, named
  after his role in the first leg, so in the second leg the player "J" plays
  Mr. Hyde.  `to_act` is always the role at the table; `identity(role)` is
  the lasting player and `winner` names a lasting player ("J"/"H", None for
  a draw).  `scores` are per lasting player: the spaces the marker moved while
  he was Hyde (10 if it reached the end).  Each leg has its own deals,
  numbered on from the first leg's.
- `scores` in the standard game: {"J": 0, "H": marker}.

>>> s = new_state(seed=1)
>>> s.to_act, s.phase, s.round
('J', 'give', 1)
>>> s.must_give_potion(0), s.legal_actions()  # dealt two Potions: one must go
(True, ['give:4+', 'give:5+'])

Events (`state.events(player)`; players are roles at the table):

| kind | params |
|---|---|
| `dealt` | `leg`, `round`, `leader`, `give_count`, `hand_sizes` {J, H}, `aside` (5, a count), `hands` {role: cards}: only the player's own (a watcher's: empty) |
| `chose` | `player`, `phase` (give, swap), `count`, `cards` (only for the player who chose) |
| `exchange` | `phase` (give, swap), `count` (cards each gave), `J` (the cards Jekyll gave), `H` (Hyde's): a watcher sees no `J` nor `H` |
| `played` | `player`, `card`, `named` (the colour a Potion lead names, else null), `place` (0 lead, 1 follow), `trick` (0-9) |
| `colour_ranked` | `colour`, `rank` (0 weakest, 1 middle, 2 strongest), `ranking` (weakest first) |
| `potion` | `potions` (those in the trick), `effect` (purple, green, red; null when two cancel; red empties the ranking), `colour` (the other card's), `player` (who played the Potion), `swap` (cards each swaps for green, else 0) |
| `trick_won` | `trick`, `winner`, `card` (the winning one), `cards` [lead, follow], `leader`, `named`, `effect`, `stolen` (the trick purple takes, or null), `tricks` {J, H} |
| `round_scored` | `leg`, `round`, `tricks` {J, H}, `moved`, `from`, `marker` |
| `leg_over` | return match: `leg`, `hyde` (lasting player), `score`, `rounds`, `winner` |
| `game_over` | `winner`, `marker`, `scores` |

An observation's `winning` names the card that takes the trick under way as it
lies (`winning()`): the lead alone so far (marked `so_far`: the other card may
still beat it), or, while a green Potion's swap holds the trick, the card that
won it (`follower_wins()` decided) - so a table marks it without applying a rule.

An observation's `ahead` lists the actions the player will be offered for the
exchange or the green swap while the other player is asked first (else []).

Error codes: must_give_potion, exchange_now, swap_now, not_a_card,
card_named_twice, wrong_give_count, wrong_swap_count, trick_now,
potion_lead_names_colour, only_potion_names_colour, only_leader_names_colour,
must_play_named_colour, must_follow, nothing_ahead (`check_ahead`), and the
shared card_not_in_hand, game_over, not_a_string, malformed_action,
no_such_player, game_not_over.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations
from typing import Any, Iterable, NoReturn, Sequence

from game.core.options import OptionSpec, read_options
from game.core.rng import deal_rng, fresh_seed, shuffled
from game.core.state import (
    BadOptionsError,
    BadStateError,
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
    fail,
    load_save,
    read_bool,
    read_card,
    read_cards,
    read_choice,
    read_int,
    read_list,
    read_object,
    read_seed,
)
from game.jekyll_vs_hyde.cards import (
    COLOUR, COLOUR_NAME, COLOURS, DECK, ORDER, VALUE, sort_cards,
)

GAME_ID = "jekyll-vs-hyde"
DRAWS = True  # a return match whose two legs are equal (`match_winner`)
ROLES = ("J", "H")
ROLE_NAME = {"J": "Jekyll", "H": "Hyde"}
VARIANTS = ("standard", "return-match")
OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec("variant", "choice", "standard", choices=VARIANTS,
               help="return-match: two games with the roles swapped"),
)
DEFAULTS: dict[str, Any] = {o.name: o.default for o in OPTIONS}
ROUNDS = 3
TRICKS = 10
TRACK_END = 10
GIVE, PLAY, SWAP = "give", "play", "swap"
EFFECT = {"P": "purple", "G": "green", "R": "red"}  # by the other card's colour
_J, _H = 0, 1
# A finished trick: (leader, lead, named, follow, winner, effect, stolen).
Trick = tuple[int, str, "str | None", str, int, "str | None", bool]


def follower_wins(lead: str, follow: str, ranking: Sequence[str]) -> bool:
    """Whether the second card of a trick beats the lead: by value when a Potion
    lies or both share a colour, else by the colours' `ranking` (weakest first;
    both colours are ranked once both cards lie).

    >>> follower_wins("P3", "P5", ()), follower_wins("R7", "4+", ())
    (True, False)
    >>> follower_wins("R7", "G2", ("R", "P", "G"))
    True
    """
    lc, fc = COLOUR[lead], COLOUR[follow]
    if lc is None or fc is None or lc == fc:
        return VALUE[follow] > VALUE[lead]
    return ranking.index(fc) > ranking.index(lc)


def give_count(round_number: int) -> int:
    """Cards each player gives in the exchange of round `round_number` (1-3)."""
    return round_number


_CARD_LIST = " (cards: P1-P7, R1-R7, G1-G7, 2+ 3+ 4+ 5+)"


def _check_deal(deal: Any, index: int) -> tuple[tuple[str, ...], ...]:
    where = f"deals[{index}]"
    if type(deal) is not dict or set(deal) != {"H", "J", "aside"}:
        raise BadOptionsError(
            f'{where} must be {{"J": [10 cards], "H": [10 cards], "aside": [5 cards]}}',
            code="invalid_deal", params={"path": where})
    seen: list[str] = []
    for key, size in (("J", 10), ("H", 10), ("aside", 5)):
        cards = deal[key]
        if type(cards) is not list or len(cards) != size:
            raise BadOptionsError(f"{where}: {key!r} must be a list of {size} cards",
                                  code="invalid_deal", params={"path": at(where, key)})
        for i, card in enumerate(cards):
            read_card(card, at(at(where, key), i), BadOptionsError, ORDER, _CARD_LIST)
        seen.extend(cards)
    if len(set(seen)) != len(DECK):
        twice = sorted({c for c in seen if seen.count(c) > 1}, key=ORDER.__getitem__)
        raise BadOptionsError(f"{where}: {', '.join(twice)} dealt twice", code="card_dealt_twice",
                              params={"path": where, "cards": twice})
    return tuple(sort_cards(deal[k]) for k in ("J", "H", "aside"))


class Table:
    """The fixed settings of one game: options, seed, given deals (shared, never copied)."""

    __slots__ = ("options", "variant", "seed", "deals")

    def __init__(self, options: dict[str, Any] | None, seed: int | None,
                 deals: list[Any] | None) -> None:
        opts = read_options(GAME_ID, OPTIONS, options)
        self.options = opts
        self.variant: str = opts["variant"]
        self.seed = fresh_seed() if seed is None else read_seed(seed, "seed", BadOptionsError)
        given_deals = [] if deals is None else read_list(deals, "deals", BadOptionsError, 0,
                                                         2 * ROUNDS)
        self.deals = tuple(_check_deal(d, i) for i, d in enumerate(given_deals))

    def deal(self, number: int) -> tuple[tuple[str, ...], ...]:
        """(Jekyll's hand, Hyde's hand, the 5 aside) of deal `number` (0-based, whole match)."""
        if number < len(self.deals):
            return self.deals[number]
        deck = shuffled(DECK, deal_rng(GAME_ID, self.seed, number))
        return sort_cards(deck[:10]), sort_cards(deck[10:20]), sort_cards(deck[20:])


def _without(hand: tuple[str, ...], cards: Iterable[str]) -> tuple[str, ...]:
    gone = set(cards)
    return tuple(c for c in hand if c not in gone)


class JekyllVsHydeState(State):
    """A moment of a game of Jekyll vs Hyde."""

    game_id = GAME_ID
    players = ROLES  # lasting players; in the standard game the same as the roles
    __slots__ = ("table", "leg", "round", "deal_number", "marker", "phase", "hands", "aside",
                 "pending", "given", "leader", "plays", "named", "ranking", "piles", "played",
                 "swaps", "trick_winner", "history", "legs", "winner_name", "_to_act")

    table: Table
    leg: int  # 0, or 1 for the second game of a return match
    round: int  # 1-3
    deal_number: int  # deals made so far in the match, minus one
    marker: int
    phase: str | None  # give, play, swap; None when over
    hands: tuple[tuple[str, ...], tuple[str, ...]]  # by role index
    aside: tuple[str, ...]
    pending: tuple[tuple[str, ...] | None, tuple[str, ...] | None]  # hidden choices
    given: tuple[tuple[str, ...], tuple[str, ...]]  # this round's exchange, once done
    leader: int  # role index leading the current trick
    plays: tuple[str, ...]  # the current trick's cards, leader's first
    named: str | None  # colour named with a Potion lead
    ranking: tuple[str, ...]  # weakest first
    piles: tuple[tuple[tuple[str, str], ...], tuple[tuple[str, str], ...]]
    played: tuple[Trick, ...]
    swaps: tuple[tuple[tuple[str, ...], tuple[str, ...]], ...]
    trick_winner: int  # during a green swap: who takes the trick afterwards
    history: tuple[dict[str, Any], ...]
    legs: tuple[dict[str, Any], ...]
    winner_name: str | None
    _to_act: int | None

    # -- construction ---------------------------------------------------

    @classmethod
    def start(cls, table: Table) -> "JekyllVsHydeState":
        s = cls.__new__(cls)
        s.table = table
        s.leg = 0
        s.deal_number = -1
        s.marker = 0
        s.history = ()
        s.legs = ()
        s.winner_name = None
        s._events = []
        s._start_round(1)
        return s

    def _start_round(self, round_number: int) -> None:
        self.round = round_number
        self.deal_number += 1
        j, h, aside = self.table.deal(self.deal_number)
        self.hands = (j, h)
        self.aside = aside
        self.phase = GIVE
        self.pending = (None, None)
        self.given = ((), ())
        self.leader = _J if round_number == 1 or self.marker <= 4 else _H
        self.plays = ()
        self.named = None
        self.ranking = ()
        self.piles = ((), ())
        self.played = ()
        self.swaps = ()
        self.trick_winner = -1
        self._to_act = _J
        if self._events is not None:
            public = {"kind": "dealt", "leg": self.leg + 1, "round": round_number,
                      "leader": ROLES[self.leader], "give_count": give_count(round_number),
                      "hand_sizes": {"J": len(j), "H": len(h)}, "aside": len(aside)}
            self._events.append(Private(
                {**public, "hands": {"J": list(j), "H": list(h)}, "aside_cards": list(aside)},
                {role: {**public, "hands": {role: list(hand)}} for role, hand in zip(ROLES, (j, h))},
                {**public, "hands": {}}))

    # -- the protocol ---------------------------------------------------

    @property
    def to_act(self) -> str | None:
        return None if self._to_act is None else ROLES[self._to_act]

    @property
    def winner(self) -> str | None:
        return self.winner_name

    def identity(self, player: str) -> str:
        """The lasting player in role `player`: in a return match's second leg, swapped."""
        if self.leg == 1 and player in ROLES:
            return ROLES[1 - ROLES.index(player)]
        return player

    def legal_actions(self) -> list[str]:
        me = self._to_act
        if me is None:
            return []
        hand = self.hands[me]
        if self.phase == GIVE:
            return [f"give:{','.join(c)}" for c in self._give_choices(me)]
        if self.phase == SWAP:
            return [f"swap:{','.join(c)}" for c in combinations(hand, self.swap_count())]
        if not self.plays:
            actions = []
            for card in hand:
                if COLOUR[card] is None:
                    actions += [f"{card}:{c}" for c in COLOURS]
                else:
                    actions.append(card)
            return actions
        return list(self._follows(hand))

    def _give_choices(self, me: int) -> list[tuple[str, ...]]:
        hand = self.hands[me]
        choices = list(combinations(hand, give_count(self.round)))
        if self.must_give_potion(me):
            choices = [c for c in choices if any(COLOUR[x] is None for x in c)]
        return choices

    def _may_choose_ahead(self, me: int) -> bool:
        """Whether role index `me` has yet to make the simultaneous choice under
        way while the other player is asked first."""
        return (self.phase in (GIVE, SWAP) and self._to_act is not None
                and self._to_act != me and self.pending[me] is None)

    def _asked(self, me: int) -> "JekyllVsHydeState":
        """A copy in which role index `me` is asked for the simultaneous choice
        under way: what that player may choose is the same before the other's
        choice is in (nothing of it shows).  Never a position of the game."""
        s = self._copy()
        s._to_act = me
        return s

    def choices_ahead(self, player: str) -> list[str]:
        """The actions role `player` will be offered for the exchange or the green
        swap under way, while the other player is asked first; [] otherwise.

        >>> s = new_state(seed=1)
        >>> s.choices_ahead("J"), s.choices_ahead("H") == s.apply("give:4+").legal_actions()
        ([], True)
        """
        self._check_player(player)
        me = ROLES.index(player)
        return self._asked(me).legal_actions() if self._may_choose_ahead(me) else []

    def check_ahead(self, player: str, action: str) -> None:
        """Raise the GameError `apply` will raise for `action` as role `player`'s
        choice once asked (nothing if it is one of `choices_ahead`)."""
        self._check_player(player)
        me = ROLES.index(player)
        if not self._may_choose_ahead(me):
            raise IllegalActionError(
                f"{ROLE_NAME[player]} ({player}) has no choice to make ahead now",
                code="nothing_ahead", params={"player": player,
                                              "action": json_ready(action)})
        self._asked(me).apply(action)

    def must_give_potion(self, me: int) -> bool:
        """Whether role index `me` was dealt 2+ Potions (only meaningful before the exchange)."""
        return self.phase == GIVE and sum(COLOUR[c] is None for c in self.hands[me]) >= 2

    def swap_count(self) -> int:
        """Cards each player swaps for a green Potion now: min(2, cards held)."""
        return min(2, len(self.hands[_J]))

    def _follows(self, hand: tuple[str, ...]) -> tuple[str, ...]:
        lead = self.plays[0]
        colour = COLOUR[lead]
        if colour is None:
            # A Potion lead: the named colour if possible (not a Potion instead).
            suit = tuple(c for c in hand if COLOUR[c] == self.named)
            return suit or hand
        suit = tuple(c for c in hand if COLOUR[c] == colour or COLOUR[c] is None)
        if any(COLOUR[c] == colour for c in hand):
            return suit
        return hand

    def apply(self, action: str) -> "JekyllVsHydeState":
        me = self._to_act
        if me is None:
            raise IllegalActionError(f"{action!r}: the game is over, no action is legal",
                                     code="game_over", params={"action": json_ready(action)})
        if not isinstance(action, str):
            raise MalformedActionError(f"{action!r} is not an action: actions are strings",
                                       code="not_a_string",
                                       params={"action": json_ready(action)})
        if self.phase == GIVE:
            cards = self._parse_choice(action, "give", give_count(self.round))
            if self.must_give_potion(me) and all(COLOUR[c] is not None for c in cards):
                potions = sum(COLOUR[c] is None for c in self.hands[me])
                self._illegal(f"{self._who()} cannot give {', '.join(cards)}: he was dealt "
                              f"{potions} Potions and must give at least one",
                              "must_give_potion", cards=list(cards), potions=potions)
            s = self._copy()
            s._events = []
            s._choose(me, cards)
            return s
        if self.phase == SWAP:
            cards = self._parse_choice(action, "swap", self.swap_count())
            s = self._copy()
            s._events = []
            s._choose(me, cards)
            return s
        card, named = self._parse_play(action)
        s = self._copy()
        s._events = []
        s._play(card, named)
        return s

    def apply_in_place(self, action: str) -> None:
        """Apply a legal action to this very state, unchecked.

        The fast path of search playouts, on a state they own (a copy from
        `apply` or a sampled world); everything else uses `apply`.  It records
        no events.
        """
        self._events = None
        if self.phase == PLAY:
            card, _, named = action.partition(":")
            self._play(card, named or None)
        else:
            self._choose(self._me, tuple(action.partition(":")[2].split(",")))

    # -- checking actions -----------------------------------------------

    @property
    def _me(self) -> int:
        """The role index to act (asked only while the game goes on)."""
        me = self._to_act
        assert me is not None, "the game is over"
        return me

    def _illegal(self, why: str, code: str, **params: Any) -> NoReturn:
        """Raise IllegalActionError: `why` names the action and who acts; the legal ones
        follow.  The params always hold `player` (the role to act) and `legal`."""
        legal = self.legal_actions()
        raise IllegalActionError(f"{why}; {legal_hint(legal)}", code=code,
                                 params={"player": ROLES[self._me], **params,
                                         "legal": legal})

    def _malformed(self, why: str, code: str, **params: Any) -> NoReturn:
        """Raise MalformedActionError, with the legal actions as `_illegal` does."""
        legal = self.legal_actions()
        raise MalformedActionError(f"{why}; {legal_hint(legal)}", code=code,
                                   params={"player": ROLES[self._me], **params,
                                           "legal": legal})

    def _who(self) -> str:
        return f"{ROLE_NAME[ROLES[self._me]]} ({ROLES[self._me]})"

    def _parse_choice(self, action: str, verb: str, count: int) -> tuple[str, ...]:
        head, colon, rest = action.partition(":")
        if head != verb or not colon:
            if head in ("give", "swap") or action in ORDER or head in ORDER:
                what = ("the exchange" if verb == "give" else "a green Potion swap")
                self._illegal(f"{self._who()} cannot play {action!r} now: it is {what}, "
                              f"he chooses {count} card{'s' if count > 1 else ''} "
                              f"with {verb}:<c>,...",
                              "exchange_now" if verb == "give" else "swap_now",
                              action=action, count=count)
            self._malformed(f"{action!r} is not an action: {self._who()} writes "
                            f"{verb}:<card>,<card>", "malformed_action", action=action)
        cards = rest.split(",")
        for card in cards:
            if card not in ORDER:
                self._malformed(f"{action!r}: {card!r} is not a card (cards: P1-P7, R1-R7, "
                                "G1-G7, 2+ 3+ 4+ 5+)", "not_a_card", action=action, card=card)
        if len(set(cards)) != len(cards):
            self._illegal(f"{action}: {self._who()} names a card twice", "card_named_twice",
                          action=action)
        if len(cards) != count:
            self._illegal(f"{action}: {self._who()} must {verb} exactly {count} "
                          f"card{'s' if count > 1 else ''}, not {len(cards)}",
                          "wrong_give_count" if verb == "give" else "wrong_swap_count",
                          action=action, count=count, given=len(cards))
        hand = self.hands[self._me]
        for card in cards:
            if card not in hand:
                self._illegal(f"{card} is not in {self._who()}'s hand", "card_not_in_hand",
                              card=card)
        return sort_cards(cards)

    def _parse_play(self, action: str) -> tuple[str, str | None]:
        card, colon, named = action.partition(":")
        if card in ("give", "swap"):
            self._illegal(f"{self._who()} cannot {card} now: it is a trick, play a card",
                          "trick_now", action=action)
        if card not in ORDER or (colon and named not in COLOURS):
            self._malformed(f"{action!r} is not an action: {self._who()} plays a card (R5, 3+) "
                            "or leads a Potion naming a colour (4+:R)", "malformed_action",
                            action=action)
        hand = self.hands[self._me]
        if card not in hand:
            self._illegal(f"{card} is not in {self._who()}'s hand", "card_not_in_hand",
                          card=card)
        potion = COLOUR[card] is None
        if not self.plays:
            if potion and not colon:
                self._illegal(f"{self._who()} leads {card}: leading a Potion names a colour: "
                              f"{card}:P, {card}:R or {card}:G", "potion_lead_names_colour",
                              card=card)
            if colon and not potion:
                self._illegal(f"{action}: only a Potion lead names a colour; {self._who()} "
                              f"plays {card}", "only_potion_names_colour",
                              action=action, card=card)
            return card, (named if colon else None)
        if colon:
            self._illegal(f"{action}: only the leader names a colour; {self._who()} "
                          f"plays {card}", "only_leader_names_colour", action=action, card=card)
        if card not in self._follows(hand):
            lead = self.plays[0]
            lead_colour = COLOUR[lead]
            if lead_colour is None:
                chosen = self.named
                assert chosen is not None  # a Potion lead names a colour
                self._illegal(
                    f"{self._who()} cannot play {card}: the Potion lead {lead} named "
                    f"{COLOUR_NAME[chosen]}, so he must play {COLOUR_NAME[chosen]} "
                    "(not a Potion)", "must_play_named_colour",
                    card=card, lead=lead, colour=chosen)
            self._illegal(f"{self._who()} cannot play {card}: he must follow "
                          f"{COLOUR_NAME[lead_colour]} or play a Potion", "must_follow",
                          card=card, lead=lead, colour=lead_colour)
        return card, None

    # -- applying -------------------------------------------------------

    def _choose(self, me: int, cards: tuple[str, ...]) -> None:
        """Record a hidden simultaneous choice; carry it out once both are in."""
        pending = list(self.pending)
        pending[me] = cards
        if self._events is not None:
            self._events.append(self._chose_event(me, cards))
        if pending[1 - me] is None:
            self.pending = (pending[0], pending[1])
            self._to_act = 1 - me
            return
        j, h = pending
        assert j is not None and h is not None  # both choices are in
        if self._events is not None:
            # Both players know both sides of it; a watcher sees cards cross face down.
            public = {"kind": "exchange", "phase": self.phase, "count": len(j)}
            both = {**public, "J": list(j), "H": list(h)}
            self._events.append(Private(both, {role: both for role in ROLES}, public))
        self.hands = (sort_cards(_without(self.hands[_J], j) + h),
                      sort_cards(_without(self.hands[_H], h) + j))
        self.pending = (None, None)
        if self.phase == GIVE:
            self.given = (j, h)
            self.phase = PLAY
            self._to_act = self.leader
        else:
            self.swaps = self.swaps + ((j, h),)
            winner = self.trick_winner
            self.trick_winner = -1
            self.phase = PLAY
            self._take_trick(winner, "green")

    def _chose_event(self, me: int, cards: tuple[str, ...]) -> Private:
        """`chose`: a hidden choice; only its maker sees the cards until the exchange."""
        public = {"kind": "chose", "player": ROLES[me], "phase": self.phase, "count": len(cards)}
        mine = {**public, "cards": list(cards)}
        return Private(mine, {ROLES[me]: mine, ROLES[1 - me]: public}, public)

    def _play(self, card: str, named: str | None) -> None:
        me = self._to_act
        assert me is not None  # (not self._me: the hottest path of the search)
        hand = self.hands[me]
        at = hand.index(card)
        hands = list(self.hands)
        hands[me] = hand[:at] + hand[at + 1:]
        self.hands = (hands[0], hands[1])
        log = self._events
        if log is not None:
            log.append({"kind": "played", "player": ROLES[me], "card": card, "named": named,
                        "place": len(self.plays), "trick": len(self.played)})
        colour = COLOUR[card]
        if colour is not None and colour not in self.ranking:
            ranking = self.ranking + (colour,)
            if len(ranking) == 2:
                ranking += tuple(c for c in COLOURS if c not in ranking)
            if log is not None:
                log.extend({"kind": "colour_ranked", "colour": c, "rank": rank,
                            "ranking": list(ranking)}
                           for rank, c in enumerate(ranking) if rank >= len(self.ranking))
            self.ranking = ranking
        if not self.plays:
            self.plays = (card,)
            self.named = named
            self._to_act = 1 - me
            return
        self.plays = self.plays + (card,)
        lead, follow = self.plays
        leader = self.leader
        lc, fc = COLOUR[lead], COLOUR[follow]
        effect = None
        if lc is None or fc is None:
            other = lc or fc
            if other is not None:  # one Potion: the other card's colour has its effect
                effect = EFFECT[other]
        winner = 1 - leader if follower_wins(lead, follow, self.ranking) else leader
        if log is not None and (lc is None or fc is None):
            potions = [c for c in self.plays if COLOUR[c] is None]
            log.append({"kind": "potion", "potions": potions, "effect": effect,
                        "colour": lc or fc,
                        "player": ROLES[leader if lc is None else 1 - leader]
                        if effect else None,
                        "swap": min(2, len(self.hands[_J])) if effect == "green" else 0})
        if effect == "red":
            self.ranking = ()
        elif effect == "green" and self.hands[_J]:
            self.phase = SWAP
            self.trick_winner = winner
            self._to_act = _J
            return
        self._take_trick(winner, effect)

    def _take_trick(self, winner: int, effect: str | None) -> None:
        loser = 1 - winner
        lead, follow = self.plays
        piles = [self.piles[0], self.piles[1]]
        piles[winner] = piles[winner] + ((lead, follow),)
        stolen = False
        if effect == "purple" and piles[loser]:
            piles[winner] = piles[winner] + (piles[loser][-1],)
            piles[loser] = piles[loser][:-1]
            stolen = True
        self.piles = (piles[0], piles[1])
        if self._events is not None:
            self._events.append({
                "kind": "trick_won", "trick": len(self.played), "winner": ROLES[winner],
                "card": follow if winner != self.leader else lead, "cards": [lead, follow],
                "leader": ROLES[self.leader], "named": self.named, "effect": effect,
                "stolen": list(piles[winner][-1]) if stolen else None,
                "tricks": {"J": len(piles[_J]), "H": len(piles[_H])}})
        self.played = self.played + ((self.leader, lead, self.named, follow, winner, effect,
                                      stolen),)
        self.plays = ()
        self.named = None
        if len(self.played) == TRICKS:
            self._finish_round()
        else:
            self.leader = winner
            self._to_act = winner

    def _finish_round(self) -> None:
        tj, th = len(self.piles[_J]), len(self.piles[_H])
        moved = abs(tj - th)
        if self._events is not None:
            self._events.append({"kind": "round_scored", "leg": self.leg + 1,
                                 "round": self.round, "tricks": {"J": tj, "H": th},
                                 "moved": moved, "from": self.marker,
                                 "marker": min(TRACK_END, self.marker + moved)})
        self.marker = min(TRACK_END, self.marker + moved)
        self.history = self.history + ({
            "leg": self.leg + 1, "round": self.round, "tricks": {"J": tj, "H": th},
            "moved": moved, "marker": self.marker,
            "tricks_played": [self._trick_json(t) for t in self.played],
        },)
        if self.marker >= TRACK_END or self.round == ROUNDS:
            self._finish_leg()
        else:
            self._start_round(self.round + 1)

    def _finish_leg(self) -> None:
        reached = self.marker >= TRACK_END
        self.legs = self.legs + ({"hyde": self.identity("H"), "score": self.marker,
                                  "rounds": self.round, "winner": self.identity(
                                      "H" if reached else "J")},)
        if self._events is not None and self.table.variant == "return-match":
            self._events.append({"kind": "leg_over", **self.legs[-1], "leg": self.leg + 1})
        if self.table.variant == "return-match" and self.leg == 0:
            self.leg = 1
            self.marker = 0
            self._start_round(1)
            return
        self.phase = None
        self._to_act = None
        if self.table.variant == "standard":
            self.winner_name = "H" if reached else "J"
        else:
            self.winner_name = match_winner(self.legs)
        if self._events is not None:
            self._events.append({"kind": "game_over", "winner": self.winner_name,
                                 "marker": self.marker, "scores": self.scores()})

    # -- views ----------------------------------------------------------

    @property
    def tricks(self) -> dict[str, int]:
        return {"J": len(self.piles[_J]), "H": len(self.piles[_H])}

    def scores(self) -> dict[str, int]:
        """Per lasting player: the spaces the marker moved while he was Hyde."""
        scores = {"J": 0, "H": 0}
        for leg in self.legs:
            scores[leg["hyde"]] = leg["score"]
        if self._to_act is not None:
            scores[self.identity("H")] = self.marker
        return scores

    @staticmethod
    def _trick_json(t: Trick) -> dict[str, Any]:
        leader, lead, named, follow, winner, effect, stolen = t
        return {"leader": ROLES[leader], "lead": lead, "named": named, "follow": follow,
                "winner": ROLES[winner], "effect": effect, "stolen": stolen}

    def _public(self) -> dict[str, Any]:
        """What both players see."""
        over = self._to_act is None
        return {
            "game": GAME_ID,
            "options": dict(self.table.options),
            "over": over,
            "to_act": self.to_act,
            "winner": self.winner_name,
            "scores": self.scores(),
            "leg": self.leg + 1,
            "legs": [dict(leg) for leg in self.legs],
            "round": self.round,
            "phase": self.phase,
            "marker": self.marker,
            "ranking": list(self.ranking),
            "tricks": self.tricks,
            "leader": ROLES[self.leader],
            "trick": {"leader": ROLES[self.leader], "cards": list(self.plays),
                      "named": self.named},
            "played": [self._trick_json(t) for t in self.played],
            "hand_sizes": {"J": len(self.hands[_J]), "H": len(self.hands[_H])},
            "give_count": give_count(self.round),
            "swap_count": self.swap_count() if self.phase == SWAP else 0,
            "waiting_for": self.to_act if self.phase in (GIVE, SWAP) else None,
            "history": [dict(h) for h in self.history],
        }

    def observation(self, player: str) -> dict[str, Any]:
        """What role `player` ("J" or "H") may know: never the aside cards, the other
        hand or the other player's choice before both are in."""
        self._check_player(player)
        me = ROLES.index(player)
        obs = self._public()
        obs["player"] = player
        obs["you"] = self.identity(player)
        obs["hand"] = list(self.hands[me])
        chosen = self.pending[me]
        obs["chosen"] = None if chosen is None else list(chosen)
        obs["exchange"] = {"gave": list(self.given[me]), "got": list(self.given[1 - me])}
        obs["swaps"] = [{"gave": list(s[me]), "got": list(s[1 - me])} for s in self.swaps]
        obs["must_give_potion"] = self.must_give_potion(me)
        obs["legal"] = self.legal_actions() if self._to_act == me else []
        obs["ahead"] = self.choices_ahead(player)
        obs["winning"] = self.winning()
        return obs

    def public_observation(self) -> dict[str, Any]:
        """What a watcher may know: the table, the tricks, the marker, the hand
        sizes; never a hand, the aside cards, or a card given in an exchange.

        >>> s = new_state(seed=1).apply("give:4+")  # Jekyll has chosen, Hyde not yet
        >>> w = s.public_observation()
        >>> w["phase"], w["waiting_for"], w["give_count"], "exchange" in w, "chosen" in w
        ('give', 'H', 1, False, False)
        """
        obs = self._public()
        obs["player"] = None
        obs["legal"] = []
        obs["winning"] = self.winning()
        return obs

    def winning(self) -> dict[str, Any] | None:
        """The observation's `winning`: None with no card down; the lead, `so_far`,
        while the other card is awaited; during a green swap the card that won."""
        if not self.plays:
            return None
        if len(self.plays) == 1:
            return {"player": ROLES[self.leader], "card": self.plays[0], "so_far": True}
        winner = self.trick_winner
        return {"player": ROLES[winner], "so_far": False,
                "card": self.plays[0] if winner == self.leader else self.plays[1]}

    def _check_player(self, player: Any) -> None:
        if player not in ROLES:
            raise BadOptionsError(f"no player {player!r}: players are J and H",
                                  code="no_such_player", params={"player": json_ready(player)})

    @property
    def hands_scored(self) -> int:
        return len(self.history)

    def to_json(self) -> dict[str, Any]:
        data = self._public()
        data.update({
            "seed": self.table.seed,
            "deals": [{"J": list(j), "H": list(h), "aside": list(a)}
                      for j, h, a in self.table.deals],
            "legal": self.legal_actions(),
            "hands": {"J": list(self.hands[_J]), "H": list(self.hands[_H])},
            "aside": list(self.aside),
            "pending": {r: (None if p is None else list(p))
                        for r, p in zip(ROLES, self.pending)},
            "given": {r: list(g) for r, g in zip(ROLES, self.given)},
            "swaps": [{"J": list(j), "H": list(h)} for j, h in self.swaps],
            "piles": {r: [list(t) for t in p] for r, p in zip(ROLES, self.piles)},
            "trick_winner": None if self.trick_winner < 0 else ROLES[self.trick_winner],
            "deal_number": self.deal_number,
        })
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "JekyllVsHydeState":
        """Rebuild a save: the round under way is dealt again from the saved
        hands and replayed; everything else in the save must follow.
        Anything wrong raises BadStateError naming the field."""
        keys = ("over", "leg", "history", "legs", "hands", "aside", "pending", "given", "swaps",
                "played", "trick")
        return load_save(GAME_ID, data, keys, Table, cls._rebuild)

    @classmethod
    def _rebuild(cls, data: dict[str, Any], table: Table) -> "JekyllVsHydeState":
        E = BadStateError
        over = read_bool(data["over"], "over", E)
        leg = read_int(data["leg"], "leg", E, 1, 1 + (table.variant == "return-match")) - 1
        history = tuple(_history_entry(h, at("history", i)) for i, h in enumerate(
            read_list(data["history"], "history", E, 0, 2 * ROUNDS)))
        legs = tuple(_leg(g, at("legs", i)) for i, g in enumerate(
            read_list(data["legs"], "legs", E, leg + over, leg + over)))
        hands = [_cards(read_object(data["hands"], "hands", E, ROLES, ())[r], at("hands", r))
                 for r in ROLES]
        aside = _cards(data["aside"], "aside", 5)
        pending = read_object(data["pending"], "pending", E, ROLES, ())
        pending_j = None if pending["J"] is None else _cards(pending["J"], "pending.J", 3)
        given = [_cards(read_object(data["given"], "given", E, ROLES, ())[r], at("given", r), 3)
                 for r in ROLES]
        swaps = [tuple(_cards(read_object(w, at("swaps", i), E, ROLES, ())[r],
                              at(at("swaps", i), r), 2) for r in ROLES)
                 for i, w in enumerate(read_list(data["swaps"], "swaps", E, 0, TRICKS))]
        played = [_trick(t, at("played", i)) for i, t in
                  enumerate(read_list(data["played"], "played", E, 0, TRICKS))]
        trick = read_object(data["trick"], "trick", E, ("leader", "cards", "named"), None)
        leader = _role(trick["leader"], "trick.leader")
        plays = tuple(read_cards(trick["cards"], "trick.cards", E, ORDER, 0, 2))  # lead first
        named = trick["named"]
        if named is not None:
            read_choice(named, "trick.named", E, COLOURS)

        prior = history[:-1] if over else history  # a finished game replays its last round
        marker, round_number = _check_history(prior, legs[:leg], leg)
        s = cls.__new__(cls)
        s._events = None  # rebuilding records nothing; the replayed actions do
        s.table = table
        s.leg, s.history, s.legs, s.winner_name = leg, prior, legs[:leg], None
        s.marker, s.deal_number = marker, len(prior) - 1
        s._start_round(round_number)
        # The round's deal: the saved hands with every move of the round undone.
        movers = [(me, (t[1], t[3])[me != t[0]]) for t in played for me in (t[0], 1 - t[0])]
        movers += [((leader + i) % 2, card) for i, card in enumerate(plays)]
        dealt = [Counter(hands[me]) for me in (_J, _H)]
        for me, card in movers:
            dealt[me][card] += 1
        for exchange in [tuple(given)] + swaps:
            if any(exchange):
                for me in (_J, _H):
                    dealt[me].update(exchange[me])
                    dealt[me].subtract(exchange[1 - me])
        if any(n != 1 for counts in dealt for n in counts.values() if n) or \
                sorted(list(+dealt[0]) + list(+dealt[1]) + list(aside), key=ORDER.__getitem__) \
                != list(DECK) or sum(dealt[0].values()) != sum(dealt[1].values()):
            raise BadStateError("hands: the hands, tricks and exchanges do not add up to a "
                                "deal of the 25-card pack", code="inconsistent_state",
                                params={"path": "hands"})
        s.hands = (sort_cards(+dealt[0]), sort_cards(+dealt[1]))
        s.aside = sort_cards(aside)
        # ... and replayed.
        if any(given):
            s = s.apply(_choice(GIVE, given[_J])).apply(_choice(GIVE, given[_H]))
        elif pending_j is not None:
            s = s.apply(_choice(GIVE, pending_j))
        unswapped = iter(swaps)
        for i, (_, lead, lead_named, follow, *_) in enumerate(played):
            s = s.apply(lead + (f":{lead_named}" if lead_named else "")).apply(follow)
            if s.phase == SWAP:
                swap = next(unswapped, None)
                if swap is None:
                    where = at("played", i)
                    raise BadStateError(f"{where}: a green Potion swap is missing from swaps",
                                        code="inconsistent_state", params={"path": where})
                s = s.apply(_choice(SWAP, swap[_J])).apply(_choice(SWAP, swap[_H]))
        if plays:
            s = s.apply(plays[0] + (f":{named}" if named else ""))
        if len(plays) == 2:
            s = s.apply(plays[1])
            if s.phase == SWAP and pending_j is not None:
                s = s.apply(_choice(SWAP, pending_j))
        if s.pending != (pending_j, None) or pending["H"] is not None:  # only Jekyll waits
            fail(E, "pending", "Jekyll's choice in the exchange or a swap under way, or nothing",
                 pending, "inconsistent_state")
        check_rebuilt(data, s, read=("hands", "aside", "pending"))
        return s


def match_winner(legs: Sequence[dict[str, Any]]) -> str | None:
    """The winner of a return match from its two legs, None for a draw.

    The better Hyde wins; if both reached the end, the faster one; else a draw.

    >>> match_winner([{"hyde": "H", "score": 10, "rounds": 3},
    ...               {"hyde": "J", "score": 10, "rounds": 2}])
    'J'
    >>> match_winner([{"hyde": "H", "score": 6, "rounds": 3},
    ...               {"hyde": "J", "score": 6, "rounds": 3}]) is None
    True
    """
    first, second = legs
    if first["score"] != second["score"]:
        better = first if first["score"] > second["score"] else second
        hyde: str = better["hyde"]
        return hyde
    if first["score"] == TRACK_END and first["rounds"] != second["rounds"]:
        faster = first if first["rounds"] < second["rounds"] else second
        hyde = faster["hyde"]
        return hyde
    return None


def _choice(verb: str, cards: tuple[str, ...]) -> str:
    return f"{verb}:{','.join(cards)}"


def _role(value: Any, path: str) -> int:
    return ROLES.index(read_choice(value, path, BadStateError, ROLES))


def _cards(values: Any, path: str, most: int = TRICKS) -> tuple[str, ...]:
    return sort_cards(read_cards(values, path, BadStateError, ORDER, 0, most))


def _trick(t: Any, path: str) -> Trick:
    """A played trick: (leader, lead, named, follow, winner, effect, stolen)."""
    E = BadStateError
    read_object(t, path, E, ("leader", "lead", "named", "follow", "winner", "effect",
                             "stolen"), ())
    named = t["named"]
    if named is not None:
        read_choice(named, at(path, "named"), E, COLOURS)
    effect = t["effect"]
    if effect is not None:
        read_choice(effect, at(path, "effect"), E, tuple(EFFECT.values()))
    return (_role(t["leader"], at(path, "leader")),
            read_card(t["lead"], at(path, "lead"), E, ORDER), named,
            read_card(t["follow"], at(path, "follow"), E, ORDER),
            _role(t["winner"], at(path, "winner")), effect,
            read_bool(t["stolen"], at(path, "stolen"), E))


def _history_entry(h: Any, path: str) -> dict[str, Any]:
    """A finished round; its trick counts follow from its tricks (a purple steal moves one)."""
    E = BadStateError
    read_object(h, path, E, ("leg", "round", "tricks", "moved", "marker", "tricks_played"), ())
    tricks = read_object(h["tricks"], at(path, "tricks"), E, ROLES, ())
    played = [_trick(t, at(at(path, "tricks_played"), i)) for i, t in enumerate(
        read_list(h["tricks_played"], at(path, "tricks_played"), E, TRICKS, TRICKS))]
    entry: dict[str, Any] = {"leg": read_int(h["leg"], at(path, "leg"), E, 1, 2),
             "round": read_int(h["round"], at(path, "round"), E, 1, ROUNDS),
             "tricks": {r: read_int(tricks[r], at(at(path, "tricks"), r), E, 0, TRICKS)
                        for r in ROLES},
             "moved": read_int(h["moved"], at(path, "moved"), E, 0, TRICKS),
             "marker": read_int(h["marker"], at(path, "marker"), E, 0, TRACK_END),
             "tricks_played": [JekyllVsHydeState._trick_json(t) for t in played]}
    piles = [0, 0]
    for _, _, _, _, winner, _, stolen in played:
        piles[winner] += 1 + stolen
        piles[1 - winner] -= stolen
    if piles != [entry["tricks"][r] for r in ROLES] or min(piles) < 0 or \
            entry["moved"] != abs(piles[0] - piles[1]):
        raise BadStateError(f"{path}.tricks: the counts do not follow from its tricks",
                            code="inconsistent_state", params={"path": at(path, "tricks")})
    return entry


def _leg(leg: Any, path: str) -> dict[str, Any]:
    E = BadStateError
    read_object(leg, path, E, ("hyde", "score", "rounds", "winner"), ())
    return {"hyde": ROLES[_role(leg["hyde"], at(path, "hyde"))],
            "score": read_int(leg["score"], at(path, "score"), E, 0, TRACK_END),
            "rounds": read_int(leg["rounds"], at(path, "rounds"), E, 1, ROUNDS),
            "winner": ROLES[_role(leg["winner"], at(path, "winner"))]}


def _check_history(history: tuple[dict[str, Any], ...], legs: tuple[dict[str, Any], ...],
                   leg: int) -> tuple[int, int]:
    """Check the finished rounds before the one under way (in leg `leg`) and the
    finished games: each marker moved on from the last, each game ended where its
    marker reached the end or after round 3.  Returns the marker and the number of
    the round under way."""
    marker, round_number, game = 0, 1, 0
    for i, entry in enumerate(history):
        path = at("history", i)
        if (entry["leg"], entry["round"]) != (game + 1, round_number) or \
                entry["marker"] != min(TRACK_END, marker + entry["moved"]):
            raise BadStateError(f"{path}: does not follow the rounds before it",
                                code="inconsistent_state", params={"path": path})
        marker, round_number = entry["marker"], round_number + 1
        if marker >= TRACK_END or entry["round"] == ROUNDS:
            hyde = "H" if game == 0 else "J"
            summary = {"hyde": hyde, "score": marker, "rounds": entry["round"],
                       "winner": hyde if marker >= TRACK_END else ROLES[1 - ROLES.index(hyde)]}
            where = at("legs", game)
            if game >= len(legs) or legs[game] != summary:
                raise BadStateError(f"{where}: does not follow from the history",
                                    code="inconsistent_state", params={"path": where})
            marker, round_number, game = 0, 1, game + 1
    if game != leg:
        raise BadStateError(f"history: {game} finished games, but this is game {leg + 1}",
                            code="inconsistent_state", params={"path": "history"})
    return marker, round_number


def sides(options: dict[str, Any] | None) -> dict[str, list[str]]:
    """The two camps a match pits against each other, as lasting players.

    In the return match each player plays both roles, so the camps are named
    after the role each player starts with.

    >>> sides(None)
    {'jekyll': ['J'], 'hyde': ['H']}
    >>> sides({"variant": "return-match"})
    {'starts-jekyll': ['J'], 'starts-hyde': ['H']}
    """
    table = Table(options, 0, None)
    if table.variant == "return-match":
        return {"starts-jekyll": ["J"], "starts-hyde": ["H"]}
    return {"jekyll": ["J"], "hyde": ["H"]}


def new_state(options: dict[str, Any] | None = None, seed: int | None = None,
              deals: list[Any] | None = None) -> JekyllVsHydeState:
    """A new game: round 1 is dealt and Jekyll chooses the card(s) to give."""
    return JekyllVsHydeState.start(Table(options, seed, deals))
