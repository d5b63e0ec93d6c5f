"""The duel's table renderer under CPython: every piece of markup is `Html`, a
hostile text reaching it (a translation, a name) comes out escaped, and no
inline script is left for a strict Content-Security-Policy to block. Over
whole random games in every language it shows no hidden card and no
untranslated text and explains every refused move in words; the setup form
and the Potion obligation; the log, engine events in words."""

from __future__ import annotations

import random
import re

import pytest

from game import GameError, new_game
from game.jekyll_vs_hyde.cards import DECK
from game.jekyll_vs_hyde.rules import __doc__ as RULES_DOC
from game.web.model.choice import Choice
from game.web.draw.html import Html, html
from game.web.draw.i18n import LANGUAGES, Translator
from game.web.draw.tables import TableContext, explain
from game.web.draw.tables import jekyll_vs_hyde as jvh
from tests.strength import quick_first

PAYLOAD = '<img src=x onerror=alert(1)>"\''


class _HostileTranslator:
    """Every text is the payload followed by its key and values."""

    def __call__(self, key: str, **kw) -> str:
        return f"{PAYLOAD}{key}{sorted(kw.items())}"

    def has(self, key: str) -> bool:
        return True


def _positions(seed: int, variant: str):
    """(state, observing seat) at every step of a random whole game, for both seats."""
    state = new_game("jekyll-vs-hyde", {"variant": variant}, seed)
    rng = random.Random(seed)
    while True:
        for seat in jvh.ROLES:
            yield state, seat
        if state.over:
            return
        state = state.apply(rng.choice(state.legal_actions()))


def _markup(obs: dict, ctx) -> list:
    parts = [jvh.render(obs, ctx), jvh.score_sheet(obs, ctx), jvh.last_trick(obs, ctx)]
    if obs["history"]:
        parts.append(jvh.hand_summary(obs, ctx))
    if obs["over"]:
        parts.append(jvh.final_summary(obs, ctx))
    return parts


def test_every_markup_function_returns_html_and_escapes_its_texts():
    hostile = _HostileTranslator()
    for seed, variant in ((1, "standard"), (2, "return-match")):
        for state, seat in _positions(seed, variant):
            ctx = TableContext(t=hostile, seat=seat, thinking=state.to_act)
            for markup in _markup(state.observation(seat), ctx):
                assert isinstance(markup, Html)
                assert "<img" not in markup and "onerror=alert(1)>" not in markup
                assert "&lt;img src=x onerror=alert(1)&gt;&quot;&#x27;" in markup


def test_no_inline_script_anywhere():
    """Clicks are `data-act`/`data-part` for the shell: no handler attribute, no form."""
    t = Translator("en")
    for state, seat in _positions(3, "standard"):
        ctx = TableContext(t=t, seat=seat)
        for markup in _markup(state.observation(seat), ctx):
            assert not re.search(r"\son[a-z]+=|<script|<form|<input|javascript:", markup)


def test_setup_form_is_html_and_escapes_its_texts():
    form = jvh.setup_form(_HostileTranslator(), ["random", "heuristic"], {"jvh_role": PAYLOAD})
    assert isinstance(form, Html) and form.count('<select name="') == 3
    assert "<img" not in form and "&lt;img src=x" in form


def test_card_pieces_are_html():
    t = Translator("en")
    for card, big in (("P1", "1"), ("G7", "7"), ("3+", "3+")):
        button = jvh.card_html(card, t, click=html('data-act="{}"', card))
        picture = jvh.card_html(card, t, "mini")
        for piece in (jvh.card_svg(card), button, picture):
            assert isinstance(piece, Html) and f">{big}</text>" in piece
        assert button.startswith("<button") and f'data-act="{card}"' in button
        assert picture.startswith("<div") and "data-act" not in picture
    assert isinstance(jvh.token_html("R", t), Html)


# -- whole random games as the person sees them; the setup; the Potion obligation -

def _play_and_render(variant: str, seed: int, lang: str, me: str) -> list[dict]:
    t = Translator(lang)
    state = new_game("jekyll-vs-hyde", {"variant": variant}, seed)
    rng = random.Random(seed)
    log = state.events(state.seat_of(me))  # logged as the shell does
    while not state.over:
        seat = state.seat_of(me)
        ctx = TableContext(t=t, seat=seat, thinking=None, log=log)
        obs = state.observation(seat)
        table = jvh.render(obs, ctx)
        # Never a face of the other hand, the cards set aside or a pending choice.
        hidden = set(state.to_json()["hands"][jvh.other(seat)]) | set(state.to_json()["aside"])
        shown = set(re.findall(r'data-card="([^"]+)"', table))
        public = {c for tr in obs["played"] for c in (tr["lead"], tr["follow"])}
        public |= set(obs["trick"]["cards"]) | set(obs["exchange"]["gave"])
        public |= {c for s in obs["swaps"] for c in s["gave"]}
        assert not (shown & hidden) - public, (seat, shown & hidden)
        assert not re.search(r">[^<]*jvh\.[a-z]", table), "untranslated text"
        jvh.score_sheet(obs, ctx)
        jvh.last_trick(obs, ctx)
        if obs["history"]:
            jvh.hand_summary(obs, ctx)
        legal = state.legal_actions()
        pick = rng.choice(legal)
        if state.to_act == seat and (jvh.confirm(pick) or len(jvh.parts(pick)) > 1):
            _render_picks(obs, ctx, Choice(legal, jvh.parts), pick)
        if state.to_act == seat:  # every refusal is explained in words
            for bad in ["give:", "swap:", "P1", "4+", "P1:R", "give:P1,P2,P3,P4", *obs["hand"]]:
                if bad in legal:
                    continue
                with pytest.raises(GameError) as e:
                    state.apply(bad)
                text = explain(jvh, e.value, obs, ctx)
                assert "legal:" not in text and "(J)" not in text and "(H)" not in text, text
        action = rng.choice(legal)
        after = state.apply(action)
        log.extend(after.events(after.seat_of(me)))
        state = after
    seat = state.seat_of(me)
    ctx = TableContext(t=t, seat=seat, thinking=None, log=log)
    jvh.render(state.observation(seat), ctx)
    jvh.final_summary(state.observation(seat), ctx)
    for ev in log:
        text = jvh.event_text(ev, ctx)
        assert "{" not in text and "jvh." not in text, text
    return log


def _render_picks(obs: dict, ctx: TableContext, choice: Choice, action: str) -> None:
    """The table while the parts of `action` (several clicks) are picked one by one,
    as the shell reports them."""
    picked: list[str] = []
    steps = jvh.parts(action)  # the last one applies the action, unless it waits for confirm
    for part in steps if jvh.confirm(action) else steps[:-1]:
        picked.append(part)
        ctx.picked, ctx.offers = tuple(sorted(picked)), choice.offers(picked)
        ctx.complete = choice.complete(picked)
        table = jvh.render(obs, ctx)
        for p in picked:  # every picked part is shown pressed
            assert re.search(rf'data-part="{re.escape(p)}" aria-pressed="true"', table), (p, action)
        if jvh.confirm(action):
            assert f'<b class="jvh-count">{len(picked)}</b>' in table
            enabled = re.search(r'data-cmd="confirm">', table) is not None
            assert enabled == (ctx.complete == action), (picked, action)
        else:  # a Potion picked to lead: now its colours
            assert table.count('class="jvh-name c-') == 3, action
    ctx.picked, ctx.offers, ctx.complete = (), frozenset(), None


@pytest.mark.parametrize("lang", quick_first(["en", *(lang for lang in LANGUAGES if lang != "en")]))
def test_render_whole_games(lang):
    for seed, variant, me in ((1, "standard", "J"), (2, "standard", "H"),
                              (3, "return-match", "J"), (4, "return-match", "H")):
        log = _play_and_render(variant, seed, lang, me)
        assert log[-1]["kind"] == "game_over"


def test_setup_form_and_parse():
    t = Translator("en")
    bots = ["random", "easy", "heuristic", "strong"]
    form = jvh.setup_form(t, bots, {})
    for name in ("jvh_role", "variant", "jvh_bot"):
        assert f'name="{name}"' in form
    values = {"jvh_role": "H", "variant": "return-match", "jvh_bot": "random"}
    assert jvh.parse_setup(values, bots) == {
        "options": {"variant": "return-match"}, "me": "H", "bots": {"J": "random"}}
    setup = jvh.parse_setup({"jvh_role": "random", "variant": "?", "jvh_bot": "?"}, bots)
    assert setup["me"] in ("J", "H") and setup["options"] == {"variant": "standard"}
    assert setup["bots"] == {jvh.other(setup["me"]): "heuristic"}


def test_potion_obligation_is_explained():
    t = Translator("fr")
    state = new_game("jekyll-vs-hyde", None, 1)  # Jekyll was dealt two Potions
    obs = state.observation("J")
    ctx = TableContext(t=t, seat="J", thinking=None, log=[])
    colour_card = next(c for c in obs["hand"] if not c.endswith("+"))
    with pytest.raises(GameError) as e:
        state.apply(f"give:{colour_card}")
    assert explain(jvh, e.value, obs, ctx).startswith("Vous avez reçu 2 Potions")
    assert "jvh-oblige" in jvh.render(obs, ctx)


# -- the log: engine events in words ----------------------------------------------

# Every event kind the engine documents (the table in game.jekyll_vs_hyde.rules).
KINDS = set(re.findall(r"^\| `([a-z_]+)` \|", RULES_DOC, re.M))


def _logged_game(seed: int, variant: str, me: str) -> tuple[list[dict], list]:
    """A random whole game logged as the shell logs it, and its final state."""
    state = new_game("jekyll-vs-hyde", {"variant": variant}, seed)
    rng = random.Random(seed)
    log = state.events(state.seat_of(me))
    while not state.over:
        state = state.apply(rng.choice(state.legal_actions()))
        log.extend(state.events(state.seat_of(me)))
    return log, state


def _games():
    for seed in range(1, 7):
        for variant in ("standard", "return-match"):
            yield (*_logged_game(seed, variant, "JH"[seed % 2]), "JH"[seed % 2])


GAMES = list(_games())


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_event_kind_gives_a_line_in_every_language(lang):
    t = Translator(lang)
    seen = set()
    for log, state, me in GAMES:
        ctx = TableContext(t=t, seat=state.seat_of(me), log=log)
        for ev in log:
            text = jvh.event_text(ev, ctx)
            assert text and "{" not in text and "jvh." not in text, (ev, text)
            assert text[0] == text[0].upper(), text
            seen.add(ev["kind"])
    assert KINDS == seen, f"kinds never met: {sorted(KINDS - seen)}"


def test_a_hidden_choice_names_only_the_players_own_cards():
    t = Translator("en")
    names = {jvh.card_name(c, t) for c in DECK}
    for log, state, me in GAMES:
        ctx = TableContext(t=t, seat=state.seat_of(me), log=log)
        for ev in log:
            if ev["kind"] != "chose":
                continue
            text = jvh.event_text(ev, ctx)
            shown = {n for n in names if n in text}
            if "cards" in ev:  # the person's own choice
                assert shown == {jvh.card_name(c, t) for c in ev["cards"]}, text
            else:  # the opponent's: how many, never which
                assert not shown, text


@pytest.mark.parametrize("lang, one, several", [
    ("en", "the card to", "the cards to"), ("de", "die Karte zum", "die Karten zum"),
    ("fr", "la carte à", "les cartes à"), ("it", "la carta da", "le carte da")])
def test_the_opponents_choice_of_one_card_is_told_in_the_singular(lang, one, several):
    """Issue 55: "Hyde has chosen the cards to give." for the one card of round 1."""
    t = Translator(lang)
    counts = set()
    for log, state, me in GAMES:
        ctx = TableContext(t=t, seat=state.seat_of(me), log=log)
        for ev in log:
            if ev["kind"] == "chose" and "cards" not in ev:
                text = jvh.event_text(ev, ctx)
                assert (one if ev["count"] == 1 else several) in text, (ev, text)
                counts.add(ev["count"])
    assert 1 in counts and len(counts) > 1


def test_an_exchange_is_told_from_the_role_played_then():
    """In a return match the roles swap: a first-game exchange read during the
    second game still says what the person gave and got then."""
    t = Translator("en")
    me = "J"
    log, state = _logged_game(3, "return-match", me)
    assert state.legs and len(state.legs) == 2
    ctx = TableContext(t=t, seat=state.seat_of(me), log=log)  # Hyde now
    role = None
    checked = 0
    for ev in log:
        if ev["kind"] == "dealt":
            role = next(iter(ev["hands"]))
        if ev["kind"] == "exchange" and ev["phase"] == "give":
            gave = ", ".join(jvh.card_name(c, t) for c in ev[role])
            got = ", ".join(jvh.card_name(c, t) for c in ev[jvh.other(role)])
            assert jvh.event_text(ev, ctx) == f"Exchange: you gave {gave} and received {got}."
            checked += 1
    assert role == "H" and checked >= 2


def test_old_or_odd_log_entries_give_no_line():
    ctx = TableContext(t=Translator("en"), seat="J", log=[])
    for ev in ({"k": "play", "who": "J", "card": "R5", "named": None}, {"k": "round"},
               {"kind": "no such kind"}, {}):
        assert jvh.event_text(ev, ctx) == ""



@pytest.mark.parametrize("variant", ["standard", "return-match"])
@pytest.mark.parametrize("seed", [21, 4, 7])
def test_the_log_names_who_played_each_card_as_the_engine_recorded_it(seed, variant):
    """Whole games logged as the page logs them (`handover.log_events` after
    each action, the person being lasting player "J"): the log's line for every
    card played names the role the engine had on turn for it (issue 31: the
    last card of a round was reported as the other player's)."""
    from game.bots import make_bot
    from game.web.model import handover

    setup = {"me": "J", "bots": {"H": "heuristic"}}
    state = new_game("jekyll-vs-hyde", {"variant": variant}, seed)
    bots = {"J": make_bot("jekyll-vs-hyde", "easy"), "H": make_bot("jekyll-vs-hyde", "heuristic")}
    rng = random.Random(seed)
    log = handover.log_events(state, setup)
    t = Translator("en")
    expected = []  # the line for each card, from who the engine had on turn
    while not state.over:
        role = state.to_act
        action = bots[state.identity(role)].choose(state.observation(role),
                                                   state.legal_actions(), rng)
        if not action.startswith(("give:", "swap:")):
            card, _, named = action.partition(":")
            name = jvh.card_name(card, t)
            expected.append(t("jvh.log.lead_potion", role=jvh.role_name(role, t), card=name,
                              colour=jvh.colour_name(named, t)) if named
                            else t("jvh.log.play", role=jvh.role_name(role, t), card=name))
        state = state.apply(action)
        log.extend(handover.log_events(state, setup))
    ctx = TableContext(t=t, seat=handover.seat(state, "J"), log=log)
    said = [jvh.event_text(ev, ctx) for ev in log if ev.get("kind") == "played"]
    assert said == expected


def _card_line(role: str, action: str, t: Translator) -> str:
    """The log line of a card played by `role`, from the action alone (not the events)."""
    card, _, named = action.partition(":")
    name = jvh.card_name(card, t)
    if named:
        return t("jvh.log.lead_potion", role=jvh.role_name(role, t), card=name,
                 colour=jvh.colour_name(named, t))
    return t("jvh.log.play", role=jvh.role_name(role, t), card=name)


@pytest.mark.parametrize("lang", quick_first(["en", *(lang for lang in LANGUAGES if lang != "en")]))
@pytest.mark.parametrize("values", [
    {"jvh_role": "J", "variant": "standard", "jvh_bot": "heuristic"},
    {"jvh_role": "H", "variant": "return-match", "jvh_bot": "heuristic"},
    {"jvh_role": "J", "variant": "standard", "jvh_bot": "person", "jvh_name": "Ann",
     "jvh_name_other": "Bob"},
], ids=["jekyll-vs-bot", "hyde-return-match", "pass-and-play"])
def test_the_pages_log_names_each_cards_player_through_undo_handover_and_round_ends(
        values, lang):
    """Issue 31 item 3 ("39. Hyde plays the Potion 5+." for Jekyll's last card of
    round 1, deal 21): whole duels through the page's own reducer (the person's
    moves, the bot's, hand-overs, an Undo just before each round's last card,
    the round summaries), in every language. After every step the log the page
    draws names, for every card, the role the engine had on turn for it (known
    from the transcript, not from the events); it is the log a reload or a
    continued file rebuilds from the transcript; and at each round's end its
    last two card lines are the last trick's panel."""
    from game.bots import levels, make_bot
    from game.web.model import handover
    from game.web.model.replay import replay_states
    from game.web.model.session import (AckHand, Act, BotMoved, HeldDue, PlayHeld, Session,
                                  TakeOver, Undo, reduce)
    from game.web.draw.tables import event_lines
    from game.web.draw.views import message_text

    t = Translator(lang)
    parsed = jvh.parse_setup(values, list(levels("jekyll-vs-hyde")))
    state = new_game("jekyll-vs-hyde", parsed["options"], 21)
    setup = {"me": parsed["me"], "bots": parsed["bots"]}
    if parsed.get("people"):
        setup["people"] = parsed["people"]
    session = Session.start(jvh, state, {
        "game": "jekyll-vs-hyde", "setup": setup, "seen_hands": 0,
        "transcript": {"game": "jekyll-vs-hyde", "options": state.to_json()["options"],
                       "seed": 21, "actions": []},
        "log": handover.log_events(state, setup)})
    bots = {who: make_bot("jekyll-vs-hyde", level) for who, level in setup["bots"].items()}
    rng = random.Random(lang)
    undone: set[tuple[int, int]] = set()  # (leg, round) where the last card was taken back
    summaries = undos = 0
    for _ in range(400):
        if session.state.over:
            break
        state = session.state
        if session.waiting_for_ack:
            session, _ = reduce(session, AckHand())
        elif session.handover_due is not None:
            session, _ = reduce(session, TakeOver())
        elif session.ahead:  # the exchange or a swap: chosen before the engine asks
            session, _ = reduce(session, Act(rng.choice(session.ahead)))
            assert session.held is not None
        elif not session.human_to_act:
            bot = bots[str(state.identity(state.to_act))]
            action = bot.choose(state.observation(state.to_act), state.legal_actions(), rng)
            session, effects = reduce(session, BotMoved(session.token, action))
            if PlayHeld() in effects:  # as the controller does: the held choice goes now
                session, _ = reduce(session, HeldDue())
        else:
            obs = session.observation
            when = (obs["leg"], obs["round"])
            if obs["phase"] == "play" and len(obs["hand"]) == 1 and when not in undone \
                    and session.can_undo:
                undone.add(when)
                session, _ = reduce(session, Undo())
                assert message_text(session, t) == t("undo.done")
                undos += 1
            else:  # the Potions last, like the tester's 5+ kept to the end
                legal = state.legal_actions()
                plain = [a for a in legal if "+" not in a]
                session, effects = reduce(session, Act(rng.choice(plain or legal)))
                if PlayHeld() in effects:
                    session, _ = reduce(session, HeldDue())

        ctx = session.context(t)
        drawn = event_lines(jvh, ctx.log, ctx)  # the side panel's lines
        transcript = session.save["transcript"]
        states = replay_states(transcript)
        expected = [_cap_line(_card_line(before.to_act, action, t))
                    for before, action in zip(states, transcript["actions"])
                    if not action.startswith(("give:", "swap:"))]
        said = [jvh.event_text(ev, ctx) for ev in ctx.log if ev.get("kind") == "played"]
        assert said == expected
        assert all(line in drawn for line in said)
        rebuilt = [ev for s in states for ev in handover.log_events(s, setup)]
        whole = handover.seen_by(rebuilt, session.at_screen)
        assert handover.seen_by(session.save["log"], session.at_screen) == whole
        if session.waiting_for_ack:  # the log stops before the next round's deal
            assert ctx.log == whole[:len(ctx.log)] and whole[len(ctx.log)]["kind"] == "dealt"
        else:
            assert ctx.log == whole
        if session.waiting_for_ack or session.state.over:  # the round's summary is open
            last = session.observation["history"][-1]["tricks_played"][-1]
            assert said[-2:] == [
                _cap_line(_card_line(last["leader"], last["lead"] + (
                    f":{last['named']}" if last["named"] else ""), t)),
                _cap_line(_card_line(jvh.other(last["leader"]), last["follow"], t))]
            summaries += 1
    assert session.state.over
    assert summaries == len(session.observation["history"])  # every round's end checked
    assert undos >= 1 or "people" in setup


def _cap_line(text: str) -> str:
    return text[:1].upper() + text[1:]


@pytest.mark.parametrize("lang, one, many", [("en", "Give this card", "Give these {} cards"),
                                             ("fr", "Donner cette carte", "Donner ces {} cartes")])
def test_the_give_button_says_how_many_cards_it_gives(lang, one, many):
    """Round 1 gives one card, rounds 2 and 3 give two and three: the button says so."""
    t = Translator(lang)
    said = {}
    for state, seat in _positions(3, "standard"):
        obs = state.observation(seat)
        if obs["phase"] == "give" and obs["to_act"] == seat:
            button = re.search(r'id="jvh-confirm"[^>]*>([^<]*)<',
                               jvh.render(obs, TableContext(t=t, seat=seat)))
            said[obs["give_count"]] = button.group(1)
    assert said[1] == one and said[2] == many.format(2), said


@pytest.mark.parametrize("lang, stays, moves", [("en", "the marker stays on 3.", "moves by"),
                                                ("fr", "le marqueur reste sur la case 3.", "avance de")])
def test_a_marker_that_does_not_move_is_said_to_stay(lang, stays, moves):
    """An even round (5 tricks each) leaves the marker where it is: the log and
    the round's summary say so, not "the marker moves by 0, to 3"."""
    t = Translator(lang)
    log, state, me = GAMES[0]
    scored = next(ev for ev in log if ev["kind"] == "round_scored")
    even = {**scored, "tricks": {"J": 5, "H": 5}, "moved": 0, "marker": 3}
    ctx = TableContext(t=t, seat=state.seat_of(me), log=log)
    line = jvh.event_text(even, ctx)
    assert line.endswith(stays) and moves not in line, line
    assert moves in jvh.event_text({**even, "moved": 2, "marker": 5}, ctx)
    obs = state.observation(state.seat_of(me))
    obs["history"][-1].update(moved=0, marker=3)
    summary = jvh.final_summary(obs, ctx)
    assert stays[0].upper() + stays[1:] in summary and f"{moves} 0" not in summary, summary


def test_the_tracks_preview_says_an_even_round_would_not_move_the_marker():
    t = Translator("en")
    state, seat = next((s, seat) for s, seat in _positions(2, "standard")
                       if s.observation(seat)["phase"] == "play")
    obs = state.observation(seat)
    assert obs["tricks"] == {"J": 0, "H": 0}
    table = jvh.render(obs, TableContext(t=t, seat=seat))
    label = re.search(r'class="jvh-track" role="img" aria-label="([^"]*)"', table).group(1)
    assert "this round would not move it." in label and "by 0" not in label, label


@pytest.mark.parametrize("variant", ["standard", "return-match"])
def test_a_finished_round_is_drawn_as_the_game_over_draws_the_last_one(variant):
    """`finished` (the table behind a round's summary, issue 31) draws the
    round just scored from the observation before its last card: for the last
    round it is the table the engine's own game-over observation draws, but
    for the prompt ("Round n is over"), the role's aim under it and the last
    trick's number ("trick 10 of 10"): the game is not over."""
    state, rng = new_game("jekyll-vs-hyde", {"variant": variant}, seed=2), random.Random(2)
    while not state.over:
        before, state = state, state.apply(rng.choice(state.legal_actions()))
    me = "J"
    ctx = TableContext(t=Translator("en"), seat=me)
    done = str(jvh.finished(before.observation(me), state.observation(me), ctx))
    over = str(jvh.render(state.observation(me), ctx))
    n = state.observation(me)["history"][-1]["round"]
    assert f'id="prompt">Round {n} is over<' in done
    words = (r'<div class="(prompt|jvh-aim)"[^>]*>[^<]*</div>|data-to-act="[a-z]*"'
             r'| · trick \d+ of \d+')
    assert re.sub(words, "", done) == re.sub(words, "", over)


@pytest.mark.parametrize("lang, given, said", [
    ("it", 1, "(ne hai scelta 1)"), ("it", 2, "(ne hai scelte 2)"),
    ("en", 1, "(you chose 1)"), ("fr", 2, "(vous en avez choisi 2)"), ("de", 1, "(du hast 1 gewählt)")])
def test_the_count_chosen_in_an_exchange_agrees_on_its_own(lang, given, said):
    """Issue 31: Italian "(ne hai scelte 1)": the count chosen takes its own
    singular or plural, apart from the count asked for."""
    ctx = TableContext(t=Translator(lang), seat="J", thinking=None, log=[])
    for code, count in (("wrong_give_count", 2), ("wrong_swap_count", 1)):
        text = jvh.error_text(code, {"count": count, "given": given}, {}, ctx)
        assert text is not None and text.endswith(said + "."), text
