"""Pieces the table renderers share: their start-screen forms, the defaults of
the `Table` protocol's hooks (game.web.draw.tables), and what their words and
their motion are made of."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping

from game.bots import Bot, levels, make_bot, think_seconds
from game.bots.ratings import level_ratings
from game.core.options import OptionSpec
from game.web.draw.html import Html, html, join
from game.web.draw.i18n import Translator


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
    """The level a new bot seat starts with: normal where there is one."""
    return "heuristic" if "heuristic" in bots else bots[-1]


def seat_bot(game: str, level: str | None) -> Bot:
    """The bot that plays a seat set to `level` (the strongest for a level the
    game does not know): the bot its game's ladder names, as the page thinks
    with it (on the clock, where it thinks on one).

    >>> type(seat_bot("dracula", "strong")).__name__, seat_bot("dracula", "expert").budget
    ('HeuristicBot', 1.0)
    """
    ladder = levels(game)
    return make_bot(game, ladder.get(level or "", list(ladder.values())[-1]))


def level_labels(t: Translator, game: str, options: Mapping[str, Any]) -> dict[str, str]:
    """Each level of `game` as a strength <select> names it in the interface's
    language: its name, how long its bot thinks where it thinks on the page's
    clock, and its measured rating in this mode (game.bots.ratings.level_ratings;
    a level not measured shows no number), e.g. "expert (1 s a move) · 1800".
    The strongest level, when not measured beside measured ones, says so
    ("strongest, not rated yet") rather than look weaker than a rated one."""
    ratings = level_ratings(game, options)
    seconds = think_seconds(game)
    ladder = levels(game)
    strongest = list(ladder)[-1]
    labels = {}
    for b, bot in ladder.items():
        level = t(f"bot.{b}") if t.has(f"bot.{b}") else b
        if bot in seconds:
            level = t("bot.thinks", level=level, seconds=f"{seconds[bot]:g}")
        if b in ratings:
            level = t("bot.rated", level=level, rating=ratings[b])
        elif b == strongest and ratings:
            level = t("bot.unrated_strongest", level=level)
        labels[b] = level
    return labels


# -- friends at one screen: any seat may be a person instead of a bot ------------

PERSON = "person"  # a seat's choice beside the bot strengths
NAME_MAX = 24  # characters of a name kept


def seat_choice(values: dict[str, str], key: str, bots: list[str]) -> str:
    """A seat's choice on the start screen: a bot's strength, or PERSON."""
    value = values.get(key, default_bot(bots))
    return value if value in bots or value == PERSON else default_bot(bots)


def person_name(values: dict[str, str], key: str, default: str = "") -> str:
    """A name typed on the start screen, spaces tidied and cut to NAME_MAX, else `default`.

    >>> person_name({"n": "  Ann   Lee "}, "n"), person_name({"n": " "}, "n", "Betty")
    ('Ann Lee', 'Betty')
    """
    return " ".join(values.get(key, "").split())[:NAME_MAX] or default


def name_field(t: Translator, key: str, value: str, label: str) -> Html:
    """A person's name (shown on the hand-over screen)."""
    return html('<label class="field"><span>{label}</span><input name="{key}" id="f-{key}" '
                'type="text" maxlength="{max}" autocomplete="off" value="{value}"></label>',
                label=label, key=key, max=str(NAME_MAX), value=value)


def seat_fields(t: Translator, bots: list[str], values: dict[str, str], key: str, label: str,
                name_key: str, default_name: str, labels: Mapping[str, str]) -> Html:
    """A seat's <select> (each bot strength by its `level_labels`, or a person)
    and, for a person, a name."""
    choice = seat_choice(values, key, bots)
    options = [*((b, labels.get(b, b)) for b in bots), (PERSON, t("setup.person"))]
    field = select_field(key, options, choice, label)
    if choice != PERSON:
        return field
    return join((field, name_field(t, name_key, person_name(values, name_key, default_name),
                                   t("setup.name", name=default_name))))


# -- the defaults of the `Table` protocol's hooks, for a renderer to take by name --

def never_confirm(action: str) -> bool:
    """`confirm`: a complete choice is made at once."""
    return False


def no_attempt(picked: tuple[str, ...], obs: dict[str, Any]) -> str | None:
    """`attempt`: picked parts spell no move of their own."""
    return None


def no_waiting(t: Translator) -> Html | None:
    """`waiting`: an embed paints nothing before its game is up."""
    return None


def same_options(options: dict[str, Any], people: dict[str, str]) -> dict[str, Any]:
    """`online_options`: the people's names change nothing of the game."""
    return options


def catalog_mode(t: Translator, game: str, mode: str) -> str:
    """`mode_text` of a mode the catalog names (`stats.mode.<game>.<mode>`)."""
    key = f"stats.mode.{game}.{mode}"
    return t(key) if t.has(key) else mode


def seat_number(who: str, t: Translator) -> str:
    """`seat_word` of a seat by its number ("Seat 2"), else as it is named."""
    return t("online.seat_n", seat=int(who) + 1) if who.isdigit() else who


# -- motion (game.web.draw.motion): the cards an action moves -------------------------

Event = dict[str, Any]  # one engine event, as `state.events(seat)` gives it


@dataclass(frozen=True)
class Move:
    """One card's travel to the element `to`.

    "arrive": the card's new element (`to [data-card=…]`) comes from the box its
    old element had inside `src`, or else (`seat`) from the box of `src` in the
    new table: the hand it came from. "leave": the card left the table: a copy
    of its old element flies to `to`. "back": the card went face down into
    `to` (a card back there): a back flies from its old box.
    """
    card: str
    to: str
    src: str = ""
    kind: str = "arrive"
    seat: bool = False

    def data(self) -> dict[str, Any]:
        """As a frame carries it (game.web.front.motion plays it)."""
        return {"card": self.card, "to": self.to, "src": self.src, "kind": self.kind,
                "seat": self.seat}


Plan = tuple[list[Move], dict[str, str]]  # moves now; cards leaving later -> where to


# -- a live embed's URL (game.web.embed.options) -------------------------------------------

# `pick(name, allowed, default)`: a URL parameter, checked against what is allowed.
Pick = Callable[[str, tuple[str, ...], str], str]
