"""Markup that is safe by construction: the only way text reaches the page as HTML.

A save, a transcript or a URL can hold any string, and another site on the
same origin can write our `localStorage`; so no value is ever pasted into
HTML by hand. `html()` fills a template and escapes every value that is not
already `Html`; `join()` concatenates. A frame carries only `Html`
(game.web.draw.frames' `markup` refuses a plain `str`), and the page's front
writes a frame's markup in one place (game.web.front.markup).

>>> name = '<img src=x onerror="alert(1)">'
>>> html('<b class="{cls}">{name}</b>', cls="a&b", name=name)
Html('<b class="a&amp;b">&lt;img src=x onerror=&quot;alert(1)&quot;&gt;</b>')
>>> inner = html("<i>{}</i>", "x")
>>> html("<p>{}</p>", inner)  # Html is kept as it is
Html('<p><i>x</i></p>')
>>> join([inner, "<&>"])
Html('<i>x</i>&lt;&amp;&gt;')
>>> html("{n:>3}", n=7)
Html('  7')
"""

from __future__ import annotations

import string
from functools import lru_cache
from html import escape
from typing import Any, Iterable


class Html(str):
    """A string of markup that is safe to insert: made only by this module."""

    __slots__ = ()

    def __repr__(self) -> str:
        return f"Html({str.__repr__(self)})"

    def __add__(self, other: str) -> "Html":
        return Html(str.__str__(self) + str.__str__(esc(other)))

    def __radd__(self, other: str) -> "Html":
        return Html(str.__str__(esc(other)) + str.__str__(self))


def esc(value: Any) -> Html:
    """`value` as text: Html stays as it is, anything else is escaped (quotes too)."""
    if isinstance(value, Html):
        return value
    return Html(escape(str(value), quote=True))


class _Formatter(string.Formatter):
    def format_field(self, value: Any, format_spec: str) -> str:
        if isinstance(value, Html):
            return str.__str__(value)
        return escape(format(value, format_spec), quote=True)


_FORMATTER = _Formatter()


@lru_cache(maxsize=1024)
def _fields(template: str) -> tuple[tuple[str, int | str | None, str], ...] | None:
    """`template` cut into (text, field, format spec) once, or None if a field is more
    than a name or a position (attributes, indexes, conversions, nested specs,
    numbering both automatic and manual) or a brace is unmatched: `string.Formatter`
    fills (or refuses) those, as it always did."""
    try:
        cut = list(_FORMATTER.parse(template))
    except ValueError:
        return None  # string.Formatter raises it where it meets the fault
    parts: list[tuple[str, int | str | None, str]] = []
    automatic, manual = 0, False
    for text, name, spec, conversion in cut:
        field: int | str | None = None
        if name is not None:
            if conversion is not None or "{" in (spec or ""):
                return None
            if name == "":
                field, automatic = automatic, automatic + 1
            elif name.isdecimal():
                field, manual = int(name), True
            elif name.isidentifier():
                field = name
            else:
                return None
        parts.append((text, field, spec or ""))
    return None if automatic and manual else tuple(parts)


def html(template: str, *args: Any, **kwargs: Any) -> Html:
    """`template.format(...)` with every value escaped unless it is Html.

    The template itself is trusted: write it as a literal in the code.
    """
    parts = _fields(template)
    if parts is None:
        return Html(_FORMATTER.vformat(template, args, kwargs))
    out = []
    for text, field, spec in parts:
        out.append(text)
        if field is not None:
            value = args[field] if isinstance(field, int) else kwargs[field]
            out.append(str.__str__(value) if isinstance(value, Html)
                       else escape(format(value, spec), quote=True))
    return Html("".join(out))


def join(parts: Iterable[Any], sep: str = "") -> Html:
    """Concatenate pieces of markup; plain strings among them are escaped."""
    return Html(esc(sep).join(str.__str__(esc(p)) for p in parts))


EMPTY = Html("")


def from_catalog(text: str) -> Html:
    """Markup written in the site's own language catalogs (`*.html` keys).

    Only for texts that ship with the site: never for anything read from a
    save, a transcript, a URL or the engine.
    """
    return Html(text)
