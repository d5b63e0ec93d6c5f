"""Every language is complete: each catalog file has exactly the English one's
keys and keeps every {placeholder}; every game has a rules page in every
language with the same structure; every scripted-example caption is in every
language; every page that lists the languages lists them all."""

from __future__ import annotations

import json
import re
import string
from pathlib import Path

import pytest

from game import GAMES
from game.web.draw.i18n import DEFAULT, LANGUAGES

ROOT = Path(__file__).resolve().parent.parent
I18N = ROOT / "static" / "i18n"
RULES = ROOT / "static" / "rules"
# The English catalog files: the shell's (en.json) and one per game.
SUFFIXES = sorted(p.name[len(DEFAULT):] for p in I18N.glob(f"{DEFAULT}.*json"))
OTHERS = [lang for lang in LANGUAGES if lang != DEFAULT]


def _catalog(lang: str, suffix: str) -> dict[str, str]:
    return json.loads((I18N / f"{lang}{suffix}").read_text(encoding="utf-8"))


def _fields(text: str) -> list[str]:
    """The replacement fields of `text` with their conversion and format, sorted."""
    return sorted(f"{name}!{conv}:{spec}" for _, name, spec, conv
                  in string.Formatter().parse(text) if name is not None)


def test_the_catalog_files_are_the_shells_and_each_games():
    assert ".json" in SUFFIXES
    assert {f".{game}.json" for game in GAMES} <= set(SUFFIXES)


def test_every_catalog_file_of_every_language_exists():
    for lang in LANGUAGES:
        for suffix in SUFFIXES:
            assert (I18N / f"{lang}{suffix}").is_file(), f"{lang}{suffix}"
    stray = {p.name for p in I18N.glob("*.json")} - {
        f"{lang}{suffix}" for lang in LANGUAGES for suffix in SUFFIXES}
    assert not stray, f"catalogs of no listed language: {sorted(stray)}"


@pytest.mark.parametrize("lang", OTHERS)
@pytest.mark.parametrize("suffix", SUFFIXES)
def test_catalog_has_exactly_the_english_keys_and_placeholders(lang, suffix):
    english, other = _catalog(DEFAULT, suffix), _catalog(lang, suffix)
    assert not set(english) - set(other), f"missing in {lang}{suffix}"
    assert not set(other) - set(english), f"not in {DEFAULT}{suffix}"
    for key, text in english.items():
        assert _fields(other[key]) == _fields(text), (f"{lang}{suffix}", key)
        assert other[key].strip(), (f"{lang}{suffix}", key)


def test_placeholder_check_sees_a_lost_or_renamed_field():
    assert _fields("{name} has no {side} card.") != _fields("{name} hat keine Karte.")
    assert _fields("{value!r}") != _fields("{value}")
    assert _fields("{who} plays {card}") == _fields("{card}: {who}")


def test_every_language_names_itself_in_every_catalog():
    for lang in LANGUAGES:
        names = _catalog(lang, ".json")
        assert {f"lang.{code}" for code in LANGUAGES} <= set(names), lang


def _outline(html: str) -> dict[str, object]:
    """What every translation of a rules page keeps: headings, tables, lists,
    the example frames (game and scenario) and the play links."""
    return {
        "h1": html.count("<h1"), "h2": html.count("<h2"), "tr": html.count("<tr"),
        "li": html.count("<li"), "figure": html.count("<figure"),
        "examples": re.findall(r'embed\.html\?game=([a-z-]+)&amp;scenario=([a-z0-9-]+)', html),
        "play": re.findall(r'class="play" href="\.\./\.\./index\.html\?game=([a-z-]+)', html),
    }


@pytest.mark.parametrize("game", sorted(GAMES))
def test_rules_page_in_every_language_with_the_english_structure(game):
    english = (RULES / f"{game}.{DEFAULT}.html").read_text(encoding="utf-8")
    for lang in LANGUAGES:
        html = (RULES / f"{game}.{lang}.html").read_text(encoding="utf-8")
        assert f'<html lang="{lang}">' in html, lang
        assert _outline(html) == _outline(english), lang
        # Its examples and play links stay in its language.
        assert set(re.findall(r"lang=([a-z]+)", html)) == {lang}, lang
        # The language menu links every language, marking this one.
        menu = re.search(r'<nav class="langs".*?</nav>', html).group(0)
        assert re.findall(r'href="[a-z-]+\.([a-z]+)\.html"', menu) == list(LANGUAGES), lang
        assert f'href="{game}.{lang}.html" aria-current="page"' in menu, lang
        # Search engines show a description in the page's language.
        description = re.search(r'<meta name="description" content="([^"]+)">', html)
        assert description and description.group(1).startswith(
            re.search(r"<title>([^<]+)</title>", html).group(1)), lang


def test_every_example_caption_is_in_every_language():
    scenarios = sorted((ROOT / "static" / "scenarios").glob("*/*.json"))
    assert scenarios
    for path in scenarios:
        captions = json.loads(path.read_text(encoding="utf-8"))["captions"]
        for step, caption in enumerate(captions):
            if caption is not None:
                assert set(caption) == set(LANGUAGES), (path.name, step)
                assert all(text.strip() for text in caption.values()), (path.name, step)


def test_loading_words_exist_in_every_language():
    # The loader and the update notice speak before Python is up, from small tables.
    scripts = ROOT / "static" / "js"
    loader = (scripts / "loader.js").read_text(encoding="utf-8")
    update = (scripts / "update.js").read_text(encoding="utf-8")
    tables = re.findall(r"(?:table|example): \{(.*?)\n    \}", loader, re.S)
    tables += re.findall(r"var failedWords = \{(.*?)\};", loader, re.S)  # a failed start
    offline = re.findall(r"var words = \{(.*?)\n  \};", update, re.S)
    assert len(tables) == 3 and len(offline) == 1
    for table in tables + offline:
        assert sorted(re.findall(r"\b([a-z]{2}): *[\[{]", table)) == sorted(LANGUAGES), table
    # update.js: each language says every thing English says (a new version, offline play).
    said = dict(re.findall(r"\b([a-z]{2}): \{(.*?)\}", offline[0], re.S))
    keys = {lang: sorted(re.findall(r"(\w+): *[\"\[]", text)) for lang, text in said.items()}
    assert keys["en"] == ["notReady", "preparing", "ready", "update"]
    assert all(k == keys["en"] for k in keys.values()), keys


# -- counts: a real singular and plural, never "card(s)" ---------------------------

def _all_texts() -> list[tuple[str, str, str]]:
    """(lang, file:key, text) for every catalog value of every language."""
    return [(lang, f"{lang}{suffix}:{key}", text) for lang in LANGUAGES for suffix in SUFFIXES
            for key, text in _catalog(lang, suffix).items()]


def test_no_text_hedges_a_plural_with_brackets_or_a_slash():
    # "card(s)", "carte(s)", "ignoré(s)", "Karte(n)", "carta/e": the count is known.
    hedged = re.compile(r"\w\((s|e|n|en|es|x|i|a)\)|\w/(e|i|a)\b")
    found = [(where, text) for _, where, text in _all_texts() if hedged.search(text)]
    assert not found, found


# Texts whose count is never 1: Potions must be given only by who was dealt 2 or more.
NEVER_ONE = {"jvh.err.potion", "jvh.must_potion", "error.must_give_potion"}


def test_a_count_followed_by_a_plural_noun_is_a_counted_text():
    """"{n} cards" is the plural of a counted text (`.n`): with one card it would say "1 cards"."""
    noun = re.compile(r"\{\w+\} (cards|tricks|points|Potions|rounds)\b")
    found = [where for lang, where, text in _all_texts() if lang == DEFAULT and noun.search(text)
             and not where.endswith(".n") and where.split(":", 1)[1] not in NEVER_ONE]
    assert not found, found


def test_every_counted_text_has_its_singular_and_its_plural():
    keys = {where.split(":", 1)[1] for _, where, _ in _all_texts()}
    plural = {k[:-2] for k in keys if k.endswith(".n")}
    assert "jvh.confirm.give" in plural
    assert not {f"{k}.1" for k in plural} - keys


def test_a_count_picks_the_singular_or_the_plural_its_language_uses():
    from game.web.draw.i18n import Translator

    en, fr, it, de = (Translator(lang) for lang in ("en", "fr", "it", "de"))
    assert en("jvh.confirm.give", n=1) == "Give this card"
    assert en("jvh.confirm.give", n=2) == "Give these 2 cards"
    assert it("jvh.confirm.swap", n=3) == "Scambia queste 3 carte"
    assert de("jvh.confirm.give", n=1) == "Diese Karte abgeben"
    assert en("jvh.pile", n=0) == "0 tricks won"
    assert fr("jvh.pile", n=0) == "0 pli gagné"  # French counts 0 in the singular
    assert fr("jvh.pile", n=2) == "2 plis gagnés"
    # An engine error's count arrives as words (str) and is named `count`.
    assert en("error.wrong_give_count", count="1", given="2") == \
        "Choose exactly 1 card to give, not 2."
    assert en.has("error.wrong_give_count") and not en.has("error.no_such_text")
    # Without a count, or with one that is not a number: the plural.
    assert en("jvh.tricks") == "tricks" and en("jvh.tricks", n="many") == "tricks"


@pytest.mark.parametrize("game, seat, paused", [
    ("jekyll-hyde", 0, "La donne attend"),
    ("jekyll-vs-hyde", "J", "La manche attend"),  # the duel's unit is the round
    ("dracula", 0, "La donne attend")])
def test_a_lessons_pause_is_said_with_the_games_own_unit(game, seat, paused):
    from game import new_game
    from game.web.draw.i18n import Translator
    from game.web.draw.tables import TableContext, renderer

    state = new_game(game, {}, 1)
    ctx = TableContext(t=Translator("fr"), seat=seat, paused=True)
    table = renderer(game).render(state.observation(seat), ctx)
    prompt = re.search(r'id="prompt"[^>]*>([^<]*)<', table).group(1)
    assert prompt.startswith(paused), prompt


# -- typography --------------------------------------------------------------------

def _said_in(lang: str) -> list[tuple[str, str]]:
    """(where, words) for every text a player reads in `lang`: the catalogs, the
    rules pages, the examples' captions, the loader's words (markup stripped)."""
    texts = [(where, text) for code, where, text in _all_texts() if code == lang]
    texts += [(page.name, page.read_text(encoding="utf-8"))
              for page in sorted(RULES.glob(f"*.{lang}.html"))]
    for path in sorted((ROOT / "static" / "scenarios").glob("*/*.json")):
        captions = json.loads(path.read_text(encoding="utf-8"))["captions"]
        texts += [(path.name, c[lang]) for c in captions if c is not None]
    loader = (ROOT / "static" / "js" / "loader.js").read_text(encoding="utf-8")
    texts += [("loader.js", words) for words in re.findall(rf"\b{lang}: (\[.*?\])", loader)]
    return [(where, re.sub(r"<[^>]*>", " ", text)) for where, text in texts]


@pytest.mark.parametrize("lang", ["fr", "it"])
def test_french_and_italian_write_the_typographic_apostrophe(lang):
    # docs/GLOSSARY.md: "l’équipe", never "l'équipe" beside it.
    straight = [(where, text) for where, text in _said_in(lang) if "'" in text]
    assert not straight, straight
    assert any("’" in text for _, text in _said_in(lang))


@pytest.mark.parametrize("game, deal", [("jekyll-hyde", "Donne n° 18"),
                                        ("jekyll-vs-hyde", "Mélange n° 18"),
                                        ("dracula", "Mélange n° 18")])
def test_the_deal_link_names_the_shuffle_where_donne_is_not_the_games_word(game, deal):
    """The duel plays manches, so its deal link is a shuffle (as Dracula's), not a donne."""
    from game import new_game
    from game.web.draw.views import table_info
    from tests.page_kit import make_page, put_on_table

    ctrl, _, _ = make_page(lang="fr")
    state = new_game(game, {}, 18)
    me = state.identity(state.players[0])
    put_on_table(ctrl, state, {
        "game": game, "setup": {"me": me, "bots": {}}, "log": [], "seen_hands": 0,
        "transcript": {"game": game, "options": state.to_json()["options"], "seed": 18,
                       "actions": []}, "state": state.to_json()})
    link = re.search(r'<a id="deal-link"[^>]*title="([^"]*)">([^<]*)</a>', table_info(ctrl.page))
    assert link.group(2) == deal
    assert ("mélange" in link.group(1)) == deal.startswith("Mélange"), link.group(1)


@pytest.mark.parametrize("ignored, said", [
    (["foo"], "Paramètre d’URL ignoré, inconnu ou de valeur inutilisable : foo"),
    (["foo", "bar"], "Paramètres d’URL ignorés, inconnus ou de valeur inutilisable : foo, bar")])
def test_the_ignored_parameters_notice_counts_them(ignored, said):
    from game.web.model.links import Link
    from game.web.draw.views import notices
    from tests.page_kit import make_page

    ctrl, _, _ = make_page(lang="fr", link=Link(ignored=ignored))
    assert said in notices(ctrl.page)


def test_french_puts_no_de_or_que_before_a_players_name():
    """A name may start with a vowel, and French would elide: "d’Adam", not "de Adam".
    The texts name the player another way ("Adam a complété sa ligne 2")."""
    before_a_name = re.compile(r"\b(de|que|le|la) \{(name|player|who|whom)\}")
    found = [(where, text) for lang, where, text in _all_texts()
             if lang == "fr" and before_a_name.search(text)]
    assert not found, found


# -- a touch screen's words ------------------------------------------------------

MOUSE_OR_KEYS = re.compile(r"\bclick|\bkeys:|\bEscape\b")


def test_every_text_that_says_click_or_names_keys_has_a_touch_screens_words():
    """Issue 55: a phone said "click a player to ask for one" and "(keys:
    arrows, Enter, Tab)"; the Keys panel (`keys.*`) is about keys alone."""
    said = []
    for suffix in SUFFIXES:
        english = _catalog(DEFAULT, suffix)
        for key, text in english.items():
            if MOUSE_OR_KEYS.search(text) and not key.endswith(".touch") and "keys." not in key:
                said.append(key)
                touch = english.get(key + ".touch")
                assert touch and not MOUSE_OR_KEYS.search(touch), (suffix, key)
    assert "jh.prompt.turn" in said and "dr.prompt.turn" in said
