"""The Statistics page and the page's statistics (see game.web.model.stats): its
state is a frozen `StatsScreen` inside the page (`Page.stats`), changed by
`reduce` over the small actions below, and drawn by `page_html` and
`final_note` from it.

What needs storage is an effect (`ReadStats`, `WriteStats`): the
controller's runtime reads the record afresh for every write (so another
tab's games are never overwritten by a stale copy), keeps a damaged one
aside (game.web.runtime.keeper) and answers with `StatsRead` or `StatsWritten`.
No browser import, no controller.
"""

from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass
from typing import Any, Callable, Literal, Union
from urllib.parse import quote

from game import GAMES
from game.bots import levels
from game.bots.ratings import level_ratings, load_ratings
from game.web.model import stats as st
from game.web.model.effects import ChooseFile, Focus
from game.web.draw.html import EMPTY, Html, html, join
from game.web.draw.i18n import Translator
from game.web.model.session import Said
from game.web.draw.tables import renderer

MAX_FILE = st.MAX_TEXT  # bytes: a bigger file is refused before it is read
CHART_WIDTH, ROW, LABEL = 360, 30, 100  # the chart's geometry, in SVG units
SHOWN = ("won", "drawn", "lost")  # the order of a bar's parts and of the legend


def now_ms() -> int:
    return int(time.time() * 1000)


@dataclass(frozen=True)
class StatsScreen:
    """The record as last read or written, the question asked (a reset, or an
    import of `incoming`), the last command's outcome, and what storage
    refused: a damaged record it could not keep aside (never written over),
    or the record it would not keep, counted from until a write goes through."""

    record: st.Stats = st.Stats()
    pending: Literal["", "reset", "import"] = ""
    incoming: st.Stats | None = None
    note: Said | None = None
    note_is_error: bool = False
    damaged_kept: bool = True
    unwritten: st.Stats | None = None


# -- its actions (commands `stats-…`, and the runtime's answers) ---------------------

@dataclass(frozen=True)
class AskReset:
    pass


@dataclass(frozen=True)
class ChooseImport:
    pass


@dataclass(frozen=True)
class ConfirmReset:
    pass


@dataclass(frozen=True)
class TakeImport:
    """The file's record merged into this one, or in its place."""
    merge: bool


@dataclass(frozen=True)
class CancelStats:
    pass


@dataclass(frozen=True)
class StatsFileChosen:
    """The chosen file (`data` None: too big, or unreadable)."""
    size: int
    data: bytes | None


@dataclass(frozen=True)
class StatsRead:
    """The record in storage; `notice`: a damaged one was found (kept aside
    if `kept`, else left in place and never written over)."""
    record: st.Stats
    notice: tuple[str, dict[str, str]] | None = None
    kept: bool = True


Change = Literal["reset", "merge", "replace", "record"]


@dataclass(frozen=True)
class StatsWritten:
    """The outcome of a `WriteStats`: the record now, whether the browser kept
    it, and whether a record is stored at all."""
    change: Change
    record: st.Stats
    written: bool
    stored: bool


StatsAction = Union[AskReset, ChooseImport, ConfirmReset, TakeImport, CancelStats,
                    StatsFileChosen, StatsRead, StatsWritten]


# -- its effects ------------------------------------------------------------------------

@dataclass(frozen=True)
class ReadStats:
    pass


@dataclass(frozen=True)
class WriteStats:
    """The stored record changed by `change` (`changed` says how), written."""
    change: Change
    incoming: st.Stats | None = None
    game: st.GameRecord | None = None


StatsEffect = Union[ReadStats, WriteStats, Focus, ChooseFile]
Result = tuple[StatsScreen, tuple[StatsEffect, ...]]


def changed(record: st.Stats, how: WriteStats) -> tuple[st.Stats, bool]:
    """`record` after `how`, and whether there is anything to write (a game
    already recorded, seen again after a reload, is not counted twice)."""
    if how.change == "reset":
        return st.Stats(), True
    if how.change == "record" and how.game is not None:
        return st.record(record, how.game)
    if how.incoming is None:
        return record, False
    return (st.merge(record, how.incoming) if how.change == "merge" else how.incoming), True


def reduce(screen: StatsScreen, action: StatsAction) -> Result:
    return HANDLERS[type(action)](screen, action)


def shown(screen: StatsScreen) -> StatsScreen:
    """As the page opens (or closes): no question, no note."""
    return dataclasses.replace(screen, pending="", incoming=None, note=None)


TITLE = Focus("#stats-title")


def _ask_reset(screen: StatsScreen, _: AskReset) -> Result:
    # deleting is one deliberate step further
    return dataclasses.replace(screen, pending="reset", note=None), (Focus("#stats-cancel"),)


def _choose_import(screen: StatsScreen, _: ChooseImport) -> Result:
    return screen, (ChooseFile("stats"),)


def _confirm_reset(screen: StatsScreen, _: ConfirmReset) -> Result:
    return dataclasses.replace(screen, pending=""), (WriteStats("reset"), TITLE)


def _take_import(screen: StatsScreen, act: TakeImport) -> Result:
    if screen.incoming is None:
        return screen, (TITLE,)
    write = WriteStats("merge" if act.merge else "replace", screen.incoming)
    return dataclasses.replace(screen, pending="", incoming=None), (write, TITLE)


def _cancel(screen: StatsScreen, _: CancelStats) -> Result:
    return dataclasses.replace(shown(screen), note=Said("stats.nothing_changed"),
                               note_is_error=False), (TITLE,)


def _file_chosen(screen: StatsScreen, act: StatsFileChosen) -> Result:
    screen = dataclasses.replace(screen, pending="", incoming=None)
    try:
        if act.size > MAX_FILE:
            raise st.BrokenStats(f"too big ({act.size} bytes)")
        if act.data is None:
            return _bad_file(screen, Said("file.read_failed"))
        incoming = st.load(act.data.decode("utf-8", errors="replace"))
    except Exception as e:  # BrokenStats, or a file that is not text
        return _bad_file(screen, str(e) if isinstance(e, st.BrokenStats) else type(e).__name__)
    return dataclasses.replace(screen, pending="import", incoming=incoming,
                               note=None), (Focus("#stats-merge"),)


def _bad_file(screen: StatsScreen, reason: str | Said) -> Result:
    return dataclasses.replace(screen, note=Said("stats.bad_file", {"reason": reason}),
                               note_is_error=True), (TITLE,)


def _read(screen: StatsScreen, act: StatsRead) -> Result:
    kept = act.kept if act.notice is not None else screen.damaged_kept
    return dataclasses.replace(screen, record=act.record, damaged_kept=kept), ()


def _written(screen: StatsScreen, act: StatsWritten) -> Result:
    # Refused by the browser: counted from in memory (a damaged record left
    # in place is never written over, nor replaced by one in memory).
    if act.written or screen.damaged_kept:
        unwritten = None if act.written else act.record
        screen = dataclasses.replace(screen, record=act.record, unwritten=unwritten)
    if act.change == "record":
        return screen, ()
    if not act.written:
        note = Said("stats.write_failed")
    elif act.change == "reset":
        note = Said("stats.reset_done")
    else:
        note = Said("stats.imported", {"n": len(act.record.games)})
    error = not act.stored if act.change == "reset" else not act.written
    return dataclasses.replace(screen, note=note, note_is_error=error), ()


HANDLERS: dict[type, Callable[[StatsScreen, Any], Result]] = {
    AskReset: _ask_reset, ChooseImport: _choose_import, ConfirmReset: _confirm_reset,
    TakeImport: _take_import, CancelStats: _cancel, StatsFileChosen: _file_chosen,
    StatsRead: _read, StatsWritten: _written}


# -- drawn from it --------------------------------------------------------------------

def _words(t: Translator, said: Said) -> str:
    params = {k: _words(t, v) if isinstance(v, Said) else v for k, v in said.params.items()}
    return t(said.key, **params)


def final_note(t: Translator, save: dict[str, Any], screen: StatsScreen) -> Html:
    """The end-of-game panel's word about the statistics."""
    key = st.uncounted(save) or (
        "stats.counted" if save.get("id") in screen.record.ids() else "stats.not_stored")
    return html('<p class="stats-note{}" id="stats-note">{} <button type="button" '
                'data-cmd="stats" class="link">{}</button></p>',
                "" if key == "stats.counted" else " practice", t(key), t("stats.show"))


def page_html(t: Translator, screen: StatsScreen) -> Html:
    stats = screen.record
    note = EMPTY
    if screen.note is not None:
        note = html('<p class="stats-msg{}" id="stats-msg" role="{}">{}</p>',
                    " error" if screen.note_is_error else "",
                    "alert" if screen.note_is_error else "status", _words(t, screen.note))
    return html(
        '<section class="stats" id="stats" aria-labelledby="stats-title">'
        '<h1 id="stats-title" tabindex="-1">{title}</h1><p class="stats-intro">{intro}</p>'
        '{ask}{note}{games}{ladder_note}'
        '<div class="buttons stats-tools">'
        '<a class="button" id="stats-export" download="jekyll-hyde-statistics.json" '
        'href="{href}">{export}</a>'
        '<button type="button" data-cmd="stats-import" id="stats-import">{import_}</button>'
        '<input type="file" id="stats-file" data-cmd="stats-file" '
        'accept="application/json,.json" hidden>'
        '<button type="button" data-cmd="stats-reset" id="stats-reset">{reset}</button>'
        '<button type="button" data-cmd="stats-close" class="primary" id="stats-close">'
        '{back}</button></div></section>',
        title=t("stats.title"), intro=t("stats.intro"), ask=ask_html(t, screen), note=note,
        games=join(game_html(t, stats, g) for g in GAMES),
        ladder_note=html('<p class="ladder-note">{}</p>', t("bot.ratings_note"))
        if stats.games else EMPTY,  # what the ratings in the rows mean
        href="data:application/json;charset=utf-8," + _uri(st.dump(stats)),
        export=t("stats.export"), import_=t("stats.import"), reset=t("stats.reset"),
        back=t("stats.back"))


def ask_html(t: Translator, screen: StatsScreen) -> Html:
    """The question of a reset or an import, with its answers."""
    if screen.pending == "reset":
        question, answers = t("stats.reset_ask"), html(
            '<button type="button" data-cmd="stats-confirm-reset" class="primary" '
            'id="stats-confirm">{}</button>', t("stats.reset_yes"))
    elif screen.pending == "import" and screen.incoming is not None:
        question, answers = t("stats.import_ask", n=len(screen.incoming.games)), html(
            '<button type="button" data-cmd="stats-merge" class="primary" id="stats-merge">'
            '{}</button><button type="button" data-cmd="stats-replace" id="stats-replace">'
            '{}</button>', t("stats.merge"), t("stats.replace"))
    else:
        return EMPTY
    return html('<div class="stats-ask" role="alertdialog" aria-labelledby="stats-question" '
                'id="stats-ask"><p id="stats-question">{}</p><div class="buttons">{}'
                '<button type="button" data-cmd="stats-cancel" id="stats-cancel">{}</button>'
                '</div></div>', question, answers, t("stats.cancel"))


def game_html(t: Translator, stats: st.Stats, game: str) -> Html:
    rows = st.buckets(stats, game)
    head = html('<h2 id="stats-h-{}">{}</h2>', game, t("game." + game))
    if not rows:
        return html('<div class="stats-game" data-game="{}">{}<p class="stats-none">{}</p>'
                    '</div>', game, head, t("stats.none"))
    everything = st.Bucket(game, "", "", [r for b in rows for r in b.results])
    table = renderer(game)
    draws = table.DRAWS  # only a game whose rules know a draw gets a "drawn" column
    total = t("stats.total" + ("_draws" if draws else ""), n=everything.played,
              won=everything.count("won"), lost=everything.count("lost"),
              drawn=everything.count("drawn"), rate=percent(t, everything.win_rate))
    columns = ["mode", "level", "played", "won", "lost", *(["drawn"] if draws else []),
               "rate", "streak", "best_streak", "best_score", "average_score"]
    # Explicit roles: a phone shows each row as a card (CSS), which would
    # otherwise cost the table its meaning for screen readers.
    ratings = load_ratings()  # read once for every row
    header = join(html('<th scope="col" role="columnheader">{}</th>', t("stats.col." + c))
                  for c in columns)
    body = join(html('<tr role="row"><th scope="row" role="rowheader">{}</th>{}</tr>',
                     table.mode_text(t, b.mode),
                     join(html('<td role="cell" data-label="{}">{}</td>',
                               t("stats.col." + c), v)
                          for c, v in zip(columns[1:], _row(t, b, draws, ratings))))
                for b in rows)
    return html(
        # Not a <section>: its region landmark would share the table's name.
        '<div class="stats-game" data-game="{game}">{head}'
        '<p class="stats-total">{total}</p>{chart}'
        '<div class="stats-scroll" role="region" tabindex="0" aria-labelledby="stats-h-{game}">'
        '<table class="stats-table" role="table"><thead><tr role="row">{header}</tr></thead>'
        '<tbody>{body}</tbody>'
        '</table></div></div>',
        game=game, head=head, total=total,
        chart=chart_html(t, game, st.by_level(stats, game, list(levels(game)))),
        header=header, body=body)


# The statistics page's commands (`data-cmd`): entries of the page's one
# routing table (game.web.runtime.controller's ROUTES); "stats" and "stats-close"
# change the view, game.web.model.page's `ShowStats` and `CloseStats`.
COMMANDS: dict[str, Callable[[dict[str, str]], StatsAction]] = {
    "stats-reset": lambda _: AskReset(), "stats-import": lambda _: ChooseImport(),
    "stats-confirm-reset": lambda _: ConfirmReset(),
    "stats-merge": lambda _: TakeImport(merge=True),
    "stats-replace": lambda _: TakeImport(merge=False),
    "stats-cancel": lambda _: CancelStats()}

def _row(t: Translator, b: st.Bucket, draws: bool, ratings: dict[str, Any]) -> list[str]:
    best, average = b.best_score, b.average_score
    return [rated_level(t, b, ratings), str(b.played), str(b.count("won")), str(b.count("lost")),
            *([str(b.count("drawn"))] if draws else []), percent(t, b.win_rate),
            str(b.streak), str(b.best_streak), "–" if best is None else str(best),
            "–" if average is None else decimal(t, average)]


def _uri(text: str) -> str:
    return quote(text, safe="")


def percent(t: Translator, share: float) -> str:
    return t("stats.percent", n=round(share * 100))


def decimal(t: Translator, value: float) -> str:
    """One decimal, with the language's decimal mark."""
    return f"{value:.1f}".replace(".", t("stats.decimal_mark"))


def level_text(t: Translator, level: str) -> str:
    key = "stats.level." + level
    return t(key) if t.has(key) else level


def rated_level(t: Translator, b: st.Bucket, ratings: dict[str, Any]) -> str:
    """A row's strength with its rating in the row's mode (from `ratings`, the
    ratings file), as the start screen names it ("Strong · 1673"); mixed bots
    and unmeasured levels have none."""
    options = st.rated_options(b.game, b.mode)
    rating = None if options is None else level_ratings(b.game, options, ratings).get(b.level)
    name = level_text(t, b.level)
    return t("bot.rated", level=name, rating=rating) if rating else name


def chart_html(t: Translator, game: str, levels: list[st.Bucket]) -> Html:
    """Won, drawn and lost games per bot strength: one bar each, split in
    shares; solid, dotted and hatched (readable in greyscale), with the
    numbers written beside each bar and the whole said in the SVG's title."""
    height = ROW * len(levels) + 4
    bar = CHART_WIDTH - LABEL - 95  # and room for "6/10 won" after it
    defs = html(
        '<defs><pattern id="dots-{g}" width="6" height="6" patternUnits="userSpaceOnUse">'
        '<rect width="6" height="6" fill="#c9c9c9"/><circle cx="3" cy="3" r="1.3" fill="#444"/>'
        '</pattern><pattern id="hatch-{g}" width="6" height="6" patternUnits="userSpaceOnUse" '
        'patternTransform="rotate(45)"><rect width="6" height="6" fill="#fff"/>'
        '<line x1="0" y1="0" x2="0" y2="6" stroke="#555" stroke-width="2"/></pattern></defs>',
        g=game)
    fills = {"won": "#1f4a3d", "drawn": f"url(#dots-{game})", "lost": f"url(#hatch-{game})"}
    rows = []
    said = []
    for i, b in enumerate(levels):
        y = 2 + i * ROW
        x = float(LABEL)
        parts = []
        for result in SHOWN:
            n = b.count(result)
            if n:
                w = bar * n / b.played
                parts.append(html('<rect x="{:.1f}" y="{}" width="{:.1f}" height="20" fill="{}" '
                                  'stroke="#222" stroke-width="1"/>', x, y + 3, w, fills[result]))
                x += w
        name = level_text(t, b.level)
        figures = t("stats.chart.row", won=b.count("won"), drawn=b.count("drawn"),
                    lost=b.count("lost"))
        rows.append(html('<text x="0" y="{}" class="stats-label">{}</text>{}'
                         '<text x="{}" y="{}" class="stats-label">{}</text>', y + 18, name,
                         join(parts), LABEL + bar + 6, y + 18,
                         t("stats.chart.short", won=b.count("won"), n=b.played)))
        said.append(t("stats.chart.level", level=name, figures=figures))
    title = t("stats.chart.title", game=t("game." + game), levels=t("list.semicolon").join(said))
    legend = join(html('<span class="stats-key"><svg width="14" height="14" aria-hidden="true" '
                       'focusable="false"><rect x=".5" y=".5" width="13" height="13" fill="{}" '
                       'stroke="#222"/></svg>{}</span>',
                       fills[r], t("stats.col." + r))
                  for r in SHOWN)
    return html(
        '<figure class="stats-chart"><svg viewBox="0 0 {w} {h}" width="100%" role="img" '
        'aria-labelledby="stats-chart-{g}" focusable="false" preserveAspectRatio="xMinYMin meet">'
        '<title id="stats-chart-{g}">{title}</title>{defs}{rows}</svg>'
        '<figcaption>{caption} {legend}</figcaption></figure>',
        w=CHART_WIDTH, h=height, g=game, title=title, defs=defs, rows=join(rows),
        caption=t("stats.chart.caption"), legend=legend)
