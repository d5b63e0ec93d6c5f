"""`html()` fills a template as `string.Formatter` would, escaping every value.

It cuts each template once and fills plain fields itself (the tables call it
thousands of times per frame), leaving the rest to `string.Formatter`: the two
paths must agree on every template, value and error.
"""

from __future__ import annotations

import string
from html import escape
from typing import Any

from hypothesis import example, given
from hypothesis import strategies as st

from game.web.draw.html import Html, html


class _Reference(string.Formatter):
    def format_field(self, value: Any, format_spec: str) -> str:
        if isinstance(value, Html):
            return str.__str__(value)
        return escape(format(value, format_spec), quote=True)


def _outcome(fill, template, args, kwargs) -> tuple[str, Any]:
    try:
        return "made", str.__str__(fill(template, *args, **kwargs))
    except Exception as e:  # the same error, whichever path raised it
        return "raised", type(e)


def _reference(template, *args, **kwargs):
    return _Reference().vformat(template, args, kwargs)


TEXT = st.text(alphabet="<>&\"'a ", max_size=4)
VALUES = st.one_of(TEXT, st.integers(-999, 999), st.none(), st.lists(TEXT, max_size=2),
                   st.builds(Html, st.sampled_from(["<i>x</i>", "&amp;", ""])))
FIELDS = ["{}", "{0}", "{1}", "{a}", "{b}", "{a:>5}", "{:>4}", "{0!r}", "{a!s:^7}", "{a[0]}",
          "{b.real}", "{a:{w}}", "{²}", "{٣}", "{-1}", "{", "}", "{:x}"]
TEMPLATES = st.lists(st.one_of(st.sampled_from(FIELDS), TEXT.map(lambda t: t.replace("{", "{{"))),
                     max_size=6).map("".join)


@given(TEMPLATES, st.lists(VALUES, max_size=3),
       st.fixed_dictionaries({"a": VALUES, "b": VALUES, "w": st.sampled_from([3, "4", None])}))
@example("<p>{}{}{}</p>", ["<", "&", Html("<i>")], {})
@example("{a}{}{b}{}", ["1", "2"], {"a": '"', "b": "'"})
@example("{1}{0}{a:>4}", ["x", 7], {"a": "<"})
@example("<p>{}{0}</p>", ["x"], {})  # both numberings: refused
@example("<p>{0}{}</p>", ["x"], {})
def test_html_fills_templates_as_string_formatter_does(template, args, kwargs):
    assert _outcome(html, template, args, kwargs) == _outcome(_reference, template, args, kwargs)


def test_every_value_but_html_is_escaped_on_both_paths():
    payload = '<img src=x onerror="alert(1)">'
    for template in ["<p>{}</p>", "<p>{0}{0}</p>", "<p>{a}</p>", "<p>{a!s}</p>", "<p>{a:>40}</p>"]:
        args, kwargs = ((payload,), {}) if "a" not in template else ((), {"a": payload})
        made = html(template, *args, **kwargs)
        assert isinstance(made, Html) and "<img" not in made and "&lt;img" in made, template
    assert html("<p>{}</p>", Html("<i>kept</i>")) == "<p><i>kept</i></p>"
