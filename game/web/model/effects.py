"""Effects the page's panels ask for that only the browser's screen can do
(game.web.runtime.drivers' `Screen`): the controller's runtime carries them out
after the reducers are done. Small frozen values, shared by the panels'
reducers (game.web.model.stats_page, game.web.model.file_panel) and the page's."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Focus:
    """Focus the first element matching `selector` once the page is drawn."""
    selector: str


@dataclass(frozen=True)
class ChooseFile:
    """The browser's file chooser; its file comes back as an action of the panel
    that asked (`purpose`: "game", the file panel; "stats")."""
    purpose: str
