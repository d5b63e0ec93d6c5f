"""The Statistics page and the page's statistics duties (see game.web.stats).

The controller (game.web.controller) keeps one `StatsPage` and calls it: when
a game ends (`game_over`), for the end-of-game note (`final_note`), to draw
the page (`page_html`), for its commands (`COMMANDS`) and for the file to
import (`file_chosen`). The record is read from storage each time it is
needed, so another tab's games are never overwritten by a stale copy; a
record that fails its checks is kept aside under `jhg.broken.*`, reported
once, and a new one is started. No browser import.
"""

from __future__ import annotations

import dataclasses
import time
from typing import TYPE_CHECKING, Any, Callable

from game.web import saves
from game.web import stats as st
from game.web.html import EMPTY, Html, html, join
from game.web.i18n import Translator
from game.web.page import playable
from game.web.tables import renderer

if TYPE_CHECKING:
    from game.web.controller import Controller

MAX_FILE = st.MAX_TEXT  # bytes: a bigger file is refused before it is read
CHART_WIDTH, ROW, LABEL = 360, 30, 100  # the chart's geometry, in SVG units
SHOWN = ("won", "drawn", "lost")  # the order of a bar's parts and of the legend


def now_ms() -> int:
    return int(time.time() * 1000)


class StatsPage:
    def __init__(self, app: Controller) -> None:
        self.app = app
        self.pending: str | None = None  # "reset", or "import" (with `incoming`)
        self.incoming: st.Stats | None = None
        self.note = ""  # the last command's outcome, shown on the page
        self.note_is_error = False
        self.damaged_kept = True  # False while a damaged record could not be kept aside
        # The record with what the browser would not keep (storage full or
        # blocked): the games played since are counted from here until it can be written.
        self.unwritten: st.Stats | None = None

    # -- the record in storage ------------------------------------------------

    def read(self) -> st.Stats:
        """The stored record; a damaged one is kept aside and reported."""
        app = self.app
        if self.unwritten is not None:
            return self.unwritten
        text = app.stored(st.KEY)
        if not text:
            return st.Stats()
        try:
            return st.load(text)
        except st.BrokenStats as e:
            reason = str(e)
        except Exception as e:  # stored data is data from outside: never crash on it
            reason = f"{type(e).__name__}: {e}"
        stamp = saves.BROKEN_PREFIX + "stats-" + time.strftime("%Y%m%dT%H%M%S")
        aside, n = stamp, 1
        while app.stored(aside) is not None:  # two set aside within a second: keep both
            aside, n = f"{stamp}-{n}", n + 1
        kept = app.move(st.KEY, aside)
        self.damaged_kept = kept  # not kept aside (storage full): never written over
        notice = ("stats.broken" if kept else "stats.broken_kept_in_place",
                  {"reason": reason[:200], "where": aside if kept else st.KEY})
        if notice not in app.page.notices:
            app.page = dataclasses.replace(app.page, notices=(*app.page.notices, notice))
        return st.Stats()

    def write(self, stats: st.Stats) -> bool:
        """Keep the record; if the browser will not, it is kept in memory (and
        counted from) until a later write goes through."""
        if not self.damaged_kept:
            return False
        written = self.app.keep(st.KEY, st.dump(stats))
        self.unwritten = None if written else stats
        return written

    # -- the end of a game ----------------------------------------------------

    def ensure_id(self) -> None:
        """A save from before game ids gets one, kept in the save, so that a
        reload at its end screen counts it once."""
        save = self.app.save
        if save and not st.valid_id(save.get("id")):
            self.app.update_save(id=st.new_game_id(save["transcript"].get("seed", 0), now_ms()))
            self.app.persist()

    def game_over(self) -> None:
        """Record the game on the table if it is over and counts (once: by its id)."""
        s = self.app.session
        if s is None or not s.state.over or s.coach is not None:  # a lesson: never counted
            return
        try:
            self.ensure_id()
            game = st.finished_game(self.app.save, s.state, now_ms())
            if game is None:
                return
            stats, new = st.record(self.read(), game)
            if new:
                self.write(stats)
        except Exception as e:  # the statistics must never take the game down
            self.app.screen.error(f"statistics: {type(e).__name__}: {e}")

    def final_note(self) -> Html:
        """The end-of-game panel's word about the statistics."""
        t = self.app.t
        key = st.uncounted(self.app.save) or (
            "stats.counted" if self.app.save.get("id") in self.read().ids() else "stats.not_stored")
        return html('<p class="stats-note{}" id="stats-note">{} <button type="button" '
                    'data-cmd="stats" class="link">{}</button></p>',
                    "" if key == "stats.counted" else " practice", t(key), t("stats.show"))

    # -- the page -------------------------------------------------------------

    def show(self) -> None:
        app = self.app
        back = app.page.view if app.page.view != "stats" else app.page.back_from_stats
        app.halt()  # the bots wait while the page is open
        self.pending, self.incoming, self.note = None, None, ""
        app.page = dataclasses.replace(app.page, view="stats", back_from_stats=back,
                                       overlay="none")
        self.focus("#stats-title")

    def leave(self) -> None:
        """Another command (a new game, back to a game) closes the page first."""
        self.pending, self.incoming = None, None
        self.app.page = dataclasses.replace(self.app.page, view="start")

    def close(self) -> None:
        app = self.app
        self.pending, self.incoming = None, None
        back = app.page.back_from_stats if app.session is not None else "start"
        app.page = dataclasses.replace(app.page, view=back)
        app.schedule()

    def focus(self, selector: str) -> None:
        self.app.after.append(lambda: self.app.screen.focus(selector))

    # -- its commands (`stats-…`, routed by game.web.controller's ROUTES) -------

    def ask_reset(self) -> None:
        self.pending, self.note = "reset", ""
        self.focus("#stats-cancel")  # deleting is one deliberate step further

    def choose_import(self) -> None:
        self.app.screen.choose_file("stats")  # the browser's file chooser

    def confirm_reset(self) -> None:
        t = self.app.t
        self.pending = None
        self.say(t("stats.reset_done") if self.write(st.Stats())
                 else t("stats.write_failed"), not self.app.stored(st.KEY))
        self.focus("#stats-title")

    def take_import(self, merge: bool) -> None:
        """The file's record merged into this one, or in its place."""
        t = self.app.t
        if self.incoming is not None:
            stats = st.merge(self.read(), self.incoming) if merge else self.incoming
            self.pending, self.incoming = None, None
            ok = self.write(stats)
            self.say(t("stats.imported", n=len(stats.games)) if ok
                     else t("stats.write_failed"), not ok)
        self.focus("#stats-title")

    def cancel(self) -> None:
        self.pending, self.incoming = None, None
        self.say(self.app.t("stats.nothing_changed"), False)
        self.focus("#stats-title")

    def say(self, text: str, error: bool) -> None:
        self.note, self.note_is_error = text, error

    def file_chosen(self, size: int, data: bytes | None) -> None:
        """Check the chosen file (`data` None: too big, or unreadable); if it
        holds statistics, ask merge or replace."""
        t = self.app.t
        self.pending, self.incoming = None, None
        try:
            if size > MAX_FILE:
                raise st.BrokenStats(f"too big ({size} bytes)")
            if data is None:
                raise st.BrokenStats(t("file.read_failed"))
            self.incoming = st.load(data.decode("utf-8", errors="replace"))
            self.pending = "import"
            self.note = ""
        except Exception as e:  # BrokenStats, or a file that is not text
            reason = str(e) if isinstance(e, st.BrokenStats) else type(e).__name__
            self.say(t("stats.bad_file", reason=reason[:200]), True)
        if self.app.page.view == "stats":
            self.focus("#stats-merge" if self.pending else "#stats-title")

    def page_html(self) -> Html:
        t = self.app.t
        stats = self.read()
        note = EMPTY
        if self.note:
            note = html('<p class="stats-msg{}" id="stats-msg" role="{}">{}</p>',
                        " error" if self.note_is_error else "",
                        "alert" if self.note_is_error else "status", self.note)
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
            title=t("stats.title"), intro=t("stats.intro"), ask=self.ask_html(), note=note,
            games=join(self.game_html(stats, g) for g in playable()),
            ladder_note=html('<p class="ladder-note">{}</p>', t("bot.ratings_note"))
            if stats.games else EMPTY,  # what the ratings in the rows mean
            href="data:application/json;charset=utf-8," + _uri(st.dump(stats)),
            export=t("stats.export"), import_=t("stats.import"), reset=t("stats.reset"),
            back=t("stats.back"))

    def ask_html(self) -> Html:
        """The question of a reset or an import, with its answers."""
        t = self.app.t
        if self.pending == "reset":
            question, answers = t("stats.reset_ask"), html(
                '<button type="button" data-cmd="stats-confirm-reset" class="primary" '
                'id="stats-confirm">{}</button>', t("stats.reset_yes"))
        elif self.pending == "import" and self.incoming is not None:
            question, answers = t("stats.import_ask", n=len(self.incoming.games)), html(
                '<button type="button" data-cmd="stats-merge" class="primary" id="stats-merge">'
                '{}</button><button type="button" data-cmd="stats-replace" id="stats-replace">'
                '{}</button>', t("stats.merge"), t("stats.replace"))
        else:
            return EMPTY
        return html('<div class="stats-ask" role="alertdialog" aria-labelledby="stats-question" '
                    'id="stats-ask"><p id="stats-question">{}</p><div class="buttons">{}'
                    '<button type="button" data-cmd="stats-cancel" id="stats-cancel">{}</button>'
                    '</div></div>', question, answers, t("stats.cancel"))

    def game_html(self, stats: st.Stats, game: str) -> Html:
        from game.bots import levels
        from game.bots.ratings import load_ratings

        t = self.app.t
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
# routing table (game.web.controller's ROUTES).
COMMANDS: dict[str, Callable[[StatsPage], None]] = {
    "stats": StatsPage.show, "stats-close": StatsPage.close,
    "stats-reset": StatsPage.ask_reset, "stats-import": StatsPage.choose_import,
    "stats-confirm-reset": StatsPage.confirm_reset,
    "stats-merge": lambda page: page.take_import(merge=True),
    "stats-replace": lambda page: page.take_import(merge=False),
    "stats-cancel": StatsPage.cancel}

def _row(t: Translator, b: st.Bucket, draws: bool, ratings: dict[str, Any]) -> list[str]:
    best, average = b.best_score, b.average_score
    return [rated_level(t, b, ratings), str(b.played), str(b.count("won")), str(b.count("lost")),
            *([str(b.count("drawn"))] if draws else []), percent(t, b.win_rate),
            str(b.streak), str(b.best_streak), "–" if best is None else str(best),
            "–" if average is None else decimal(t, average)]


def _uri(text: str) -> str:
    from urllib.parse import quote

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
    from game.bots.ratings import level_ratings

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
