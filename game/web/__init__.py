"""The page: the engine's games in a browser.

`page` (everything the page knows, one value, and its reducer), `session`
(the game on the table, and its reducer), `views` (pure: the page to regions
of markup), `controller` (carries out the effects through the drivers of
`drivers`), `tables.<game>` (one game's table from an observation). All of
it is pure Python and runs in CPython; only `dom` touches the browser
(`dom/worker.py` runs the game in the page's worker, `dom/main_thread.py`
and `dom/embed_front.py` the front on index.html's and embed.html's page).
"""
