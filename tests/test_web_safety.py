"""Nothing from a save, a transcript or a URL reaches the page as markup.

Under CPython: the rendering helper, the rule that every markup is built with
it, and every table rendered from saves whose string fields each hold a
script payload; saves damaged in twelve ways, refused, kept and offered
for download; deal numbers that are no number; the policy in every built
page.  The browser side (the payload never runs, the policy blocks
inline script) is in tests/browser/test_security.py.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any, Iterator

import pytest

from game.core.transcript import Transcript
from game.web.model import saves
from game.web.draw import frames
from game.web.draw.html import Html, html
from game.web.draw.i18n import Translator
from game.web.model.inputs import BadNumber, read_int
from game.web.draw.tables import TableContext, renderer
from tests.page_kit import random_save, random_transcript
from tests.strength import quick_first

WEB = Path(__file__).resolve().parent.parent / "game" / "web"
PAYLOAD = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>'
# Each game and mode, with the `me` the start screen would save.
SETUPS = [
    ("jekyll-hyde", {"players": 4, "seating": "A"}, 0),
    ("jekyll-hyde", {"players": 3}, "Doris"),
    ("jekyll-vs-hyde", {}, "J"),
    ("dracula", {}, 0),
]


def test_a_frame_refuses_plain_strings():
    assert frames.markup(html("<b>{}</b>", PAYLOAD)).startswith("<b>&lt;img")
    with pytest.raises(TypeError):
        frames.markup("<b>x</b>")  # type: ignore[arg-type]


def test_markup_is_built_only_through_the_helper():
    """No call site can forget to escape: no f-string or concatenation builds a
    tag, nothing but game/web/draw/html.py writes innerHTML or makes Html — and
    game/web/front/markup.py, the front's write of a frame's markup, which
    game/web/draw/frames.py makes only of Html."""
    offenders = []
    for path in sorted(WEB.rglob("*.py")):
        if path.name == "html.py" or path.relative_to(WEB).as_posix() == "front/markup.py":
            continue
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            where = f"{path.relative_to(WEB)}:{n}: {line.strip()}"
            if re.search(r"""\bf['"]\s*<""", line) or re.search(r"""\bf['"][^'"]*<[a-z/]""", line):
                offenders.append(where)
            if ".innerHTML" in line or ".outerHTML" in line or "insertAdjacentHTML" in line:
                offenders.append(where)
            if re.search(r"\bHtml\(", line):
                offenders.append(where)
            if re.search(r"""\bon[a-z]+=["'{]""", line):  # an inline handler (not online=)
                offenders.append(where)
    assert not offenders, "markup built by hand:\n" + "\n".join(offenders)


@pytest.mark.parametrize("text", ["²", "٣", "1_000", "-1", "+1", "1e3", "0x10", "9" * 4301, "", " "])
def test_numbers_from_outside_are_ascii_digits_only(text):
    with pytest.raises(BadNumber):
        read_int(text, "seed")


def _play(game: str, options: dict, me: Any, steps: int) -> dict[str, Any]:
    """A save as the shell writes it, after `steps` random actions."""
    transcript = random_transcript(game, 11, steps, options=options, choices=random.Random(3))
    states = Transcript.from_json(transcript).states()
    # the engine's events of each position, logged as the shell does
    log = [event for state in states for event in state.events(state.seat_of(me))]
    return {"format": saves.FORMAT, "version": saves.VERSION, "game": game,
            "setup": {"me": me, "bots": {}}, "transcript": transcript,
            "state": states[-1].to_json(), "log": log,
            "seen_hands": len(states[-1].to_json()["history"])}


def _string_paths(data: Any, path: tuple = ()) -> Iterator[tuple]:
    if isinstance(data, str):
        yield path
    elif isinstance(data, dict):
        for k, v in data.items():
            yield path + (("key", k),)  # the key itself may be a string we show
            yield from _string_paths(v, path + (k,))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            yield from _string_paths(v, path + (i,))


def _text_with_payload(data: Any, path: tuple) -> str:
    """`data` as JSON text with the string at `path` (or the key) replaced by the
    payload. Changed in place for the dump, then put back: no copy of the save per path."""
    *parents, last = path
    node = data
    for p in parents:
        node = node[p]
    if isinstance(last, tuple):  # replace a key
        kept = dict(node)
        node[PAYLOAD] = node.pop(last[1])
        text = json.dumps(data)
        node.clear()
        node.update(kept)
    else:
        kept = node[last]
        node[last] = PAYLOAD
        text = json.dumps(data)
        node[last] = kept
    return text


def _render_everything(data: dict, state) -> list[Any]:
    """What the shell draws from a save: the table, the side panels and summaries."""
    table = renderer(data["game"])
    seat = state.seat_of(data["setup"]["me"])  # as the shell: the first seat if `me` sits nowhere
    ctx = TableContext(t=Translator("en"), seat=state.players[0] if seat is None else seat,
                       log=data["log"])
    obs = state.observation(ctx.seat)
    out = [table.render(obs, ctx), table.score_sheet(obs, ctx), table.last_trick(obs, ctx)]
    if state.over:
        out.append(table.final_summary(obs, ctx))
    elif obs.get("history"):
        out.append(table.hand_summary(obs, ctx))
    return out


@pytest.mark.parametrize("game,options,me", SETUPS, ids=lambda x: str(x))
@pytest.mark.parametrize("steps", quick_first([9, 400]))
def test_every_string_of_a_save_is_escaped_or_refused(game, options, me, steps):
    save = json.loads(json.dumps(_play(game, options, me, steps)))  # no part shared twice
    # Every field, once: list positions of the same kind (the 3rd card of a hand,
    # the 200th action) are one field, so the first of each stands for the rest.
    shapes: dict[tuple, tuple] = {}
    for path in _string_paths(save):
        shapes.setdefault(tuple("#" if type(k) is int else k for k in path), path)
    paths = list(shapes.values())
    assert len(paths) > 20
    loaded = 0
    for path in paths:
        text = _text_with_payload(save, path)
        try:
            data, state = saves.load(text)
        except saves.BrokenSave:
            continue  # refused with a reason (the shell shows it escaped, as text)
        loaded += 1
        for markup in _render_everything(data, state):
            assert isinstance(markup, Html), (path, type(markup))
            assert "<img" not in markup and "<script" not in markup, path
    # Some payloads must have reached the renderers, or this tested nothing.
    assert loaded > 0


@pytest.mark.parametrize("version", [1, saves.VERSION])
@pytest.mark.parametrize("level", [["strong"], {"a": 1}, None, 3, "cheater"])
def test_a_save_whose_bot_is_no_level_is_refused(level, version):
    save = _play("dracula", {}, 0, 3)
    save["setup"]["bots"] = {"1": level}
    save["version"] = version
    with pytest.raises(saves.BrokenSave, match="known bots"):
        saves.load(json.dumps(save))


@pytest.mark.parametrize("game, before, now", [
    ("dracula", "heuristic", "strong"), ("dracula", "strong", "expert"),
    ("dracula", "expert", "expert"), ("dracula", "easy", "easy"),
    ("jekyll-hyde", "heuristic", "heuristic"), ("jekyll-vs-hyde", "strong", "strong"),
])
def test_a_version_1_save_goes_on_against_the_bot_it_began_with(game, before, now):
    """Version 2 moved Dracula's levels one bot up the ladder: an old save's
    level is moved to the one that plays its bot now, once (written back as
    version 2, it is not moved again)."""
    from game.bots import levels

    save = _play(game, {}, 0, 3)
    seat = "1" if game != "jekyll-vs-hyde" else "J"
    save["setup"]["bots"] = {seat: before}
    save["version"] = 1
    data, _ = saves.load(json.dumps(save))
    assert data["setup"]["bots"] == {seat: now}
    if game == "dracula" and before != "easy":  # the bot it played then, by its id
        assert levels(game)[now] == {"heuristic": "heuristic", "strong": "strong",
                                     "expert": "strong"}[before]
    again, _ = saves.load(saves.dump(data))
    assert again["version"] == saves.VERSION and again["setup"]["bots"] == {seat: now}


@pytest.mark.parametrize("version", [0, 3, True, "1", None])
def test_a_save_of_another_version_is_refused(version):
    save = _play("dracula", {}, 0, 3)
    save["version"] = version
    with pytest.raises(saves.BrokenSave, match="another version"):
        saves.load(json.dumps(save))


def test_no_table_reads_engine_messages():
    """Errors are translated by code (game.web.draw.tables.explain): no table or
    shell parses an engine message, so a new message needs no new regex."""
    for path in [*(WEB / f for f in ("runtime/controller.py", "model/page.py", "draw/views.py")), *sorted((WEB / "draw/tables").glob("*.py"))]:
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"^import re$|^from re import", text, re.M), path.name


@pytest.mark.parametrize("game", sorted({g for g, _, _ in SETUPS}))
def test_every_table_provides_the_protocol(game):
    """Each renderer module has every function of the `Table` protocol, and
    none of the log-building functions that events replaced, nor the seat
    look-ups that took a whole State (the shell asks the engine)."""
    from game.web.draw.tables import Table

    module = renderer(game)
    wanted = [n for n, v in vars(Table).items() if callable(v) and not n.startswith("_")]
    assert wanted and all(callable(getattr(module, n, None)) for n in wanted), wanted
    assert not any(hasattr(module, n) for n in ("events", "first_events", "merge_event",
                                              "seat_of", "identity_key"))


# What tests/browser/test_security.py once loaded in Chromium, one page load
# each: a save damaged in ten ways (and two more), put where a returning page
# finds it. Each is refused, kept aside byte for byte, reported in words with
# a download of itself, and a new game is offered and keeps it.
def _damaged(save: dict) -> list[str]:
    hands = save["state"]["hands"]
    seat = next(k for k, v in hands.items() if len(v) >= 2)

    def variant(change) -> str:
        data = json.loads(json.dumps(save))
        change(data)
        return json.dumps(data)

    def poison(x: Any) -> Any:
        if isinstance(x, str):
            return PAYLOAD
        if isinstance(x, dict):
            return {k: poison(v) for k, v in x.items()}
        return [poison(v) for v in x] if isinstance(x, list) else x

    deep = "[" * 5000 + "]" * 5000
    return [
        variant(lambda d: d["state"].update(hands={**hands, seat: 7})),            # wrong type
        variant(lambda d: d["state"].pop("hands")),                                # missing key
        variant(lambda d: d["state"]["hands"][seat].__setitem__(0, "ZZ")),         # unknown card
        variant(lambda d: d["state"]["hands"][seat].__setitem__(1, hands[seat][0])),  # twice
        variant(lambda d: d["state"].update(scores="HUGE")).replace('"HUGE"', "9" * 5000),
        variant(lambda d: d["state"].update(winner=True)),                         # a bool winner
        variant(lambda d: d.update(seen_hands=float("inf"))),                      # not finite
        variant(lambda d: d.update(setup={"me": {"x": deep}, "bots": {}})),        # nesting
        variant(lambda d: d["state"].update(game="jekyll-hyde\u202e")),            # unicode
        json.dumps(save)[: len(json.dumps(save)) // 2],                            # truncated
        variant(lambda d: d.update(seen_hands="x")),                               # not a number
        json.dumps({**poison(save), "format": saves.FORMAT}),                      # every string
    ]


@pytest.mark.parametrize("game,options,me", [
    ("jekyll-hyde", {"players": 4}, 0), ("jekyll-vs-hyde", {}, "J"), ("dracula", {}, 0)])
def test_damaged_saves_are_reported_kept_and_survive_a_new_game(game, options, me):
    from urllib.parse import unquote
    from html import unescape

    from tests.page_kit import deal, items, make_page

    for n, text in enumerate(_damaged(random_save(game, options, me, 3))):
        ctrl, screen, _ = make_page({saves.LEGACY_KEY: text})
        ctrl.start(None)
        assert ctrl.session is None and ctrl.page.view == "start", n  # a new game is offered
        notices = str(screen.last.regions["notices"])
        assert 'id="broken-save"' in notices and "could not be loaded" in notices, n
        assert "<img" not in notices and "<script" not in notices, n  # its reason is text
        href = unescape(re.search(r'<a download="broken-save.json" href="([^"]*)"',
                                  notices).group(1))
        assert unquote(href.split(",", 1)[1]) == text, n  # the download is the save itself
        kept = [v for k, v in items(ctrl).items() if k.startswith(saves.BROKEN_PREFIX)]
        assert kept == [text] and saves.LEGACY_KEY not in items(ctrl), n
        deal(ctrl, game, 7)
        assert ctrl.session is not None, n
        assert [v for k, v in items(ctrl).items() if k.startswith(saves.BROKEN_PREFIX)] == [text]


@pytest.mark.parametrize("value", ["abc", "²", "9" * 5000, "12abc", "-4"])
def test_a_deal_number_that_is_no_number_is_said_on_the_field_then_a_good_one_deals(value):
    from tests.page_kit import deal, make_page

    ctrl, screen, _ = make_page()
    deal(ctrl, "jekyll-hyde", value)
    assert ctrl.session is None and ctrl.page.view == "start"
    markup = str(screen.last.regions["screen"])
    assert 'aria-invalid="true"' in re.search(r'<input[^>]*id="f-seed"[^>]*>', markup).group(0)
    said = re.search(r'id="setup-error"[^>]*>(.*?)</', markup, re.S).group(1)
    assert "0-9" in said or "between" in said, said
    assert "#f-seed" in screen.focused
    deal(ctrl, "jekyll-hyde", "12")
    assert ctrl.session is not None and ctrl.page.view == "table"


def test_every_built_page_carries_the_policy_once(built_site):
    from game.build import CSP_META

    pages = [built_site / "index.html", built_site / "embed.html",
             *sorted((built_site / "static").rglob("*.html"))]
    assert any("rules" in p.parts for p in pages)
    for page in pages:
        text = page.read_text(encoding="utf-8")
        assert text.count("Content-Security-Policy") == 1 and CSP_META in text, page
