"""The Dracula table renderer under CPython (no browser): whole games in every
language, hidden cards never shown, errors and log lines in words, markup
escaped by construction, a placement picked card first or cell first."""

from __future__ import annotations

import random
import re
import string
from functools import lru_cache
from html.parser import HTMLParser
import pytest

from game import GameError, new_game
from game.web.model.choice import Choice
from game.web.draw.html import Html
from game.web.draw.i18n import LANGUAGES, Translator, catalog
from game.web.draw.tables import TableContext, explain
from game.web.draw.tables import dracula as dr
from tests.strength import quick_first


def _fields(text: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(text) if f}


def test_every_language_has_every_text():
    en = {k: v for k, v in catalog("en").items() if k.startswith("dr.")}
    assert len(en) > 100
    for lang in LANGUAGES:
        cat = catalog(lang)
        for key, text in en.items():
            assert key in cat, (lang, key)
            assert _fields(cat[key]) == _fields(text), (lang, key)


class _Words(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []

    def handle_data(self, data: str) -> None:
        self.parts.append(data)

    def handle_starttag(self, tag, attrs) -> None:  # labels are read out too
        self.parts += [v for k, v in attrs if k in ("aria-label", "title") and v]


@lru_cache(maxsize=64)  # the score sheet and the last trick stay the same for many moves
def _emoji(text: str) -> list[str]:
    """Emoji in `text`: drawn as an empty box where no emoji font is installed
    (issue 31: the Vampire once was a bat emoji); the site draws its own symbols."""
    return [c for c in text if 0x1F000 <= ord(c) <= 0x1FAFF]


@lru_cache(maxsize=256)  # a whole game draws the same score sheet and last trick many times
def _text(html: str) -> str:
    p = _Words()
    p.feed(html)
    return " ".join(p.parts)


@pytest.mark.parametrize("lang", quick_first(["en", *(lang for lang in LANGUAGES if lang != "en")]))
def test_whole_games_render(lang):
    t = Translator(lang)
    for seed in (1, 2):
        state = new_game("dracula", {"first_dealer": seed % 2}, seed=seed)
        rng = random.Random(seed)
        ctx = TableContext(t=t, seat=0)
        log = state.events(0)  # as the shell logs: the engine's events, as player 0 sees them
        while not state.over:
            obs = state.observation(0)
            html = dr.render(obs, _picking(state, ctx, ()))
            assert 'class="dr-table' in html
            for card in state.to_json()["hands"]["1"]:  # the bot's hand stays hidden
                assert f'data-card="{card}"' not in html
            for part in (html, dr.score_sheet(obs, ctx), dr.last_trick(obs, ctx)):
                assert isinstance(part, Html)
                assert not _emoji(part), _emoji(part)  # titles and texts included
                words = _text(part)
                assert "dr." not in words and "{" not in words
            if obs["history"]:
                summary = dr.hand_summary(obs, ctx)
                assert isinstance(summary, Html) and "×" in _text(summary)
            if state.to_act == 0:
                for bad in ("@00", "@11", "QH@00", "V1@11", "way:Q", "nonsense"):
                    try:
                        state.apply(bad)
                    except GameError as e:
                        text = explain(dr, e, obs, ctx)
                        assert "legal" not in text and "player" not in text, (str(e), text)
            action = rng.choice(state.legal_actions())
            state = state.apply(action)
            log += state.events(0)
        obs = state.observation(0)
        assert isinstance(dr.final_summary(obs, ctx), Html)
        final = _text(dr.final_summary(obs, ctx))
        assert str(obs["scores"]["0"]) in final and str(obs["scores"]["1"]) in final
        for ev in log:
            line = dr.event_text(ev, ctx)
            assert line and "{" not in line and not line.startswith("dr."), ev


def _random_game_events(seed: int, seat: int) -> list[dict]:
    """Every event of a random game, as player `seat` sees them."""
    state = new_game("dracula", {"first_dealer": seed % 2}, seed=seed)
    rng = random.Random(seed)
    seen = state.events(seat)
    while not state.over:
        state = state.apply(rng.choice(state.legal_actions()))
        seen += state.events(seat)
    return seen


ENGINE_EVENT_KINDS = {"way_chosen", "dealt", "placed", "line_scored", "deal_scored",
                      "game_over"}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_event_of_whole_games_has_a_log_line(lang):
    ctx = {seat: TableContext(t=Translator(lang), seat=seat) for seat in (0, 1)}
    kinds: set[str] = set()
    ranks: set[int] = set()
    states: set[str] = set()
    for seed in range(12):
        seat = seed % 2
        for ev in _random_game_events(seed, seat):
            kinds.add(ev["kind"])
            ranks.add(ev.get("rank", 0))
            states.add(ev.get("state", ""))
            line = dr.event_text(ev, ctx[seat])
            assert line.strip() and "{" not in line and "dr." not in line, (lang, ev, line)
            assert not _emoji(line), line
    assert kinds == ENGINE_EVENT_KINDS
    assert {"full", "vampire"} <= states  # lines with and without a Vampire
    assert 1 in ranks  # the tie rule at work: the log says so


def test_log_lines_say_what_the_events_say():
    ctx = TableContext(t=Translator("en"), seat=0)
    line = {"kind": "line_scored", "player": 1, "way": "K", "line": 2, "state": "full",
            "cards": ["QH", "10H", "5H"], "values": [0, 10, 5], "sum": 15, "multiplier": 5,
            "value": 75}
    assert dr.event_text(line, ctx) == (
        "The bot's column 3 is full: Q♥ 10♥ 5♥ → 15, one suit ×5 = 75.")
    vampire = dict(line, player=0, state="vampire", cards=["QH", "V1", "5H"], value=0)
    assert dr.event_text(vampire, ctx) == "Your column 3 is full: Q♥ V 5♥ → a Vampire, 0."
    tied = {"kind": "deal_scored", "deal_number": 2, "rank": 1, "score": {"0": 40, "1": 20}}
    assert dr.event_text(tied, ctx) == ("Deal 3 over: you score 40, the bot 20. "
                                        "(Best lines equal: the second-best lines score.)")
    assert dr.event_text(tied, TableContext(t=ctx.t, seat=1)).startswith(
        "Deal 3 over: you score 20, the bot 40.")


def test_a_placement_tells_the_lines_it_left_open():
    """Heard, not only seen: a placement reads out its row and column as they stand."""
    ctx = TableContext(t=Translator("en"), seat=0)
    row = {"player": 0, "way": "Q", "line": 0, "state": "open", "cards": ["QH", None, "5H"],
           "values": [10, None, 5], "sum": 15, "multiplier": 2, "value": None}
    column = {"player": 1, "way": "K", "line": 2, "state": "vampire", "cards": [None, "V1", "5H"],
              "values": [None, 0, 5], "sum": 5, "multiplier": None, "value": 0}
    full = dict(column, state="full", cards=["QH", "10H", "5H"])
    placed = {"kind": "placed", "player": 1, "card": "5H", "cell": "02", "row": 0, "column": 2,
              "lines": [row, column]}
    assert dr.event_text(placed, ctx) == (
        "The bot places the 5 of hearts (" + ctx.t("dr.cell.02") + "). Your row 1: 15 so far. "
        "The bot's column 3 holds a Vampire: 0.")
    # A line filled up is told by its own line_scored event, not twice.
    assert dr.event_text(dict(placed, lines=[row, full]), ctx).endswith("Your row 1: 15 so far.")


def test_an_old_saves_log_entries_still_read():
    """Saves from before the engine had events hold the table's own entries."""
    ctx = TableContext(t=Translator("en"), seat=0)
    old = [{"k": "way", "p": 0, "way": "Q"}, {"k": "deal", "n": 1, "dealer": 0, "nail": "7H"},
           {"k": "place", "p": 1, "card": "QH", "cell": "01"},
           {"k": "scored", "n": 1, "score": [60, 45], "rank": 0},
           {"k": "over", "winner": "0", "scores": [300, 245], "bonus": [55, 0]}]
    assert [dr.event_text(e, ctx) for e in old] == [
        "You take the rows (the Queen's way); the bot scores the columns.",
        "Deal 1: you deal; the nail is the 7 of hearts.",
        "The bot places the Queen of hearts (" + ctx.t("dr.cell.01") + ").",
        "Deal 1 over: you score 60, the bot 45.",
        "Game over: you win, 300 to 245."]
    for odd in ({"k": "start", "first": 0}, {"k": "place"}, {"kind": "placed"},
                {"kind": "unheard_of"}, {}):
        assert dr.event_text(odd, ctx) == ""


def test_explain_names_the_problem():
    t = Translator("en")
    state = new_game("dracula", {"first_dealer": 1}, seed=5).apply("way:Q")
    ctx = TableContext(t=t, seat=0)
    obs = state.observation(0)
    card = obs["hand"][0]
    for action, words in ((f"{card}@00", "touches no card"), (f"{card}@11", "taken"),
                          ("@01", "not a move")):
        with pytest.raises(GameError) as e:
            state.apply(action)
        assert words in explain(dr, e.value, obs, ctx)


def test_deal_result_and_tie_rule():
    grid = [["QH", "10H", "5H"], ["2S", "V1", "KC"], ["AD", "3D", "KD"]]
    entry = {"grid": grid, "lines": {"0": [125, 0, 20], "1": [3, 0, 25]},
             "score": {"0": 125, "1": 25}}
    res = dr.deal_result(entry)
    assert res["rank"] == 0 and res["line"] == {0: 0, 1: 2}
    tied = {"grid": grid, "lines": {"0": [60, 40, 10], "1": [40, 60, 5]},
            "score": {"0": 10, "1": 5}}
    res = dr.deal_result(tied)
    assert res["rank"] == 2 and res["line"] == {0: 2, 1: 2} and res["equal"] == [60, 40]


def test_setup():
    t = Translator("fr")
    html = dr.setup_form(t, ["random", "easy", "heuristic"], {})
    assert isinstance(html, Html)
    assert 'name="first"' in html and 'name="dr_bot"' in html
    assert dr.parse_setup({"first": "bot"}, ["random"])["options"] == {"first_dealer": 1}
    setup = dr.parse_setup({"first": "me", "dr_bot": "nope"}, ["random", "heuristic"])
    assert setup == {"options": {"first_dealer": 0}, "me": 0, "bots": {"1": "heuristic"}}
    a = dr.parse_setup({"first": "random", "seed": "41"}, ["random"])
    assert a == dr.parse_setup({"first": "random", "seed": "41"}, ["random"])


def test_the_line_shown_as_scored_is_the_engines_score():
    from game.dracula.cards import deal_scores

    for seed in range(40):
        state = new_game("dracula", {"first_dealer": seed % 2}, seed=seed)
        rng = random.Random(seed)
        while not state.over:
            state = state.apply(rng.choice(state.legal_actions()))
        obs = state.observation(0)
        for entry in obs["history"]:
            res = dr.deal_result(entry)
            lines = entry["lines"]
            scored = tuple(lines[str(p)][res["line"][p]] for p in (0, 1))
            assert scored == deal_scores(lines["0"], lines["1"])
            ranked = [sorted(lines[p], reverse=True)[res["rank"]] for p in "01"]
            assert tuple(ranked) == scored


# -- a placement in two clicks, in either order ---------------------------------

def _picking(state, ctx: TableContext, picked: tuple[str, ...]) -> TableContext:
    """The context the shell hands the table while the person has picked `picked`."""
    if state.to_act != ctx.seat:
        return ctx
    choice = Choice(state.legal_actions(), dr.parts)
    return TableContext(t=ctx.t, seat=ctx.seat, picked=tuple(sorted(picked)),
                        offers=choice.offers(picked), complete=choice.complete(picked))


class _Buttons(HTMLParser):
    """Every <button>'s attributes, and the tag that opens each data-keys group."""

    def __init__(self) -> None:
        super().__init__()
        self.buttons: list[dict[str, str]] = []
        self.groups: list[dict[str, str]] = []

    def handle_starttag(self, tag, attrs) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "button":
            self.buttons.append(a)
        if "data-keys" in a:
            self.groups.append(a)


def _buttons(markup: str) -> _Buttons:
    p = _Buttons()
    p.feed(markup)
    return p


def _placing_state():
    state = new_game("dracula", {"first_dealer": 1}, seed=5).apply("way:Q")
    assert state.to_act == 0 and state.observation(0)["phase"] == "place"
    return state


def test_parts_of_every_action_make_it_back():
    state = new_game("dracula", {"first_dealer": 0}, seed=3)
    rng = random.Random(3)
    while not state.over:
        for action in state.legal_actions():
            got = dr.parts(action)
            assert "".join(sorted(got, key=lambda p: p.startswith("@"))) == action
            assert len(got) == (1 if action.startswith("way:") else 2)
        state = state.apply(rng.choice(state.legal_actions()))


def test_card_first_then_cell():
    state = _placing_state()
    base = TableContext(t=Translator("en"), seat=0)
    card = state.observation(0)["hand"][1]
    page = dr.render(state.observation(0), _picking(state, base, ()))
    found = _buttons(page)
    hand = [b for b in found.buttons if "dc-btn" in b["class"]]
    cells = [b for b in found.buttons if "cell" in b["class"].split()]
    # Nothing picked: every card and every cell the engine allows are offered.
    assert [b["data-part"] for b in hand] == state.observation(0)["hand"]
    assert all(b["aria-pressed"] == "false" for b in hand + cells)
    legal_cells = {a.split("@")[1] for a in state.legal_actions()}
    assert {b["data-cell"] for b in cells if "open" in b["class"]} == legal_cells
    assert [b["data-part"] for b in cells] == ["@" + c for c in dr.CELLS]
    assert [b["tabindex"] for b in cells].count("0") == 1
    assert {g.get("data-keys") for g in found.groups} == {"row", "grid"}
    assert [g.get("data-cols") for g in found.groups if g["data-keys"] == "grid"] == ["3"]
    assert "either order" in _text(page)

    page = dr.render(state.observation(0), _picking(state, base, (card,)))
    found = _buttons(page)
    chosen = [b for b in found.buttons if b.get("aria-pressed") == "true"]
    assert [(b["data-part"], b["class"]) for b in chosen] == [(card, "dc-btn sel")]
    assert 'class="dr-table card-picked"' in page
    assert "Place the " + dr.card_name(card, base.t) in _text(page)
    open_cells = {b["data-cell"] for b in found.buttons if "open" in b["class"].split()}
    assert open_cells == {a.split("@")[1] for a in state.legal_actions() if a.startswith(card)}


def test_cell_first_then_card():
    state = _placing_state()
    base = TableContext(t=Translator("en"), seat=0)
    cell = sorted(a.split("@")[1] for a in state.legal_actions())[-1]
    ctx = _picking(state, base, ("@" + cell,))
    assert ctx.complete is None and ctx.offers == set(state.observation(0)["hand"])
    page = dr.render(state.observation(0), ctx)
    found = _buttons(page)
    chosen = [b for b in found.buttons if b.get("aria-pressed") == "true"]
    assert [b["data-cell"] for b in chosen] == [cell] and "sel" in chosen[0]["class"].split()
    assert chosen[0]["tabindex"] == "0"  # the coffin's tab stop is the picked cell
    assert not [b for b in found.buttons if "open" in b["class"].split()]
    assert "card-picked" not in page
    # The prompt says what is missing: the card.
    assert "choose the card to place there" in _text(page)
    assert base.t(f"dr.cell.{cell}") in _text(page)


def test_nothing_to_pick_on_the_bots_turn():
    state = new_game("dracula", {"first_dealer": 0}, seed=5).apply("way:K")
    assert state.to_act == 1
    page = dr.render(state.observation(0), TableContext(t=Translator("en"), seat=0))
    found = _buttons(page)
    assert not [b for b in found.buttons if "open" in b["class"].split()]
    # A card clicked now is a one-click action the shell answers with "not your turn".
    assert all("data-act" in b for b in found.buttons if "dc-btn" in b["class"])


def test_no_inline_script_and_no_empty_commands():
    state = _placing_state()
    ctx = TableContext(t=Translator("en"), seat=0)
    obs = state.observation(0)
    rng = random.Random(2)
    while not state.over:
        state = state.apply(rng.choice(state.legal_actions()))
    done = state.observation(0)
    for markup in (dr.render(obs, _picking(state, ctx, ())), dr.final_summary(done, ctx),
                   dr.hand_summary(done, ctx), dr.last_trick(done, ctx)):
        for attr in ("onclick=", "onkeydown=", "onchange=", "onsubmit=", 'data-cmd=""',
                     "<script"):
            assert attr not in markup, attr


PAYLOAD = '<img src=x onerror=alert(1)>'


class _Hostile:
    """A translator whose every text (names, titles, labels) is an injection attempt."""

    lang = '"><script>alert(1)</script>'

    def __call__(self, key: str, **fields) -> str:
        return PAYLOAD + key

    def has(self, key: str) -> bool:
        return True


def test_every_text_and_save_value_comes_out_escaped():
    state = new_game("dracula", {"first_dealer": 0}, seed=9)
    rng = random.Random(9)
    ctx = TableContext(t=_Hostile(), seat=0)
    pieces = [dr.setup_form(ctx.t, ["random"], {"first": PAYLOAD, "dr_bot": PAYLOAD})]
    while True:
        obs = state.observation(0)
        # A tampered save: scores are strings here.
        obs["scores"] = {"0": PAYLOAD, "1": PAYLOAD}
        pieces += [dr.render(obs, _picking(state, ctx, ())), dr.score_sheet(obs, ctx),
                   dr.last_trick(obs, ctx)]
        if obs["history"]:
            pieces.append(dr.hand_summary(obs, ctx))
        if state.over:
            pieces.append(dr.final_summary(obs, ctx))
            break
        state = state.apply(rng.choice(state.legal_actions()))
    for piece in pieces:
        assert isinstance(piece, Html)
        assert "<img" not in piece and "<script" not in piece
    assert "&lt;img src=x onerror=alert(1)&gt;" in pieces[1]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_table_explains_every_mark_of_its_line_badges(lang):
    """The badges beside and under the coffin ("12 …", "12 ≥×2", "·", "24 12×2",
    a bat and 0) are explained on the table itself, in a key a phone can open
    (their titles need a hover; issue 31)."""
    t = Translator(lang)
    state = new_game("dracula", {"first_dealer": 1}, seed=3)
    rng = random.Random(3)
    ctx = TableContext(t=t, seat=0)
    marks: set[str] = set()
    while not state.over:
        obs = state.observation(0)
        markup = str(dr.render(obs, _picking(state, ctx, ())))
        if obs["ways"]:
            key = re.search(r'<details class="dr-key">(.*?)</details>', markup, re.S)
            assert key, "no key to the badges"
            text = _text(key.group(1))
            for badge in re.findall(r'<span class="lv [^"]*"[^>]*>(.*?)</span>', markup, re.S):
                small = re.search(r"<small>(.*?)</small>", badge)
                mark = small.group(1) if small else _text(badge)
                mark = re.sub(r"^\d+×\d$", "N×N", mark)  # a full line: "12×2"
                marks.add(mark)
                shape = {"N×N": "×"}.get(mark, mark)
                assert shape in text, (lang, mark, text)
        state = state.apply(rng.choice(state.legal_actions()))
    assert {"…", "≥×2", "·", "N×N", "0"} <= marks, marks


@pytest.mark.parametrize("seed", [3, 8])
def test_a_finished_deal_is_drawn_as_the_game_over_draws_the_last_one(seed):
    """`finished` (the table behind a deal's summary, issue 31) draws the deal
    just scored from the observation before its last placement: for the last
    deal its board (coffin, scored lines, key) and the empty hand are the ones
    the engine's own game-over observation draws."""
    state, rng = new_game("dracula", {"first_dealer": seed % 2}, seed=seed), random.Random(seed)
    while not state.over:
        before, state = state, state.apply(rng.choice(state.legal_actions()))
    ctx = TableContext(t=Translator("en"), seat=0)
    done = str(dr.finished(before.observation(0), state.observation(0), ctx))
    over = str(dr.render(state.observation(0), ctx))

    def board(markup: str) -> str:
        return markup.split('<div class="dr-board">')[1].split('<div class="prompt"')[0]

    assert board(done) == board(over)
    assert '<div class="dr-hand" role="group" aria-label="Your hand" data-keys="row"></div>' in done
    assert 'id="prompt">Deal 6 of 6 is over<' in done


# -- through the real controller (tests/page_kit.py) and front (tests/front_kit.py) --

def test_behind_the_deals_summary_the_full_coffin_lies_with_its_scored_lines_marked():
    """Issue 31, through the front: behind "Deal 1 of 6 is over" the coffin the
    deal ended with (nine cards, the two scored lines marked) and an empty
    hand; "Next deal" deals the next one."""
    from tests.front_kit import dealt
    from tests.page_kit import to_a_hands_summary

    ctrl, screen, thinking = dealt("dracula", 7, first="me")
    to_a_hands_summary(ctrl, thinking)
    doc = screen.doc
    assert doc.querySelector("#prompt").textContent == "Deal 1 of 6 is over"
    assert len(doc.querySelectorAll("#screen .dr-table .coffin .cell .dc")) == 9
    assert len(doc.querySelectorAll("#screen .dr-table .coffin .lv.scored")) == 2
    assert not doc.querySelectorAll("#screen .dr-hand .dc-btn"), "the next deal's cards"
    doc.dispatch("click", doc.querySelector("#next-hand"))
    assert not ctrl.session.waiting_for_ack and doc.querySelectorAll("#screen .dr-hand .dc-btn")


def test_the_game_over_explains_the_bonus_and_the_tie_rule():
    """A save (seed 68) whose bot's forced last card ends the game, its last
    deal decided by the tie rule, opened as a reload opens it: the summary
    says the game is over, how the bonus adds the difference, that the deal
    went to the third-best line, and sums six deals with the bonus."""
    from game.web.model import saves
    from tests.page_kit import make_page

    state, rng, actions = new_game("dracula", {"first_dealer": 0}, seed=68), random.Random(68), []
    while not state.apply(action := rng.choice(state.legal_actions())).over:
        actions.append(action)
        state = state.apply(action)
    assert state.to_act == 1 and len(state.legal_actions()) == 1
    data = state.to_json()
    save = {"game": "dracula", "setup": {"me": 0, "bots": {"1": "random"}},
            "transcript": {"game": "dracula", "options": data["options"], "seed": 68,
                           "actions": actions},
            "state": data, "log": [], "seen_hands": len(data["history"])}
    ctrl, screen, thinking = make_page({saves.key("dracula"): saves.dump(save),
                                        saves.CURRENT_KEY: "dracula"})
    ctrl.start(None)
    assert ctrl.session is not None and not ctrl.session.state.over
    assert thinking.run(), "the bot's last card was not asked for"
    assert ctrl.session.state.over and screen.last.body["toAct"] == "over"
    final = str(screen.last.dialog.body)
    text = re.sub(r"<[^>]+>", "", final)
    assert "Game over" in text
    assert "adds the difference" in text or "add the difference" in text
    assert "third-best" in text  # this deal went to the tie rule, said so:
    assert "so are the second-best" in text and "scores his third-best line" in text
    table = final.split('dr-scores"', 1)[1].split("</table>", 1)[0]
    assert table.split("<tbody", 1)[1].split("</tbody>", 1)[0].count("<tr") == 6
    assert "Final score" in text and "Bonus" in text
