"""The page's hands on the document that need no game: the keyboard focus
and the live region, given the document (and the browser's objects) they
work on instead of importing them.

Written in the part of Python that CPython and MicroPython share, because
this is the layer that moves to the main thread's MicroPython when the game
itself moves to a worker (docs/DESIGN.md, "Python off the main thread"):
no `from __future__`, `typing` only under `TYPE_CHECKING` (annotations that
name its types are strings), no dataclasses, no `*`/`**` unpacking inside
list or dict displays, no dunder methods of builtins. Today Pyodide runs it
on the page (game.web.dom binds it to the page's document); the CPython
tests run it on tests/fake_dom.py.
"""
