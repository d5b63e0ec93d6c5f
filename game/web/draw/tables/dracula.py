"""The Dracula table: observation -> HTML, actions -> words.

Pure Python (no browser import): the shell puts the HTML in the page and
sends `data-act` values of clicked elements to `state.apply`.

Placing a card takes two clicks, a card and a cell in either order: the
action `JH@01` is made of the parts `JH` and `@01` (`parts`), which the
shell holds while the person picks them. The table draws what the shell
reports (`ctx.picked`, `ctx.offers`): the picked card or cell, and the cells
still open to a placement, as the engine's legal actions say.

The person at the screen is always player 0, the bot player 1; the setup
chooses who deals first.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, Iterable, Mapping, Sequence, TypedDict

from game.dracula.cards import (
    CELLS,
    LINES,
    NAIL,
    RED,
    VAMPIRES,
    line_detail,
    scored_rank,
)
from game.dracula.rules import DEALS, OPTIONS
from game.dracula.rules import DRAWS as DRAWS
from game.web.draw.html import EMPTY, Html, html, join
from game.web.draw.i18n import Translator
from game.web.draw.tables.common import (
    PERSON,
    OptionField,
    Event,
    Move,
    Pick,
    Plan,
    catalog_mode,
    never_confirm,
    no_waiting,
    same_options,
    seat_number,
    name_field,
    option_spec,
    person_name,
    seat_choice,
    level_labels,
    seat_fields,
    select_field,
)

if TYPE_CHECKING:
    from game.web.draw.tables import TableContext

GAME_ID = "dracula"
ME, BOT = 0, 1
WATCH_SEAT = ME  # a watcher sees the table from player 0's side (its cards as backs)
SUIT_CHAR = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


# -- setup -------------------------------------------------------------------

# Who deals first is the option `first_dealer`; the start screen asks it as
# the person sees it (player 0 is always the person at the screen).
FIRST_DEALER = option_spec(OPTIONS, "first_dealer")
FIRST = {"me": ME, "bot": BOT, "random": None}
OPTION_FIELDS: tuple[OptionField, ...] = ()


def _first(values: dict[str, str]) -> str:
    first = values.get("first", "me")
    return first if first in FIRST else "me"


def _bot(values: dict[str, str], bots: list[str]) -> str:
    """The other player: a bot's strength, or PERSON."""
    return seat_choice(values, "dr_bot", bots)


def setup_form(t: Any, bots: list[str], values: dict[str, str]) -> Html:
    mine = EMPTY
    if _bot(values, bots) == PERSON:  # two people: each one's name for the hand-over screen
        mine = name_field(t, "dr_name", person_name(values, "dr_name", t("setup.player", n=1)),
                          t("setup.your_name"))
    return join([
        select_field("first", [(k, t(f"dr.setup.first.{k}")) for k in FIRST], _first(values),
                     t(FIRST_DEALER.catalog_key)), mine,
        seat_fields(t, bots, values, "dr_bot", t("dr.setup.bot"), "dr_name_other",
                    t("setup.player", n=2), level_labels(t, "dracula", {}))])


def parse_setup(values: dict[str, str], bots: list[str]) -> dict[str, Any]:
    dealer = FIRST[_first(values)]
    if dealer is None:
        seed = (values.get("seed") or "").strip()
        # With a seed the draw is part of the reproducible game.
        rng = random.Random(f"dracula-first:{seed}") if seed.isdigit() else random.Random()
        dealer = rng.choice(FIRST_DEALER.choices)
    options = {FIRST_DEALER.name: dealer}
    bot = _bot(values, bots)
    if bot == PERSON:  # an empty name: the shell says "Player 1" in the page's language
        people = {str(ME): person_name(values, "dr_name"),
                  str(BOT): person_name(values, "dr_name_other")}
        return {"options": options, "me": ME, "bots": {}, "people": people}
    return {"options": options, "me": ME, "bots": {str(BOT): bot}}


# -- words -------------------------------------------------------------------

def card_name(card: str, t: Translator) -> str:
    if card in VAMPIRES:
        return t("dr.vampire")
    rank, suit = card[:-1], card[-1]
    rank_word = t(f"dr.rank.{rank}") if rank in ("A", "J", "Q", "K") else rank
    return t("dr.card", rank=rank_word, suit=t(f"dr.suit.{suit}"))


def short(card: str) -> str:
    """A compact face: 10♥, Q♠, V (the Vampire's corner letter, as its card
    shows: no emoji, which draws as an empty box without an emoji font)."""
    return "V" if card in VAMPIRES else card[:-1] + SUIT_CHAR[card[-1]]


class _AgainstPerson(Translator):
    """The words of a game against a person at the same screen (pass-and-play):
    each text about "the bot" has a `<key>.person` twin that names them."""

    def __init__(self, t: Translator, name: str) -> None:
        vars(self).update(vars(t))  # the same language and catalogs
        self.opponent = name

    def __call__(self, key: str, **kw: Any) -> str:
        twin = key + ".person"
        if self.has(twin):
            return super().__call__(twin, name=self.opponent, **kw)
        return super().__call__(key, **kw)


def _words(ctx: TableContext) -> Translator:
    """The person's words: about the bot, or about the other person by name."""
    me = ctx.seat if ctx.seat in (ME, BOT) else ME
    name = ctx.people.get(str(1 - me))
    return ctx.t if name is None else _AgainstPerson(ctx.t, name)


def _who(p: int, me: int) -> str:
    return "me" if p == me else "bot"


def _line_name(way: str, k: int, t: Translator) -> str:
    return t("dr.line.row" if way == "Q" else "dr.line.col", n=k + 1)


# -- card faces (drawn for this project) ---------------------------------------

# Suit pips and figures, 100x100 unless said; <use href="#dr-..."> refers to them.
DEFS = html(
    '<svg class="dr-defs" width="0" height="0" aria-hidden="true" focusable="false"><defs>'
    '<symbol id="dr-S" viewBox="0 0 100 100"><path d="M50 3C66 22 97 40 97 63c0 13-10 22-22 22'
    '-8 0-15-4-19-11 1 11 6 19 15 24H29c9-5 14-13 15-24-4 7-11 11-19 11C13 85 3 76 3 63 3 40 '
    '34 22 50 3z" fill="currentColor"/></symbol>'
    '<symbol id="dr-H" viewBox="0 0 100 100"><path d="M50 95C22 72 3 54 3 32 3 16 15 5 29 5c10 '
    '0 17 5 21 14 4-9 11-14 21-14 14 0 26 11 26 27 0 22-19 40-47 63z" fill="currentColor"/>'
    '</symbol>'
    '<symbol id="dr-D" viewBox="0 0 100 100"><path d="M50 2 88 50 50 98 12 50z" '
    'fill="currentColor"/></symbol>'
    '<symbol id="dr-C" viewBox="0 0 100 100"><circle cx="50" cy="27" r="22" fill="currentColor"/>'
    '<circle cx="26" cy="60" r="22" fill="currentColor"/><circle cx="74" cy="60" r="22" '
    'fill="currentColor"/><path d="M45 50h10c0 22 4 36 15 47H30c11-11 15-25 15-47z" '
    'fill="currentColor"/></symbol>'
    '<symbol id="dr-bat" viewBox="0 0 100 60"><path d="M50 16c-3-4-5-5-7-12-2 7-6 10-11 9C22 11 '
    '12 14 2 8c6 10 7 22 5 32 5-5 12-6 17 0 4-6 12-6 16 2 3-4 7-5 10-2 3-3 7-2 10 2 4-8 12-8 16 '
    '-2 5-6 12-5 17 0-2-10-1-22 5-32-10 6-20 3-30 5-5 1-9-2-11-9-2 7-4 8-7 12z" '
    'fill="currentColor"/><circle cx="46" cy="20" r="2" fill="#ffd34d"/><circle cx="54" cy="20" '
    'r="2" fill="#ffd34d"/><path d="M47 27l1.5 4 1.5-4zm3 0 1.5 4 1.5-4z" fill="#fff"/></symbol>'
    # Court figures in a 52x96 frame: head, shoulders, headgear; colour = the suit's.
    '<symbol id="dr-fig" viewBox="0 0 52 96"><path d="M4 96c0-20 9-31 22-31s22 11 22 31z" '
    'fill="currentColor"/><path d="M19 66l7 12 7-12" fill="none" stroke="#f2d27a" '
    'stroke-width="2.4"/><circle cx="26" cy="50" r="11" fill="#f6dcc0" stroke="#5b4030" '
    'stroke-width="1"/><circle cx="22" cy="49" r="1.3" fill="#3a2a20"/><circle cx="30" cy="49" '
    'r="1.3" fill="#3a2a20"/><path d="M22.5 55q3.5 2.5 7 0" fill="none" stroke="#a0463c" '
    'stroke-width="1.2"/></symbol>'
    '<symbol id="dr-crownK" viewBox="0 0 52 96"><path d="M12 40 10 24l8 8 8-12 8 12 8-8-2 16z" '
    'fill="#e8b64c" stroke="#8a6412" stroke-width="1"/><circle cx="26" cy="20" r="2.2" '
    'fill="#e8b64c"/><path d="M17 58q9 10 18 0v4q-9 9-18 0z" fill="#7a5a3c"/></symbol>'
    '<symbol id="dr-crownQ" viewBox="0 0 52 96"><path d="M15 40q11-14 22 0l-2-7-4 3-5-8-5 8-4-3z"'
    ' fill="#e8b64c" stroke="#8a6412" stroke-width="1"/><circle cx="26" cy="29" r="2" '
    'fill="#c3112b"/><path d="M14 44q-4 14 2 24M38 44q4 14-2 24" fill="none" stroke="#b07a2a" '
    'stroke-width="4" stroke-linecap="round"/></symbol>'
    '<symbol id="dr-capJ" viewBox="0 0 52 96"><path d="M13 42q1-12 14-12t12 12z" '
    'fill="currentColor"/><path d="M37 36q8-14 2-24-1 12-8 19z" fill="#f2d27a" '
    'stroke="#8a6412" stroke-width=".8"/></symbol>'
    '</defs></svg>')

# Pip centres on a 100x140 face; those below the middle are drawn upside down.
_PIPS = {
    2: [(50, 28), (50, 112)],
    3: [(50, 28), (50, 70), (50, 112)],
    4: [(35, 28), (65, 28), (35, 112), (65, 112)],
    5: [(35, 28), (65, 28), (50, 70), (35, 112), (65, 112)],
    6: [(35, 28), (65, 28), (35, 70), (65, 70), (35, 112), (65, 112)],
    7: [(35, 28), (65, 28), (50, 49), (35, 70), (65, 70), (35, 112), (65, 112)],
    8: [(35, 28), (65, 28), (50, 49), (35, 70), (65, 70), (50, 91), (35, 112), (65, 112)],
    9: [(33, 28), (67, 28), (33, 56), (67, 56), (50, 70), (33, 84), (67, 84), (33, 112),
        (67, 112)],
    10: [(33, 28), (67, 28), (50, 42), (33, 56), (67, 56), (33, 84), (67, 84), (50, 98),
         (33, 112), (67, 112)],
}


def _corner(rank: str, suit: str) -> Html:
    if len(rank) == 1:
        size, fit = 25, EMPTY
    else:
        size, fit = 21, html(' textLength="22" lengthAdjust="spacingAndGlyphs"')
    return html('<text x="13" y="27" text-anchor="middle" font-size="{size}" class="rk"{fit}>'
                '{rank}</text><use href="#dr-{suit}" x="5" y="31" width="16" height="16"/>',
                size=size, fit=fit, rank=rank, suit=suit)


def _face_body(rank: str, suit: str) -> Html:
    if rank == "A":
        return html('<use href="#dr-{}" x="24" y="44" width="52" height="52"/>', suit)
    if rank in ("J", "Q", "K"):
        gear = {"K": "dr-crownK", "Q": "dr-crownQ", "J": "dr-capJ"}[rank]
        return html('<rect x="22" y="18" width="56" height="104" rx="5" class="frame"/>'
                    '<svg x="24" y="22" width="52" height="96" viewBox="0 0 52 96">'
                    '<use href="#dr-fig"/><use href="#{gear}"/></svg>'
                    '<use href="#dr-{suit}" x="28" y="24" width="13" height="13"/>'
                    '<use href="#dr-{suit}" x="59" y="103" width="13" height="13" '
                    'transform="rotate(180 65.5 109.5)"/>', gear=gear, suit=suit)
    out = []
    size = 16 if int(rank) >= 9 else 18
    h = size // 2
    for x, y in _PIPS[int(rank)]:
        flip = html(' transform="rotate(180 {} {})"', x, y) if y > 70 else EMPTY
        out.append(html('<use href="#dr-{suit}" x="{x}" y="{y}" width="{size}" '
                        'height="{size}"{flip}/>', suit=suit, x=x - h, y=y - h, size=size,
                        flip=flip))
    return join(out)


_VAMPIRE_SVG = html(
    '<svg viewBox="0 0 100 140" aria-hidden="true" focusable="false">'
    '<text x="13" y="28" text-anchor="middle" font-size="25" class="rk">V</text>'
    '<use href="#dr-bat" x="4" y="38" width="92" height="55"/>'
    '<g transform="rotate(180 50 70)"><text x="13" y="28" text-anchor="middle" '
    'font-size="25" class="rk">V</text></g></svg>')


def card_svg(card: str) -> Html:
    if card in VAMPIRES:
        return _VAMPIRE_SVG
    rank, suit = card[:-1], card[-1]
    corner = _corner(rank, suit)
    return html('<svg viewBox="0 0 100 140" aria-hidden="true" focusable="false">{corner}'
                '{body}<g transform="rotate(180 50 70)">{corner}</g></svg>',
                corner=corner, body=_face_body(rank, suit))


def _card_class(card: str) -> str:
    if card in VAMPIRES:
        return "dc vamp"
    return "dc " + ("red" if card[-1] in RED else "black")


def card_face(card: str, t: Translator, extra: str = "", said: bool = True) -> Html:
    """A card's picture, named after the card (`said`), or hidden from screen
    readers where its button says more (its cell in the coffin)."""
    name = card_name(card, t)
    return html('<span class="{cls} {extra}" data-card="{card}" {role} title="{name}">{svg}</span>',
                cls=_card_class(card), extra=extra, card=card, name=name, svg=card_svg(card),
                role=html('role="img" aria-label="{}"', name) if said
                else html('aria-hidden="true"'))


def back_html() -> Html:
    return html('<span class="dback" aria-hidden="true"></span>')


# -- lines -------------------------------------------------------------------

def _flat(grid: Sequence[Sequence[str | None]]) -> list[str | None]:
    return [c for row in grid for c in row]


def _lines(flat: Sequence[str | None], way: str) -> list[dict[str, Any]]:
    """The three lines of `way` as they stand (`cards.line_detail`)."""
    return [line_detail([flat[i] for i in line], way) for line in LINES[way]]


def _faces(info: Mapping[str, Any]) -> str:
    """A line's cards, compact: `10♥ Q♥ 5♥` (a full line)."""
    return " ".join(short(c) for c in info["cards"] if c is not None)


def _line_title(info: dict[str, Any], way: str, k: int, owner: str, t: Translator) -> str:
    name = _line_name(way, k, t)
    if info["state"] == "vampire":
        return t("dr.title.vampire", line=name, owner=owner)
    if info["state"] == "empty":
        return t("dr.title.empty", line=name, owner=owner)
    cards = " + ".join(f"{short(c)} ({v})" for c, v in zip(info["cards"], info["values"])
                       if c is not None)
    if info["state"] == "full":
        return t("dr.title.full", line=name, owner=owner, cards=cards, sum=info["sum"],
                 why=t(f"dr.mult.{info['multiplier']}"), value=info["value"])
    return t("dr.title.open", line=name, owner=owner, cards=cards, sum=info["sum"])


def _badge(info: dict[str, Any], way: str, k: int, owner_key: str, owner: str, t: Translator,
           scored: bool = False) -> Html:
    cls = ["lv", owner_key, info["state"]]
    if scored:
        cls.append("scored")
    if info["state"] == "vampire":
        body = html('<svg class="bat" viewBox="0 0 100 60" aria-hidden="true">'
                    '<use href="#dr-bat"/></svg><b>0</b>')
    elif info["state"] == "full":
        body = html('<b>{}</b><small>{}×{}</small>', info["value"], info["sum"],
                    info["multiplier"])
    elif info["state"] == "open":
        m = html('<small>≥×2</small>') if info["multiplier"] == 2 else html("<small>…</small>")
        body = html('<b>{}</b>{}', info["sum"], m)
    else:
        body = html("<b>·</b>")
    title = _line_title(info, way, k, owner, t)
    return html('<span class="{cls}" data-line="{line}" title="{title}" role="img" '
                'aria-label="{title}">{body}</span>', cls=" ".join(cls),
                line=("r" if way == "Q" else "c") + str(k), title=title, body=body)


def _owners(obs: dict[str, Any]) -> tuple[int, int]:
    """(row player, column player)."""
    ways = obs["ways"] or {"0": "Q", "1": "K"}
    row = 0 if ways["0"] == "Q" else 1
    return row, 1 - row


def _name(p: int, me: int, t: Translator, spectator: bool = False) -> str:
    """"You" or "Bot"; in a scripted example, where nobody plays, the player's number."""
    return t("dr.name.player", n=p) if spectator else t(f"dr.name.{_who(p, me)}")


# -- the coffin --------------------------------------------------------------

def parts(action: str) -> tuple[str, ...]:
    """The clicks an action is made of: a card and a cell, or a way.

    >>> parts("JH@01"), parts("V1@22"), parts("way:Q")
    (('JH', '@01'), ('V1', '@22'), ('way:Q',))
    """
    card, at, cell = action.partition("@")
    return (card, at + cell) if at else (action,)


def attempt(picked: tuple[str, ...], obs: dict[str, Any]) -> str | None:
    """The placement a picked card and cell spell, legal or not (the engine says why not).

    >>> attempt(("@00", "JH"), {}), attempt(("JH",), {})
    ('JH@00', None)
    """
    cells = [p for p in picked if p.startswith("@")]
    cards = [p for p in picked if not p.startswith(("@", "way:"))]
    return cards[0] + cells[0] if len(cells) == 1 and len(cards) == 1 else None


def coffin_html(obs: dict[str, Any], ctx: TableContext,
                grid: Sequence[Sequence[str | None]] | None = None, live: bool = True,
                scored: dict[int, int] | None = None, mini: bool = False) -> Html:
    """The 3x3 coffin, a value badge right of each row and under each column.

    `live`: cells are buttons (the table); otherwise a picture (summaries).
    `scored`: {player: line index} to mark the lines that scored.
    """
    t: Translator = _words(ctx)
    me = ctx.seat
    flat = _flat(grid if grid is not None else obs["grid"])
    # The cells picked and offered by the shell (none unless the person is deciding).
    chosen = [i for i in range(9) if live and "@" + CELLS[i] in ctx.picked]
    offered = [i for i in range(9) if live and "@" + CELLS[i] in ctx.offers]
    # One tab stop in the coffin (arrow keys move on): the chosen cell, else the first open one.
    stop = (chosen + offered + [NAIL])[0]
    row_p, col_p = _owners(obs)
    row_key, col_key = _who(row_p, me), _who(col_p, me)
    row_owner = _name(row_p, me, t, ctx.spectator)
    col_owner = _name(col_p, me, t, ctx.spectator)
    scored = scored or {}
    rows, cols = _lines(flat, "Q"), _lines(flat, "K")
    marked = _scored_cells(scored, row_p, me)
    out = []
    for r in range(3):
        for c in range(3):
            i = 3 * r + c
            out.append(_cell_html(i, flat[i], t, live, chosen=i in chosen, offered=i in offered,
                                  tab_stop=i == stop, marks=marked.get(i, [])))
        out.append(_badge(rows[r], "Q", r, row_key, row_owner, t, scored.get(row_p) == r))
    for c in range(3):
        out.append(_badge(cols[c], "K", c, col_key, col_owner, t, scored.get(col_p) == c))
    keys = html(' data-keys="grid" data-cols="3"') if live else EMPTY
    return html('<div class="coffin{mini}" role="group" aria-label="{label}"{keys}>{cells}</div>',
                mini=" mini" if mini else "", label=t("dr.coffin"), keys=keys, cells=join(out))


def _scored_cells(scored: dict[int, int], row_p: int, me: int) -> dict[int, list[str]]:
    """The highlight classes of the cells in the lines that scored ({player: line index})."""
    marked: dict[int, list[str]] = {}
    for p, k in scored.items():
        for i in LINES["Q" if p == row_p else "K"][k]:
            marked.setdefault(i, []).append("hl-" + _who(p, me))
    return marked


def _cell_html(i: int, card: str | None, t: Translator, live: bool, *, chosen: bool,
               offered: bool, tab_stop: bool, marks: list[str]) -> Html:
    """The coffin's cell `i`: a button on the table (`live`), else a picture."""
    cell = CELLS[i]
    pos = t(f"dr.cell.{cell}")
    cls = ["cell"] + marks
    if card:
        cls.append("full")
        inner = card_face(card, t, "nail" if i == NAIL else "", said=not live)
        label = t("dr.cell.card", cell=pos, card=card_name(card, t))
    else:
        inner = EMPTY
        label = t("dr.cell.empty", cell=pos)
        if offered:
            cls.append("open")
            label = t("dr.cell.open", cell=pos)
    if chosen:
        cls.append("sel")
    if i == NAIL:
        cls.append("nailcell")
    if not live:
        return html('<div class="{cls}" data-cell="{cell}" role="img" '
                    'aria-label="{label}">{inner}</div>', cls=" ".join(cls),
                    cell=cell, label=label, inner=inner)
    # A card's cell is named by its content (voice control users say
    # what they see, and the card's corners are a drawing).
    named = html('aria-label="{}"', label)
    if card:
        named, inner = EMPTY, html('<span class="sr">{}</span>{}', label, inner)
    return html('<button type="button" class="{cls}" data-cell="{cell}" '
                'data-part="@{cell}" aria-pressed="{on}" tabindex="{tab}" '
                '{named}>{inner}</button>', cls=" ".join(cls),
                cell=cell, on="true" if chosen else "false",
                tab=0 if tab_stop else -1, named=named, inner=inner)


def _legend(obs: dict[str, Any], ctx: TableContext) -> Html:
    t: Translator = _words(ctx)
    me = ctx.seat
    row_p, _ = _owners(obs)
    key = "dr.legend.me_rows" if row_p == me else "dr.legend.me_cols"
    # What the badges beside and under the coffin say (their titles need a hover).
    badges = join(html("<li>{}</li>", t(f"dr.key.{k}"))
                  for k in ("open", "pair", "empty", "full", "vampire"))
    return html('<p class="dr-legend">{}</p><details class="dr-key"><summary>{}</summary>'
                '<ul>{}</ul></details>', t(key), t("dr.key.title"), badges)


def _plate(obs: dict[str, Any], p: int, ctx: TableContext) -> Html:
    t: Translator = _words(ctx)
    me = ctx.seat
    who = _who(p, me)
    cls = ["plate", who]
    if obs["to_act"] == p:
        cls.append("on-turn")
    if ctx.thinking is not None and ctx.thinking == p:
        cls.append("thinking")
    way = EMPTY
    if obs["ways"]:
        w = obs["ways"][str(p)]
        way = html('<span class="way {w}" title="{title}">{arrow} {name}</span>', w=w,
                   title=t(f"dr.way_long.{w}"), arrow="→" if w == "Q" else "↓",
                   name=t(f"dr.way.{w}"))
    dealer = EMPTY
    if obs["phase"] != "over" and obs["dealer"] == p:
        dealer = html('<span class="dealer">{}</span>', t("dr.dealer"))
    backs = EMPTY
    if p != me and ctx.open_hands is not None:  # a review: the hand face up
        backs = html('<span class="dr-open">{}</span>', join(
            card_face(c, t, "mini") for c in ctx.open_hands.get(str(p), [])))
    elif (p != me or "hand" not in obs) and obs["held"][str(p)]:  # (a watcher: no hand)
        n = obs["held"][str(p)]
        backs = html('<span class="backs" role="img" aria-label="{held}" title="{held}">'
                     '{backs}</span>', held=t("dr.held", n=n), backs=join([back_html()] * n))
    return html('<div class="{cls}" data-player="{p}"><span class="who">{name}</span>{way}'
                '{dealer}<span class="pts" title="{pts_title}">Σ {total}</span>{backs}</div>',
                cls=" ".join(cls), p=p, way=way,
                name=ctx.people.get(str(p)) if ctx.spectator and str(p) in ctx.people
                else _name(p, me, t, ctx.spectator),
                dealer=dealer,
                pts_title=t("dr.total_title"), total=obs["scores"][str(p)], backs=backs)


def _way_choice(ctx: TableContext) -> Html:
    t: Translator = _words(ctx)
    buttons = join(
        html('<button type="button" class="dr-waybtn" data-act="way:{w}" id="way-{w}">'
             '<span class="arrow" aria-hidden="true">{arrow}</span><b>{name}</b>'
             '<span>{help}</span></button>', w=w, arrow="→" if w == "Q" else "↓",
             name=t(f"dr.choose.{w}"), help=t(f"dr.choose_help.{w}"))
        for w in ("Q", "K"))
    return html('<div class="dr-waychoice"><h2>{title}</h2><div class="dr-ways">{buttons}</div>'
                '<p>{note}</p></div>', title=t("dr.choose.title"), buttons=buttons,
                note=t("dr.choose.note"))


def _prompt(obs: dict[str, Any], ctx: TableContext) -> str:
    """What to do now; once a card or a cell is picked, what is still missing."""
    t: Translator = _words(ctx)
    me = ctx.seat
    if obs["over"]:
        return t("dr.prompt.over")
    if ctx.paused:
        return ctx.t("coach.dracula.paused")
    if "hand" not in obs:  # a watcher's public view: who decides, by name
        who = obs["to_act"]
        name = ctx.people.get(str(who)) or _name(who, me, ctx.t, spectator=True)
        way = obs["phase"] == "way"
        return ctx.t("dr.prompt.way_wait.person" if way else "dr.prompt.wait.person", name=name)
    mine = obs["to_act"] == me
    if obs["phase"] == "way":
        return t("dr.prompt.way" if mine else "dr.prompt.way_wait")
    if not mine:
        return t("dr.prompt.wait")
    for part in ctx.picked:  # at most one: two parts make a placement, applied at once
        if part.startswith("@"):
            return t("dr.prompt.chosen_cell", cell=t(f"dr.cell.{part[1:]}"))
        return t("dr.prompt.chosen", card=card_name(part, t))
    return t("dr.prompt.turn")


def _last_scored(obs: dict[str, Any]) -> dict[int, int]:
    if not obs["over"] or not obs["history"]:
        return {}
    return deal_result(obs["history"][-1])["line"]


def render(obs: dict[str, Any], ctx: TableContext) -> Html:
    return _table(obs, ctx, _last_scored(obs))


def finished(before: dict[str, Any], obs: dict[str, Any], ctx: TableContext) -> Html:
    """The table as the deal just scored left it, drawn behind its summary
    (the engine has already dealt the next deal, `obs`): the observation
    `before` the deal's last placement, with the coffin the deal ended with
    (the history's), no card left in either hand, the totals after it."""
    entry = obs["history"][-1]
    view = {**before, "grid": entry["grid"], "hand": [], "held": {"0": 0, "1": 0},
            "to_act": None, "legal": [], "history": obs["history"], "totals": obs["totals"],
            "scores": obs["scores"]}
    return _table(view, ctx, deal_result(entry)["line"], done=True)


def _table(obs: dict[str, Any], ctx: TableContext, scored: dict[int, int],
           done: bool = False) -> Html:
    """The table; `done`: a deal scored, its summary open over it."""
    t: Translator = _words(ctx)
    me = ctx.seat
    opp = 1 - me
    mine = obs["to_act"] == me and "hand" in obs  # (a watcher, with no hand, never decides)
    phase = obs["phase"]
    turn = "me" if mine else ("bot" if obs["to_act"] is not None else "none")
    if phase == "over":
        info = t("dr.deal_no", n=DEALS) + " · " + t("dr.prompt.over")
    else:
        info = t("dr.deal_no", n=obs["deal_number"] + 1)
        if phase == "place" and not done:
            info += " · " + t("dr.stock", n=obs["stock"])
    head = html('<div class="dr-info">{}</div>', info)  # the rules: linked in the header
    if phase == "way" and mine:
        middle = _way_choice(ctx)
    else:
        middle = (coffin_html(obs, ctx, scored=scored, live="hand" in obs)  # (a watcher: a picture)
                  + (_legend(obs, ctx) if obs["ways"] else EMPTY))
    placing = mine and phase == "place"
    cards = []
    for c in obs.get("hand", []):  # (a watcher's public view has no hand: its plate's backs)
        if placing:
            on = c in ctx.picked
            attrs = html('class="dc-btn{sel}" data-part="{c}" aria-pressed="{on}"',
                         sel=" sel" if on else "", c=c, on="true" if on else "false")
        else:
            attrs = html('class="dc-btn" data-act="{}"', c)  # the shell answers "not your turn"
        # Named by its content, the card's picture (see coffin_html).
        cards.append(html('<button type="button" {attrs} data-card="{c}" title="{name}">'
                          '{face}</button>', attrs=attrs, c=c, name=card_name(c, t),
                          face=card_face(c, t)))
    hand = html('<div class="dr-hand{active}" role="group" aria-label="{label}" data-keys="row">'
                '{cards}</div>', active=" active" if placing else "", label=t("dr.hand.me"),
                cards=join(cards))
    card_picked = placing and any(not p.startswith("@") for p in ctx.picked)
    return html('{defs}<div class="dr-table{picked}" data-me="{me}" data-turn="{turn}" '
                'data-phase="{phase}">{opp_plate}{head}'
                # Two columns on a wide screen (the board, the person's side), so
                # that the whole table fits a laptop's height; one on a phone.
                '<div class="dr-play"><div class="dr-board">{middle}</div><div class="dr-mine">'
                '<div class="prompt" id="prompt">{prompt}</div>{my_plate}{hand}</div></div></div>',
                defs=DEFS, picked=" card-picked" if card_picked else "", me=me, turn=turn,
                phase=phase, opp_plate=_plate(obs, opp, ctx), head=head, middle=middle,
                prompt=t("dr.deal_over", n=obs["deal_number"] + 1) if done else _prompt(obs, ctx),
                my_plate=_plate(obs, me, ctx), hand=hand)


# -- results -------------------------------------------------------------------

class DealResult(TypedDict):
    """A finished deal as the summaries show it (`deal_result`)."""

    rank: int                  # 0: each best line scored; 1, 2: the 2nd/3rd best (tie rule)
    line: dict[int, int]       # player -> index of the line he scored
    score: dict[int, int]      # player -> the points of that line
    equal: list[int]           # the best values both had, that the tie rule passed over


def deal_result(entry: dict[str, Any]) -> DealResult:
    """Which line each player scored in a finished deal (an observation's
    `history` entry), and at which rank (`cards.scored_rank`: the tie rule)."""
    lines: dict[int, list[int]] = {p: entry["lines"][str(p)] for p in (0, 1)}
    score: dict[int, int] = {p: entry["score"][str(p)] for p in (0, 1)}
    rank = scored_rank(lines[0], lines[1])
    # The line scored: the one of that value (the best-placed of equal ones), as the engine says.
    line = {p: lines[p].index(score[p]) for p in (0, 1)}
    return {"rank": rank, "line": line, "score": score,
            "equal": sorted(lines[0], reverse=True)[:rank]}


def _calc(keys: tuple[str, str], info: Mapping[str, Any], t: Translator, **words: str) -> str:
    """What a full line is worth, in the words of `keys` (with its multiplier,
    or with a Vampire)."""
    full, vampire = keys
    if info["state"] == "vampire":
        return t(vampire, cards=_faces(info), **words)
    return t(full, cards=_faces(info), sum=info["sum"], value=info["value"],
             why=t(f"dr.mult.{info['multiplier']}"), **words)


def _explain_line(entry: dict[str, Any], obs: dict[str, Any], p: int, k: int,
                  t: Translator) -> str:
    way = obs["ways"][str(p)]
    info = _lines(_flat(entry["grid"]), way)[k]
    return _calc(("dr.calc.full", "dr.calc.vampire"), info, t, line=_line_name(way, k, t))


def _tie_text(res: DealResult, t: Translator) -> str:
    if res["rank"] == 0:
        return t("dr.tie.0")
    if res["rank"] == 1:
        return t("dr.tie.1", v=res["equal"][0])
    return t("dr.tie.2", v=res["equal"][0], w=res["equal"][1])


def _result_html(entry: dict[str, Any], obs: dict[str, Any], ctx: TableContext) -> Html:
    t: Translator = _words(ctx)
    me = ctx.seat
    res = deal_result(entry)
    items = []
    for p in (me, 1 - me):
        who = _who(p, me)
        way = obs["ways"][str(p)]
        text = t(f"dr.scores.{who}", way=t(f"dr.way.{way}"), v=res["score"][p],
                 rank=t("dr.rank_word.%d" % res["rank"]))
        calc = _explain_line(entry, obs, p, res["line"][p], t)
        items.append(html('<li class="{}">{}<br><span class="calc">{}</span></li>',
                          who, text, calc))
    return html('<p class="dr-tie{applies}">{tie}</p><ul class="dr-dealscore">{items}</ul>',
                applies=" applies" if res["rank"] else "", tie=_tie_text(res, t),
                items=join(items))


def hand_summary(obs: dict[str, Any], ctx: TableContext) -> Html:
    """End-of-deal panel: the full coffin, the lines scored and why, the sheet."""
    t: Translator = _words(ctx)
    n = len(obs["history"])
    entry = obs["history"][-1]
    res = deal_result(entry)
    return html('<h2>{title}</h2><div class="dr-sum">{coffin}<div>{result}</div></div>{sheet}',
                title=t("dr.deal_over", n=n),
                coffin=coffin_html(obs, ctx, entry["grid"], live=False, scored=res["line"],
                                   mini=True),
                result=_result_html(entry, obs, ctx), sheet=score_sheet(obs, ctx))


def last_trick(obs: dict[str, Any], ctx: TableContext) -> Html:
    """The last finished deal (the shell's 'last trick' panel)."""
    t: Translator = _words(ctx)
    if not obs["history"]:
        return html("<p>{}</p>", t("dr.last.none"))
    entry = obs["history"][-1]
    res = deal_result(entry)
    return html('<h3 class="dr-last">{title}</h3>{coffin}{result}',
                title=t("dr.last.title", n=len(obs["history"])),
                coffin=coffin_html(obs, ctx, entry["grid"], live=False, scored=res["line"],
                                   mini=True),
                result=_result_html(entry, obs, ctx))


def score_sheet(obs: dict[str, Any], ctx: TableContext, note: bool = True) -> Html:
    """The six deals, the line each player scored, the bonus."""
    t: Translator = _words(ctx)
    me = ctx.seat
    opp = 1 - me
    head = html('<tr><th>#</th><th>{dealer}</th><th>{me}</th><th>{bot}</th>'
                '<th>Σ {me}</th><th>Σ {bot}</th></tr>',
                dealer=t("dr.sheet.dealer"), me=t("dr.name.me"), bot=t("dr.name.bot"))
    rows = []
    tot = {0: 0, 1: 0}
    for i, entry in enumerate(obs["history"], 1):
        res = deal_result(entry)
        for p in (0, 1):
            tot[p] += res["score"][p]
        mark = EMPTY
        if res["rank"]:
            mark = html(' <abbr class="tiemark" title="{}">{}</abbr>', _tie_text(res, t),
                        "²" if res["rank"] == 1 else "³")

        def cell(p: int) -> Html:
            way = obs["ways"][str(p)]
            line = _line_name(way, res["line"][p], t)
            return html('<td><b>{}</b> <span class="calc">{}</span></td>', res["score"][p], line)

        rows.append(html('<tr><td>{i}{mark}</td><td>{dealer}</td>{mine}{theirs}'
                         '<td class="total">{tot_me}</td><td class="total">{tot_opp}</td></tr>',
                         i=i, mark=mark, dealer=_name(entry["dealer"], me, t), mine=cell(me),
                         theirs=cell(opp), tot_me=tot[me], tot_opp=tot[opp]))
    if not rows:
        rows.append(html('<tr><td colspan="6">{}</td></tr>', t("dr.sheet.none")))
    foot = EMPTY
    if obs["over"]:
        b, s = obs["bonus"], obs["scores"]
        foot = html('<tfoot><tr><td colspan="4">{bonus}</td><td class="total">+{b_me}</td>'
                    '<td class="total">+{b_opp}</td></tr><tr class="final">'
                    '<td colspan="4">{final}</td><td class="total">{s_me}</td>'
                    '<td class="total">{s_opp}</td></tr></tfoot>',
                    bonus=t("dr.sheet.bonus"), b_me=b[str(me)], b_opp=b[str(opp)],
                    final=t("dr.sheet.final"), s_me=s[str(me)], s_opp=s[str(opp)])
    note_html = EMPTY
    if note:
        note_html = html('<p class="dr-note">{}</p>',
                         _bonus_text(obs, ctx) if obs["over"] else t("dr.bonus.rule"))
    legend = EMPTY
    if any(deal_result(e)["rank"] for e in obs["history"]):
        legend = html('<p class="dr-note">{}</p>', t("dr.sheet.ties"))
    return html('<table class="scores dr-scores"><caption>{caption}</caption>'
                '<thead>{head}</thead><tbody>{rows}</tbody>{foot}</table>{note}{legend}',
                caption=t("dr.sheet.caption"), head=head, rows=join(rows), foot=foot,
                note=note_html, legend=legend)


def _bonus_text(obs: dict[str, Any], ctx: TableContext) -> str:
    t: Translator = _words(ctx)
    me = ctx.seat
    opp = 1 - me
    tot = {p: obs["totals"][str(p)] for p in (0, 1)}
    # Who wins and his bonus are the engine's; the best deals only explain them.
    best = {p: max((h["score"][str(p)] for h in obs["history"]), default=0) for p in (0, 1)}
    if obs["winner"] is None:
        return t("dr.bonus.draw", me=tot[me], b=best[me])
    hi = int(obs["winner"])
    won = {"d": obs["bonus"][str(hi)], "f": obs["scores"][str(hi)]}
    if tot[me] != tot[opp]:
        return t(f"dr.bonus.diff.{_who(hi, me)}", me=tot[me], bot=tot[opp], **won)
    return t(f"dr.bonus.tie.{_who(hi, me)}", me=tot[me], mine=best[me], his=best[opp],
             f=won["f"])


def final_summary(obs: dict[str, Any], ctx: TableContext) -> Html:
    """End-of-game panel: the winner, the bonus explained, the last deal, the sheet."""
    t: Translator = _words(ctx)
    me = ctx.seat
    w = obs["winner"]
    key = "draw" if w is None else _who(int(w), me)
    winner = t(f"dr.winner.{key}")
    if ctx.spectator and w is not None:  # nobody watching won: the winner by name
        winner = ctx.t("dr.winner.bot.person", name=ctx.people.get(str(w)) or _name(
            int(w), me, ctx.t, spectator=True))
    last = EMPTY
    if obs["history"]:
        entry = obs["history"][-1]
        last = html('<h3>{}</h3>{}', t("dr.last.title", n=len(obs["history"])),
                    _result_html(entry, obs, ctx))
    return html('<h2>{title}</h2><p class="winner">{winner}</p>'
                '<p class="dr-bonus-why">{why}</p>{last}{sheet}',
                title=t("dr.game_over"), winner=winner,
                why=_bonus_text(obs, ctx), last=last, sheet=score_sheet(obs, ctx, note=False))


# -- pacing ------------------------------------------------------------------

def who_decides(obs: dict[str, Any], ctx: TableContext) -> str:
    t: Translator = _words(ctx)
    return t("dr.who.me" if obs["to_act"] == ctx.seat else "dr.who.bot")


def thinking_seat(obs: dict[str, Any]) -> int | None:
    to_act: int | None = obs["to_act"]
    return to_act


def pause_factor(obs: dict[str, Any]) -> float:
    """A little longer before the first card of a deal, to see the new nail."""
    return 1.5 if obs["phase"] == "place" and not obs["moves"] else 1.0


# -- log -----------------------------------------------------------------------

def event_text(ev: dict[str, Any], ctx: TableContext) -> str:
    """One log line for one of the engine's events (`state.events(player)`).

    An entry in the table's former log format (a save from before the engine
    had events) is read as the event it stood for; anything else gives "".
    """
    t: Translator = _words(ctx)
    me = ctx.seat if ctx.seat is not None else ME
    try:
        return _event_text(ev if "kind" in ev else _former_entry(ev), me, t)
    except (KeyError, TypeError, ValueError, IndexError, AttributeError):
        return ""  # an entry an old or edited save got wrong: no line rather than a crash


def _event_text(ev: dict[str, Any], me: int, t: Translator) -> str:
    kind = ev.get("kind")
    if kind == "way_chosen":
        return t(f"dr.log.way.{_who(ev['player'], me)}.{ev['way']}")
    if kind == "dealt":
        return t(f"dr.log.deal.{_who(ev['dealer'], me)}", n=ev["deal_number"] + 1,
                 card=card_name(ev["nail"], t))
    if kind == "placed":
        # The row and the column the card changed, as they stand; a line it
        # filled up is told by its own `line_scored` event.
        placed = t(f"dr.log.place.{_who(ev['player'], me)}", card=card_name(ev["card"], t),
                   cell=t(f"dr.cell.{ev['cell']}"))
        return " ".join([placed] + [
            t(f"dr.log.{'open_vampire' if line['state'] == 'vampire' else 'open'}."
              f"{_who(line['player'], me)}", line=_line_name(line["way"], line["line"], t),
              sum=line["sum"])
            for line in ev.get("lines", ()) if None in line["cards"]])
    if kind == "line_scored":
        who = _who(ev["player"], me)
        return _calc((f"dr.log.line.{who}", f"dr.log.line_vampire.{who}"), ev, t,
                     line=_line_name(ev["way"], ev["line"], t))
    if kind == "deal_scored":
        score = ev["score"]
        text = t("dr.log.scored", n=ev["deal_number"] + 1, me=score[str(me)],
                 bot=score[str(1 - me)])
        return text + " " + t(f"dr.log.tie.{ev['rank']}") if ev["rank"] else text
    if kind == "game_over":
        scores, winner = ev["scores"], ev["winner"]
        key = "draw" if winner is None else _who(int(winner), me)
        return t(f"dr.log.over.{key}", me=scores[str(me)], bot=scores[str(1 - me)])
    return ""


def _former_entry(entry: dict[str, Any]) -> dict[str, Any]:
    """A log entry of the table's former format (`{"k": ...}`) as an event."""
    k = entry.get("k")
    if k == "way":
        return {"kind": "way_chosen", "player": entry["p"], "way": entry["way"]}
    if k == "deal":
        return {"kind": "dealt", "deal_number": entry["n"] - 1, "dealer": entry["dealer"],
                "nail": entry["nail"]}
    if k == "place":
        return {"kind": "placed", "player": entry["p"], "card": entry["card"],
                "cell": entry["cell"]}
    if k == "scored":
        return {"kind": "deal_scored", "deal_number": entry["n"] - 1, "rank": entry["rank"],
                "score": {"0": entry["score"][0], "1": entry["score"][1]}}
    if k == "over":
        return {"kind": "game_over", "winner": entry["winner"],
                "scores": {"0": entry["scores"][0], "1": entry["scores"][1]}}
    return {}  # "start" (the first dealer) has no event: the way_chosen line says it


# -- errors ------------------------------------------------------------------

_ERROR_KEYS = {
    "cell_not_adjacent": "dr.err.not_adjacent", "cell_taken": "dr.err.taken",
    "card_in_coffin": "dr.err.in_coffin", "card_not_in_hand": "dr.err.not_in_hand",
    "choose_way_first": "dr.err.way_first", "ways_already_chosen": "dr.err.way_done",
    "game_over": "dr.err.over", "malformed_action": "dr.err.malformed",
}


def error_text(code: str, params: dict[str, Any], obs: dict[str, Any],
               ctx: TableContext) -> str | None:
    """A refused move in the player's words, from the engine's code and params."""
    key = _ERROR_KEYS.get(code)
    if key is None:
        return None
    t: Translator = _words(ctx)
    words: dict[str, str] = {}

    if "cell" in params:
        words["cell"] = t(f"dr.cell.{params['cell']}")
    card = params.get("taken_by", params.get("card"))
    if card is not None:
        words["card"] = card_name(card, t)
    return t(key, **words)


def hint_text(action: str, obs: dict[str, Any], ctx: TableContext) -> str:
    """The hint in words; the shell highlights the action's parts (a way; a card and a cell)."""
    t = _words(ctx)
    if action.startswith("way:"):
        return t("hint.way", way=t(f"dr.way.{action[4:]}"))
    card, cell = parts(action)
    return t("hint.place", card=card_name(card, t), cell=t(f"dr.cell.{cell[1:]}"))


# The `Table` hooks this table leaves at their defaults (game.web.draw.tables.common).
confirm = never_confirm
online_options = same_options
seat_word = seat_number
waiting = no_waiting


# -- motion, the panels' words, a live embed's seat ---------------------------------

def motion(events: Iterable[Event], me: Any) -> Plan:
    """A placed card flies to its cell from the hand it left."""
    moves = [Move(ev["card"], f'[data-cell="{ev["cell"]}"]',
                  ".dr-hand" if ev["player"] == me else f'.plate[data-player="{ev["player"]}"]',
                  seat=True)
             for ev in events if ev["kind"] == "placed"]
    return moves, {}


def stats_mode(options: dict[str, Any], me: Any) -> str:
    """Every game counts alike: who deals first changes nothing of the game.

    >>> stats_mode({"first_dealer": 1}, 0)
    'standard'
    """
    return "standard"


def rated_options(mode: str) -> dict[str, Any] | None:
    return {} if mode == "standard" else None


def mode_text(t: Translator, mode: str) -> str:
    return catalog_mode(t, GAME_ID, mode)


def player_name(identity: Any, t: Translator) -> str:
    """A player by seat ("Player 1")."""
    return t("file.seat", n=int(identity) + 1)


def winner_text(winner: str, t: Translator) -> str:
    return t("file.won", name=player_name(int(winner), t))


def every_bot(level: str) -> dict[str, str]:
    return {"dr_bot": level}


def seat_params(values: dict[str, str], pick: Pick) -> dict[str, str]:
    """Who deals first, as the person sees it (`first=me|bot|random`)."""
    return {"first": pick("first", ("me", "bot", "random"), "me")}
