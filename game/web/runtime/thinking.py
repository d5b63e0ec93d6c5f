"""Bots and hints thinking beside the page: in short slices, yielding to the
browser between them, from their own player's observation only. A result
goes back to the controller as an action carrying the token (or the
position) it was asked with; if the table has moved on meanwhile it is dropped.
"""

from __future__ import annotations

import asyncio
import random
from typing import Protocol

from game.bots.base import Bot
from game.bots.search import SearchBot
from game.web.model import session as ts
from game.web.runtime.drivers import Clock
from game.web.model.page import Page
from game.web.runtime.hint import Hint, hint_rng
from game.web.model.session import Session
from game.web.draw.tables.common import seat_bot

# Seconds of bot search between two yields to the event loop. In the game's
# worker the main thread never waits for a slice, but the page's messages do:
# a click while a bot thinks is carried out between two slices, and a search
# made moot by it is dropped there (benchmarks/think.py prints the longest).
SLICE = 0.04
MAX_THINK = 3.0  # seconds: the expert bot's budget


class Bots:
    """The bots of the games on the table, made once per (game, lasting player,
    level): the same seat and level in another game is another bot. A bot
    that searches on a clock reads the page's (`clock`)."""

    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self.made: dict[tuple[str, str, str | None], Bot] = {}

    def of(self, s: Session, key: str) -> Bot:
        game, level = s.save["game"], s.save["setup"]["bots"].get(key)
        if (game, key, level) not in self.made:
            bot = seat_bot(game, level)
            if isinstance(bot, SearchBot):
                bot.clock = self.clock.now
            self.made[(game, key, level)] = bot
        return self.made[(game, key, level)]


class Host(Protocol):
    """What the thinking needs of the page it thinks for (the controller)."""

    page: Page
    bots: Bots
    clock: Clock

    def current(self, token: int) -> Session | None:
        """The session, if `token` is still its own."""

    def on_table(self, action: ts.Action) -> None: ...

    def error(self, text: str) -> None:
        """A developer's message (the console)."""

    def crashed(self, error: Exception) -> None: ...


async def bot_turn(ctrl: Host, token: int) -> None:
    try:
        await _bot_turn(ctrl, token)
    except Exception as e:  # the page-level guard, for the bot loop
        ctrl.crashed(e)


async def _bot_turn(ctrl: Host, token: int) -> None:
    s = ctrl.current(token)
    if s is None:
        return
    obs0 = s.state.observation(s.state.to_act)
    # Longer after a trick, so people see who took it.
    delay = ctrl.page.speed * s.table.pause_factor(obs0)
    await ctrl.clock.sleep(delay)
    if ctrl.current(token) is None:
        return
    try:
        action = await _bot_choice(ctrl, s, token)
    except Exception as e:  # a bot must never take the page down
        ctrl.error(f"bot error: {type(e).__name__}: {e}")
        ctrl.on_table(ts.BotFailed(token, f"{type(e).__name__}: {e}"))
        return
    if action is not None:
        ctrl.on_table(ts.BotMoved(token, action))


async def _bot_choice(ctrl: Host, s: Session, token: int) -> str | None:
    """The bot's action from its own observation (None: dropped meanwhile)."""
    state = s.state
    player = state.to_act
    key = str(state.identity(player))  # the save's bots are keyed by text (JSON keys)
    scripted = s.coach.lesson.expected(s.played) if s.coach is not None else None
    if scripted is not None:  # a lesson: the bots play the lesson's hand
        return scripted
    bot = ctrl.bots.of(s, key)
    rng = random.Random(f"{s.save['transcript']['seed']}:{key}:{s.played}")
    obs, legal = state.observation(player), state.legal_actions()
    if hasattr(bot, "start") and len(legal) > 1:
        # A search bot thinks in short slices so the page stays responsive.
        search = bot.start(obs, rng)
        end = ctrl.clock.now() + min(getattr(bot, "budget", 1.0), MAX_THINK)
        while not search.done(end):
            search.step(ctrl.clock.now() + SLICE, end)
            await asyncio.sleep(0)
            if ctrl.current(token) is None:
                return None
        return str(search.best(legal))
    return str(bot.choose(obs, legal, rng))


async def hint_turn(ctrl: Host, s: Session) -> None:
    """Think in slices from the person's observation only; drop it if they act."""
    position = s.state
    obs = s.observation  # the person's view (their seat's observation): never the state
    try:
        hint = Hint(obs, hint_rng(s.save["transcript"]["seed"], s.played), clock=ctrl.clock.now)
        while not hint.done():
            hint.step(SLICE)
            await asyncio.sleep(0)
            now = ctrl.page.session
            if now is None or now.state is not position or not ctrl.page.at_table:
                return  # the person acted (or left): the hint is moot
        action: str | None = hint.best()
    except Exception as e:  # a hint must never take the page down
        ctrl.error(f"hint error: {type(e).__name__}: {e}")
        action = None
    ctrl.on_table(ts.HintReady(position, action))
