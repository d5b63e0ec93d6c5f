"""Entry point run by index.html once Python is up."""

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
    app.start()
    globals()["app"] = app  # keep a reference (and a handle for debugging)
