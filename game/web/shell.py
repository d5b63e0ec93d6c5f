"""The shared shell of the site: start screen, saves, languages, log, scores,
the bot loop and the click dispatcher. Game specifics live in game.web.tables.

The engine state is the single source of truth: every screen is re-rendered
from `state.observation(seat of the person at the screen)`, and every click
goes through `state.apply`, so an illegal click changes nothing.
"""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import json
import random
import time
import traceback
from typing import Any, Callable
from urllib.parse import parse_qsl

from pyodide.ffi import create_proxy
from pyscript import document, window

from game import GAMES
from game.bots.base import Bot
from game.core.state import Player, State
from game.web import handover, saves
from game.web.dom.focus import (ARROWS, attr, focus, focus_area, focus_fallback,
                                focus_first, focus_key, move_focus, q, refocus, trap_tab,
                                try_focus)
from game.web.dom.live import Heard, announce, announce_coach, hush
from game.web.dom.storage import BrowserStorage, open_storage
from game.web.dom.tabs import TabLocks
from game.web import session as table_session
from game.web.choice import Choice, single
from game.web.coach import Coach
from game.web.file_panel import FilePanel
from game.web.html import EMPTY, Html, html, join, set_html
from game.web.i18n import Translator, pick_language
from game.web.inputs import BadNumber, read_int
from game.web.motion import Motion
from game.web.start_screen import SPEEDS, help_html, menu_html, rules_href, say, setup_html
from game.web.stats import new_game_id
from game.web.stats_page import StatsPage, now_ms
from game.web.storage import FailureKind, MemoryStorage, Storage, write
from game.web.tables import Table, TableContext, event_lines, renderer
from game.web.session import Session

JsObject = Any  # a JavaScript object seen through Pyodide (a JsProxy): untyped for mypy

STAY_IN_ADDRESS = {"lang", "speed", "bench"}  # what a reload may read again
SLICE = 0.04  # seconds of bot search between two yields to the browser
MAX_THINK = 3.0  # seconds: the expert bot's budget


def guarded(method: Callable[..., Any]) -> Callable[..., Any]:
    """Any unexpected error in a handler ends in `App.crashed`, never a traceback on screen."""
    @functools.wraps(method)
    def run(self: "App", *args: Any) -> Any:
        try:
            return method(self, *args)
        except Exception as e:  # the page-level guard: keep the save, say so, carry on
            self.crashed(e)
            return None
    return run


def guard(app: "App", fn: Callable[..., Any]) -> Callable[..., Any]:
    """`fn` called back by the browser (a lock granted): an error in it ends in
    `App.crashed`, like one in an event handler."""
    def run(*args: Any) -> Any:
        try:
            return fn(*args)
        except Exception as e:
            app.crashed(e)
            return None
    return run


def _tab_storage() -> Storage:
    """This tab's own store (which game it shows): kept across its reloads only."""
    try:
        return BrowserStorage(window.sessionStorage)
    except Exception:
        return MemoryStorage()


class App:
    def __init__(self) -> None:
        self.store: Storage
        self.store, blocked = open_storage(window)
        self.tab_store = _tab_storage()
        # Why the browser keeps nothing now ("full", "blocked"), told once; None while it does.
        self.store_problem: FailureKind | None = blocked
        self.store_problem_read = False  # its notice closed (the end of a game offers the file)
        self.prefs = self._load_prefs()
        self.notices: list[tuple[str, dict[str, str]]] = []  # (catalog key, its words)
        params = parse_qsl(str(window.location.search).lstrip("?"), keep_blank_values=True)
        query = dict(params)
        self.deal, bad_params = self._read_params(params)
        lang = pick_language(query.get("lang"), self.prefs.get("lang"),
                             str(window.navigator.language or ""))
        if query.get("speed") in SPEEDS:
            self.prefs["speed"] = query["speed"]
        self.bench = "bench" in query  # benchmarks/think.py asks for its hook
        self.t = Translator(lang)
        if bad_params:
            self.notices.append(("notice.unknown_params", {"names": ", ".join(bad_params)}))
        # The game on the table (game.web.session), changed only by its reducer.
        self.session: Session | None = None
        self._bots: dict[tuple[str, str], Bot] = {}  # made once per (lasting player, bot)
        self.panel = "log"
        # A save that failed its checks: (where it is kept, why, its text). Kept
        # aside under a `jhg.broken.*` key, or, with storage full, still under its
        # own key, which nothing writes over until the player chooses to.
        self.broken: tuple[str, str, str] | None = None
        self.broken_in_place = False
        # The game this tab plays (holds its lock: game.web.dom.tabs); the one
        # on its table that another tab plays; the revision of the save it holds.
        self.tab_owner: str | None = None
        self.elsewhere: str | None = None
        self.revision = 0
        self.unwritten_table = False  # a game put on the table and not yet written
        self.tabs = TabLocks(window, self.lost_to_another_tab)
        self.asked_deal: int | None = None  # a deal link's deal, asked about before replacing
        self.heard = Heard()  # what the live region has read out
        self.motion = Motion(window)
        self._keys_opener: JsObject = None  # where the focus was when the keys panel opened
        self.setup_error = ""
        self.files = FilePanel(self)  # download this game, open a game file
        self.setup_values: dict[str, str] = {"game": self.playable()[0]}
        last = self.prefs.get("setup")
        if isinstance(last, dict):  # the choices of the last game, except its seed
            self.setup_values.update({str(k): str(v) for k, v in last.items() if k != "seed"})
        self.show_setup = False
        self.asked_game = query.get("game") in self.playable()  # e.g. from a rules page
        self.asked_lesson = query.get("lesson") in ("", "1")
        if self.asked_game:
            self.setup_values["game"] = query["game"]
        self.stats = StatsPage(self)  # the Statistics page, and each finished game recorded

    @staticmethod
    def forget_link() -> None:
        """Once read, the link's game, deal and lesson leave the address, so a
        reload resumes the game in progress instead of acting on the link
        again (the language and pace, which replace nothing, stay)."""
        params = parse_qsl(str(window.location.search).lstrip("?"), keep_blank_values=True)
        kept = [(k, v) for k, v in params if k in STAY_IN_ADDRESS]
        if kept != params:
            query = "&".join(f"{k}={window.encodeURIComponent(v)}" for k, v in kept)
            window.history.replaceState(window.history.state, "",
                                        str(window.location.pathname) + (f"?{query}" if query else "")
                                        + str(window.location.hash))

    def _read_params(self, params: list[tuple[str, str]]) -> tuple[int | None, list[str]]:
        """The `?deal=` number (or None), and every parameter ignored, all
        reported alike: unknown names, and known ones with a value of no use."""
        def deal(value: str) -> bool:
            try:
                read_int(value, "deal", hi=2**31 - 1)
                return True
            except BadNumber:
                return False

        valid: dict[str, Callable[[str], bool]] = {
            "game": lambda v: v in self.playable(),
            # a language of ours ('fr-CA' counts) when no fallback decides for it
            "lang": lambda v: pick_language(v, "de") == pick_language(v, "fr"),
            "speed": lambda v: v in SPEEDS,
            "deal": deal,
            "bench": lambda v: True,
            "lesson": lambda v: v in ("", "1"),  # the rules pages' "Learn by playing"
        }
        bad = [name for name in dict.fromkeys(k for k, _ in params) if name not in valid]
        bad += [f"{k}={v:.20}" for k, v in params if k in valid and not valid[k](v)]
        dealt = dict(params).get("deal", "")
        return (read_int(dealt, "deal") if deal(dealt) else None), bad

    # -- the game on the table: one value (game.web.session), its effects here --

    @property
    def state(self) -> State | None:
        return self.session.state if self.session is not None else None

    @property
    def save(self) -> dict[str, Any]:
        return self.session.save if self.session is not None else {}

    @property
    def table(self) -> Table | None:
        return self.session.table if self.session is not None else None

    @property
    def coach(self) -> Coach | None:
        return self.session.coach if self.session is not None else None

    @property
    def message(self) -> str:
        return self.session.message if self.session is not None else ""

    def dispatch(self, action: table_session.Action) -> None:
        """The one way the game on the table changes: its reducer, then the
        effects it asks for, in order."""
        if self.session is None:
            return
        self.session, effects = table_session.reduce(self.session, action, self.t)
        for effect in effects:
            self.carry_out(effect)

    def carry_out(self, effect: table_session.Effect) -> None:
        ts = table_session
        if isinstance(effect, ts.Moved):
            self.motion.note(effect.after.game_id, effect.after.events(effect.seat), effect.seat)
        elif isinstance(effect, ts.StopMotion):
            self.motion.reset()
        elif isinstance(effect, ts.Persist):
            self.persist()
        elif isinstance(effect, ts.GameOver):
            self.stats.game_over()
        elif isinstance(effect, ts.Flash):
            self.flash_message()
        elif isinstance(effect, ts.Redraw):
            self.render_all() if effect.whole else self.render_screen()
        elif isinstance(effect, ts.FocusCoach):
            self._focus_coach()
        elif isinstance(effect, ts.Think):
            self.schedule()
        elif isinstance(effect, ts.ThinkHint) and self.session is not None:
            asyncio.ensure_future(self.hint_turn(self.session))

    def halt(self) -> None:
        """Leave the table (the start screen, statistics, a panel): the bot's
        thinking and anything else in flight is dropped."""
        self.dispatch(table_session.Halt())

    def update_save(self, **changes: Any) -> None:
        """Change the save record of the game on the table (then persist it)."""
        if self.session is not None:
            self.session = self.session.with_save(**changes)

    # -- persistence --------------------------------------------------------

    def stored(self, key: str) -> str | None:
        return self.store.get(key)

    def keep(self, key: str, value: str) -> bool:
        """Keep `value`; if the browser refuses, play on and say why, once
        (the notice offers the game's download: game.web.file_panel)."""
        failed = write(self.store, key, value)
        if failed is not None and self.store_problem is None:
            self.store_problem = failed
            self.render_notices()
        return failed is None

    def _load_prefs(self) -> dict[str, Any]:
        try:
            prefs = json.loads(self.stored(saves.PREFS_KEY) or "{}")
            return prefs if isinstance(prefs, dict) else {}
        except ValueError:
            return {}

    def _save_prefs(self) -> None:
        self.keep(saves.PREFS_KEY, json.dumps(self.prefs))

    def persist(self) -> None:
        """Write the game on the table, unless another tab plays it: never over
        a newer save than the one this tab holds (its revision)."""
        if self.state is None or self.coach is not None:  # a lesson is never saved
            return
        game = self.save["game"]
        if self.tab_owner != game:
            return  # written once this tab holds the game (or never: another tab plays it)
        stored = saves.revision_of(self.stored(saves.key(game)))
        if stored > self.revision:  # another tab wrote it (a browser without Web Locks)
            self.lost_to_another_tab(game)
            return
        self.revision = stored + 1
        record = {**self.save, "revision": self.revision, "state": self.state.to_json()}
        self.keep(saves.key(game), saves.dump(record))
        self.unwritten_table = False

    def current_game(self) -> str:
        """The game this tab showed last (if it is still saved), else the one
        last played in any tab."""
        mine = self.tab_store.get(saves.CURRENT_KEY)
        if mine and self.stored(saves.key(mine)):
            return mine
        return self.stored(saves.CURRENT_KEY) or ""

    def make_current(self, game: str) -> None:
        """The game this tab shows after a reload (its own); a new tab opens
        the one last played in any tab."""
        write(self.tab_store, saves.CURRENT_KEY, game)
        self.keep(saves.CURRENT_KEY, game)

    # -- one tab plays a game at a time (game.web.dom.tabs) ---------------------

    def claim(self, game: str, steal: bool = False) -> None:
        """Hold `game` for this tab, letting go of the one it held; once held,
        save what is on the table and let its bots play. Held by another
        tab: the table stays in view, read-only, with "Play here"."""
        if self.tab_owner is not None and self.tab_owner != game:
            self.tabs.release(self.tab_owner)
            self.tab_owner = None

        def done(held: bool) -> None:
            on_table = self.save.get("game") if self.state is not None else None
            if on_table != game or self.coach is not None:
                if held:  # the table moved on meanwhile
                    self.tabs.release(game)
                return
            if not held:
                self.lost_to_another_tab(game)
                return
            self.tab_owner, self.elsewhere = game, None
            if steal:  # the other tab's latest moves
                self.load_save(saves.key(game))
            elif self.unwritten_table:
                self.persist()  # a table this tab made (a deal, a file) and could not write yet
            self.render_all()
            self.schedule()

        self.tabs.hold(game, steal, guard(self, done))

    def lost_to_another_tab(self, game: str) -> None:
        """Another tab plays `game` now: this one stops its bots and writes
        nothing more, and says so (with "Play here")."""
        if self.tab_owner == game:
            self.tabs.release(game)
            self.tab_owner = None
        on_table = self.save.get("game") if self.state is not None else None
        if on_table != game:
            return
        self.elsewhere = game
        self.halt()
        self.render_all()

    def play_here(self) -> None:
        game = self.elsewhere
        if game is not None:
            self.claim(game, steal=True)

    def on_storage(self, evt: JsObject) -> None:
        """Another tab wrote a save: if it is this table's game and newer, that
        tab plays it now (browsers without Web Locks; a safety net with them)."""
        on_table = self.save.get("game") if self.state is not None else None
        if on_table is None or self.coach is not None or evt.key != saves.key(on_table):
            return
        value = evt.newValue
        if saves.revision_of(value if isinstance(value, str) else None) > self.revision:
            self.lost_to_another_tab(on_table)

    def resume(self) -> None:
        """Put back the game of the link (`?game=`, or the last game played for a
        `?deal=`), else the one last on the table; then a linked deal."""
        self._migrate()
        if self.stored(saves.LEGACY_KEY):  # a save naming no game of ours: refused and kept
            self.load_save(saves.LEGACY_KEY)
        elif self.asked_game or self.deal is not None:
            self.load_save(saves.key(self.setup_values["game"]))
        else:
            self.load_save(saves.key(self.current_game()))
        if self.state is not None:
            self.claim(self.state.game_id)
        if self.deal is not None:
            self._open_deal(self.deal)

    def _migrate(self) -> None:
        """The one save of every game (before each game kept its own) moves to
        its game's key, kept aside instead if that game has a newer save."""
        text = self.stored(saves.LEGACY_KEY)
        game = saves.game_of(text) if text else None
        if text is None or game is None or self.store is None:
            return
        if self.stored(saves.key(game)) is not None:
            self._set_aside(text, "an older save of a game that has a newer one",
                            saves.LEGACY_KEY)
            return
        if self.keep(saves.key(game), text):  # only once it is copied
            self.make_current(game)
            self.store.remove(saves.LEGACY_KEY)

    def games_in_progress(self) -> list[str]:
        """The games with a save, in the start screen's order (not a damaged
        save left in its place: it cannot be continued)."""
        damaged = self.broken[0] if self.broken and self.broken_in_place else None
        return [g for g in self.playable()
                if self.stored(saves.key(g)) and saves.key(g) != damaged]

    def load_save(self, key: str) -> bool:
        """Put the save under `key` on the table; a save that fails its checks
        is kept aside and reported, never a crash."""
        text = self.stored(key)
        if not text:
            return False
        try:
            data, state = saves.load(text)
            table = renderer(data["game"])
        except saves.BrokenSave as e:
            self._set_aside(text, str(e), key)
            return False
        except Exception as e:  # never crash on a save
            self._set_aside(text, f"{type(e).__name__}: {e}", key)
            return False
        data["transcript"].setdefault("actions", [])
        data["transcript"].setdefault("seed", 0)
        token = self.session.token + 1 if self.session is not None else 0
        self.session = Session.start(table, state, data, token=token)
        self.revision = saves.revision_of(text)
        self.unwritten_table = False
        self.heard = Heard(events=len(data["log"]))  # the story so far was read before
        try:  # a save that loads but cannot be shown is broken too
            table.render(state.observation(self.my_seat()), self.ctx())
        except Exception as e:
            self.session = None
            self._set_aside(text, f"{type(e).__name__}: {e}", key)
            return False
        self.setup_values["game"] = state.game_id
        self.make_current(state.game_id)
        self.stats.game_over()  # recorded once, by its id, if it ended unrecorded
        return True

    def _open_deal(self, deal: int) -> None:
        """`?deal=N`: that deal of the game, resumed if it is the one in
        progress, dealt if none is; another deal in progress is never
        discarded: the start screen then offers deal N beside it."""
        self.setup_values["seed"] = str(deal)
        seed_field = q("#f-seed")
        if seed_field is not None:  # the start screen first.js drew, which new_game reads
            seed_field.value = str(deal)
        if self.state is None and not self.broken:  # a broken save is reported first
            self.new_game()
        elif self.state is not None and self.save["transcript"]["seed"] != deal:
            self.asked_deal = deal  # the game in progress stays, unless the player says

    def _set_aside(self, text: str, reason: str, key: str) -> None:
        """Keep a damaged save under a `jhg.broken.*` key, then free its own;
        where there is no room for a copy, it stays where it is (and in memory
        for its download) until the player chooses to discard it."""
        stamp = saves.BROKEN_PREFIX + time.strftime("%Y%m%dT%H%M%S")
        aside, n = stamp, 1
        while self.stored(aside) is not None:  # two set aside within a second: keep both
            aside, n = f"{stamp}-{n}", n + 1
        kept = write(self.store, aside, text) is None  # (its own notice says if it was not)
        if kept:
            self.store.remove(key)
        self.broken = (aside if kept else key, reason, text)
        self.broken_in_place = not kept
        self.show_setup = True

    def crashed(self, error: Exception) -> None:
        """The page-level guard: an unexpected error keeps the save aside and
        shows the start screen with a message, never a traceback."""
        try:
            window.console.error("".join(traceback.format_exception(error)))
            key = saves.key(self.save.get("game", ""))
            # A lesson has no save: the one under its key is the real game's, kept as it is.
            text = self.stored(key) if self.coach is None else None
            self.session = None  # its bots stop: nothing in flight finds it again
            reason = self.t("notice.crash", reason=f"{type(error).__name__}: {error}"[:300])
            if text:
                self._set_aside(text, reason, key)
            else:
                self.broken = None
                self.notices.append(("notice.crash", {"reason": type(error).__name__}))
            self.show_setup = True
            self.render_all()
        except Exception as again:  # the last line of defence: plain text, no Python
            window.console.error(f"{type(again).__name__}: {again}")

    # -- helpers ------------------------------------------------------------

    def playable(self) -> list[str]:
        return list(GAMES)

    @property
    def speed(self) -> float:
        return SPEEDS.get(self.prefs.get("speed", "normal"), SPEEDS["normal"])

    def live(self) -> Session:
        """The game on the table (asked only while there is one)."""
        if self.session is None:
            raise RuntimeError("no game on the table")
        return self.session

    def _game(self) -> tuple[State, Table]:
        """The state and the renderer of the game on the table."""
        return self.live().state, self.live().table

    def my_seat(self) -> Player:
        """The seat of the person at the screen, whose view the table shows."""
        return self.live().my_seat

    def at_screen(self) -> str:
        """The person whose view the table shows (pass-and-play: the last one who tapped)."""
        return self.live().at_screen

    def handover_due(self) -> str | None:
        """The person the device must go to now, or None (see game.web.handover)."""
        if self.session is None or self.show_setup:
            return None
        return self.session.handover_due

    def ctx(self) -> TableContext:
        return self.live().context(self.t)

    def seen_log(self) -> list[dict[str, Any]]:
        """The log as the person at the screen may read it."""
        return handover.seen_by(self.save.get("log", []), self.at_screen())

    def choice(self) -> Choice:
        """The person's decision now, as sets of clickable parts."""
        return self.live().choice

    def human_to_act(self) -> bool:
        """Whether the person at the screen decides now."""
        return self.session is not None and self.session.human_to_act

    def waiting_for_ack(self) -> bool:
        return self.session is not None and self.session.waiting_for_ack

    # -- rendering ----------------------------------------------------------

    def game_id(self) -> str | None:
        """The game on the table, or the one chosen on the start screen."""
        if self.state is not None and not self.show_setup:
            return self.state.game_id
        return self.setup_values.get("game")

    def say(self, key: str, **kw: Any) -> str:
        """A shell text in the current game's own words where it has them
        (`<game id>/<key>` in its catalog: "Next deal" rather than "Next hand")."""
        return say(self.t, self.game_id(), key, **kw)

    def render_all(self) -> None:
        was = focus_area()
        document.documentElement.lang = self.t.lang
        document.title = self.say("app.title")
        self.render_menu()
        self.render_table_info()
        self.render_notices()
        self.render_screen()
        self.render_side()
        self.render_modal()
        body = document.body
        body.dataset.lang = self.t.lang
        body.dataset.actions = str(len(self.save.get("transcript", {}).get("actions", [])))
        body.dataset.lesson = self.coach.lesson.game if self.coach is not None else ""
        body.dataset.toAct = ("none" if self.state is None else "over" if self.state.over
                              else "handover" if self.handover_due()
                              else "me" if self.human_to_act() else "bot")
        self._keep_focus(was)

    def render_menu(self) -> None:
        game_buttons = EMPTY
        if self.state is not None:
            game_buttons = join(
                html('<button type="button" data-cmd="panel" data-panel="{}">{}</button>',
                     p, self.say("menu." + p)) for p in ("log", "last", "scores"))
        q("#brand").textContent = self.say("app.title")
        set_html(q("#menu"), menu_html(self.t, self.prefs.get("speed", "normal"), game_buttons))

    def render_table_info(self) -> None:
        """In the header, at the table: the deal number as a link that deals it
        again (`?game=…&deal=N`), and the illustrated rules of the game."""
        info = q("#table-info")
        if info is None:
            return
        if self.state is None or self.show_setup:
            set_html(info, EMPTY)
            return
        game, seed = self.state.game_id, self.save["transcript"]["seed"]
        set_html(info, html(
            '<a id="deal-link" href="?game={game}&amp;deal={seed}" title="{title}">{deal}</a>'
            ' · <a id="rules-link" href="{rules}" target="_blank" rel="noopener">{rules_word}'
            '</a>', game=game, seed=str(seed), title=self.t("table.deal_title"),
            deal=self.say("table.deal", n=seed), rules=rules_href(self.t, game),
            rules_word=self.t("table.rules")))

    def render_notices(self) -> None:
        t = self.t
        out = []
        for key, kw in self.notices:
            out.append(html('<div class="notice" role="status">{}<button type="button" '
                            'data-cmd="dismiss" aria-label="×">×</button></div>', t(key, **kw)))
        if self.broken:
            _, reason, text = self.broken
            href = "data:application/json;charset=utf-8," + str(window.encodeURIComponent(text))
            words = "notice.broken_in_place" if self.broken_in_place else "notice.broken"
            discard = EMPTY if not self.broken_in_place else html(
                ' <button type="button" data-cmd="discard-broken" id="discard-broken">{}'
                '</button>', t("notice.discard"))
            out.append(html('<div class="notice broken" role="alert" id="broken-save">{} '
                            '<a download="broken-save.json" href="{}">{}</a>{}'
                            '<button type="button" data-cmd="dismiss-broken" aria-label="×">×'
                            '</button></div>', t(words, reason=reason), href,
                            t("notice.download"), discard))
        out.append(self.keeping_html())
        notices = q("#notices")
        if notices is not None:
            set_html(notices, join(out))

    def keeping_html(self) -> Html:
        """What stops the game being kept: another tab plays it (with "Play
        here"), or the browser keeps nothing (with the game's download)."""
        t = self.t
        game = self.state.game_id if self.state is not None and self.coach is None else None
        if game is not None and self.elsewhere == game:
            return html('<div class="notice elsewhere" role="alert" id="elsewhere">{} '
                        '<button type="button" class="primary" data-cmd="play-here" '
                        'id="play-here">{}</button></div>',
                        t("notice.elsewhere"), t("notice.play_here"))
        if self.store_problem is None or self.store_problem_read:
            return EMPTY
        download = EMPTY if game is None else html(
            ' <button type="button" data-cmd="file-download" id="download-unsaved">{}</button>',
            t("file.download"))
        return html('<div class="notice unsaved" role="alert" id="unsaved">{}{}'
                    '<button type="button" data-cmd="dismiss-unsaved" aria-label="×">×</button>'
                    '</div>', t("notice.unsaved_" + self.store_problem), download)

    def render_screen(self) -> None:
        if self.stats.open:
            set_html(q("#screen"), self.stats.page_html())
            document.body.dataset.view = "stats"
            return
        if self.state is None or self.show_setup:
            self.motion.reset()  # nothing moves on the start screen, nor after it
            set_html(q("#screen"), self.setup_html())
            document.body.dataset.view = "setup"
            return
        if self.render_handover():
            return
        document.body.dataset.view = "table"
        focus = focus_key()
        state, table = self._game()
        obs = state.observation(self.my_seat())
        drawn = table.render(obs, self.ctx())
        # The page's heading: the game's name, for screen readers (the bar shows it).
        drawn = html('<h1 class="sr">{}</h1>{}', self.say("app.title"), drawn)
        screen = q("#screen")
        self.motion.before(screen)
        set_html(screen, html(
            '{}<div class="tools">{}{}{}</div>'
            '<div id="message" class="message" role="alert" aria-live="assertive">{}</div>',
            drawn, self.undo_html(), self.hint_html(), self.review_html(), self.message))
        self.motion.after(screen)  # a picture over the new table, which takes clicks already
        self.mark_hint()
        refocus(focus)
        self.announce()

    def render_handover(self) -> bool:
        """While the device goes to another person: only the hand-over panel,
        no card of any hand on the page (the live region is emptied too); with
        several people, a hand's summary over an empty table. True if drawn."""
        who = self.handover_due()
        if who is None:
            if self.waiting_for_ack() and handover.shared(self.save["setup"]):
                # Everyone reads the summary: the next deal's hand stays out of sight.
                self.motion.reset()
                document.body.dataset.view = "table"
                set_html(q("#screen"), html('<h1 class="sr">{}</h1>', self.say("app.title")))
                return True
            return False
        document.body.dataset.view = "handover"
        self.motion.reset()  # no card in flight, nor its copy, while the device changes hands
        set_html(q("#screen"), handover.panel_html(self.t, self.person_name(who)))
        hush(self.heard)
        if focus_area() in ("screen", "body", "modal"):
            focus(q("#handover-ready"))
        return True

    def person_name(self, who: str) -> str:
        """A person's name, else "Player n" in the page's language."""
        named = handover.people(self.save["setup"])
        return named.get(who) or self.t("setup.player", n=list(named).index(who) + 1)

    def setup_html(self) -> Html:
        if self.setup_values.get("game") not in self.playable():
            self.setup_values["game"] = self.playable()[0]
        return setup_html(self.t, self.playable(), self.setup_values,
                          resume=self.state is not None, error=self.setup_error,
                          others=self._other_games_html())

    def _other_games_html(self) -> Html:
        """A button back to each other game in progress (one save per game)."""
        on_table = self.state.game_id if self.state is not None else None
        return join(html('<button type="button" data-cmd="switch" data-game="{}" '
                         'class="secondary">{}</button>', g,
                         self.t("setup.continue", game=self.t("game." + g)))
                    for g in self.games_in_progress() if g != on_table)

    def render_side(self) -> None:
        side = q("#side")
        if self.stats.open:
            set_html(side, html('<div class="help"><p>{}</p></div>', self.t("stats.help")))
            return
        if self.state is None or self.show_setup:
            set_html(side, help_html(self.t, str(self.game_id())))
            return
        if self.handover_due():  # nothing of the game until the next person taps
            set_html(side, EMPTY)
            return
        tabs = join(
            html('<button type="button" role="tab" data-cmd="panel" data-panel="{}" '
                 'aria-selected="{}">{}</button>', p, "true" if p == self.panel else "false",
                 self.say("menu." + p)) for p in ("log", "last", "scores"))
        state, table = self._game()
        obs = state.observation(self.my_seat())
        ctx = self.ctx()
        if self.panel == "scores":
            body = table.score_sheet(obs, ctx)
        elif self.panel == "last":
            body = table.last_trick(obs, ctx)
        else:
            lines = event_lines(table, self.seen_log()[-150:], ctx)
            # It scrolls: keyboard users reach it (tabindex) to scroll it back.
            body = html('<ol class="log" id="log" tabindex="0" aria-label="{}">{}</ol>',
                        self.say("menu.log"), join(html("<li>{}</li>", x) for x in lines))
        # A lesson's coach heads the side panel: beside the table on a wide
        # screen, right under the person's hand on a phone.
        set_html(side, html('{}<div class="tabs" role="tablist">{}</div>{}'
                            '<div class="panel" id="panel-{}">{}</div>{}', self.coach_html(obs),
                            tabs, self.stats.side_button(), self.panel, body,
                            self.files.side_buttons()))
        announce_coach(self.heard)
        log = q("#log")
        if log is not None:
            log.scrollTop = log.scrollHeight

    def render_modal(self) -> None:
        modal = q("#modal")
        t = self.t
        if self.state is None or self.show_setup:
            modal.hidden = True
            return
        if self.asked_deal is not None:
            deal = self.say("table.deal", n=self.asked_deal)
            self.show_dialog(modal, html('<h2>{}</h2><p>{}</p>', t("deal.replace_title"),
                                         t("deal.replace", deal=deal)),
                             html('<button type="button" class="primary" data-cmd="deal-keep" '
                                  'id="deal-keep">{}</button><button type="button" '
                                  'data-cmd="deal-replace" id="deal-replace">{}</button>',
                                  t("deal.keep"), deal))
            return
        if self.handover_due():  # a summary read before stays out of the page, too
            set_html(modal, EMPTY)
            modal.hidden = True
            return
        state, table = self._game()
        obs = state.observation(self.my_seat())
        ctx = self.ctx()
        # Review: the hand just finished move by move (game.web.review).
        review = html('<button type="button" data-cmd="review" id="review-open">{}</button>',
                      t("review.button"))
        if self.coach is not None and (state.over or self.waiting_for_ack()):
            body, buttons = self.lesson_end_html(obs)
        elif state.over and not self.save.get("closed_final"):
            body = table.final_summary(obs, ctx) + self.stats.final_note()
            buttons = html('<button type="button" class="primary" data-cmd="new">{}</button>'
                           '{}<button type="button" data-cmd="close-final">{}</button>',
                           t("menu.new"), join((review, self.files.final_button())),
                           t("modal.close"))
        elif self.waiting_for_ack():
            body = table.hand_summary(obs, ctx)
            buttons = html('<button type="button" class="primary" data-cmd="ack-hand" '
                           'id="next-hand">{}</button>{}', self.say("modal.next_hand"), review)
        else:
            modal.hidden = True
            return
        self.show_dialog(modal, body, buttons)

    @staticmethod
    def show_dialog(modal: JsObject, body: Html, buttons: Html) -> None:
        set_html(modal, html('<div class="sheet" role="dialog" aria-modal="true" '
                             'aria-labelledby="modal-title">{}<div class="buttons">{}</div></div>',
                             body, buttons))
        title = modal.querySelector("h2")  # each dialog opens with its title
        if title:
            title.id = "modal-title"
        modal.hidden = False

    # -- actions ------------------------------------------------------------

    def on_table(self, action: table_session.Action) -> None:
        """A decision of the person's (a card, a part, confirm, undo...), taken
        only at the table of a game this tab plays."""
        if self.session is None or self.show_setup:
            return
        if not self.plays_here():
            self.set_message(self.t("notice.elsewhere"))
            return
        self.dispatch(action)

    def human_action(self, action: str) -> None:
        self.on_table(table_session.Act(action))

    def pick(self, part: str) -> None:
        """A click on one part of a decision (a card, then a cell)."""
        self.on_table(table_session.Pick(part))

    def set_message(self, text: str) -> None:
        if self.session is not None:
            self.session = dataclasses.replace(self.session, message=text)
        self.flash_message()

    def overlay_opened(self, name: str) -> None:
        """The review's dialog opened over the page (game.web.dom.review_dialog's
        ReviewHost): halt() already holds the bots; nothing else to keep yet."""

    def overlay_closed(self, name: str) -> None:
        """The review's dialog closed: schedule() lets the bots go on."""

    def flash_message(self) -> None:
        el = q("#message")
        if el is not None:
            el.textContent = self.message
            el.classList.remove("flash")
            el.offsetWidth  # restart the CSS animation
            el.classList.add("flash")

    def schedule(self) -> None:
        """Let the bot on turn think, if this tab plays the game and nothing
        holds it; whatever was thinking before is dropped (a new token)."""
        session = self.session
        if session is None:
            return
        self.session = session = dataclasses.replace(session, token=session.token + 1)
        if (not session.bots_on_turn or self.show_setup or not self.plays_here()
                or self.asked_deal is not None):
            return
        asyncio.ensure_future(self.bot_turn(session.token))

    def plays_here(self) -> bool:
        """Whether this tab plays the game on its table (a lesson: always)."""
        return self.coach is not None or self.tab_owner == self.save.get("game")

    def current(self, token: int) -> Session | None:
        """The session, if `token` is still its own (else None: drop the work)."""
        session = self.session
        return session if session is not None and session.token == token else None

    async def bot_turn(self, token: int) -> None:
        try:
            await self._bot_turn(token)
        except Exception as e:  # the page-level guard, for the bot loop
            self.crashed(e)

    async def _bot_turn(self, token: int) -> None:
        s = self.live()
        state, table = s.state, s.table
        obs0 = state.observation(state.to_act)
        # Longer after a trick, so people see who took it.
        delay = self.speed * table.pause_factor(obs0)
        self.dispatch(table_session.BotThinks(token, table.thinking_seat(obs0)))
        await asyncio.sleep(delay)
        if self.current(token) is None:
            return
        try:
            action = await self._bot_choice(s, token)
        except Exception as e:  # a bot must never take the page down
            window.console.error(f"bot error: {type(e).__name__}: {e}")
            self.dispatch(table_session.BotFailed(token, f"{type(e).__name__}: {e}"))
            return
        if action is not None:
            self.dispatch(table_session.BotMoved(token, action))

    async def _bot_choice(self, s: Session, token: int) -> str | None:
        """The bot's action from its own observation (None: dropped meanwhile)."""
        state = s.state
        player = state.to_act
        key = str(state.identity(player))  # the save's bots are keyed by text (JSON keys)
        bot = self._bot(key)
        rng = random.Random(f"{s.save['transcript']['seed']}:{key}:{s.played}")
        obs, legal = state.observation(player), state.legal_actions()
        scripted = s.coach.lesson.expected(s.played) if s.coach is not None else None
        if scripted is not None:  # a lesson: the bots play the lesson's hand
            return scripted
        if hasattr(bot, "start") and len(legal) > 1:
            # A search bot thinks in short slices so the page stays responsive.
            search = bot.start(obs, rng)
            end = time.monotonic() + min(getattr(bot, "budget", 1.0), MAX_THINK)
            while not search.done(end):
                search.step(time.monotonic() + SLICE, end)
                await asyncio.sleep(0)
                if self.current(token) is None:
                    return None
            return str(search.best(legal))
        return str(bot.choose(obs, legal, rng))

    # -- hint: the 1 s search's choice for the person's decision ----------------

    def hint_html(self) -> Html:
        if not self.human_to_act() or self.waiting_for_ack() or self.coach is not None:
            return EMPTY
        h = self.live().fresh_hint
        t = self.t
        busy = h is not None and h.action is None
        text = t("hint.thinking") if busy else t("hint.says", what=h.words) if h else ""
        return html('<div class="hintbar"><button type="button" data-cmd="hint" id="hint" '
                    'title="{}" aria-busy="{}"{}>{}</button>'
                    '<span id="hint-text" role="status" data-action="{}">{}</span></div>',
                    t("hint.title"), str(busy).lower(), html(" disabled") if busy else EMPTY,
                    t("hint.button"), (h.action or "") if h else "", text)

    def mark_hint(self) -> None:
        """Highlight the suggested action (in a lesson, the coach's) through
        what the person clicks: its `data-act`, or each of its parts (a card and a cell)."""
        s = self.live()
        action = s.fresh_hint.action if s.fresh_hint is not None else None
        if s.coach is not None:
            action = None
            if s.human_to_act and not s.coach_waiting:
                action = s.coach.lesson.expected(s.played)
        if action is None:
            return
        parts = getattr(s.table, "parts", single)(action)
        for el in document.querySelectorAll("#screen [data-act], #screen [data-part]"):
            if attr(el, "data-act") == action or attr(el, "data-part") in parts:
                el.classList.add("hinted")

    # -- the keyboard panel: every shortcut, opened with "?" or its button ------

    def keys_panel(self, show: bool) -> None:
        """Open (in the current language) or close the list of shortcuts; on
        closing, the focus returns to where it was."""
        opening = show and not self.keys_open()
        panel = q("#keys")
        if panel is None:
            panel = document.createElement("div")
            panel.id, panel.className = "keys", "modal"
            document.body.append(panel)
        if not show:
            if not panel.hidden:
                panel.hidden = True
                back = self._keys_opener
                if back is None or not back.isConnected or not try_focus(back):
                    focus_fallback()
            return
        t = self.t
        undo = ("undo",) if self.state is not None and self.takebacks_allowed() else ()
        rows = join(html('<tr><th scope="row"><kbd>{}</kbd></th><td>{}</td></tr>',
                         t(f"keys.{k}.key"), self.say(f"keys.{k}"))
                    for k in ("tab", "first", "arrows", "act", "escape", *undo, "help", "review"))
        set_html(panel, html(
            '<div class="sheet" role="dialog" aria-modal="true" aria-labelledby="keys-title">'
            '<h2 id="keys-title">{title}</h2><table class="keys">{rows}</table>'
            '<div class="buttons"><button type="button" class="primary" data-cmd="keys-close">'
            '{close}</button></div></div>',
            title=t("keys.title"), rows=rows, close=t("keys.close")))
        if opening:
            active = document.activeElement
            self._keys_opener = None if active is None or not active else active
        panel.hidden = False
        focus(panel.querySelector("[data-cmd=keys-close]"))

    def keys_open(self) -> bool:
        panel = q("#keys")
        return panel is not None and not panel.hidden

    def on_keys_key(self, evt: JsObject) -> bool:
        """"?" opens or closes the panel (not while typing in a field); Escape
        and Tab stay in it while it is open. True if the key was the panel's."""
        key, el = str(evt.key), evt.target
        typing = str(el.tagName) in ("INPUT", "SELECT", "TEXTAREA")
        if key == "?" and not typing:
            evt.preventDefault()
            self.keys_panel(not self.keys_open())
            return True
        if not self.keys_open():
            return False
        if key == "Escape":
            self.keys_panel(False)
            return True
        if key == "Tab":
            trap_tab(evt)
            return True
        return key in ARROWS

    # -- announcements: every new event read out once, politely ----------------

    def announce(self) -> None:
        """Read out the table's news (game.web.dom.live), never a hidden card:
        the log holds each person's own view of the events."""
        s = self.session
        if s is None or self.handover_due():
            return  # read out to the next person once they have the device
        announce(self.heard, s.save.get("log", []),
                 lambda fresh: event_lines(s.table, handover.seen_by(fresh, s.at_screen),
                                           self.ctx()),
                 s.human_to_act and not s.waiting_for_ack)

    def _keep_focus(self, was: str | None) -> None:
        """After a whole redraw: an open summary takes the focus (it is a modal
        dialog); a focus the redraw dropped returns to the table, or to the
        side panel's open tab. A focus in the menu or the side panel is left there."""
        if was is None or self.state is None or self.show_setup:
            return
        if was == "side":
            tab = q("#side [role=tab][aria-selected=true]")
            if focus_area() == "body" and (tab is None or not try_focus(tab)):
                focus_fallback()
            return
        modal = q("#modal")
        if modal is not None and not modal.hidden:
            if focus_area() != "modal":
                focus_first(modal.querySelector(".buttons") or modal)
        elif focus_area() in ("body", "modal") and was != "body":
            focus_fallback()  # (a focus in the closed summary is lost too)

    async def hint_turn(self, s: Session) -> None:
        """Think in slices from the person's observation only; drop it if they act."""
        from game.web.hint import Hint, hint_rng

        position = s.state
        obs = s.observation  # the person's view (their seat's observation): never the state
        try:
            hint = Hint(obs, hint_rng(s.save["transcript"]["seed"], s.played))
            while not hint.done():
                hint.step(SLICE)
                await asyncio.sleep(0)
                if self.state is not position or self.show_setup:
                    return  # the person acted (or left): the hint is moot
            action: str | None = hint.best()
        except Exception as e:  # a hint must never take the page down
            window.console.error(f"hint error: {type(e).__name__}: {e}")
            action = None
        self.dispatch(table_session.HintReady(position, action))

    # -- a lesson: a coached first hand (game.web.coach), never saved ------------

    def start_lesson(self) -> None:
        """The chosen game's lesson on the table; the real game stays in its save."""
        from game.bots import levels
        from game.web.coach import load

        self.read_setup()
        game = self.setup_values["game"]
        lesson = load(game)
        state = lesson.start()
        bot = list(levels(game))[-1]
        setup = {"me": lesson.me, "bots": {str(state.identity(p)): bot for p in state.players
                                           if str(state.identity(p)) != str(lesson.me)}}
        self.put_on_table(renderer(game), state, {
            "game": game, "setup": setup,
            "transcript": {"game": game, "options": state.to_json()["options"],
                           "seed": lesson.seed, "actions": []},
            "log": handover.log_events(state, setup), "seen_hands": 0},
            coach=Coach(lesson, set()))
        self._focus_coach()
        self.schedule()

    def coach_waiting(self) -> bool:
        return self.session is not None and self.session.coach_waiting

    def coach_html(self, obs: dict[str, Any]) -> Html:
        s = self.live()
        if s.coach is None:
            return EMPTY
        return s.coach.bubble(s.played, s.human_to_act and not s.waiting_for_ack, s.table, obs,
                              self.ctx())

    def _focus_coach(self) -> None:
        """The coach's Continue, else its bubble: what to read next."""
        target = q("#coach-next") or q("#coach")
        if target is not None:
            focus(target)

    def lesson_end_html(self, obs: dict[str, Any]) -> tuple[Html, Html]:
        """The end of the lesson: the coach on the scoring, the hand's own
        summary (whose <h2> titles the dialog), then a real game (or the lesson again)."""
        assert self.coach is not None
        state, table = self._game()
        ending = self.coach.lesson.ending()
        words = html('<p class="coach-text">{}</p>', self.t(ending.key)) if ending else EMPTY
        summary = table.final_summary(obs, self.ctx()) if state.over else \
            table.hand_summary(obs, self.ctx())
        body = html('<section class="coach coach-end" id="coach" aria-labelledby="coach-title">'
                    '<p class="coach-title" id="coach-title">{}</p>{}</section>{}',
                    self.t("coach.title"), words, summary)
        buttons = html('<button type="button" class="primary" data-cmd="lesson-done" '
                       'id="lesson-done">{}</button><button type="button" data-cmd="lesson" '
                       'id="lesson-again">{}</button>', self.t("coach.real_game"),
                       self.t("coach.again"))
        return body, buttons

    def end_lesson(self) -> None:
        """From the lesson to the start screen of its game, the real game (if
        any) back on the table behind it, untouched."""
        if self.coach is None:
            return
        game = self.coach.lesson.game
        self.session = None  # the lesson's bots stop with it
        if self.load_save(saves.key(self.current_game())) and self.state is not None:
            self.claim(self.state.game_id)
        self.setup_values["game"] = game
        self.show_setup = True
        self.render_all()
        focus(q("#start"))

    # -- undo: take back the person's own decisions of this hand ----------------

    def takebacks_allowed(self) -> bool:
        """False in a lesson and in a game started with "no take-backs"."""
        return self.session is not None and self.session.takebacks_allowed

    def can_undo(self) -> bool:
        return (self.session is not None and not self.show_setup and self.plays_here()
                and self.session.can_undo)

    def undo_html(self) -> Html:
        t = self.t
        mark = EMPTY
        if self.save.get("practice"):  # so that statistics can leave this game out
            mark = html('<span class="practice" id="practice">{}</span>', t("undo.practice"))
        button = EMPTY
        if self.takebacks_allowed() and self.state is not None and not self.state.over:
            button = html('<button type="button" data-cmd="undo" id="undo" title="{}" '
                          'aria-keyshortcuts="Control+Z U"{}><span aria-hidden="true">↶ </span>{}'
                          '</button>',
                          t("undo.title"), EMPTY if self.can_undo() else html(" disabled"),
                          t("undo.button"))
        if not (mark or button):
            return EMPTY
        return html('<div class="undobar">{}{}</div>', button, mark)

    def review_html(self) -> Html:
        """At the table of a game over, once its summary is closed: Review any
        hand of it (game.web.review; the summaries offer it too)."""
        if self.state is None or not self.state.over or not self.save.get("closed_final"):
            return EMPTY
        return html('<button type="button" data-cmd="review" id="review-open">{}</button>',
                    self.t("review.button"))

    def undo(self) -> None:
        """Take back the person's last decision of this hand (game.web.session)."""
        self.on_table(table_session.Undo())

    def undo_key(self, evt: JsObject) -> bool:
        """Ctrl+Z (⌘Z) or U at the table: Undo. True if the key was taken."""
        key = str(evt.key).lower()
        chord = bool(evt.ctrlKey or evt.metaKey) and not evt.shiftKey and not evt.altKey
        plain = not (evt.ctrlKey or evt.metaKey or evt.altKey)
        if not ((key == "z" and chord) or (key == "u" and plain)):
            return False
        if (self.state is None or self.show_setup
                or str(evt.target.tagName) in ("INPUT", "SELECT", "TEXTAREA")):
            return False
        evt.preventDefault()
        self.undo()
        return True

    def _bot(self, key: str) -> Bot:
        from game.web.tables.common import seat_bot

        name = self.save["setup"]["bots"].get(key)
        if (key, name) not in self._bots:
            self._bots[(key, name)] = seat_bot(self.save["game"], name)
        return self._bots[(key, name)]

    def new_game(self) -> None:
        from game import new_game
        from game.bots import levels

        self.read_setup()
        seed_text = self.setup_values.get("seed", "").strip()
        try:
            seed = read_int(seed_text, self.say("setup.seed")) if seed_text else None
        except BadNumber as e:
            self.setup_error = str(e)
            self.render_screen()
            focus(q("#f-seed"))
            return
        game = self.setup_values["game"]
        if self.broken and self.broken_in_place and self.broken[0] == saves.key(game):
            self.setup_error = self.t("setup.broken_in_place")
            self.show_setup = True
            self.render_all()
            return
        self.setup_error = ""
        if seed is None:
            seed = random.randrange(1, 2**31)
        self.prefs["setup"] = dict(self.setup_values)
        self._save_prefs()
        table = renderer(game)
        setup = table.parse_setup(self.setup_values, list(levels(game)))
        state = new_game(game, setup["options"], seed)
        kept = {"me": setup["me"], "bots": setup["bots"], "people": setup.get("people", {})}
        if self.setup_values.get("no_takebacks") == "on":
            kept["no_takebacks"] = True
        self.put_on_table(table, state, {
            "game": game, "setup": kept,
            "transcript": {"game": game, "options": state.to_json()["options"],
                           "seed": seed, "actions": []},
            "log": handover.log_events(state, kept), "seen_hands": 0,
            "id": new_game_id(seed, now_ms())})
        self.schedule()

    def put_on_table(self, table: Table, state: State, save: dict[str, Any],
                     coach: Coach | None = None, heard: Heard | None = None,
                     message: str = "") -> None:
        """A new game on the table (dealt, a lesson, continued from a file):
        nothing of the one before goes on (its bots, hint, half-made choice,
        flights, lesson); saved and made current unless it is a lesson; drawn.
        `heard`: what the live region need not read out (by default, nothing)."""
        # A new token: the bots of the game that was on the table stop.
        token = self.session.token + 1 if self.session is not None else 0
        self.session = Session.start(table, state, save, coach=coach, message=message,
                                     token=token)
        self.motion.reset()
        self.heard = heard or Heard()
        self.show_setup, self.setup_error = False, ""
        self.asked_deal = None
        self.setup_values["game"] = state.game_id
        if coach is None:
            # A new game goes on from the revision of the one it replaces.
            self.revision = saves.revision_of(self.stored(saves.key(state.game_id)))
            self.unwritten_table = True
            self.make_current(state.game_id)
            self.persist()
            self.claim(state.game_id)
        self.render_all()

    def switch_game(self, game: str) -> None:
        """Back to another game in progress; the one on the table stays saved."""
        self.halt()  # the bots of the game on the table stop
        if game in self.games_in_progress() and self.load_save(saves.key(game)):
            self.show_setup = False
            self.claim(game)
        self.render_all()
        self.schedule()

    def read_setup(self) -> None:
        for el in document.querySelectorAll("#setup select, #setup input"):
            checkbox = str(el.type) == "checkbox"
            self.setup_values[str(el.name)] = ("on" if el.checked else "") if checkbox \
                else str(el.value)

    def command(self, cmd: str, el: JsObject) -> None:
        """The one router of the page's commands (`data-cmd`): a decision at
        the table, a step of the game on the table, or a page command."""
        if self.stats.command(cmd, el):
            return
        if cmd in DECISIONS:
            self.on_table(DECISIONS[cmd]())
        elif cmd in TABLE_STEPS:
            if not self.show_setup:
                self.dispatch(TABLE_STEPS[cmd]())
        elif cmd.startswith("file-"):
            self.files.command(cmd)
        elif cmd in PAGE_COMMANDS:
            PAGE_COMMANDS[cmd](self, el)

    def open_setup(self, _: JsObject = None) -> None:
        """The start screen, the game on the table kept (and halted) behind it."""
        self.halt()
        if self.session is not None:
            self.session = dataclasses.replace(self.session, message="")
        self.show_setup = True
        self.render_all()

    def resume_table(self, _: JsObject = None) -> None:
        self.show_setup = False
        self.render_all()
        self.schedule()

    def open_review(self, _: JsObject = None) -> None:
        if self.state is not None:
            from game.web.dom import review_dialog

            review_dialog.from_table(self)

    def show_panel(self, el: JsObject) -> None:
        """A tab of the side panel: the log, the last trick, the scores."""
        self.panel = attr(el, "data-panel") or "log"
        was = focus_area()
        self.render_side()
        self._keep_focus(was)
        if window.innerWidth < 900:
            q("#side").scrollIntoView()

    def dismiss_notices(self, _: JsObject = None) -> None:
        self.notices = []
        self.render_notices()

    def dismiss_broken(self, _: JsObject = None) -> None:
        self.broken = None
        self.render_notices()

    def discard_broken(self, _: JsObject = None) -> None:
        """The player's choice, after its download: the damaged save left in place goes."""
        if self.broken and self.broken_in_place:
            self.store.remove(self.broken[0])
            self.broken, self.broken_in_place, self.setup_error = None, False, ""
            self.render_all()

    def dismiss_unsaved(self, _: JsObject = None) -> None:
        self.store_problem_read = True
        self.render_notices()

    def keep_deal(self, _: JsObject = None) -> None:
        """A deal link declined: back to the game in progress."""
        self.asked_deal = None
        self.resume_table()

    def replace_deal(self, _: JsObject = None) -> None:
        if self.asked_deal is not None:
            self.setup_values["seed"] = str(self.asked_deal)
            self.asked_deal = None
            self.new_game()

    @guarded
    def on_submit(self, evt: JsObject) -> None:
        evt.preventDefault()  # the start screen is a form: Enter starts the game
        if q("#setup") is not None and evt.target.closest("#setup"):
            self.new_game()

    @guarded
    def on_change(self, evt: JsObject) -> None:
        el = evt.target
        cmd = attr(el, "data-cmd")
        if cmd == "lang":
            self.t = Translator(str(el.value))
            self.prefs["lang"] = self.t.lang
            self._save_prefs()
            self.render_all()
        elif cmd == "speed":
            self.prefs["speed"] = str(el.value)
            self._save_prefs()
        elif cmd == "file-chosen":
            self.files.chosen(el)
        elif cmd == "stats-file":
            self.stats.on_file(el)
        elif cmd == "setup-change":
            self.read_setup()
            self.render_screen()
            self.render_side()  # the chosen game's help and rules

    @guarded
    def on_click(self, evt: JsObject) -> None:
        self.motion.finish()  # a click skips the motion, and is taken at once
        el = evt.target.closest("[data-cmd], [data-act], [data-part]")
        if el is None or not el:  # JS null arrives as pyodide's jsnull, which is falsy
            return
        cmd = attr(el, "data-cmd")
        if cmd:
            if str(el.tagName) in ("SELECT", "INPUT", "OPTION"):
                return
            if cmd == "start":
                evt.preventDefault()  # handled here, not by the form's submit
            self.command(str(cmd), el)
            return
        act = attr(el, "data-act")
        if act:
            self.human_action(act)
            return
        part = attr(el, "data-part")
        if part:
            self.pick(part)

    @guarded
    def on_key(self, evt: JsObject) -> None:
        self.motion.finish()  # so does any key
        if self.files.on_key(evt) or self.on_keys_key(evt):
            return
        key = str(evt.key)
        el = evt.target
        if self.undo_key(evt) or trap_tab(evt) or self.tab_to_decision(evt):
            return
        if key == "Escape":
            self.dispatch(table_session.ClearChoice())
            return
        if key in ARROWS:
            move_focus(evt, key)
            return
        if key not in ("Enter", " ") or str(el.tagName) == "BUTTON":
            return
        act, part = attr(el, "data-act"), attr(el, "data-part")
        if act is None and part is None:
            return
        evt.preventDefault()
        if act is not None:
            self.human_action(act)
        elif part is not None:
            self.pick(part)

    def tab_to_decision(self, evt: JsObject) -> bool:
        """On the person's turn, Tab from the top of the table (the prompt,
        where the page puts the focus after a redraw or a closed panel) goes
        to the first choice they may make, wherever the table draws it (in
        Dracula its first choice is above the prompt). Tab never lands on the
        prompt itself, so the rest of the page stays in Tab's round. True if
        it took the key."""
        if str(evt.key) != "Tab" or evt.shiftKey:
            return False
        if attr(document.activeElement, "id") != "prompt":
            return False
        if (self.state is None or self.show_setup or not self.human_to_act()
                or self.waiting_for_ack() or self.handover_due()):
            return False
        choice = self.choice()
        offered = choice.offers(self.live().picked)
        legal = set(self.state.legal_actions())
        for el in document.querySelectorAll("#screen [data-part], #screen [data-act]"):
            if (not el.hasAttribute("disabled") and (attr(el, "data-part") in offered
                                     or attr(el, "data-act") in legal) and try_focus(el)):
                evt.preventDefault()
                return True
        return False

    # -- start ---------------------------------------------------------------

    @guarded
    def start(self) -> None:
        self.resume()
        if self.state is None and q("#setup") is not None:
            self.read_setup()  # the start screen static/js/first.js drew: keep what was chosen there
        self._proxies = [create_proxy(self.on_click), create_proxy(self.on_change),
                         create_proxy(self.on_key), create_proxy(self.on_submit)]
        document.addEventListener("click", self._proxies[0])
        document.addEventListener("change", self._proxies[1])
        document.addEventListener("keydown", self._proxies[2])
        document.addEventListener("submit", self._proxies[3])
        self._proxies.append(create_proxy(guard(self, self.on_storage)))
        window.addEventListener("storage", self._proxies[-1])
        self.forget_link()
        if self.bench:
            from game.web import bench  # window.thinkBench, for benchmarks/think.py only

            bench.install(window, create_proxy, SLICE)
        self.render_all()
        loader = q("#loader")
        if loader is not None:
            loader.remove()
        document.body.dataset.state = "ready"
        pressed = attr(document.body, "data-lesson-pending") is not None  # before now
        if (self.asked_lesson or pressed) and not self.broken:  # a broken save is reported first
            document.body.removeAttribute("data-lesson-pending")
            self.start_lesson()
            return
        if attr(document.body, "data-start-pending") is not None:  # Start, pressed before now
            document.body.removeAttribute("data-start-pending")
            self.new_game()
            return
        self.schedule()


# The router's tables (App.command). Decisions at the table are refused while
# another tab plays the game; the table's steps wait while the start screen is up.
DECISIONS: dict[str, Callable[[], table_session.Action]] = {
    "confirm": table_session.Confirm, "hint": table_session.HintAsked,
    "undo": table_session.Undo}
TABLE_STEPS: dict[str, Callable[[], table_session.Action]] = {
    "coach-next": table_session.CoachNext, "ack-hand": table_session.AckHand,
    "handover-ready": table_session.TakeOver, "close-final": table_session.CloseFinal}
PAGE_COMMANDS: dict[str, Callable[[App, JsObject], None]] = {
    "new": App.open_setup, "start": lambda app, _: app.new_game(),
    "switch": lambda app, el: app.switch_game(attr(el, "data-game") or ""),
    "lesson": lambda app, _: app.start_lesson(), "lesson-done": lambda app, _: app.end_lesson(),
    "review": App.open_review, "resume": App.resume_table, "panel": App.show_panel,
    "keys": lambda app, _: app.keys_panel(True), "keys-close": lambda app, _: app.keys_panel(False),
    "dismiss": App.dismiss_notices, "dismiss-broken": App.dismiss_broken,
    "discard-broken": App.discard_broken, "dismiss-unsaved": App.dismiss_unsaved,
    "play-here": lambda app, _: app.play_here(), "deal-keep": App.keep_deal,
    "deal-replace": App.replace_deal}
