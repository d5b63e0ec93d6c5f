"""The page's drivers that touch the browser (the DOM runtime, storage, tab
locks, focus, the live region, the review dialog, the embed): the only
folder of game.web that imports `js`, `pyodide` or `pyscript`."""
