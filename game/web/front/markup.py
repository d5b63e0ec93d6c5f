"""The game's one write of markup into the page: a frame's regions, dialog
and steps carry markup that the game built and escaped with game.web.draw.html's
`html()` (game.web.draw.frames' `markup` takes only Html), and nothing else is
ever put here. (MicroPython's subset: see game.web.front.)"""

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def put_markup(el: "Any", markup: str) -> None:
    """Replace `el`'s content with `markup` from a frame."""
    el.innerHTML = markup
