"""Pieces every table renderer's start-screen form uses."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from game.core.options import OptionSpec
from game.web.html import Html, html, join
from game.web.i18n import Translator


def select_field(name: str, options: list[tuple[str, str]], value: str, label: str) -> Html:
    """A labelled <select>; changing it updates the start screen."""
    opts = join(html('<option value="{}"{}>{}</option>', v, html(" selected") if v == value
                     else "", text) for v, text in options)
    return html('<label class="field"><span>{label}</span>'
                '<select name="{name}" id="f-{name}" data-cmd="setup-change">{opts}</select>'
                '</label>', label=label, name=name, opts=opts)


def option_spec(specs: tuple[OptionSpec, ...], name: str) -> OptionSpec:
    """The option called `name` among a game's `OPTIONS`."""
    return next(spec for spec in specs if spec.name == name)


@dataclass(frozen=True)
class OptionField:
    """An engine option the start screen shows as a <select> named after it,
    and a live embed reads from the URL parameter of the same name.

    It lists the option's choices, default first, or for a range the `offered`
    values (the default among them); a value not listed reads as the default.

    >>> from game.jekyll_vs_hyde.rules import OPTIONS
    >>> variant = OptionField(option_spec(OPTIONS, "variant"))
    >>> variant.texts(), variant.read({"variant": "return-match"}), variant.read({"variant": "?"})
    (('standard', 'return-match'), 'return-match', 'standard')
    """

    spec: OptionSpec
    offered: tuple[Any, ...] = ()

    def __post_init__(self) -> None:
        listed = self.listed()
        if not (self.spec.choices or self.offered) or not all(map(self.spec.fits, listed)) \
                or self.spec.default not in listed:
            raise ValueError(f"the start screen cannot offer {listed!r} for {self.spec.summary()}")

    @property
    def name(self) -> str:
        return self.spec.name

    def listed(self) -> tuple[Any, ...]:
        """The values the <select> lists, in order."""
        spec = self.spec
        return self.offered or (spec.default, *(c for c in spec.choices if c != spec.default))

    def texts(self) -> tuple[str, ...]:
        """The listed values as a form or a URL writes them."""
        return tuple(str(v) for v in self.listed())

    def read(self, values: dict[str, str]) -> Any:
        """The option's value in the start screen's `values`, else its default."""
        text = values.get(self.name)
        return next((v for v in self.listed() if str(v) == text), self.spec.default)

    def select(self, t: Translator, values: dict[str, str]) -> Html:
        """The <select>, labelled `option.<name>`, each choice `option.<name>.<value>`
        (an offered number of a range stands for itself)."""
        key = self.spec.catalog_key
        options = [(str(v), t(f"{key}.{v}") if self.spec.choices else str(v))
                   for v in self.listed()]
        return select_field(self.name, options, str(self.read(values)), t(key))


def default_bot(bots: list[str]) -> str:
    """The strength a new bot seat starts with: normal (the heuristic) where there is one."""
    return "heuristic" if "heuristic" in bots else bots[-1]


def bot_options(t: Translator, bots: list[str]) -> list[tuple[str, str]]:
    """(bot, its name in the interface's language) for a strength <select>."""
    return [(b, t(f"bot.{b}") if t.has(f"bot.{b}") else b) for b in bots]
