"""The Jekyll vs Hyde table (2-player duel): observation -> HTML, actions -> words.

Pure Python (no browser import): the shell puts the HTML in the page and
sends `data-act` values of clicked elements to `state.apply`.

Choices of several cards (the exchange, a green swap) are checkboxes in a
form: ticking them changes nothing in the game; a small inline handler only
writes the ticked cards into the confirm button's `data-act`
(`give:R5,2+`), which the engine then accepts or refuses with a reason.
Leading a Potion ticks a radio button that shows, with CSS alone, three
buttons naming a colour (`4+:P`, `4+:R`, `4+:G`).

Containers carry an empty `data-cmd`: the shell's click handler then finds
an element and does nothing, where it would otherwise choke on JS null.

Every colour has its own symbol and pattern as well as its hue: purple
(Pride) a crown on stripes, red (Wrath) a flame on dots, green (Greed) a gem
on a checkerboard; Potions a round flask on bubbles.
"""

from __future__ import annotations

import random
import re
from html import escape
from typing import Any

from game.web.tables.common import bot_options, default_bot, select_field

GAME_ID = "jekyll-vs-hyde"
ROLES = ("J", "H")
COLOURS = ("P", "R", "G")
POTIONS = ("2+", "3+", "4+", "5+")
TRACK_END = 10
TRICKS = 10
_DECK = tuple(f"{c}{n}" for c in COLOURS for n in range(1, 8)) + POTIONS
_ORDER = {c: i for i, c in enumerate(_DECK)}
_SYMBOL = {"P": "jvh-crown", "R": "jvh-flame", "G": "jvh-gem", None: "jvh-potion"}
_ROLE_ICON = {"J": "i-flask", "H": "i-hat"}  # the shell's symbols (index.html)
# The inline handler of a pick form: ticked cards -> the confirm button's action.
_PICK_JS = ("var v=[].map.call(this.querySelectorAll('input:checked'),function(i){"
            "return i.value});var b=this.querySelector('.jvh-confirm');"
            "b.setAttribute('data-act',this.getAttribute('data-verb')+':'+v.join(','));"
            "this.setAttribute('data-count',v.length);"
            "this.querySelector('.jvh-count').textContent=v.length")


def colour(card: str) -> str | None:
    return None if card.endswith("+") else card[0]


def value(card: str) -> int:
    """Doubled value: 3+ is 7, between 3 (6) and 4 (8)."""
    return 2 * int(card[0]) + 1 if card.endswith("+") else 2 * int(card[1])


def sort_cards(cards) -> list[str]:
    return sorted(cards, key=_ORDER.__getitem__)


def other(role: str) -> str:
    return "H" if role == "J" else "J"


# -- words ---------------------------------------------------------------------

def role_name(role: str, t) -> str:
    return t(f"jvh.role.{role}")


def colour_name(c: str, t) -> str:
    return t(f"jvh.colour.{c}")


def card_name(card: str, t) -> str:
    """'red 5 (Wrath)', 'Potion 3+' in the current language."""
    c = colour(card)
    if c is None:
        return t("jvh.potion", v=card)
    return t("jvh.card", colour=colour_name(c, t), n=card[1], sin=t(f"jvh.sin.{c}"))


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _cards_text(cards, t) -> str:
    return ", ".join(card_name(c, t) for c in cards) or "—"


# -- setup ---------------------------------------------------------------------


def _values(values: dict[str, str], bots: list[str]) -> tuple[str, str, str]:
    """(role, variant, bot) from the start screen, each one valid ("random" stays)."""
    role = values.get("jvh_role", "J")
    role = role if role in ("J", "H", "random") else "J"
    variant = values.get("jvh_variant", "standard")
    variant = variant if variant in ("standard", "return-match") else "standard"
    bot = values.get("jvh_bot", default_bot(bots))
    return role, variant, (bot if bot in bots else default_bot(bots))


def setup_form(t, bots: list[str], values: dict[str, str]) -> str:
    role, variant, bot = _values(values, bots)
    bot_opts = bot_options(t, bots)
    return "".join((
        select_field("jvh_role", [("J", t("jvh.setup.role.J")), ("H", t("jvh.setup.role.H")),
                             ("random", t("jvh.setup.role.random"))], role, t("setup.you")),
        select_field("jvh_variant", [("standard", t("jvh.variant.standard")),
                                ("return-match", t("jvh.variant.return-match"))],
                variant, t("jvh.setup.variant")),
        select_field("jvh_bot", bot_opts, bot, t("jvh.setup.bot")),
    ))


def parse_setup(values: dict[str, str], bots: list[str]) -> dict[str, Any]:
    role, variant, bot = _values(values, bots)
    if role not in ROLES:
        role = random.choice(ROLES)
    return {"options": {"variant": variant}, "me": role, "bots": {other(role): bot}}


def identity_key(state, player: str) -> str:
    return str(state.identity(player))


def seat_of(state, me) -> str:
    """The role the person at the screen plays now (it swaps in a return match)."""
    for role in ROLES:
        if str(state.identity(role)) == str(me):
            return role
    return "J"


# -- cards ---------------------------------------------------------------------

def defs_svg() -> str:
    """Symbols and patterns of the card faces, once per screen."""
    return (
        '<svg class="jvh-defs" width="0" height="0" aria-hidden="true" focusable="false">'
        '<defs>'
        '<symbol id="jvh-crown" viewBox="0 0 24 24"><path d="M2.5 18.5 4 7l5 5.2L12 3.5l3 8.7L20 7'
        'l1.5 11.5z" fill="currentColor"/><rect x="2.5" y="19.6" width="19" height="2.2" rx=".6" '
        'fill="currentColor"/><circle cx="12" cy="14.6" r="1.6" fill="#fff" opacity=".7"/></symbol>'
        '<symbol id="jvh-flame" viewBox="0 0 24 24"><path d="M12.6 1.8c.7 4.2 6.4 6.6 6.4 12.6a7 7 0 '
        '0 1-14 0c0-3.9 2.4-5.6 3.1-8.6 1.5 1.7 2 3.4 1.9 5.3 1.9-2 3.2-5.2 2.6-9.3z" '
        'fill="currentColor"/><path d="M12 21.2a3.3 3.3 0 0 1-3.3-3.3c0-2 1.4-2.9 1.9-4.6 1 .9 1.4 '
        '2 1.3 3.1 1-.8 1.6-2 1.6-3.3 1.2 1.2 1.8 2.7 1.8 4.2A3.3 3.3 0 0 1 12 21.2z" fill="#fff" '
        'opacity=".6"/></symbol>'
        '<symbol id="jvh-gem" viewBox="0 0 24 24"><path d="M6.5 3.5h11L22 9.2 12 21.5 2 9.2z" '
        'fill="currentColor"/><path d="M2 9.2h20M8.8 3.5 7 9.2l5 12.3 5-12.3-1.8-5.7M7 9.2 12 3.5l5 '
        '5.7" fill="none" stroke="#fff" stroke-width="1" opacity=".65"/></symbol>'
        '<symbol id="jvh-potion" viewBox="0 0 24 24"><path d="M9.5 2h5v1.5h-.8v4.1a7.6 7.6 0 1 1-3.4 '
        '0V3.5h-.8z" fill="currentColor"/><circle cx="12" cy="14.5" r="5" fill="#fff" opacity=".35"/>'
        '<circle cx="10.3" cy="15.6" r="1.2" fill="#fff"/><circle cx="13.6" cy="13.2" r=".8" '
        'fill="#fff"/><circle cx="13" cy="16.9" r=".6" fill="#fff"/></symbol>'
        '<pattern id="jvh-pat-P" width="6" height="6" patternUnits="userSpaceOnUse" '
        'patternTransform="rotate(45)"><rect width="6" height="6" fill="#efe4f8"/>'
        '<rect width="2.6" height="6" fill="#7a4aa8"/></pattern>'
        '<pattern id="jvh-pat-R" width="5" height="5" patternUnits="userSpaceOnUse">'
        '<rect width="5" height="5" fill="#fbe3de"/><circle cx="2.5" cy="2.5" r="1.35" '
        'fill="#c0392b"/></pattern>'
        '<pattern id="jvh-pat-G" width="6" height="6" patternUnits="userSpaceOnUse">'
        '<rect width="6" height="6" fill="#def2e4"/><rect width="3" height="3" fill="#2e7d4f"/>'
        '<rect x="3" y="3" width="3" height="3" fill="#2e7d4f"/></pattern>'
        '<pattern id="jvh-pat-X" width="8" height="8" patternUnits="userSpaceOnUse">'
        '<rect width="8" height="8" fill="#f1ecdf"/><circle cx="2" cy="2" r="1.3" fill="none" '
        'stroke="#8a7a55" stroke-width=".7"/><circle cx="6" cy="6" r=".8" fill="none" '
        'stroke="#8a7a55" stroke-width=".6"/></pattern>'
        '</defs></svg>')


def card_svg(card: str) -> str:
    """A card face drawn for this site: pattern frame, number, symbol."""
    c = colour(card)
    key = c or "X"
    big = card if c is None else card[1]
    sym = _SYMBOL[c]
    size = 22 if len(big) == 1 else 18
    return (f'<svg viewBox="0 0 60 88" aria-hidden="true" focusable="false">'
            f'<rect x="1" y="1" width="58" height="86" rx="6" class="fr" fill="url(#jvh-pat-{key})"/>'
            f'<rect x="6" y="6" width="48" height="76" rx="4" class="pn"/>'
            f'<text x="9" y="{8 + size}" class="ix" font-size="{size}">{big}</text>'
            f'<use href="#{sym}" x="37" y="9" width="14" height="14" class="sm"/>'
            f'<use href="#{sym}" x="14" y="38" width="32" height="32" class="sy"/>'
            f'<text x="51" y="78" class="ix2" text-anchor="end" font-size="11">{big}</text>'
            '</svg>')


def card_html(card: str, t, cls: str = "", act: bool = True, extra: str = "") -> str:
    name = escape(card_name(card, t))
    key = colour(card) or "X"
    attrs = f' data-act="{card}"' if act else ""
    tag = "button" if act else "div"
    typ = ' type="button"' if act else ' role="img"'
    return (f'<{tag}{typ} class="card jvh-card c-{key} {cls}" data-card="{card}"{attrs} '
            f'aria-label="{name}" title="{name}">{card_svg(card)}{extra}</{tag}>')


def token_html(c: str, t, cls: str = "") -> str:
    """A colour token: hue, pattern and symbol, and its name for screen readers."""
    name = escape(colour_name(c, t))
    return (f'<span class="jvh-token c-{c} {cls}" title="{name}"><svg viewBox="0 0 24 24" '
            f'aria-hidden="true"><circle cx="12" cy="12" r="11" fill="url(#jvh-pat-{c})"/>'
            f'<circle cx="12" cy="12" r="7.6" class="bg"/><use href="#{_SYMBOL[c]}" x="6" y="6" '
            f'width="12" height="12" class="sy"/></svg><span class="nm">{name}</span></span>')


def _mini_row(cards, t) -> str:
    return "".join(card_html(c, t, "mini", act=False) for c in cards)


# -- the table -----------------------------------------------------------------

def _difference(obs: dict) -> int:
    return abs(obs["tricks"]["J"] - obs["tricks"]["H"])


def _track(obs: dict, ctx) -> str:
    t = ctx.t
    marker = obs["marker"]
    d = _difference(obs)
    to = min(TRACK_END, marker + d)
    live = obs["phase"] in ("play", "swap")
    cells = []
    for i in range(TRACK_END + 1):
        cls = ["cell"]
        if i >= 5:
            cls.append("hz")  # Hyde leads the next round from here
        if live and marker < i <= to:
            cls.append("preview")
        if live and d and i == to:
            cls.append("target")
        inner = f'<span class="n">{i}</span>'
        if i == marker:
            cls.append("here")
            inner += '<span class="pawn" aria-hidden="true"></span>'
        cells.append(f'<li class="{" ".join(cls)}" data-cell="{i}">{inner}</li>')
    label = t("jvh.track_label", marker=marker)
    if live:
        label += " " + t("jvh.track_preview", d=d, to=to)
    label += " " + t("jvh.track_hint")
    return (f'<div class="jvh-track" role="img" aria-label="{escape(label)}" '
            f'data-marker="{marker}" data-preview="{to if live else marker}">'
            f'<span class="end J"><svg aria-hidden="true"><use href="#i-flask"/></svg>'
            f'{escape(role_name("J", t))}</span>'
            f'<ol aria-hidden="true" title="{escape(t("jvh.track_hint"))}">{"".join(cells)}</ol>'
            f'<span class="end H"><svg aria-hidden="true"><use href="#i-hat"/></svg>'
            f'{escape(role_name("H", t))}</span></div>')


def ranking_text(ranking: list[str], t) -> str:
    if not ranking:
        return t("jvh.ranking_none")
    return ", ".join(t(f"jvh.rank_of.{i if len(ranking) > 1 else 0}", colour=colour_name(c, t))
                     for i, c in enumerate(ranking))


def _ranking(obs: dict, ctx) -> str:
    t = ctx.t
    ranking = obs["ranking"]
    slots = []
    for i in range(3):
        c = ranking[i] if i < len(ranking) else None
        body = token_html(c, t) if c else '<span class="jvh-token empty">?</span>'
        data = f' data-colour="{c}"' if c else ""
        slots.append(f'<li class="rslot{" set" if c else ""}" data-rank="{i}"{data}>'
                     f'<span class="lbl">{escape(t(f"jvh.rank.{i}"))}</span>{body}</li>')
    label = t("jvh.ranking_label", text=ranking_text(ranking, t))
    played = obs["played"]
    reset = ""
    if not ranking and played and played[-1]["effect"] == "red":
        reset = f'<span class="reset">↺ {escape(t("jvh.ranking_reset"))}</span>'
        label += " " + t("jvh.ranking_reset")
    return (f'<div class="jvh-ranking{" was-reset" if reset else ""}" role="img" '
            f'aria-label="{escape(label)}"><span class="title">{escape(t("jvh.ranking"))}</span>'
            f'<ol aria-hidden="true">{"".join(slots)}</ol>{reset}</div>')


def _status(obs: dict, ctx) -> str:
    t = ctx.t
    parts = []
    if obs["options"].get("variant") == "return-match":
        parts.append(t("jvh.game_no", n=obs["leg"]))
    parts.append(t("jvh.round_no", n=obs["round"]))
    if obs["phase"] == "give":
        parts.append(t("jvh.phase.give"))
    elif not obs["over"]:
        parts.append(t("jvh.trick_no", n=min(len(obs["played"]) + 1, TRICKS)))
    d = _difference(obs)
    diff = ""
    if obs["phase"] in ("play", "swap"):
        text = t("jvh.diff", d=d, to=min(TRACK_END, obs["marker"] + d))
        diff = f'<span class="diff" data-diff="{d}">{escape(text)}</span>'
    return f'<div class="jvh-status"><span>{escape(" · ".join(parts))}</span>{diff}</div>'



def _pile(obs: dict, role: str, ctx, steal: str | None) -> str:
    t = ctx.t
    n = obs["tricks"][role]
    stack = "".join('<span class="tb"></span>' for _ in range(min(n, 10)))
    cls = "jvh-pile"
    extra = ""
    if steal == "in":
        cls += " gained"
        extra = f'<span class="delta plus">+1 {escape(t("jvh.stolen"))}</span>'
    elif steal == "out":
        cls += " lost"
        extra = '<span class="delta minus">−1</span>'
    label = t("jvh.pile", n=n)
    return (f'<div class="{cls}" data-role="{role}" data-count="{n}" title="{escape(label)}">'
            f'<span class="stack" aria-hidden="true">{stack}</span>'
            f'<b class="count">{n}</b><span class="lbl">{escape(t("jvh.tricks"))}</span>'
            f'<span class="sr">{escape(label)}</span>{extra}</div>')


def _seat(obs: dict, role: str, ctx, steal: str | None) -> str:
    t = ctx.t
    me = ctx.seat
    mine = role == me
    cls = ["jvh-seat", "me" if mine else "opp", f"role-{role}"]
    if obs["to_act"] == role:
        cls.append("on-turn")
    if ctx.thinking is not None and ctx.thinking == role:
        cls.append("thinking")
    who = t("jvh.you" if mine else "jvh.bot", role=role_name(role, t))
    n = obs["hand_sizes"][role]
    hand = ""
    if not mine:
        hand = (f'<span class="jvh-backs" title="{escape(t("jvh.hand_size", n=n))}">'
                f'<span class="back {role}"><svg viewBox="0 0 24 24" aria-hidden="true">'
                f'<use href="#{_ROLE_ICON[role]}"/></svg></span><b>×{n}</b>'
                f'<span class="sr">{escape(t("jvh.hand_size", n=n))}</span></span>')
    return (f'<div class="{" ".join(cls)}" data-role="{role}">'
            f'<div class="plate"><svg class="team" viewBox="0 0 24 24" aria-hidden="true">'
            f'<use href="#{_ROLE_ICON[role]}"/></svg><span class="who">{escape(who)}</span></div>'
            f'{hand}{_pile(obs, role, ctx, steal)}</div>')


def _last_played(obs: dict) -> dict | None:
    """The trick just finished, while the next one has not started."""
    if obs["trick"]["cards"] or obs["phase"] not in ("play", None) or not obs["played"]:
        return None
    return obs["played"][-1]


def _slot(role: str, card: str | None, ctx, cls: str = "", note: str = "") -> str:
    t = ctx.t
    pos = "me" if role == ctx.seat else "opp"
    body = (card_html(card, t, "played " + cls, act=False) if card
            else '<span class="card jvh-card empty played"></span>')
    return (f'<div class="jvh-slot {pos}" data-slot="{role}">'
            f'<span class="who">{escape(role_name(role, t))}</span>{body}{note}</div>')


def _named_note(c: str | None, t) -> str:
    if not c:
        return ""
    return (f'<span class="named" data-named="{c}">{escape(t("jvh.named"))} '
            f'{token_html(c, t, "small")}</span>')


def _trick_area(obs: dict, ctx) -> str:
    t = ctx.t
    me = ctx.seat
    phase = obs["phase"]
    out = []
    if phase == "give":
        out.append(_exchange_panel(obs, ctx))
    else:
        trick = obs["trick"]
        last = _last_played(obs)
        if trick["cards"]:
            leader = trick["leader"]
            cards = trick["cards"]
            by = {leader: cards[0], other(leader): cards[1] if len(cards) > 1 else None}
            notes = {leader: _named_note(trick["named"], t), other(leader): ""}
            out.append('<div class="jvh-trick">' + "".join(
                _slot(r, by[r], ctx, note=notes[r]) for r in (other(me), me)) + "</div>")
            if phase == "swap":
                out.append(f'<div class="banner jvh-banner green">'
                           f'{escape(t("jvh.effect.green_pending", n=obs["swap_count"]))}</div>')
        elif last is not None:
            by = {last["leader"]: last["lead"], other(last["leader"]): last["follow"]}
            notes = {last["leader"]: _named_note(last["named"], t), other(last["leader"]): ""}
            out.append('<div class="jvh-trick last">' + "".join(
                _slot(r, by[r], ctx, "win" if last["winner"] == r else "", notes[r])
                for r in (other(me), me)) + "</div>")
            out.append(f'<div class="banner jvh-banner {last["effect"] or ""}" '
                       f'data-winner="{last["winner"]}">{escape(trick_result(last, ctx))}</div>')
            if last["stolen"]:
                direction = "down" if last["winner"] == me else "up"
                out.append(f'<div class="jvh-steal {direction}" aria-hidden="true">'
                           f'<span class="tb"></span><span class="tb"></span></div>')
        else:
            out.append('<div class="jvh-trick">' + "".join(
                _slot(r, None, ctx) for r in (other(me), me)) + "</div>")
        if obs["exchange"]["got"] and not obs["played"]:
            out.append(_exchange_done(obs, ctx))
        elif _just_swapped(obs):
            out.append(_swap_panel(obs["swaps"][-1], ctx))
    return f'<div class="jvh-centre">{"".join(out)}</div>'


def _just_swapped(obs: dict) -> bool:
    """A green swap ended the last trick (its result stays up during the next one)."""
    return bool(obs["phase"] == "play" and obs["played"] and obs["swaps"]
                and obs["played"][-1]["effect"] == "green")


def _received(obs: dict) -> set[str]:
    """Cards just received: by the exchange (until the first trick ends) or a green swap."""
    if obs["phase"] != "play":
        return set()
    if not obs["played"]:
        return set(obs["exchange"]["got"])
    if _just_swapped(obs):
        return set(obs["swaps"][-1]["got"])
    return set()


def _exchange_panel(obs: dict, ctx) -> str:
    t = ctx.t
    me = ctx.seat
    n = obs["give_count"]
    lines = [f'<p class="head">{escape(t("jvh.exchange_title", n=n, other=role_name(other(me), t)))}</p>']
    if obs["must_give_potion"]:
        potions = sum(colour(c) is None for c in obs["hand"])
        lines.append(f'<p class="oblige" id="jvh-oblige">'
                     f'<svg aria-hidden="true"><use href="#jvh-potion"/></svg>'
                     f'{escape(t("jvh.must_potion", n=potions))}</p>')
    if obs["chosen"]:
        lines.append(f'<p>{escape(t("jvh.chosen"))}</p><div class="row">'
                     f'{_mini_row(obs["chosen"], t)}</div>')
    return f'<div class="jvh-exchange">{"".join(lines)}</div>'


def _exchange_done(obs: dict, ctx) -> str:
    t = ctx.t
    ex = obs["exchange"]
    return (f'<div class="jvh-exchange done" id="jvh-received">'
            f'<div><span>{escape(t("jvh.gave"))}</span><div class="row">{_mini_row(ex["gave"], t)}'
            f'</div></div><div><span>{escape(t("jvh.got"))}</span><div class="row">'
            f'{_mini_row(ex["got"], t)}</div></div></div>')


def _swap_panel(swap: dict, ctx) -> str:
    t = ctx.t
    return (f'<div class="jvh-exchange done swap"><p class="head">{escape(t("jvh.swap_title"))}</p>'
            f'<div><span>{escape(t("jvh.gave"))}</span><div class="row">'
            f'{_mini_row(swap["gave"], t)}</div></div><div><span>{escape(t("jvh.got"))}</span>'
            f'<div class="row">{_mini_row(swap["got"], t)}</div></div></div>')


def trick_result(tr: dict, ctx) -> str:
    """'Hyde wins the trick.' plus what a Potion did, from a played-trick record."""
    t = ctx.t
    w, l = tr["winner"], other(tr["winner"])
    text = t("jvh.trick.won", role=role_name(w, t))
    effect = tr["effect"]
    if effect == "purple":
        key = "jvh.effect.purple_steal" if tr["stolen"] else "jvh.effect.purple_none"
        text += " " + t(key, winner=role_name(w, t), loser=role_name(l, t))
    elif effect == "red":
        text += " " + t("jvh.effect.red")
    elif effect == "green":
        text += " " + t("jvh.effect.green")
    elif colour(tr["lead"]) is None and colour(tr["follow"]) is None:
        text += " " + t("jvh.effect.cancel")
    return text


def _prompt(obs: dict, ctx) -> str:
    t = ctx.t
    me = ctx.seat
    opp = role_name(other(me), t)
    if obs["over"]:
        return t("jvh.prompt.over")
    phase, mine = obs["phase"], obs["to_act"] == me
    if phase == "give":
        if mine:
            n = obs["give_count"]
            return t("jvh.prompt.give.1" if n == 1 else "jvh.prompt.give.n", n=n, other=opp)
        if obs["chosen"]:
            return t("jvh.prompt.give_wait", other=opp)
        return t("jvh.prompt.give_first", other=opp)
    if phase == "swap":
        if mine:
            n = obs["swap_count"]
            return t("jvh.prompt.swap.1" if n == 1 else "jvh.prompt.swap.n", n=n, other=opp)
        return t("jvh.prompt.swap_wait", other=opp)
    if not mine:
        return t("jvh.prompt.wait", other=opp)
    trick = obs["trick"]
    if not trick["cards"]:
        return t("jvh.prompt.lead")
    lead = trick["cards"][0]
    if colour(lead) is None:
        c = colour_name(trick["named"], t)
        return t("jvh.prompt.follow_named", other=opp, card=card_name(lead, t), colour=c)
    return t("jvh.prompt.follow", other=opp, card=card_name(lead, t),
             colour=colour_name(colour(lead), t))


def _hand(obs: dict, ctx) -> str:
    t = ctx.t
    me = ctx.seat
    hand = sort_cards(obs["hand"])
    legal = set(obs["legal"])
    label = escape(t("jvh.your_hand"))
    phase = obs["phase"]
    mine = obs["to_act"] == me
    if mine and phase in ("give", "swap"):
        n = obs["give_count"] if phase == "give" else obs["swap_count"]
        oblige = phase == "give" and obs["must_give_potion"]
        items = []
        for c in hand:
            pot = " potion" if colour(c) is None else ""
            items.append(f'<label class="pick{pot}"><input type="checkbox" name="pick" '
                         f'value="{c}" aria-label="{escape(card_name(c, t))}">'
                         f'{card_html(c, t, "pickable", act=False)}</label>')
        verb = "give" if phase == "give" else "swap"
        confirm = t(f"jvh.confirm.{verb}")
        hint = ' aria-describedby="jvh-oblige"' if oblige else ""
        return (f'<form class="hand mine jvh-hand jvh-pick" id="jvh-pick" data-cmd="" '
                f'data-verb="{verb}" '
                f'data-need="{n}" data-count="0" data-oblige="{int(oblige)}" '
                f'onsubmit="return false" onchange="{_PICK_JS}" aria-label="{label}"{hint}>'
                f'<div class="cards">{"".join(items)}</div>'
                f'<div class="jvh-confirmbar"><span class="tally">{escape(t("jvh.picked"))} '
                f'<b class="jvh-count">0</b>/{n}</span>'
                f'<button type="button" class="primary jvh-confirm" id="jvh-confirm" '
                f'data-act="{verb}:">{escape(confirm)}</button></div></form>')
    lead = mine and phase == "play" and not obs["trick"]["cards"]
    received = _received(obs)
    items, namers = [], []
    for c in hand:
        cls = "playable" if (c in legal or (lead and colour(c) is None)) else ""
        badge = ""
        if c in received:
            cls += " got"
            badge = f'<span class="badge">{escape(t("jvh.new"))}</span>'
        if obs["chosen"] and c in obs["chosen"]:
            cls += " chosen"
        if lead and colour(c) is None:
            pid = "jvh-lead-" + c[0]
            items.append(f'<input type="radio" name="lead" id="{pid}" class="jvh-radio" '
                         f'value="{c}"><label for="{pid}" class="pick potion">'
                         f'{card_html(c, t, cls, act=False, extra=badge)}</label>')
            buttons = "".join(
                f'<button type="button" class="jvh-name c-{k}" data-act="{c}:{k}" '
                f'data-colour="{k}">{token_html(k, t, "small")}</button>' for k in COLOURS)
            namers.append(f'<div class="jvh-namer for-{c[0]}" role="group" '
                          f'aria-label="{escape(t("jvh.name_colour", card=card_name(c, t)))}">'
                          f'<span>{escape(t("jvh.name_colour", card=card_name(c, t)))}</span>'
                          f'{buttons}</div>')
        else:
            items.append(card_html(c, t, cls, extra=badge))
    return (f'<div class="hand mine jvh-hand" data-cmd="" aria-label="{label}">'
            f'<div class="cards">{"".join(items)}</div>{"".join(namers)}</div>')


def _aim(obs: dict, ctx) -> str:
    return "" if obs["over"] else ctx.t(f"jvh.aim.{ctx.seat}")


def render(obs: dict, ctx) -> str:
    me = ctx.seat
    last = _last_played(obs)
    steal = {}
    if last is not None and last["stolen"]:
        steal = {last["winner"]: "in", other(last["winner"]): "out"}
    to_act = obs["to_act"] or ("over" if obs["over"] else "")
    return (f'{defs_svg()}'
            f'<div class="table jvh" data-cmd="" data-me="{me}" data-phase="{obs["phase"] or "over"}" '
            f'data-to-act="{to_act}" data-round="{obs["round"]}" data-leg="{obs["leg"]}" '
            f'data-marker="{obs["marker"]}" data-tricks-j="{obs["tricks"]["J"]}" '
            f'data-tricks-h="{obs["tricks"]["H"]}" data-played="{len(obs["played"])}" '
            f'data-trick="{len(obs["trick"]["cards"])}">'
            f'{_seat(obs, other(me), ctx, steal.get(other(me)))}'
            f'<div class="jvh-board">{_track(obs, ctx)}{_ranking(obs, ctx)}{_status(obs, ctx)}'
            f'</div>'
            f'{_trick_area(obs, ctx)}'
            f'{_seat(obs, me, ctx, steal.get(me))}</div>'
            f'<div class="prompt" id="prompt">{escape(_prompt(obs, ctx))}</div>'
            f'<div class="jvh-aim">{escape(_aim(obs, ctx))}</div>'
            f'{_hand(obs, ctx)}')


# -- pacing ----------------------------------------------------------------------

def who_decides(obs: dict, ctx) -> str:
    role = obs["to_act"]
    if role is None:
        return "—"
    return ctx.t("jvh.you" if role == ctx.seat else "jvh.bot", role=role_name(role, ctx.t))


def thinking_seat(obs: dict) -> str | None:
    return obs["to_act"]


def pause_factor(obs: dict) -> float:
    """Longer right after a trick (and longer still after a Potion's effect)."""
    last = _last_played(obs)
    if last is None:
        return 1.0
    return 3.0 if last["effect"] else 2.2


# -- log -------------------------------------------------------------------------

def _round_event(obs: dict) -> dict:
    return {"k": "round", "leg": obs["leg"], "round": obs["round"], "leader": obs["leader"],
            "match": obs["options"].get("variant") == "return-match"}


def first_events(state, ctx) -> list[dict]:
    return [_round_event(state.observation("J"))]


def events(before, action: str, after, ctx) -> list[dict]:
    """Language-neutral log events for one action, as the person at the screen may see."""
    me = ctx.seat
    who = before.to_act
    b = before.observation(me)
    a = after.observation(me)
    out: list[dict] = []
    if b["phase"] in ("give", "swap"):
        verb = b["phase"]
        out.append({"k": "chose", "who": who, "what": verb})
        if verb == "give" and a["exchange"]["got"] and not b["exchange"]["got"]:
            out.append({"k": "exchange", "gave": a["exchange"]["gave"],
                        "got": a["exchange"]["got"]})
        if verb == "swap" and len(a["swaps"]) > len(b["swaps"]):
            out.append({"k": "swap", **a["swaps"][-1]})
    else:
        card, _, named = action.partition(":")
        out.append({"k": "play", "who": who, "card": card, "named": named or None})
        rb, ra = b["ranking"], a["ranking"]
        if len(a["history"]) == len(b["history"]) and len(ra) > len(rb) and ra[:len(rb)] == rb:
            for i in range(len(rb), len(ra)):
                out.append({"k": "rank", "colour": ra[i], "rank": i})
    finished_round = len(a["history"]) > len(b["history"])
    if finished_round:
        tr = a["history"][-1]["tricks_played"][-1]
    elif len(a["played"]) > len(b["played"]):
        tr = a["played"][-1]
    else:
        tr = None
    if tr is not None:
        tricks = a["history"][-1]["tricks"] if finished_round else a["tricks"]
        out.append({"k": "trick", "winner": tr["winner"], "effect": tr["effect"],
                    "stolen": tr["stolen"], "lead": tr["lead"], "follow": tr["follow"],
                    "leader": tr["leader"], "named": tr["named"], "tricks": dict(tricks)})
    if finished_round:
        h = a["history"][-1]
        out.append({"k": "round_end", "leg": h["leg"], "round": h["round"],
                    "tricks": h["tricks"], "moved": h["moved"], "marker": h["marker"]})
        if a["over"]:
            out.append({"k": "over", "winner": a["winner"], "scores": a["scores"],
                        "match": a["options"].get("variant") == "return-match",
                        "you": b["you"], "marker": a["marker"]})
        else:
            if a["leg"] != b["leg"]:
                out.append({"k": "leg", "leg": a["leg"]})
            out.append(_round_event(after.observation("J")))
    return out


def merge_event(log: list[dict], new: list[dict]) -> None:
    log.extend(new)


def event_text(ev: dict, ctx) -> str:
    return _cap(_event_text(ev, ctx))


def _event_text(ev: dict, ctx) -> str:
    t = ctx.t
    k = ev.get("k")
    if k == "round":
        key = "jvh.log.round_match" if ev.get("match") else "jvh.log.round"
        return t(key, leg=ev["leg"], n=ev["round"], role=role_name(ev["leader"], t))
    if k == "chose":
        return t(f"jvh.log.chose_{ev['what']}", role=role_name(ev["who"], t))
    if k in ("exchange", "swap"):
        return t(f"jvh.log.{k}", gave=_cards_text(ev["gave"], t), got=_cards_text(ev["got"], t))
    if k == "play":
        if ev.get("named"):
            return t("jvh.log.lead_potion", role=role_name(ev["who"], t),
                     card=card_name(ev["card"], t), colour=colour_name(ev["named"], t))
        return t("jvh.log.play", role=role_name(ev["who"], t), card=card_name(ev["card"], t))
    if k == "rank":
        return t(f"jvh.log.rank.{ev['rank']}", colour=colour_name(ev["colour"], t))
    if k == "trick":
        tricks = ev["tricks"]
        return t("jvh.log.trick", text=trick_result(ev, ctx), j=tricks["J"], h=tricks["H"])
    if k == "round_end":
        tr = ev["tricks"]
        return t("jvh.log.round_end", j=tr["J"], h=tr["H"], d=ev["moved"], marker=ev["marker"])
    if k == "leg":
        return t("jvh.log.leg")
    if k == "over":
        return t("jvh.log.over", text=_outcome(ev, ctx))
    return str(ev)


# -- errors ------------------------------------------------------------------------

_ERRORS = (
    (re.compile(r"dealt (\d) Potions and must give at least one"), "potion"),
    (re.compile(r"must (give|swap) exactly (\d) cards?, not (\d+)"), "count"),
    (re.compile(r"'(give|swap):' is not an action|'(give|swap):': '' is not a card"), "none"),
    (re.compile(r"it is the exchange"), "exchange_first"),
    (re.compile(r"it is a green Potion swap"), "swap_first"),
    (re.compile(r"cannot (give|swap) now: it is a trick"), "trick_now"),
    (re.compile(r"named (purple|red|green), so he must play"), "named"),
    (re.compile(r"must follow (purple|red|green)"), "follow"),
    (re.compile(r"leading a Potion names a colour"), "name_colour"),
    (re.compile(r"only the leader names a colour"), "no_name"),
    (re.compile(r"only a Potion lead names a colour"), "only_potion"),
    (re.compile(r"names a card twice"), "twice"),
    (re.compile(r"(\S+) is not in .*'s hand"), "not_in_hand"),
)
_COLOUR_WORD = {"purple": "P", "red": "R", "green": "G"}


def explain(message: str, obs: dict, ctx) -> str:
    t = ctx.t
    for rx, key in _ERRORS:
        m = rx.search(message)
        if not m:
            continue
        g = m.groups()
        if key == "potion":
            return t("jvh.err.potion", n=int(g[0]))
        if key == "count":
            verb, n, got = g[0], int(g[1]), int(g[2])
            return t(f"jvh.err.count_{verb}.{'1' if n == 1 else 'n'}", n=n, m=got)
        if key == "none":
            verb = g[0] or g[1]
            n = obs["give_count"] if verb == "give" else obs["swap_count"]
            return t(f"jvh.err.count_{verb}.{'1' if n == 1 else 'n'}", n=n, m=0)
        if key in ("named", "follow"):
            return t(f"jvh.err.{key}", colour=colour_name(_COLOUR_WORD[g[0]], t))
        if key == "not_in_hand":
            card = g[0].strip("'")
            return t("jvh.err.not_in_hand", card=card_name(card, t) if card in _ORDER else card)
        return t(f"jvh.err.{key}")
    return message.split("; legal:")[0]


# -- scores and summaries --------------------------------------------------------

def _outcome(over: dict, ctx) -> str:
    """Who won, in words, from an observation or an 'over' log event."""
    t = ctx.t
    winner, scores, you = over["winner"], over["scores"], over.get("you", "J")
    if not over.get("match"):
        return t(f"jvh.win.{winner}", marker=over.get("marker", scores.get("H", 0)))
    text = t("jvh.match_scores", you=scores.get(you, 0), bot=scores.get(other(you), 0))
    if winner is None:
        return text + " " + t("jvh.draw")
    return text + " " + t("jvh.you_win" if winner == you else "jvh.bot_wins")


def score_sheet(obs: dict, ctx) -> str:
    t = ctx.t
    match = obs["options"].get("variant") == "return-match"
    rows = []
    for h in obs["history"]:
        game = f'<td>{h["leg"]}</td>' if match else ""
        rows.append(f'<tr>{game}<td>{h["round"]}</td><td>{h["tricks"]["J"]}</td>'
                    f'<td>{h["tricks"]["H"]}</td><td>+{h["moved"]}</td>'
                    f'<td class="total">{h["marker"]}</td></tr>')
    if not rows:
        rows.append(f'<tr><td colspan="6">{escape(t("jvh.score.none"))}</td></tr>')
    head = (("<th>" + escape(t("jvh.score.game")) + "</th>" if match else "")
            + f'<th>{escape(t("jvh.score.round"))}</th>'
            f'<th>{escape(role_name("J", t))}</th><th>{escape(role_name("H", t))}</th>'
            f'<th>{escape(t("jvh.score.moved"))}</th><th>{escape(t("jvh.score.marker"))}</th>')
    foot = ""
    if match:
        you = obs["you"]
        s = obs["scores"]
        foot = (f'<p class="jvh-match">{escape(t("jvh.match_now", you=s.get(you, 0), bot=s.get(other(you), 0)))}'
                f'</p>')
    return (f'<table class="scores jvh-scores"><caption>{escape(t("jvh.score.caption"))}'
            f'</caption><thead><tr>{head}</tr></thead><tbody>{"".join(rows)}</tbody></table>'
            f'{foot}')


def last_trick(obs: dict, ctx) -> str:
    t = ctx.t
    tr = obs["played"][-1] if obs["played"] else None
    if tr is None and obs["history"]:
        tr = obs["history"][-1]["tricks_played"][-1]
    if tr is None:
        return f'<p>{escape(t("jvh.no_trick_yet"))}</p>'
    rows = []
    for role, card in ((tr["leader"], tr["lead"]), (other(tr["leader"]), tr["follow"])):
        named = ""
        if role == tr["leader"] and tr["named"]:
            named = " — " + t("jvh.named") + " " + colour_name(tr["named"], t)
        cls = "mini win" if tr["winner"] == role else "mini"
        rows.append(f'<li>{card_html(card, t, cls, act=False)}'
                    f'<span>{escape(role_name(role, t) + named)}</span></li>')
    return (f'<ol class="lasttrick jvh-last">{"".join(rows)}</ol>'
            f'<p class="result">{escape(trick_result(tr, ctx))}</p>')


def hand_summary(obs: dict, ctx) -> str:
    """End of a round: the tricks, how far the marker moved, what comes next."""
    t = ctx.t
    h = obs["history"][-1]
    lines = [t("jvh.round_result", j=h["tricks"]["J"], h=h["tricks"]["H"], d=h["moved"],
               marker=h["marker"])]
    if h["leg"] != obs["leg"]:  # a return match goes on with the roles swapped
        lines.append(t("jvh.leg_over", score=h["marker"]))
        lines.append(t("jvh.next_roles", role=role_name(ctx.seat, t)))
    else:
        leader = obs["leader"]
        lines.append(t("jvh.next_round", n=obs["round"], role=role_name(leader, t)))
    title = t("jvh.round_over", n=h["round"])
    body = "".join(f"<p>{escape(x)}</p>" for x in lines)
    track = _track({**obs, "marker": h["marker"], "phase": None}, ctx)
    return (f'<h2>{escape(title)}</h2>{body}<div class="jvh-mini-track">{track}</div>'
            f'<h3>{escape(t("menu.last"))}</h3>{last_trick(obs, ctx)}{score_sheet(obs, ctx)}')


def final_summary(obs: dict, ctx) -> str:
    t = ctx.t
    match = obs["options"].get("variant") == "return-match"
    you = obs["you"]
    win = obs["winner"]
    verdict = (t("jvh.draw") if win is None else
               t("jvh.you_win") if win == you else t("jvh.bot_wins"))
    lines = []
    h = obs["history"][-1] if obs["history"] else None
    if h:
        lines.append(t("jvh.round_result", j=h["tricks"]["J"], h=h["tricks"]["H"],
                       d=h["moved"], marker=h["marker"]))
    if not match:
        lines.append(_outcome({**obs, "match": False}, ctx))
    else:
        rounds = {leg["hyde"]: leg["rounds"] for leg in obs["legs"]}
        if all(leg["score"] >= TRACK_END for leg in obs["legs"]) and len(rounds) == 2:
            lines.append(t("jvh.tiebreak", you=rounds.get(you, 0), bot=rounds.get(other(you), 0)))
    body = "".join(f"<p>{escape(x)}</p>" for x in lines)
    return (f'<h2>{escape(t("jvh.game_over"))}</h2>'
            f'<p class="winner">{escape(verdict)}</p>{body}'
            f'<div class="jvh-mini-track">{_track({**obs, "phase": None}, ctx)}</div>'
            f'{score_sheet(obs, ctx)}')
