"""The page's controller (game.web.runtime.controller) without a browser: a store in
memory, no tab locks, and a screen that records what it was asked to do.
Bots and hints think when a test runs them (`think`)."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import random
import threading
from typing import Any, Callable, Coroutine

from game import new_game
from game.core.state import State
from game.web.runtime.controller import Controller
from game.web.runtime.drivers import Clock, NoLocks
from game.web.model.links import Link
from game.web.model.page import OpenReview, Page, SetupChanged
from game.web.model.session import Session
from game.web.runtime.storage import MemoryStorage
from game.web.draw.tables import renderer
from game.web.draw.views import Drawn

# The page's hand analysis under test searches this many iterations a decision
# (the `quick_analysis` fixture of tests/conftest.py sets it).
ANALYSIS_ITERATIONS = 12


class RecordingScreen:
    def __init__(self) -> None:
        self.drawn: list[Drawn] = []
        self.focused: list[str] = []
        self.flashed: list[str] = []
        self.errors: list[str] = []
        self.downloads: list[tuple[str, str]] = []
        self.chooser: list[str] = []
        self.reviews: list[Any] = []
        self.review_frames: list[dict[str, Any]] = []  # the review dialog's frames
        self.moves = 0

    @property
    def last(self) -> Drawn:
        return self.drawn[-1]

    def draw(self, page: Page, drawn: Drawn) -> None:
        self.drawn.append(drawn)

    def flash(self, message: str) -> None:
        self.flashed.append(message)

    def focus(self, selector: str) -> None:
        self.focused.append(selector)

    def moved(self, game: str, events: list[dict[str, Any]], seat: Any) -> None:
        self.moves += 1

    def still(self) -> None:
        pass

    def heard(self, events: int) -> None:
        pass

    def error(self, text: str) -> None:
        self.errors.append(text)

    def download(self, name: str, text: str) -> None:
        self.downloads.append((name, text))

    def choose_file(self, purpose: str) -> None:
        self.chooser.append(purpose)

    def forget_link(self) -> None:
        pass

    def steps(self, frame: dict[str, Any]) -> None:
        self.review_frames.append(json.loads(json.dumps(frame)))  # as posted

    def review(self, host: Any, transcript: dict[str, Any] | None, me: Any) -> None:
        self.reviews.append((transcript, me))
        host.dispatch(OpenReview(transcript, me))  # as the worker's screen hands it back


class Thinking:
    """The coroutines the controller spawned (bots, hints), run on demand."""

    def __init__(self) -> None:
        self.waiting: list[Coroutine[Any, Any, None]] = []

    def __call__(self, coro: Coroutine[Any, Any, None]) -> None:
        self.waiting.append(coro)

    def run(self, limit: int = 10_000) -> int:
        """Run every spawned coroutine (and those they spawn) to its end: the count run."""
        ran = 0
        while self.waiting and ran < limit:
            run_alone(self.waiting.pop(0))
            ran += 1
        return ran

    def drop(self) -> None:
        for coro in self.waiting:
            coro.close()
        self.waiting = []

    def __del__(self) -> None:
        self.drop()  # never run: closed quietly


def run_alone(coro: Coroutine[Any, Any, None]) -> None:
    """Run `coro` to its end in a thread of its own: its own event loop, even
    when the test process has one running (Playwright's, in a full run)."""
    failed: list[BaseException] = []

    def run() -> None:
        try:
            asyncio.run(coro)
        except BaseException as e:  # handed back to the test
            failed.append(e)

    thread = threading.Thread(target=run)
    thread.start()
    thread.join()
    if failed:
        raise failed[0]


class TickingClock(Clock):
    """The page's clock in a test: it moves on `tick` seconds each time it is
    read, so a bot's or a hint's second of search is a hundred readings, and
    a bot's pause (`sleep`) moves it on at once, not a moment of the test's."""

    def __init__(self, tick: float = 0.01) -> None:
        self.time, self.tick = 0.0, tick

    def now(self) -> float:
        self.time += self.tick
        return self.time

    async def sleep(self, seconds: float) -> None:
        self.time += seconds
        await asyncio.sleep(0)  # still a yield to the event loop, as the page's pause is


def make_page(stored: dict[str, str] | None = None, lang: str = "en",
              quota: int | None = None, link: Link | None = None,
              speed: str = "instant",
              clock: TickingClock | None = None,
              rng: random.Random | None = None) -> tuple[Controller, RecordingScreen, Thinking]:
    store = MemoryStorage(quota)
    store.items.update(stored or {})
    if speed:
        store.items.setdefault("jhg.prefs", '{"speed": "%s"}' % speed)
    screen, thinking = RecordingScreen(), Thinking()
    ctrl = Controller(store, MemoryStorage(), screen, NoLocks(), link or Link(), lang,
                      spawn=thinking, clock=clock or TickingClock(), rng=rng)
    return ctrl, screen, thinking


def deal(ctrl: Controller, game: str, seed: int | str, **values: str) -> None:
    """A new game of `game` from the start screen's fields (`values`), as Play does."""
    ctrl.dispatch(SetupChanged({"game": game, "seed": str(seed), **values}))
    ctrl.command("start", {})


def my_turn(ctrl: Controller, thinking: Thinking, limit: int = 50) -> Session:
    """Let the bots play until the person decides (or the hand's summary is up)."""
    for _ in range(limit):
        s = ctrl.session
        assert s is not None, "no game on the table"
        if s.human_to_act or s.waiting_for_ack or s.state.over:
            return s
        assert thinking.run(), "the bots on turn were not asked to think"
    raise AssertionError("the person never got the turn")


def to_a_hands_summary(ctrl: Controller, thinking: Thinking) -> Session:
    """Play the person's first legal action at each turn (the bots theirs)
    until the first hand is scored and its summary is up."""
    from game.web.model.session import Act

    for _ in range(200):
        s = my_turn(ctrl, thinking)
        if s.waiting_for_ack:
            return s
        ctrl.on_table(Act(s.state.legal_actions()[0]))
    raise AssertionError("no hand was scored")


def random_save(game: str, options: dict[str, Any], me: Any, actions: int,
                seed: int = 5) -> dict[str, Any]:
    """A page's save of `game` after `actions` random legal actions (fewer if it
    ends first), the person at seat `me`, no bots named."""
    from game.web.model import saves

    state = new_game(game, options, seed=seed)
    rng, played = random.Random(seed), []
    for _ in range(actions):
        if state.over:
            break
        action = rng.choice(state.legal_actions())
        state = state.apply(action)
        played.append(action)
    return {"format": saves.FORMAT, "version": saves.VERSION, "game": game,
            "setup": {"me": me, "bots": {}},
            "transcript": {"game": game, "options": state.to_json()["options"], "seed": seed,
                           "actions": played},
            "state": state.to_json(), "log": [], "seen_hands": len(state.to_json()["history"])}


def random_transcript(game: str, seed: int, steps: int | None = None, *,
                      options: dict[str, Any] | None = None,
                      stop: Callable[[State], bool] = lambda state: False,
                      choices: random.Random | None = None, me: Any = None) -> dict[str, Any]:
    """The transcript (JSON form) of a game of `game` played by random legal
    actions, drawn from `choices` (else `random.Random(seed)`): to its end, to
    `steps` actions, or to the first position `stop` accepts. With `me`, the
    player it was downloaded for, as the page's game files name them."""
    state, actions = new_game(game, options, seed), []
    rng = choices or random.Random(seed)
    while not state.over and (steps is None or len(actions) < steps) and not stop(state):
        actions.append(rng.choice(state.legal_actions()))
        state = state.apply(actions[-1])
    data = {"game": game, "options": state.to_json()["options"], "seed": seed,
            "actions": actions}
    return data if me is None else {**data, "me": me}


def put_on_table(ctrl: Controller, state: Any, save: dict[str, Any]) -> None:
    """A game on the table as a save would put it back (held by this tab)."""
    session = Session.start(renderer(state.game_id), state, save)
    ctrl.page = dataclasses.replace(ctrl.page, session=session, view="table",
                                    hold=dataclasses.replace(ctrl.page.hold,
                                                             owner=save["game"]))


def items(ctrl: Controller) -> dict[str, str]:
    store = ctrl.keeper.store
    assert isinstance(store, MemoryStorage)
    return store.items


class FramedScreen(RecordingScreen):
    """A recording screen that also makes each draw's frame as the worker
    posts it (game.web.draw.frames): the live region's news and the cards' moves."""

    def __init__(self) -> None:
        from game.web.draw.frames import Frames

        super().__init__()
        self.frames = Frames()
        self.posted: list[dict[str, Any]] = []

    def draw(self, page: Page, drawn: Drawn) -> None:
        super().draw(page, drawn)
        self.posted.append(self.frames.draw(page, drawn))

    def moved(self, game: str, events: list[dict[str, Any]], seat: Any) -> None:
        super().moved(game, events, seat)
        self.frames.course.note(game, events, seat)

    def still(self) -> None:
        self.frames.course.reset()

    def heard(self, events: int) -> None:
        self.frames.heard(events)

    @property
    def news(self) -> list[str]:
        """Every line the live region was given, in order."""
        return [line for frame in self.posted for line in frame.get("news", [])]

    @property
    def planned(self) -> list[dict[str, Any]]:
        """Every card move the frames carried, in order."""
        return [move for frame in self.posted for move in frame.get("moves", [])]
