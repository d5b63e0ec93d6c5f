"""Each language says each game's terms with one word (docs/GLOSSARY.md):
the word used appears in its catalogs, rules pages and examples' captions,
the variants do not."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pytest

from game import GAMES

ROOT = Path(__file__).resolve().parents[1]
LANGUAGE = {"Français": "fr", "Italiano": "it", "Deutsch": "de"}


def _rows() -> list[tuple[str, str, str, str, list[str]]]:
    """(lang, game, term, word used, variants) for every row of the glossary."""
    rows, lang = [], None
    for line in (ROOT / "docs" / "GLOSSARY.md").read_text(encoding="utf-8").splitlines():
        if line.startswith("## "):
            lang = LANGUAGE[line[3:].strip()]
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if lang and len(cells) == 4 and cells[2].startswith("`"):
            game, term, used, variants = cells
            rows.append((lang, game, term, used.strip("`"), re.findall(r"`([^`]+)`", variants)))
    return rows


def _texts(lang: str, game: str) -> list[tuple[str, str]]:
    """(where, text) for every catalog value, rules page and example caption
    `game` shows in `lang`."""
    games = list(GAMES) if game == "all" else [game]
    names = ([f"{lang}.json"] if game == "all" else []) + [f"{lang}.{g}.json" for g in games]
    texts = []
    for name in names:
        for key, value in json.loads((ROOT / "static/i18n" / name).read_text("utf-8")).items():
            texts.append((f"{name}:{key}", value))
    for g in games:
        page = (ROOT / "static/rules" / f"{g}.{lang}.html").read_text("utf-8")
        texts.append((f"rules/{g}.{lang}.html", page))
        for path in sorted((ROOT / "static/scenarios" / g).glob("*.json")):
            captions = json.loads(path.read_text("utf-8"))["captions"]
            texts += [(f"scenarios/{g}/{path.name}", c[lang]) for c in captions if c]
    # Words only: no markup, no {placeholders}, entities read as their characters.
    return [(where, _apostrophes(html.unescape(re.sub(r"<[^>]+>|\{[^}]*\}", " ", text))
                                 .replace("\xad", ""))) for where, text in texts]


def _apostrophes(text: str) -> str:
    """The typographic apostrophe read as the straight one the rows may write."""
    return text.replace("\u2019", "'")


def _has(text: str, phrase: str) -> bool:
    phrase = _apostrophes(phrase)
    return re.search(r"(?<!\w)" + re.escape(phrase) + (r"(?!\w)" if phrase[-1].isalnum() else ""),
                     text) is not None


ROWS = _rows()


def test_the_glossary_has_rows_for_every_language():
    assert {r[0] for r in ROWS} == set(LANGUAGE.values()) and len(ROWS) >= 15


@pytest.mark.parametrize("lang, game, term, used, variants", ROWS,
                         ids=[f"{r[0]}-{r[1]}-{r[2]}" for r in ROWS])
def test_each_term_is_said_with_the_glossarys_word(lang, game, term, used, variants):
    texts = _texts(lang, game)
    assert any(_has(text, used) for _, text in texts), f"{term}: {used!r} is never used"
    wrong = [f"{where}: {variant!r}" for where, text in texts for variant in variants
             if _has(text, variant)]
    assert not wrong, f"{term} is said {used!r} in {lang}, not: " + "; ".join(wrong)
