"""One tab plays a game at a time: the browser's Web Locks, one lock per game
(`jhg.game.<id>`), held while the tab has that game on its table and let go
by the browser when the tab closes. "Play here" steals it; the tab that held
it is told (its `on_lost`) and stops writing. A browser without Web Locks
plays in every tab, and the saves' revisions still keep the newest game."""

from __future__ import annotations

from typing import Any, Callable

from pyodide.ffi import create_once_callable, to_js

JsObject = Any  # a JavaScript object seen through Pyodide: untyped for mypy


class TabLocks:
    def __init__(self, window: JsObject, on_lost: Callable[[str], None],
                 enabled: bool = True) -> None:
        self.window = window
        self.locks = getattr(window.navigator, "locks", None) if enabled else None
        self.on_lost = on_lost
        self.held: dict[str, JsObject] = {}  # game: the function that lets its lock go

    def hold(self, game: str, steal: bool, done: Callable[[bool], None]) -> None:
        """Ask for `game`'s lock; `done(True)` once this tab holds it,
        `done(False)` if another tab does (never with `steal`)."""
        if game in self.held or not self.locks:
            done(True)
            return

        def granted(lock: JsObject) -> JsObject:
            if lock is None or not lock:  # held by another tab
                done(False)
                return None

            def keep(resolve: JsObject, _reject: JsObject) -> None:
                self.held[game] = resolve

            promise = self.window.Promise.new(create_once_callable(keep))
            done(True)
            return promise

        def lost(_error: JsObject) -> None:  # stolen by another tab's "Play here"
            if self.held.pop(game, None) is not None:
                self.on_lost(game)

        options = {"steal": True} if steal else {"ifAvailable": True}
        request = self.locks.request(
            f"jhg.game.{game}", to_js(options, dict_converter=self.window.Object.fromEntries),
            create_once_callable(granted))
        request.catch(create_once_callable(lost))

    def release(self, game: str) -> None:
        let_go = self.held.pop(game, None)
        if let_go is not None:
            let_go()
