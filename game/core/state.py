"""The protocol every game follows, and the errors it raises.

A game is a `State` subclass.  States are values: `apply` returns a new
state and leaves the old one untouched, so bots can search and the UI can
undo.  Everything a player may know comes from `observation(player)`;
`to_json()` is the omniscient view used for saves and replays.

Every action also produces events: small JSON-ready dicts `{"kind": ...,
<params>}` that say what happened (a card played, a trick won, a hand
scored, a new deal), so a table can draw its log, announcements and
animations without comparing observations.  `events(player)` returns those
of the action that produced the state, as that player may see them.

Someone not at the table (a watcher) gets `public_observation()` and
`public_events()`: what every seated player sees, and nothing more: no card
in a hand or face down, no seed, no deal.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any, Callable, ClassVar, Hashable, NamedTuple, Self

Player = Hashable
Event = dict[str, Any]


class GameError(ValueError):
    """Base of every error the engine raises for bad input.

    `str(error)` is the English message the command line prints; `code` (a
    stable snake_case string) and `params` (JSON-ready values) let a page
    say the same thing in any language.

    >>> e = IllegalActionError("HA is not in seat 0's hand", code="card_not_in_hand",
    ...                        params={"card": "HA", "seat": 0})
    >>> (str(e), e.code, e.params["card"])
    ("HA is not in seat 0's hand", 'card_not_in_hand', 'HA')
    >>> BadStateError("no 'game' key").code
    'bad_state'
    """

    default_code: ClassVar[str] = "game_error"

    def __init__(self, message: str, *, code: str | None = None,
                 params: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.code: str = code or self.default_code
        self.params: dict[str, Any] = dict(params or {})

    def to_json(self) -> dict[str, Any]:
        """The error as data: `{"code", "params", "message"}`."""
        return {"code": self.code, "params": self.params, "message": str(self)}


class MalformedActionError(GameError):
    """The action is not written in the game's notation at all."""

    default_code = "malformed_action"


class IllegalActionError(GameError):
    """The action is well formed but not allowed at this moment."""

    default_code = "illegal_action"


class BadOptionsError(GameError):
    """Unknown or invalid options, or a deal that does not fit the game."""

    default_code = "bad_options"


class BadStateError(GameError):
    """A saved state (`to_json` output) that cannot be rebuilt."""

    default_code = "bad_state"


def json_ready(value: Any) -> Any:
    """`value` if JSON can carry it as it is, else its repr: for error params
    that echo whatever the caller passed.

    >>> json_ready("HA"), json_ready(3), json_ready(None), json_ready(object)
    ('HA', 3, None, "<class 'object'>")
    """
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    return repr(value)


class Private(NamedTuple):
    """An event that players see differently (a deal: each sees his own hand).

    `full` is the omniscient version; `seen` holds each player's version
    (a player missing from it sees nothing of the event); `public` is a
    watcher's, which names no hidden card (a deal's hand sizes, not its hands).
    """

    full: Event
    seen: dict[Any, Event]
    public: Event


class State(ABC):
    """One moment of one game.

    Subclasses set `game_id` and implement the abstract methods; the rest
    is shared.  `to_act` is the player who decides now, `None` once the game
    is over.

    `_events` holds the events of the action that produced this state: a
    list that `start` and `apply` create and the rules append to, or None
    where nothing is recorded (`apply_in_place`, sampled worlds); `_copy`
    never copies it.  An entry is an event, a `Private` one, or, to keep
    `apply` fast, a tuple `(build, *args)`: `build(*args)` makes the event(s)
    (one or a list) only when `events()` is asked.
    """

    game_id: ClassVar[str]
    players: ClassVar[tuple[Player, ...]]
    __slots__ = ("_events",)
    _events: list[Event | Private | tuple[Any, ...]] | None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "_copy" not in cls.__dict__:
            setattr(cls, "_copy", _slot_copier(cls))  # mypy forbids assigning a method

    def _copy(self) -> Self:
        """A shallow copy: `apply` copies once and then changes the copy."""
        raise NotImplementedError

    @property
    @abstractmethod
    def to_act(self) -> Player | None:
        """Who decides now, or None when the game is over."""

    @abstractmethod
    def legal_actions(self) -> list[str]:
        """The actions allowed now, in notation, in a stable order."""

    @abstractmethod
    def apply(self, action: str) -> "State":
        """Return the state after `action`; raise a GameError if it is not legal."""

    @abstractmethod
    def observation(self, player: Any) -> dict[str, Any]:
        """Everything `player` may know now, and nothing more.

        (`player` is typed `Any` so that each game can take its own kind of
        player, a seat number or a role name.)"""

    @abstractmethod
    def public_observation(self) -> dict[str, Any]:
        """What someone not at the table may know now: what every seated player
        sees (the cards played or open, tricks, scores, hand sizes, whose turn),
        with `player` None and `legal` empty; never a hidden card, the seed or
        the deals.  Every key it holds is in each player's `observation` with
        the same value.

        >>> from game import new_game
        >>> s = new_game("jekyll-vs-hyde", seed=1)
        >>> watcher = s.public_observation()
        >>> watcher["player"], watcher["legal"], watcher["hand_sizes"], watcher["to_act"]
        (None, [], {'J': 10, 'H': 10}, 'J')
        >>> "hand" in watcher, "seed" in watcher, watcher["round"] == s.observation("H")["round"]
        (False, False, True)
        """

    @abstractmethod
    def to_json(self) -> dict[str, Any]:
        """The full state as JSON-ready data; `from_json` rebuilds it."""

    @classmethod
    @abstractmethod
    def from_json(cls, data: dict[str, Any]) -> "State":
        """Rebuild a state from `to_json` output."""

    @property
    def over(self) -> bool:
        return self.to_act is None

    @property
    def hands_scored(self) -> int:
        """How many hands (rounds, deals) have been scored: the length of
        `to_json()["history"]`. The games count it without building that."""
        return len(self.to_json().get("history", []))

    @property
    @abstractmethod
    def winner(self) -> str | None:
        """The winner as a string once the game is over (None until then or for a draw)."""

    def events(self, player: Player | None) -> list[Event]:
        """The events of the action that produced this state, as `player` sees
        them (`None`: everything, the omniscient view of `to_json`; a watcher's
        are `public_events()`).

        A new game's first state reports its deal; a state rebuilt by
        `from_json` reports none, or those of the last action it replayed.
        Each call returns fresh dicts.
        """
        if player is None:
            return self._events_seen(lambda private: private.full)
        self._check_player(player)
        return self._events_seen(lambda private: private.seen.get(player))

    def public_events(self) -> list[Event]:
        """The events of the action that produced this state as a watcher sees
        them: each `Private` one in its `public` version, the others as they are.

        >>> from game import new_game
        >>> s = new_game("jekyll-vs-hyde", seed=1)
        >>> dealt = s.public_events()[0]
        >>> dealt["kind"], dealt["hand_sizes"], dealt["hands"], "hands" in s.events("J")[0]
        ('dealt', {'J': 10, 'H': 10}, {}, True)
        >>> gave = s.apply("give:4+").public_events()[0]  # Jekyll's choice: how many, not which
        >>> gave["kind"], gave["player"], gave["count"], "cards" in gave
        ('chose', 'J', 1, False)
        """
        return self._events_seen(lambda private: private.public)

    def _events_seen(self, pick: Callable[[Private], Event | None]) -> list[Event]:
        """This state's events, each `Private` one as `pick` chooses (None: left out)."""
        seen: list[Event] = []
        for entry in getattr(self, "_events", None) or ():
            if type(entry) is tuple:
                built = entry[0](*entry[1:])
                entries = built if type(built) is list else [built]
            else:
                entries = [entry]
            for event in entries:
                if type(event) is Private:
                    event = pick(event)
                    if event is None:
                        continue
                seen.append(_fresh(event))
        return seen

    def _check_player(self, player: Player) -> None:
        """Raise BadOptionsError unless `player` may ask for an observation."""
        if player not in self.players:
            raise BadOptionsError(f"no player {player!r}", code="no_such_player",
                                  params={"player": json_ready(player)})

    def returns(self) -> dict[Player, float]:
        """1 for the winning player(s), 0 for the others, 0.5 each on a draw."""
        if not self.over:
            raise GameError("the game is not over yet", code="game_not_over")
        winner = self.winner
        return {p: (0.5 if winner is None else float(self.wins(p))) for p in self.players}

    def identity(self, player: Any) -> Hashable:  # Any: as in `observation`
        """The lasting player behind `player` (a seat can change hands between deals)."""
        lasting: Hashable = player
        return lasting

    def seat_of(self, identity: Hashable) -> Player | None:
        """Where the lasting player `identity` sits now: the first of `players`
        whose `identity()` it is, or None.  Compared as text, since a JSON save
        may hold seat 1 as `1` or `"1"`.

        >>> from game import new_game
        >>> s = new_game("jekyll-hyde", {"players": 3, "names": ["Ann", "Bob", "Cy"]}, seed=1)
        >>> [s.identity(p) for p in s.players]  # Ann also plays the ghost's seat 2
        ['Ann', 'Bob', 'Ann', 'Cy']
        >>> s.seat_of("Ann"), s.seat_of("Cy"), s.seat_of("Zoe")
        (0, 3, None)
        >>> new_game("dracula").seat_of("1")
        1
        """
        wanted = str(identity)
        return next((p for p in self.players if str(self.identity(p)) == wanted), None)

    def wins(self, player: Player) -> bool:
        """Whether `player` is on the winning side of a finished game."""
        return str(player) == self.winner

    def check_ahead(self, player: Any, action: str) -> None:  # Any: as in `observation`
        """Raise the GameError `apply` will raise for `action` as `player`'s
        choice made ahead of being asked (an observation's `ahead`); a game
        where nobody chooses ahead has nothing to say."""


def _slot_copier(cls: type) -> Callable[[Any], Any]:
    """A shallow copy for a `__slots__` class, as one compiled function that
    assigns every slot (as fast as writing it out by hand; dataclasses build
    their methods the same way).

    >>> class Point:
    ...     __slots__ = ("x", "y")
    >>> p = Point(); p.x, p.y = 1, [2]
    >>> q = _slot_copier(Point)(p); (q.x, q.y is p.y, type(q).__name__)
    (1, True, 'Point')
    """
    names = [n for klass in reversed(cls.__mro__) for n in klass.__dict__.get("__slots__", ())
             if n != "_events"]  # an action's events belong to the state it produced
    lines = ["def _copy(self):", "    s = object.__new__(self.__class__)"]
    lines += [f"    s.{n} = self.{n}" for n in names]
    lines.append("    return s")
    namespace: dict[str, Any] = {}
    exec("\n".join(lines), namespace)  # noqa: S102 - code built from slot names only
    copier: Callable[[Any], Any] = namespace["_copy"]
    return copier


def _fresh(value: Any) -> Any:
    """A copy of JSON-ready data, so a caller cannot change a state's events."""
    if type(value) is dict:
        return {k: _fresh(v) for k, v in value.items()}
    if type(value) is list:
        return [_fresh(v) for v in value]
    return value


def legal_hint(legal: list[str]) -> str:
    """A short 'legal: ...' tail for error messages."""
    return "legal: " + (" ".join(legal) if legal else "nothing (the game is over)")
