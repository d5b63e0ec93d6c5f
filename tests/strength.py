"""How many random cases a property test or the fuzzer tries: the count it names,
scaled to the loaded hypothesis profile (registered and chosen in conftest.py:
"full" in the full run and in CI, "fast", a quarter, in the quick run).

>>> from hypothesis import settings
>>> examples(1000) == 1000 * settings.default.max_examples // 100
True
"""

from __future__ import annotations

from hypothesis import settings

FULL_EXAMPLES = 100  # max_examples of the "full" profile: the counts as the tests write them


def examples(full: int) -> int:
    """`full` (a test's count at full strength) for the loaded profile; at least 1."""
    return max(1, full * settings.default.max_examples // FULL_EXAMPLES)
