"""The page's hands on the document that need no game: the keyboard focus
and the live region, given the document (and the browser's objects) they
work on instead of importing them.

Written in the part of Python that CPython and MicroPython share, because
MicroPython runs it on the page's main thread while the game runs in a
worker (docs/DESIGN.md, "The page's runtime"): no `from __future__`,
`typing` only under `TYPE_CHECKING` (annotations that name its types are
strings), no dataclasses, no `*`/`**` unpacking inside list or dict
displays, no dunder methods of builtins. game.web.dom.main_thread and
game.web.dom.embed_front bind it to the page's document; the CPython tests
run it on tests/fake_dom.py.
"""
