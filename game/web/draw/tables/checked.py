"""mypy's check that every game's table module is a `Table` (game.web.draw.tables).

`renderer()` imports a table by its game's id, which mypy cannot follow:
here each module is given the type `Table`, so that mypy finds a hook
missing or called with other arguments. Nothing imports this module; a new
game's table is added here too (tests/test_web_layers.py checks it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from game.web.draw.tables import Table, dracula, jekyll_hyde, jekyll_vs_hyde

    JEKYLL_HYDE: Table = jekyll_hyde
    JEKYLL_VS_HYDE: Table = jekyll_vs_hyde
    DRACULA: Table = dracula
