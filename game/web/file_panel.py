"""Games as files in the page: the table's "Download this game" and the
"Open a game file" panel (start screen, and under the table's side panel).

The reading and the words are `game.web.files` (pure Python, every check the
engine's); this module is the browser's side: the hidden file input, the
panel (a modal dialog), the download through a Blob and an object URL.  The
game in progress and its save are touched only when the person continues a
file, and, if that game has a save, only after saying so and asking.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any, Callable

from pyodide.ffi import create_once_callable, to_js
from pyscript import document, window

from game.core.transcript import MAX_BYTES
from game.web import saves
from game.web.dom.focus import focus_fallback, trap_tab, try_focus
from game.web.dom.live import Heard
from game.web.files import (FileProblem, OpenedFile, check_continuable, continue_save,
                            download_name, players_text, read_file, result_text,
                            transcript_text)
from game.web.html import EMPTY, Html, html, join, set_html
from game.web.inputs import BadNumber, read_int

if TYPE_CHECKING:
    from game.web.shell import App

JsObject = Any

# The panel's buttons for a file that opened: (data-cmd, catalog key, what it
# does).  Another way to use a file is one more line here, its handler given
# the panel (`panel.opened.transcript.to_json()` is the file's transcript).
ACTIONS: tuple[tuple[str, str, Callable[["FilePanel"], None]], ...] = (
    ("file-continue", "file.continue", lambda panel: panel.ask_continue()),
    ("file-review", "file.review", lambda panel: panel.review()),
)


def _object(value: dict[str, Any]) -> JsObject:
    return to_js(value, dict_converter=window.Object.fromEntries)


class FilePanel:
    def __init__(self, app: App) -> None:
        self.app = app
        self.opened: OpenedFile | None = None
        self.problem: tuple[str, str] | None = None  # (file name, message)
        self.confirming = False  # asking before a save is overwritten
        self.step_error = ""
        self.step = 0
        self.opener: JsObject = None  # where the focus was: it goes back there

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

    def _input(self) -> JsObject:
        """The page's one file input, hidden: the buttons open its chooser."""
        el = document.getElementById("file-input")
        if el is None or not el:
            el = document.createElement("input")
            el.type, el.id, el.hidden = "file", "file-input", True
            el.accept = ".json,application/json"
            el.setAttribute("data-cmd", "file-chosen")
            el.setAttribute("aria-hidden", "true")
            el.tabIndex = -1
            document.body.append(el)
        return el

    def choose(self) -> None:
        active = document.activeElement
        self.opener = None if active is None or not active else active
        el = self._input()
        el.value = ""  # the same file chosen twice is read twice
        el.click()

    def chosen(self, el: JsObject) -> None:
        files = el.files
        if files is None or not files or not files.length:
            return
        asyncio.ensure_future(self.read(files.item(0)))

    async def read(self, file: JsObject) -> None:
        t, name = self.app.t, str(file.name)[:120]
        self.opened, self.problem, self.confirming, self.step_error = None, None, False, ""
        try:
            if int(file.size) > MAX_BYTES:  # never read a huge file into memory
                raise FileProblem("too_large", {"mb": MAX_BYTES // 1_000_000})
            raw = (await file.arrayBuffer()).to_bytes()
            self.opened = read_file(raw, name)
            self.step = self.opened.steps
        except FileProblem as problem:
            self.problem = (name, problem.text(t))
        except Exception as e:  # the browser could not read it; never a crash
            window.console.error(f"file read: {type(e).__name__}: {e}")
            self.problem = (name, t("file.read_failed"))
        self.app.halt()  # the bots wait while the panel is open
        self.render()

    # -- the panel -----------------------------------------------------------

    def is_open(self) -> bool:
        el = document.getElementById("file-panel")
        return el is not None and bool(el) and not el.hidden

    def _element(self) -> JsObject:
        el = document.getElementById("file-panel")
        if el is None or not el:
            el = document.createElement("div")
            el.id, el.className = "file-panel", "modal"
            document.body.append(el)
        return el

    def render(self) -> None:
        panel = self._element()
        if self.problem is not None:
            markup = self._problem_html(*self.problem)
        elif self.opened is not None and self.confirming:
            markup = self._confirm_html(self.opened)
        elif self.opened is not None:
            markup = self._summary_html(self.opened)
        else:
            self.close()
            return
        set_html(panel, markup)
        panel.hidden = False
        first = panel.querySelector("#file-step") if self.step_error else None
        self._focus(first or panel.querySelector(".buttons button"))

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
        panel = document.getElementById("file-panel")
        was_open = self.is_open()
        if panel is not None and panel:
            panel.hidden = True
        self.opened, self.problem, self.confirming, self.step_error = None, None, False, ""
        if was_open:
            back = self.opener
            if back is not None and not back.isConnected and back.id:  # redrawn meanwhile
                back = document.getElementById(back.id)
            if back is None or not back or not try_focus(back):
                focus_fallback()
            self.app.schedule()  # the bots carry on

    def review(self) -> None:
        """Step through the file from its first move in the Review (game.web.review),
        every finished hand face up; the game on the table is not touched."""
        from game.web.dom import review_dialog

        opened = self.opened
        if opened is None:
            return
        transcript, me = opened.transcript.to_json(), opened.me
        self.close()
        review_dialog.start(self.app, transcript, me=me)

    # -- continuing ------------------------------------------------------------

    def ask_continue(self) -> None:
        """Read the step; if the file's game has a save, ask before replacing it."""
        opened = self.opened
        if opened is None:
            return
        field = document.getElementById("file-step")
        text = str(field.value) if field is not None and field else str(opened.steps)
        try:
            self.step = read_int(text, self.app.t("file.steps"), hi=opened.steps)
            check_continuable(opened)
        except BadNumber:
            self.step_error = self.app.t("file.bad_step", steps=opened.steps)
            self.render()
            return
        except FileProblem as problem:
            self.step_error = problem.text(self.app.t)
            self.render()
            return
        self.step_error = ""
        if self.app.stored(saves.key(opened.final.game_id)) is not None:
            self.confirming = True
            self.render()
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
        self.opener = None
        self.close()
        app.put_on_table(renderer(game), state, save,
                         heard=Heard(events=len(save["log"])),  # the story so far is in the log
                         message=app.t("file.continued", n=self.step, file=opened.name))
        focus_fallback()
        app.schedule()

    # -- downloading -------------------------------------------------------------

    def download(self) -> None:
        """The game on the table as a transcript file, through an object URL
        (made, clicked and let go: nothing leaves the browser)."""
        app = self.app
        if app.state is None or not app.save:
            return
        today = window.Date.new()
        date = f"{int(today.getFullYear()):04d}-{int(today.getMonth()) + 1:02d}-" \
               f"{int(today.getDate()):02d}"
        name = download_name(app.save["game"], app.save["transcript"]["seed"], date)
        blob = window.Blob.new(to_js([transcript_text(app.save)]),
                               _object({"type": "application/json"}))
        url = window.URL.createObjectURL(blob)
        link = document.createElement("a")
        link.href, link.download, link.hidden = url, name, True
        document.body.append(link)
        link.click()
        link.remove()
        window.setTimeout(create_once_callable(lambda: window.URL.revokeObjectURL(url)), 60000)

    # -- events ------------------------------------------------------------------

    def command(self, cmd: str) -> None:
        if cmd == "file-open":
            self.choose()
        elif cmd == "file-download":
            self.download()
        elif cmd == "file-close":
            self.close()
        elif cmd == "file-replace":
            self.continue_game()
        elif cmd == "file-keep":
            self.confirming = False
            self.render()
        else:
            for name, _, act in ACTIONS:
                if cmd == name:
                    act(self)

    def on_key(self, evt: JsObject) -> bool:
        """While the panel is open every key is its own: Escape closes it,
        Tab stays in it, Enter in the step field continues."""
        if not self.is_open():
            return False
        key = str(evt.key)
        if key == "Escape":
            evt.preventDefault()
            self.close()
        elif key == "Tab":
            trap_tab(evt)
        elif key == "Enter" and str(evt.target.id) == "file-step":
            evt.preventDefault()
            self.ask_continue()
        return True

    def _focus(self, el: JsObject) -> None:
        if el is not None and el:
            el.focus()
