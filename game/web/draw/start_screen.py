"""The start screen and the menu bar as markup, with no browser import.

The page (game.web.draw.views) draws them in the page; the build (game.build)
calls the same functions in CPython to write them into index.html for each
language and game, so a first visit sees the start screen before Python is up.

>>> from game.web.draw.i18n import Translator
>>> form = setup_html(Translator("fr"), ["dracula"], {"game": "dracula"})
>>> form.startswith('<form id="setup"'), 'name="dr_bot"' in form
(True, True)
>>> 'value="fast" selected' in menu_html(Translator("en"), "fast")
True
>>> "steady 0.8 s" in help_html(Translator("en"), "dracula")
True
>>> decimal(Translator("fr"), 0.35)
'0,35'
"""

from __future__ import annotations

from typing import Any

from game.web.model.coach import lesson_button
from game.web.draw.html import EMPTY, Html, html, join
from game.web.draw.i18n import LANGUAGES, Translator
from game.web.draw.tables import renderer

SELECTED = html(" selected")
SPEEDS = {"instant": 0.02, "fast": 0.35, "normal": 0.8, "slow": 1.5}  # seconds a bot pauses


def say(t: Translator, game: str | None, key: str, **kw: Any) -> str:
    """A shell text in `game`'s own words where it has them
    (`<game id>/<key>` in its catalog: "Next deal" rather than "Next hand")."""
    own = f"{game}/{key}"
    return t(own if t.has(own) else key, **kw)


def decimal(t: Translator, x: float) -> str:
    """`x` as the language writes a number (0.8 in English, 0,8 in French)."""
    return f"{x:g}".replace(".", t("number.decimal_sign"))


def rules_href(t: Translator, game: str) -> str:
    """The illustrated rules page of `game` in the page's language."""
    return f"./static/rules/{game}.{t.lang}.html"


def menu_html(t: Translator, speed: str, game_buttons: Html = EMPTY) -> Html:
    """The menu bar: new game, the game's panels (`game_buttons`), the keys, speed, language."""
    langs = join(html('<option value="{}"{}>{}</option>', code,
                      SELECTED if code == t.lang else EMPTY, t("lang." + code))
                 for code in LANGUAGES)
    speeds = join(html('<option value="{}"{}>{}</option>', k,
                       SELECTED if k == speed else EMPTY,
                       t("speed." + k)) for k in SPEEDS)
    return html(
        '<button type="button" data-cmd="new" id="new-game">{new}</button>{games}'
        '<button type="button" data-cmd="stats" id="stats-button">{stats}</button>'
        '<button type="button" data-cmd="keys" id="keys-button" aria-keyshortcuts="?" '
        'aria-haspopup="dialog">{keys}</button>'
        '<label class="sel"><span class="sr">{speed}</span>'
        '<select id="speed" data-cmd="speed" aria-label="{speed}">{speeds}</select></label>'
        '<label class="sel"><span class="sr">{lang}</span>'
        '<select id="lang" data-cmd="lang" aria-label="{lang}">{langs}</select></label>',
        new=t("menu.new"), games=game_buttons, stats=t("stats.title"), keys=t("keys.button"), speed=t("menu.speed"),
        speeds=speeds, lang=t("menu.lang"), langs=langs)


def setup_html(t: Translator, playable: list[str], values: dict[str, str],
               resume: bool = False, error: str = "", others: Html = EMPTY) -> Html:
    """The start screen's form for `values["game"]` (one of `playable`), filled with
    `values`; `others` are the buttons that continue other games in progress."""
    from game.bots import levels

    game = values["game"]
    table = renderer(game)
    games = join(html('<option value="{}"{}>{}</option>', g,
                      SELECTED if g == game else EMPTY, t("game." + g))
                 for g in playable)
    back = EMPTY
    if resume:
        back = html('<button type="button" data-cmd="resume" class="secondary">{}</button>',
                    t("setup.back"))
    shown_error = EMPTY
    if error:
        shown_error = html('<p class="field-error" id="setup-error" role="alert">{}</p>', error)
    return html(
        '<form id="setup" class="setup" novalidate><h1>{title}</h1>'
        '<label class="field"><span>{game_label}</span>'
        '<select name="game" id="f-game" data-cmd="setup-change">{games}</select></label>'
        '<p class="game-about" id="game-about">{about} <a class="help-link" href="#side">{help}'
        '</a></p>'
        # What a newcomer needs first: the game, what it is like, and how to begin; the
        # choices of the table follow, each already set to play.
        '<div class="buttons"><button type="submit" data-cmd="start" id="start" '
        'class="primary">{start}</button>{lesson}<button type="button" data-cmd="online-host" '
        'id="online-host" class="secondary">{friends}</button>{resume}</div>'
        '<h2 class="setup-choices" id="setup-choices">{choices}</h2>'
        '{form}<p class="ladder-note" id="ladder-note">{ladder_note}</p>'
        '<label class="field"><span>{seed_label}</span>'
        '<input name="seed" id="f-seed" inputmode="numeric" pattern="[0-9]*" maxlength="18" '
        'value="{seed}" placeholder="{seed_hint}"{invalid}></label>{error}{takebacks}'
        '<p class="file-open"><button type="button" data-cmd="file-open" id="file-open" '
        'class="secondary" aria-haspopup="dialog">{open_file}</button></p></form>',
        title=t("setup.title"), game_label=t("setup.game"), games=games,
        choices=t("setup.choices"),
        about=t(f"{game}/setup.about"), help=t("setup.help_link"),
        form=table.setup_form(t, list(levels(game)), values), ladder_note=t("bot.ratings_note"),
        seed_label=say(t, game, "setup.seed"), seed=values.get("seed", ""),
        seed_hint=t("setup.seed_hint"),
        invalid=html(' aria-invalid="true" aria-describedby="setup-error"') if error else EMPTY,
        error=shown_error, takebacks=_takeback_field(t, values), start=t("setup.start"),
        friends=t("setup.online"),
        lesson=lesson_button(t), resume=join((back, others)), open_file=t("file.open"))


def _takeback_field(t: Translator, values: dict[str, str]) -> Html:
    """The "no take-backs" box (kept with the last game's choices)."""
    return html('<label class="field check"><input type="checkbox" name="no_takebacks" '
                'id="f-no-takebacks"{}><span>{}</span></label>',
                html(" checked") if values.get("no_takebacks") == "on" else EMPTY,
                t("setup.no_takebacks"))


def help_html(t: Translator, game: str) -> Html:
    """The side panel beside the start screen: how to play `game`, and a link
    to its illustrated rules."""
    key = f"{game}/help.html"
    pace = t("help.pace", **{k: decimal(t, pause) for k, pause in SPEEDS.items() if pause})
    return html('<div class="help">{}<p id="pace-help">{}</p><p><a id="rules-page" href="{}" '
                'target="_blank" rel="noopener">{}</a></p></div>',
                t.markup(key if t.has(key) else "help.html"), pace, rules_href(t, game),
                t("setup.rules"))
