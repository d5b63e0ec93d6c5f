"""The step-by-step player in the page: draws a replayed game's `Steps`
(game.web.replay, the pure view) into elements and drives it with its
buttons, the keys Left/Right, Home/End and autoplay.  Used by embed.html's
scripted examples (game.web.dom.embed_page) and the Review dialog
(game.web.dom.review_dialog)."""

from __future__ import annotations

import asyncio
from typing import Any, Callable

from pyodide.ffi import to_js
from pyscript import document, window

from game.web.html import set_html
from game.web.replay import AUTOPLAY_SECONDS, COMMANDS, KEYS, Steps, error_html


class Stepper:
    """Draws a `Steps` view into the page and drives it: the buttons of
    `controls_html` (clicks reach `on_click`), the keys (`on_key`) and autoplay.
    `screen`, `caption` and `controls` are the elements it fills; `marker`
    carries `data-step`; `drawn` is called after each drawing."""

    def __init__(self, view: Steps, screen: Any, caption: Any, controls: Any, marker: Any,
                 drawn: Callable[[], None] | None = None) -> None:
        self.view, self.screen, self.caption, self.controls = view, screen, caption, controls
        self.marker, self.drawn = marker, drawn
        self.playing = False
        self.gen = 0  # which run of the autoplay is current

    def draw(self) -> None:
        view = self.view
        try:
            set_html(self.screen, view.table_html())
        except Exception as e:  # a renderer that cannot show this step
            set_html(self.screen, error_html(view.t.lang, f"{type(e).__name__}: {e}"))
        text = view.caption()
        self.caption.textContent = text
        self.caption.hidden = not text
        set_html(self.controls, view.controls_html(self.playing))
        self.marker.dataset.step = str(view.step)
        if self.drawn is not None:
            self.drawn()

    async def _autoplay(self, gen: int) -> None:
        while self.playing and gen == self.gen:
            await asyncio.sleep(AUTOPLAY_SECONDS)
            if not self.playing or gen != self.gen:
                return
            if self.view.step >= self.view.last:
                self.playing = False
            else:
                self.view.step += 1
            self.draw()

    def stop(self) -> None:
        """End the autoplay (the view is closing, or the person took over)."""
        self.playing = False
        self.gen += 1

    def go(self, cmd: str, keep: str | None = None) -> None:
        """Run a command; then focus the button `keep` (by id) again, since the
        controls are drawn anew (the play button if that one is now disabled)."""
        if cmd == "play":
            self.playing = not self.playing
            self.gen += 1
            if self.playing:
                if self.view.step >= self.view.last:
                    self.view.step = self.view.first
                asyncio.ensure_future(self._autoplay(self.gen))
        else:
            self.stop()
            self.view.move(cmd)
        self.draw()
        if keep:
            again = document.getElementById(keep)
            if not again or again.disabled:
                again = document.getElementById("ex-play")
            if again:
                again.focus(to_js({"preventScroll": True},
                                  dict_converter=window.Object.fromEntries))

    def on_click(self, evt: Any) -> bool:
        """A click on one of the player's buttons: True if it was one."""
        el = evt.target.closest("[data-ex]")
        if not el or str(el.dataset.ex) not in COMMANDS:
            return False
        cmd = str(el.dataset.ex)
        self.go(cmd, keep=f"ex-{cmd}")
        return True

    def on_key(self, evt: Any) -> bool:
        """Left/Right: a step back or on; Home/End: the first or last step
        (not in a form field). True if the key was the player's."""
        cmd = KEYS.get(str(evt.key))
        if cmd is None or evt.altKey or evt.ctrlKey or evt.metaKey:
            return False
        target = evt.target
        if target.closest("input, select, textarea"):
            return False
        evt.preventDefault()
        # The focus stays on the player's button it was on (never taken from elsewhere).
        was = str(target.id or "") if target.closest("[data-ex]") else ""
        self.go(cmd, keep=was or None)
        return True
