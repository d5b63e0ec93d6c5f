"""The Jekyll vs Hyde table (2-player duel): observation -> HTML, actions -> words.

Pure Python (no browser import): the shell puts the HTML in the page and
sends `data-act` values of clicked elements to `state.apply`.

Choices of several clicks are held by the shell (`parts`, `confirm`): the
exchange and a green swap pick cards one by one (`give:R5,2+` is the parts
`R5` and `2+`) and wait for the confirm button; leading a Potion picks the
card, then one of three buttons naming a colour (`4+:R` is `4+` and `:R`).
Both choose at once: while the engine asks Jekyll first, Hyde picks from
the observation's `ahead` (`ctx.ahead`) and sees his choice held face down
(`ctx.held`) until the shell hands it over.

Every colour has its own symbol and pattern as well as its hue: purple
(Pride) a crown on stripes, red (Wrath) a flame on dots, green (Greed) a gem
on a checkerboard; Potions a round flask on bubbles.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, Iterable

from game.jekyll_vs_hyde.cards import COLOURS, ORDER, colour_of, sort_cards
from game.jekyll_vs_hyde.rules import OPTIONS, ROLES, TRACK_END, TRICKS
from game.jekyll_vs_hyde.rules import DRAWS as DRAWS
from game.web.draw.html import EMPTY, Html, html, join
from game.web.draw.tables.common import (
    PERSON,
    OptionField,
    Event,
    Move,
    Pick,
    Plan,
    catalog_mode,
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
    from game.web.draw.i18n import Translator
    from game.web.draw.tables import TableContext

GAME_ID = "jekyll-vs-hyde"
WATCH_SEAT = "J"  # a watcher sees the table from Jekyll's side (its cards as backs)
_SYMBOL = {"P": "jvh-crown", "R": "jvh-flame", "G": "jvh-gem", None: "jvh-potion"}
_ROLE_ICON = {"J": "i-flask", "H": "i-hat"}  # the shell's symbols (index.html)


def other(role: str) -> str:
    return "H" if role == "J" else "J"


# -- words ---------------------------------------------------------------------

def role_name(role: str, t: Translator) -> str:
    return t(f"jvh.role.{role}")


def colour_name(c: str, t: Translator) -> str:
    return t(f"jvh.colour.{c}")


def card_name(card: str, t: Translator) -> str:
    """'red 5 (Wrath)', 'Potion 3+' in the current language."""
    c = colour_of(card)
    if c is None:
        return t("jvh.potion", v=card)
    return t("jvh.card", colour=colour_name(c, t), n=card[1], sin=t(f"jvh.sin.{c}"))


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _cards_text(cards: Iterable[str], t: Translator) -> str:
    return ", ".join(card_name(c, t) for c in cards) or "—"


# -- decisions of several clicks (held by the shell) ------------------------------

def parts(action: str) -> tuple[str, ...]:
    """The clickable parts of an action: its cards, and the colour a Potion lead names.

    >>> parts("give:4+,P1"), parts("swap:R5"), parts("3+:P"), parts("G2")
    (('4+', 'P1'), ('R5',), ('3+', ':P'), ('G2',))
    """
    verb, _, rest = action.partition(":")
    if verb in ("give", "swap"):
        return tuple(rest.split(","))
    if rest:
        return (verb, ":" + rest)
    return (action,)


def confirm(action: str) -> bool:
    """Cards given or swapped wait for the confirm button: they go face down, so
    the person sees the whole choice before it leaves the hand.

    >>> confirm("give:4+,P1"), confirm("3+:P")
    (True, False)
    """
    return action.startswith(("give:", "swap:"))


def attempt(picked: tuple[str, ...], obs: dict[str, Any]) -> str | None:
    """The exchange or swap the picked cards spell once there are enough of them,
    legal or not (the engine then says why not, e.g. a Potion must go).

    >>> attempt(("P1", "R2"), {"phase": "give", "give_count": 2})
    'give:P1,R2'
    >>> attempt(("P1",), {"phase": "give", "give_count": 2}) is None
    True
    """
    phase = obs.get("phase")
    if phase not in ("give", "swap") or len(picked) != obs.get(f"{phase}_count"):
        return None
    return f"{phase}:{','.join(picked)}"


# -- setup ---------------------------------------------------------------------

VARIANT = OptionField(option_spec(OPTIONS, "variant"))
OPTION_FIELDS: tuple[OptionField, ...] = (VARIANT,)


def _values(values: dict[str, str], bots: list[str]) -> tuple[str, str]:
    """(role, the other seat: a bot or PERSON) from the start screen, each one
    valid ("random" stays)."""
    role = values.get("jvh_role", ROLES[0])
    role = role if role in (*ROLES, "random") else ROLES[0]
    return role, seat_choice(values, "jvh_bot", bots)


def setup_form(t: Any, bots: list[str], values: dict[str, str]) -> Html:
    role, bot = _values(values, bots)
    roles = [(r, t(f"jvh.setup.role.{r}")) for r in (*ROLES, "random")]
    mine = EMPTY
    if bot == PERSON:  # two people: each one's name for the hand-over screen
        mine = name_field(t, "jvh_name", person_name(values, "jvh_name", t("setup.player", n=1)),
                          t("setup.your_name"))
    return join((select_field("jvh_role", roles, role, t("setup.you")), mine,
                 VARIANT.select(t, values),
                 seat_fields(t, bots, values, "jvh_bot", t("jvh.setup.bot"), "jvh_name_other",
                             t("setup.player", n=2),
                             level_labels(t, "jekyll-vs-hyde", {VARIANT.name: VARIANT.read(values)}))))


def parse_setup(values: dict[str, str], bots: list[str]) -> dict[str, Any]:
    role, bot = _values(values, bots)
    if role not in ROLES:
        role = random.choice(ROLES)
    options = {VARIANT.name: VARIANT.read(values)}
    if bot == PERSON:  # an empty name: the shell says "Player 1" in the page's language
        people = {role: person_name(values, "jvh_name"),
                  other(role): person_name(values, "jvh_name_other")}
        return {"options": options, "me": role, "bots": {}, "people": people}
    return {"options": options, "me": role, "bots": {other(role): bot}}


# -- cards ---------------------------------------------------------------------

# Symbols and patterns of the card faces, once per screen.
_DEFS = html(
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


def card_svg(card: str) -> Html:
    """A card face drawn for this site: pattern frame, number, symbol."""
    c = colour_of(card)
    big = card if c is None else card[1]
    size = 22 if len(big) == 1 else 18
    return html('<svg viewBox="0 0 60 88" aria-hidden="true" focusable="false">'
                '<rect x="1" y="1" width="58" height="86" rx="6" class="fr" '
                'fill="url(#jvh-pat-{key})"/>'
                '<rect x="6" y="6" width="48" height="76" rx="4" class="pn"/>'
                '<text x="9" y="{y}" class="ix" font-size="{size}">{big}</text>'
                '<use href="#{sym}" x="37" y="9" width="14" height="14" class="sm"/>'
                '<use href="#{sym}" x="14" y="38" width="32" height="32" class="sy"/>'
                '<text x="51" y="78" class="ix2" text-anchor="end" font-size="11">{big}</text>'
                '</svg>', key=c or "X", y=8 + size, size=size, big=big, sym=_SYMBOL[c])


def card_html(card: str, t: Translator, cls: str = "", click: Html | None = None,
              extra: Html = EMPTY) -> Html:
    """A card: a button with the `click` attributes (its `data-act` or `data-part`),
    or a picture of it without them.

    The button is named by its content: the card's name (which holds the
    number drawn on it, so voice control users can say what they see) and
    `extra` (a badge)."""
    name = card_name(card, t)
    key = colour_of(card) or "X"
    if click is not None:
        return html('<button type="button" class="card jvh-card c-{key} {cls}" data-card="{card}" '
                    '{click} title="{name}">{svg}<span class="sr">{name}</span>{extra}</button>',
                    key=key, cls=cls, card=card, click=click, name=name, svg=card_svg(card),
                    extra=extra)
    return html('<div role="img" class="card jvh-card c-{key} {cls}" data-card="{card}" '
                'aria-label="{name}" title="{name}">{svg}{extra}</div>',
                key=key, cls=cls, card=card, name=name, svg=card_svg(card), extra=extra)


def _act(action: str) -> Html:
    """Click attributes of a one-click action."""
    return html('data-act="{}"', action)


def _part(part: str, ctx: TableContext) -> Html:
    """Click attributes of one part of a decision, pressed while it is picked."""
    return html('data-part="{}" aria-pressed="{}"', part, "true" if part in ctx.picked else "false")


def token_html(c: str, t: Translator, cls: str = "") -> Html:
    """A colour token: hue, pattern and symbol, and its name for screen readers."""
    return html('<span class="jvh-token c-{c} {cls}" title="{name}"><svg viewBox="0 0 24 24" '
                'aria-hidden="true"><circle cx="12" cy="12" r="11" fill="url(#jvh-pat-{c})"/>'
                '<circle cx="12" cy="12" r="7.6" class="bg"/><use href="#{sym}" x="6" y="6" '
                'width="12" height="12" class="sy"/></svg><span class="nm">{name}</span></span>',
                c=c, cls=cls, name=colour_name(c, t), sym=_SYMBOL[c])


def _mini_row(cards: Iterable[str], t: Translator) -> Html:
    return join(card_html(c, t, "mini") for c in cards)


# -- the table -----------------------------------------------------------------

def _difference(obs: dict[str, Any]) -> int:
    tricks: dict[str, int] = obs["tricks"]
    return abs(tricks["J"] - tricks["H"])


def _track(obs: dict[str, Any], ctx: TableContext) -> Html:
    t: Translator = ctx.t
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
        pawn = EMPTY
        if i == marker:
            cls.append("here")
            pawn = html('<span class="pawn" aria-hidden="true"></span>')
        cells.append(html('<li class="{cls}" data-cell="{i}"><span class="n">{i}</span>{pawn}</li>',
                          cls=" ".join(cls), i=i, pawn=pawn))
    label = t("jvh.track_label", marker=marker)
    if live:
        label += " " + t("jvh.track_preview" if d else "jvh.track_preview_still", d=d, to=to)
    label += " " + t("jvh.track_hint")
    return html('<div class="jvh-track" role="img" aria-label="{label}" '
                'data-marker="{marker}" data-preview="{preview}">'
                '<span class="end J"><svg aria-hidden="true"><use href="#i-flask"/></svg>'
                '{jekyll}</span>'
                '<ol aria-hidden="true" title="{hint}">{cells}</ol>'
                '<span class="end H"><svg aria-hidden="true"><use href="#i-hat"/></svg>'
                '{hyde}</span></div>',
                label=label, marker=marker, preview=to if live else marker,
                jekyll=role_name("J", t), hint=t("jvh.track_hint"), cells=join(cells),
                hyde=role_name("H", t))


def ranking_text(ranking: list[str], t: Translator) -> str:
    if not ranking:
        return t("jvh.ranking_none")
    return ", ".join(t(f"jvh.rank_of.{i if len(ranking) > 1 else 0}", colour=colour_name(c, t))
                     for i, c in enumerate(ranking))


def _ranking(obs: dict[str, Any], ctx: TableContext) -> Html:
    t: Translator = ctx.t
    ranking = obs["ranking"]
    slots = []
    for i in range(3):
        c = ranking[i] if i < len(ranking) else None
        if c:
            slots.append(html('<li class="rslot set" data-rank="{i}" data-colour="{c}">'
                              '<span class="lbl">{lbl}</span>{token}</li>',
                              i=i, c=c, lbl=t(f"jvh.rank.{i}"), token=token_html(c, t)))
        else:
            slots.append(html('<li class="rslot" data-rank="{i}"><span class="lbl">{lbl}</span>'
                              '<span class="jvh-token empty">?</span></li>',
                              i=i, lbl=t(f"jvh.rank.{i}")))
    label = t("jvh.ranking_label", text=ranking_text(ranking, t))
    played = obs["played"]
    reset = EMPTY
    if not ranking and played and played[-1]["effect"] == "red":
        reset = html('<span class="reset">↺ {}</span>', t("jvh.ranking_reset"))
        label += " " + t("jvh.ranking_reset")
    return html('<div class="jvh-ranking{was}" role="img" aria-label="{label}">'
                '<span class="title">{title}</span><ol aria-hidden="true">{slots}</ol>{reset}</div>',
                was=" was-reset" if reset else "", label=label, title=t("jvh.ranking"),
                slots=join(slots), reset=reset)


def _status(obs: dict[str, Any], ctx: TableContext) -> Html:
    t: Translator = ctx.t
    facts = []
    if obs["options"].get("variant") == "return-match":
        facts.append(t("jvh.game_no", n=obs["leg"]))
    facts.append(t("jvh.round_no", n=obs["round"]))
    if obs["phase"] == "give":
        facts.append(t("jvh.phase.give"))
    elif not obs["over"]:
        facts.append(t("jvh.trick_no", n=min(len(obs["played"]) + 1, TRICKS)))
    d = _difference(obs)
    diff = EMPTY
    if obs["phase"] in ("play", "swap"):
        text = t("jvh.diff", d=d, to=min(TRACK_END, obs["marker"] + d))
        diff = html('<span class="diff" data-diff="{}">{}</span>', d, text)
    return html('<div class="jvh-status"><span>{}</span>{}</div>', " · ".join(facts), diff)


def _pile(obs: dict[str, Any], role: str, ctx: TableContext, steal: str | None) -> Html:
    t: Translator = ctx.t
    n = obs["tricks"][role]
    stack = join(html('<span class="tb"></span>') for _ in range(min(n, 10)))
    cls = "jvh-pile"
    extra = EMPTY
    if steal == "in":
        cls += " gained"
        extra = html('<span class="delta plus">+1 {}</span>', t("jvh.stolen"))
    elif steal == "out":
        cls += " lost"
        extra = html('<span class="delta minus">−1</span>')
    label = t("jvh.pile", n=n)
    return html('<div class="{cls}" data-role="{role}" data-count="{n}" title="{label}">'
                '<span class="stack" aria-hidden="true">{stack}</span>'
                '<b class="count">{n}</b><span class="lbl">{tricks}</span>'
                '<span class="sr">{label}</span>{extra}</div>',
                cls=cls, role=role, n=n, label=label, stack=stack, tricks=t("jvh.tricks", n=n),
                extra=extra)


def _seat(obs: dict[str, Any], role: str, ctx: TableContext, steal: str | None) -> Html:
    t: Translator = ctx.t
    me = ctx.seat
    mine = role == me
    cls = ["jvh-seat", "me" if mine else "opp", f"role-{role}"]
    if obs["to_act"] == role:
        cls.append("on-turn")
    if ctx.thinking is not None and ctx.thinking == role:
        cls.append("thinking")
    who = _label(role, ctx)
    n = obs["hand_sizes"][role]
    hand = EMPTY
    if not mine and ctx.open_hands is not None:  # a review: the hand face up
        hand = html('<span class="jvh-open">{}</span>', join(
            card_html(c, t, "mini") for c in sort_cards(ctx.open_hands.get(role, []))))
    elif not mine or "hand" not in obs:  # (a watcher's public view has no hand: backs)
        hand = html('<span class="jvh-backs" title="{size}">'
                    '<span class="back {role}"><svg viewBox="0 0 24 24" aria-hidden="true">'
                    '<use href="#{icon}"/></svg></span><b>×{n}</b>'
                    '<span class="sr">{size}</span></span>',
                    size=t("jvh.hand_size", n=n), role=role, icon=_ROLE_ICON[role], n=n)
    return html('<div class="{cls}" data-role="{role}">'
                '<div class="plate"><svg class="team" viewBox="0 0 24 24" aria-hidden="true">'
                '<use href="#{icon}"/></svg><span class="who">{who}</span></div>'
                '{hand}{pile}</div>',
                cls=" ".join(cls), role=role, icon=_ROLE_ICON[role], who=who, hand=hand,
                pile=_pile(obs, role, ctx, steal))


def _last_played(obs: dict[str, Any]) -> dict[str, Any] | None:
    """The trick just finished, while the next one has not started."""
    if obs["trick"]["cards"] or obs["phase"] not in ("play", None) or not obs["played"]:
        return None
    last: dict[str, Any] = obs["played"][-1]
    return last


def _slot(role: str, card: str | None, ctx: TableContext, cls: str = "",
          note: Html = EMPTY, mark: Html = EMPTY) -> Html:
    t: Translator = ctx.t
    body = (card_html(card, t, "played " + cls) if card
            else html('<span class="card jvh-card empty played"></span>'))
    return html('<div class="jvh-slot {pos}" data-slot="{role}">'
                '<span class="who">{who}{mark}</span>{body}{note}</div>',
                pos="me" if role == ctx.seat else "opp", role=role, who=role_name(role, t),
                body=body, note=note, mark=mark)


def _winning_mark(obs: dict[str, Any], role: str, t: Translator) -> tuple[str, Html]:
    """The card winning the trick under way, as the engine's `winning` says
    (the lead alone is winning "so far"): its class and its label, beside the
    player's name (a line the slot always has: the trick never grows)."""
    winning = obs.get("winning")
    if winning is None or winning["player"] != role:
        return "", EMPTY
    word = t("jvh.winning_so_far" if winning["so_far"] else "jvh.winning")
    return "winning", html(' <span class="mark">{}</span>', word)


def _named_note(c: str | None, t: Translator) -> Html:
    if not c:
        return EMPTY
    return html('<span class="named" data-named="{c}">{named} {token}</span>',
                c=c, named=t("jvh.named"), token=token_html(c, t, "small"))


def _trick_area(obs: dict[str, Any], ctx: TableContext) -> Html:
    t: Translator = ctx.t
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
            notes = {leader: _named_note(trick["named"], t), other(leader): EMPTY}
            marks = {r: _winning_mark(obs, r, t) for r in (me, other(me))}
            out.append(html('<div class="jvh-trick">{}</div>', join(
                _slot(r, by[r], ctx, marks[r][0], notes[r], marks[r][1])
                for r in (other(me), me))))
            if phase == "swap":
                out.append(html('<div class="banner jvh-banner green">{}</div>',
                                t("jvh.effect.green_pending", n=obs["swap_count"])))
        elif last is not None:
            by = {last["leader"]: last["lead"], other(last["leader"]): last["follow"]}
            notes = {last["leader"]: _named_note(last["named"], t), other(last["leader"]): EMPTY}
            out.append(html('<div class="jvh-trick last">{}</div>', join(
                _slot(r, by[r], ctx, "win" if last["winner"] == r else "", notes[r])
                for r in (other(me), me))))
            out.append(html('<div class="banner jvh-banner {effect}" data-winner="{winner}">'
                            '{text}</div>', effect=last["effect"] or "", winner=last["winner"],
                            text=trick_result(last, ctx)))
            if last["stolen"]:
                out.append(html('<div class="jvh-steal {}" aria-hidden="true">'
                                '<span class="tb"></span><span class="tb"></span></div>',
                                "down" if last["winner"] == me else "up"))
        else:
            out.append(html('<div class="jvh-trick">{}</div>',
                            join(_slot(r, None, ctx) for r in (other(me), me))))
        if obs.get("exchange", {}).get("got") and not obs["played"]:
            out.append(_exchange_done(obs, ctx))
        elif _just_swapped(obs):
            out.append(_swap_panel(obs["swaps"][-1], ctx))
    return html('<div class="jvh-centre">{}</div>', join(out))


def _just_swapped(obs: dict[str, Any]) -> bool:
    """A green swap ended the last trick (its result stays up during the next one)."""
    return bool(obs["phase"] == "play" and obs["played"] and obs.get("swaps")
                and obs["played"][-1]["effect"] == "green")


def _received(obs: dict[str, Any]) -> set[str]:
    """Cards just received: by the exchange (until the first trick ends) or a green swap."""
    if obs["phase"] != "play":
        return set()
    if not obs["played"]:
        return set(obs.get("exchange", {}).get("got", []))
    if _just_swapped(obs):
        return set(obs["swaps"][-1]["got"])
    return set()


def _exchange_panel(obs: dict[str, Any], ctx: TableContext) -> Html:
    t: Translator = ctx.t
    n = obs["give_count"]
    title = t("jvh.exchange_title.watch", n=n) if "hand" not in obs else t(
        "jvh.exchange_title", n=n, other=role_name(other(ctx.seat), t))  # (a watcher: no "yours")
    lines = [html('<p class="head">{}</p>', title)]
    if obs.get("must_give_potion"):
        potions = sum(colour_of(c) is None for c in obs["hand"])
        lines.append(html('<p class="oblige" id="jvh-oblige">'
                          '<svg aria-hidden="true"><use href="#jvh-potion"/></svg>{}</p>',
                          t("jvh.must_potion", n=potions)))
    chosen = _chosen(obs, ctx)
    if chosen:
        lines.append(html('<p>{}</p><div class="row">{}</div>',
                          t("jvh.chosen"), _mini_row(chosen, t)))
    return html('<div class="jvh-exchange">{}</div>', join(lines))


def _chosen(obs: dict[str, Any], ctx: TableContext) -> list[str]:
    """The cards the person chose for the exchange or swap under way: in the
    engine's hands (`chosen`), or held by the shell until the engine asks."""
    if obs.get("chosen"):
        return list(obs["chosen"])
    return list(parts(ctx.held)) if ctx.held else []


def _gave_got(gave: Iterable[str], got: Iterable[str], t: Translator) -> Html:
    """The cards given and received, side by side."""
    return html('<div><span>{gave_lbl}</span><div class="row">{gave}</div></div>'
                '<div><span>{got_lbl}</span><div class="row">{got}</div></div>',
                gave_lbl=t("jvh.gave"), gave=_mini_row(gave, t),
                got_lbl=t("jvh.got"), got=_mini_row(got, t))


def _exchange_done(obs: dict[str, Any], ctx: TableContext) -> Html:
    ex = obs["exchange"]
    return html('<div class="jvh-exchange done" id="jvh-received">{}</div>',
                _gave_got(ex["gave"], ex["got"], ctx.t))


def _swap_panel(swap: dict[str, Any], ctx: TableContext) -> Html:
    return html('<div class="jvh-exchange done swap"><p class="head">{}</p>{}</div>',
                ctx.t("jvh.swap_title"), _gave_got(swap["gave"], swap["got"], ctx.t))


def trick_result(tr: dict[str, Any], ctx: TableContext) -> str:
    """'Hyde wins the trick.' plus what a Potion did, from a played-trick record."""
    t: Translator = ctx.t
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
    elif colour_of(tr["lead"]) is None and colour_of(tr["follow"]) is None:
        text += " " + t("jvh.effect.cancel")
    return text


def _prompt(obs: dict[str, Any], ctx: TableContext) -> str:
    t: Translator = ctx.t
    me = ctx.seat
    opp = role_name(other(me), t)
    if obs["over"]:
        return t("jvh.prompt.over")
    if ctx.paused:
        return t("coach.jekyll-vs-hyde.paused")
    if "hand" not in obs:  # a watcher's public view: who decides, never "you"
        return t("jvh.prompt.wait", other=role_name(obs["to_act"], t))
    phase, mine = obs["phase"], obs["to_act"] == me
    if phase == "give":
        if mine or ctx.ahead:
            n = obs["give_count"]
            return t("jvh.prompt.give", n=n, other=opp)
        if _chosen(obs, ctx):
            return t("jvh.prompt.give_wait", other=opp)
        return t("jvh.prompt.give_first", other=opp)
    if phase == "swap":
        if mine or ctx.ahead:
            n = obs["swap_count"]
            return t("jvh.prompt.swap", n=n, other=opp)
        if _chosen(obs, ctx):
            return t("jvh.prompt.swap_held", other=opp)
        return t("jvh.prompt.swap_wait", other=opp)
    if not mine:
        return t("jvh.prompt.wait", other=opp)
    trick = obs["trick"]
    if not trick["cards"]:
        potion = _picked_potion(obs, ctx)
        if potion:
            return t("jvh.name_colour", card=card_name(potion, t))
        return t("jvh.prompt.lead")
    lead = trick["cards"][0]
    colour = colour_of(lead)
    if colour is None:
        c = colour_name(trick["named"], t)
        return t("jvh.prompt.follow_named", other=opp, card=card_name(lead, t), colour=c)
    return t("jvh.prompt.follow", other=opp, card=card_name(lead, t),
             colour=colour_name(colour, t))


def _picked_potion(obs: dict[str, Any], ctx: TableContext) -> str | None:
    """The Potion picked to lead, waiting for a colour to be named."""
    return next((c for c in ctx.picked if c in obs["hand"] and colour_of(c) is None), None)


def _pick_hand(obs: dict[str, Any], ctx: TableContext) -> Html:
    """The exchange or a green swap: cards toggled one by one, then confirmed."""
    t: Translator = ctx.t
    verb = obs["phase"]
    n = obs["give_count"] if verb == "give" else obs["swap_count"]
    oblige = verb == "give" and obs["must_give_potion"]
    items = []
    for c in sort_cards(obs["hand"]):
        cls = "pickable"
        if c in ctx.picked:
            cls += " sel"
        elif c not in ctx.offers:
            cls += " off"  # cannot join the cards picked so far
        items.append(card_html(c, t, cls, _part(c, ctx)))
    return html('<div class="hand mine jvh-hand jvh-pick" id="jvh-pick" role="group" '
                'data-verb="{verb}" data-need="{n}" data-count="{count}" data-oblige="{oblige}" '
                'aria-label="{label}"{described}>'
                '<div class="cards" data-keys="row">{items}</div>'
                '<div class="jvh-confirmbar"><span class="tally">{picked} '
                '<b class="jvh-count">{count}</b>/{n}</span>'
                '<button type="button" class="primary jvh-confirm" id="jvh-confirm" '
                'data-cmd="confirm"{disabled}>{confirm}</button></div></div>',
                verb=verb, n=n, count=len(ctx.picked), oblige=int(oblige),
                label=t("jvh.your_hand"),
                described=html(' aria-describedby="jvh-oblige"') if oblige else EMPTY,
                items=join(items), picked=t("jvh.picked"),
                disabled=EMPTY if ctx.complete else html(" disabled"),
                confirm=t(f"jvh.confirm.{verb}", n=n))


def _namer(potion: str, ctx: TableContext) -> Html:
    """The colours a Potion being led can name."""
    t: Translator = ctx.t
    ask = t("jvh.name_colour", card=card_name(potion, t))
    buttons = join(html('<button type="button" class="jvh-name c-{k}" data-part=":{k}" '
                        'data-colour="{k}">{token}</button>', k=k, token=token_html(k, t, "small"))
                   for k in COLOURS if f":{k}" in ctx.offers)
    return html('<div class="jvh-namer" role="group" aria-label="{ask}" data-keys="row">'
                '<span>{ask}</span>{buttons}</div>', ask=ask, buttons=buttons)


def _hand(obs: dict[str, Any], ctx: TableContext) -> Html:
    t: Translator = ctx.t
    if "hand" not in obs:  # a watcher's public view: the hands are backs on their seats
        return EMPTY
    if (obs["to_act"] == ctx.seat or ctx.ahead) and obs["phase"] in ("give", "swap"):
        return _pick_hand(obs, ctx)
    legal = set(obs["legal"])
    lead = obs["to_act"] == ctx.seat and obs["phase"] == "play" and not obs["trick"]["cards"]
    received = _received(obs)
    chosen = _chosen(obs, ctx)
    items = []
    for c in sort_cards(obs["hand"]):
        # Two clicks: the card, then a colour (none while a lesson's note holds the hand).
        potion_lead = lead and bool(legal) and colour_of(c) is None
        cls = "playable" if c in legal or potion_lead else ""
        badge = EMPTY
        if c in received:
            cls += " got"
            badge = html('<span class="badge">{}</span>', t("jvh.new"))
        if c in chosen:
            cls += " chosen"
        if c in ctx.picked:
            cls += " sel"
        click = _part(c, ctx) if potion_lead else _act(c)
        items.append(card_html(c, t, cls, click, badge))
    potion = _picked_potion(obs, ctx)
    return html('<div class="hand mine jvh-hand" role="group" aria-label="{label}">'
                '<div class="cards" data-keys="row">{items}</div>{namer}</div>',
                label=t("jvh.your_hand"), items=join(items),
                namer=_namer(potion, ctx) if potion else EMPTY)


def _aim(obs: dict[str, Any], ctx: TableContext) -> str:
    t: Translator = ctx.t
    return "" if obs["over"] or "hand" not in obs else t(f"jvh.aim.{ctx.seat}")


def finished(before: dict[str, Any], obs: dict[str, Any], ctx: TableContext) -> Html:
    """The table as the round just scored left it, drawn behind its summary
    (the engine has already dealt the next round, `obs`): the observation
    `before` its last card, with the round's tricks and the marker after it
    (the history's), both hands empty, nothing more to play. `ctx.seat` is
    the person's role in that round (a return match swaps them)."""
    entry = obs["history"][-1]
    view = {**before, "played": entry["tricks_played"], "tricks": entry["tricks"],
            "marker": entry["marker"], "trick": {**before["trick"], "cards": [], "named": None},
            "hand": [], "hand_sizes": {"J": 0, "H": 0}, "phase": None, "to_act": None,
            "legal": [], "winning": None, "waiting_for": None, "history": obs["history"],
            "scores": obs["scores"]}
    return render(view, ctx, done=entry["round"])


def render(obs: dict[str, Any], ctx: TableContext, done: int = 0) -> Html:
    """The table; `done`: the round of that number scored, its summary open over it."""
    me = ctx.seat
    last = _last_played(obs)
    steal: dict[str, str] = {}
    if last is not None and last["stolen"]:
        steal = {last["winner"]: "in", other(last["winner"]): "out"}
    return html('{defs}'
                '<div class="table jvh" data-me="{me}" data-phase="{phase}" '
                'data-to-act="{to_act}" data-round="{round}" data-leg="{leg}" '
                'data-marker="{marker}" data-tricks-j="{tricks_j}" '
                'data-tricks-h="{tricks_h}" data-played="{played}" '
                'data-trick="{trick}">'
                '{opp}<div class="jvh-board">{track}{ranking}{status}</div>'
                '{centre}{mine}</div>'
                '<div class="prompt" id="prompt">{prompt}</div>'
                '<div class="jvh-aim">{aim}</div>'
                '{hand}',
                defs=_DEFS, me=me, phase=obs["phase"] or "over",
                to_act=obs["to_act"] or ("over" if obs["over"] else ""), round=obs["round"],
                leg=obs["leg"], marker=obs["marker"], tricks_j=obs["tricks"]["J"],
                tricks_h=obs["tricks"]["H"], played=len(obs["played"]),
                trick=len(obs["trick"]["cards"]),
                opp=_seat(obs, other(me), ctx, steal.get(other(me))),
                track=_track(obs, ctx), ranking=_ranking(obs, ctx), status=_status(obs, ctx),
                centre=_trick_area(obs, ctx), mine=_seat(obs, me, ctx, steal.get(me)),
                prompt=ctx.t("jvh.round_over", n=done) if done else _prompt(obs, ctx),
                aim=_aim(obs, ctx), hand=_hand(obs, ctx))


# -- pacing ----------------------------------------------------------------------

def who_decides(obs: dict[str, Any], ctx: TableContext) -> str:
    role = obs["to_act"]
    if role is None:
        return "—"
    return _label(role, ctx)


def _label(role: str, ctx: TableContext) -> str:
    """A player by role: "(you)", the person's name (pass-and-play), or "(bot)"."""
    t: Translator = ctx.t
    if ctx.spectator:  # a scripted example: nobody is "you" or "the bot"
        return role_name(role, t)
    if role == ctx.seat:
        return t("jvh.you", role=role_name(role, t))
    if role in ctx.people:
        return t("jvh.person", role=role_name(role, t), name=ctx.people[role])
    return t("jvh.bot", role=role_name(role, t))




def _against(ctx: TableContext, key: str, **kw: Any) -> str:
    """A text about the other player: `key`, or with a person there (pass-and-play)
    `key.person` with their name."""
    opponent = other(ctx.seat) if ctx.seat in ROLES else None
    if opponent in ctx.people:
        return ctx.t(f"{key}.person", name=ctx.people[opponent], **kw)
    return ctx.t(key, **kw)


def _named(ctx: TableContext, who: str) -> str:
    """A lasting player by the person's name at an online table, else by the role."""
    return ctx.people.get(who) or role_name(who, ctx.t)


def thinking_seat(obs: dict[str, Any]) -> str | None:
    to_act: str | None = obs["to_act"]
    return to_act


def pause_factor(obs: dict[str, Any]) -> float:
    """Longer right after a trick (and longer still after a Potion's effect)."""
    last = _last_played(obs)
    if last is None:
        return 1.0
    return 3.0 if last["effect"] else 2.2


# -- log -------------------------------------------------------------------------

def event_text(ev: dict[str, Any], ctx: TableContext) -> str:
    """One log line for one engine event (`state.events(player)`), in the player's
    language; "" for an entry the table does not know (an old save's own format)."""
    return _cap(_event_text(ev, ctx))


def _event_text(ev: dict[str, Any], ctx: TableContext) -> str:
    t: Translator = ctx.t
    kind = ev.get("kind")
    if kind == "dealt":
        key = "jvh.log.round_match" if ev["leg"] > 1 else "jvh.log.round"
        return t(key, leg=ev["leg"], n=ev["round"], role=role_name(ev["leader"], t))
    if kind == "chose":
        if "cards" in ev:  # only the player who chose sees the cards
            return t(f"jvh.log.you_chose_{ev['phase']}", cards=_cards_text(ev["cards"], t))
        return t(f"jvh.log.chose_{ev['phase']}", role=role_name(ev["player"], t),
                 n=ev.get("count"))  # (an older save's entry has no count: the plural)
    if kind == "exchange":
        me = _when(ev, ctx)[1]
        if me not in ev:  # the public version: how many cards, never which
            return t(f"jvh.log.{'exchange' if ev['phase'] == 'give' else 'swap'}_public",
                     n=ev.get("count"))
        key = "jvh.log.exchange" if ev["phase"] == "give" else "jvh.log.swap"
        return t(key, gave=_cards_text(ev[me], t), got=_cards_text(ev[other(me)], t))
    if kind == "played":
        role, card = role_name(ev["player"], t), card_name(ev["card"], t)
        if ev["named"]:
            return t("jvh.log.lead_potion", role=role, card=card,
                     colour=colour_name(ev["named"], t))
        return t("jvh.log.play", role=role, card=card)
    if kind == "colour_ranked":
        return t(f"jvh.log.rank.{ev['rank']}", colour=colour_name(ev["colour"], t))
    if kind == "potion":
        return _potion_text(ev, t)
    if kind == "trick_won":
        winner, loser = ev["winner"], other(ev["winner"])
        text = t("jvh.trick.won", role=role_name(winner, t))
        if ev["effect"] == "purple":
            key = "jvh.log.steal" if ev["stolen"] else "jvh.log.no_steal"
            text += " " + t(key, winner=role_name(winner, t), loser=role_name(loser, t))
        return t("jvh.log.trick", text=text, j=ev["tricks"]["J"], h=ev["tricks"]["H"])
    if kind == "round_scored":
        tricks = ev["tricks"]
        return _marker_moved("jvh.log.round_end", tricks, ev["moved"], ev["marker"], t)
    if kind == "leg_over":
        text = t("jvh.log.leg_over", leg=ev["leg"], score=ev["score"])
        return text + " " + t("jvh.log.leg") if ev["leg"] == 1 else text
    if kind == "game_over":
        return t("jvh.log.over", text=_game_over_text(ev, ctx))
    return ""


def _marker_moved(key: str, tricks: dict[str, int], moved: int, marker: int,
                  t: Translator) -> str:
    """A round's tricks and where they put the marker: one that did not move
    stays where it is (never "moves by 0, to 0")."""
    return t(key if moved else f"{key}_still", j=tricks["J"], h=tricks["H"], d=moved,
             marker=marker)


def _potion_text(ev: dict[str, Any], t: Translator) -> str:
    """What a Potion does to the trick it is in (its winner is told next, by trick_won)."""
    effect = ev["effect"]
    if effect is None:
        return t("jvh.effect.cancel")
    if effect == "green":
        return (t("jvh.effect.green_pending", n=ev["swap"]) if ev["swap"]
                else t("jvh.log.potion.green_empty"))
    return t("jvh.effect.red" if effect == "red" else "jvh.log.potion.purple")


def _when(ev: dict[str, Any], ctx: TableContext) -> tuple[int, str]:
    """(leg, role) of the person at the screen when `ev` happened: a return match
    swaps the roles, and the last deal before `ev` in the log shows only his hand."""
    log = ctx.log or []
    at = next((i for i in range(len(log) - 1, -1, -1) if log[i] is ev), -1)
    for e in reversed(log[:at + 1]):
        if e.get("kind") == "dealt" and len(e.get("hands", ())) == 1:
            return e["leg"], next(iter(e["hands"]))
    return 1, ctx.seat if ctx.seat in ROLES else "J"


def _game_over_text(ev: dict[str, Any], ctx: TableContext) -> str:
    """Who won: the marker in a single game, each player's Hyde score in a return match."""
    t: Translator = ctx.t
    winner, scores = ev["winner"], ev["scores"]
    leg, role = _when(ev, ctx)
    if leg == 1 and winner in ROLES:
        return t(f"jvh.win.{winner}", marker=ev["marker"])
    you = other(role)  # the lasting player named after his role in the first game
    text = _against(ctx, "jvh.match_scores", you=scores[you], bot=scores[other(you)])
    if winner is None:
        return text + " " + t("jvh.draw")
    return text + " " + (t("jvh.you_win") if winner == you else _against(ctx, "jvh.bot_wins"))


# -- errors ------------------------------------------------------------------------

def error_text(code: str, params: dict[str, Any], obs: dict[str, Any],
               ctx: TableContext) -> str | None:
    """A refused move in the player's words, from the engine's code and params."""
    t: Translator = ctx.t
    card = params.get("card")
    if code == "must_give_potion":
        return t("jvh.err.potion", n=params["potions"])
    if code in ("wrong_give_count", "wrong_swap_count"):
        verb, n = code.split("_")[1], params["count"]
        # Two counts: the chosen one agrees on its own (Italian "ne hai scelta 1").
        return t(f"jvh.err.count_{verb}", n=n, chosen=t("jvh.err.chosen", n=params["given"]))
    if code in ("must_play_named_colour", "must_follow"):
        key = "named" if code == "must_play_named_colour" else "follow"
        return t(f"jvh.err.{key}", colour=colour_name(params["colour"], t))
    if code == "card_not_in_hand":
        return t("jvh.err.not_in_hand", card=card_name(card, t) if card in ORDER else card)
    simple = {"exchange_now": "exchange_first", "swap_now": "swap_first",
              "trick_now": "trick_now", "potion_lead_names_colour": "name_colour",
              "only_leader_names_colour": "no_name", "only_potion_names_colour": "only_potion",
              "card_named_twice": "twice"}
    return t(f"jvh.err.{simple[code]}") if code in simple else None


# -- scores and summaries --------------------------------------------------------

def score_sheet(obs: dict[str, Any], ctx: TableContext) -> Html:
    t: Translator = ctx.t
    match = obs["options"].get("variant") == "return-match"
    rows = []
    for h in obs["history"]:
        game = html("<td>{}</td>", h["leg"]) if match else EMPTY
        rows.append(html('<tr>{game}<td>{round}</td><td>{j}</td><td>{h}</td><td>+{moved}</td>'
                         '<td class="total">{marker}</td></tr>',
                         game=game, round=h["round"], j=h["tricks"]["J"], h=h["tricks"]["H"],
                         moved=h["moved"], marker=h["marker"]))
    if not rows:
        rows.append(html('<tr><td colspan="6">{}</td></tr>', t("jvh.score.none")))
    head = html('{game}<th>{round}</th><th>{j}</th><th>{h}</th><th>{moved}</th><th>{marker}</th>',
                game=html("<th>{}</th>", t("jvh.score.game")) if match else EMPTY,
                round=t("jvh.score.round"), j=role_name("J", t), h=role_name("H", t),
                moved=t("jvh.score.moved"), marker=t("jvh.score.marker"))
    foot = EMPTY
    if match and "you" not in obs:  # a watcher: both players by name
        s = obs["scores"]
        foot = html('<p class="jvh-match">{}</p>', t(
            "jvh.match_scores", first=_named(ctx, "J"), second=_named(ctx, "H"),
            a=s.get("J", 0), b=s.get("H", 0)))
    elif match:
        you = obs["you"]
        s = obs["scores"]
        foot = html('<p class="jvh-match">{}</p>',
                    _against(ctx, "jvh.match_now", you=s.get(you, 0), bot=s.get(other(you), 0)))
    return html('<table class="scores jvh-scores"><caption>{caption}</caption>'
                '<thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>{foot}',
                caption=t("jvh.score.caption"), head=head, rows=join(rows), foot=foot)


def last_trick(obs: dict[str, Any], ctx: TableContext) -> Html:
    t: Translator = ctx.t
    tr = obs["played"][-1] if obs["played"] else None
    if tr is None and obs["history"]:
        tr = obs["history"][-1]["tricks_played"][-1]
    if tr is None:
        return html("<p>{}</p>", t("jvh.no_trick_yet"))
    rows = []
    for role, card in ((tr["leader"], tr["lead"]), (other(tr["leader"]), tr["follow"])):
        named = ""
        if role == tr["leader"] and tr["named"]:
            named = " — " + t("jvh.named") + " " + colour_name(tr["named"], t)
        cls = "mini win" if tr["winner"] == role else "mini"
        rows.append(html("<li>{}<span>{}</span></li>",
                         card_html(card, t, cls), role_name(role, t) + named))
    return html('<ol class="lasttrick jvh-last">{}</ol><p class="result">{}</p>',
                join(rows), trick_result(tr, ctx))


def _paragraphs(lines: list[str]) -> Html:
    return join(html("<p>{}</p>", x) for x in lines)


def hand_summary(obs: dict[str, Any], ctx: TableContext) -> Html:
    """End of a round: the tricks, how far the marker moved, what comes next."""
    t: Translator = ctx.t
    h = obs["history"][-1]
    lines = [_marker_moved("jvh.round_result", h["tricks"], h["moved"], h["marker"], t)]
    if h["leg"] != obs["leg"]:  # a return match goes on with the roles swapped
        lines.append(t("jvh.leg_over", score=h["marker"]))
        lines.append(t("jvh.next_roles", role=role_name(ctx.seat, t)))
    else:
        leader = obs["leader"]
        lines.append(t("jvh.next_round", n=obs["round"], role=role_name(leader, t)))
    track = _track({**obs, "marker": h["marker"], "phase": None}, ctx)
    return html('<h2>{title}</h2>{body}<div class="jvh-mini-track">{track}</div>'
                '<h3>{last_title}</h3>{last}{scores}',
                title=t("jvh.round_over", n=h["round"]), body=_paragraphs(lines), track=track,
                last_title=t("menu.last"), last=last_trick(obs, ctx), scores=score_sheet(obs, ctx))


def final_summary(obs: dict[str, Any], ctx: TableContext) -> Html:
    t: Translator = ctx.t
    match = obs["options"].get("variant") == "return-match"
    you = obs.get("you")  # (None: a watcher, who is neither)
    win = obs["winner"]
    verdict = (t("jvh.draw") if win is None else
               t("jvh.wins", name=_named(ctx, win)) if you is None else
               t("jvh.you_win") if win == you else _against(ctx, "jvh.bot_wins"))
    lines = []
    h = obs["history"][-1] if obs["history"] else None

    if h:
        lines.append(_marker_moved("jvh.round_result", h["tricks"], h["moved"], h["marker"], t))
    if not match:
        lines.append(t(f"jvh.win.{win}", marker=obs["marker"]))
    else:
        rounds = {leg["hyde"]: leg["rounds"] for leg in obs["legs"]}
        if all(leg["score"] >= TRACK_END for leg in obs["legs"]) and len(rounds) == 2:
            lines.append(t("jvh.tiebreak.watch", first=_named(ctx, "J"), a=rounds.get("J", 0),
                           second=_named(ctx, "H"), b=rounds.get("H", 0)) if you is None
                         else _against(ctx, "jvh.tiebreak", you=rounds.get(you, 0),
                                       bot=rounds.get(other(you), 0)))
    return html('<h2>{title}</h2><p class="winner">{verdict}</p>{body}'
                '<div class="jvh-mini-track">{track}</div>{scores}',
                title=t("jvh.game_over"), verdict=verdict, body=_paragraphs(lines),
                track=_track({**obs, "phase": None}, ctx), scores=score_sheet(obs, ctx))


def hint_text(action: str, obs: dict[str, Any], ctx: TableContext) -> str:
    """The hint in words; the shell highlights the action's cards (and a Potion's colour)."""
    t = ctx.t
    verb, _, rest = action.partition(":")
    if verb in ("give", "swap"):
        return t(f"hint.{verb}", cards=", ".join(card_name(c, t) for c in parts(action)))
    if rest:  # a Potion led, naming a colour
        return t("hint.lead_potion", card=card_name(verb, t), colour=colour_name(rest, t))
    return t("hint.play", cards=card_name(action, t))


# The `Table` hooks this table leaves at their defaults (game.web.draw.tables.common).
online_options = same_options
waiting = no_waiting


# -- motion, the panels' words, a live embed's seat ---------------------------------

def motion(events: Iterable[Event], me: Any) -> Plan:
    """A played card flies from its hand to its slot, the gifts (or a green
    swap) cross the table, a won trick leaves later for its winner's pile."""
    opp = "H" if me == "J" else "J"
    seat = f'.jvh-seat[data-role="{opp}"]'
    moves: list[Move] = []
    leaving: dict[str, str] = {}
    for ev in events:
        kind = ev["kind"]
        if kind == "played":
            p = ev["player"]
            origin = ".hand.mine" if p == me else f'.jvh-seat[data-role="{p}"]'
            moves.append(Move(ev["card"], f'[data-slot="{p}"]', origin, seat=True))
        elif kind == "exchange":
            # (a watcher, `me` None, is shown no card of it: nothing moves)
            moves += [Move(c, seat + " .back", ".hand.mine", "back") for c in ev.get(me, [])]
            moves += [Move(c, ".hand.mine", seat, seat=True) for c in ev.get(opp, [])]
        elif kind == "trick_won":
            leaving = {c: f'.jvh-seat[data-role="{ev["winner"]}"] .jvh-pile'
                       for c in ev["cards"]}
    return moves, leaving


def stats_mode(options: dict[str, Any], me: Any) -> str:
    """The variant; in the standard game the person's role too (Jekyll and
    Hyde win in different ways).

    >>> stats_mode({"variant": "standard"}, "H"), stats_mode({"variant": "return-match"}, "J")
    ('standard-H', 'return-match')
    """
    variant = str(options.get("variant", "standard"))
    return f"{variant}-{me}" if variant == "standard" else variant


def rated_options(mode: str) -> dict[str, Any] | None:
    """The variant of a mode (the ratings do not tell the roles apart)."""
    if mode in ("standard-J", "standard-H"):
        return {"variant": "standard"}
    return {"variant": mode} if mode == "return-match" else None


def mode_text(t: Translator, mode: str) -> str:
    return catalog_mode(t, GAME_ID, mode)


def player_name(identity: Any, t: Translator) -> str:
    """A lasting player by role ("Jekyll")."""
    return t(f"jvh.role.{identity}")


def winner_text(winner: str, t: Translator) -> str:
    return t("file.won", name=player_name(winner, t))


def seat_word(who: str, t: Translator) -> str:
    """A seat by its side ("Hyde")."""
    side = {"J": "side.jekyll", "H": "side.hyde"}.get(who)
    return t(side) if side else seat_number(who, t)


def every_bot(level: str) -> dict[str, str]:
    return {"jvh_bot": level}


def seat_params(values: dict[str, str], pick: Pick) -> dict[str, str]:
    """The person's role (`role=J|H|random`)."""
    return {"jvh_role": pick("role", ("J", "H", "random"), "J")}
