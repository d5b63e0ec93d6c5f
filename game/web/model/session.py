"""The game on the table as one value, changed only by `reduce`.

A `Session` holds everything the page knows of the game on its table: the
engine state, the save record, the person's half-made choice, a choice
made ahead of the engine's asking (the duel's exchange), the hint, the
seat a bot is thinking for, the decisions Undo may take back, a lesson's
coach, the message under the table and a token. Everything that happens to
it is an action (a card picked, a bot's move, Undo...) given to `reduce`,
which returns the next session and the effects for the page to carry out
(write the save, let a bot think, move the cards...). It is pure: it runs,
and is tested, in CPython; the controller (game.web.runtime.controller) only carries out the
effects and draws.

The reducer speaks data: the message and the hint are codes and params
(`Said`, `NotYourTurn`, `Refused`; the hint's action), never words; the
views (game.web.draw.views) word them in the page's language at each draw, so a
language change re-words them at once.

The token replaces a counter of cancellations: a result that arrives later
(a bot's move, a hint) carries the token it was asked with, and is dropped if
the session has moved on since.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any, Callable, Union

from game import GameError
from game.core.state import Player, State
from game.web.model import handover
from game.web.model.choice import Choice
from game.web.model.coach import Coach
from game.web.draw.html import Html
from game.web.draw.tables import Table, TableContext
from game.web.model.undo import mine, take_back, undoable

if TYPE_CHECKING:  # the reducer never words: only the views' helpers below take one
    from game.web.draw.i18n import Translator


# The events that open a deal (each game's engine): while a hand's summary is
# open, the log stops before them.
DEAL_OPENING = frozenset({"dealt", "soloist_changed"})

def deal_opening(log: list[dict[str, Any]]) -> int:
    """Where the deal-opening events that end `log` begin (its length if none)."""
    end = len(log)
    while end and log[end - 1].get("kind") in DEAL_OPENING:
        end -= 1
    return end


@dataclass(frozen=True)
class Hint:
    """The search's suggestion for the decision in `position` (`action` None
    while it thinks), worded by the views. The position itself, not a count
    of actions: after an Undo the same count can be another position."""

    position: State
    action: str | None = None


# -- the message under the table: what to say, as data --------------------------------

@dataclass(frozen=True)
class Said:
    """A catalog text (`key`) and its params."""
    key: str
    params: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class NotYourTurn:
    """A move tried out of turn: the views name whoever decides now."""


@dataclass(frozen=True)
class Refused:
    """The engine's refusal of the person's move: its coded error (a code and
    params), worded by the table (game.web.draw.tables.explain)."""
    error: GameError


Message = Union[Said, NotYourTurn, Refused]


@dataclass(frozen=True)
class Session:
    table: Table
    state: State
    save: dict[str, Any]  # the save record (game.web.model.saves); never changed in place
    picked: tuple[str, ...] = ()  # parts of the person's decision chosen so far
    # (person, action): a simultaneous choice made before the engine asks that
    # person (it asks the other player first), held here, never in the state,
    # so nothing of it shows before it is handed over (`HeldDue`).
    held: tuple[str, str] | None = None
    hint: Hint | None = None
    thinking: Player | None = None
    undo_points: tuple[int, ...] = ()  # the person's decisions Undo may take back
    coach: Coach | None = None  # a lesson (game.web.model.coach): never saved
    token: int = 0
    message: Message | None = None
    scored_from: State | None = None  # the position before the action that scored a hand

    @classmethod
    def start(cls, table: Table, state: State, save: dict[str, Any],
              coach: Coach | None = None, message: Message | None = None,
              token: int = 0) -> Session:
        """A game put on the table: the decisions Undo may take back are found
        once, by replaying its transcript."""
        session = cls(table, state, save, coach=coach, message=message, token=token)
        if not session.takebacks_allowed:
            return session
        try:
            points = undoable(save["transcript"], session.at_screen,
                              handover.people(save["setup"]))
        except Exception:  # a save's transcript that does not replay: nothing to take back
            points = []
        return dataclasses.replace(session, undo_points=tuple(points))

    # -- derived facts, computed once per session ----------------------------------

    @cached_property
    def played(self) -> int:
        return len(self.save["transcript"]["actions"])

    @cached_property
    def at_screen(self) -> str:
        """The person whose view the table shows (pass-and-play: the last one who tapped)."""
        return handover.at_screen(self.save)

    @cached_property
    def my_seat(self) -> Player:
        return handover.seat(self.state, self.at_screen)

    @cached_property
    def observation(self) -> dict[str, Any]:
        return self.state.observation(self.my_seat)

    @cached_property
    def on_table(self) -> dict[str, Any]:
        """The observation the table is drawn from: while a lesson's note
        holds the hand nobody is deciding, so no card is ringed playable and
        no seat marked to ask until the person presses Continue."""
        if self.coach_waiting:
            return {**self.observation, "legal": []}
        return self.observation

    @cached_property
    def deciding(self) -> bool:
        """The person may make their decision now (the table offers its parts)."""
        return ((self.human_to_act or bool(self.ahead)) and not self.waiting_for_ack
                and not self.handover_due and not self.coach_waiting)

    @cached_property
    def ahead(self) -> list[str]:
        """The actions the person at the screen may choose now for a simultaneous
        choice the engine asks the other player for first (the engine's
        `ahead`): none once they hold one, in a lesson (its coach checks each
        move as it is asked for) or while the game waits for a summary."""
        if (self.held is not None or self.coach is not None or self.human_to_act
                or self.state.over or self.waiting_for_ack):
            return []
        return [a for a in self.observation.get("ahead", ()) if type(a) is str]

    @cached_property
    def held_due(self) -> bool:
        """The engine asks the person who holds a choice made ahead: it goes now."""
        return (self.held is not None
                and handover.person_on_turn(self.state, self.save["setup"]) == self.held[0])

    @cached_property
    def held_here(self) -> str | None:
        """The choice the person at the screen made ahead, while it is held."""
        return self.held[1] if self.held is not None and self.held[0] == self.at_screen \
            else None

    @cached_property
    def human_to_act(self) -> bool:
        return handover.person_on_turn(self.state, self.save["setup"]) == self.at_screen

    @cached_property
    def waiting_for_ack(self) -> bool:
        """A hand was scored and its summary not yet closed."""
        return not self.state.over and self.state.hands_scored > self.save.get("seen_hands", 0)

    @cached_property
    def before_scoring(self) -> State | None:
        """While a hand's summary is open, the position before the action that
        scored it (the engine has dealt the next hand since): the table behind
        the summary shows the hand it sums up. Replayed from the transcript
        after a reload; None if that fails."""
        if not self.waiting_for_ack:
            return None
        if self.scored_from is not None:
            return self.scored_from
        from game.core.transcript import Transcript

        try:
            return Transcript.from_json(self.save["transcript"]).states()[-2]
        except Exception:  # a save's transcript that does not replay: the next hand, as before
            return None

    def finished_table(self, t: Translator) -> Html | None:
        """While a hand's summary is open, the table as that hand left it, if
        the game's renderer draws it (`finished`): from the observation before
        the scoring action, seated as the person sat in that hand (Werner's
        roles rotate with the deal)."""
        before = self.before_scoring
        if before is None:
            return None
        seat = handover.seat(before, self.at_screen)
        return self.table.finished(before.observation(seat), self.observation,
                                   dataclasses.replace(self.context(t), seat=seat))

    @cached_property
    def log(self) -> list[dict[str, Any]]:
        """The log as the person at the screen reads it; while a hand's
        summary is open, without the next deal's opening lines (the engine
        has dealt it already; the table behind still shows the finished
        hand): they appear when the summary is closed."""
        log = handover.seen_by(self.save.get("log", []), self.at_screen)
        return log[:deal_opening(log)] if self.waiting_for_ack else log

    @cached_property
    def log_so_far(self) -> list[dict[str, Any]]:
        """The save's log (every person's entries, as the live region counts
        them) up to the next deal's opening while a hand's summary is open.
        With several people each one's view of the scoring action comes in
        turn, so it stops at the first of their views' openings."""
        log: list[dict[str, Any]] = self.save.get("log", [])
        if not self.waiting_for_ack:
            return log
        end = len(log)
        for who in handover.people(self.save["setup"]):
            mine = [i for i, event in enumerate(log) if event.get("for", who) == who]
            opening = deal_opening([log[i] for i in mine])
            if opening < len(mine):
                end = min(end, mine[opening])
        return log[:end]

    @cached_property
    def handover_due(self) -> str | None:
        """The person the device must go to now, or None (game.web.model.handover);
        not while the person at the screen may make their choice ahead."""
        if self.waiting_for_ack or self.ahead:
            return None
        return handover.handover_to(self.state, self.save)

    @cached_property
    def choice(self) -> Choice:
        actions = self.state.legal_actions() if self.human_to_act else self.ahead
        return Choice(actions, self.table.parts)

    @cached_property
    def coach_waiting(self) -> bool:
        return self.coach is not None and self.coach.waiting(self.played)

    @cached_property
    def takebacks_allowed(self) -> bool:
        """False in a lesson (the coach asks again instead) and in a game
        started with "no take-backs"."""
        return self.coach is None and not self.save["setup"].get("no_takebacks", False)

    @cached_property
    def can_undo(self) -> bool:
        return (not self.state.over and self.takebacks_allowed and self.handover_due is None
                and bool(self.undo_points))

    @cached_property
    def remote_on_turn(self) -> str | None:
        """An online table's remote person who decides now (`setup.remote`:
        lasting player -> name), unless a bot stands in for them
        (`setup.stood_in`); their decision comes as `RemoteMoved`."""
        setup = self.save["setup"]
        if self.state.to_act is None or not setup.get("remote"):
            return None
        who = str(self.state.identity(self.state.to_act))
        return who if who in setup["remote"] and who not in setup.get("stood_in", ()) else None

    @cached_property
    def bots_on_turn(self) -> bool:
        """Whether a bot decides now (the page lets it think)."""
        return (not self.state.over and not self.waiting_for_ack and not self.coach_waiting
                and handover.person_on_turn(self.state, self.save["setup"]) is None
                and self.remote_on_turn is None)

    @cached_property
    def fresh_hint(self) -> Hint | None:
        """The hint, if it is for this very decision."""
        return self.hint if self.hint is not None and self.hint.position is self.state else None

    def person_name(self, who: str, t: Translator) -> str:
        """A person's name, else "Player n" in the page's language."""
        named = handover.people(self.save["setup"])
        return named.get(who) or t("setup.player", n=list(named).index(who) + 1)

    @cached_property
    def _contexts(self) -> dict[str, TableContext]:
        return {}

    def context(self, t: Translator) -> TableContext:
        """What the table's renderer knows besides the observation: made once
        per session and translator's words (every region drawn from it shares it)."""
        words = f"{t.lang}{' touch' if t.touch else ''}"
        known = self._contexts.get(words)
        if known is None:
            known = self._contexts[words] = self._context(t)
        return known

    def _context(self, t: Translator) -> TableContext:
        ctx = TableContext(t=t, seat=self.my_seat, thinking=self.thinking,
                           log=self.log, paused=self.coach_waiting)
        setup = self.save["setup"]
        if handover.shared(setup):
            ctx.people = {str(handover.seat(self.state, who)): self.person_name(who, t)
                          for who in handover.people(setup)}
        if setup.get("remote"):  # an online table: its friends by name, not as bots
            ctx.people = {**ctx.people, **{str(handover.seat(self.state, who)): name
                                           for who, name in setup["remote"].items()}}
        ctx.held = self.held_here
        if self.deciding:
            offer(ctx, self.choice, self.picked, ahead=not self.human_to_act)
        return ctx

    def with_save(self, **changes: Any) -> Session:
        return dataclasses.replace(self, save={**self.save, **changes})


# -- actions: what can happen to the game on the table -----------------------------

@dataclass(frozen=True)
class Act:
    """A whole decision of the person's (a card played, a button)."""
    action: str


@dataclass(frozen=True)
class Pick:
    """One part of a decision clicked (a card, then a cell)."""
    part: str


@dataclass(frozen=True)
class Confirm:
    """The person confirms the parts picked (the duel's exchange)."""


@dataclass(frozen=True)
class ClearChoice:
    """Escape: the half-made choice is dropped."""


@dataclass(frozen=True)
class HeldDue:
    """The engine asks the person holding a choice made ahead: hand it over."""


@dataclass(frozen=True)
class BotMoved:
    token: int
    action: str


@dataclass(frozen=True)
class BotFailed:
    token: int
    reason: str


@dataclass(frozen=True)
class RemoteMoved:
    """A remote person's decision at an online table (game.online.host checked
    that it is theirs and legal in `position`). The position, not a token:
    a token also moves when nothing was played, and the guest cannot send
    the same decision twice."""
    position: State
    who: str
    action: str


@dataclass(frozen=True)
class HintAsked:
    pass


@dataclass(frozen=True)
class HintReady:
    """The search's choice for the decision in `position` (None: it failed)."""
    position: State
    action: str | None


@dataclass(frozen=True)
class Undo:
    pass


@dataclass(frozen=True)
class AckHand:
    """The hand's summary is read: the next hand is played."""


@dataclass(frozen=True)
class TakeOver:
    """Pass-and-play: the next person has the device."""


@dataclass(frozen=True)
class CloseFinal:
    """The end-of-game summary closed (the table stays, with Review)."""


@dataclass(frozen=True)
class CoachNext:
    """A lesson's note read: the hand goes on."""


@dataclass(frozen=True)
class Halt:
    """The page leaves the table (start screen, statistics): nothing in
    flight is kept."""


Action = Union[Act, Pick, Confirm, ClearChoice, HeldDue, BotMoved, BotFailed, RemoteMoved,
               HintAsked, HintReady, Undo, AckHand, TakeOver, CloseFinal, CoachNext, Halt]


# -- effects: what the page does after a change --------------------------------------

@dataclass(frozen=True)
class Persist:
    """Write the save."""


@dataclass(frozen=True)
class Flash:
    """Show the session's message with a flash."""


@dataclass(frozen=True)
class Think:
    """Let the bot on turn think (if the page plays the game now)."""


@dataclass(frozen=True)
class ThinkHint:
    """Search for the person's decision."""


@dataclass(frozen=True)
class Moved:
    """An action was committed: the cards move as the person at the screen sees them."""
    after: State
    seat: Player


@dataclass(frozen=True)
class PlayHeld:
    """The person on turn made their choice ahead: give it (`HeldDue`) at once."""


@dataclass(frozen=True)
class StopMotion:
    pass


@dataclass(frozen=True)
class GameOver:
    """Count the finished game in the statistics."""


@dataclass(frozen=True)
class FocusCoach:
    """The coach's Continue (or bubble) is what to read next."""


Effect = Union[Persist, Flash, Think, ThinkHint, Moved, PlayHeld, StopMotion,
               GameOver, FocusCoach]
Result = tuple[Session, tuple[Effect, ...]]


# -- the reducer ---------------------------------------------------------------------

def reduce(session: Session, action: Action) -> Result:
    """The session after `action`, and what the page must do about it. A
    result that comes too late (a stale token or position) changes nothing."""
    handler = HANDLERS[type(action)]
    return handler(session, action)


def _say(session: Session, message: Message) -> Result:
    return dataclasses.replace(session, message=message), (Flash(),)


def _not_mine(session: Session) -> Result:
    return _say(session, NotYourTurn())


def _decides(session: Session) -> bool:
    return not session.state.over and not session.waiting_for_ack


def _act(session: Session, act: Act) -> Result:
    if not _decides(session):
        return session, ()
    if not session.human_to_act:
        return _hold(session, act.action) if session.ahead else _not_mine(session)
    try:
        after = session.state.apply(act.action)
    except GameError as e:
        return _say(session, Refused(e))
    if session.coach is not None:
        coach = dataclasses.replace(session.coach, read=set(session.coach.read))
        if coach.check(session.played, act.action) is not None:  # not the lesson's choice
            return (dataclasses.replace(session, coach=coach, picked=()),
                    (FocusCoach(),))
        session = dataclasses.replace(session, coach=coach)
    return commit(session, act.action, after)


def _hold(session: Session, action: str) -> Result:
    """A choice made ahead: held by the page until the engine asks for it;
    one the engine will not take is explained in its words now."""
    if action not in session.ahead:
        try:
            session.state.check_ahead(session.my_seat, action)
        except GameError as e:
            return _say(session, Refused(e))
        return _say(session, Said("msg.not_offered"))
    return dataclasses.replace(session, held=(session.at_screen, action), picked=(),
                               message=None), ()


def _held_due(session: Session, _: HeldDue) -> Result:
    if not session.held_due or session.held is None:
        return session, ()
    action = session.held[1]
    session = dataclasses.replace(session, held=None)
    if action not in session.state.legal_actions():  # never: the engine offered it ahead
        return session, ()
    return commit(session, action, session.state.apply(action))


def _still_held(session: Session) -> tuple[str, str] | None:
    """The held choice after a move: kept while it waits to be asked for."""
    held = session.held
    if held is None or session.held_due:
        return held
    seat = handover.seat(session.state, held[0])
    return held if held[1] in session.state.observation(seat).get("ahead", ()) else None


def commit(session: Session, action: str, after: State) -> Result:
    """`action` taken: the log gains its events as the people at the screen
    may see them, the person's decision becomes one Undo may take back."""
    setup = session.save["setup"]
    before = session.state
    points = session.undo_points
    if after.hands_scored != before.hands_scored:
        points = ()  # a scored hand is never taken back
    elif mine(before, session.at_screen):
        points = (*points, session.played)
    elif handover.person_on_turn(before, setup) is not None:
        points = ()  # another person's choice made ahead: Undo never crosses it
    transcript = {**session.save["transcript"],
                  "actions": [*session.save["transcript"]["actions"], action]}
    log = [*session.save["log"], *handover.log_events(after, setup)]
    scored = after.hands_scored != before.hands_scored
    nxt = dataclasses.replace(session.with_save(transcript=transcript, log=log), state=after,
                              picked=(), hint=None, thinking=None, undo_points=points,
                              message=None, token=session.token + 1,
                              scored_from=before if scored else None)
    nxt = dataclasses.replace(nxt, held=_still_held(nxt))
    if session.ahead and session.picked and nxt.human_to_act and nxt.choice.allows(
            session.picked):
        nxt = dataclasses.replace(nxt, picked=session.picked)  # picked ahead: go on
    effects: list[Effect] = [Moved(after, handover.seat(after, nxt.at_screen)), Persist()]
    if after.over:
        effects.append(GameOver())
    if nxt.coach_waiting:
        effects.append(FocusCoach())
    effects.append(PlayHeld() if nxt.held_due else Think())
    return nxt, tuple(effects)


@dataclass(frozen=True)
class Clicked:
    """What one click on a part of a decision makes (`click`): the parts
    picked now, or a whole action to take (`tried`: one the choice does not
    offer, which whoever checks moves says why not), or a word why nothing
    changed (`said`, a catalog key)."""
    picked: tuple[str, ...] = ()
    action: str | None = None
    tried: bool = False
    said: str | None = None


def click(table: Table, choice: Choice, picked: tuple[str, ...], part: str,
          observation: dict[str, Any]) -> Clicked:
    """A click on `part` with `picked` chosen so far: the one way every
    table picks (the local one, an online guest's)."""
    chosen = set(picked) ^ {part}
    if not choice.allows(chosen):
        tried = table.attempt(tuple(sorted(chosen)), observation)
        if tried is not None:  # a whole move the person made: the engine says why not
            return Clicked(picked, action=tried, tried=True)
        several = any(table.confirm(a) for a in choice.sets)
        if picked and choice.complete(picked) is not None:
            return Clicked(picked, said="msg.unpick_first")  # a full choice: unpick one first
        if several or not choice.allows({part}):
            return Clicked(picked, said="msg.not_offered")
        chosen = {part}  # another card instead of the one picked before
    action = choice.complete(chosen)
    if action is not None and choice.decisive(chosen) and not table.confirm(action):
        return Clicked(action=action)
    return Clicked(tuple(sorted(chosen)))


def offer(ctx: TableContext, choice: Choice, picked: tuple[str, ...], ahead: bool) -> None:
    """The context of a decision under way: what is picked, offered, complete."""
    ctx.ahead, ctx.picked = ahead, picked
    ctx.offers = choice.offers(picked)
    ctx.complete = choice.complete(picked) if picked else None


def _pick(session: Session, pick: Pick) -> Result:
    if not _decides(session):
        return session, ()
    if not (session.human_to_act or session.ahead):
        return _not_mine(session)
    clicked = click(session.table, session.choice, session.picked, pick.part,
                    session.observation)
    if clicked.said is not None:
        return _say(session, Said(clicked.said))
    if clicked.action is not None:
        return _act(session if clicked.tried else dataclasses.replace(session, picked=()),
                    Act(clicked.action))
    return dataclasses.replace(session, picked=clicked.picked, message=None), ()


def _confirm(session: Session, _: Confirm) -> Result:
    if not (session.human_to_act or session.ahead) or not session.picked:
        return session, ()
    action = session.choice.complete(session.picked)
    if action is None:
        return _say(session, Said("msg.not_offered"))
    return _act(dataclasses.replace(session, picked=()), Act(action))


def _clear_choice(session: Session, _: ClearChoice) -> Result:
    if not session.picked:
        return session, ()
    return dataclasses.replace(session, picked=()), ()


def _bot_moved(session: Session, moved: BotMoved) -> Result:
    if moved.token != session.token:
        return session, ()
    try:
        after = session.state.apply(moved.action)
    except GameError as e:  # a bot must never take the page down
        return _bot_failed(session, BotFailed(moved.token, f"{type(e).__name__}: {e}"))
    return commit(session, moved.action, after)


def _bot_failed(session: Session, failed: BotFailed) -> Result:
    if failed.token != session.token:
        return session, ()
    session = dataclasses.replace(session, thinking=None)
    return _say(session, Said("msg.bot_error", {"reason": failed.reason}))


def _remote_moved(session: Session, moved: RemoteMoved) -> Result:
    """Applied in the position it answers, even while the host reads a hand's
    summary (the guest is not kept waiting by the host's screen)."""
    if moved.position is not session.state or session.remote_on_turn != moved.who:
        return session, ()
    try:
        after = session.state.apply(moved.action)
    except GameError:  # checked in this very position by the host's room: never here
        return session, ()
    return commit(session, moved.action, after)


def _hint_asked(session: Session, _: HintAsked) -> Result:
    if not session.human_to_act or session.fresh_hint is not None:
        return session, ()
    return dataclasses.replace(session, hint=Hint(session.state)), \
        (ThinkHint(),)


def _hint_ready(session: Session, ready: HintReady) -> Result:
    if session.fresh_hint is None or ready.position is not session.state:
        return session, ()  # the person acted meanwhile: the hint is moot
    if ready.action is None:
        return dataclasses.replace(session, hint=None), ()
    return dataclasses.replace(session, hint=Hint(session.state, ready.action)), ()


def _undo(session: Session, _: Undo) -> Result:
    """Replay the transcript without the person's last decision of this hand
    and what followed it; the game becomes practice."""
    if not session.can_undo:
        return session, ()
    setup = session.save["setup"]
    try:
        rewind = take_back(session.save["transcript"], session.at_screen, session.state,
                           handover.people(setup), lambda past: handover.log_events(past, setup))
    except Exception as e:  # CannotRewind, or a save's transcript that does not replay
        session = dataclasses.replace(session, undo_points=())
        return _say(session, Said("undo.failed", {"reason": str(e)}))
    transcript = {**session.save["transcript"], "actions": rewind.actions}
    nxt = dataclasses.replace(
        session.with_save(transcript=transcript, log=rewind.log, practice=True),
        state=rewind.state, undo_points=tuple(rewind.undoable), picked=(), held=None,
        hint=None, thinking=None, message=Said("undo.done"), token=session.token + 1)
    return nxt, (StopMotion(), Persist(), Think())


def _ack_hand(session: Session, _: AckHand) -> Result:
    if not session.waiting_for_ack:
        return session, ()
    return session.with_save(seen_hands=session.state.hands_scored), \
        (Persist(), Think())


def _take_over(session: Session, _: TakeOver) -> Result:
    who = session.handover_due
    if who is None:
        return session, ()
    # Nothing of theirs to take back since the last person decided.
    nxt = dataclasses.replace(session.with_save(at_screen=who), undo_points=(), hint=None,
                              picked=(), message=None)
    return nxt, (Persist(),)


def _close_final(session: Session, _: CloseFinal) -> Result:
    return session.with_save(closed_final=True), (Persist(),)


def _coach_next(session: Session, _: CoachNext) -> Result:
    if session.coach is None:
        return session, ()
    coach = dataclasses.replace(session.coach, read=set(session.coach.read))
    coach.next_note(session.played)
    return dataclasses.replace(session, coach=coach), (FocusCoach(), Think())


def _halt(session: Session, _: Halt) -> Result:
    return dataclasses.replace(session, thinking=None, token=session.token + 1), ()


Handler = Callable[[Session, Any], Result]
HANDLERS: dict[type, Handler] = {
    Act: _act, Pick: _pick, Confirm: _confirm, ClearChoice: _clear_choice, HeldDue: _held_due,
    BotMoved: _bot_moved, BotFailed: _bot_failed,
    RemoteMoved: _remote_moved,
    HintAsked: _hint_asked, HintReady: _hint_ready, Undo: _undo, AckHand: _ack_hand,
    TakeOver: _take_over, CloseFinal: _close_final, CoachNext: _coach_next, Halt: _halt,
}
