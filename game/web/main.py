"""Entry point run by index.html once Python is up.

Two tasks, with the browser between them: the shell's import and set-up, then
its first drawing. A page's start-up in tasks of more than 50 ms each keeps
clicks and scrolling waiting (Lighthouse counts it as blocking time).
"""

from __future__ import annotations


def start() -> None:
    try:
        from game.web.shell import App

        app = App()
    except Exception as e:  # the shell itself could not start: a plain message, no traceback
        import traceback

        from pyscript import document, window

        window.console.error("".join(traceback.format_exception(e)))
        screen = document.getElementById("screen")
        screen.textContent = "Something went wrong while starting the game. Reload the page to try again."
        document.body.dataset.state = "failed"
        return
    from pyodide.ffi import create_once_callable
    from pyscript import window

    # setImmediate (static/js/python.mjs): unlike setTimeout, not throttled in a background tab.
    window.setImmediate(create_once_callable(app.start))
    globals()["app"] = app  # keep a reference (and a handle for debugging)
