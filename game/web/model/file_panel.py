"""Games as files in the page: the table's "Download this game" and the
"Open a game file" panel (start screen, and under the table's side panel).

The reading and the words are `game.web.model.files` (pure Python, every check the
engine's); this module is the panel: its state, a frozen `FileDialog` inside
the page (`Page.file`), changed by `reduce` over the small actions below, and
what it shows (`panel_html`). What needs the outside world is an effect the
controller's runtime carries out: the file chooser, the download (with the
day's date), continuing a file (which asks storage whether that game has a
save: if it does, the runtime answers `SaveFound` and the panel asks before
replacing it), the review. No browser import, no controller.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from collections.abc import Hashable
from typing import Any, Callable, Union

from game.core.transcript import MAX_BYTES
from game.web.model.effects import ChooseFile, Focus
from game.web.model.files import (FileProblem, OpenedFile, check_continuable, players_text,
                            read_file, result_text)
from game.web.draw.html import EMPTY, Html, html, join
from game.web.draw.i18n import Translator
from game.web.model.inputs import BadNumber, read_int
from game.web.model.session import Said


@dataclass(frozen=True)
class FileDialog:
    """The file opened (or why it could not be: its name and the problem,
    None if unreadable), whether the panel asks before a save is replaced,
    the step to continue from, and why that step was refused."""

    opened: OpenedFile | None = None
    problem: tuple[str, FileProblem | None] | None = None
    confirming: bool = False
    step_error: FileProblem | Said | None = None
    step: int = 0


# -- its actions (commands `file-…`, the file chosen, the runtime's answer) -----------

@dataclass(frozen=True)
class OpenFileChooser:
    pass


@dataclass(frozen=True)
class GameFileChosen:
    """The chosen file (`data` None: too big to read, or unreadable); the
    page opens the panel over itself (game.web.model.page)."""
    name: str
    size: int
    data: bytes | None


@dataclass(frozen=True)
class CloseFile:
    pass


@dataclass(frozen=True)
class ReviewFile:
    """Step through the file from its first move in the Review."""


@dataclass(frozen=True)
class AskContinue:
    """Continue from the step typed in the panel (`None`: the last)."""
    step: str | None


@dataclass(frozen=True)
class ReplaceSave:
    """Continue over the file's game's save, after all."""


@dataclass(frozen=True)
class KeepSave:
    """Not over the save: back to the file's summary."""


@dataclass(frozen=True)
class SaveFound:
    """The runtime's answer to `ContinueFile(ask=True)`: that game has a save."""


@dataclass(frozen=True)
class DownloadGame:
    """The game on the table as a transcript file (nothing leaves the browser)."""


FileAction = Union[OpenFileChooser, GameFileChosen, CloseFile, ReviewFile, AskContinue,
                   ReplaceSave, KeepSave, SaveFound, DownloadGame]


# -- its effects ----------------------------------------------------------------------

@dataclass(frozen=True)
class ContinueFile:
    """The file's position after `step` actions on the table, as a new game
    against bots; `ask`: first see whether that game has a save."""
    opened: OpenedFile
    step: int
    ask: bool


@dataclass(frozen=True)
class ReviewTranscript:
    """Open the Review of `transcript` (JSON) from `me`'s seat; the game on
    the table is not touched."""
    transcript: dict[str, Any]
    me: Hashable


@dataclass(frozen=True)
class SaveTranscript:
    """Download the game on the table (named with the day's date)."""


FileEffect = Union[ChooseFile, Focus, ContinueFile, ReviewTranscript, SaveTranscript]
Result = tuple[FileDialog, tuple[FileEffect, ...]]


def _focus(selector: str) -> Focus:
    return Focus(f"#file-panel {selector}")


BUTTONS = _focus(".buttons button")


def reduce(dialog: FileDialog, action: FileAction) -> Result:
    return HANDLERS[type(action)](dialog, action)


def _choose(dialog: FileDialog, _: OpenFileChooser) -> Result:
    return dialog, (ChooseFile("game"),)


def _chosen(_: FileDialog, act: GameFileChosen) -> Result:
    name = act.name[:120]
    if act.size > MAX_BYTES:  # never read a huge file into memory
        return FileDialog(problem=(name, FileProblem(
            "too_large", {"mb": MAX_BYTES // 1_000_000}))), (BUTTONS,)
    if act.data is None:
        return FileDialog(problem=(name, None)), (BUTTONS,)
    try:
        opened = read_file(act.data, name)
    except FileProblem as problem:
        return FileDialog(problem=(name, problem)), (BUTTONS,)
    return FileDialog(opened=opened, step=opened.steps), (BUTTONS,)


def _close(_: FileDialog, __: CloseFile) -> Result:
    return FileDialog(), ()


def _review(dialog: FileDialog, _: ReviewFile) -> Result:
    opened = dialog.opened
    if opened is None:
        return dialog, ()
    return FileDialog(), (ReviewTranscript(opened.transcript.to_json(), opened.me),)


def _ask_continue(dialog: FileDialog, act: AskContinue) -> Result:
    """Read the step; continue, once the runtime has looked for a save to ask about."""
    opened = dialog.opened
    if opened is None:
        return dialog, ()
    try:  # (a refused number is worded by the panel: `step_error`)
        step = read_int(act.step if act.step is not None else str(opened.steps), "",
                        hi=opened.steps)
    except BadNumber:
        return dataclasses.replace(dialog, step_error=Said(
            "file.bad_step", {"steps": opened.steps})), (_focus("#file-step"),)
    try:
        check_continuable(opened)
    except FileProblem as problem:
        return dataclasses.replace(dialog, step=step, step_error=problem), (
            _focus("#file-step"),)
    return dataclasses.replace(dialog, step=step, step_error=None), (
        ContinueFile(opened, step, ask=True),)


def _replace_save(dialog: FileDialog, _: ReplaceSave) -> Result:
    if dialog.opened is None:
        return dialog, ()
    return dialog, (ContinueFile(dialog.opened, dialog.step, ask=False),)


def _keep_save(dialog: FileDialog, _: KeepSave) -> Result:
    return dataclasses.replace(dialog, confirming=False), (BUTTONS,)


def _save_found(dialog: FileDialog, _: SaveFound) -> Result:
    return dataclasses.replace(dialog, confirming=True), (BUTTONS,)


def _download(dialog: FileDialog, _: DownloadGame) -> Result:
    return dialog, (SaveTranscript(),)


HANDLERS: dict[type, Callable[[FileDialog, Any], Result]] = {
    OpenFileChooser: _choose, GameFileChosen: _chosen, CloseFile: _close, ReviewFile: _review,
    AskContinue: _ask_continue, ReplaceSave: _replace_save, KeepSave: _keep_save,
    SaveFound: _save_found, DownloadGame: _download}


# The panel's buttons for a file that opened: (data-cmd, catalog key, its
# action).  Another way to use a file is one more line here and one action.
ACTIONS: tuple[tuple[str, str, Callable[[dict[str, str]], FileAction]], ...] = (
    ("file-continue", "file.continue", lambda data: AskContinue(data.get("step"))),
    ("file-review", "file.review", lambda data: ReviewFile()),
)

# The panel's commands (`data-cmd`), its ACTIONS among them: entries of the
# page's one routing table (game.web.runtime.controller's ROUTES).
COMMANDS: dict[str, Callable[[dict[str, str]], FileAction]] = {
    "file-open": lambda _: OpenFileChooser(), "file-download": lambda _: DownloadGame(),
    "file-close": lambda _: CloseFile(), "file-replace": lambda _: ReplaceSave(),
    "file-keep": lambda _: KeepSave(), **{name: act for name, _, act in ACTIONS}}


# -- drawn from it ----------------------------------------------------------------------

def side_buttons(t: Translator) -> Html:
    """Under the side panel at the table (the menu bar has no room left on
    a phone): download the game on it, open a file."""
    return html('<div class="filebar"><button type="button" data-cmd="file-download" '
                'id="file-download" title="{}">{}</button>'
                '<button type="button" data-cmd="file-open" id="file-open-table" '
                'aria-haspopup="dialog">{}</button></div>',
                t("file.download_title"), t("file.download"), t("file.open"))


def final_button(t: Translator) -> Html:
    """In the summary at the end of a game: download it as it ended."""
    return html('<button type="button" data-cmd="file-download" id="file-download-final" '
                'title="{}">{}</button>', t("file.download_title"), t("file.download"))


def _words(t: Translator, why: FileProblem | Said | None) -> str:
    if why is None:
        return t("file.read_failed")
    return why.text(t) if isinstance(why, FileProblem) else t(why.key, **why.params)


def panel_html(t: Translator, dialog: FileDialog) -> Html | None:
    if dialog.problem is not None:
        name, problem = dialog.problem
        return _problem_html(t, name, _words(t, problem))
    if dialog.opened is not None and dialog.confirming:
        return _confirm_html(t, dialog.opened)
    if dialog.opened is not None:
        return _summary_html(t, dialog, dialog.opened)
    return None


def _problem_html(t: Translator, name: str, message: str) -> Html:
    return html('<div class="sheet file-sheet" role="alertdialog" aria-modal="true" '
                'aria-labelledby="file-title" aria-describedby="file-message">'
                '<h2 id="file-title">{}</h2><p class="file-problem" id="file-message">{}</p>'
                '<div class="buttons"><button type="button" class="primary" '
                'data-cmd="file-close">{}</button></div></div>',
                t("file.cannot_open", file=name), message, t("file.close"))

def _summary_html(t: Translator, dialog: FileDialog, opened: OpenedFile) -> Html:
    facts = (("file.game", t("game." + opened.final.game_id)),
             ("file.players", players_text(opened, t)),
             ("file.steps", str(opened.steps)),
             ("file.result", result_text(opened, t)))
    rows = join(html('<dt>{}</dt><dd>{}</dd>', t(key), value) for key, value in facts)
    error = EMPTY
    if dialog.step_error is not None:
        error = html('<p class="field-error" id="file-step-error" role="alert">{}</p>',
                     _words(t, dialog.step_error))
    invalid = html(' aria-invalid="true" aria-describedby="file-step-error"') \
        if dialog.step_error is not None else EMPTY
    actions = join(html('<button type="button" data-cmd="{}"{}>{}</button>', cmd,
                        html(' class="primary"') if i == 0 else EMPTY, t(key))
                   for i, (cmd, key, _) in enumerate(ACTIONS))
    return html(
        '<div class="sheet file-sheet" role="dialog" aria-modal="true" '
        'aria-labelledby="file-title" aria-describedby="file-name">'
        '<h2 id="file-title">{title}</h2><p class="file-name" id="file-name">{name}</p>'
        '<dl class="file-facts">{rows}</dl>'
        '<label class="field file-step" for="file-step"><span>{label}</span>'
        '<input type="number" id="file-step" min="0" max="{steps}" step="1" '
        'inputmode="numeric" value="{step}"{invalid}></label>{error}'
        '<div class="buttons">{actions}<button type="button" data-cmd="file-close">'
        '{close}</button></div></div>',
        title=t("file.heading"), name=opened.name, rows=rows,
        label=t("file.from_step", steps=opened.steps), steps=str(opened.steps),
        step=str(dialog.step), invalid=invalid, error=error, actions=actions,
        close=t("file.close"))

def _confirm_html(t: Translator, opened: OpenedFile) -> Html:
    return html('<div class="sheet file-sheet" role="alertdialog" aria-modal="true" '
                'aria-labelledby="file-title" aria-describedby="file-message">'
                '<h2 id="file-title">{}</h2><p class="file-name">{}</p>'
                '<p id="file-message">{}</p>'
                '<div class="buttons"><button type="button" class="primary" '
                'data-cmd="file-replace">{}</button><button type="button" '
                'data-cmd="file-keep">{}</button></div></div>',
                t("file.heading"), opened.name,
                t("file.replace", game=t("game." + opened.final.game_id)),
                t("file.replace_yes"), t("file.replace_no"))
