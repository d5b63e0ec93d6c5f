"""The browser side: the only code that imports `pyscript` and `js`.

`game.web.main.start()` is what the page runs. `shell` is the shared site
(start screen, saves, languages, log, scores, bot loop); `tables.<game>`
renders one game's table from an observation. `i18n`, `saves` and the
table renderers are pure Python; `shell` and `main` need the browser.
"""
