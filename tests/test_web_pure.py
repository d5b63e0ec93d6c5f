"""The browser side's pure-Python parts under CPython (no browser, no Pyodide):
card names, the language choice, the table renderer over whole random games,
the setup form, broken saves' reasons, and the build (those that read
`built_site` need the build, not Chromium).
The catalogs' keys and placeholders are checked in tests/test_i18n.py.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from game import GameError, new_game
from game.web.model import saves
from game.web.draw.tables import TableContext, explain
from game.web.draw.i18n import LANGUAGES, Translator, pick_language
from game.web.draw.tables import jekyll_hyde as jh
from tests.strength import quick_first

ROOT = Path(__file__).resolve().parents[1]


def test_every_card_has_a_name_in_every_language():
    from game.jekyll_hyde.cards import DECK

    for lang in LANGUAGES:
        t = Translator(lang)
        names = [jh.card_name(c, t) for c in DECK]
        assert all(n and not n.startswith("card.") for n in names)
    assert Translator("en")("card.HF6") == "Mr. Hyde's apartment"


def test_language_choice():
    assert pick_language(None, "fr-CA") == "fr"
    assert pick_language("es", "it_IT") == "it"
    assert pick_language("de-AT") == "de"
    assert pick_language("xx") == "en"


def _play_and_render(options: dict, seed: int, lang: str) -> int:
    t = Translator(lang)
    state = new_game("jekyll-hyde", options, seed)
    rng = random.Random(seed)
    me = "Adam" if options.get("players") == 3 else 0
    log = state.events(state.seat_of(me))  # as the shell logs: what `me` may see
    players = (0, 1, 3) if options.get("players") == 3 else (0, 1, 2, 3)
    moves = 0
    while not state.over and moves < 400:
        for seat in players:
            ctx = TableContext(t=t, seat=seat, log=log)
            obs = state.observation(seat)
            html = jh.render(obs, ctx)
            assert 'class="table' in html
            # The screen never shows another player's card faces (the ghost's are open).
            hidden = set()
            for other in range(4):
                if other != seat and not (options.get("players") == 3 and other == 2):
                    hidden |= set(state.to_json()["hands"][str(other)])
            for card in hidden:
                assert f'data-card="{card}"' not in html, (seat, card)
            jh.score_sheet(obs, ctx)
            jh.last_trick(obs, ctx)
        legal = state.legal_actions()
        action = rng.choice(legal)
        ctx = TableContext(t=t, seat=state.to_act, log=log)
        # Every illegal click is explained in words, not in the engine's notation.
        obs = state.observation(state.to_act)
        for bad in ["JA", "HA", "@0", "@1", "@2", "@3"]:
            if bad in legal:
                continue
            try:
                state.apply(bad)
            except GameError as e:
                text = explain(jh, e, obs, ctx)
                assert "legal:" not in text and not re.search(r"\bseat \d", text), (str(e), text)
        after = state.apply(action)
        log += after.events(after.seat_of(me))
        state = after
        moves += 1
    ctx = TableContext(t=t, seat=state.seat_of(me), log=log)
    for ev in log:
        text = jh.event_text(ev, ctx)
        assert text and "{" not in text, (ev, text)
    return moves


@pytest.mark.parametrize("lang", quick_first(["en", *(lang for lang in LANGUAGES if lang != "en")]))
def test_render_whole_games(lang):
    assert _play_and_render({"players": 4, "seating": "A", "target": 60}, 1, lang) > 28
    assert _play_and_render({"players": 4, "seating": "B", "target": 60}, 2, lang) > 28
    assert _play_and_render({"players": 3, "names": ["Adam", "Betty", "Christian"],
                             "target": 60}, 3, lang) > 28


def test_setup_form_and_parse():
    t = Translator("en")
    bots = ["random", "heuristic"]
    html = jh.setup_form(t, bots, {"players": "3", "me": "1"})
    assert 'name="bot0"' in html and 'name="bot2"' in html and 'name="bot1"' not in html
    assert 'name="seating"' not in html  # with 3 players the roles are the seats
    setup = jh.parse_setup({"players": "3", "me": "1", "bot0": "random"}, bots)
    assert setup["me"] == "Betty" and setup["bots"] == {"Adam": "random", "Christian": "heuristic"}
    assert new_game("jekyll-hyde", setup["options"]).identity(0) == "Adam"
    setup = jh.parse_setup({"players": "4", "seating": "B", "me": "2", "target": "200"}, bots)
    assert setup["options"] == {"players": 4, "seating": "B", "target": 200}
    assert set(setup["bots"]) == {"0", "1", "3"}
    html = jh.setup_form(t, bots, {"players": "4", "seating": "B", "me": "1"})
    assert '<option value="1" selected>Adam (Jekyll)</option>' in html  # seating B: 0, 1 Jekyll
    # Anything else reads as the engine's defaults.
    setup = jh.parse_setup({"players": "5", "seating": "<b>", "me": "x", "target": "60"}, bots)
    assert setup["options"] == {"players": 4, "seating": "A", "target": 1000} and setup["me"] == 0


def test_broken_saves_are_refused_with_a_reason():
    for text, why in [("{", "not JSON"), ("[]", "not a saved game"),
                      (json.dumps({"format": saves.FORMAT, "version": 99}), "another version")]:
        with pytest.raises(saves.BrokenSave, match=why):
            saves.load(text)
    state = new_game("jekyll-hyde", None, 5)
    with pytest.raises(saves.BrokenSave, match="who plays"):
        saves.load(saves.dump({"game": "jekyll-hyde", "setup": {}, "transcript": {},
                               "state": state.to_json(), "log": []}))
    good = saves.dump({"game": "jekyll-hyde", "setup": {"me": 0, "bots": {}},
                       "transcript": {}, "state": state.to_json(), "log": []})
    data, again = saves.load(good)
    assert again.to_json() == state.to_json()
    broken = json.loads(good)
    broken["state"]["hands"]["0"] = []
    with pytest.raises(saves.BrokenSave):
        saves.load(json.dumps(broken))


def test_build_makes_a_relative_self_contained_site(built_site):
    for name in ("index.html", "embed.html", "pyscript.json", "pyscript.toml", "game.zip",
                 "sw.js", "static/css/site.css", "static/vendor/pyodide/pyodide.asm.wasm",
                 "static/vendor/pyscript/core.js", "static/js/front.mjs", "static/js/front.json",
                 "static/js/engine.mjs", "static/vendor/micropython/micropython.wasm"):
        assert (built_site / name).is_file(), name
    assert not list(built_site.rglob("*.map"))
    # Both pages are split: a first script starts the front (MicroPython), which
    # starts the game's worker; no PyScript, and no inline script (the CSP forbids it).
    html = (built_site / "index.html").read_text()
    assert '<script src="./static/js/first.js" data-runtime="./static/js/front.mjs">' in html
    embed = (built_site / "embed.html").read_text()
    assert 'data-runtime="./static/js/front.mjs"' in embed
    for page in (html, embed):
        assert 'type="py"' not in page and "pyscript" not in page
        assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", page)
        assert not re.search(r'(src|href)="(/|https?:)', page)
    config = json.loads((built_site / "pyscript.json").read_text())
    assert config["interpreter"].startswith("./")
    import zipfile

    names = zipfile.ZipFile(built_site / "game.zip").namelist()
    assert "game/web/draw/i18n/fr.json" in names and "game/build.py" not in names


def _png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


def test_build_renders_png_icons_for_installing(tmp_path):
    """Launchers and iOS need PNGs (192, 512, a maskable one, a 180 apple-touch-icon),
    rendered from static/icon.svg, listed in the manifest (which has an `id`),
    linked from every page and precached for offline use."""
    from game.build import ICON_BACKGROUND, ICONS, _write_icons

    _write_icons(tmp_path)
    for name, size, padded in ICONS:
        data = (tmp_path / name).read_bytes()
        assert _png_size(data) == (size, size), name
    manifest = json.loads((ROOT / "static" / "manifest.webmanifest").read_text())
    assert manifest["id"]
    icons = {(i["src"], i["sizes"], i.get("purpose", "any")) for i in manifest["icons"]}
    assert {("icon-192.png", "192x192", "any"), ("icon-512.png", "512x512", "any"),
            ("icon-maskable-512.png", "512x512", "maskable")} <= icons
    assert {src for src, _, _ in icons} <= {name for name, _, _ in ICONS} | {"icon.svg"}
    from game.build import with_chrome

    for page in ("index.html", "embed.html"):
        head = with_chrome((ROOT / page).read_text(), page).split("</head>")[0]
        assert '<link rel="apple-touch-icon" href="./static/apple-touch-icon.png">' in head, page
        assert 'href="./static/icon-192.png" sizes="192x192" type="image/png"' in head, page
    assert ICON_BACKGROUND in (ROOT / "static" / "icon.svg").read_text()


def test_built_site_precaches_the_icons(built_site):
    from game.build import ICONS

    sw = (built_site / "sw.js").read_text()
    for name, size, _ in ICONS:
        assert _png_size((built_site / "static" / name).read_bytes()) == (size, size)
        assert f'"static/{name}"' in sw, name
