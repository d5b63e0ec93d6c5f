"""How many random cases a property test or the fuzzer tries: the count it names,
scaled to the loaded hypothesis profile (registered and chosen in conftest.py:
"full" in the full run and in CI, "fast", a quarter, in the quick run); and
which cases of a parametrized test the quick run tries (`quick_first`).

>>> from hypothesis import settings
>>> examples(1000) == 1000 * settings.default.max_examples // 100
True
"""

from __future__ import annotations

from typing import Any, Iterable

import pytest
from hypothesis import settings

FULL_EXAMPLES = 100  # max_examples of the "full" profile: the counts as the tests write them


def examples(full: int) -> int:
    """`full` (a test's count at full strength) for the loaded profile; at least 1."""
    return max(1, full * settings.default.max_examples // FULL_EXAMPLES)


def quick_first(cases: Iterable[Any], keep: int = 1) -> list[Any]:
    """`cases` for `pytest.mark.parametrize`, all but the first `keep` marked
    `slow`: the quick run tries those (put the cheapest first), the full run
    every one. A tuple is one case of several arguments.

    >>> [getattr(c, "values", c) for c in quick_first(["en", "fr", "de"])]
    ['en', ('fr',), ('de',)]
    """
    return [case if i < keep else
            pytest.param(*(case if isinstance(case, tuple) else (case,)), marks=pytest.mark.slow)
            for i, case in enumerate(cases)]
