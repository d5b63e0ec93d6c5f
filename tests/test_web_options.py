"""Each game's options are declared once (game.core.options) and the page
reads them from there: every option has its label in every language, the
start screen lists exactly an option's choices with its default selected, and
a live embed's parameter of the same name accepts exactly those choices."""

from __future__ import annotations

import re

import pytest

from game import GAMES, game_options, new_game
from game.web.embed.options import EmbedError, parse
from game.web.draw.i18n import LANGUAGES, Translator, catalog
from game.web.draw.tables import renderer
from game.web.draw.tables.common import OptionField, option_spec

FIELDS = [(game, field) for game in GAMES for field in renderer(game).OPTION_FIELDS]
IDS = [f"{game}-{field.name}" for game, field in FIELDS]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_option_of_every_game_has_its_label_in_every_catalog(lang):
    texts = catalog(lang)
    for game in GAMES:
        for spec in game_options(game):
            assert texts.get(spec.catalog_key, "").strip(), (lang, game, spec.catalog_key)
    for game, field in FIELDS:
        if field.spec.choices:  # a number of a range stands for itself
            for value in field.listed():
                key = f"{field.spec.catalog_key}.{value}"
                assert texts.get(key, "").strip(), (lang, game, key)


def test_a_field_is_an_option_of_its_game_and_each_option_shown_once():
    for game in GAMES:
        fields = renderer(game).OPTION_FIELDS
        assert all(f.spec in game_options(game) for f in fields), game
        assert len({f.name for f in fields}) == len(fields), game


@pytest.mark.parametrize("game,field", FIELDS, ids=IDS)
def test_the_start_screen_lists_the_options_choices_with_the_default_selected(game, field):
    table, t, bots = renderer(game), Translator("fr"), ["random", "heuristic"]
    spec = field.spec
    form = str(table.setup_form(t, bots, {}))
    select = re.search(rf'<span>([^<]*)</span><select name="{spec.name}"[^>]*>(.*?)</select>',
                       form)
    assert select and select[1] == t(spec.catalog_key)
    options = re.findall(r'<option value="([^"]*)"( selected)?>([^<]*)</option>', select[2])
    assert tuple(v for v, _, _ in options) == field.texts()
    assert set(field.texts()) == {str(c) for c in spec.choices or field.offered}
    assert [v for v, chosen, _ in options if chosen] == [str(spec.default)]
    assert field.texts()[0] == str(spec.default)
    if spec.choices:
        assert [label for _, _, label in options] == [
            t(f"{spec.catalog_key}.{v}") for v, _, _ in options]
    # Each choice reaches the engine as the option's own value; anything else
    # (a mistyped or stale preference) as its default.
    for value in field.listed():
        options_chosen = table.parse_setup({spec.name: str(value)}, bots)["options"]
        assert type(options_chosen[spec.name]) is type(value) and options_chosen[spec.name] == value
        new_game(game, options_chosen, seed=1)
    for stale in ("", "x", f"{spec.default} ", "1e3", "<b>"):
        assert table.parse_setup({spec.name: stale}, bots)["options"][spec.name] == spec.default


@pytest.mark.parametrize("game,field", FIELDS, ids=IDS)
def test_a_live_embed_accepts_exactly_the_options_choices(game, field):
    table, bots = renderer(game), ["random", "heuristic"]
    name = field.name
    setup = parse({"game": game}, list(GAMES), "en")["setup"]
    assert table.parse_setup(setup, bots)["options"][name] == field.spec.default
    for value in field.listed():
        setup = parse({"game": game, name: str(value)}, list(GAMES), "en")["setup"]
        assert table.parse_setup(setup, bots)["options"][name] == value
    others = {"", "x", "0", "5", "01000", "1000.0", "3.0", "a", "b", "A ", "Standard",
              "return_match", "2000", "-1", "true", "null"}
    for text in others - set(field.texts()):
        with pytest.raises(EmbedError, match=f"Bad value for {name}"):
            parse({"game": game, name: text}, list(GAMES), "en")


def test_a_live_embed_refuses_another_games_options():
    with pytest.raises(EmbedError, match="Unknown parameter players"):
        parse({"game": "dracula", "players": "3"}, list(GAMES), "en")
    with pytest.raises(EmbedError, match="Unknown parameter variant"):
        parse({"game": "jekyll-hyde", "variant": "standard"}, list(GAMES), "en")


def test_a_field_offers_only_values_its_option_takes():
    target = option_spec(game_options("jekyll-hyde"), "target")
    for offered in ((1000, 0), (1000, 20_000), (500, 300), (1000, "500")):
        with pytest.raises(ValueError, match="cannot offer"):
            OptionField(target, offered)
    with pytest.raises(ValueError, match="cannot offer"):
        OptionField(option_spec(game_options("jekyll-hyde"), "dealer"))  # a range, no offer
