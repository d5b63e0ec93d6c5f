"""Games as files in the page: the table's "Download this game" and the
"Open a game file" panel (start screen, and under the table's side panel).

The reading and the words are `game.web.files` (pure Python, every check the
engine's); this module is the panel: what it shows, and what its buttons do.
The browser's side (the file chooser, the download) is the screen's
(game.web.drivers). The game in progress and its save are touched only when
the person continues a file, and, if that game has a save, only after saying
so and asking. No browser import.
"""

from __future__ import annotations

import dataclasses
import time
from typing import TYPE_CHECKING, Callable

from game.core.transcript import MAX_BYTES
from game.web import page as pg
from game.web import saves
from game.web.files import (FileProblem, OpenedFile, check_continuable, continue_save,
                            download_name, players_text, read_file, result_text,
                            transcript_text)
from game.web.html import EMPTY, Html, html, join
from game.web.inputs import BadNumber, read_int
from game.web.session import Said

if TYPE_CHECKING:
    from game.web.controller import Controller

# The panel's buttons for a file that opened: (data-cmd, catalog key, what it
# does).  Another way to use a file is one more line here, its handler given
# the panel and the panel's fields (`panel.opened.transcript.to_json()` is the file's transcript).
ACTIONS: tuple[tuple[str, str, Callable[["FilePanel", dict[str, str]], None]], ...] = (
    ("file-continue", "file.continue", lambda panel, data: panel.ask_continue(data)),
    ("file-review", "file.review", lambda panel, data: panel.review()),
)


class FilePanel:
    def __init__(self, app: Controller) -> None:
        self.app = app
        self.opened: OpenedFile | None = None
        self.problem: tuple[str, str] | None = None  # (file name, message)
        self.confirming = False  # asking before a save is overwritten
        self.step_error = ""
        self.step = 0

    # -- buttons in the menu and on the start screen -------------------------

    def side_buttons(self) -> Html:
        """Under the side panel at the table (the menu bar has no room left on
        a phone): download the game on it, open a file."""
        t = self.app.t
        return html('<div class="filebar"><button type="button" data-cmd="file-download" '
                    'id="file-download" title="{}">{}</button>'
                    '<button type="button" data-cmd="file-open" id="file-open-table" '
                    'aria-haspopup="dialog">{}</button></div>',
                    t("file.download_title"), t("file.download"), t("file.open"))

    def final_button(self) -> Html:
        """In the summary at the end of a game: download it as it ended."""
        return html('<button type="button" data-cmd="file-download" id="file-download-final" '
                    'title="{}">{}</button>', self.app.t("file.download_title"),
                    self.app.t("file.download"))

    # -- opening -------------------------------------------------------------

    def choose_file(self) -> None:
        self.app.screen.choose_file("game")  # the browser's file chooser

    def file_chosen(self, name: str, size: int, data: bytes | None) -> None:
        """The chosen file (`data` None: too big to read, or unreadable)."""
        t, name = self.app.t, name[:120]
        self.opened, self.problem, self.confirming, self.step_error = None, None, False, ""
        try:
            if size > MAX_BYTES:  # never read a huge file into memory
                raise FileProblem("too_large", {"mb": MAX_BYTES // 1_000_000})
            if data is None:
                self.problem = (name, t("file.read_failed"))
            else:
                self.opened = read_file(data, name)
                self.step = self.opened.steps
        except FileProblem as problem:
            self.problem = (name, problem.text(t))
        self.app.dispatch(pg.OpenOverlay("file"))  # the bots wait while it is open
        self.focus(".buttons button")

    # -- the panel -----------------------------------------------------------

    def focus(self, selector: str) -> None:
        self.app.after.append(lambda: self.app.screen.focus(f"#file-panel {selector}"))

    def panel_html(self) -> Html | None:
        if self.problem is not None:
            return self._problem_html(*self.problem)
        if self.opened is not None and self.confirming:
            return self._confirm_html(self.opened)
        if self.opened is not None:
            return self._summary_html(self.opened)
        return None

    def _problem_html(self, name: str, message: str) -> Html:
        t = self.app.t
        return html('<div class="sheet file-sheet" role="alertdialog" aria-modal="true" '
                    'aria-labelledby="file-title" aria-describedby="file-message">'
                    '<h2 id="file-title">{}</h2><p class="file-problem" id="file-message">{}</p>'
                    '<div class="buttons"><button type="button" class="primary" '
                    'data-cmd="file-close">{}</button></div></div>',
                    t("file.cannot_open", file=name), message, t("file.close"))

    def _summary_html(self, opened: OpenedFile) -> Html:
        t = self.app.t
        facts = (("file.game", t("game." + opened.final.game_id)),
                 ("file.players", players_text(opened, t)),
                 ("file.steps", str(opened.steps)),
                 ("file.result", result_text(opened, t)))
        rows = join(html('<dt>{}</dt><dd>{}</dd>', t(key), value) for key, value in facts)
        error = EMPTY
        if self.step_error:
            error = html('<p class="field-error" id="file-step-error" role="alert">{}</p>',
                         self.step_error)
        invalid = html(' aria-invalid="true" aria-describedby="file-step-error"') \
            if self.step_error else EMPTY
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
            step=str(self.step), invalid=invalid, error=error, actions=actions,
            close=t("file.close"))

    def _confirm_html(self, opened: OpenedFile) -> Html:
        t = self.app.t
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

    def close(self) -> None:
        self.opened, self.problem, self.confirming, self.step_error = None, None, False, ""
        self.app.dispatch(pg.CloseOverlay("file"))  # the bots carry on

    def review(self) -> None:
        """Step through the file from its first move in the Review, every
        finished hand face up; the game on the table is not touched."""
        opened = self.opened
        if opened is None:
            return
        transcript, me = opened.transcript.to_json(), opened.me
        self.close()
        self.app.screen.review(self.app, transcript, me)

    # -- continuing ------------------------------------------------------------

    def ask_continue(self, data: dict[str, str]) -> None:
        """Read the step; if the file's game has a save, ask before replacing it."""
        opened = self.opened
        if opened is None:
            return
        try:
            self.step = read_int(data.get("step", str(opened.steps)), self.app.t("file.steps"),
                                 hi=opened.steps)
            check_continuable(opened)
        except BadNumber:
            self.step_error = self.app.t("file.bad_step", steps=opened.steps)
            self.focus("#file-step")
            return
        except FileProblem as problem:
            self.step_error = problem.text(self.app.t)
            self.focus("#file-step")
            return
        self.step_error = ""
        if self.app.stored(saves.key(opened.final.game_id)) is not None:
            self.confirming = True
            self.focus(".buttons button")
            return
        self.continue_game()

    def continue_game(self) -> None:
        """The file's position after `step` actions, as a new game against bots."""
        from game.bots import levels
        from game.web.tables import renderer
        from game.web.tables.common import default_bot

        opened, app = self.opened, self.app
        if opened is None:
            return
        game = opened.final.game_id
        bots = list(levels(game))
        save, state = continue_save(opened, self.step, lambda who: default_bot(bots))
        self.opened, self.problem, self.confirming, self.step_error = None, None, False, ""
        app.page = dataclasses.replace(app.page, overlay="none")
        app.put_on_table(renderer(game), state, save,
                         heard=len(save["log"]),  # the story so far is in the log
                         message=Said("file.continued", {"n": self.step, "file": opened.name}))
        app.after.append(lambda: app.screen.focus("fallback"))
        app.schedule()

    def keep_save(self) -> None:
        """Not over the save, after all: back to the file's summary."""
        self.confirming = False
        self.focus(".buttons button")

    # -- downloading -------------------------------------------------------------

    def download(self) -> None:
        """The game on the table as a transcript file (nothing leaves the browser)."""
        save = self.app.save
        if self.app.state is None or not save:
            return
        name = download_name(save["game"], save["transcript"]["seed"],
                             time.strftime("%Y-%m-%d"))
        self.app.screen.download(name, transcript_text(save))


# The panel's commands (`data-cmd`), its ACTIONS among them: entries of the
# page's one routing table (game.web.controller's ROUTES).
COMMANDS: dict[str, Callable[[FilePanel, dict[str, str]], None]] = {
    "file-open": lambda panel, _: panel.choose_file(),
    "file-download": lambda panel, _: panel.download(),
    "file-close": lambda panel, _: panel.close(),
    "file-replace": lambda panel, _: panel.continue_game(),
    "file-keep": lambda panel, _: panel.keep_save(),
    **{name: act for name, _, act in ACTIONS}}
