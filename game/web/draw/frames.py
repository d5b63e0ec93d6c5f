"""What the page draws, as frames: plain data (JSON's kinds only) that the
page's front (game.web.front.screen) applies to the document. The game runs
in a worker (game.web.dom.worker) and the front on the page's main thread
(game.web.dom.main_thread): the frames are what the worker posts to the page.

A frame from a draw holds the regions whose markup changed since the last
frame (`regions`), whether a dialog is open and its markup if it changed
(`dialog_open`, `dialog`), `<body>`'s data, the title and language, the
hinted action, the cards the last action moved (`moves`), the table's
news for the live region (`news`, each event once), and what the focus and the keys need to know of the page (`view`,
`overlay`, `at_table`, `choices`).
"""

from __future__ import annotations

from typing import Any

from game.web.draw.html import Html
from game.web.draw.motion import Course
from game.web.model.page import Page
from game.web.draw.views import NESTED, Drawn

Frame = dict[str, Any]


def markup(html: Html) -> str:
    """Html's text, as a frame carries it (escaped when it was built); a
    plain `str` is refused, whatever the caller's types said."""
    if not isinstance(html, Html):
        raise TypeError(f"a frame takes Html, not {type(html).__name__}: "
                        "build markup with game.web.draw.html.html()")
    return str.__str__(html)


class Frames:
    """Each draw as a frame. `menu`: the embed's own menu bar, and no side panel."""

    def __init__(self, menu: Html | None = None) -> None:
        self.menu = menu
        self.sent: dict[str, str] = {}  # each region's markup as last sent
        self.dialog: str | None = ""  # the dialog as last sent ("": none)
        self.events_heard = 0  # the log's entries already read out
        self.ears_fresh = False  # a game was put on the table: the live region starts over
        self.course = Course()  # what the next redraw shows moving

    def draw(self, page: Page, drawn: Drawn) -> Frame:
        regions = {name: markup(html) for name, html in drawn.regions.items()}
        if self.menu is not None:
            regions["menu"] = markup(self.menu)
            regions.pop("side")
        changed: dict[str, str] = {}
        for name, text in regions.items():  # (a nested region after its parent)
            if self.sent.get(name) != text or NESTED.get(name, "") in changed:
                changed[name] = text
        self.sent.update(changed)
        frame: Frame = {"lang": page.t.lang, "title": drawn.title, "regions": changed,
                        "body": dict(drawn.body), "view": drawn.body["view"],
                        "overlay": page.overlay, "at_table": page.at_table,
                        "hinted": [drawn.hinted[0], list(drawn.hinted[1])],
                        "coach": "side" in regions,
                        "choices": choices(page) if drawn.choices is None else drawn.choices}
        dialog = markup(drawn.dialog.markup()) if drawn.dialog is not None else ""
        frame["dialog_open"] = bool(dialog)
        if dialog and dialog != self.dialog:
            frame["dialog"] = dialog
            frame["dialog_titled"] = drawn.dialog is not None and not drawn.dialog.part
        self.dialog = dialog
        if drawn.body["view"] != "table":
            self.course.reset()  # nothing moves off the table, nor after it
        moves = self.course.take()
        if moves:
            frame["moves"] = moves
        if self.ears_fresh:
            frame["heard"], self.ears_fresh = self.events_heard, False
        said = drawn.news
        if said is not None:
            log, lines_of, my_turn = said
            fresh = log[min(self.events_heard, len(log)):]  # the log may have been cut (an undo)
            self.events_heard = len(log)
            frame["news"] = [str(line) for line in lines_of(fresh)]
            frame["my_turn"] = bool(my_turn)
        return frame

    def heard(self, events: int) -> None:
        """The log's first `events` entries count as read out (a game put on the table)."""
        self.events_heard = events
        self.ears_fresh = True


def choices(page: Page) -> dict[str, list[str]]:
    """What the person may choose now, for Tab from the table's prompt: the
    parts offered (`data-part`) and the legal actions (`data-act`); none
    when it is not their decision."""
    s = page.session
    if (s is None or not page.at_table or not s.human_to_act or s.waiting_for_ack
            or page.handover_due):
        return {"parts": [], "acts": []}
    return {"parts": list(s.choice.offers(s.picked)), "acts": list(s.state.legal_actions())}
