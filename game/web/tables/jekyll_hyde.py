"""The Dr. Jekyll & Mr. Hyde table: observation -> HTML, actions -> words.

Pure Python (no browser import): the shell puts the HTML in the page and
sends `data-act` values of clicked elements to `state.apply`.
"""

from __future__ import annotations

import re
from html import escape
from typing import Any

from game.web.tables.common import bot_options, default_bot, select_field

GAME_ID = "jekyll-hyde"
# The rulebook's example names, seat 0..3 (4 players).
SEAT_NAMES = ("Doris", "Adam", "Betty", "Christian")
NAMES3 = ("Adam", "Betty", "Christian")
GHOST = "#ghost"
POSITIONS = ("bottom", "left", "top", "right")  # relative to the person at the screen
_ORDER = {c: i for i, c in enumerate(
    s + f for s in "JH" for f in ("T", "A", "B", "C", "D", "E", "F3", "F4", "F5", "F6", "F7",
                                  "1", "2", "3"))}
_ICON = {"T": "i-transform", "A": "i-person", "B": "i-person", "C": "i-person",
         "D": "i-person", "E": "i-person", "F": "i-house"}
_ACTION_ICON = {"J1": "i-heart", "J2": "i-tear", "J3": "i-broken", "H1": "i-bolt",
                "H2": "i-cane", "H3": "i-skull"}
SIDE_WORD = {"J": "jekyll", "H": "hyde", "jekyll": "jekyll", "hyde": "hyde"}


def points(card: str) -> int:
    f = card[1:]
    return int(f[1]) if f[0] == "F" else 1 if f in "ABCDE" else 0


# -- setup -------------------------------------------------------------------

def _mode(values: dict[str, str]) -> str:
    mode = values.get("mode", "4A")
    return mode if mode in ("4A", "4B", "3") else "4A"


def setup_form(t, bots: list[str], values: dict[str, str]) -> str:
    mode = _mode(values)
    first_bot = default_bot(bots)
    html = [select_field("mode", [("4A", t("jh.mode.4A")), ("4B", t("jh.mode.4B")),
                             ("3", t("jh.mode.3"))], mode, t("jh.players"))]
    if mode == "3":
        seats = [(str(i), t(f"jh.role.{i}", name=NAMES3[i])) for i in range(3)]
        me = values.get("me", "0")
        me = me if me in ("0", "1", "2") else "0"
        html.append(select_field("me", seats, me, t("setup.you")))
        others = [i for i in range(3) if str(i) != me]
        labels = [(i, NAMES3[i]) for i in others]
    else:
        sides = ("jekyll", "hyde", "jekyll", "hyde") if mode == "4A" else \
            ("jekyll", "jekyll", "hyde", "hyde")
        seats = [(str(i), t("jh.seat", name=SEAT_NAMES[i], team=t(f"side.{sides[i]}")))
                 for i in range(4)]
        me = values.get("me", "0")
        me = me if me in ("0", "1", "2", "3") else "0"
        html.append(select_field("me", seats, me, t("setup.you")))
        labels = [(i, SEAT_NAMES[i]) for i in range(4) if str(i) != me]
    bot_opts = bot_options(t, bots)
    for i, name in labels:
        key = f"bot{i}"
        html.append(select_field(key, bot_opts, values.get(key, first_bot),
                            t("setup.bot_for", name=name)))
    html.append(select_field("target", [(v, v) for v in ("1000", "500", "200", "100")],
                        values.get("target", "1000"), t("jh.target")))
    return "".join(html)


def parse_setup(values: dict[str, str], bots: list[str]) -> dict[str, Any]:
    mode = _mode(values)
    target = int(values.get("target") or 1000)
    first_bot = default_bot(bots)

    def bot(i: int) -> str:
        b = values.get(f"bot{i}", first_bot)
        return b if b in bots else first_bot

    if mode == "3":
        me_i = int(values.get("me", "0")) if values.get("me", "0") in ("0", "1", "2") else 0
        options = {"players": 3, "names": list(NAMES3), "target": target}
        return {"options": options, "me": NAMES3[me_i],
                "bots": {NAMES3[i]: bot(i) for i in range(3) if i != me_i}}
    me = int(values.get("me", "0")) if values.get("me", "0") in ("0", "1", "2", "3") else 0
    options = {"players": 4, "seating": mode[1], "dealer": 3, "target": target}
    return {"options": options, "me": me, "bots": {str(s): bot(s) for s in range(4) if s != me}}


def identity_key(state, player: int) -> str:
    return str(state.identity(player))


def seat_of(state, me) -> int:
    """The seat of the person at the screen in the current hand."""
    for seat in (0, 1, 3, 2):
        if str(state.identity(seat)) == str(me):
            return seat
    return 0


# -- names and words -----------------------------------------------------------

def seat_name(obs: dict, seat: int) -> str:
    """A seat's player name: fixed with 4 players, per hand with 3 (seat 2 = ghost)."""
    if obs["options"].get("players") == 3:
        return obs["names"].get(str(seat), "?")
    return SEAT_NAMES[seat]


def shown(name: str, t) -> str:
    return t("jh.ghost") if name == GHOST or name == "ghost" else name


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


def card_svg(card: str) -> str:
    f = card[1:]
    icon = _ACTION_ICON.get(card) or _ICON[f[0]]
    side_icon = "i-flask" if card[0] == "J" else "i-hat"
    idx = _index(card)
    size = 17 if len(idx) == 1 else 14
    return (f'<svg viewBox="0 0 60 56" aria-hidden="true" focusable="false">'
            f'<text x="5" y="18" class="ix" font-size="{size}">{idx}</text>'
            f'<use href="#{side_icon}" x="42" y="4" width="14" height="14" class="si"/>'
            f'<use href="#{icon}" x="16" y="21" width="28" height="28" class="ic"/>'
            + (f'<text x="55" y="54" class="pt" text-anchor="end" font-size="9">'
               f'{points(card)}</text>' if points(card) else "")
            + '</svg>')


def card_html(card: str, t, cls: str = "", act: bool = True, extra: str = "") -> str:
    name = escape(card_name(card, t))
    attrs = f' data-act="{card}"' if act else ""
    tag = "button" if act else "div"
    typ = ' type="button"' if act else ""
    return (f'<{tag}{typ} class="card {card[0]} {cls}" data-card="{card}"{attrs} '
            f'aria-label="{name}" title="{name}">{card_svg(card)}'
            f'<span class="nm">{name}</span>{extra}</{tag}>')


def back_html(side: str) -> str:
    icon = "i-flask" if side == "J" else "i-hat"
    return (f'<span class="back {side}"><svg viewBox="0 0 24 24" aria-hidden="true">'
            f'<use href="#{icon}"/></svg></span>')


def sort_cards(cards) -> list[str]:
    return sorted(cards, key=_ORDER.__getitem__)


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
    who = seat_name(obs, obs["turn"] if designated is None else designated)
    if designated is not None and obs["options"].get("players") == 3 and designated == 2:
        who = seat_name(obs, 0)
    return t("jh.prompt.wait", name=shown(who, t))


def _seat_html(obs: dict, seat: int, ctx) -> str:
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
        body = ""
        label = t("jh.you", name=name)
    elif three and seat == 2:
        ghost = sort_cards(obs["ghost"] or [])
        playable = set(legal) if obs["turn"] is not None else set()
        body = '<div class="ghost-hand">' + "".join(
            card_html(c, t, "mini playable" if c in playable else "mini",
                      act=(me == 0)) for c in ghost) + "</div>"
        label = name
    else:
        j, h = backs["J"], backs["H"]
        body = (f'<div class="backs" aria-label="{escape(t("jh.backs", j=j, h=h))}">'
                f'<span class="stack">{back_html("J") * j}</span><b>{j}</b>'
                f'<span class="stack">{back_html("H") * h}</span><b>{h}</b></div>')
        label = name
    side_icon = "i-flask" if team == "jekyll" else "i-hat"
    title = escape(t("jh.designate", name=name)) if "designatable" in cls else ""
    return (f'<div class="{" ".join(cls)}" data-seat="{seat}" data-act="@{seat}" '
            f'role="button" tabindex="0" title="{title}">'
            f'<div class="plate"><svg class="team" viewBox="0 0 24 24" aria-hidden="true">'
            f'<use href="#{side_icon}"/></svg><span class="who">{escape(label)}</span>'
            f'<span class="team-name">{escape(t("side." + team))}</span></div>{body}</div>')


def _from(obs: dict, src: int, t) -> str:
    if obs["options"].get("players") == 3 and src == 2:
        return t("jh.from_ghost")
    return t("jh.from", name=seat_name(obs, src))


def _played(obs: dict, plays: list[dict], ctx, winner: int | None = None) -> str:
    t, me = ctx.t, ctx.seat
    out = []
    for p in plays:
        seat, card, src = p["seat"], p["card"], p["from"]
        tag = ""
        if src != seat:
            tag = f'<span class="from">{escape(_from(obs, src, t))}</span>'
        cls = "played" + (" win" if winner == seat else "")
        out.append(f'<div class="slot p-{_pos(seat, me)}" data-slot="{seat}">'
                   f'{card_html(card, t, cls, act=False)}{tag}</div>')
    return "".join(out)


def render(obs: dict, ctx) -> str:
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
        centre.append(f'<div class="last">{_played(obs, last["plays"], ctx, last["winner"])}</div>')
        banner = _trick_result(obs, last, ctx)
    if obs["carried"]:
        carried = "".join(card_html(c, t, "tiny", act=False) for c in obs["carried"])
        centre.append(f'<div class="carried" title="{escape(t("jh.carried_help"))}">'
                      f'<span>{escape(t("jh.carried", n=len(obs["carried"])))}</span>'
                      f'<div class="row">{carried}</div></div>')
    if banner:
        centre.append(f'<div class="banner">{escape(banner)}</div>')
    seats = "".join(_seat_html(obs, s, ctx) for s in range(4))
    hand = sort_cards(obs["hand"])
    legal = set(obs["legal"])
    cards = "".join(card_html(c, t, "playable" if c in legal else "") for c in hand)
    info = t("jh.trick_no", n=min(len(obs["tricks"]) + 1, 7)) if not obs["over"] else ""
    hand_no = t("jh.hand_no", n=obs["hand_number"] + 1)
    status = f'<div class="tinfo">{escape(hand_no)} · {escape(info)}</div>'
    designated = "" if obs["designated"] is None else obs["designated"]
    turn = "" if obs["turn"] is None else obs["turn"]
    return (f'<div class="table jh {"p3" if three else "p4"}" data-me="{me}" '
            f'data-turn="{turn}" data-designated="{designated}">'
            f'{seats}<div class="centre">{status}{"".join(centre)}</div></div>'
            f'<div class="prompt" id="prompt">{escape(_prompt(obs, ctx))}</div>'
            f'<div class="hand mine" aria-label="{escape(t("jh.your_hand"))}">{cards}</div>')


def _trick_result(obs: dict, trick: dict, ctx, last_of_hand: bool = False) -> str:
    t = ctx.t
    if trick["winner"] is None:
        if last_of_hand or len(obs["tricks"]) >= 7:
            return t("jh.trick.nobody_last")
        return t("jh.trick.transformation")
    return t("jh.trick.won", name=shown(seat_name(obs, trick["winner"]), t))


def last_trick(obs: dict, ctx) -> str:
    """The last finished trick: of this hand, or else the last one of the previous hand."""
    t = ctx.t
    if obs["tricks"]:
        tr = obs["tricks"][-1]
    elif obs["history"]:
        tr = obs["history"][-1]["last_trick"]
    else:
        return f'<p>{escape(t("jh.no_trick_yet"))}</p>'
    plays = [(_name_at(obs, p["seat"]), p["card"], _name_at(obs, p["from"])) for p in tr["plays"]]
    result = _trick_result(obs, tr, ctx, last_of_hand=not obs["tricks"])
    rows = []
    for who, card, src in plays:
        extra = "" if src == who else " " + (t("jh.from_ghost") if src == GHOST
                                             else t("jh.from", name=src))
        rows.append(f'<li>{card_html(card, t, "mini", act=False)}'
                    f'<span>{escape(shown(who, t))}{escape(extra)}</span></li>')
    return (f'<ol class="lasttrick">{"".join(rows)}</ol>'
            f'<p class="result">{escape(result)}</p>')


# -- pacing ------------------------------------------------------------------

def who_decides(obs: dict, ctx) -> str:
    """The name of whoever must act now (the soloist decides for the ghost)."""
    seat = obs["turn"] if obs["designated"] is None else obs["designated"]
    if obs["options"].get("players") == 3 and seat == 2:
        seat = 0
    return shown(seat_name(obs, seat), ctx.t)


def thinking_seat(obs: dict) -> int | None:
    """The seat to mark as thinking while a bot decides."""
    return obs["turn"]


def pause_factor(obs: dict) -> float:
    """How much longer than usual a bot waits: more right after a trick."""
    trick = obs.get("trick") or {"plays": []}
    return 2.2 if not trick["plays"] and obs["tricks"] else 1.0


# -- log -----------------------------------------------------------------------

def _name_at(state_obs: dict, seat: int) -> str:
    if state_obs["options"].get("players") == 3 and seat == 2:
        return GHOST
    return seat_name(state_obs, seat)


def events(before, action: str, after, ctx) -> list[dict]:
    """Language-neutral log events for one action (names resolved now)."""
    b = before.observation(0 if before.to_act is None else before.to_act)
    out: list[dict] = []
    if action.startswith("@"):
        whom = int(action[1:])
        out.append({"k": "ask", "who": _name_at(b, b["turn"]), "whom": _name_at(b, whom),
                    "side": b["need"][0].upper()})
    else:
        three = b["options"].get("players") == 3
        if b["designated"] is not None:
            src = b["designated"]
        elif three and b["turn"] in (0, 2) and action[0] == "H":
            src = 0 if action in b["hand"] else 2  # the soloist decides for both
        else:
            src = b["turn"]
        ev = {"k": "play", "who": _name_at(b, b["turn"]), "card": action}
        if b["designated"] is not None:
            ev = {"k": "gave", "who": _name_at(b, src), "card": action}
        elif src != b["turn"]:
            ev["from"] = _name_at(b, src)
        out.append(ev)
        a = after.observation(0 if after.to_act is None else after.to_act)
        finished = len(a["history"]) > len(b["history"])
        if finished or len(a["tricks"]) > len(b["tricks"]):
            # The trick is complete: who took it (from the hand just ended, if so).
            if finished:
                winner_seat = _last_winner(b, action)
            else:
                winner_seat = a["tricks"][-1]["winner"]
            done = [(p["seat"], p["card"], p["from"])
                    for p in (b["trick"] or {"plays": []})["plays"]] + [(b["turn"], action, src)]
            cards = [c for _, c, _ in done]
            plays = [[_name_at(b, p), c, _name_at(b, f)] for p, c, f in done]
            if winner_seat is None:
                out.append({"k": "trick", "winner": None, "plays": plays,
                            "last": len(b["tricks"]) == 6})
            else:
                carried = b["carried"]
                out.append({"k": "trick", "winner": _name_at(b, winner_seat), "plays": plays,
                            "points": sum(points(c) for c in cards + list(carried))})
        if finished:
            h = a["history"][-1]
            ev = {"k": "hand", "points": h["points"], "multiplier": h["multiplier"],
                  "score": h["score"]}
            if "soloist" in h:
                ev["soloist"] = h["soloist"]
            out.append(ev)
            if a["over"]:
                out.append({"k": "over", "winner": a["winner"], "scores": a["scores"]})
            else:
                out.append({"k": "deal", "hand": a["hand_number"] + 1,
                            "leader": _name_at(a, a["turn"])})
    return out


def _last_winner(b: dict, action: str) -> int | None:
    """Winner of the trick `action` completes, from the observation before it."""
    from game.jekyll_hyde.cards import RANK

    plays = [(p["seat"], p["card"]) for p in b["trick"]["plays"]] + [(b["turn"], action)]
    if any(c[1] == "T" for _, c in plays):
        return None
    best, winner = -1, None
    for seat, card in plays:
        if RANK[card] > best:
            best, winner = RANK[card], seat
    return winner


def first_events(state, ctx) -> list[dict]:
    obs = state.observation(0)
    return [{"k": "deal", "hand": 1, "leader": _name_at(obs, obs["turn"])}]


def event_text(ev: dict, ctx) -> str:
    text = _event_text(ev, ctx)
    return text[:1].upper() + text[1:]


def _event_text(ev: dict, ctx) -> str:
    t = ctx.t
    k = ev.get("k")

    def n(key: str) -> str:
        return shown(ev.get(key, "?"), t)

    if k == "ask":
        text = t("log.ask", who=n("who"), whom=n("whom"), side=side_word(ev["side"], t))
        if ev.get("card"):
            text += " — " + t("log.gives", whom=n("whom"), card=card_name(ev["card"], t))
        return text
    if k == "play":
        if ev.get("from") == GHOST:
            return t("log.play_from_ghost", who=n("who"), card=card_name(ev["card"], t))
        if ev.get("from"):
            return t("log.play_from", who=n("who"), card=card_name(ev["card"], t),
                     src=n("from"))
        return t("log.play", who=n("who"), card=card_name(ev["card"], t))
    if k == "gave":
        return t("log.play", who=n("who"), card=card_name(ev["card"], t))
    if k == "trick":
        if ev["winner"] is None:
            return t("jh.trick.nobody_last" if ev.get("last") else "jh.trick.transformation")
        return t("log.trick", who=n("winner"), points=ev.get("points", 0))
    if k == "hand":
        parts = [t("log.team_score", team=t(f"side.{team}"), p=ev["points"][team],
                   m=ev["multiplier"][team], s=ev["score"][team]) for team in ("jekyll", "hyde")]
        return t("log.hand_over") + " " + "; ".join(parts)
    if k == "deal":
        return t("log.deal", n=ev["hand"], who=n("leader"))
    if k == "over":
        return t("log.over", who=_winner_text(ev["winner"], t))
    return str(ev)


def merge_event(log: list[dict], new: list[dict]) -> None:
    """Append `new`, folding a designated seat's card into its 'ask' line."""
    for ev in new:
        if ev["k"] == "gave" and log and log[-1].get("k") == "ask" and "card" not in log[-1]:
            log[-1]["card"] = ev["card"]
            continue
        log.append(ev)


def _winner_text(winner: str | None, t) -> str:
    if winner in ("jekyll", "hyde"):
        return t("jh.team_of", team=t(f"side.{winner}"))
    return winner or "?"


# -- errors ------------------------------------------------------------------

_ERRORS = (
    (re.compile(r"seat (\d) has no (Jekyll|Hyde) card"), "err.no_side"),
    (re.compile(r"seat (\d) needs a (Jekyll|Hyde) card and (\w+) is a"), "err.wrong_side"),
    (re.compile(r"(\w+) is not in seat (\d)'s hand"), "err.not_in_hand"),
    (re.compile(r"cannot designate itself"), "err.self"),
    (re.compile(r"soloist takes Hyde cards"), "err.soloist_direct"),
    (re.compile(r"seat (\d) was designated and must now give a (Jekyll|Hyde)"), "err.must_give"),
)


def explain(message: str, obs: dict, ctx) -> str:
    t = ctx.t
    for rx, key in _ERRORS:
        m = rx.search(message)
        if not m:
            continue
        g = m.groups()
        if key == "err.no_side":
            return t(key, name=shown(_name_at(obs, int(g[0])), t), side=side_word(g[1][0], t))
        if key == "err.wrong_side":
            return t(key, side=side_word(g[1][0], t), card=card_name(g[2], t))
        if key == "err.not_in_hand":
            return t(key, card=card_name(g[0], t))
        if key == "err.must_give":
            return t(key, name=shown(_name_at(obs, int(g[0])), t), side=side_word(g[1][0], t))
        return t(key)
    return message.split("; legal:")[0]


# -- scores ------------------------------------------------------------------

def score_sheet(obs: dict, ctx) -> str:
    t = ctx.t
    three = obs["options"].get("players") == 3
    rows = []
    if three:
        names = obs["options"]["names"]
        totals = {n: 0 for n in names}
        head = (f'<tr><th>#</th><th>{escape(t("score.soloist"))}</th>'
                f'<th>{escape(t("side.jekyll"))}</th><th>{escape(t("side.hyde"))}</th>'
                + "".join(f"<th>{escape(n)}</th>" for n in names) + "</tr>")
        for i, h in enumerate(obs["history"], 1):
            solo = h.get("soloist", "?")
            for n in names:
                totals[n] += h["score"]["hyde"] if n == solo else h["score"]["jekyll"]
            rows.append(f"<tr><td>{i}</td><td>{escape(solo)}</td>"
                        + _cell(h, "jekyll") + _cell(h, "hyde")
                        + "".join(f"<td class=total>{totals[n]}</td>" for n in names) + "</tr>")
    else:
        totals = {"jekyll": 0, "hyde": 0}
        head = (f'<tr><th>#</th><th>{escape(t("side.jekyll"))}</th>'
                f'<th>{escape(t("side.hyde"))}</th><th>Σ {escape(t("side.jekyll"))}</th>'
                f'<th>Σ {escape(t("side.hyde"))}</th></tr>')
        for i, h in enumerate(obs["history"], 1):
            for team in totals:
                totals[team] += h["score"][team]
            rows.append(f"<tr><td>{i}</td>" + _cell(h, "jekyll") + _cell(h, "hyde")
                        + f"<td class=total>{totals['jekyll']}</td>"
                        f"<td class=total>{totals['hyde']}</td></tr>")
    if not rows:
        rows.append(f'<tr><td colspan="6">{escape(t("score.none"))}</td></tr>')
    target = obs["options"].get("target", 1000)
    return (f'<table class="scores"><caption>{escape(t("score.caption", target=target))}'
            f'</caption><thead>{head}</thead><tbody>{"".join(rows)}</tbody></table>')


def _cell(h: dict, team: str) -> str:
    return (f'<td><span class="calc">{h["points"][team]} × {h["multiplier"][team]} = </span>'
            f'<b>{h["score"][team]}</b></td>')


def hand_summary(obs: dict, ctx) -> str:
    t = ctx.t
    h = obs["history"][-1]
    lines = "".join(
        f'<li class="{team}">{escape(t("log.team_score", team=t("side." + team), p=h["points"][team], m=h["multiplier"][team], s=h["score"][team]))}</li>'
        for team in ("jekyll", "hyde"))
    who = ""
    if "soloist" in h:
        who = f'<p>{escape(t("score.soloist_was", name=h["soloist"]))}</p>'
    return (f'<h2>{escape(t("jh.hand_over", n=len(obs["history"])))}</h2>{who}'
            f'<h3>{escape(t("menu.last"))}</h3>{last_trick(obs, ctx)}'
            f'<ul class="handscore">{lines}</ul>{score_sheet(obs, ctx)}')


def final_summary(obs: dict, ctx) -> str:
    t = ctx.t
    totals = ", ".join(f"{t('side.' + k) if k in ('jekyll', 'hyde') else k}: {v}"
                       for k, v in obs["scores"].items())
    return (f'<h2>{escape(t("jh.game_over"))}</h2>'
            f'<p class="winner">{escape(t("log.over", who=_winner_text(obs["winner"], t)))}</p>'
            f'<p>{escape(totals)}</p>{score_sheet(obs, ctx)}')
