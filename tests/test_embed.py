"""embed.html's pure part under CPython: parameters, refusals, every scenario
drawn at every step in every language by the game's own renderer."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from game.web.embed.options import EmbedError, load_scenario, parse
from game.web.model.replay import Steps
from game.web.draw.i18n import LANGUAGES, Translator
from game.web.draw.tables import TABLES, renderer

ROOT = Path(__file__).resolve().parent.parent
GAMES = list(TABLES)
SCENARIOS = sorted((ROOT / "static" / "scenarios").glob("*/*.json"))


def _view(game: str, name: str, lang: str = "en", step: int = 0, seat=None) -> Steps:
    params = parse({"game": game, "scenario": name}, GAMES, lang)
    path = ROOT / "static" / "scenarios" / game / f"{name}.json"
    transcript, states = load_scenario(path.read_text(), params, lang)
    return Steps(transcript, states, renderer(game), Translator(lang), seat, step)


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_every_scenario_draws_every_step_in_every_language(path):
    for lang in LANGUAGES:
        view = _view(path.parent.name, path.stem, lang)
        for step in range(view.last + 1):
            view.step = step
            html = view.table_html()
            assert 'class="table' in html or "dr-table" in html
            view.controls_html(False)
        # Captions are in the chosen language (the scenarios have all three).
        assert any(view.transcript.caption(k, lang) for k in range(view.last + 1))


def test_designation_step_7_shows_the_four_played_cards():
    view = _view("jekyll-hyde", "designation", step=7)
    html = view.table_html()
    played = re.findall(r'data-slot="\d"><div class="card [JH] played[^"]*" data-card="(\w+)"',
                        html)
    assert played == ["HF4", "JE", "H1", "JD"]
    assert view.last == 7 and "Step 7 of 7" in view.controls_html(False)
    assert view.caption().startswith("Doris")


@pytest.mark.parametrize("bad", ["https://evil.example/x.json", "//evil.example/x",
                                 "../../index", "a/b", "x.json", "Designation", "",
                                 "javascript:alert(1)", "%2e%2e"])
def test_a_scenario_is_a_name_never_a_url_or_a_path(bad):
    with pytest.raises(EmbedError, match="only read from this site"):
        parse({"game": "jekyll-hyde", "scenario": bad}, GAMES, "en")


def test_bad_parameters_say_what_is_wrong():
    with pytest.raises(EmbedError, match="Unknown game"):
        parse({"game": "chess", "scenario": "x"}, GAMES, "en")
    with pytest.raises(EmbedError, match="step"):
        parse({"game": "dracula", "scenario": "lines", "step": "two"}, GAMES, "en")
    with pytest.raises(EmbedError, match="Paramètre inconnu"):
        parse({"game": "dracula", "scenario": "lines", "src": "x"}, GAMES, "fr")
    with pytest.raises(EmbedError, match="players"):
        parse({"game": "jekyll-hyde", "players": "5"}, GAMES, "en")
    with pytest.raises(EmbedError, match="bots"):
        parse({"game": "dracula", "bots": "godlike"}, GAMES, "en")
    params = parse({"game": "dracula", "scenario": "lines", "step": "3"}, GAMES, "en")
    assert params["url"] == "./static/scenarios/dracula/lines.json" and params["step"] == 3


def test_a_scenario_that_does_not_replay_is_reported():
    params = parse({"game": "jekyll-hyde", "scenario": "broken"}, GAMES, "it")
    bad = '{"game": "jekyll-hyde", "options": {"players": 4}, "seed": 1, "actions": ["ZZ"]}'
    with pytest.raises(EmbedError, match="non si riproduce.*action 0 'ZZ'"):
        load_scenario(bad, params, "it")
    with pytest.raises(EmbedError, match="dracula game"):
        load_scenario('{"game": "dracula", "actions": []}', params, "en")
    with pytest.raises(EmbedError):
        load_scenario("<html>not json", params, "en")


def test_live_options_become_the_start_screen_values():
    setup = parse({"game": "jekyll-hyde", "players": "4", "seating": "B", "seed": "9",
                   "bots": "random", "seat": "2"}, GAMES, "en")["setup"]
    table = renderer("jekyll-hyde")
    chosen = table.parse_setup(setup, ["random", "heuristic", "strong"])
    assert chosen["options"]["seating"] == "B" and chosen["me"] == 2
    assert set(chosen["bots"].values()) == {"random"}


def test_pages_share_one_copy_of_the_chrome(tmp_path):
    """Icons, stylesheets, card symbols and the loader are written once
    (static/chrome/) and the build puts them into every page."""
    from game.build import with_chrome

    for name in ("index.html", "embed.html"):
        source = (ROOT / name).read_text()
        assert '<svg width="0"' not in source and 'id="loader"' not in source
        built = with_chrome(source, name)
        assert built.count('<symbol id="i-flask"') == 1
        assert built.count('id="loader-bar"') == 1 and built.count("site.css") == 1
    embed = (ROOT / "embed.html").read_text()
    assert "autofocus" not in embed and "scrollIntoView" not in embed


def test_the_build_ships_and_precaches_the_embed_page_and_its_examples(built_site):
    import base64
    import json

    html = (built_site / "embed.html").read_text()
    # Its front on the page (MicroPython), its game in the worker: no PyScript.
    assert 'data-runtime="./static/js/front.mjs"' in html and 'data-front="embed_front"' in html
    assert 'type="py"' not in html and "pyscript" not in html
    front = json.loads((built_site / "static" / "js" / "front.json").read_text())
    assert {"game.web.dom.embed_front", "game.web.front.embedded"} <= set(front["order"])
    # MicroPython's bytecode, version 6 (what MicroPython 1.28 loads), in its image, base64.
    rom = base64.b64decode(front["rom"])
    assert rom[:3] == b"\xd2\xcd\x31" and b"embed_front.mpy\x02" in rom and b"M\x06" in rom
    assert not re.search(r'(src|href)="(/|https?:)', html)
    sw = (built_site / "sw.js").read_text()
    files = json.loads(re.search(r"const FILES = (\[.*?\]);", sw, re.S).group(1))
    assert "embed.html" in files and "static/css/embed.css" in files
    assert {"static/js/embed-start.js", "static/js/front.mjs", "static/js/front.json",
            "static/js/engine.mjs", "static/vendor/micropython/micropython.wasm"} <= set(files)
    assert {f"static/scenarios/{p.parent.name}/{p.name}" for p in SCENARIOS} <= set(files)
    assert {f"static/rules/{g}.{lang}.html" for g in GAMES for lang in LANGUAGES} <= set(files)


def test_first_and_last_step_of_an_example():
    view = _view("jekyll-hyde", "designation", step=3)
    view.move("last")
    assert view.step == view.last == 7
    assert re.search(r'id="ex-last" disabled', str(view.controls_html(False)))
    view.move("first")
    assert view.step == 0 and view.caption() == view.transcript.caption(0, "en")
    assert re.search(r'id="ex-first" disabled', str(view.controls_html(False)))
