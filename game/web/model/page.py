"""Everything the page knows, as one value: `Page`, changed only by `reduce`.

The page holds the preferences and language, the notices, which view is up
(the start screen, the table, the statistics) and which overlay is over it,
the start screen's values and error, this tab's hold on its game, a damaged
save being reported, the game on the table (`Session`, game.web.model.session),
the statistics screen (`StatsScreen`, game.web.model.stats_page), the file
dialog (`FileDialog`, game.web.model.file_panel) and an online table's screen
(game.web.online.state), each with its own reducer.
Views (game.web.draw.views) draw regions of the page from it. A new game, a
lesson, a file, switching games, another tab's write are actions decided
here (the seed parsed, the save built: game.web.model.new_tables); the controller
(game.web.runtime.controller) carries out the effects that need storage, chance,
this tab's locks, the clock or the browser, and answers with actions
(`Drawn`, `NewTable`, `Claimed`, `SaveLoaded`, `StatsRead`...): its dispatch
loop is the one place that stores a new `Page`. Everything here runs in CPython.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Literal, Union

from game import GAMES
from game.core.state import State
from game.web.model import file_panel as fp
from game.web.model import new_tables, saves
from game.web.model import session as table_session
from game.web.model import stats as st
from game.web.model import stats_page as sp
from game.web.model.coach import Coach
from game.web.model.effects import ChooseFile, Focus
from game.web.model.file_panel import FileDialog
from game.web.model.files import OpenedFile
from game.web.model import analysing as an
from game.web.model import analysis_view as av
from game.web.model import replay
from game.web.draw.i18n import Translator
from game.web.model.inputs import BadNumber, read_int
from game.web.model.review import ReviewCommand, Reviewing, opened, review
from game.web.model.session import Message, Said, Session
from game.web.model.stats_page import StatsScreen
from game.web.draw.start_screen import SPEEDS, say
from game.web.runtime.storage import FailureKind
from game.web.draw.tables import Table

if TYPE_CHECKING:  # online play's part (online.zip): its values only, never loaded here
    from game.web.online.state import GuestScreen, HostScreen

View = Literal["start", "table", "stats", "online"]  # online: game.web.runtime.online_door
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
    # Why the start screen's choices were not dealt: a catalog text, or (with
    # `problem`) a field's label and what is wrong with its value.
    setup_error: Said | None = None
    broken: Broken | None = None
    # Why the browser keeps nothing now ("full", "blocked"), told once; None while it does.
    store_problem: FailureKind | None = None
    store_problem_read: bool = False  # its notice closed
    hold: Hold = Hold()
    asked_deal: int | None = None  # a deal link's deal, asked about before replacing
    saved: tuple[str, ...] = ()  # the games with a save that can be continued
    back_from_stats: View = "start"
    stats: StatsScreen = StatsScreen()
    file: FileDialog = FileDialog()
    review: Reviewing | None = None  # over the page, its dialog drawn by its own frames
    online: HostScreen | GuestScreen | None = None  # an online table's (game.web.runtime.online_door)

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


# -- the page's own actions (the game on the table has game.web.model.session's) -----------

@dataclass(frozen=True)
class OnTable:
    """An action for the game on the table (game.web.model.session)."""
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
class NoticesGone:
    """Notices that leave by themselves (an online table's "joined", "back")."""
    notices: tuple[tuple[str, dict[str, str]], ...]


@dataclass(frozen=True)
class StorageRefused:
    """The browser refused a write after the fact (a game in a worker,
    game.web.runtime.mirror): the page says so once, as for a write refused at once."""
    failure: FailureKind


# -- the statistics page, the file dialog (their own reducers), and the runtime's
# answers: what storage, the locks and the deal said, as actions ------------------

@dataclass(frozen=True)
class ShowStats:
    """The statistics page (its record read afresh), the bots waiting."""


@dataclass(frozen=True)
class CloseStats:
    """Back to the view it was opened over."""


@dataclass(frozen=True)
class LeaveStats:
    """Another command (a new game, back to a game) closes the page first."""


@dataclass(frozen=True)
class Say:
    """A word under the table, flashed (a review that could not open...)."""
    said: Said


@dataclass(frozen=True)
class BotsAnew:
    """Whatever was thinking is dropped (a new token); the bot on turn
    thinks, if this tab plays the game and nothing holds it."""


@dataclass(frozen=True)
class Written:
    """The game on the table written with `revision`."""
    revision: int


@dataclass(frozen=True)
class PlayedElsewhere:
    """Another tab plays `game` now: this one halts its bots, writes nothing
    more and says so (with "Play here")."""
    game: str


@dataclass(frozen=True)
class SaveLoaded:
    """A save on the table (game.web.runtime.keeper's `load`)."""
    session: Session
    revision: int


@dataclass(frozen=True)
class SetAside:
    """A damaged save kept aside (or left in place) and reported."""
    broken: Broken


@dataclass(frozen=True)
class NewTable:
    """A new game on the table (dealt, a lesson, continued from a file):
    nothing of the one before goes on. `revision`: the save it goes on
    from (None: a lesson, never saved)."""
    session: Session
    revision: int | None


@dataclass(frozen=True)
class DealLinked:
    """`?deal=N`: that deal, resumed if in progress, dealt if no game is, else asked about."""
    deal: int


@dataclass(frozen=True)
class TakeDeal:
    """The linked deal asked about, instead of the game in progress."""


@dataclass(frozen=True)
class ShowStart:
    """The start screen of `game`."""
    game: str


@dataclass(frozen=True)
class SaveUpdated:
    """The save of the game on the table changed (its id, an online seating)."""
    changes: dict[str, Any]


@dataclass(frozen=True)
class Crashed:
    """An unexpected error: the table goes, the save kept aside (`broken`), or
    a notice says what happened (`reason`)."""
    broken: Broken | None
    reason: str


@dataclass(frozen=True)
class SavedListed:
    """The games with a save, read for the start screen."""
    games: tuple[str, ...]


StatsRead, StatsWritten = sp.StatsRead, sp.StatsWritten  # the runtime's answers (keeper)


# -- a new game, a lesson, a file, another tab: decided here, the outside world's
# part (a random seed, storage, this tab's locks) asked of the runtime as effects --

@dataclass(frozen=True)
class NewGame:
    """Deal the start screen's choices."""


@dataclass(frozen=True)
class DealAgain:
    """The same options dealt anew (the embed's Restart)."""


@dataclass(frozen=True)
class Drawn:
    """The runtime's answer to `Draw`: the deal's seed and when it starts."""
    seed: int
    started_ms: int


@dataclass(frozen=True)
class PutOnTable:
    """A new game on the table, made elsewhere (an online table): saved and
    made current unless it is a lesson (`coach`). `heard`: the log's entries
    the live region need not read."""
    table: Table
    state: State
    save: dict[str, Any]
    coach: Coach | None = None
    heard: int = 0
    message: Message | None = None


@dataclass(frozen=True)
class ContinueFrom:
    """The runtime's answer to `ContinueFile` when no save stands in the way:
    the file's position after `step` actions, as a new game against bots."""
    opened: OpenedFile
    step: int


@dataclass(frozen=True)
class SwitchGame:
    """Back to another game in progress; the one on the table stays saved."""
    game: str


@dataclass(frozen=True)
class LoadDone:
    """The runtime's answer to `Load`: whether a save went on the table."""
    loaded: bool
    claim: bool


@dataclass(frozen=True)
class StartLesson:
    """The chosen game's lesson on the table; the real game stays in its save."""


@dataclass(frozen=True)
class EndLesson:
    """From the lesson to the start screen of its game, the real game (if
    any) back on the table behind it, untouched."""


@dataclass(frozen=True)
class TakeHold:
    """Hold `game` for this tab, letting go of the one it held (`steal`: from
    the tab that holds it)."""
    game: str
    steal: bool = False


@dataclass(frozen=True)
class Claimed:
    """The locks' answer to `Claim`: whether this tab got `game`."""
    game: str
    got: bool
    steal: bool


@dataclass(frozen=True)
class PlayHere:
    """Take the game back from the tab that plays it."""


@dataclass(frozen=True)
class DiscardBroken:
    """A damaged save left in place goes, by the player's choice."""


@dataclass(frozen=True)
class FileChosen:
    """The browser's answer to `ChooseFile`: `data` None if too big to read, or unreadable."""
    purpose: str  # "game" (the file panel) or "stats"
    name: str
    size: int
    data: bytes | None


@dataclass(frozen=True)
class StorageChanged:
    """Another tab wrote `key`."""
    key: str
    value: str | None


@dataclass(frozen=True)
class OpenReview:
    """Review `transcript` (JSON) from `me`'s seat, or (None) the game on the
    table; one review at a time. `analyse`: and begin the reviewed hand's
    analysis (the summary's "Analyse this hand")."""
    transcript: dict[str, Any] | None = None
    me: Any = None
    analyse: bool = False


@dataclass(frozen=True)
class ReviewTick:
    """The review's autoplay is due (its run)."""
    run: int


@dataclass(frozen=True)
class ReviewFailed:
    """The review could not go on: it closes and says why."""
    reason: str



PageAction = Union[OnTable, ShowPanel, Dismiss, OpenSetup, BackToTable, KeepDeal, SetLanguage,
                   SetTouch, SetPace, SetupChanged, OpenOverlay, CloseOverlay, Notice, NoticesGone, StorageRefused,
                   ShowStats, CloseStats, LeaveStats, Say, BotsAnew, Written,
                   PlayedElsewhere, SaveLoaded, SetAside, NewTable,
                   DealLinked, TakeDeal, ShowStart,
                   SaveUpdated, Crashed, SavedListed, OpenReview, ReviewCommand, ReviewTick,
                   ReviewFailed, NewGame, DealAgain, Drawn, PutOnTable, ContinueFrom, SwitchGame,
                   LoadDone, StartLesson, EndLesson, TakeHold, Claimed, PlayHere, DiscardBroken,
                   FileChosen, StorageChanged, an.Decided, sp.StatsAction, fp.FileAction]


# -- effects the controller carries out -----------------------------------------------

@dataclass(frozen=True)
class SavePrefs:
    pass


@dataclass(frozen=True)
class Resume:
    """The table is back in view: its bots may go on."""


@dataclass(frozen=True)
class ThinkBot:
    """The bot on turn thinks, with the session's `token` (game.web.runtime.thinking)."""
    token: int


@dataclass(frozen=True)
class FlashSaid:
    """Flash a word under the table (there may be no table to hold it)."""
    said: Said


@dataclass(frozen=True)
class Draw:
    """The deal's seed (None: drawn at random) and the time it starts:
    answered by `Drawn`."""
    seed: int | None


@dataclass(frozen=True)
class SeatTable:
    """Put `session` on the table: the screen's motion and live region start
    afresh (`heard`: the log's entries it need not read); answered by
    `NewTable` with the revision of its game's stored save (`saved`; a
    lesson is never saved: None)."""
    session: Session
    heard: int
    saved: bool


@dataclass(frozen=True)
class MakeCurrent:
    """`game` is the one this tab shows after a reload (storage)."""
    game: str


@dataclass(frozen=True)
class Load:
    """The save under `key` (None: of the game this tab showed last) on the
    table, a damaged one set aside; answered by `LoadDone`."""
    key: str | None
    claim: bool = False  # once loaded, this tab holds its game


@dataclass(frozen=True)
class Claim:
    """Ask this tab's locks for `game`: answered by `Claimed`."""
    game: str
    steal: bool


@dataclass(frozen=True)
class Release:
    """This tab's lock on `game` let go."""
    game: str


@dataclass(frozen=True)
class Forget:
    """Remove `key` from storage."""
    key: str


@dataclass(frozen=True)
class Then:
    """`action`, once the effects before it are carried out and their answers reduced."""
    action: PageAction


@dataclass(frozen=True)
class DrawReview:
    """Send the review's frame (`head`: with its heading), focusing `keep`."""
    keep: str | None
    head: bool


@dataclass(frozen=True)
class ReviewWait:
    """A `ReviewTick(run)` after the autoplay's pause."""
    run: int


@dataclass(frozen=True)
class ReviewGone:
    """Take the review's dialog away."""


PageEffect = Union[SavePrefs, Resume, ThinkBot, FlashSaid, Draw, SeatTable, MakeCurrent, Load,
                   Claim, Release, Forget, Then, DrawReview, ReviewWait, ReviewGone, Focus, ChooseFile,
                   an.AnalyseInBackground, an.DrawAnalysis,
                   table_session.Effect, sp.StatsEffect, fp.FileEffect]
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


def _notices_gone(page: Page, act: NoticesGone) -> Result:
    return dataclasses.replace(page, notices=tuple(
        n for n in page.notices if n not in act.notices)), ()


def _storage_refused(page: Page, act: StorageRefused) -> Result:
    if page.store_problem is not None:
        return page, ()
    return dataclasses.replace(page, store_problem=act.failure), ()


def _on_friend(notice: tuple[str, dict[str, str]]) -> bool:
    return notice[0].startswith("online.") and "name" in notice[1]


# -- the statistics page and the file dialog --------------------------------------

def _show_stats(page: Page, _: ShowStats) -> Result:
    back = page.view if page.view != "stats" else page.back_from_stats
    page = _halted(page)  # the bots wait while the page is open
    return dataclasses.replace(page, view="stats", back_from_stats=back, overlay="none",
                               stats=sp.shown(page.stats)), (sp.ReadStats(), sp.TITLE)


def _close_stats(page: Page, _: CloseStats) -> Result:
    back = page.back_from_stats if page.session is not None else "start"
    return dataclasses.replace(page, view=back, stats=sp.shown(page.stats)), (Resume(),)


def _leave_stats(page: Page, _: LeaveStats) -> Result:
    stats = dataclasses.replace(page.stats, pending="", incoming=None)
    return dataclasses.replace(page, view="start", stats=stats), ()


def _on_stats(page: Page, act: sp.StatsAction) -> Result:
    stats, effects = sp.reduce(page.stats, act)
    if page.view != "stats":  # (a file chosen as the page closed: nothing to focus)
        effects = tuple(e for e in effects if not isinstance(e, Focus))
    page = dataclasses.replace(page, stats=stats)
    if isinstance(act, sp.StatsRead) and act.notice is not None \
            and act.notice not in page.notices:
        page = dataclasses.replace(page, notices=(*page.notices, act.notice))
    return page, effects


def _on_file(page: Page, act: fp.FileAction) -> Result:
    dialog, own = fp.reduce(page.file, act)
    effects: tuple[PageEffect, ...] = own
    page = dataclasses.replace(page, file=dialog)
    if isinstance(act, fp.GameFileChosen):
        page, _ = _open_overlay(page, OpenOverlay("file"))  # the bots wait while it is open
    elif isinstance(act, (fp.CloseFile, fp.ReviewFile)):
        page, resume = _close_overlay(page, CloseOverlay("file"))  # the bots carry on
        effects = (*resume, *effects)
    return page, effects


# -- what the runtime was told (storage, the locks, a deal) ----------------------------

def _say_it(page: Page, act: Say) -> Result:
    return page.with_message(act.said), (FlashSaid(act.said),)


def _bots_anew(page: Page, _: BotsAnew) -> Result:
    s = page.session
    if s is None:
        return page, ()
    page = page.with_session(s := dataclasses.replace(s, token=s.token + 1))
    if not page.bots_may_think:
        return page, ()
    # The bot on turn marked thinking at once: the frame that shows its turn
    # shows it thinking, and its move is one redraw, not a second for the mark.
    seat = s.table.thinking_seat(s.state.observation(s.state.to_act))
    return page.with_session(dataclasses.replace(s, thinking=seat)), (ThinkBot(s.token),)


def _hold(page: Page, **changes: Any) -> Page:
    return dataclasses.replace(page, hold=dataclasses.replace(page.hold, **changes))


def _written(page: Page, act: Written) -> Result:
    return _hold(page, revision=act.revision, unwritten=False), ()


def _played_elsewhere(page: Page, act: PlayedElsewhere) -> Result:
    released: tuple[PageEffect, ...] = ()
    if page.hold.owner == act.game:
        page, released = _hold(page, owner=None), (Release(act.game),)
    s = page.session
    if s is None or s.save.get("game") != act.game:
        return page, released
    return _halted(_hold(page, elsewhere=act.game)), released


def _save_loaded(page: Page, act: SaveLoaded) -> Result:
    page = _hold(page, revision=act.revision, unwritten=False)
    return dataclasses.replace(page, session=act.session, view="table", setup={
        **page.setup, "game": act.session.state.game_id}), ()


def _set_aside(page: Page, act: SetAside) -> Result:
    return dataclasses.replace(page, broken=act.broken, view="start"), ()


def _new_table(page: Page, act: NewTable) -> Result:
    """Saved (at the revision it goes on from), made current and held by
    this tab, unless it is a lesson."""
    game = act.session.state.game_id
    page = dataclasses.replace(
        page, session=act.session, view="table", overlay="none", setup_error=None,
        asked_deal=None, file=FileDialog(), setup={**page.setup, "game": game})
    if act.revision is None:
        return page, ()
    page = _hold(page, revision=act.revision, unwritten=True)
    page, claim = _take_hold(page, TakeHold(game))
    return page, (MakeCurrent(game), table_session.Persist(), *claim)


def _refused(page: Page, error: Said, focus: str | None = None) -> Result:
    """The start screen's choices cannot be dealt: why (`focus`: the field)."""
    page = dataclasses.replace(page, setup_error=error)
    if focus is None:
        return dataclasses.replace(page, view="start"), ()
    return page, (Focus(focus),)


def _deal_linked(page: Page, act: DealLinked) -> Result:
    """Another deal in progress is never discarded: the page then asks."""
    page = dataclasses.replace(page, setup={**page.setup, "seed": str(act.deal)})
    s = page.session
    if s is None and page.broken is None:  # a broken save is reported first
        return _new_game(page, NewGame())
    if s is not None and s.save["transcript"]["seed"] != act.deal:
        return dataclasses.replace(page, asked_deal=act.deal), ()
    return page, ()


def _take_deal(page: Page, _: TakeDeal) -> Result:
    if page.asked_deal is None:
        return page, ()
    return _new_game(dataclasses.replace(page, asked_deal=None,
                                         setup={**page.setup, "seed": str(page.asked_deal)}),
                     NewGame())


def _show_start(page: Page, act: ShowStart) -> Result:
    return dataclasses.replace(page, view="start", setup={**page.setup, "game": act.game}), (
        Focus("#start"),)


def _save_updated(page: Page, act: SaveUpdated) -> Result:
    s = page.session
    return (page, ()) if s is None else (page.with_session(s.with_save(**act.changes)), ())


def _crashed(page: Page, act: Crashed) -> Result:
    page = dataclasses.replace(page, session=None, view="start", overlay="none")
    if act.broken is not None:
        return dataclasses.replace(page, broken=act.broken), ()
    return dataclasses.replace(page, broken=None, notices=(
        *page.notices, ("notice.crash", {"reason": act.reason}))), ()


def _saved_listed(page: Page, act: SavedListed) -> Result:
    return dataclasses.replace(page, saved=act.games), ()


# -- a new game, a lesson, a file, switching games, this tab's hold -------------------

def _new_game(page: Page, _: NewGame | DealAgain) -> Result:
    """The start screen's choices, checked; the seed typed, or one drawn at random."""
    text = page.setup.get("seed", "").strip()
    try:
        seed = read_int(text, "") if text else None
    except BadNumber as e:  # said after the seed field's label, in the page's words
        return _refused(page, Said("setup.seed", {"number": e.code, **e.params}), "#f-seed")
    broken = page.broken
    if broken is not None and broken.in_place and broken.where == saves.key(page.setup["game"]):
        return _refused(page, Said("setup.broken_in_place"))
    return page, (Draw(seed),)


def _deal_again(page: Page, act: DealAgain) -> Result:
    return _new_game(_halted(page), act)


def _drawn(page: Page, act: Drawn) -> Result:
    """The deal on the table; its choices kept as the next game's."""
    page = dataclasses.replace(page, prefs={**page.prefs, "setup": page.setup})
    made = new_tables.dealt(page.setup, act.seed, act.started_ms)
    return page, (SavePrefs(), _seat(page, *made), Resume())


def _seat(page: Page, table: Table, state: State, save: dict[str, Any],
          coach: Coach | None = None, heard: int = 0,
          message: Message | None = None) -> SeatTable:
    """A new game on the table: nothing of the one before goes on (a new token)."""
    token = page.session.token + 1 if page.session is not None else 0
    session = Session.start(table, state, save, coach=coach, message=message, token=token)
    return SeatTable(session, heard, saved=coach is None)


def _put_on_table(page: Page, act: PutOnTable) -> Result:
    return page, (_seat(page, act.table, act.state, act.save, act.coach, act.heard,
                        act.message),)


def _continue_from(page: Page, act: ContinueFrom) -> Result:
    table, state, save = new_tables.continued(act.opened, act.step)
    said = Said("file.continued", {"n": act.step, "file": act.opened.name})
    return page, (_seat(page, table, state, save, heard=len(save["log"]), message=said),
                  Focus("fallback"), Resume())  # (heard: the story so far is in the log)


def _switch_game(page: Page, act: SwitchGame) -> Result:
    page = _halted(page)  # the bots of the game on the table stop
    key = saves.key(act.game)
    damaged = page.broken is not None and page.broken.in_place and page.broken.where == key
    if act.game not in playable() or damaged:  # (a damaged save left in place cannot go on)
        return page, (Resume(),)
    return page, (Load(key, claim=True), Resume())


def _load_done(page: Page, act: LoadDone) -> Result:
    s = page.session
    if not (act.loaded and act.claim) or s is None:
        return page, ()
    return _take_hold(page, TakeHold(s.state.game_id))


def _start_lesson(page: Page, _: StartLesson) -> Result:
    table, state, save, coach = new_tables.lesson(page.setup["game"])
    return page, (_seat(page, table, state, save, coach=coach),
                  Focus("#coach-next, #coach"), Resume())


def _end_lesson(page: Page, _: EndLesson) -> Result:
    s = page.session
    if s is None or s.coach is None:
        return page, ()
    return page.with_session(None), (  # its bots stop with it
        Load(None, claim=True), Then(ShowStart(s.coach.lesson.game)))


def _take_hold(page: Page, act: TakeHold) -> Result:
    """Once held (`Claimed`), the table is saved and its bots play; held by
    another tab, it stays in view, read-only, with "Play here"."""
    owner = page.hold.owner
    if owner is None or owner == act.game:
        return page, (Claim(act.game, act.steal),)
    return _hold(page, owner=None), (Release(owner), Claim(act.game, act.steal))


def _claimed(page: Page, act: Claimed) -> Result:
    s = page.session
    if s is None or s.save.get("game") != act.game or s.coach is not None:
        return page, (Release(act.game),) if act.got else ()  # the table moved on meanwhile
    if not act.got:
        return _played_elsewhere(page, PlayedElsewhere(act.game))
    page = _hold(page, owner=act.game, elsewhere=None)
    if act.steal:  # the other tab's latest moves
        return page, (Load(saves.key(act.game)), Resume())
    if page.hold.unwritten:  # a table this tab made and could not write yet
        return page, (table_session.Persist(), Resume())
    return page, (Resume(),)


def _play_here(page: Page, _: PlayHere) -> Result:
    if page.hold.elsewhere is None:
        return page, ()
    return _take_hold(page, TakeHold(page.hold.elsewhere, steal=True))


def _discard_broken(page: Page, _: DiscardBroken) -> Result:
    """The player's choice, after its download: the damaged save left in place goes."""
    if page.broken is None or not page.broken.in_place:
        return page, ()
    return dataclasses.replace(page, broken=None, setup_error=None), (
        Forget(page.broken.where),)


def _file_chosen(page: Page, act: FileChosen) -> Result:
    if act.purpose == "stats":
        return _on_stats(page, sp.StatsFileChosen(act.size, act.data))
    return _on_file(page, fp.GameFileChosen(act.name, act.size, act.data))


def _storage_changed(page: Page, act: StorageChanged) -> Result:
    """Another tab wrote the statistics (read afresh) or a save: this table's
    game, newer, is that tab's to play now (browsers without Web Locks; a
    safety net with them)."""
    read: tuple[PageEffect, ...] = (sp.ReadStats(),) if act.key == st.KEY else ()
    s = page.session
    if s is None or s.coach is not None or act.key != saves.key(s.save["game"]) \
            or saves.revision_of(act.value) <= page.hold.revision:
        return page, read
    page, released = _played_elsewhere(page, PlayedElsewhere(s.save["game"]))
    return page, (*read, *released)


# -- the review over the page (game.web.model.review) ---------------------------------------

def _open_review(page: Page, act: OpenReview) -> Result:
    """Never writes the save, never touches the game; one that cannot open
    says why under the table."""
    transcript, me = act.transcript, act.me
    if page.review is not None:
        return page, ()  # one review at a time
    if transcript is None:
        if page.session is None:
            return page, ()
        transcript, me = page.session.save["transcript"], page.session.save["setup"]["me"]
    found = opened(transcript, me, on_table=act.transcript is None)
    if not isinstance(found, Reviewing):
        return _say_it(page, Say(Said(*found)))
    page, _ = _open_overlay(page, OpenOverlay("review"))  # the bots wait while it is open
    if act.analyse:
        return _reviewed(page, *av.COMMANDS["analyse"](found, ReviewCommand("analyse")))
    return _reviewed(page, found, (replay.Draw(),))


def _reviewed(page: Page, r: Reviewing | None,
              effects: tuple[replay.PlayEffect | an.Effect, ...]) -> Result:
    """The review after its reducer; closed (None): the page as it was, the bots going on."""
    if r is None:
        page, resume = _close_overlay(dataclasses.replace(page, review=None),
                                      CloseOverlay("review"))
        return page, (ReviewGone(), *resume)
    done: list[PageEffect] = []
    for effect in effects:
        if isinstance(effect, replay.Draw):
            done.append(DrawReview(effect.keep, head=r.headed != r.hand))
            r = dataclasses.replace(r, headed=r.hand)
        elif isinstance(effect, replay.Wait):
            done.append(ReviewWait(effect.run))
        elif isinstance(effect, an.KeepAnalysis):
            page, kept = _keep_analysis(page, effect)
            done += kept
        else:
            done.append(effect)
    return dataclasses.replace(page, review=r), tuple(done)


def _analysis_decided(page: Page, act: an.Decided) -> Result:
    if page.review is None:
        return page, ()
    return _reviewed(page, *av.decided(page.review, act))


def _keep_analysis(page: Page, act: an.KeepAnalysis) -> Result:
    """A finished analysis into the save of the game on the table (its
    transcript's `analysis`), so that reopening shows it without computing it."""
    s = page.session
    if s is None or page.review is None or \
            page.review.transcript.seed != s.save["transcript"].get("seed"):
        return page, ()
    transcript = {**s.save["transcript"], "analysis": [h.to_json() for h in act.hands]}
    return page.with_session(s.with_save(transcript=transcript)), (table_session.Persist(),)


def _review_step(page: Page, act: ReviewCommand | ReviewTick) -> Result:
    if page.review is None:
        return page, ()
    if isinstance(act, ReviewCommand) and act.cmd in av.COMMANDS:  # the hand analysis's
        return _reviewed(page, *av.COMMANDS[act.cmd](page.review, act))
    step = replay.Tick(act.run) if isinstance(act, ReviewTick) else act
    return _reviewed(page, *review(page.review, step))


def _review_failed(page: Page, act: ReviewFailed) -> Result:
    page, said = _say_it(page, Say(Said("review.failed", {"reason": act.reason[:300]})))
    if page.review is None:
        return page, said
    page, closed = _reviewed(page, None, ())
    return page, (*said, *closed)


Handler = Callable[[Page, Any], Result]
HANDLERS: dict[type, Handler] = {
    OnTable: _on_table, ShowPanel: _show_panel, Dismiss: _dismiss, OpenSetup: _open_setup,
    BackToTable: _back_to_table, KeepDeal: _keep_deal, SetLanguage: _set_language,
    SetTouch: _set_touch,
    SetPace: _set_pace, SetupChanged: _setup_changed, OpenOverlay: _open_overlay,
    CloseOverlay: _close_overlay, Notice: _notice, NoticesGone: _notices_gone,
    StorageRefused: _storage_refused,
    ShowStats: _show_stats, CloseStats: _close_stats, LeaveStats: _leave_stats, Say: _say_it,
    BotsAnew: _bots_anew, Written: _written,
    PlayedElsewhere: _played_elsewhere, SaveLoaded: _save_loaded, SetAside: _set_aside,
    NewTable: _new_table, DealLinked: _deal_linked, TakeDeal: _take_deal,
    ShowStart: _show_start, SaveUpdated: _save_updated,
    Crashed: _crashed, SavedListed: _saved_listed, OpenReview: _open_review,
    ReviewCommand: _review_step, ReviewTick: _review_step, ReviewFailed: _review_failed,
    NewGame: _new_game, DealAgain: _deal_again, Drawn: _drawn, PutOnTable: _put_on_table,
    ContinueFrom: _continue_from, SwitchGame: _switch_game, LoadDone: _load_done,
    StartLesson: _start_lesson, EndLesson: _end_lesson, TakeHold: _take_hold,
    Claimed: _claimed, PlayHere: _play_here, DiscardBroken: _discard_broken,
    FileChosen: _file_chosen, StorageChanged: _storage_changed,
    an.Decided: _analysis_decided,
    **{kind: _on_stats for kind in sp.HANDLERS}, **{kind: _on_file for kind in fp.HANDLERS},
}
