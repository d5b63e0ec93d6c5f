"""Online play's effects (game.web.runtime.online_door), carried out by the runtime: the
wire opened, written to and closed, values kept and forgotten, the host's
signer asked, the host's game put on the table, the screen told. What comes
back (a key pair, a signed proof checked, an invitation code) is an action,
handed to the page as any other (game.web.runtime.online_door's `event`); a wire's events come to
its `heard`. Nothing here keeps the controller: it is handed in (`Runtime`)
each time (game.web.runtime.online_door's `Runtime`)."""

from __future__ import annotations

import asyncio
from typing import Awaitable, Callable, TypeVar

from game.core.state import GameError
from game.online import messages as m
from game.online.wire import KeyedWire, TurnWire
from game.web.runtime import online_door as ol
from game.web.model import stats as st
from game.web.model import analysing as an
from game.web.model.page import Page
from game.web.online import seat_analysis as sa
from game.web.online.seat_analysis import SeatAnalysis
from game.web.online.state import GuestScreen
from game.web.runtime import analysis_run
from game.web.model.stats import new_game_id
from game.web.model.stats_page import WriteStats, now_ms
from game.web.draw.tables import renderer

T = TypeVar("T")


def carry_out(rt: ol.Runtime, effect: ol.Effect) -> list[ol.OnlineAct]:
    """Do what `effect` asks; the online actions it answers with at once."""
    drivers = rt.online
    wire = drivers.wire
    if isinstance(effect, ol.Send):
        if wire is not None:
            wire.send(effect.peer, effect.text)
    elif isinstance(effect, ol.OpenLine):
        _open(rt, effect)
    elif isinstance(effect, ol.CloseLine):
        if wire is not None:
            wire.close()
        drivers.wire = drivers.by_code = None
    elif isinstance(effect, ol.Keep):
        rt.keep(effect.key, effect.value)
    elif isinstance(effect, ol.Forget):
        rt.forget(effect.key)
    elif isinstance(effect, ol.PutOnTable):
        seed = effect.save["transcript"]["seed"]
        rt.put_on_table(renderer(effect.game), effect.state,
                        {**effect.save, "id": new_game_id(seed, now_ms())})
        return [ol.Started(effect.state, effect.save["transcript"])]
    elif isinstance(effect, ol.ScreenStill):
        rt.screen.still()
        rt.screen.heard(effect.heard)
    elif isinstance(effect, ol.CardsMoved):
        rt.screen.moved(effect.game, list(effect.events), effect.seat)
    elif isinstance(effect, ol.Download):
        rt.screen.download(effect.name, effect.text)
    elif isinstance(effect, ol.Review):
        rt.screen.review(rt, effect.transcript, effect.seat)  # (handed back as OpenReview)
    elif isinstance(effect, ol.Count):
        _count(rt, effect)
    elif isinstance(effect, ol.ThinkHint):
        rt.spawn(_hinting(rt, effect))
    elif isinstance(effect, ol.AnalyseSeat):
        rt.spawn(analysis_run.analyse_turn(rt, effect.run, _seat_decisions(rt)))
    else:
        return _signer(rt, effect)
    return []


def _signer(rt: ol.Runtime, effect: ol.Effect) -> list[ol.OnlineAct]:
    """The effects of the key pair, its proofs and the codes carried by hand."""
    keys, wire, by_code = rt.online.keys, rt.online.wire, rt.online.by_code
    if isinstance(effect, ol.MakeKeys) and keys is not None:
        made = keys.make()
        _later(rt, made, lambda pair: ol.KeysMade(pair[0], pair[1]), ol.KeysFailed())
    elif isinstance(effect, ol.Sign) and keys is not None and wire is not None:
        _later(rt, _proving(rt, effect), None)
    elif isinstance(effect, ol.Check):
        _later(rt, _checking(rt, effect),
               lambda ok: ol.Verified(effect.peer, effect.signature, ok))
    elif isinstance(effect, ol.MakeInvitation) and by_code is not None:
        seat = effect.seat
        _later(rt, by_code.invite(), lambda made: ol.CodeMade(made[0], made[1], seat))
    elif isinstance(effect, ol.TakeAnswer) and by_code is not None:
        try:
            step = by_code.accept(effect.peer, effect.answer)
        except ValueError:  # mistyped, cut short, or not an answer
            return [ol.AnswerRefused()]
        _later(rt, step, None)
        return [ol.AnswerTaken(effect.peer)]
    elif isinstance(effect, ol.AnswerInvitation) and by_code is not None:
        try:
            answer = by_code.answer(effect.code)
        except ValueError:  # mistyped, cut short, or not an invitation
            return [ol.InvitationRefused()]
        _later(rt, answer, ol.Answered)
    return []


def _open(rt: ol.Runtime, effect: ol.OpenLine) -> None:
    drivers = rt.online
    if effect.by_code:
        drivers.wire = drivers.by_code = drivers.make_code_wire()
    else:
        drivers.wire = drivers.make_wire()
        if isinstance(drivers.wire, KeyedWire) and effect.keyed:
            drivers.wire.keyed(*effect.keyed)  # (the relayed path's key signed, or checked)
        if effect.turn is not None and isinstance(drivers.wire, TurnWire):
            drivers.wire.use_turn(effect.turn)
    drivers.wire.open(effect.room, effect.secret, lambda event: ol.heard(rt, event))


def _later(rt: ol.Runtime, work: Awaitable[T], answer: Callable[[T], ol.OnlineAct] | None,
           failed: ol.OnlineAct | None = None) -> None:
    """`work` of the wire or the signer, awaited: then its answer (or, a
    failure said on the page's console, `failed`), or a drawing (none)."""
    async def run() -> None:
        try:
            result = await work
        except Exception as e:  # a wire's failure is said on the page, never a crash
            rt.screen.error(f"online: {type(e).__name__}: {e}")
            if failed is not None:
                ol.event(rt, failed)
            return
        if answer is not None:
            ol.event(rt, answer(result))
    rt.spawn(run())


async def _proving(rt: ol.Runtime, effect: ol.Sign) -> None:
    """A page asked this one to prove it is the host: the signed answer."""
    keys, wire = rt.online.keys, rt.online.wire
    if keys is not None and wire is not None:
        signature = await keys.sign(effect.private, effect.text)
        wire.send(effect.peer, m.encode(m.Proof(signature)))


async def _checking(rt: ol.Runtime, effect: ol.Check) -> bool:
    """Whether the proof is the host's signature for this page's challenge and
    this page's id as the host's wire names it."""
    from game.online.proof import proof_text

    keys, wire = rt.online.keys, rt.online.wire
    if keys is None or wire is None or effect.key is None:
        return False
    return await keys.verify(effect.key, proof_text(effect.room, effect.nonce, wire.me),
                             effect.signature)


def _count(rt: ol.Runtime, effect: ol.Count) -> None:
    """The game just over, in this browser's statistics (the online bucket),
    judged by this page's engine from the host's transcript; counted once by
    its id (its deal and room), so a rejoin at the end adds nothing. A
    transcript that does not end its game (a damaged message) counts nothing."""
    try:
        game = st.finished_online(effect.transcript, effect.room, effect.seat, now_ms())
        if game is not None:
            rt.write_stats(WriteStats("record", game=game))
    except GameError:  # not a finished game: the host's next `over` may be
        return
    except Exception as e:  # a host's odd transcript must never take the page down
        rt.screen.error(f"statistics: {type(e).__name__}: {e}")


async def _hinting(rt: ol.Runtime, effect: ol.ThinkHint) -> None:
    """Hint for the guest's decision, thought from its own observation only."""
    from game.web.runtime.hint import Hint, hint_rng
    from game.web.runtime.thinking import SLICE

    def thinking() -> bool:
        screen = rt.page.online
        return isinstance(screen, GuestScreen) and screen.seat.hint == (effect.state_id, None)

    try:
        hint = Hint(effect.observation, hint_rng(effect.room, effect.state_id))
        while not hint.done():
            hint.step(SLICE)
            await asyncio.sleep(0)
            if not thinking():
                return  # the table moved on (or the page left it): the hint is moot
        action: str | None = hint.best()
    except Exception as e:  # a hint must never take the page down
        rt.screen.error(f"hint error: {type(e).__name__}: {e}")
        action = None
    ol.event(rt, ol.HintThought(effect.state_id, action))


def _seat_decisions(rt: ol.Runtime) -> analysis_run.Decisions:
    """The guest's own decisions for the analysis's loop: the observations its
    table received (game.web.online.seat_analysis), no state behind them (so no
    hindsight line); it waits while this seat's hint thinks."""
    def analysis(page: Page) -> SeatAnalysis | None:
        return page.online.analysis if isinstance(page.online, GuestScreen) else None

    def next_step(page: Page, run: int) -> tuple[int, int] | None:
        record = analysis(page)
        return None if record is None else an.next_step(record.analyses, run)

    def position(page: Page, step: int, hand: int) -> analysis_run.Position:
        screen = page.online
        assert isinstance(screen, GuestScreen)  # (next_step found its run)
        seen = sa.at(screen.analysis, step)
        return analysis_run.Position(step, hand, seen.observation, seen.chosen,
                                     sa.seed(screen.game, screen.room, step), None)

    def hint_thinking(page: Page) -> bool:
        screen = page.online
        return isinstance(screen, GuestScreen) and screen.seat.hint is not None \
            and screen.seat.hint[1] is None

    return analysis_run.Decisions(next_step, position, hint_thinking, lambda act: ol.event(
        rt, ol.SeatDecided(act.run, act.decision)))
