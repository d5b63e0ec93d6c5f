"""A replayed game played step by step: embed.html's scripted examples and
the Review of finished hands (the pure views are game.web.model.replay's `Steps`
and game.web.model.review's `Review`; where a player is, and its reducer, are
game.web.model.replay's `Playing` and `play`, and the review's game.web.model.review's
`Reviewing`, a value inside the page). Commands — first, previous, next,
last, autoplay, a hand chosen, close — come as messages from the page's
front (game.web.front.steps); each drawing goes back as a frame,
`{"steps": ...}`: the table's markup, the caption, the controls, the step,
and the control to keep the focus on. This module draws those frames, and
plays embed.html's examples (`StepPlayer`, which needs no page).
"""

from __future__ import annotations

import asyncio
from typing import Callable

from game.web.runtime.drivers import Spawn
from game.web.draw.frames import Frame, markup
from game.web.draw.i18n import Translator
from game.web.model.replay import AUTOPLAY_SECONDS, Command, Draw, Playing, Steps, Tick, Wait, \
    error_html, play
from game.web.model.analysis_view import panel_html
from game.web.model.review import Reviewing

Show = Callable[[Frame], None]
CLOSED: Frame = {"name": "review", "closed": True}  # the review's dialog taken away


def steps_frame(view: Steps, playing: bool, name: str, keep: str | None = None) -> Frame:
    """The frame of `view` at its step (`name`: which player the page shows,
    "example" or "review")."""
    try:
        screen = markup(view.table_html())
    except Exception as e:  # a renderer that cannot show this step
        screen = markup(error_html(view.t.lang, f"{type(e).__name__}: {e}"))
    return {"name": name, "screen": screen, "caption": view.caption(),
            "controls": markup(view.controls_html(playing)), "step": view.step, "keep": keep}


def review_frame(r: Reviewing, t: Translator, keep: str | None, head: bool) -> Frame:
    """The Review's frame: the player's, with the heading (`head`: the hand
    changed since the last frame) and the hand's facts."""
    view = r.view(t)
    frame = steps_frame(view, r.at.playing, "review", keep)
    if head:
        frame["head"] = markup(view.head_html())
    frame["data"] = {"hand": str(view.hand_number()), "first": str(view.first),
                     "last": str(view.last),
                     "open": "true" if view.is_open(view.step) else "false"}
    frame["analysis"] = markup(panel_html(r, t))
    return frame


def analysis_frame(r: Reviewing, t: Translator) -> Frame:
    """Only the Review's analysis part (a decision judged in the background:
    the table, the caption and the focus stay as they are)."""
    return {"name": "review", "analysis": markup(panel_html(r, t))}


class StepPlayer:
    """embed.html's scripted example: a `Steps` view played by `play`, drawn
    through `show`; autoplay runs beside the page (`spawn`)."""

    def __init__(self, view: Steps, show: Show, spawn: Spawn) -> None:
        self.view, self.show, self.spawn = view, show, spawn
        self.at = Playing(view.step, view.first, view.last)

    def draw(self, keep: str | None = None) -> None:
        self.view.step = self.at.step
        self.show({"steps": steps_frame(self.view, self.at.playing, "example", keep)})

    def command(self, cmd: str, keep: str | None = None) -> None:
        """Run a command (game.web.model.replay's COMMANDS; another does nothing)."""
        self.step(Command(cmd, keep))

    def step(self, action: Command | Tick) -> None:
        self.at, effects = play(self.at, action)
        for effect in effects:
            if isinstance(effect, Draw):
                self.draw(effect.keep)
            elif isinstance(effect, Wait):
                self.spawn(self.autoplay(effect.run))

    async def autoplay(self, run: int) -> None:
        await asyncio.sleep(AUTOPLAY_SECONDS)
        self.step(Tick(run))
