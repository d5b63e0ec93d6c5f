"""Everything the page knows, as one value: `Page`, changed only by `reduce`.

The page holds the preferences and language, the notices, which view is up
(the start screen, the table, the statistics) and which overlay is over it,
the start screen's values and error, this tab's hold on its game, a damaged
save being reported, and the game on the table (`Session`, game.web.session,
with its own reducer). Views (game.web.views) draw regions of the page from
it; the controller (game.web.controller) carries out the effects that need
storage, the clock or the browser. Everything here runs in CPython.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, Callable, Literal, Union

from game import GAMES
from game.web import session as table_session
from game.web.i18n import Translator
from game.web.session import Message, Said, Session
from game.web.start_screen import SPEEDS, say
from game.web.storage import FailureKind

View = Literal["start", "table", "stats", "online"]  # online: game.web.online
Overlay = Literal["none", "keys", "file", "review"]
PANELS = ("log", "last", "scores")


@dataclass(frozen=True)
class Broken:
    """A save that failed its checks: kept aside under `where` (a `jhg.broken.*`
    key), or, with storage full, still under its own key (`in_place`), which
    nothing writes over until the player chooses to."""

    where: str
    reason: str
    text: str
    in_place: bool = False


@dataclass(frozen=True)
class Hold:
    """This tab's hold on games (game.web.dom.tabs): the one it plays, the
    one on its table that another tab plays, the revision of the save it
    holds, and whether the table's game is still to be written."""

    owner: str | None = None
    elsewhere: str | None = None
    revision: int = 0
    unwritten: bool = False


@dataclass(frozen=True)
class Page:
    t: Translator
    prefs: dict[str, Any] = field(default_factory=dict)  # never changed in place
    setup: dict[str, str] = field(default_factory=dict)  # the start screen's values
    view: View = "start"
    overlay: Overlay = "none"
    session: Session | None = None
    panel: str = "log"  # the side panel's open tab
    notices: tuple[tuple[str, dict[str, str]], ...] = ()  # (catalog key, its words)
    setup_error: str = ""
    broken: Broken | None = None
    # Why the browser keeps nothing now ("full", "blocked"), told once; None while it does.
    store_problem: FailureKind | None = None
    store_problem_read: bool = False  # its notice closed
    hold: Hold = Hold()
    asked_deal: int | None = None  # a deal link's deal, asked about before replacing
    saved: tuple[str, ...] = ()  # the games with a save that can be continued
    back_from_stats: View = "start"

    # -- derived facts -----------------------------------------------------------

    @property
    def at_table(self) -> bool:
        return self.view == "table" and self.session is not None

    @property
    def game_id(self) -> str:
        """The game on the table, or the one chosen on the start screen."""
        if self.at_table and self.session is not None:
            return self.session.state.game_id
        return self.setup.get("game") or playable()[0]

    @property
    def lesson(self) -> bool:
        return self.session is not None and self.session.coach is not None

    @property
    def plays_here(self) -> bool:
        """Whether this tab plays the game on its table (a lesson: always)."""
        s = self.session
        return s is not None and (s.coach is not None or self.hold.owner == s.save.get("game"))

    @property
    def handover_due(self) -> str | None:
        """The person the device must go to now, or None."""
        return self.session.handover_due if self.at_table and self.session else None

    @property
    def speed(self) -> float:
        return SPEEDS.get(self.prefs.get("speed", "normal"), SPEEDS["normal"])

    @property
    def bots_may_think(self) -> bool:
        """Whether a bot on turn may think now: at the table of a game this
        tab plays, nothing over it and no question pending."""
        return (self.at_table and self.overlay in ("none", "keys") and self.plays_here
                and self.asked_deal is None and self.session is not None
                and self.session.bots_on_turn)

    def say(self, key: str, **kw: Any) -> str:
        """A shell text in the current game's own words where it has them."""
        return say(self.t, self.game_id, key, **kw)

    def with_session(self, session: Session | None) -> Page:
        return dataclasses.replace(self, session=session)

    def with_message(self, message: Message | None) -> Page:
        """The message under the table set (nothing without a game on it)."""
        s = self.session
        return self if s is None else self.with_session(dataclasses.replace(s, message=message))


def playable() -> list[str]:
    return list(GAMES)


def bots_anew(page: Page) -> Page:
    """The table's bots asked anew (a new token: whatever thought before is
    dropped); the bot on turn, if it may think now, marked thinking at once,
    so that the frame which shows its turn shows it thinking: a bot's move is
    then one redraw, not a second one for the mark."""
    s = page.session
    if s is None:
        return page
    page = page.with_session(s := dataclasses.replace(s, token=s.token + 1))
    if not page.bots_may_think:
        return page
    seat = s.table.thinking_seat(s.state.observation(s.state.to_act))
    return page.with_session(dataclasses.replace(s, thinking=seat))


# -- the page's own actions (the game on the table has game.web.session's) -----------

@dataclass(frozen=True)
class OnTable:
    """An action for the game on the table (game.web.session)."""
    action: table_session.Action


@dataclass(frozen=True)
class ShowPanel:
    panel: str


@dataclass(frozen=True)
class Dismiss:
    """A notice closed: "notices", "broken" (a damaged save's), "unsaved"."""
    what: str


@dataclass(frozen=True)
class OpenSetup:
    """The start screen, the game on the table kept (and halted) behind it."""


@dataclass(frozen=True)
class BackToTable:
    pass


@dataclass(frozen=True)
class KeepDeal:
    """A deal link declined: back to the game in progress."""


@dataclass(frozen=True)
class SetLanguage:
    lang: str


@dataclass(frozen=True)
class SetTouch:
    """The person's last tap or click: the words of a touch screen or a mouse's."""
    touch: bool


@dataclass(frozen=True)
class SetPace:
    speed: str


@dataclass(frozen=True)
class SetupChanged:
    values: dict[str, str]


@dataclass(frozen=True)
class OpenOverlay:
    overlay: Overlay


@dataclass(frozen=True)
class CloseOverlay:
    overlay: Overlay


@dataclass(frozen=True)
class Notice:
    key: str
    words: dict[str, str]


@dataclass(frozen=True)
class StorageRefused:
    """The browser refused a write after the fact (a game in a worker,
    game.web.mirror): the page says so once, as for a write refused at once."""
    failure: FailureKind


PageAction = Union[OnTable, ShowPanel, Dismiss, OpenSetup, BackToTable, KeepDeal, SetLanguage,
                   SetTouch, SetPace, SetupChanged, OpenOverlay, CloseOverlay, Notice, StorageRefused]


# -- effects the controller carries out -----------------------------------------------

@dataclass(frozen=True)
class SavePrefs:
    pass


@dataclass(frozen=True)
class Resume:
    """The table is back in view: its bots may go on."""


PageEffect = Union[SavePrefs, Resume, table_session.Effect]
Result = tuple[Page, tuple[PageEffect, ...]]


def reduce(page: Page, action: PageAction) -> Result:
    """The page after `action`, and what the controller must do about it."""
    return HANDLERS[type(action)](page, action)


def _on_table(page: Page, act: OnTable) -> Result:
    """The game on the table's reducer; the person's decisions only at the
    table of a game this tab plays. A remote person's decision is taken
    wherever the host looks (the guest cannot send it again), and so is the
    choice the host made ahead that follows it."""
    s = page.session
    if s is None or (not page.at_table and not isinstance(
            act.action, (table_session.Halt, table_session.RemoteMoved,
                         table_session.HeldDue))):
        return page, ()
    if isinstance(act.action, DECISIONS) and not page.plays_here:
        return page.with_message(Said("notice.elsewhere")), (table_session.Flash(),)
    session, effects = table_session.reduce(s, act.action)
    return page.with_session(session), effects


DECISIONS = (table_session.Act, table_session.Pick, table_session.Confirm,
             table_session.HintAsked, table_session.Undo)


def _halted(page: Page) -> Page:
    if page.session is None:
        return page
    session, _ = table_session.reduce(page.session, table_session.Halt())
    return page.with_session(session)


def _show_panel(page: Page, act: ShowPanel) -> Result:
    return dataclasses.replace(page, panel=act.panel if act.panel in PANELS else "log"), ()


def _dismiss(page: Page, act: Dismiss) -> Result:
    if act.what == "notices":
        return dataclasses.replace(page, notices=()), ()
    if act.what == "broken":
        return dataclasses.replace(page, broken=None), ()
    return dataclasses.replace(page, store_problem_read=True), ()


def _open_setup(page: Page, _: OpenSetup) -> Result:
    page = _halted(page).with_message(None)
    return dataclasses.replace(page, view="start", overlay="none"), ()


def _back_to_table(page: Page, _: BackToTable) -> Result:
    if page.session is None:
        return page, ()
    return dataclasses.replace(page, view="table", asked_deal=None), (Resume(),)


def _keep_deal(page: Page, _: KeepDeal) -> Result:
    return _back_to_table(dataclasses.replace(page, asked_deal=None), BackToTable())


def _set_language(page: Page, act: SetLanguage) -> Result:
    t = Translator(act.lang, page.t.touch)
    return dataclasses.replace(page, t=t, prefs={**page.prefs, "lang": t.lang}), (SavePrefs(),)


def _set_touch(page: Page, act: SetTouch) -> Result:
    if act.touch == page.t.touch:
        return page, ()
    return dataclasses.replace(page, t=Translator(page.t.lang, act.touch)), ()


def _set_pace(page: Page, act: SetPace) -> Result:
    if act.speed not in SPEEDS:
        return page, ()
    return dataclasses.replace(page, prefs={**page.prefs, "speed": act.speed}), (SavePrefs(),)


def _setup_changed(page: Page, act: SetupChanged) -> Result:
    setup = {**page.setup, **act.values}
    if setup.get("game") not in playable():
        setup["game"] = playable()[0]
    return dataclasses.replace(page, setup=setup), ()


def _open_overlay(page: Page, act: OpenOverlay) -> Result:
    if act.overlay in ("file", "review"):
        page = _halted(page)  # the bots wait while it is open
    return dataclasses.replace(page, overlay=act.overlay), ()


def _close_overlay(page: Page, act: CloseOverlay) -> Result:
    if page.overlay != act.overlay:
        return page, ()
    resume: tuple[PageEffect, ...] = (Resume(),) if act.overlay in ("file", "review") else ()
    return dataclasses.replace(page, overlay="none"), resume


def _notice(page: Page, act: Notice) -> Result:
    notice = (act.key, act.words)
    if notice in page.notices:
        return page, ()
    # At an online table the newest word on a friend (joined, lost, stood in
    # for, back) replaces the older ones: a pile of them would push the table down.
    same = {act.words.get("name"), act.words.get("was")}  # (`was`: a friend's old name)
    kept = tuple(n for n in page.notices if not (
        _on_friend(n) and _on_friend(notice) and n[1]["name"] in same))
    return dataclasses.replace(page, notices=(*kept, notice)), ()


def _storage_refused(page: Page, act: StorageRefused) -> Result:
    if page.store_problem is not None:
        return page, ()
    return dataclasses.replace(page, store_problem=act.failure), ()


def _on_friend(notice: tuple[str, dict[str, str]]) -> bool:
    return notice[0].startswith("online.") and "name" in notice[1]


Handler = Callable[[Page, Any], Result]
HANDLERS: dict[type, Handler] = {
    OnTable: _on_table, ShowPanel: _show_panel, Dismiss: _dismiss, OpenSetup: _open_setup,
    BackToTable: _back_to_table, KeepDeal: _keep_deal, SetLanguage: _set_language,
    SetTouch: _set_touch,
    SetPace: _set_pace, SetupChanged: _setup_changed, OpenOverlay: _open_overlay,
    CloseOverlay: _close_overlay, Notice: _notice, StorageRefused: _storage_refused,
}
