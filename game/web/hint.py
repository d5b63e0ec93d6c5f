"""The hint: the strong bot's choice for the person's own decision.

Pure Python (no browser import), so CPython tests run it as the page does.
A hint is computed from the person's observation alone: `Hint` is handed
`state.observation(seat)` and takes the legal actions from it
(`observation["legal"]`); it never receives the state, so it cannot reveal a
hidden card.  The page advances it in short slices (`step`) and yields to the
browser between them; it stops at its budget (the strong bot's, 1 s) or when
the person acts meanwhile (the shell drops it).
"""

from __future__ import annotations

import random
import time
from typing import TYPE_CHECKING, Any, Callable

if TYPE_CHECKING:
    from game.web.tables import Table, TableContext


class Hint:
    """One hint under way for `observation` (the person's)."""

    def __init__(self, observation: dict[str, Any], rng: random.Random,
                 clock: Callable[[], float] = time.monotonic, **bot_settings: Any) -> None:
        from game.bots.search import SearchBot

        self.legal = list(observation["legal"])
        bot = SearchBot(clock=clock, **bot_settings)
        self.clock = clock
        self.end = clock() + bot.budget
        self.search = bot.start(observation, rng) if len(self.legal) > 1 else None

    def done(self) -> bool:
        return self.search is None or self.search.done(self.end)

    def step(self, seconds: float) -> None:
        """Think for about `seconds` (one slice)."""
        if self.search is not None:
            self.search.step(self.clock() + seconds, self.end)

    def best(self) -> str:
        return self.legal[0] if self.search is None else self.search.best(self.legal)

    @property
    def iterations(self) -> int:
        return 0 if self.search is None else self.search.iterations


def suggest(observation: dict[str, Any], rng: random.Random, **bot_settings: Any) -> str:
    """The hint in one go (CPython tests and benchmarks)."""
    hint = Hint(observation, rng, **bot_settings)
    while not hint.done():
        hint.step(0.05)
    return hint.best()


def hint_rng(seed: Any, n_actions: int) -> random.Random:
    """The hint's own random numbers: the same hint for the same position of a game."""
    return random.Random(f"hint:{seed}:{n_actions}")


# -- what to say and what to highlight -------------------------------------------
#
# A renderer may define `hint(action, obs, ctx) -> (text, selectors)`: the
# suggestion in words and CSS selectors of the elements to highlight.  The
# three tables of the site are described here, through their public helpers,
# so their renderers need no change; anything else falls back to the element
# whose `data-act` is the action.

def _sel(attr: str, value: str, within: str = "") -> str:
    return f'{within}[{attr}="{value}"]'.strip()


def _jekyll_hyde(action: str, obs: dict[str, Any], ctx: TableContext) -> tuple[str, list[str]]:
    """Words only: every action is one click, and the shell highlights its `data-act`."""
    from game.web.tables import jekyll_hyde as table

    t = ctx.t
    if action.startswith("@"):
        seat = int(action[1:])
        return t("hint.ask", name=table.shown(table.seat_name(obs, seat), t)), []
    key = "hint.give" if obs.get("designated") == ctx.seat else "hint.play"
    return t(key, cards=table.card_name(action, t)), []


def _jekyll_vs_hyde(action: str, obs: dict[str, Any],
                    ctx: TableContext) -> tuple[str, list[str]]:
    """Words only: the shell highlights the action's cards (and a Potion's colour) itself."""
    from game.web.tables import jekyll_vs_hyde as table

    t = ctx.t
    verb, _, rest = action.partition(":")
    if verb in ("give", "swap"):
        words = ", ".join(table.card_name(c, t) for c in table.parts(action))
        return t(f"hint.{verb}", cards=words), []
    if rest:  # a Potion led, naming a colour
        return (t("hint.lead_potion", card=table.card_name(verb, t),
                  colour=table.colour_name(rest, t)), [])
    return t("hint.play", cards=table.card_name(action, t)), []


def _dracula(action: str, obs: dict[str, Any], ctx: TableContext) -> tuple[str, list[str]]:
    from game.web.tables import dracula as table

    t = ctx.t
    # The shell highlights the action's parts (a way; a card and a cell) itself.
    if action.startswith("way:"):
        return t("hint.way", way=t(f"dr.way.{action[4:]}")), []
    card, cell = table.parts(action)
    return t("hint.place", card=table.card_name(card, t), cell=t(f"dr.cell.{cell[1:]}")), []


DESCRIBE = {"jekyll-hyde": _jekyll_hyde, "jekyll-vs-hyde": _jekyll_vs_hyde, "dracula": _dracula}
Describe = Callable[[str, dict[str, Any], "TableContext"], tuple[str, list[str]]]


def describe(game_id: str, table: Table, action: str, obs: dict[str, Any],
             ctx: TableContext) -> tuple[str, list[str]]:
    """(words, CSS selectors to highlight) for the suggested `action`."""
    hook: Describe | None = getattr(table, "hint", None) or DESCRIBE.get(game_id)
    if hook is not None:
        try:
            return hook(action, obs, ctx)
        except Exception:  # an odd action: still show it
            pass
    return ctx.t("hint.other", action=action), [_sel("data-act", action)]
