"""Saves, preferences and damaged saves over the page's `Storage`
(game.web.storage): what the page keeps and reads back, with no browser import.

Each function takes the `Page` and returns the next one, so the controller
(game.web.controller) stays the only place that holds it. One tab plays a
game at a time (game.web.dom.tabs): a save carries a `revision`, and a
write never replaces a newer one.
"""

from __future__ import annotations

import dataclasses
import json
import time
from typing import Any

from game.web import saves
from game.web.page import Broken, Hold, Page, playable
from game.web.session import Session
from game.web.storage import FailureKind, Storage, write
from game.web.tables import renderer


class Keeper:
    def __init__(self, store: Storage, tab_store: Storage) -> None:
        self.store = store  # the site's (localStorage, or memory)
        self.tab_store = tab_store  # this tab's own (sessionStorage): which game it shows

    def get(self, key: str) -> str | None:
        return self.store.get(key)

    def keep(self, page: Page, key: str, value: str) -> tuple[Page, bool]:
        """Keep `value`; if the browser refuses, play on and say why, once
        (the notice offers the game's download)."""
        failed: FailureKind | None = write(self.store, key, value)
        if failed is not None and page.store_problem is None:
            page = dataclasses.replace(page, store_problem=failed)
        return page, failed is None

    def move(self, page: Page, key: str, to: str) -> tuple[Page, bool]:
        """Keep `key`'s value under `to` and remove `key`, only once copied.
        With storage known to be full or blocked nothing is tried: a game in a
        worker hears of a refused copy only after the fact (its page then
        keeps the original: game.web.mirror)."""
        if page.store_problem is not None:
            return page, False
        failed = self.store.move(key, to)
        if failed is not None:
            page = dataclasses.replace(page, store_problem=failed)
        return page, failed is None

    def prefs(self) -> tuple[dict[str, Any], str | None]:
        """The preferences, and why a stored part of them was ignored (None if
        none was): the page then says so once and writes back what it uses."""
        return saves.read_prefs(self.get(saves.PREFS_KEY))

    def save_prefs(self, page: Page) -> Page:
        return self.keep(page, saves.PREFS_KEY, json.dumps(page.prefs))[0]

    # -- the game on the table ---------------------------------------------------------

    def persist(self, page: Page) -> tuple[Page, bool]:
        """Write the game on the table, unless another tab plays it: never over
        a newer save than the one this tab holds (its revision). False if
        another tab wrote it meanwhile (a browser without Web Locks)."""
        s = page.session
        if s is None or s.coach is not None:  # a lesson is never saved
            return page, True
        game = s.save["game"]
        if page.hold.owner != game:
            return page, True  # written once this tab holds the game
        stored = saves.revision_of(self.get(saves.key(game)))
        if stored > page.hold.revision:
            return page, False
        record = {**s.save, "revision": stored + 1, "state": s.state.to_json()}
        page, _ = self.keep(page, saves.key(game), saves.dump(record))
        hold = dataclasses.replace(page.hold, revision=stored + 1, unwritten=False)
        return dataclasses.replace(page, hold=hold), True

    def current_game(self) -> str:
        """The game this tab showed last (if it is still saved), else the one
        last played in any tab."""
        mine = self.tab_store.get(saves.CURRENT_KEY)
        if mine and self.get(saves.key(mine)):
            return mine
        return self.get(saves.CURRENT_KEY) or ""

    def make_current(self, page: Page, game: str) -> Page:
        """The game this tab shows after a reload (its own); a new tab opens
        the one last played in any tab."""
        write(self.tab_store, saves.CURRENT_KEY, game)
        return self.keep(page, saves.CURRENT_KEY, game)[0]

    def saved_games(self, page: Page) -> tuple[str, ...]:
        """The games with a save, in the start screen's order (not a damaged
        save left in its place: it cannot be continued)."""
        damaged = page.broken.where if page.broken and page.broken.in_place else None
        return tuple(g for g in playable()
                     if self.get(saves.key(g)) and saves.key(g) != damaged)

    def load(self, page: Page, key: str) -> tuple[Page, bool]:
        """Put the save under `key` on the table; a save that fails its checks
        is kept aside and reported, never a crash."""
        text = self.get(key)
        if not text:
            return page, False
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
            return self.set_aside(page, text, str(e), key), False
        except Exception as e:  # never crash on a save
            return self.set_aside(page, text, f"{type(e).__name__}: {e}", key), False
        hold = dataclasses.replace(page.hold, revision=saves.revision_of(text), unwritten=False)
        page = dataclasses.replace(page, session=session, hold=hold, view="table",
                                   setup={**page.setup, "game": state.game_id})
        return self.make_current(page, state.game_id), True

    def migrate(self, page: Page) -> Page:
        """The one save of every game (before each game kept its own) moves to
        its game's key, kept aside instead if that game has a newer save."""
        text = self.get(saves.LEGACY_KEY)
        game = saves.game_of(text) if text else None
        if text is None or game is None:
            return page
        if self.get(saves.key(game)) is not None:
            return self.set_aside(page, text, "an older save of a game that has a newer one",
                                  saves.LEGACY_KEY)
        page, moved = self.move(page, saves.LEGACY_KEY, saves.key(game))
        return self.make_current(page, game) if moved else page

    def set_aside(self, page: Page, text: str, reason: str, key: str) -> Page:
        """Keep a damaged save under a `jhg.broken.*` key, then free its own;
        where there is no room for a copy, it stays where it is (and in memory
        for its download) until the player chooses to discard it."""
        stamp = saves.BROKEN_PREFIX + time.strftime("%Y%m%dT%H%M%S")
        aside, n = stamp, 1
        while self.get(aside) is not None:  # two set aside within a second: keep both
            aside, n = f"{stamp}-{n}", n + 1
        page, kept = self.move(page, key, aside)
        return dataclasses.replace(page, broken=Broken(aside if kept else key, reason, text,
                                                       in_place=not kept), view="start")

    def discard_broken(self, page: Page) -> Page:
        """The player's choice, after its download: the damaged save left in place goes."""
        if page.broken is None or not page.broken.in_place:
            return page
        self.store.remove(page.broken.where)
        return dataclasses.replace(page, broken=None, setup_error="")

    def newer_elsewhere(self, page: Page, key: str, value: str | None) -> bool:
        """Another tab wrote `key`: whether it is this table's save, newer than ours."""
        s = page.session
        if s is None or s.coach is not None or key != saves.key(s.save["game"]):
            return False
        return saves.revision_of(value) > page.hold.revision


def released(page: Page) -> Page:
    """This tab plays no game any more (its hold let go)."""
    return dataclasses.replace(page, hold=dataclasses.replace(page.hold, owner=None))


def held(page: Page, game: str) -> Page:
    return dataclasses.replace(page, hold=dataclasses.replace(page.hold, owner=game,
                                                               elsewhere=None))


def fresh_hold(page: Page, revision: int) -> Hold:
    return dataclasses.replace(page.hold, revision=revision, unwritten=True)
