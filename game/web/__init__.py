"""The page: the engine's games in a browser, laid out by concern.

- `model/`: what the page knows, as frozen values, and the pure reducers
  that change it (`page.Page` and its `reduce`, the game on the table in
  `session`, the review, the statistics screen, the file dialog, saves,
  links, the hand analysis's values).
- `draw/`: pure functions from those values to markup (`views`, the safe
  `html`, the catalogs of `i18n`, the frames sent to the page) and one
  module per game's table in `draw/tables/`.
- `runtime/`: the controller (the one dispatch loop that stores a new
  `Page` and carries out the reducers' effects), the drivers' interfaces,
  storage, bots and hints thinking beside the page, and online play's door
  (`online_door`: its actions, effects and drivers, and the fetch of the rest).
- `online/`: online play's part, downloaded only once a person chooses it
  (online.zip, game.build.PARTS): the host's and a guest's reducers, their
  state in the page, their effects' runner, the lobby's markup, the QR code.
- `embed/`: embed.html's scripted examples and live table.
- `dom/` (the only code that imports `js`, `pyodide` or `pyscript`): the
  page's worker and main thread; `front/`: the MicroPython front that draws
  frames and listens.

Everything but `dom/` runs in CPython and is tested there.
"""
