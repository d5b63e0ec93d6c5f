"""Saves, preferences, statistics and damaged saves over the page's `Storage`
(game.web.runtime.storage): what the page keeps and reads back, with no browser import.

Each function reads or writes storage and says what came of it as data
(a failure, a revision, or the page's actions to dispatch: `SaveLoaded`,
`SetAside`, `StatsRead`...); none returns a `Page`, so the controller's
dispatch loop (game.web.runtime.controller) stays the only place that stores one.
One tab plays a game at a time (game.web.dom.tabs): a save carries a
`revision`, and a write never replaces a newer one.
"""

from __future__ import annotations

import json
import time
from typing import Any

from game import GAMES
from game.web.model import page as pg
from game.web.model import saves
from game.web.model import stats as st
from game.web.model.page import Broken, Page
from game.web.model.session import Session
from game.web.model.stats_page import WriteStats, changed
from game.web.runtime.storage import FailureKind, Storage, write
from game.web.draw.tables import renderer

Told = list[pg.PageAction]  # what storage's answer tells the page


def refused(failed: FailureKind | None) -> Told:
    return [] if failed is None else [pg.StorageRefused(failed)]


class Keeper:
    def __init__(self, store: Storage, tab_store: Storage) -> None:
        self.store = store  # the site's (localStorage, or memory)
        self.tab_store = tab_store  # this tab's own (sessionStorage): which game it shows

    def get(self, key: str) -> str | None:
        return self.store.get(key)

    def keep(self, key: str, value: str) -> FailureKind | None:
        """Keep `value`; a refusal is told once (the page plays on and says why,
        offering the game's download)."""
        return write(self.store, key, value)

    def move(self, key: str, to: str, known: FailureKind | None) -> tuple[bool, Told]:
        """Keep `key`'s value under `to` and remove `key`, only once copied.
        With storage known to be full or blocked (`known`) nothing is tried: a
        game in a worker hears of a refused copy only after the fact (its page
        then keeps the original: game.web.runtime.mirror)."""
        if known is not None:
            return False, []
        failed = self.store.move(key, to)
        return failed is None, refused(failed)

    def prefs(self) -> tuple[dict[str, Any], str | None]:
        """The preferences, and why a stored part of them was ignored (None if
        none was): the page then says so once and writes back what it uses."""
        return saves.read_prefs(self.get(saves.PREFS_KEY))

    def save_prefs(self, prefs: dict[str, Any]) -> Told:
        return refused(self.keep(saves.PREFS_KEY, json.dumps(prefs)))

    # -- the game on the table ---------------------------------------------------------

    def persist(self, page: Page) -> tuple[bool, Told]:
        """Write the game on the table, unless another tab plays it: never over
        a newer save than the one this tab holds (its revision). False if
        another tab wrote it meanwhile (a browser without Web Locks)."""
        s = page.session
        if s is None or s.coach is not None:  # a lesson is never saved
            return True, []
        game = s.save["game"]
        if page.hold.owner != game:
            return True, []  # written once this tab holds the game
        stored = saves.revision_of(self.get(saves.key(game)))
        if stored > page.hold.revision:
            return False, []
        record = {**s.save, "revision": stored + 1, "state": s.state.to_json()}
        failed = self.keep(saves.key(game), saves.dump(record))
        return True, [*refused(failed), pg.Written(stored + 1)]

    def current_game(self) -> str:
        """The game this tab showed last (if it is still saved), else the one
        last played in any tab."""
        mine = self.tab_store.get(saves.CURRENT_KEY)
        if mine and self.get(saves.key(mine)):
            return mine
        return self.get(saves.CURRENT_KEY) or ""

    def make_current(self, game: str) -> Told:
        """The game this tab shows after a reload (its own); a new tab opens
        the one last played in any tab."""
        write(self.tab_store, saves.CURRENT_KEY, game)
        return refused(self.keep(saves.CURRENT_KEY, game))

    def saved_games(self, page: Page) -> tuple[str, ...]:
        """The games with a save, in the start screen's order (not a damaged
        save left in its place: it cannot be continued)."""
        damaged = page.broken.where if page.broken and page.broken.in_place else None
        return tuple(g for g in GAMES if self.get(saves.key(g)) and saves.key(g) != damaged)

    def load(self, page: Page, key: str) -> Told:
        """The save under `key` on the table (`SaveLoaded`, and made current);
        a save that fails its checks is kept aside and reported, never a crash."""
        text = self.get(key)
        if not text:
            return []
        try:
            data, state = saves.load(text)
            table = renderer(data["game"])
            data["transcript"].setdefault("actions", [])
            data["transcript"].setdefault("seed", 0)
            token = page.session.token + 1 if page.session is not None else 0
            session = Session.start(table, state, data, token=token)
            # A save that loads but cannot be shown is broken too.
            table.render(session.observation, session.context(page.t))
        except saves.BrokenSave as e:
            return self.set_aside(page, text, str(e), key)
        except Exception as e:  # never crash on a save
            return self.set_aside(page, text, f"{type(e).__name__}: {e}", key)
        return [pg.SaveLoaded(session, saves.revision_of(text)),
                *self.make_current(state.game_id)]

    def migrate(self, page: Page) -> Told:
        """The one save of every game (before each game kept its own) moves to
        its game's key, kept aside instead if that game has a newer save."""
        text = self.get(saves.LEGACY_KEY)
        game = saves.game_of(text) if text else None
        if text is None or game is None:
            return []
        if self.get(saves.key(game)) is not None:
            return self.set_aside(page, text, "an older save of a game that has a newer one",
                                  saves.LEGACY_KEY)
        moved, told = self.move(saves.LEGACY_KEY, saves.key(game), page.store_problem)
        return [*told, *self.make_current(game)] if moved else told

    def set_aside(self, page: Page, text: str, reason: str, key: str) -> Told:
        """Keep a damaged save under a `jhg.broken.*` key, then free its own;
        where there is no room for a copy, it stays where it is (and in memory
        for its download) until the player chooses to discard it."""
        aside = self.free_key(saves.BROKEN_PREFIX + time.strftime("%Y%m%dT%H%M%S"))
        kept, told = self.move(key, aside, page.store_problem)
        return [*told, pg.SetAside(Broken(aside if kept else key, reason, text,
                                          in_place=not kept))]

    def free_key(self, stamp: str) -> str:
        """`stamp`, or `stamp-1`...: two set aside within a second are both kept."""
        aside, n = stamp, 1
        while self.get(aside) is not None:
            aside, n = f"{stamp}-{n}", n + 1
        return aside

    # -- the statistics (game.web.model.stats_page) ------------------------------------------

    def stats_read(self, page: Page) -> Told:
        """The record read afresh; a damaged one is kept aside and reported."""
        if page.stats.unwritten is not None:
            return [pg.StatsRead(page.stats.unwritten)]
        text = self.get(st.KEY)
        if not text:
            return [pg.StatsRead(st.Stats())]
        try:
            return [pg.StatsRead(st.load(text))]
        except st.BrokenStats as e:
            reason = str(e)
        except Exception as e:  # stored data is data from outside: never crash on it
            reason = f"{type(e).__name__}: {e}"
        aside = self.free_key(saves.BROKEN_PREFIX + "stats-" + time.strftime("%Y%m%dT%H%M%S"))
        kept, told = self.move(st.KEY, aside, page.store_problem)
        # not kept aside (storage full): never written over
        notice = ("stats.broken" if kept else "stats.broken_kept_in_place",
                  {"reason": reason[:200], "where": aside if kept else st.KEY})
        return [*told, pg.StatsRead(st.Stats(), notice, kept)]

    def write_stats(self, page: Page, how: WriteStats) -> Told:
        """The record read afresh, changed by `how` and kept; if the browser
        will not, it is kept in memory (and counted from) until a later write
        goes through. A damaged record that could not be kept aside is never
        written over."""
        told = self.stats_read(page)
        read = told[-1]
        assert isinstance(read, pg.StatsRead)
        damaged_kept = read.kept if read.notice is not None else page.stats.damaged_kept
        record, new = changed(read.record, how)
        if not new:
            return told
        failed = self.keep(st.KEY, st.dump(record)) if damaged_kept else None
        written = damaged_kept and failed is None
        return [*told, *refused(failed),
                pg.StatsWritten(how.change, record, written, self.get(st.KEY) is not None)]


