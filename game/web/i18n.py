"""Interface text from per-language catalogs (static/i18n/<lang>.json).

Pure Python: the catalogs ship inside game.zip as game/web/i18n/*.json; in a
source checkout they are read from static/i18n/.
"""

from __future__ import annotations

import json
from pathlib import Path

LANGUAGES = ("en", "fr", "it")
DEFAULT = "en"
_HERE = Path(__file__).resolve().parent
_DIRS = (_HERE / "i18n", _HERE.parent.parent / "static" / "i18n")
_cache: dict[str, dict[str, str]] = {}


def pick_language(*candidates: str | None) -> str:
    """The first supported language among `candidates` ('fr-CA' counts as 'fr')."""
    for c in candidates:
        if c:
            code = str(c).strip().lower().replace("_", "-").split("-")[0]
            if code in LANGUAGES:
                return code
    return DEFAULT


def catalog(lang: str) -> dict[str, str]:
    if lang not in _cache:
        for d in _DIRS:
            p = d / f"{lang}.json"
            if p.is_file():
                _cache[lang] = json.loads(p.read_text(encoding="utf-8"))
                break
        else:
            _cache[lang] = {}
    return _cache[lang]


class Translator:
    """`t("key", name="Adam")` in one language, falling back to English, then the key."""

    def __init__(self, lang: str) -> None:
        self.lang = pick_language(lang)
        self._cat = catalog(self.lang)
        self._en = catalog(DEFAULT)

    def __call__(self, key: str, **kw) -> str:
        text = self._cat.get(key)
        if text is None:
            text = self._en.get(key, key)
        if kw:
            try:
                return text.format(**kw)
            except (KeyError, IndexError, ValueError):
                return text
        return text

    def has(self, key: str) -> bool:
        return key in self._cat or key in self._en
