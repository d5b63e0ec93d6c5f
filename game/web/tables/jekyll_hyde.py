"""The Dr. Jekyll & Mr. Hyde table: observation -> HTML, actions -> words.

Pure Python (no browser import): the shell puts the HTML in the page and
sends `data-act` values of clicked elements to `state.apply`. Every action
is one click (a card code, or `@<seat>` to designate a seat), so the table
defines no `parts`: the shell's hint highlights the `data-act`, and arrow
keys move along a hand (`data-keys="row"`). Markup is built only with
`game.web.html`: names and scores come from saves and options, so every
value is escaped.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from game.jekyll_hyde.cards import ORDER, POINTS
from game.jekyll_hyde.rules import DEFAULT_NAMES, OPTIONS, TRICKS_PER_HAND, sides
from game.web.html import EMPTY, Html, html, join
from game.web.tables.common import (
    OptionField,
    bot_options,
    default_bot,
    option_spec,
    select_field,
)

if TYPE_CHECKING:
    from game.web.tables import TableContext

GAME_ID = "jekyll-hyde"
# The rulebook's example names, seat 0..3 (4 players).
SEAT_NAMES = ("Doris", "Adam", "Betty", "Christian")
POSITIONS = ("bottom", "left", "top", "right")  # relative to the person at the screen
_ICON = {"T": "i-transform", "A": "i-person", "B": "i-person", "C": "i-person",
         "D": "i-person", "E": "i-person", "F": "i-house"}
_ACTION_ICON = {"J1": "i-heart", "J2": "i-tear", "J3": "i-broken", "H1": "i-bolt",
                "H2": "i-cane", "H3": "i-skull"}
SIDE_WORD = {"J": "jekyll", "H": "hyde", "jekyll": "jekyll", "hyde": "hyde"}


# -- setup -------------------------------------------------------------------

# The engine options the start screen offers (seating with 4 players only: with
# 3 the soloist's place is the seat), and the scores a game may be played to.
PLAYERS = OptionField(option_spec(OPTIONS, "players"))
SEATING = OptionField(option_spec(OPTIONS, "seating"))
TARGET = OptionField(option_spec(OPTIONS, "target"), offered=(1000, 500, 300, 200, 100))
OPTION_FIELDS = (PLAYERS, SEATING, TARGET)


def _options(values: dict[str, str]) -> dict[str, Any]:
    """The engine options chosen on the start screen (the others at their defaults)."""
    players = PLAYERS.read(values)
    seating = {} if players == 3 else {"seating": SEATING.read(values)}
    return {"players": players, **seating, "target": TARGET.read(values)}


def _places(options: dict[str, Any]) -> tuple[str, ...]:
    """Who the person may play: one of four seats, or with 3 players one of the
    engine's three named players (the names key the scores, roles rotate)."""
    return DEFAULT_NAMES if options["players"] == 3 else SEAT_NAMES


def _me(values: dict[str, str], places: tuple[str, ...]) -> int:
    return next((i for i in range(len(places)) if str(i) == values.get("me")), 0)


def setup_form(t: Any, bots: list[str], values: dict[str, str]) -> Html:
    options = _options(values)
    places = _places(options)
    me = _me(values, places)
    fields = [PLAYERS.select(t, values)]
    if options["players"] == 3:
        labels = [t(f"jh.role.{i}", name=name) for i, name in enumerate(places)]
    else:
        fields.append(SEATING.select(t, values))
        team_of = {seat: team for team, seats in sides(options).items() for seat in seats}
        labels = [t("jh.seat", name=name, team=t(f"side.{team_of[i]}"))
                  for i, name in enumerate(places)]
    fields.append(select_field("me", [(str(i), label) for i, label in enumerate(labels)],
                               str(me), t("setup.you")))
    bot_opts = bot_options(t, bots)
    for i, name in enumerate(places):
        if i != me:
            key = f"bot{i}"
            fields.append(select_field(key, bot_opts, values.get(key, default_bot(bots)),
                                       t("setup.bot_for", name=name)))
    fields.append(TARGET.select(t, values))
    return join(fields)


def parse_setup(values: dict[str, str], bots: list[str]) -> dict[str, Any]:
    options = _options(values)
    places = _places(options)
    me = _me(values, places)

    def bot(i: int) -> str:
        b = values.get(f"bot{i}", default_bot(bots))
        return b if b in bots else default_bot(bots)

    def player(i: int) -> str | int:  # a name with 3 players, else the seat
        return places[i] if options["players"] == 3 else i

    return {"options": options, "me": player(me),
            "bots": {str(player(i)): bot(i) for i in range(len(places)) if i != me}}


# -- names and words -----------------------------------------------------------

def seat_name(obs: dict, seat: int) -> str:
    """A seat's player name this hand: with 3 players the names move every
    hand and seat 2 is "ghost" (`shown` says it in words)."""
    return named(obs["names"], seat)


def named(names: dict[str, str], seat: int) -> str:
    """The name at `seat` in an observation's or an event's `names` (empty
    with 4 unnamed players: the rulebook's names)."""
    return names.get(str(seat)) or SEAT_NAMES[seat]


def shown(name: str, t: Any) -> str:
    return t("jh.ghost") if name == "ghost" else name


def card_name(card: str, t) -> str:
    return t(f"card.{card}")


def side_word(side: str, t) -> str:
    return t(f"side.{SIDE_WORD[side]}")


# -- cards ---------------------------------------------------------------------

def _index(card: str) -> str:
    f = card[1:]
    if f[0] == "F":
        return f[1]
    if f.isdigit():
        return "×" + f
    return f


def card_svg(card: str) -> Html:
    f = card[1:]
    idx = _index(card)
    value = POINTS[card]
    corner = html('<text x="55" y="54" class="pt" text-anchor="end" font-size="9">{}</text>',
                  value) if value else EMPTY
    return html('<svg viewBox="0 0 60 56" aria-hidden="true" focusable="false">'
                '<text x="5" y="18" class="ix" font-size="{size}">{idx}</text>'
                '<use href="#{side_icon}" x="42" y="4" width="14" height="14" class="si"/>'
                '<use href="#{icon}" x="16" y="21" width="28" height="28" class="ic"/>'
                '{corner}</svg>',
                size=17 if len(idx) == 1 else 14, idx=idx,
                side_icon="i-flask" if card[0] == "J" else "i-hat",
                icon=_ACTION_ICON.get(card) or _ICON[f[0]], corner=corner)


def card_html(card: str, t: Any, cls: str = "", act: bool = True) -> Html:
    """A card face: a button that plays it (`act`), or a picture of it."""
    name = card_name(card, t)
    face = html('{svg}<span class="nm">{name}</span>', svg=card_svg(card), name=name)
    if act:
        return html('<button type="button" class="card {side} {cls}" data-card="{card}" '
                    'data-act="{card}" aria-label="{name}" title="{name}">{face}</button>',
                    side=card[0], cls=cls, card=card, name=name, face=face)
    return html('<div class="card {side} {cls}" data-card="{card}" aria-label="{name}" '
                'title="{name}">{face}</div>', side=card[0], cls=cls, card=card, name=name,
                face=face)


def back_html(side: str) -> Html:
    return html('<span class="back {side}"><svg viewBox="0 0 24 24" aria-hidden="true">'
                '<use href="#{icon}"/></svg></span>',
                side=side, icon="i-flask" if side == "J" else "i-hat")


def sort_cards(cards) -> list[str]:
    return sorted(cards, key=ORDER.__getitem__)


# -- the table -----------------------------------------------------------------

def _pos(seat: int, me: int) -> str:
    return POSITIONS[(seat - me) % 4]


def _prompt(obs: dict, ctx) -> str:
    t, me = ctx.t, ctx.seat
    if obs["over"]:
        return t("jh.prompt.over")
    turn, designated = obs["turn"], obs["designated"]
    need = side_word(obs["need"], t)
    legal = obs["legal"]
    if legal:
        if designated is not None:
            asker = seat_name(obs, turn)
            if designated == 2 and obs["options"].get("players") == 3:
                return t("jh.prompt.ghost_asked", name=asker, side=need)
            return t("jh.prompt.asked", name=asker, side=need)
        if turn != me:  # 3p soloist deciding for the ghost
            return t("jh.prompt.ghost_turn", side=need)
        if any(a[0] != "@" for a in legal):
            return t("jh.prompt.turn", side=need)
        return t("jh.prompt.must_designate", side=need)
    return t("jh.prompt.wait", name=shown(seat_name(obs, obs["to_act"]), t))


def _seat_html(obs: dict, seat: int, ctx: Any) -> Html:
    t, me = ctx.t, ctx.seat
    three = obs["options"].get("players") == 3
    team = obs["teams"][str(seat)]
    name = shown(seat_name(obs, seat), t)
    pos = _pos(seat, me)
    cls = ["seat", f"p-{pos}", team]
    legal = obs["legal"]
    if f"@{seat}" in legal:
        cls.append("designatable")
    if obs["turn"] == seat:
        cls.append("on-turn")
    if obs["designated"] == seat:
        cls.append("designated")
    if ctx.thinking is not None and ctx.thinking == seat:
        cls.append("thinking")
    backs = obs["backs"][str(seat)]
    if seat == me:
        body = EMPTY
        label = t("jh.you", name=name)
    elif three and seat == 2:
        ghost = sort_cards(obs["ghost"] or [])
        playable = set(legal) if obs["turn"] is not None else set()
        body = html('<div class="ghost-hand" data-keys="row">{}</div>', join(
            card_html(c, t, "mini playable" if c in playable else "mini",
                      act=(me == 0)) for c in ghost))
        label = name
    else:
        j, h = backs["J"], backs["H"]
        body = html('<div class="backs" aria-label="{label}">'
                    '<span class="stack">{jekyll}</span><b>{j}</b>'
                    '<span class="stack">{hyde}</span><b>{h}</b></div>',
                    label=t("jh.backs", j=j, h=h), j=j, h=h,
                    jekyll=join([back_html("J")] * j), hyde=join([back_html("H")] * h))
        label = name
    return html('<div class="{cls}" data-seat="{seat}" data-act="@{seat}" '
                'role="button" tabindex="0" title="{title}">'
                '<div class="plate"><svg class="team" viewBox="0 0 24 24" aria-hidden="true">'
                '<use href="#{side_icon}"/></svg><span class="who">{label}</span>'
                '<span class="team-name">{team}</span></div>{body}</div>',
                cls=" ".join(cls), seat=seat, label=label, body=body,
                title=t("jh.designate", name=name) if "designatable" in cls else "",
                side_icon="i-flask" if team == "jekyll" else "i-hat", team=t("side." + team))


def _from(names: dict[str, str], src: int, t: Any) -> str:
    """Where a card put down for another seat came from."""
    name = named(names, src)
    return t("jh.from_ghost") if name == "ghost" else t("jh.from", name=name)


def _played(obs: dict, plays: list[dict], ctx: Any, winner: int | None = None) -> Html:
    t, me = ctx.t, ctx.seat
    out = []
    for p in plays:
        seat, card, src = p["seat"], p["card"], p["from"]
        tag = EMPTY
        if src != seat:
            tag = html('<span class="from">{}</span>', _from(obs["names"], src, t))
        cls = "played" + (" win" if winner == seat else "")
        out.append(html('<div class="slot p-{pos}" data-slot="{seat}">{card}{tag}</div>',
                        pos=_pos(seat, me), seat=seat, tag=tag,
                        card=card_html(card, t, cls, act=False)))
    return join(out)


def render(obs: dict, ctx: Any) -> Html:
    t, me = ctx.t, ctx.seat
    three = obs["options"].get("players") == 3
    trick = obs.get("trick") or {"plays": []}
    plays = trick["plays"]
    centre = []
    banner = ""
    if plays:
        centre.append(_played(obs, plays, ctx))
    elif obs["tricks"]:
        last = obs["tricks"][-1]
        centre.append(html('<div class="last">{}</div>',
                           _played(obs, last["plays"], ctx, last["winner"])))
        banner = _trick_result(obs["names"], last, len(obs["tricks"]) == TRICKS_PER_HAND, t)
    if obs["carried"]:
        centre.append(html('<div class="carried" title="{help}"><span>{caption}</span>'
                           '<div class="row">{cards}</div></div>',
                           help=t("jh.carried_help"), caption=t("jh.carried", n=len(obs["carried"])),
                           cards=join(card_html(c, t, "tiny", act=False) for c in obs["carried"])))
    if banner:
        centre.append(html('<div class="banner">{}</div>', banner))
    legal = set(obs["legal"])
    cards = join(card_html(c, t, "playable" if c in legal else "") for c in sort_cards(obs["hand"]))
    info = "" if obs["over"] else t("jh.trick_no", n=min(len(obs["tricks"]) + 1, TRICKS_PER_HAND))
    return html('<div class="table jh {players}" data-me="{me}" data-turn="{turn}" '
                'data-designated="{designated}">{seats}<div class="centre">'
                '<div class="tinfo">{hand_no} · {info}</div>{centre}</div></div>'
                '<div class="prompt" id="prompt">{prompt}</div>'
                '<div class="hand mine" data-keys="row" aria-label="{hand_label}">{cards}</div>',
                players="p3" if three else "p4", me=me,
                turn="" if obs["turn"] is None else obs["turn"],
                designated="" if obs["designated"] is None else obs["designated"],
                seats=join(_seat_html(obs, s, ctx) for s in range(4)),
                hand_no=t("jh.hand_no", n=obs["hand_number"] + 1), info=info,
                centre=join(centre), prompt=_prompt(obs, ctx), hand_label=t("jh.your_hand"),
                cards=cards)


def _trick_result(names: dict[str, str], trick: dict, last_of_hand: bool, t: Any) -> str:
    if trick["winner"] is None:
        return t("jh.trick.nobody_last" if last_of_hand else "jh.trick.transformation")
    return t("jh.trick.won", name=shown(named(names, trick["winner"]), t))


def last_trick(obs: dict, ctx: Any) -> Html:
    """The last finished trick: of this hand, or else the last one of the previous hand
    (with the names of that hand: with 3 players they have moved since)."""
    t = ctx.t
    if obs["tricks"]:
        trick, names = obs["tricks"][-1], obs["names"]
        last_of_hand = len(obs["tricks"]) == TRICKS_PER_HAND
    elif obs["history"]:
        trick, last_of_hand = obs["history"][-1]["last_trick"], True
        names = _names_in_hand(obs["hand_number"] - 1, ctx.log) or obs["names"]
    else:
        return html("<p>{}</p>", t("jh.no_trick_yet"))
    rows = []
    for play in trick["plays"]:
        seat, src = play["seat"], play["from"]
        extra = "" if src == seat else " " + _from(names, src, t)
        rows.append(html("<li>{}<span>{}{}</span></li>",
                         card_html(play["card"], t, "mini", act=False),
                         shown(named(names, seat), t), extra))
    return html('<ol class="lasttrick">{}</ol><p class="result">{}</p>', join(rows),
                _trick_result(names, trick, last_of_hand, t))


def _names_in_hand(hand_number: int, log: list[dict]) -> dict[str, str] | None:
    """The names at the seats in hand `hand_number`, from its `dealt` event in
    the log (None if the log does not have it: an old save, a scripted example)."""
    for event in reversed(log):
        if event.get("kind") == "dealt" and event.get("hand_number") == hand_number:
            return event.get("names")
    return None


# -- pacing ------------------------------------------------------------------

def who_decides(obs: dict, ctx) -> str:
    """The name of whoever must act now (the soloist decides for the ghost)."""
    return shown(seat_name(obs, obs["to_act"]), ctx.t)


def thinking_seat(obs: dict) -> int | None:
    """The seat to mark as thinking while a bot decides."""
    return obs["turn"]


def pause_factor(obs: dict) -> float:
    """How much longer than usual a bot waits: more right after a trick."""
    trick = obs.get("trick") or {"plays": []}
    return 2.2 if not trick["plays"] and obs["tricks"] else 1.0


# -- log -----------------------------------------------------------------------

def event_text(ev: dict, ctx: Any) -> str:
    """One engine event (`state.events(player)`; the kinds are listed in
    game/jekyll_hyde/rules.py) as a log line in the player's language; "" for
    an entry that is no event of this game (an older save's log)."""
    t = ctx.t
    names = _names_then(ev, ctx.log)

    def who(seat: int) -> str:
        return shown(named(names, seat), t)

    kind = ev.get("kind")
    if kind == "dealt":
        text = t("log.deal", n=ev["hand_number"] + 1, who=who(ev["leader"]))
    elif kind == "soloist_changed":
        text = t("log.soloist", name=ev["soloist"])
    elif kind == "designated":
        text = t("log.ask", who=who(ev["by"]), whom=who(ev["whom"]), side=side_word(ev["need"], t))
    elif kind == "played":
        text = _played_text(ev, names, t)
    elif kind == "trick_won":
        text = t("log.trick", who=who(ev["winner"]), points=ev["points"])
    elif kind == "transformation":
        text = t("jh.trick.nobody_last" if ev["to_nobody"] else "jh.trick.transformation")
    elif kind == "hand_scored":
        teams = ev["teams"]
        text = t("log.hand_over") + " " + "; ".join(
            t("log.team_score", team=t(f"side.{team}"), p=teams[team]["points"],
              m=teams[team]["multiplier"], s=teams[team]["score"]) for team in ("jekyll", "hyde"))
    elif kind == "game_over":
        text = t("log.over", who=_winner_text(ev["winner"], t))
    else:
        return ""
    return text[:1].upper() + text[1:]


def _played_text(ev: dict, names: dict[str, str], t: Any) -> str:
    """A card put down: from one's own hand, given by a designated seat, or
    taken by the soloist from the ghost's hand or from his own for the ghost."""
    seat, src, card = ev["seat"], ev["from"], card_name(ev["card"], t)
    player, source = named(names, seat), named(names, src)
    if src == seat:
        return t("log.play", who=shown(player, t), card=card)
    if source == "ghost" and seat == 0:
        return t("log.play_from_ghost", who=player, card=card)
    if player == "ghost" and src == 0:
        return t("log.play_for_ghost", who=source, card=card)
    return t("log.gives", whom=shown(source, t), card=card)


def _names_then(ev: dict, log: list[dict]) -> dict[str, str]:
    """The names at the seats when `ev` happened: those of the last deal before
    it in the log, since with 3 players they move every hand (an event not
    in the log: those of the last deal)."""
    if "names" in ev:
        return ev["names"]
    passed, latest = False, None
    for entry in reversed(log):
        passed = passed or entry is ev
        if entry.get("kind") == "dealt":
            names = entry.get("names") or {}
            if passed or names.get("2") != "ghost":  # with 4 players they never move
                return names
            latest = latest or names
    return latest or {}


def _winner_text(winner: str | None, t: Any) -> str:
    if winner in ("jekyll", "hyde"):
        return t("jh.team_of", team=t(f"side.{winner}"))
    return winner or "?"


# -- errors ------------------------------------------------------------------

# Engine error codes -> this table's words (the catalogs' err.* keys); any other
# code falls back to the shared error.<code> text (game.web.tables.error_words).
_ERROR_KEYS = {
    "wrong_side": "err.wrong_side", "card_not_in_hand": "err.not_in_hand",
    "not_in_soloist_or_ghost_hand": "err.not_in_hand", "cannot_designate_self": "err.self",
    "soloist_takes_hyde_directly": "err.soloist_direct", "designated_must_give": "err.must_give",
    "no_card_of_side": "err.no_side",
}


def error_text(code: str, params: dict, obs: dict, ctx: Any) -> str | None:
    """A refused move in the player's words, from the engine's code and params."""
    key = _ERROR_KEYS.get(code)
    if key is None:
        return None
    t = ctx.t
    words: dict[str, str] = {}
    if "card" in params:
        words["card"] = card_name(params["card"], t)
    if "need" in params:
        words["side"] = t(f"side.{params['need']}")
    if "seat" in params:
        words["name"] = shown(seat_name(obs, params["seat"]), t)
    return t(key, **words)


# -- scores ------------------------------------------------------------------

def score_sheet(obs: dict, ctx: Any) -> Html:
    t = ctx.t
    three = obs["options"].get("players") == 3
    rows = []
    if three:
        names = obs["options"]["names"]
        totals = {n: 0 for n in names}
        head = html("<tr><th>#</th><th>{}</th><th>{}</th><th>{}</th>{}</tr>",
                    t("score.soloist"), t("side.jekyll"), t("side.hyde"),
                    join(html("<th>{}</th>", n) for n in names))
        for i, h in enumerate(obs["history"], 1):
            solo = h.get("soloist", "?")
            for n in names:
                totals[n] += h["score"]["hyde"] if n == solo else h["score"]["jekyll"]
            rows.append(html("<tr><td>{}</td><td>{}</td>{}{}{}</tr>", i, solo,
                             _cell(h, "jekyll"), _cell(h, "hyde"),
                             join(html("<td class=total>{}</td>", totals[n]) for n in names)))
    else:
        totals = {"jekyll": 0, "hyde": 0}
        head = html("<tr><th>#</th><th>{jekyll}</th><th>{hyde}</th><th>Σ {jekyll}</th>"
                    "<th>Σ {hyde}</th></tr>", jekyll=t("side.jekyll"), hyde=t("side.hyde"))
        for i, h in enumerate(obs["history"], 1):
            for team in totals:
                totals[team] += h["score"][team]
            rows.append(html("<tr><td>{}</td>{}{}<td class=total>{}</td><td class=total>{}</td>"
                             "</tr>", i, _cell(h, "jekyll"), _cell(h, "hyde"),
                             totals["jekyll"], totals["hyde"]))
    if not rows:
        rows.append(html('<tr><td colspan="6">{}</td></tr>', t("score.none")))
    return html('<table class="scores"><caption>{}</caption><thead>{}</thead>'
                '<tbody>{}</tbody></table>',
                t("score.caption", target=obs["options"].get("target", 1000)), head, join(rows))


def _cell(h: dict, team: str) -> Html:
    return html('<td><span class="calc">{} × {} = </span><b>{}</b></td>',
                h["points"][team], h["multiplier"][team], h["score"][team])


def hand_summary(obs: dict, ctx: Any) -> Html:
    t = ctx.t
    h = obs["history"][-1]
    lines = join(html('<li class="{}">{}</li>', team,
                      t("log.team_score", team=t("side." + team), p=h["points"][team],
                        m=h["multiplier"][team], s=h["score"][team]))
                 for team in ("jekyll", "hyde"))
    who = html("<p>{}</p>", t("score.soloist_was", name=h["soloist"])) if "soloist" in h \
        else EMPTY
    return html('<h2>{}</h2>{}<h3>{}</h3>{}<ul class="handscore">{}</ul>{}',
                t("jh.hand_over", n=len(obs["history"])), who, t("menu.last"),
                last_trick(obs, ctx), lines, score_sheet(obs, ctx))


def final_summary(obs: dict, ctx: Any) -> Html:
    t = ctx.t
    totals = ", ".join(f"{t('side.' + k) if k in ('jekyll', 'hyde') else k}: {v}"
                       for k, v in obs["scores"].items())
    return html('<h2>{}</h2><p class="winner">{}</p><p>{}</p>{}', t("jh.game_over"),
                t("log.over", who=_winner_text(obs["winner"], t)), totals, score_sheet(obs, ctx))


def hint_text(action: str, obs: dict[str, Any], ctx: TableContext) -> str:
    """The hint in words; the shell highlights the action's `data-act` itself."""
    t = ctx.t
    if action.startswith("@"):
        return t("hint.ask", name=shown(seat_name(obs, int(action[1:])), t))
    key = "hint.give" if obs.get("designated") == ctx.seat else "hint.play"
    return t(key, cards=card_name(action, t))
