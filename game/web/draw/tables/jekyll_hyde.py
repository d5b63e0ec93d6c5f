"""The Dr. Jekyll & Mr. Hyde table: observation -> HTML, actions -> words.

Pure Python (no browser import): the shell puts the HTML in the page and
sends `data-act` values of clicked elements to `state.apply`. Every action
is one click (a card code, or `@<seat>` to designate a seat), so the table
defines no `parts`: the shell's hint highlights the `data-act`, and arrow
keys move along a hand (`data-keys="row"`). Markup is built only with
`game.web.draw.html`: names and scores come from saves and options, so every
value is escaped.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable

from game.jekyll_hyde.cards import ORDER, POINTS
from game.jekyll_hyde.rules import DEFAULT_NAMES, OPTIONS, TEAMS, TRICKS_PER_HAND, sides
from game.jekyll_hyde.rules import DRAWS as DRAWS
from game.web.model.choice import single
from game.web.draw.html import EMPTY, Html, html, join
from game.web.draw.tables.common import (
    PERSON,
    OptionField,
    Event,
    Move,
    Pick,
    Plan,
    never_confirm,
    no_attempt,
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

Obs = dict[str, Any]  # an observation, or an event: JSON data from the engine

GAME_ID = "jekyll-hyde"
# The rulebook's example names, seat 0..3 (4 players).
SEAT_NAMES = ("Doris", "Adam", "Betty", "Christian")
WATCH_SEAT = 0  # a watcher sees the table from seat 0 (its cards as backs)
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
OPTION_FIELDS: tuple[OptionField, ...] = (PLAYERS, SEATING, TARGET)


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
    strengths = level_labels(t, "jekyll-hyde", options)
    if options["players"] == 3:
        labels = [t(f"jh.role.{i}", name=name) for i, name in enumerate(places)]
    else:
        fields.append(SEATING.select(t, values))
        team_of = {seat: team for team, seats in sides(options).items() for seat in seats}
        labels = [t("jh.seat", name=name, team=t(f"side.{team_of[i]}"))
                  for i, name in enumerate(places)]
    fields.append(select_field("me", [(str(i), label) for i, label in enumerate(labels)],
                               str(me), t("setup.you")))
    if any(seat_choice(values, f"bot{i}", bots) == PERSON for i in range(len(places)) if i != me):
        fields.append(name_field(t, f"name{me}", person_name(values, f"name{me}", places[me]),
                                 t("setup.your_name")))
    for i, name in enumerate(places):
        if i != me:
            fields.append(seat_fields(t, bots, values, f"bot{i}", t("setup.bot_for", name=name),
                                      f"name{i}", name, strengths))
    fields.append(TARGET.select(t, values))
    return join(fields)


def _named(places: tuple[str, ...], people: dict[int, str]) -> tuple[str, ...]:
    """The people's names on their seats (the others keep theirs), unless two
    are alike or one is a word the engine keeps (a team, "ghost")."""
    named = tuple(people.get(i, place) for i, place in enumerate(places))
    if len(set(named)) == len(named) and not set(named) & {*TEAMS, "ghost"}:
        return named
    return places


def online_options(options: dict[str, Any], people: dict[str, str]) -> dict[str, Any]:
    """An online table's options once its seats are taken (`people`: seat ->
    name, the host's and the friends'): with four players their names on the
    table, as at a table of people here. With three, the seats are the
    engine's named players: they take the people's names (the room renames
    its seats to match).

    >>> online_options({"players": 4}, {"0": "Host", "2": "Ann"})["names"]
    ['Host', 'Adam', 'Ann', 'Christian']
    >>> online_options({"players": 4}, {"0": "Host", "2": "Adam"})  # two Adams: the seats' own
    {'players': 4}
    >>> online_options({"players": 3}, {"Adam": "Host", "Christian": "Ann"})["names"]
    ['Host', 'Betty', 'Ann']
    """
    if len(people) < 2:
        return options
    places = _places(options)
    index = {str(i) if options["players"] == 4 else place: i for i, place in enumerate(places)}
    named = _named(places, {index[seat]: name for seat, name in people.items() if seat in index})
    return {**options, "names": list(named)} if named != places else options


def parse_setup(values: dict[str, str], bots: list[str]) -> dict[str, Any]:
    """Who plays where: the person at `me`, a person or a bot at each other
    seat. People's names label their seats (the engine's `names`: with 3
    players they also key the scores) unless two are alike or one is a word
    the engine keeps (a team, "ghost"): then the seats keep their own names."""
    options = _options(values)
    places = _places(options)
    me = _me(values, places)
    choices = {i: seat_choice(values, f"bot{i}", bots) for i in range(len(places)) if i != me}
    people = [i for i in range(len(places)) if i == me or choices[i] == PERSON]
    if len(people) > 1:
        places = _named(places, {i: person_name(values, f"name{i}", places[i]) for i in people})
        if places != _places(options):
            options["names"] = list(places)

    def player(i: int) -> str | int:  # a name with 3 players, else the seat
        return places[i] if options["players"] == 3 else i

    return {"options": options, "me": player(me),
            "bots": {str(player(i)): bot for i, bot in choices.items() if bot != PERSON},
            "people": {str(player(i)): places[i] for i in people} if len(people) > 1 else {}}


# -- names and words -----------------------------------------------------------

def seat_name(obs: Obs, seat: int) -> str:
    """A seat's player name this hand: with 3 players the names move every
    hand and seat 2 is "ghost" (`shown` says it in words)."""
    return named(obs["names"], seat)


def named(names: dict[str, str], seat: int) -> str:
    """The name at `seat` in an observation's or an event's `names` (empty
    with 4 unnamed players: the rulebook's names)."""
    return names.get(str(seat)) or SEAT_NAMES[seat]


def shown(name: str, t: Translator) -> str:
    return t("jh.ghost") if name == "ghost" else name


def card_name(card: str, t: Translator) -> str:
    return t(f"card.{card}")


def sided_name(card: str, t: Translator) -> str:
    """A card's name, with its side where the other side has a card of the
    same name (Dr. Lanyon, Poole, Transformation...): in the log and the
    scoring no face shows which one it was."""
    name = card_name(card, t)
    twin = card_name(("H" if card[0] == "J" else "J") + card[1:], t)
    return t("card.sided", card=name, side=side_word(card[0], t)) if name == twin else name


def side_word(side: str, t: Translator) -> str:
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


def card_html(card: str, t: Translator, cls: str = "", act: bool = True,
              state: str = "", skip: bool = False) -> Html:
    """A card face: a button that plays it (`act`), or a picture of it;
    `state` is said after its name to screen readers and in its tooltip.
    `skip`: a card the person may not play in the decision now: out of the
    Tab order and the arrow keys' way (a click still says why not).

    The button is named by its content, the name printed on the card (voice
    control users say what they see; the corner marks are a drawing)."""
    shown_name = card_name(card, t)
    name = shown_name + (f" ({state})" if state else "")
    face = html('{svg}<span class="nm">{name}</span>', svg=card_svg(card), name=shown_name)
    if act:
        said = html('<span class="sr"> ({})</span>', state) if state else EMPTY
        # Still a button: a click says why the card may not be played.
        skipped = html(' tabindex="-1" data-skip="true"') if skip else EMPTY
        return html('<button type="button" class="card {side} {cls}" data-card="{card}" '
                    'data-act="{card}" title="{name}"{skipped}>{face}{said}</button>',
                    side=card[0], cls=cls, card=card, name=name, skipped=skipped,
                    face=face, said=said)
    return html('<div class="card {side} {cls}" data-card="{card}" role="img" '
                'aria-label="{name}" title="{name}">{face}</div>', side=card[0], cls=cls,
                card=card, name=name, face=face)


def back_html(side: str) -> Html:
    return html('<span class="back {side}"><svg viewBox="0 0 24 24" aria-hidden="true">'
                '<use href="#{icon}"/></svg></span>',
                side=side, icon="i-flask" if side == "J" else "i-hat")


def sort_cards(cards: Iterable[str]) -> list[str]:
    return sorted(cards, key=ORDER.__getitem__)


# -- the table -----------------------------------------------------------------

def _pos(seat: int, me: int) -> str:
    return POSITIONS[(seat - me) % 4]


def _prompt(obs: Obs, ctx: TableContext) -> str:
    t: Translator = ctx.t
    me: int = ctx.seat
    if obs["over"]:
        return t("jh.prompt.over")
    if ctx.paused:
        return t("coach.jekyll-hyde.paused")
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
            # With 3 players the soloist may put down the ghost's cards on his own turn too.
            from_ghost = any(a in (obs["ghost"] or ()) for a in legal)
            return t("jh.prompt.solo_turn" if from_ghost else "jh.prompt.turn", side=need)
        return t("jh.prompt.must_designate", side=need)
    return t("jh.prompt.wait", name=shown(seat_name(obs, obs["to_act"]), t))


def finished(before: Obs, obs: Obs, ctx: TableContext) -> Html:
    """The table as the hand just scored left it, drawn behind its summary
    (the engine has already dealt the next hand, `obs`): the observation
    `before` the hand's last card, with the last trick whole (the history's),
    every hand empty, the totals after the hand. `ctx.seat` is the person's
    seat in that hand (with 3 players the roles rotate with the deal)."""
    entry = obs["history"][-1]
    empty = {"J": 0, "H": 0}
    view = {**before, "trick": None, "tricks": [*before["tricks"], entry["last_trick"]],
            "carried": [], "hand": [], "ghost": None if before["ghost"] is None else [],
            "backs": {seat: empty for seat in before["backs"]}, "turn": None,
            "designated": None, "legal": [], "winning": None, "scores": obs["scores"],
            "history": obs["history"]}
    return render(view, ctx, done=True)


def _seat_html(obs: Obs, seat: int, ctx: TableContext) -> Html:
    t: Translator = ctx.t
    me: int = ctx.seat
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
    ask = _ask_tag(obs, seat, ctx)
    backs = obs["backs"][str(seat)]
    if seat == me and "hand" in obs:  # (a watcher's public view has none: backs)
        body = EMPTY
        label = name if ctx.spectator else t("jh.you", name=name)
    elif three and seat == 2:
        ghost = sort_cards(obs["ghost"] or [])
        playable = set(legal) if obs["turn"] is not None else set()
        body = html('<div class="ghost-hand" data-keys="row">{}</div>', join(
            card_html(c, t, "mini playable" if c in playable else "mini", act=(me == 0),
                      skip=bool(legal) and c not in playable) for c in ghost))
        label = name
    elif ctx.open_hands is not None:  # a review: the hand face up
        body = html('<div class="open-hand">{}</div>', join(
            card_html(c, t, "mini", act=False)
            for c in sort_cards(ctx.open_hands.get(str(seat), []))))
        label = name
    else:
        j, h = backs["J"], backs["H"]
        body = html('<div class="backs" role="img" aria-label="{label}">'
                    '<span class="stack">{jekyll}</span><b>{j}</b>'
                    '<span class="stack">{hyde}</span><b>{h}</b></div>',
                    label=t("jh.backs", j=j, h=h), j=j, h=h,
                    jekyll=join([back_html("J")] * j), hyde=join([back_html("H")] * h))
        label = name
    # A click anywhere on the seat designates it; the keyboard's button is the
    # name plate (the ghost's seat holds the ghost's card buttons: no nesting).
    title = t("jh.designate", name=name) if "designatable" in cls else ""
    return html('<div class="{cls}" data-seat="{seat}" data-act="@{seat}" title="{title}">'
                '<button type="button" class="plate" id="seat-{seat}" title="{title}">'
                '<svg class="team" viewBox="0 0 24 24" aria-hidden="true">'
                '<use href="#{side_icon}"/></svg><span class="who">{label}</span>'
                '<span class="team-name">{team}</span></button>{ask}{body}</div>',
                cls=" ".join(cls), seat=seat, label=label, body=body, title=title, ask=ask,
                side_icon="i-flask" if team == "jekyll" else "i-hat", team=t("side." + team))


def _ask_tag(obs: Obs, seat: int, ctx: TableContext) -> Html:
    """A designation on the table, not only in the log: the seat on turn
    "asks X", the designated seat is "asked by Y" (bots asking bots too)."""
    turn, designated = obs["turn"], obs["designated"]
    if designated is None or seat not in (turn, designated):
        return EMPTY
    t: Translator = ctx.t
    asking = seat == turn
    other = designated if asking else turn
    you = other == ctx.seat and not ctx.spectator
    name = seat_name(obs, other)
    # The ghost has its own words: the article goes with the preposition ("au fantôme").
    key = ("jh.asks" if asking else "jh.asked_by") + \
        ("_you" if you else "_ghost" if name == "ghost" else "")
    text = t(key, name=name)
    return html('<span class="ask-tag {cls}">{text}</span>',
                cls="asks" if asking else "asked", text=text)


def _from(names: dict[str, str], src: int, t: Translator) -> str:
    """Where a card put down for another seat came from."""
    name = named(names, src)
    return t("jh.from_ghost") if name == "ghost" else t("jh.from", name=name)


def _played(obs: Obs, plays: list[Obs], ctx: TableContext, winner: int | None = None,
            winning: Obs | None = None) -> Html:
    """The cards of a trick in front of their seats: a finished one with its
    `winner`, or the one under way with the engine's `winning` card marked (or
    the Transformation that stops anyone winning it)."""
    t: Translator = ctx.t
    me: int = ctx.seat
    out = []
    for p in plays:
        seat, card, src = p["seat"], p["card"], p["from"]
        tags = []
        cls, state = "played" + (" win" if winner == seat else ""), ""
        if winning is not None and winning["seat"] == seat:
            cls, state = cls + " winning", t("jh.winning")
        elif winning is not None and winning["transformation"] == seat:
            cls, state = cls + " stopper", t("jh.nobody_wins")
        if state:
            tags.append(html('<span class="mark" aria-hidden="true">{}</span>', state))
        if src != seat:
            tags.append(html('<span class="from">{}</span>', _from(obs["names"], src, t)))
        out.append(html('<div class="slot p-{pos}" data-slot="{seat}">{card}{tags}</div>',
                        pos=_pos(seat, me), seat=seat, tags=join(tags),
                        card=card_html(card, t, cls, act=False, state=state)))
    return join(out)


def _legend(t: Translator) -> Html:
    """The order of strength, in the cards' own corner marks (rules.py's RANK)."""
    def key(mark: str) -> Html:
        return html('<b class="k">{}</b>', mark)

    gt = html('<span class="gt" aria-hidden="true">›</span>')
    order = join([key("A"), gt, key("B"), gt, key("C"), gt, key("D"), gt, key("E"), gt,
                  html("{} {}", key("3–7"), t("jh.legend.places")), gt,
                  html("{} {}", key("×1–3"), t("jh.legend.actions"))])
    return html('<p class="jh-legend" role="note" aria-label="{label}"><span class="lt">{title}'
                '</span> <span class="part">{t_key} {never}</span> <span class="part">{order}'
                '</span> <span class="part">{ties}</span></p>',
                label=t("jh.legend.aria"), title=t("jh.legend.title"), t_key=key("T"),
                never=t("jh.legend.transformation"), order=order, ties=t("jh.legend.ties"))


def waiting(t: Translator) -> Html:
    """The table before its deal is known: its felt and its legend, which no
    deal changes (an embed's first paint, drawn by the build: game.build)."""
    return html('<div class="table jh p4"><div class="centre"></div>{legend}</div>',
                legend=_legend(t))


def _team_label(team: str, t: Translator) -> str:
    return t("side." + team)


def _totals(obs: Obs, ctx: TableContext) -> Html:
    """The running totals and the target, always on the table; the person's own
    team (or, with 3 players, own name) marked."""
    t: Translator = ctx.t
    me: int = ctx.seat
    rows = []
    if obs["options"].get("players") == 3:
        mine = None if ctx.spectator else obs["names"][str(me)]
        soloist = obs["names"]["0"]
        for name, total in obs["scores"].items():
            icon = "i-hat" if name == soloist else "i-flask"
            rows.append((name, total, name == mine, icon,
                         t("jh.you", name=name) if name == mine else name))
    else:
        my_team = None if ctx.spectator else obs["teams"][str(me)]
        for team, total in obs["scores"].items():
            label = _team_label(team, t)
            rows.append((label, total, team == my_team, "i-flask" if team == "jekyll" else "i-hat",
                         t("jh.your_team", team=label) if team == my_team else label))
    lines = join(html('<li class="{cls}" title="{title}"><svg class="team" viewBox="0 0 24 24" '
                      'aria-hidden="true"><use href="#{icon}"/></svg><span class="nm">{name}'
                      '</span><b>{total}</b></li>', cls="mine" if mine else "", title=title,
                      icon=icon, name=name, total=total)
                 for name, total, mine, icon, title in rows)
    return html('<div class="jh-totals" role="group" aria-label="{label}"><ul>{lines}</ul>'
                '<p class="target">{target}</p></div>', label=t("jh.totals"), lines=lines,
                target=t("jh.to_target", target=obs["options"].get("target", 1000)))


def render(obs: Obs, ctx: TableContext, done: bool = False) -> Html:
    """The table; `done`: a hand scored, its summary open over it."""
    t: Translator = ctx.t
    me: int = ctx.seat
    three = obs["options"].get("players") == 3
    trick = obs.get("trick") or {"plays": []}
    plays = trick["plays"]
    centre = []
    banner = ""
    below = False  # the banner goes under the cards of a finished trick
    if plays:
        centre.append(_played(obs, plays, ctx, winning=obs.get("winning")))
    elif obs["tricks"]:
        last = obs["tricks"][-1]
        banner = _trick_result(obs["names"], last, len(obs["tricks"]) == TRICKS_PER_HAND, t)
        # A Transformation's cards stay on the table: "On the table" shows them,
        # so the centre does not show them a second time as the last trick.
        if not {p["card"] for p in last["plays"]} <= set(obs["carried"]):
            centre.append(html('<div class="last">{}</div>',
                               _played(obs, last["plays"], ctx, last["winner"])))
            below = True
    if obs["carried"]:
        centre.append(html('<div class="carried" title="{help}"><span>{caption}</span>'
                           '<div class="row">{cards}</div></div>',
                           help=t("jh.carried_help"), caption=t("jh.carried", n=len(obs["carried"])),
                           cards=join(card_html(c, t, "tiny", act=False) for c in obs["carried"])))
    elif three and obs["hand_number"] and not obs["over"] and not plays and not obs["tricks"]:
        # The roles rotated with the deal: say so until the first card lies
        # (then never over the trick's cards; the log keeps it).
        banner = _soloist_notice(obs, ctx)
    if banner:  # under the last trick's cards, where nothing is drawn, else in the middle
        centre.append(html('<div class="banner{}">{}</div>',
                           " below" if below else "", banner))
    legal = set(obs["legal"])
    # On the person's decision Tab reaches only the cards they may play.
    cards = join(card_html(c, t, "playable" if c in legal else "",
                           skip=bool(legal) and c not in legal)
                 for c in sort_cards(obs.get("hand", [])))
    info = "" if obs["over"] else " · " + t("jh.trick_no",
                                            n=min(len(obs["tricks"]) + 1, TRICKS_PER_HAND))
    return html('<div class="table jh {players}" data-me="{me}" data-turn="{turn}" '
                'data-designated="{designated}">{totals}{seats}<div class="centre">'
                '<div class="tinfo">{hand_no}{info}</div>{centre}</div>{legend}</div>'
                '<div class="prompt" id="prompt">{prompt}</div>'
                '<div class="hand mine" data-keys="row" role="group" aria-label="{hand_label}">'
                '{cards}</div>',
                players="p3" if three else "p4", me=me, totals=_totals(obs, ctx),
                legend=_legend(t),
                turn="" if obs["turn"] is None else obs["turn"],
                designated="" if obs["designated"] is None else obs["designated"],
                seats=join(_seat_html(obs, s, ctx) for s in range(4)),
                hand_no=t("jh.hand_no", n=obs["hand_number"] + 1), info=info,
                centre=join(centre), prompt=t("jh.hand_over", n=obs["hand_number"] + 1) if done else _prompt(obs, ctx),
                hand_label=t("jh.your_hand"),
                cards=cards)


def _soloist_notice(obs: Obs, ctx: TableContext) -> str:
    """3 players: who plays Mr. Hyde this hand (the role moves every hand)."""
    t: Translator = ctx.t
    soloist = obs["names"]["0"]
    if soloist == obs["names"][str(ctx.seat)] and not ctx.spectator:
        return t("jh.soloist_now_you")
    return t("log.soloist", name=soloist)


def _trick_result(names: dict[str, str], trick: Obs, last_of_hand: bool, t: Translator) -> str:
    if trick["winner"] is None:
        return t("jh.trick.nobody_last" if last_of_hand else "jh.trick.transformation")
    return t("jh.trick.won", name=shown(named(names, trick["winner"]), t))


def last_trick(obs: Obs, ctx: TableContext) -> Html:
    """The last finished trick: of this hand, or else the last one of the previous hand
    (with the names of that hand: with 3 players they have moved since)."""
    t: Translator = ctx.t
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
        rows.append(html("<li>{}<span>{}</span></li>",
                         card_html(play["card"], t, "mini", act=False),
                         _player_of(names, play, t)))
    return html('<ol class="lasttrick">{}</ol><p class="result">{}</p>', join(rows),
                _trick_result(names, trick, last_of_hand, t))


def _player_of(names: dict[str, str], play: Obs, t: Translator) -> str:
    """Who played a card of a finished trick, and who gave it if another seat
    did: one sentence per language, so that "given" agrees with the card, not
    with the player ("Betty (carte donnée par Christian)")."""
    seat, src = play["seat"], play["from"]
    player = shown(named(names, seat), t)
    if src == seat:
        return player
    giver = named(names, src)
    if giver == "ghost":
        return t("jh.last.from_ghost", name=player)
    return t("jh.last.given", name=player, giver=giver)


def _names_in_hand(hand_number: int, log: list[Obs]) -> dict[str, str] | None:
    """The names at the seats in hand `hand_number`, from its `dealt` event in
    the log (None if the log does not have it: an old save, a scripted example)."""
    for event in reversed(log):
        if event.get("kind") == "dealt" and event.get("hand_number") == hand_number:
            names: dict[str, str] | None = event.get("names")
            return names
    return None


# -- pacing ------------------------------------------------------------------

def who_decides(obs: Obs, ctx: TableContext) -> str:
    """The name of whoever must act now (the soloist decides for the ghost)."""
    t: Translator = ctx.t
    return shown(seat_name(obs, obs["to_act"]), t)


def thinking_seat(obs: Obs) -> int | None:
    """The seat to mark as thinking while a bot decides: whoever must act (the
    designated seat giving a card, not the one on turn that asked for it; the
    soloist deciding for the ghost)."""
    seat: int | None = obs["to_act"]
    return seat


def pause_factor(obs: Obs) -> float:
    """How much longer than usual a bot waits: more right after a trick."""
    trick = obs.get("trick") or {"plays": []}
    return 2.2 if not trick["plays"] and obs["tricks"] else 1.0


# -- log -----------------------------------------------------------------------

def event_text(ev: Obs, ctx: TableContext) -> str:
    """One engine event (`state.events(player)`; the kinds are listed in
    game/jekyll_hyde/rules.py) as a log line in the player's language; "" for
    an entry that is no event of this game (an older save's log)."""
    t: Translator = ctx.t
    names = _names_then(ev, ctx.log)

    def who(seat: int) -> str:
        return shown(named(names, seat), t)

    kind = ev.get("kind")
    if kind == "dealt":
        text = t("log.deal", n=ev["hand_number"] + 1, who=who(ev["leader"]))
    elif kind == "soloist_changed":
        text = t("log.soloist", name=ev["soloist"])
    elif kind == "designated":
        # The ghost has its own words: the article goes with the preposition ("au fantôme").
        key = "log.ask_ghost" if named(names, ev["whom"]) == "ghost" else "log.ask"
        text = t(key, who=who(ev["by"]), whom=who(ev["whom"]), side=side_word(ev["need"], t))
    elif kind == "played":
        text = _played_text(ev, names, t)
    elif kind == "trick_won":
        text = t("log.trick", who=who(ev["winner"]), n=ev["points"])
    elif kind == "transformation":
        text = t("jh.trick.nobody_last" if ev["to_nobody"] else "jh.trick.transformation")
    elif kind == "hand_scored":
        teams = ev["teams"]
        text = t("log.hand_over") + " " + t("list.semicolon").join(
            t("log.team_score", team=t(f"side.{team}"), p=teams[team]["points"],
              m=teams[team]["multiplier"], s=teams[team]["score"]) for team in ("jekyll", "hyde"))
    elif kind == "game_over":
        text = t("log.over", who=_winner_text(ev["winner"], t))
    else:
        return ""
    return text[:1].upper() + text[1:]


def _played_text(ev: Obs, names: dict[str, str], t: Translator) -> str:
    """A card put down: from one's own hand, given by a designated seat, or
    taken by the soloist from the ghost's hand or from his own for the ghost."""
    seat, src, card = ev["seat"], ev["from"], sided_name(ev["card"], t)
    player, source = named(names, seat), named(names, src)
    if src == seat:
        return t("log.play", who=shown(player, t), card=card)
    if source == "ghost" and seat == 0:
        return t("log.play_from_ghost", who=player, card=card)
    if player == "ghost" and src == 0:
        return t("log.play_for_ghost", who=source, card=card)
    return t("log.gives", whom=shown(source, t), card=card)


def _names_then(ev: Obs, log: list[Obs]) -> dict[str, str]:
    """The names at the seats when `ev` happened: those of the last deal before
    it in the log, since with 3 players they move every hand (an event not
    in the log: those of the last deal)."""
    if "names" in ev:
        given: dict[str, str] = ev["names"]
        return given
    passed, latest = False, None
    for entry in reversed(log):
        passed = passed or entry is ev
        if entry.get("kind") == "dealt":
            names: dict[str, str] = entry.get("names") or {}
            if passed or names.get("2") != "ghost":  # with 4 players they never move
                return names
            latest = latest or names
    return latest or {}


def _winner_text(winner: str | None, t: Translator) -> str:
    if winner in ("jekyll", "hyde"):
        return t("jh.team_of", team=t(f"side.{winner}"))
    return winner or "?"


# -- errors ------------------------------------------------------------------

# Engine error codes -> this table's words (the catalogs' err.* keys); any other
# code falls back to the shared error.<code> text (game.web.draw.tables.error_words).
_ERROR_KEYS = {
    "wrong_side": "err.wrong_side", "card_not_in_hand": "err.not_in_hand",
    "not_in_soloist_or_ghost_hand": "err.not_in_hand", "cannot_designate_self": "err.self",
    "soloist_takes_hyde_directly": "err.soloist_direct", "designated_must_give": "err.must_give",
    "no_card_of_side": "err.no_side",
}


def error_text(code: str, params: Obs, obs: Obs, ctx: TableContext) -> str | None:
    """A refused move in the player's words, from the engine's code and params."""
    key = _ERROR_KEYS.get(code)
    if key is None:
        return None
    t: Translator = ctx.t
    words: dict[str, str] = {}
    if "card" in params:
        words["card"] = card_name(params["card"], t)
    if "need" in params:
        words["side"] = t(f"side.{params['need']}")
    if "seat" in params:
        words["name"] = shown(seat_name(obs, params["seat"]), t)
    return t(key, **words)


# -- scores ------------------------------------------------------------------

def score_sheet(obs: Obs, ctx: TableContext) -> Html:
    t: Translator = ctx.t
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


def _cell(h: Obs, team: str) -> Html:
    return html('<td><span class="calc">{} × {} = </span><b>{}</b></td>',
                h["points"][team], h["multiplier"][team], h["score"][team])


def _scored_event(obs: Obs, log: list[Obs]) -> Obs | None:
    """The engine's `hand_scored` event of the last finished hand, from the log
    (None for an old save or a scripted example without it)."""
    wanted = len(obs["history"]) - 1
    for event in reversed(log):
        if event.get("kind") == "hand_scored" and event.get("hand_number") == wanted:
            return event
    return None


def _my_side(obs: Obs, event: Obs | None, me: int) -> str:
    """The person's team in the last finished hand: with 3 players the soloist
    played Hyde (the event names him; the seats have moved since)."""
    if obs["options"].get("players") == 3 and event is not None and "soloist" in event:
        return "hyde" if event["soloist"] == obs["names"][str(me)] else "jekyll"
    side: str = obs["teams"][str(me)]
    return side


def _listed(items: list[str]) -> str:
    return " + ".join(items)


def _partner(obs: Obs, event: Obs | None, me: int) -> str | None:
    """With 3 players, the one who played Jekyll beside the person in the last
    hand (None for the soloist, or with 4 players: a fixed partner)."""
    if obs["options"].get("players") != 3 or event is None or "soloist" not in event:
        return None
    mine = obs["names"][str(me)]
    others = [n for n in event.get("gained", {}) if n not in (mine, event["soloist"])]
    return others[0] if mine != event["soloist"] and others else None


def _my_side_label(label: str, obs: Obs, partner: str | None, t: Translator) -> str:
    """The person's side in a hand's breakdown: with 3 players there are no
    teams, only the soloist with the ghost against the two others this hand."""
    if partner is not None:
        return t("jh.your_side.allied", team=label, partner=partner)
    if obs["options"].get("players") == 3:
        return t("jh.your_side.solo", team=label)
    return t("jh.your_team", team=label)


def _team_breakdown(team: str, info: Obs, mine: str | None, t: Translator) -> Html:
    """One team's hand: the cards with points, its own actions (the multiplier),
    the other side's actions (worth nothing), the product and why it is 0.
    `mine`: the person's side as labelled, when it is theirs."""
    label = mine or t("jh.team_of", team=_team_label(team, t))
    with_points = [t("jh.sum.card_points", card=sided_name(c["card"], t), n=c["points"])
                   for c in info["cards"] if c["points"]]
    actions = [t("jh.sum.card_times", card=sided_name(a["card"], t), n=a["multiplier"])
               for a in info["actions"]]
    lines = [t("jh.sum.points", cards=_listed(with_points), p=info["points"]) if with_points
             else t("jh.sum.no_points"),
             t("jh.sum.actions", cards=_listed(actions), m=info["multiplier"]) if actions
             else t("jh.sum.no_actions")]
    if info["other_actions"]:
        lines.append(t("jh.sum.other_actions",
                       cards=", ".join(sided_name(c, t) for c in info["other_actions"])))
    if info["zero"] is not None:
        why = "nothing" if not info["points"] and not info["multiplier"] else info["zero"]
        lines.append(t(f"jh.sum.why.{why}", m=info["multiplier"]))
    return html('<section class="jh-team {team}{mine}"><h3><span>{label}</span> '
                '<b>{score}</b></h3>'
                '<ul>{lines}</ul><p class="calc">{calc}</p></section>',
                team=team, mine=" mine" if mine else "", label=label, score=info["score"],
                lines=join(html("<li>{}</li>", line) for line in lines),
                calc=t("log.team_score", team=_team_label(team, t), p=info["points"],
                       m=info["multiplier"], s=info["score"]))


def _hand_result(obs: Obs, ctx: TableContext) -> tuple[Html, Html]:
    """Why the last hand scored what it did, from its `hand_scored` event:
    (whether the person's side won it, each team's breakdown). Without the event
    in the log (an old save) the history's bare numbers stand for the breakdown."""
    t: Translator = ctx.t
    me: int = ctx.seat
    event = _scored_event(obs, ctx.log)
    entry = obs["history"][-1]
    mine = _my_side(obs, event, me)
    theirs = "hyde" if mine == "jekyll" else "jekyll"
    if event is None:
        parts = [html('<ul class="handscore">{}</ul>', join(
            html('<li class="{}">{}</li>', team,
                 t("log.team_score", team=_team_label(team, t), p=entry["points"][team],
                   m=entry["multiplier"][team], s=entry["score"][team]))
            for team in (mine, theirs)))]
    else:
        partner = _partner(obs, event, me)
        labelled = None if ctx.spectator else _my_side_label(
            t("jh.team_of", team=_team_label(mine, t)), obs, partner, t)
        parts = [join(_team_breakdown(team, event["teams"][team],
                                      labelled if team == mine else None, t)
                      for team in (mine, theirs))]
    score = entry["score"]
    outcome = ("won" if score[mine] > score[theirs] else
               "lost" if score[mine] < score[theirs] else "draw")
    solo = "soloist" in entry
    ally = _partner(obs, event, me)
    voice = ("solo" if solo and mine == "hyde" else
             "allied" if ally is not None and outcome != "draw" else "hand")
    text = t(f"jh.sum.{voice}.{outcome}", mine=score[mine], theirs=score[theirs], partner=ally)
    if ctx.spectator and outcome != "draw":  # an example: nobody at the screen won
        won, lost = (mine, theirs) if outcome == "won" else (theirs, mine)
        text = t("jh.sum.team_won", team=_team_label(won, t), won=score[won], lost=score[lost])
    verdict = html('<p class="jh-outcome {outcome}">{text}</p>', outcome=outcome, text=text)
    if solo and event is not None:
        gained = ", ".join(
            t("jh.sum.gain", name=t("jh.sum.as_hyde", name=name) if name == event["soloist"]
              else name, n=n) for name, n in event["gained"].items())
        parts.append(html('<p class="jh-gained">{}</p>', t("jh.sum.gained", list=gained)))
    return verdict, join(parts)


def hand_summary(obs: Obs, ctx: TableContext) -> Html:
    """End-of-hand panel: who won the hand, (3 players) who is Mr. Hyde next, why
    each team scored what it did, the last trick, the sheet."""
    t: Translator = ctx.t
    h = obs["history"][-1]
    who = html("<p>{}</p>", t("score.soloist_was", name=h["soloist"])) if "soloist" in h \
        else EMPTY
    following = EMPTY
    if "soloist" in h and not obs["over"]:
        following = html('<p class="jh-next-soloist" role="status">{}</p>',
                         t("jh.sum.next_soloist_you") if obs["names"]["0"]
                         == obs["names"][str(ctx.seat)] and not ctx.spectator
                         else t("jh.sum.next_soloist", name=obs["names"]["0"]))
    verdict, breakdown = _hand_result(obs, ctx)
    return html('<h2>{}</h2>{}{}{}{}<h3>{}</h3>{}{}',
                t("jh.hand_over", n=len(obs["history"])), verdict, who, following, breakdown,
                t("menu.last"), last_trick(obs, ctx), score_sheet(obs, ctx))


def final_summary(obs: Obs, ctx: TableContext) -> Html:
    """End-of-game panel: the winner, whether the person won, the last hand explained."""
    t: Translator = ctx.t
    me: int = ctx.seat
    totals = ", ".join(t("jh.total_of", who=t("side." + k) if k in ("jekyll", "hyde") else k,
                         points=v) for k, v in obs["scores"].items())
    three = obs["options"].get("players") == 3
    mine = obs["names"][str(me)] if three else obs["teams"][str(me)]
    verdict = "" if ctx.spectator else t(f"jh.final.{'you' if three else 'team'}."
                                         f"{'won' if obs['winner'] == mine else 'lost'}")
    last = EMPTY
    if obs["history"]:
        last = html("<h3>{}</h3>{}{}", t("jh.hand_over", n=len(obs["history"])),
                    *_hand_result(obs, ctx))
    return html('<h2>{}</h2><p class="winner">{}</p><p class="jh-verdict">{}</p><p>{}</p>{}{}',
                t("jh.game_over"), t("log.over", who=_winner_text(obs["winner"], t)), verdict,
                totals, last, score_sheet(obs, ctx))


def hint_text(action: str, obs: dict[str, Any], ctx: TableContext) -> str:
    """The hint in words; the shell highlights the action's `data-act` itself."""
    t = ctx.t
    if action.startswith("@"):
        return t("hint.ask", name=shown(seat_name(obs, int(action[1:])), t))
    key = "hint.give" if obs.get("designated") == ctx.seat else "hint.play"
    return t(key, cards=card_name(action, t))


# The `Table` hooks this table leaves at their defaults (game.web.draw.tables.common).
attempt = no_attempt
confirm = never_confirm
parts = single
seat_word = seat_number


# -- motion, the panels' words, a live embed's seat ---------------------------------

def motion(events: Iterable[Event], me: Any) -> Plan:
    """A played card flies to its slot from the hand it left (a designated
    player plays for the designator: from its own hand), a won trick leaves
    later for its winner, a Transformation's cards stay in the carried row."""
    moves: list[Move] = []
    leaving: dict[str, str] = {}
    for ev in events:
        kind = ev["kind"]
        if kind == "played":
            src = ev["from"]
            origin = ".hand.mine" if src == me else f'[data-seat="{src}"]'
            moves.append(Move(ev["card"], f'[data-slot="{ev["seat"]}"]', origin, seat=True))
        elif kind == "trick_won":  # shown until the next lead, then off to its winner
            leaving = {c: f'[data-seat="{ev["winner"]}"]' for c in ev["taken"]}
        elif kind == "transformation":
            moves += [Move(c, ".carried", "[data-slot]") for c in ev["staying"]]
    return moves, leaving


def stats_mode(options: dict[str, Any], me: Any) -> str:
    """Players, seating and target: a score to 300 is no match for one to 1000.

    >>> stats_mode({"players": 4, "seating": "B", "target": 300}, 0)
    '4B-300'
    >>> stats_mode({"players": 3, "seating": "A", "target": 1000}, "Adam")
    '3-1000'
    """
    players = options.get("players", 4)
    seating = "" if players == 3 else str(options.get("seating", "A"))
    return f"{players}{seating}-{options.get('target', 1000)}"


def _mode(mode: str) -> tuple[str, str] | None:
    """(players and seating, target) of a statistics mode such as "4A-1000"."""
    shape, dash, target = mode.partition("-")
    if dash and shape in ("3", "4A", "4B") and target.isascii() and target.isdigit():
        return shape, target
    return None


def rated_options(mode: str) -> dict[str, Any] | None:
    """The players of a mode (the ratings do not tell seatings or targets apart).

    >>> rated_options("3-300"), rated_options("4B-1000"), rated_options("5C-10")
    ({'players': 3}, {'players': 4}, None)
    """
    found = _mode(mode)
    return {"players": int(found[0][0])} if found else None


def mode_text(t: Translator, mode: str) -> str:
    found = _mode(mode)
    if found is None or len(found[1]) > 9:
        return mode
    return t("stats.mode.jekyll-hyde." + found[0], target=found[1])


def player_name(identity: Any, t: Translator) -> str:
    """A seat by the name it has with four players, a three-player game's
    player by name."""
    return SEAT_NAMES[identity] if isinstance(identity, int) else str(identity)


def winner_text(winner: str, t: Translator) -> str:
    """A team's win with four players, a player's with three."""
    if winner in TEAMS:
        return t(f"file.team.{winner}")
    return t("file.won", name=player_name(winner, t))


def every_bot(level: str) -> dict[str, str]:
    """Each of the (at most four) seats' strength."""
    return {f"bot{i}": level for i in range(4)}


def seat_params(values: dict[str, str], pick: Pick) -> dict[str, str]:
    """The person's seat (`seat=0..`, among the players chosen)."""
    return {"me": pick("seat", tuple(str(i) for i in range(int(values["players"]))), "0")}
