"""Decisions made of several clicks, held in Python (no state in the page).

A renderer says which clickable parts an action is made of (`parts`); the
picked parts are a set, so a card then a cell and a cell then a card make
the same placement.  What may be picked next and what the picked parts make
come from the engine's `legal_actions()` only: the page never decides what
is legal.

>>> split = lambda a: (a[:a.index("@")], a[a.index("@"):])
>>> c = Choice(["JH@01", "JH@10", "9D@01"], split)
>>> sorted(c.offers(("JH",)))
['@01', '@10']
>>> c.complete(("@01", "JH")), c.decisive(("@01", "JH"))
('JH@01', True)
>>> c.complete(("JH",)) is None, c.allows(("9D", "@10"))
(True, False)
"""

from __future__ import annotations

from typing import Callable, Iterable

Split = Callable[[str], tuple[str, ...]]


def single(action: str) -> tuple[str, ...]:
    """The default: an action is one click."""
    return (action,)


class Choice:
    """The legal actions of one decision, seen as sets of parts."""

    def __init__(self, legal: Iterable[str], split: Split = single) -> None:
        self.sets = {action: frozenset(split(action)) for action in legal}

    def allows(self, picked: Iterable[str]) -> bool:
        """Whether the picked parts still lead to a legal action."""
        chosen = frozenset(picked)
        return any(chosen <= parts for parts in self.sets.values())

    def offers(self, picked: Iterable[str]) -> frozenset[str]:
        """Parts that can be added to `picked` and still lead to a legal action."""
        chosen = frozenset(picked)
        out: set[str] = set()
        for parts in self.sets.values():
            if chosen <= parts:
                out |= parts - chosen
        return frozenset(out)

    def complete(self, picked: Iterable[str]) -> str | None:
        """The legal action made of exactly the picked parts, if any."""
        chosen = frozenset(picked)
        for action, parts in self.sets.items():
            if parts == chosen:
                return action
        return None

    def decisive(self, picked: Iterable[str]) -> bool:
        """Complete, and no legal action needs more parts: apply without asking."""
        chosen = frozenset(picked)
        return (self.complete(chosen) is not None
                and not any(chosen < parts for parts in self.sets.values()))
