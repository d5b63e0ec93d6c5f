"""Interface text from per-language catalogs (static/i18n/<lang>.json, and
<lang>.<game id>.json for each game's own texts).

Pure Python: the catalogs ship inside game.zip as game/web/draw/i18n/*.json; in a
source checkout they are read from static/i18n/.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from game.web.draw.html import Html

import json
import os

LANGUAGES = ("de", "en", "fr", "it")
DEFAULT = "en"
_HERE = os.path.dirname(__file__)
# Beside this module when shipped (game.zip, read through the module's loader,
# which also reads inside a zip on sys.path); static/i18n in a source checkout.
_DIRS = (os.path.join(_HERE, "i18n"), os.path.join(_HERE, "..", "..", "..", "static", "i18n"))
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
    """The shell's texts (`<lang>.json`) merged with each game's (`<lang>.<game id>.json`)."""
    if lang not in _cache:
        from game import GAMES

        merged: dict[str, str] = {}
        for name in [lang] + [f"{lang}.{game}" for game in GAMES]:
            merged.update(_read(f"{name}.json"))
        _cache[lang] = merged
    return _cache[lang]


def _read(filename: str) -> dict[str, str]:
    for d in _DIRS:
        try:
            # `__loader__` is set by the import system; mypy does not know it.
            data = __loader__.get_data(os.path.join(d, filename))  # type: ignore[name-defined]
        except OSError:
            continue
        texts: dict[str, str] = json.loads(data.decode("utf-8"))
        return texts
    return {}


# The count a text with a singular and a plural (`key.1`, `key.n`) depends on.
_COUNTS = ("n", "count")


def takes_singular(lang: str, count: int) -> bool:
    """Whether `count` takes the singular: 1 in English, Italian and German;
    0 and 1 in French ("0 carte")."""
    return count in (0, 1) if lang == "fr" else count == 1


class Translator:
    """`t("key", name="Adam")` in one language, falling back to English, then the key.

    A text that depends on a count is two entries, `key.1` (the singular) and
    `key.n` (the plural): `t("key", n=2)` picks the one this language uses for
    its `n` (or `count`) field.

    `touch`: the person plays with their fingers (game.web.front.events tells
    the page): a text with a `key.touch` entry says that instead ("tap",
    not "click"; no keys to press)."""

    def __init__(self, lang: str, touch: bool = False) -> None:
        self.lang = pick_language(lang)
        self.touch = touch
        self._cat = catalog(self.lang)
        self._en = catalog(DEFAULT)

    def __call__(self, key: str, **kw: Any) -> str:
        text = self._text(key + ".touch") if self.touch else None
        if text is None:
            text = self._text(key)
        if text is None:
            text = self._text(self._counted(key, kw))
        if text is None:
            text = key
        if kw:
            try:
                return text.format(**kw)
            except (KeyError, IndexError, ValueError):
                return text
        return text

    def _text(self, key: str) -> str | None:
        text = self._cat.get(key)
        return self._en.get(key) if text is None else text

    def _counted(self, key: str, kw: dict[str, Any]) -> str:
        """The entry of the counted text `key` for the count in `kw` (no
        count, or not a number: the plural)."""
        count = next((kw[name] for name in _COUNTS if name in kw), None)
        try:
            singular = count is not None and takes_singular(self.lang, int(count))
        except (TypeError, ValueError):
            singular = False
        return f"{key}.1" if singular else f"{key}.n"

    def markup(self, key: str) -> "Html":
        """A catalog text that is markup by design (keys ending in `.html`)."""
        from game.web.draw.html import from_catalog

        if not key.endswith(".html"):
            raise KeyError(f"{key!r} is text, not markup: use t(key)")
        return from_catalog(self(key))

    def has(self, key: str) -> bool:
        return any(k in self._cat or k in self._en for k in (key, f"{key}.n"))
