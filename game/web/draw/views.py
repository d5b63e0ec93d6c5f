"""The page drawn from a `Page` (game.web.model.page): pure functions to regions of
markup, no browser import. The page's front (game.web.front.screen) patches
only the regions whose markup changed, then keeps the focus and reads out the news.

Each region is an element of index.html by id: the menu bar, the table's
deal and rules links, the notices, the screen (start screen, table, hand-over
or statistics), the side panel, the dialog host (`#modal`: a hand's summary,
the end of a game or of a lesson, a deal link's question) and the keys panel.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Protocol, TypeVar, cast
from urllib.parse import quote

from game.web.model import file_panel, handover, stats_page
from game.web.draw.html import EMPTY, Html, html, join
from game.web.draw.i18n import Translator
from game.web.model.page import PANELS, Page, playable
from game.web.model.session import NotYourTurn, Refused, Session
from game.web.draw.start_screen import help_html, menu_html, rules_href, setup_html
from game.web.draw.tables import Table, TableContext, WordedLog, event_lines, explain

T = TypeVar("T")


class Panels(Protocol):
    """What the views ask of online play, drawn from `page.online` by online
    play's own modules (fetched when first needed: game.web.runtime.online_door)."""

    def online_html(self, page: Page) -> Html:
        """An online table's lobby, join form or guest's table (game.web.runtime.online_door)."""

    def online_side(self, page: Page, log: WordedLog | None = None) -> Html:
        """A guest's side panel (its log worded once, in `log`), else how to play."""

    def online_bar(self, page: Page) -> Html:
        """The strip over the host's online table: seats, turn, reactions."""

    def online_table(self, page: Page) -> GuestParts | None:
        """A guest's table's parts beside its screen (None: no guest's table up)."""


@dataclass(frozen=True)
class Dialog:
    """The dialog host's content: a title-led body and its buttons, or (a
    panel of its own: the keys, the file panel) a whole sheet in an element
    named `part`, which the tests and the page's focus find by its id."""
    body: Html
    buttons: Html = EMPTY
    part: str = ""

    def markup(self) -> Html:
        if self.part:
            return html('<div class="part" id="{}">{}</div>', self.part, self.body)
        return html('<div class="sheet" role="dialog" aria-modal="true" '
                    'aria-labelledby="modal-title">{}<div class="buttons">{}</div></div>',
                    self.body, self.buttons)


# What the live region may read out: the log as the person at the screen
# sees it, how to word new entries, and whether it is their turn.
News = tuple[list[dict[str, Any]], Callable[[list[dict[str, Any]]], list[str]], bool]


@dataclass(frozen=True)
class GuestParts:
    """What an online guest's table (game.web.online.table) gives the page
    besides its screen and side panel, as the table here gives them: the
    tools (Hint), the dialog over it, the live region's news, the hinted
    action with its parts, what may be chosen now (as `frames.choices`), and
    <body>'s `toAct` ("me", "over", or "other": another seat decides)."""
    tools: Html
    dialog: Dialog | None
    news: News
    hinted: tuple[str | None, tuple[str, ...]]
    choices: dict[str, list[str]]
    to_act: str


@dataclass(frozen=True)
class Drawn:
    """The page as markup, region by region, and the facts the runtime sets
    on <body> (`data-*`: the tests and the CSS read them)."""
    title: str
    regions: dict[str, Html]
    dialog: Dialog | None  # the one dialog over the page (the dialog host, `#modal`)
    body: dict[str, str]
    hinted: tuple[str | None, tuple[str, ...]] = (None, ())  # an action and its parts
    news: News | None = None  # for the live region (None: nothing to read out)
    choices: dict[str, list[str]] | None = None  # a guest's (None: the page's own table's)


# A region drawn inside another's markup: the element is new whenever its
# parent's markup is set, so it is sent with its parent every time.
NESTED = {"tools": "screen"}


class Drawing:
    """What the draws so far made, so that the next one recomputes only the
    regions whose slice of the page changed: each region is kept with the
    values it was drawn from (the frozen values by identity, so that a check
    costs next to nothing), and the side panel's log keeps the lines already
    worded. What online play draws (from `page.online`, by its own modules)
    is drawn every time, or its markup is in the slice."""

    def __init__(self, panels: Panels) -> None:
        self.panels = panels
        self.kept: dict[str, tuple[tuple[Any, ...], Any]] = {}
        self.log = WordedLog()

    def draw(self, page: Page) -> Drawn:
        return draw(page, self.panels, self)

    def region(self, name: str, inputs: tuple[Any, ...], make: Callable[[], T]) -> T:
        """`name`'s markup: as last made if `inputs` are the same as then, else `make()`."""
        kept = self.kept.get(name)
        if kept is not None and len(kept[0]) == len(inputs) and all(
                map(_same, kept[0], inputs)):
            return cast(T, kept[1])
        made = make()
        self.kept[name] = (inputs, made)
        return made


_PLAIN = (str, int, float, bool, type(None), tuple, frozenset, dict)


def _same(before: Any, now: Any) -> bool:
    """The same input: the very object, or equal plain data (a value of ours,
    a session, is compared by identity only: it is never changed in place)."""
    return before is now or (type(before) is type(now) and isinstance(now, _PLAIN)
                             and before == now)


def draw(page: Page, panels: Panels, drawing: Drawing | None = None) -> Drawn:
    """The page as markup; with the `drawing` of the draws before, only the
    regions whose inputs changed are drawn again."""
    d = drawing or Drawing(panels)
    s, t, game = page.session, page.t, page.game_id
    body = {"lang": t.lang, "view": view_name(page),
            "actions": str(s.played if s is not None else 0),
            "lesson": s.coach.lesson.game if s is not None and s.coach is not None else "",
            "toAct": to_act(page)}
    title = d.region("title", (t, game), lambda: page.say("app.title"))
    seed = s.save["transcript"]["seed"] if s is not None else None
    kept_game = s.state.game_id if s is not None and s.coach is None else None
    online = page.view == "online"  # drawn by online play's modules: every time
    bar = panels.online_bar(page) if page.at_table else EMPTY
    at_table = (t, page.view, s, page.at_table, page.hold, game)
    regions = {
        "brand": d.region("brand", (title,), lambda: html("{}", title)),
        "menu": d.region("menu", (t, game, page.prefs.get("speed"), s is None),
                         lambda: menu(page)),
        "table-info": d.region("table-info", (t, game, page.at_table, seed),
                               lambda: table_info(page)),
        "notices": d.region("notices", (t, page.notices, page.broken, page.hold, kept_game,
                                        page.store_problem, page.store_problem_read),
                            lambda: notices(page)),
        "screen": screen(page, panels) if online else d.region(
            "screen", (*at_table, bar, page.stats, page.saved, page.setup, page.setup_error),
            lambda: screen(page, panels)),
        "tools": d.region("tools", at_table, lambda: tools(page)),
        "side": side(page, panels, d.log) if online else d.region(
            "side", (*at_table, page.panel), lambda: side(page, panels, d.log))}
    guest = panels.online_table(page) if online else None
    if guest is not None:  # a guest's table: a table, whose tools, news and hint are its own
        regions["tools"] = guest.tools
        body = {**body, "view": "table", "toAct": guest.to_act}
        return Drawn(title, regions, dialog(page, panels, guest), body, guest.hinted,
                     guest.news, guest.choices)
    shown = d.region("dialog", (*at_table, page.overlay, page.file, page.stats,
                                page.asked_deal), lambda: dialog(page, panels))
    return Drawn(title, regions, shown, body, hinted(page), news(page))


def view_name(page: Page) -> str:
    if page.view == "online":
        return "online"
    if page.view != "table" or page.session is None:
        return "stats" if page.view == "stats" else "setup"
    return "handover" if page.handover_due else "table"


def to_act(page: Page) -> str:
    s = page.session
    if s is None:
        return "none"
    return ("over" if s.state.over else "handover" if page.handover_due
            else "me" if s.human_to_act or s.ahead else "bot")  # (ahead: a choice made early)


def menu(page: Page) -> Html:
    game_buttons = EMPTY
    if page.session is not None:
        game_buttons = join(
            html('<button type="button" data-cmd="panel" data-panel="{}">{}</button>',
                 p, page.say("menu." + p)) for p in PANELS)
    return menu_html(page.t, page.prefs.get("speed", "normal"), game_buttons)


def table_info(page: Page) -> Html:
    """At the table: the deal number as a link that deals it again
    (`?game=…&deal=N`), and the illustrated rules of the game."""
    s = page.session
    if s is None or not page.at_table:
        return EMPTY
    game, seed = s.state.game_id, s.save["transcript"]["seed"]
    return html(
        '<a id="deal-link" href="?game={game}&amp;deal={seed}" title="{title}">{deal}</a>'
        ' · <a id="rules-link" href="{rules}" target="_blank" rel="noopener">{rules_word}'
        '</a>', game=game, seed=str(seed), title=page.say("table.deal_title"),
        deal=page.say("table.deal", n=seed), rules=rules_href(page.t, game),
        rules_word=page.t("table.rules"))


def notices(page: Page) -> Html:
    t = page.t
    out = [html('<div class="notice" role="status">{}<button type="button" '
                'data-cmd="dismiss" aria-label="×">×</button></div>', t(key, **kw))
           for key, kw in page.notices]
    if page.broken is not None:
        b = page.broken
        href = "data:application/json;charset=utf-8," + quote(b.text, safe="")
        words = "notice.broken_in_place" if b.in_place else "notice.broken"
        discard = EMPTY if not b.in_place else html(
            ' <button type="button" data-cmd="discard-broken" id="discard-broken">{}'
            '</button>', t("notice.discard"))
        out.append(html('<div class="notice broken" role="alert" id="broken-save">{} '
                        '<a download="broken-save.json" href="{}">{}</a>{}'
                        '<button type="button" data-cmd="dismiss-broken" aria-label="×">×'
                        '</button></div>', t(words, reason=b.reason), href,
                        t("notice.download"), discard))
    out.append(keeping(page))
    return join(out)


def keeping(page: Page) -> Html:
    """What stops the game being kept: another tab plays it (with "Play
    here"), or the browser keeps nothing (with the game's download)."""
    t, s = page.t, page.session
    game = s.state.game_id if s is not None and s.coach is None else None
    if game is not None and page.hold.elsewhere == game:
        return html('<div class="notice elsewhere" role="alert" id="elsewhere">{} '
                    '<button type="button" class="primary" data-cmd="play-here" '
                    'id="play-here">{}</button></div>',
                    t("notice.elsewhere"), t("notice.play_here"))
    if page.store_problem is None or page.store_problem_read:
        return EMPTY
    download = EMPTY if game is None else html(
        ' <button type="button" data-cmd="file-download" id="download-unsaved">{}</button>',
        t("file.download"))
    return html('<div class="notice unsaved" role="alert" id="unsaved">{}{}'
                '<button type="button" data-cmd="dismiss-unsaved" aria-label="×">×</button>'
                '</div>', t("notice.unsaved_" + page.store_problem), download)


# -- the screen -----------------------------------------------------------------------

def screen(page: Page, panels: Panels) -> Html:
    s = page.session
    if page.view == "stats":
        return stats_page.page_html(page.t, page.stats)
    if page.view == "online":
        return panels.online_html(page)
    if s is None or not page.at_table:
        return start_screen(page)
    heading = html('<h1 class="sr">{}</h1>', page.say("app.title"))
    who = page.handover_due
    if who is not None:
        return handover.panel_html(page.t, s.person_name(who, page.t))
    if s.waiting_for_ack and handover.shared(s.save["setup"]):
        return heading  # everyone reads the summary: the next deal's hand stays out of sight
    # Behind a hand's summary, the hand it sums up, not the next one dealt.
    drawn = s.finished_table(page.t) or s.table.render(s.on_table, s.context(page.t))
    return table_screen(heading, panels.online_bar(page), drawn, message_text(s, page.t))


def table_screen(heading: Html, bar: Html, drawn: Html, message: str) -> Html:
    """A table on the screen (here, or an online guest's): the strip over an
    online table, the table, and a refusal right under the hand that was
    tapped, above the tools (the stylesheet keeps it on screen when the hand
    reaches the bottom edge)."""
    return html('{}{}{}<div id="message" class="message" role="alert" aria-live="assertive">{}</div>'
                '<div class="tools" id="tools"></div>', heading, bar, drawn, message)


def message_text(s: Session, t: Translator) -> str:
    """The session's message under the table, in the page's language now."""
    said = s.message
    if said is None:
        return ""
    if isinstance(said, Refused):
        return explain(s.table, said.error, s.observation, s.context(t))
    if isinstance(said, NotYourTurn):
        return t("msg.not_your_turn", name=s.table.who_decides(s.observation, s.context(t)))
    return t(said.key, **said.params)


def tools(page: Page) -> Html:
    """The table's tools (undo, hint, review), in `#tools` in the screen: a
    region of their own, so that a hint thinking or answering redraws only
    them, not the table (see NESTED)."""
    if page.session is None or not page.at_table:
        return EMPTY
    return join((undo_bar(page), hint_bar(page), review_button(page)))


def start_screen(page: Page) -> Html:
    on_table = page.session.state.game_id if page.session is not None else None
    others = join(html('<button type="button" data-cmd="switch" data-game="{}" '
                       'class="secondary">{}</button>', g,
                       page.t("setup.continue", game=page.t("game." + g)))
                  for g in page.saved if g != on_table)
    return setup_html(page.t, playable(), page.setup, resume=page.session is not None,
                      error=setup_error_text(page), others=others)


def setup_error_text(page: Page) -> str:
    """Why the start screen's choices were not dealt, in the page's words: a
    field's label and what is wrong with its value, or a catalog text."""
    said = page.setup_error
    if said is None:
        return ""
    if "number" in said.params:  # game.web.model.inputs.BadNumber's code and params
        params = {k: v for k, v in said.params.items() if k != "number"}
        return page.say(said.key) + ": " + page.t("number." + said.params["number"], **params)
    return page.t(said.key, **said.params)


def hint_bar(page: Page) -> Html:
    s = page.session
    if s is None or not s.human_to_act or s.waiting_for_ack or s.coach is not None:
        return EMPTY
    h = s.fresh_hint
    return hint_markup(page.t, h is not None, h.action if h is not None else None,
                       lambda action: hint_words(s.table, action, s.observation,
                                                 s.context(page.t)))


def hint_markup(t: Translator, asked: bool, action: str | None,
                words: Callable[[str], str], cmd: str = "hint") -> Html:
    """Hint and its answer (`asked`: thinking while `action` is None), at any table."""
    busy = asked and action is None
    text = "" if not asked else t("hint.thinking") if action is None else \
        t("hint.says", what=words(action))
    return html('<div class="hintbar"><button type="button" data-cmd="{}" id="hint" '
                'title="{}" aria-busy="{}"{}>{}</button>'
                '<span id="hint-text" role="status" data-action="{}">{}</span></div>',
                cmd, t("hint.title"), str(busy).lower(), html(" disabled") if busy else EMPTY,
                t("hint.button"), action or "", text)


def hint_words(table: Table, action: str, obs: dict[str, Any], ctx: TableContext) -> str:
    """The hint's action in words (the hint is for this very position)."""
    try:
        return table.hint_text(action, obs, ctx)
    except Exception:  # an odd action: still show it
        return ctx.t("hint.other", action=action)


def hinted(page: Page) -> tuple[str | None, tuple[str, ...]]:
    """The suggested action (in a lesson, the coach's) and its parts, which
    the runtime highlights on the table."""
    s = page.session
    if s is None or not page.at_table or page.handover_due:
        return None, ()
    action = s.fresh_hint.action if s.fresh_hint is not None else None
    if s.coach is not None:
        action = None
        if s.human_to_act and not s.coach_waiting:
            action = s.coach.lesson.expected(s.played)
    if action is None:
        return None, ()
    return action, tuple(s.table.parts(action))


def undo_bar(page: Page) -> Html:
    s, t = page.session, page.t
    if s is None:
        return EMPTY
    mark = EMPTY
    if s.save.get("practice"):  # so that statistics can leave this game out
        mark = html('<span class="practice" id="practice">{}</span>', t("undo.practice"))
    button = EMPTY
    if s.takebacks_allowed and not s.state.over:
        can = page.plays_here and s.can_undo
        button = html('<button type="button" data-cmd="undo" id="undo" title="{}" '
                      'aria-keyshortcuts="Control+Z U"{}><span aria-hidden="true">↶ </span>{}'
                      '</button>',
                      t("undo.title"), EMPTY if can else html(" disabled"), t("undo.button"))
    if not (mark or button):
        return EMPTY
    return html('<div class="undobar">{}{}</div>', button, mark)


def review_button(page: Page) -> Html:
    """At the table of a game over, once its summary is closed: Review any hand of it."""
    s = page.session
    if s is None or not s.state.over or not s.save.get("closed_final"):
        return EMPTY
    return html('<button type="button" data-cmd="review" id="review-open">{}</button>',
                page.t("review.button"))


# -- the side panel -----------------------------------------------------------------------

def side(page: Page, panels: Panels, log: WordedLog | None = None) -> Html:
    s = page.session
    if page.view == "stats":
        return html('<div class="help"><p>{}</p></div>', page.t("stats.help"))
    if page.view == "online":
        return panels.online_side(page, log)
    if s is None or not page.at_table:
        return help_html(page.t, page.game_id)
    if page.handover_due:  # nothing of the game until the next person taps
        return EMPTY
    # A lesson's coach heads the side panel: beside the table on a wide
    # screen, right under the person's hand on a phone.
    return side_panel(page, s.table, s.observation, s.context(page.t), coach_bubble(page, s),
                      file_panel.side_buttons(page.t), log)


def side_panel(page: Page, table: Table, obs: dict[str, Any], ctx: TableContext,
               head: Html = EMPTY, buttons: Html = EMPTY, log: WordedLog | None = None) -> Html:
    """The side panel of a table (here, or an online guest's): the log, the
    last trick or the score sheet, as the seat shown sees them."""
    tabs = join(
        html('<button type="button" role="tab" data-cmd="panel" data-panel="{}" '
             'aria-selected="{}">{}</button>', p, "true" if p == page.panel else "false",
             page.say("menu." + p)) for p in PANELS)
    if page.panel == "scores":
        body = table.score_sheet(obs, ctx)
    elif page.panel == "last":
        body = table.last_trick(obs, ctx)
    else:
        lines = (log or WordedLog()).markup(table, ctx, 150)
        # It scrolls: keyboard users reach it (tabindex) to scroll it back. Its
        # box starts at its end (site.css, .log-scroll): no script scrolls it.
        body = html('<div class="log-scroll"><ol class="log" id="log" tabindex="0" '
                    'aria-label="{}">{}</ol></div>', page.say("menu.log"), lines)
    return html('{}<div class="tabs" role="tablist">{}</div>{}'
                '<div class="panel" id="panel-{}">{}</div>{}', head, tabs,
                stats_button(page), page.panel, body, buttons)


def stats_button(page: Page) -> Html:
    """The way to the statistics beside the side panel's tabs, shown on a
    phone only: there the menu bar has no room for it."""
    return html('<button type="button" data-cmd="stats" class="side-stats" id="side-stats">'
                '{}</button>', page.t("stats.title"))


def coach_bubble(page: Page, s: Session) -> Html:
    if s.coach is None:
        return EMPTY
    return s.coach.bubble(s.played, s.human_to_act and not s.waiting_for_ack, s.table,
                          s.observation, s.context(page.t))


# -- the dialog host ---------------------------------------------------------------------

def dialog(page: Page, panels: Panels, guest: GuestParts | None = None) -> Dialog | None:
    """The one dialog over the page, the topmost: the keys, the file panel,
    then over the table a deal link's question, the end of a lesson, of a
    game or of a hand (back in view when the panel over it closes)."""
    if page.overlay == "keys":
        return Dialog(keys_panel(page), part="keys")
    file = file_panel.panel_html(page.t, page.file) if page.overlay == "file" else None
    if file is not None:
        return Dialog(file, part="file-panel")
    if guest is not None:
        return guest.dialog
    return table_dialog(page)


def table_dialog(page: Page) -> Dialog | None:
    s, t = page.session, page.t
    if s is None or not page.at_table:
        return None
    if page.asked_deal is not None:
        deal = page.say("table.deal", n=page.asked_deal)
        return Dialog(html('<h2>{}</h2><p>{}</p>', t("deal.replace_title"),
                           t("deal.replace", deal=deal)),
                      html('<button type="button" class="primary" data-cmd="deal-keep" '
                           'id="deal-keep">{}</button><button type="button" '
                           'data-cmd="deal-replace" id="deal-replace">{}</button>',
                           t("deal.keep"), deal))
    if page.handover_due:  # a summary read before stays out of the page, too
        return None
    review = html('<button type="button" data-cmd="review" id="review-open">{}</button>'
                  '<button type="button" data-cmd="analyse" id="analyse-open">{}</button>',
                  t("review.button"), page.say("analysis.button"))
    obs, ctx = s.observation, s.context(t)
    if s.coach is not None and (s.state.over or s.waiting_for_ack):
        return lesson_end(page, s)
    if s.state.over and not s.save.get("closed_final"):
        return Dialog(s.table.final_summary(obs, ctx)
                      + stats_page.final_note(t, s.save, page.stats),
                      html('<button type="button" class="primary" data-cmd="new">{}</button>'
                           '{}<button type="button" data-cmd="close-final">{}</button>',
                           t("menu.new"), join((review, file_panel.final_button(t))),
                           t("modal.close")))
    if s.waiting_for_ack:
        return hand_dialog(page, s.table.hand_summary(obs, ctx), "ack-hand", review)
    return None


def hand_dialog(page: Page, summary: Html, cmd: str, more: Html = EMPTY) -> Dialog:
    """A hand's summary over a table (here, or an online guest's): Next hand."""
    return Dialog(summary, html('<button type="button" class="primary" data-cmd="{}" '
                                'id="next-hand">{}</button>{}', cmd,
                                page.say("modal.next_hand"), more))


def lesson_end(page: Page, s: Session) -> Dialog:
    """The end of the lesson: the coach on the scoring, the hand's own
    summary (whose <h2> titles the dialog), then a real game (or the lesson again)."""
    assert s.coach is not None
    t, obs, ctx = page.t, s.observation, s.context(page.t)
    ending = s.coach.lesson.ending()
    words = html('<p class="coach-text">{}</p>', t(ending.key)) if ending else EMPTY
    summary = s.table.final_summary(obs, ctx) if s.state.over else s.table.hand_summary(obs, ctx)
    body = html('<section class="coach coach-end" id="coach" aria-labelledby="coach-title">'
                '<p class="coach-title" id="coach-title">{}</p>{}</section>{}',
                t("coach.title"), words, summary)
    buttons = html('<button type="button" class="primary" data-cmd="lesson-done" '
                   'id="lesson-done">{}</button><button type="button" data-cmd="lesson" '
                   'id="lesson-again">{}</button>', t("coach.real_game"), t("coach.again"))
    return Dialog(body, buttons)


def keys_panel(page: Page) -> Html:
    """Every shortcut, in the page's language."""
    t, s = page.t, page.session
    undo = ("undo",) if s is not None and s.takebacks_allowed else ()
    rows = join(html('<tr><th scope="row"><kbd>{}</kbd></th><td>{}</td></tr>',
                     t(f"keys.{k}.key"), page.say(f"keys.{k}"))
                for k in ("tab", "first", "arrows", "act", "escape", *undo, "help", "review"))
    return html(
        '<div class="sheet" role="dialog" aria-modal="true" aria-labelledby="keys-title">'
        '<h2 id="keys-title">{title}</h2><table class="keys">{rows}</table>'
        '<div class="buttons"><button type="button" class="primary" data-cmd="keys-close">'
        '{close}</button></div></div>',
        title=t("keys.title"), rows=rows, close=t("keys.close"))


def news(page: Page) -> News | None:
    """What the live region may read out: the log as the person at the
    screen sees it, how to word it, and whether it is their turn (None
    while the device goes to another person)."""
    s = page.session
    if s is None or not page.at_table or page.handover_due:
        return None
    ctx = s.context(page.t)
    return (s.log_so_far, lambda fresh: event_lines(
        s.table, handover.seen_by(fresh, s.at_screen), ctx),
        s.human_to_act and not s.waiting_for_ack)
