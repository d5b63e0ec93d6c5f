"""The page's own clock, to set Python's timings beside the browser's."""

from __future__ import annotations

from js import performance


def page_now() -> float:
    """The page's performance.now() (ms): the clock of the browser's task timings."""
    return float(performance.now())
