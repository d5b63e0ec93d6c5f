"""The page's program: it holds the one `Page` (game.web.model.page), gives it the
actions that come from the person, the bots and other tabs, and carries out
the effects its reducers ask for through small drivers (game.web.runtime.drivers):
storage (game.web.runtime.keeper), this tab's locks, the screen, the thinking of
bots. What an effect finds out comes back as actions; `run`, the dispatch
loop, is the one place that stores a new `Page`. No browser import: the
tests run it in CPython with a store in memory and a screen that only
records what it was asked to draw.

A click goes: DOM event (game.web.front.events, on the page) -> a gesture
(game.web.runtime.gestures, in the worker) -> an action -> `reduce` -> effects here
-> one `draw` of the regions whose markup changed, posted as a frame.
"""

from __future__ import annotations

import asyncio
import random
import time
import traceback
from typing import Any, Callable, Sequence, Union

from game.core.state import State
from game.core.transcript import MAX_BYTES
from game.web.model import effects as fx
from game.web.model import file_panel as fp
from game.web.model import saves
from game.web.runtime import online_door as ol
from game.web.model import page as pg
from game.web.model import session as ts
from game.web.model import stats as st
from game.web.model import stats_page as sp
from game.web.runtime import analysis_run, thinking
from game.web.model import analysing as an
from game.web.model import analysis_view as av
from game.web.model.coach import Coach
from game.web.runtime.drivers import Clock, Locks, Screen, Spawn
from game.web.model.files import download_name, transcript_text
from game.web.draw.html import EMPTY, Html
from game.web.draw.i18n import Translator
from game.web.runtime.keeper import Keeper, refused
from game.web.model.links import Link
from game.web.model.page import Page, playable
from game.web.model.session import Message, Session
from game.web.model.replay import AUTOPLAY_SECONDS
from game.web.model.review import ReviewCommand
from game.web.model.stats_page import now_ms
from game.web.runtime.step_player import CLOSED, analysis_frame, review_frame
from game.web.runtime.storage import FailureKind, Storage
from game.web.draw.tables import Table, WordedLog
from game.web.draw.views import Drawing, GuestParts, message_text

# What the dispatch loop reduces: the page's actions and online play's (game.web.runtime.online_door).
Action = Union[pg.PageAction, ol.Stamped]


def reduce(page: Page, action: Action) -> tuple[Page, tuple[Any, ...]]:
    """The page after `action`: online play's by the host's reducer or a
    guest's (game.web.online.host, .guest), the others by the page's."""
    if not isinstance(action, ol.Stamped):
        return pg.reduce(page, action)
    act = action.act
    if page.online is None and not isinstance(act, (ol.HostTable, ol.Reopened, ol.Invited)):
        return page, ()  # (no online table: online play's part may not be fetched yet)
    # (online play's part, online.zip: fetched before the actions that make a table)
    from game.web.online import guest as online_guest, host as online_host

    if isinstance(act, (ol.HostTable, ol.Reopened)) or (
            online_host.hosting(page) and not isinstance(act, ol.Invited)):
        return online_host.reduce(page, action)
    return online_guest.reduce(page, action)


def first_notices(link: Link, prefs_ignored: str | None) -> tuple[tuple[str, dict[str, str]], ...]:
    """What the page says as it starts: the link's parameters it ignored, and
    why stored preferences were not used."""
    notices: tuple[tuple[str, dict[str, str]], ...] = ()
    # A watch link cut short or damaged is said in its own words: nothing is watched.
    ignored = [name for name in link.ignored if not name.startswith("watch=")]
    if len(ignored) < len(link.ignored):
        notices += (("notice.bad_watch_link", {}),)
    if ignored:
        notices += (("notice.unknown_params", {"names": ", ".join(ignored),
                                                "n": str(len(ignored))}),)
    if prefs_ignored is not None:
        notices += (("notice.prefs_ignored", {"reason": prefs_ignored[:200]}),)
    return notices


class Controller:
    def __init__(self, store: Storage, tab_store: Storage, screen: Screen, locks: Locks,
                 link: Link, lang: str, problem: FailureKind | None = None,
                 spawn: Spawn = asyncio.ensure_future, clock: Clock = Clock(),
                 rng: random.Random | None = None) -> None:
        self.keeper = Keeper(store, tab_store)
        self.screen, self.locks, self.spawn, self.link = screen, locks, spawn, link
        self.rng = rng or random.Random()  # the seeds of deals with none typed
        self.clock, self.bots = clock, thinking.Bots(clock)
        prefs, ignored = self.keeper.prefs()
        if link.speed is not None:
            prefs["speed"] = link.speed
        setup: dict[str, str] = {"game": playable()[0]}
        last = prefs.get("setup")
        if isinstance(last, dict):  # the choices of the last game, except its seed
            setup.update({str(k): str(v) for k, v in last.items() if k != "seed"})
        if link.game is not None:
            setup["game"] = link.game
        self.page = Page(t=Translator(lang), prefs=prefs, setup=setup,  # the page is born
                         notices=first_notices(link, ignored), store_problem=problem)
        self.depth = 0  # dispatches in progress: the page is drawn once, at the end
        self.after: list[Callable[[], None]] = []  # what waits for the draw (focus, flash)
        self.online = ol.OnlineDrivers()  # its wire factory is set by the browser (or a test)
        self.online.stored = self.stored
        self.redraw_due = False  # an online event changed what the page shows
        self.drawing = Drawing(Panels())  # what was drawn: redraw what changed
        told = self.keeper.save_prefs(prefs) if ignored is not None else []  # told once
        # A damaged statistics record is reported as soon as the page is up.
        self.run([*told, *self.keeper.stats_read(self.page)])

    @property
    def t(self) -> Translator:
        return self.page.t

    @property
    def session(self) -> Session | None:
        return self.page.session

    @property
    def save(self) -> dict[str, Any]:
        return self.page.session.save if self.page.session is not None else {}

    @property
    def state(self) -> State | None:
        return self.page.session.state if self.page.session is not None else None

    # -- the one loop: action -> reduce -> effects -> draw ---------------------------------

    def run(self, actions: Sequence[Action]) -> None:
        """The dispatch loop, the one place that stores a new `Page`: each action
        reduced, its effects carried out, and what they answer reduced in turn."""
        queue = list(actions)
        while queue:
            self.page, effects = reduce(self.page, queue.pop(0))
            for effect in effects:
                queue += self.carry_out(effect)

    def change(self, update: Callable[[], None], quiet: bool = False) -> None:
        """Run `update` (which dispatches), then draw once (`quiet`: only if
        what the page shows changed, as online play's reducers say: `Redraw`)."""
        self.depth += 1
        try:
            update()
        finally:
            self.depth = max(0, self.depth - 1)  # (a crash inside resets it to 0)
        if self.depth == 0 and (self.redraw_due or not quiet):
            self.redraw()

    def redraw(self) -> None:
        self.redraw_due = False
        if self.page.view == "start":  # (only its screen offers them: no storage reads at the table)
            self.run([pg.SavedListed(self.keeper.saved_games(self.page))])
        self.screen.draw(self.page, self.drawing.draw(self.page))
        after, self.after = self.after, []
        for do in after:
            do()

    def dispatch(self, action: pg.PageAction) -> None:
        self.change(lambda: self.run([action]))

    def tell(self, actions: list[pg.PageAction]) -> None:
        """What storage (or the locks) said, dispatched."""
        if actions:
            self.change(lambda: self.run(actions))

    def on_table(self, action: ts.Action) -> None:
        self.dispatch(pg.OnTable(action))

    def carry_out(self, effect: pg.PageEffect | ol.Effect) -> Sequence[Action]:
        """Do what `effect` asks; the actions it answers with (often none)."""
        if isinstance(effect, ts.Moved):
            self.screen.moved(effect.after.game_id, effect.after.events(effect.seat),
                              effect.seat)
            if self.page.online is not None:  # the host's room tells every friend
                return [self.online.stamp(ol.GameMoved(effect.after))]
        elif isinstance(effect, ol.Redraw):
            self.redraw_due = True
        elif isinstance(effect, ol.Effect):
            from game.web.online.runner import carry_out  # (online play's part, online.zip)

            return [self.online.stamp(act) for act in carry_out(self, effect)]
        elif isinstance(effect, ts.StopMotion):
            self.screen.still()
        elif isinstance(effect, ts.Persist):
            self.persist()
        elif isinstance(effect, ts.GameOver):
            record_game(self)
        elif isinstance(effect, ts.Flash):
            self.after.append(lambda: self.screen.flash(self.message))
        elif isinstance(effect, pg.FlashSaid):
            said = effect.said
            self.after.append(lambda: self.screen.flash(self.t(said.key, **said.params)))
        elif isinstance(effect, ts.FocusCoach):
            self.focus("#coach-next, #coach")
        elif isinstance(effect, fx.Focus):
            self.focus(effect.selector)
        elif isinstance(effect, (ts.Think, pg.Resume)):
            return [pg.BotsAnew()]
        elif isinstance(effect, pg.ThinkBot):
            self.spawn(thinking.bot_turn(self, effect.token))
        elif isinstance(effect, ts.PlayHeld):
            return [pg.OnTable(ts.HeldDue())]
        elif isinstance(effect, ts.ThinkHint) and self.session is not None:
            self.spawn(thinking.hint_turn(self, self.session))
        elif isinstance(effect, pg.SavePrefs):
            return self.keeper.save_prefs(self.page.prefs)
        else:
            return self.carry_out_panel(effect)
        return []

    def carry_out_panel(self, effect: pg.PageEffect) -> Sequence[Action]:
        """The statistics', the file dialog's and the review's effects (storage, the browser)."""
        if isinstance(effect, sp.ReadStats):
            return self.keeper.stats_read(self.page)
        if isinstance(effect, sp.WriteStats):
            return self.keeper.write_stats(self.page, effect)
        if isinstance(effect, fx.ChooseFile):
            self.screen.choose_file(effect.purpose)  # the browser's file chooser
        elif isinstance(effect, fp.ContinueFile):  # asked first: does that game have a save?
            game = effect.opened.final.game_id
            if effect.ask and self.stored(saves.key(game)) is not None:
                return [fp.SaveFound()]
            return [pg.ContinueFrom(effect.opened, effect.step)]
        elif isinstance(effect, fp.ReviewTranscript):
            return [pg.OpenReview(effect.transcript, effect.me)]
        elif isinstance(effect, fp.SaveTranscript):
            download(self)
        elif isinstance(effect, pg.DrawReview) and self.page.review is not None:
            frame = review_frame(self.page.review, self.t, effect.keep, effect.head)
            self.screen.steps(frame)
        elif isinstance(effect, pg.ReviewWait):
            self.spawn(self.autoplay(effect.run))
        elif isinstance(effect, pg.ReviewGone):
            self.screen.steps(CLOSED)
        elif isinstance(effect, an.AnalyseInBackground):
            self.spawn(analysis_run.analyse_turn(self, effect.run, analysis_run.reviewed(self)))
        elif isinstance(effect, an.DrawAnalysis) and self.page.review is not None:
            self.screen.steps(analysis_frame(self.page.review, self.t))
        else:
            return self.carry_out_table(effect)
        return []

    def carry_out_table(self, effect: pg.PageEffect) -> list[pg.PageAction]:
        """A new game's, a save's and this tab's hold's effects (storage, the locks, chance)."""
        if isinstance(effect, pg.Draw):
            seed = effect.seed if effect.seed is not None else self.rng.randrange(1, 2**31)
            return [pg.Drawn(seed, now_ms())]
        if isinstance(effect, pg.SeatTable):
            self.screen.still()
            self.screen.heard(effect.heard)
            game = effect.session.state.game_id
            revision = saves.revision_of(self.stored(saves.key(game))) if effect.saved else None
            return [pg.NewTable(effect.session, revision)]
        if isinstance(effect, pg.MakeCurrent):
            return self.keeper.make_current(effect.game)
        if isinstance(effect, pg.Load):
            key = effect.key if effect.key is not None else saves.key(self.keeper.current_game())
            return [pg.LoadDone(self.load(key), effect.claim)]
        if isinstance(effect, pg.Claim):
            game, steal = effect.game, effect.steal
            self.locks.hold(game, steal, lambda got: self.perform(pg.Claimed(game, got, steal)))
        elif isinstance(effect, pg.Release):
            self.locks.release(effect.game)
        elif isinstance(effect, pg.Forget):
            self.forget(effect.key)
        elif isinstance(effect, pg.Then):
            return [effect.action]
        return []

    def review_message(self, msg: dict[str, Any]) -> None:
        """A command from the review's dialog: a step, a hand chosen, close. An
        error closes the review and says so: it never reaches the page's guard,
        which would set the saved game aside."""
        self.reviewed(ReviewCommand(str(msg.get("cmd")), msg.get("keep"),
                                    None if msg.get("value") is None else str(msg["value"])))

    def reviewed(self, action: pg.PageAction) -> None:
        try:
            self.dispatch(action)
        except Exception as e:
            traceback.print_exception(e)
            self.depth = 0
            self.guarded(lambda: self.dispatch(pg.ReviewFailed(f"{type(e).__name__}: {e}")))

    async def autoplay(self, run: int) -> None:
        await asyncio.sleep(AUTOPLAY_SECONDS)
        self.reviewed(pg.ReviewTick(run))

    def focus(self, selector: str) -> None:
        self.after.append(lambda: self.screen.focus(selector))

    @property
    def message(self) -> str:  # worded in the page's language now
        return message_text(self.session, self.t) if self.session is not None else ""

    # -- the bots -------------------------------------------------------------------------

    def schedule(self) -> None:
        """Let the bot on turn think, if this tab plays the game and nothing
        holds it; whatever was thinking before is dropped (a new token)."""
        self.dispatch(pg.BotsAnew())

    def current(self, token: int) -> Session | None:
        """The session, if `token` is still its own (else None: drop the work)."""
        s = self.session
        return s if s is not None and s.token == token else None

    def error(self, text: str) -> None:
        self.screen.error(text)

    # -- saving, and one tab per game -----------------------------------------------------

    def keep(self, key: str, value: str) -> bool:
        failed = self.keeper.keep(key, value)
        self.tell(refused(failed))
        return failed is None

    def stored(self, key: str) -> str | None:
        return self.keeper.get(key)

    def forget(self, key: str) -> None:
        self.keeper.store.remove(key)

    def persist(self) -> None:
        mine, told = self.keeper.persist(self.page)
        self.tell(told)
        if not mine and self.session is not None:
            self.lost_to_another_tab(self.session.save["game"])

    def update_save(self, **changes: Any) -> None:
        self.dispatch(pg.SaveUpdated(changes))

    def lost_to_another_tab(self, game: str) -> None:
        """Another tab plays `game` now: this one stops its bots and writes
        nothing more, and says so (with "Play here")."""
        self.dispatch(pg.PlayedElsewhere(game))

    def load(self, key: str) -> bool:
        """The save under `key` on the table (a damaged one reported)."""
        told = self.keeper.load(self.page, key)
        self.tell(told)
        loaded = any(isinstance(a, pg.SaveLoaded) for a in told)
        if loaded:
            self.screen.still()
            self.screen.heard(len(self.save["log"]))  # the story so far was read before
            record_game(self)  # recorded once, by its id, if it ended unrecorded
        return loaded

    def write_stats(self, how: sp.WriteStats) -> None:
        """The statistics changed by `how` (online play's count of a guest's game)."""
        self.tell(self.keeper.write_stats(self.page, how))

    # -- the game on the table ------------------------------------------------------------

    def put_on_table(self, table: Table, state: State, save: dict[str, Any],
                     coach: Coach | None = None, heard: int = 0,
                     message: Message | None = None) -> None:
        """A new game on the table (game.web.model.page's `PutOnTable`)."""
        self.dispatch(pg.PutOnTable(table, state, save, coach, heard, message))

    # -- start-up and the crash guard ----------------------------------------------------

    def resume(self) -> None:
        """Put back the game of the link (`?game=`, or the last game played for a
        `?deal=`), else the one last on the table; then a linked deal."""
        self.tell(self.keeper.migrate(self.page))
        if self.stored(saves.LEGACY_KEY):  # a save naming no game of ours: refused and kept
            self.load(saves.LEGACY_KEY)
        elif self.link.game is not None or self.link.deal is not None:
            self.load(saves.key(self.page.setup["game"]))
        else:
            self.load(saves.key(self.keeper.current_game()))
        if self.state is not None:
            self.dispatch(pg.TakeHold(self.state.game_id))
        if self.link.deal is not None:
            self.dispatch(pg.DealLinked(self.link.deal))

    def start(self, pending: str | None, form: dict[str, str] | None = None) -> None:
        """The page is up: the saved game back, then what the link or an
        early click asked for ("lesson", "start"), else the bots go on.
        `form`: what was chosen on the start screen drawn before Python was up."""
        def update() -> None:
            self.resume()
            ol.resume(self, self.link.join, self.link.watch)
            if self.session is None and form:
                self.dispatch(pg.SetupChanged(form))
            self.screen.forget_link()
            if self.page.broken is None and (self.link.lesson or pending == "lesson"):
                self.dispatch(pg.StartLesson())  # (a broken save is reported first)
            elif pending == "start":
                self.dispatch(pg.NewGame())
            else:
                self.schedule()
        self.change(update)

    def guarded(self, update: Callable[[], None]) -> None:
        """Any unexpected error ends in `crashed`, never a traceback on screen."""
        try:
            update()
        except Exception as e:  # the page-level guard: keep the save, say so, carry on
            self.depth = 0
            self.crashed(e)

    def crashed(self, error: Exception) -> None:
        """The page-level guard: an unexpected error keeps the save aside and
        shows the start screen with a message, never a traceback."""
        try:
            self.screen.error("".join(traceback.format_exception(error)))
            s = self.session
            key = saves.key(s.save.get("game", "") if s is not None else "")
            # A lesson has no save: the one under its key is the real game's, kept as it is.
            text = self.stored(key) if s is not None and s.coach is None else None
            reason = self.t("notice.crash", reason=f"{type(error).__name__}: {error}"[:300])
            told = self.keeper.set_aside(self.page, text, reason, key) if text else []
            aside = next((a.broken for a in told if isinstance(a, pg.SetAside)), None)
            self.after, self.depth = [], 0
            self.run([*[a for a in told if not isinstance(a, pg.SetAside)],
                      pg.Crashed(aside, type(error).__name__)])
            self.redraw()
        except Exception as again:  # the last line of defence: plain text, no Python
            self.screen.error(f"{type(again).__name__}: {again}")

    # -- commands (`data-cmd`): routed by ROUTES, the table at the end of this module ------

    def command(self, cmd: str, data: dict[str, str]) -> None:
        """A command by its route; one the page does not know changes nothing."""
        route = ROUTES.get(cmd, _unknown)
        self.guarded(lambda: self.change(lambda: route(self, data)))

    def perform(self, action: pg.PageAction) -> None:
        """An action from outside the router (a file read, another tab's write, the locks)."""
        self.guarded(lambda: self.dispatch(action))

    def file_limit(self, purpose: str) -> int:
        """Bytes: a bigger file is refused before it is read."""
        return sp.MAX_FILE if purpose == "stats" else MAX_BYTES


# -- the runtime's statistics and files ------------------------------------------------

def record_game(ctrl: Controller) -> None:
    """Record the game on the table if it is over and counts (once: by its id)."""
    s = ctrl.session
    if s is None or not s.state.over or s.coach is not None:  # a lesson: never counted
        return
    try:
        if not st.valid_id(s.save.get("id")):
            # A save from before game ids gets one, kept in the save, so
            # that a reload at its end screen counts it once.
            ctrl.update_save(id=st.new_game_id(s.save["transcript"].get("seed", 0),
                                               now_ms()))
            ctrl.persist()
        game = st.finished_game(ctrl.save, s.state, now_ms())
        if game is not None:
            ctrl.tell(ctrl.keeper.write_stats(ctrl.page, sp.WriteStats("record", game=game)))
    except Exception as e:  # the statistics must never take the game down
        ctrl.screen.error(f"statistics: {type(e).__name__}: {e}")


def download(ctrl: Controller) -> None:
    """The game on the table as a transcript file (nothing leaves the browser)."""
    save = ctrl.save
    if ctrl.state is None or not save:
        return
    name = download_name(save["game"], save["transcript"]["seed"], time.strftime("%Y-%m-%d"))
    ctrl.screen.download(name, transcript_text(save))


class Panels:
    """What the views ask of online play (game.web.draw.views.Panels), drawn from
    `Page.online` by online play's modules: they are here whenever it is set
    (and never imported while it is not: they may not be fetched yet)."""

    def online_html(self, page: Page) -> Html:
        if page.online is None:
            return EMPTY
        from game.web.online import guest as online_guest, host as online_host  # (online play's part, online.zip)

        if online_host.hosting(page):
            return online_host.screen_html(page)
        return online_guest.screen_html(page)

    def online_side(self, page: Page, log: WordedLog | None = None) -> Html:
        """A guest's log at the table; else how to play the game of the table."""
        if page.online is None:
            return EMPTY
        from game.web.online import guest as online_guest  # (online play's part, online.zip)

        return online_guest.side_html(page, log)

    def online_bar(self, page: Page) -> Html:
        if page.online is None:
            return EMPTY
        from game.web.online import host as online_host  # (online play's part, online.zip)

        return online_host.bar(page)

    def online_table(self, page: Page) -> GuestParts | None:
        """A guest's table's tools, dialog, news and hint (the host's table is the page's own)."""
        if page.online is None:
            return None
        from game.web.online import guest as online_guest  # (online play's part, online.zip)

        return online_guest.parts(page)


# -- the router: every command (`data-cmd`) of the page, by name, to what it does -------

Route = Callable[[Controller, dict[str, str]], None]


def _unknown(ctrl: Controller, data: dict[str, str]) -> None:
    """A command of another version of the page: nothing happens."""


def _table(make: Callable[[], ts.Action]) -> Route:
    """A table action (refused while another tab plays the game)."""
    return lambda ctrl, _: ctrl.on_table(make())


def _page(make: Callable[[dict[str, str]], pg.PageAction]) -> Route:
    return lambda ctrl, data: ctrl.dispatch(make(data))


def _back_from_stats(route: Route) -> Route:
    """`route`, once the statistics page (if open) is back at the table it was opened over."""
    def run(ctrl: Controller, data: dict[str, str]) -> None:
        if ctrl.page.view == "stats":
            ctrl.dispatch(pg.CloseStats())
        route(ctrl, data)
    return run


def _leaving_stats(make: Callable[[dict[str, str]], pg.PageAction]) -> Route:
    """A page action that leaves the statistics page (if open) first."""
    def run(ctrl: Controller, data: dict[str, str]) -> None:
        if ctrl.page.view == "stats":
            ctrl.dispatch(pg.LeaveStats())
        ctrl.dispatch(make(data))
    return run


def _confirm(ctrl: Controller, data: dict[str, str]) -> None:
    """The parts picked, confirmed: at a guest's table the host decides."""
    if ctrl.page.view == "online":
        ROUTES["online-confirm"](ctrl, data)
    else:
        ctrl.on_table(ts.Confirm())


def _online(make: Callable[[ol.OnlineDrivers, dict[str, str]], ol.OnlineAct]) -> Route:
    """Its action, once online play's modules are here (fetched the first time:
    game.web.runtime.online_door's `ready`)."""
    return lambda ctrl, data: ol.ready(ctrl, lambda: ctrl.run([ctrl.online.stamp(
        make(ctrl.online, data))]))


def _one_table(*tables: dict[str, Route]) -> dict[str, Route]:
    """The tables as one; a name in two of them is a mistake, caught at import."""
    routes: dict[str, Route] = {}
    for table in tables:
        twice = routes.keys() & table.keys()
        if twice:
            raise ValueError(f"commands routed twice: {sorted(twice)}")
        routes.update(table)
    return routes


# The page's one routing table: each command to a table action, a page action
# (the statistics' and the file panel's among them: their own tables), or
# online play's command (its own table).
ROUTES: dict[str, Route] = _one_table({
    "confirm": _confirm, "hint": _table(ts.HintAsked), "undo": _table(ts.Undo),
    "coach-next": _table(ts.CoachNext), "ack-hand": _table(ts.AckHand),
    "handover-ready": _table(ts.TakeOver), "close-final": _table(ts.CloseFinal),
}, {
    "new": _page(lambda _: pg.OpenSetup()),
    "resume": _back_from_stats(_page(lambda _: pg.BackToTable())),
    "panel": _back_from_stats(_page(lambda d: pg.ShowPanel(d.get("panel", "log")))),
    "keys": _page(lambda _: pg.OpenOverlay("keys")),
    "keys-close": _page(lambda _: pg.CloseOverlay("keys")),
    "dismiss": _page(lambda _: pg.Dismiss("notices")),
    "dismiss-broken": _page(lambda _: pg.Dismiss("broken")),
    "dismiss-unsaved": _page(lambda _: pg.Dismiss("unsaved")),
    "deal-keep": _page(lambda _: pg.KeepDeal()),
    "stats": _page(lambda _: pg.ShowStats()), "stats-close": _page(lambda _: pg.CloseStats()),
    "analyse": _page(lambda _: pg.OpenReview(analyse=True)),
}, {
    "start": _leaving_stats(lambda _: pg.NewGame()),
    "switch": _leaving_stats(lambda d: pg.SwitchGame(d.get("game", ""))),
    "lesson": _leaving_stats(lambda _: pg.StartLesson()),
    "lesson-done": _leaving_stats(lambda _: pg.EndLesson()),
    "review": _leaving_stats(lambda _: pg.OpenReview()),
    "play-here": _leaving_stats(lambda _: pg.PlayHere()),
    "deal-replace": _leaving_stats(lambda _: pg.TakeDeal()),
    "restart": _leaving_stats(lambda _: pg.DealAgain()),
    "discard-broken": _leaving_stats(lambda _: pg.DiscardBroken()),
}, {name: _page(make) for name, make in sp.COMMANDS.items()},
   {name: _page(make) for name, make in fp.COMMANDS.items()},
   {name: _online(make) for name, make in ol.COMMANDS.items()})
