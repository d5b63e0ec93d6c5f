"""A bot's move costs the page one redraw (issue 59): its thinking mark is
part of the same frame, not a draw of its own. Through the real controller."""

from __future__ import annotations

import collections

import pytest

from game.web.draw.tables import renderer
from game.web.model import session as ts
from tests.page_kit import deal, make_page


def steps_of(page) -> int:
    return len(page.session.save["transcript"]["actions"]) if page.session else -1


@pytest.mark.parametrize("game", ["jekyll-hyde", "jekyll-vs-hyde", "dracula"])
def test_each_bot_move_is_one_redraw(game):
    ctrl, screen, thinking = make_page()
    draws: collections.Counter[int] = collections.Counter()  # while the bots play, by step
    bots_playing = False
    record = screen.draw

    def draw(page, drawn) -> None:
        if bots_playing:
            draws.update([steps_of(page)])
        record(page, drawn)

    screen.draw = draw
    deal(ctrl, game, 5)
    bot_steps: set[int] = set()
    for _ in range(200):  # (a bound: a page that stops answering fails, not hangs)
        if len(bot_steps) >= 8:
            break
        s = ctrl.session
        assert s is not None and not s.state.over
        if s.waiting_for_ack:
            ctrl.command("ack-hand", {})
        elif s.human_to_act:  # the person's first legal action, part by part
            for part in getattr(renderer(game), "parts", lambda a: (a,))(s.state.legal_actions()[0]):
                ctrl.on_table(ts.Pick(part))
            if steps_of(ctrl.page) == len(s.save["transcript"]["actions"]):
                ctrl.command("confirm", {})
        else:
            before, bots_playing = steps_of(ctrl.page), True
            assert thinking.run(), "the bot on turn was not asked to think"
            bots_playing = False
            bot_steps |= set(range(before + 1, steps_of(ctrl.page) + 1))
    assert len(bot_steps) >= 8
    assert {step: draws[step] for step in sorted(bot_steps)} == {step: 1 for step in sorted(bot_steps)}

