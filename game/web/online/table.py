"""An online guest's table as one value, drawn and decided by the same code
as the table here: the choice of parts (game.web.model.session.click), the
table's context, the regions and dialogs of game.web.draw.views (the table and its
message, Hint, the side panel's log, last trick and score sheet, a hand's
summary with the hand it sums up behind it, the final summary) and the live
region's news. What it is fed is the guest's seat: the observation and the
events the host sent (game.online.guest.Guest); a decision made whole is
sent to the host (`Turn.send`), never applied here.

Pure: the page (game.web.online.guest) keeps one `SeatTable` beside its
`Guest` and carries out what these functions return.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from game.online import guest as g
from game.web.model.choice import Choice
from game.web.draw.html import EMPTY, Html, html
from game.web.draw.i18n import Translator
from game.web.online import seat_analysis
from game.web.online.seat_analysis import SeatAnalysis
from game.web.online.state import SeatTable
from game.web.model.page import Page
from game.web.model.session import Message, NotYourTurn, Said, click, deal_opening, offer
from game.web.draw.tables import Table, TableContext, WordedLog, event_lines
from game.web.draw.views import (Dialog, GuestParts, News, hand_dialog, hint_markup, hint_words,
                            side_panel, table_screen)


def hands(guest: g.Guest) -> int:
    """The hands scored so far, as the seat's observation tells (its history)."""
    history = (guest.observation or {}).get("history", [])
    return len(history) if isinstance(history, list) else 0


def over(guest: g.Guest) -> bool:
    return guest.observation is not None and guest.observation.get("over") is True


def waiting_for_ack(seat: SeatTable, guest: g.Guest) -> bool:
    """A hand was scored and this page has not closed its summary."""
    return not over(guest) and seat.seen_hands is not None and hands(guest) > seat.seen_hands


def ahead_of(guest: g.Guest) -> list[str]:
    """The actions the observation offers this seat ahead of being asked."""
    if guest.status != "playing" or guest.my_turn:
        return []
    ahead = (guest.observation or {}).get("ahead", [])
    return [a for a in ahead if type(a) is str] if isinstance(ahead, list) else []


def ahead(seat: SeatTable, guest: g.Guest) -> list[str]:
    """What this page may choose now ahead of being asked (none once held)."""
    return [] if seat.held is not None or waiting_for_ack(seat, guest) else ahead_of(guest)


def asked(seat: SeatTable, guest: g.Guest) -> bool:
    """This seat decides now (and no summary is open)."""
    return guest.my_turn and not waiting_for_ack(seat, guest)


def choice(seat: SeatTable, guest: g.Guest, table: Table) -> Choice:
    return Choice(guest.legal if asked(seat, guest) else ahead(seat, guest), table.parts)


# -- what happens to it -------------------------------------------------------------

def heard(seat: SeatTable, before: g.Guest, after: g.Guest, table: Table) -> SeatTable:
    """The guest changed (a table from the host, a drop...): a first table
    counts its hands as read; a hand scored keeps the table it leaves; a
    hint for another position is dropped; parts picked that the new table
    does not allow are dropped (picked ahead, they go on once asked)."""
    if after.observation is None:
        return seat
    if seat.seen_hands is None:
        seat = dataclasses.replace(seat, seen_hands=hands(after))
    elif hands(after) > hands(before) and before.observation is not None:
        seat = dataclasses.replace(seat, scored_from=(before.player, before.observation))
    if seat.hint is not None and seat.hint[0] != after.state_id:
        seat = dataclasses.replace(seat, hint=None)
    if seat.held is not None and not after.my_turn and seat.held not in ahead_of(after):
        seat = dataclasses.replace(seat, held=None)
    if seat.picked and not choice(seat, after, table).allows(seat.picked):
        seat = dataclasses.replace(seat, picked=())
    return seat


@dataclass(frozen=True)
class Turn:
    """A click's outcome: the table after it, and the action to send (if any)."""
    seat: SeatTable
    send: str | None = None


def decide(seat: SeatTable, guest: g.Guest, action: str) -> Turn:
    """A whole decision: sent if this seat is asked, else held if offered ahead."""
    seat = dataclasses.replace(seat, picked=(), message=None)
    if asked(seat, guest):
        return Turn(seat, action)
    if action in ahead(seat, guest):
        return Turn(dataclasses.replace(seat, held=action))
    return Turn(dataclasses.replace(seat, message=Said("msg.not_offered")))


def held_due(seat: SeatTable, guest: g.Guest) -> Turn:
    """This seat is asked and holds a choice made ahead: it goes now."""
    if seat.held is None or not asked(seat, guest):
        return Turn(seat)
    action, seat = seat.held, dataclasses.replace(seat, held=None)
    return Turn(seat, action if action in guest.legal else None)


WATCHING = Said("online.refused.watching")  # a click on a watcher's table: why nothing happens


def act(seat: SeatTable, guest: g.Guest, action: str) -> Turn:
    """A one-click action on the table (`data-act`)."""
    if guest.watching:
        return Turn(dataclasses.replace(seat, message=WATCHING))
    if not (asked(seat, guest) or ahead(seat, guest)):
        return Turn(dataclasses.replace(seat, message=NotYourTurn()))
    return decide(seat, guest, action)


def pick(seat: SeatTable, guest: g.Guest, table: Table, part: str) -> Turn:
    """A click on a part of a decision, as at the table here (game.web.model.session.click)."""
    if guest.watching:
        return Turn(dataclasses.replace(seat, message=WATCHING))
    if not (asked(seat, guest) or ahead(seat, guest)):
        return Turn(dataclasses.replace(seat, message=NotYourTurn()))
    clicked = click(table, choice(seat, guest, table), seat.picked, part,
                    guest.observation or {})
    if clicked.said is not None:
        return Turn(dataclasses.replace(seat, message=Said(clicked.said)))
    if clicked.action is not None:
        return decide(seat, guest, clicked.action)
    return Turn(dataclasses.replace(seat, picked=clicked.picked, message=None))


def confirm(seat: SeatTable, guest: g.Guest, table: Table) -> Turn:
    action = choice(seat, guest, table).complete(seat.picked) if seat.picked else None
    return Turn(seat) if action is None else decide(seat, guest, action)


def ack_hand(seat: SeatTable, guest: g.Guest) -> SeatTable:
    return dataclasses.replace(seat, seen_hands=hands(guest), scored_from=None) \
        if waiting_for_ack(seat, guest) else seat


# -- what it shows ------------------------------------------------------------------

def viewer(guest: g.Guest, table: Table, player: Any = None) -> Any:
    """The seat the table is drawn from: the guest's (`player`: the one it had
    then), or a watcher's fixed one, where nobody is "you"."""
    return table.WATCH_SEAT if guest.watching else player if player is not None else guest.player


def context(seat: SeatTable, guest: g.Guest, table: Table, t: Translator) -> TableContext:
    """The table's context, as Session.context makes it for the table here
    (a watcher's: from a fixed seat, as a spectator sees it)."""
    ctx = TableContext(t=t, seat=viewer(guest, table), log=log(seat, guest),
                       spectator=guest.watching)
    # The people at the table by name (their lasting player, as the seats
    # name them); the bots stay "the bot".
    ctx.people = {str(e.get("seat")): str(e.get("name") or t("online.host"))
                  for e in guest.seats if e.get("kind") in ("host", "person", "away")
                  and str(e.get("seat")) != guest.seat}
    ctx.held = seat.held
    if asked(seat, guest) or ahead(seat, guest):
        offer(ctx, choice(seat, guest, table), seat.picked, ahead=not guest.my_turn)
    return ctx


def log(seat: SeatTable, guest: g.Guest) -> list[dict[str, Any]]:
    """The log as this seat saw it; while a hand's summary is open, without
    the next deal's opening lines (as at the table here)."""
    events = list(guest.log)
    return events[:deal_opening(events)] if waiting_for_ack(seat, guest) else events


def message_words(seat: SeatTable, guest: g.Guest, table: Table, t: Translator) -> str:
    if isinstance(seat.message, NotYourTurn):
        ctx = context(seat, guest, table, t)
        return t("msg.not_your_turn", name=table.who_decides(guest.observation or {}, ctx))
    if isinstance(seat.message, Said):
        return t(seat.message.key, **seat.message.params)
    return ""


def drawn(seat: SeatTable, guest: g.Guest, table: Table, t: Translator) -> Html:
    """The table; behind a hand's summary, the hand it sums up, seated as the
    guest sat in it (Werner's roles rotate with the deal)."""
    obs, ctx = guest.observation or {}, context(seat, guest, table, t)
    if waiting_for_ack(seat, guest) and seat.scored_from is not None:
        player, before = seat.scored_from
        finished = table.finished(before, obs,
                                  dataclasses.replace(ctx, seat=viewer(guest, table, player)))
        if finished is not None:
            return finished
    if waiting_for_ack(seat, guest):
        obs = {**obs, "legal": []}
    return table.render(obs, ctx)


def screen(page: Page, seat: SeatTable, guest: g.Guest, table: Table, strip: Html,
           end: Html, message: str) -> Html:
    heading = html('<h1 class="sr">{}</h1>', page.say("app.title"))
    return table_screen(heading, strip, drawn(seat, guest, table, page.t) + end, message)


def side(page: Page, seat: SeatTable, guest: g.Guest, table: Table,
         log: WordedLog | None = None) -> Html:
    """The side panel as this seat saw it (`log`: the draws' lines already worded)."""
    return side_panel(page, table, guest.observation or {}, context(seat, guest, table, page.t),
                      log=log)


def tools(page: Page, seat: SeatTable, guest: g.Guest, table: Table) -> Html:
    """Hint, on this seat's turn, from its own observation; once the game's
    summary is closed, the way back to it (and to its analysis and review)."""
    if over(guest) and seat.closed_final:
        return html('<button type="button" data-cmd="online-open-final" id="final-open">{}</button>',
                    page.t("final.open"))
    if not asked(seat, guest):
        return EMPTY
    hint = seat.hint if seat.hint is not None and seat.hint[0] == guest.state_id else None
    obs, ctx = guest.observation or {}, context(seat, guest, table, page.t)
    return hint_markup(page.t, hint is not None, hint[1] if hint is not None else None,
                       lambda action: hint_words(table, action, obs, ctx), cmd="online-hint")


def dialog(page: Page, seat: SeatTable, guest: g.Guest, table: Table,
           analysis: SeatAnalysis = SeatAnalysis()) -> Dialog | None:
    """A hand's summary (Next hand), or once the game is over its summary;
    under either, this seat's analysis of the hand (a watcher's: none)."""
    t, obs = page.t, guest.observation or {}
    ctx = context(seat, guest, table, t)
    button, panel = EMPTY, EMPTY
    if not guest.watching:
        game = guest.game or ""
        button = seat_analysis.button(t, game, analysis, hands(guest))
        panel = seat_analysis.panel_html(t, game, analysis, hands(guest))
    if over(guest) and not seat.closed_final:
        review = EMPTY if guest.transcript is None else html(
            '<button type="button" data-cmd="online-review" id="review-open">{}</button>',
            t("review.button"))
        return Dialog(table.final_summary(obs, ctx) + panel, html(
            '{}{}<button type="button" class="primary" data-cmd="online-close-final">{}</button>',
            review, button, t("modal.close")))
    if waiting_for_ack(seat, guest):
        return hand_dialog(page, table.hand_summary(obs, ctx) + panel, "online-ack-hand", button)
    return None


def news(seat: SeatTable, guest: g.Guest, table: Table, t: Translator) -> News:
    ctx = context(seat, guest, table, t)
    return (ctx.log, lambda fresh: [str(line) for line in event_lines(table, fresh, ctx)],
            asked(seat, guest))


def hinted(seat: SeatTable, guest: g.Guest, table: Table) -> tuple[str | None, tuple[str, ...]]:
    """The hint's action and its parts, highlighted on the table (as here)."""
    action = seat.hint[1] if seat.hint is not None and asked(seat, guest) else None
    return (action, tuple(table.parts(action))) if action is not None else (None, ())


def choices(seat: SeatTable, guest: g.Guest, table: Table) -> dict[str, list[str]]:
    """What this seat may choose now (Tab from the prompt goes to the first)."""
    if not asked(seat, guest):
        return {"parts": [], "acts": []}
    return {"parts": sorted(choice(seat, guest, table).offers(seat.picked)),
            "acts": list(guest.legal)}


def to_act(seat: SeatTable, guest: g.Guest) -> str:
    return "over" if over(guest) else "me" if asked(seat, guest) or ahead(seat, guest) \
        else "other"


def parts(page: Page, seat: SeatTable, guest: g.Guest, table: Table,
          analysis: SeatAnalysis = SeatAnalysis()) -> GuestParts:
    return GuestParts(tools(page, seat, guest, table), dialog(page, seat, guest, table, analysis),
                      news(seat, guest, table, page.t), hinted(seat, guest, table),
                      choices(seat, guest, table), to_act(seat, guest))
