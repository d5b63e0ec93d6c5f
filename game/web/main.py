"""Entry point run by index.html once Python is up."""

from __future__ import annotations


def start() -> None:
    from game.web.shell import App

    app = App()
    app.start()
    globals()["app"] = app  # keep a reference (and a handle for debugging)
