"""A small document for CPython tests of the main-thread layer
(game.web.front): elements parsed from markup by the standard library's
HTMLParser, the few selectors that layer uses (`#id`, `tag`, `.class`,
`[attr]`, `[attr=value]`, compounds of these, descendants, and lists
separated by commas), attributes, `dataset`, `classList`, focus, and event
listeners. Not a browser: what the layer does is also played in one
(tests/browser).
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from typing import Any, Callable, Iterator

VOID = {"br", "hr", "img", "input", "meta", "link", "source", "wbr", "col", "area"}
SIMPLE = re.compile(r":not\([^)]*\)|#[\w-]+|\.[\w-]+|\[[\w-]+(?:=[\"']?[^\]\"']*[\"']?)?\]"
                    r"|^[a-zA-Z][\w-]*")


class Boxes(list[Any]):
    """A DOMRectList: a list with JavaScript's `length`."""

    @property
    def length(self) -> int:
        return len(self)


class ClassList:
    def __init__(self, el: Element) -> None:
        self.el = el

    def _names(self) -> list[str]:
        return (self.el.getAttribute("class") or "").split()

    def add(self, name: str) -> None:
        names = self._names()
        if name not in names:
            self.el.setAttribute("class", " ".join([*names, name]))

    def remove(self, name: str) -> None:
        self.el.setAttribute("class", " ".join(n for n in self._names() if n != name))

    def contains(self, name: str) -> bool:
        return name in self._names()


class Dataset:
    """`el.dataset`: data-* attributes by their camelCase names."""

    def __init__(self, el: Element) -> None:
        object.__setattr__(self, "_el", el)

    @staticmethod
    def _attr(name: str) -> str:
        return "data-" + re.sub(r"[A-Z]", lambda m: "-" + m.group(0).lower(), name)

    def __getattr__(self, name: str) -> str | None:
        return object.__getattribute__(self, "_el").getAttribute(self._attr(name))

    def __setattr__(self, name: str, value: str) -> None:
        object.__getattribute__(self, "_el").setAttribute(self._attr(name), str(value))


class Element:
    def __init__(self, tag: str, attrs: dict[str, str] | None = None,
                 doc: Document | None = None) -> None:
        self.tagName = tag.upper()
        self.attrs: dict[str, str] = dict(attrs or {})
        self.children: list[Element | str] = []
        self.parentNode: Element | None = None
        self.ownerDocument = doc
        self._value: str | None = None  # set by a script (or a person)
        self.checked = "checked" in self.attrs
        self.listeners: dict[str, list[Callable[[Any], None]]] = {}
        self.scrollTop = 0
        self.scrollHeight = 0
        self.tabIndex = 0

    # -- attributes -----------------------------------------------------------------
    def getAttribute(self, name: str) -> str | None:
        return self.attrs.get(name)

    def setAttribute(self, name: str, value: str) -> None:
        self.attrs[name] = str(value)

    def removeAttribute(self, name: str) -> None:
        self.attrs.pop(name, None)

    def hasAttribute(self, name: str) -> bool:
        return name in self.attrs

    @property
    def value(self) -> str:
        """A field's value: set, else its attribute; a <select>'s selected
        option's (its first, if none is marked)."""
        if self._value is not None:
            return self._value
        if self.tagName == "SELECT":
            options = self.querySelectorAll("option")
            chosen = next((o for o in options if o.hasAttribute("selected")), None)
            chosen = chosen or (options[0] if options else None)
            return "" if chosen is None else chosen.attrs.get("value", chosen.textContent)
        return self.attrs.get("value", "")

    @value.setter
    def value(self, value: str) -> None:
        self._value = str(value)

    @property
    def id(self) -> str:
        return self.attrs.get("id", "")

    @id.setter
    def id(self, value: str) -> None:
        self.attrs["id"] = str(value)

    @property
    def className(self) -> str:
        return self.attrs.get("class", "")

    @className.setter
    def className(self, value: str) -> None:
        self.attrs["class"] = str(value)

    @property
    def disabled(self) -> bool:
        return "disabled" in self.attrs

    @property
    def open(self) -> bool:
        """A <dialog> shown."""
        return "open" in self.attrs

    def showModal(self) -> None:
        self.attrs["open"] = ""

    def close(self) -> None:
        """A <dialog> closed: its `close` event follows."""
        if self.attrs.pop("open", None) is not None and self.ownerDocument is not None:
            for handler in self.listeners.get("close", []):
                handler(Event("close", self))

    @property
    def type(self) -> str:
        return self.attrs.get("type", "")

    @property
    def name(self) -> str:
        return self.attrs.get("name", "")

    @property
    def hidden(self) -> bool:
        return "hidden" in self.attrs

    @hidden.setter
    def hidden(self, value: bool) -> None:
        if value:
            self.attrs["hidden"] = ""
        else:
            self.attrs.pop("hidden", None)

    @property
    def dataset(self) -> Dataset:
        return Dataset(self)

    @property
    def classList(self) -> ClassList:
        return ClassList(self)

    # -- tree -------------------------------------------------------------------------
    def elements(self) -> Iterator[Element]:
        """Every element under this one, in document order."""
        for child in self.children:
            if isinstance(child, Element):
                yield child
                yield from child.elements()

    def contains(self, other: Element | None) -> bool:
        while other is not None:
            if other is self:
                return True
            other = other.parentNode
        return False

    @property
    def isConnected(self) -> bool:
        return self.ownerDocument is not None and self.ownerDocument.documentElement.contains(self)

    def append(self, child: Element) -> None:
        child.parentNode = self
        self.children.append(child)

    def remove(self) -> None:
        if self.parentNode is not None:
            self.parentNode.children.remove(self)
            self.parentNode = None

    @property
    def childElementCount(self) -> int:
        return sum(isinstance(c, Element) for c in self.children)

    @property
    def firstElementChild(self) -> Element | None:
        return next((c for c in self.children if isinstance(c, Element)), None)

    @property
    def textContent(self) -> str:
        return "".join(c if isinstance(c, str) else c.textContent for c in self.children)

    @textContent.setter
    def textContent(self, text: str) -> None:
        for child in self.children:
            if isinstance(child, Element):
                child.parentNode = None
        self.children = [str(text)]

    @property
    def innerHTML(self) -> str:
        return "".join(c if isinstance(c, str) else c.outerHTML for c in self.children)

    @innerHTML.setter
    def innerHTML(self, markup: str) -> None:
        self.textContent = ""
        self.children = []
        _Builder(self).feed(markup)

    @property
    def outerHTML(self) -> str:
        attrs = "".join(f' {k}="{v}"' for k, v in self.attrs.items())
        tag = self.tagName.lower()
        return f"<{tag}{attrs}>" + ("" if tag in VOID else f"{self.innerHTML}</{tag}>")

    # -- selectors --------------------------------------------------------------------
    def matches(self, selector: str) -> bool:
        return any(_matches_path(self, part.split()) for part in selector.split(","))

    def closest(self, selector: str) -> Element | None:
        el: Element | None = self
        while el is not None:
            if el.matches(selector):
                return el
            el = el.parentNode
        return None

    def querySelectorAll(self, selector: str) -> list[Element]:
        return [el for el in self.elements() if el.matches(selector)]

    def querySelector(self, selector: str) -> Element | None:
        return next(iter(self.querySelectorAll(selector)), None)

    # -- focus and events -------------------------------------------------------------
    def focus(self, options: Any = None) -> None:
        if self.ownerDocument is not None and self.isConnected:
            self.ownerDocument.activeElement = self

    def addEventListener(self, kind: str, handler: Callable[[Any], None]) -> None:
        self.listeners.setdefault(kind, []).append(handler)

    def click(self) -> None:
        if self.ownerDocument is not None:
            self.ownerDocument.dispatch("click", self)

    def scrollIntoView(self, options: Any = None) -> None:
        pass

    def getClientRects(self) -> Boxes:
        """One box if the element is shown (neither it nor an ancestor is hidden)."""
        el: Element | None = self
        while el is not None:
            if el.hidden:
                return Boxes()
            el = el.parentNode
        return Boxes([(0, 0, 0, 0)])


def _matches_compound(el: Element, compound: str) -> bool:
    parts = SIMPLE.findall(compound)
    if "".join(parts) != compound:
        raise ValueError(f"the fake document does not know the selector {compound!r}")
    for part in parts:
        if part.startswith(":not("):
            ok = not _matches_compound(el, part[5:-1])
        elif part.startswith("#"):
            ok = el.id == part[1:]
        elif part.startswith("."):
            ok = el.classList.contains(part[1:])
        elif part.startswith("["):
            name, _, value = part[1:-1].partition("=")
            ok = name in el.attrs and (not _ or el.attrs[name] == value.strip("\"'"))
        else:
            ok = el.tagName == part.upper()
        if not ok:
            return False
    return True


def _matches_path(el: Element, path: list[str]) -> bool:
    if not path or not _matches_compound(el, path[-1]):
        return False
    ancestor = el.parentNode
    for compound in reversed(path[:-1]):
        while ancestor is not None and not _matches_compound(ancestor, compound):
            ancestor = ancestor.parentNode
        if ancestor is None:
            return False
        ancestor = ancestor.parentNode
    return True


class _Builder(HTMLParser):
    def __init__(self, root: Element) -> None:
        super().__init__(convert_charrefs=True)
        self.stack = [root]

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        el = Element(tag, {k: v or "" for k, v in attrs}, self.stack[0].ownerDocument)
        self.stack[-1].append(el)
        if tag not in VOID:
            self.stack.append(el)

    def handle_endtag(self, tag: str) -> None:
        for i in range(len(self.stack) - 1, 0, -1):
            if self.stack[i].tagName == tag.upper():
                del self.stack[i:]
                return

    def handle_data(self, data: str) -> None:
        self.stack[-1].children.append(data)


class Event:
    def __init__(self, kind: str, target: Element, **fields: Any) -> None:
        self.type, self.target = kind, target
        self.defaultPrevented = False
        self.stopped = False
        self.timeStamp = 0.0
        self.ctrlKey = self.metaKey = self.shiftKey = self.altKey = False
        for name, value in fields.items():
            setattr(self, name, value)

    def preventDefault(self) -> None:
        self.defaultPrevented = True

    def stopPropagation(self) -> None:
        self.stopped = True


class Document:
    """A page: `<html>` with a `<body>` parsed from `body_markup`."""

    def __init__(self, body_markup: str = "") -> None:
        self.documentElement = Element("html", {}, self)
        self.body = Element("body", {}, self)
        self.documentElement.append(self.body)
        self.body.innerHTML = body_markup
        self.activeElement: Element = self.body
        self.title = ""
        self.listeners: dict[str, list[Callable[[Any], None]]] = {}

    def getElementById(self, id_: str) -> Element | None:
        return self.documentElement.querySelector("#" + id_)

    def querySelector(self, selector: str) -> Element | None:
        return self.documentElement.querySelector(selector)

    def querySelectorAll(self, selector: str) -> list[Element]:
        return self.documentElement.querySelectorAll(selector)

    def createElement(self, tag: str) -> Element:
        return Element(tag, {}, self)

    def addEventListener(self, kind: str, handler: Callable[[Any], None]) -> None:
        self.listeners.setdefault(kind, []).append(handler)

    def dispatch(self, kind: str, target: Element, **fields: Any) -> Event:
        """An event on `target`, heard by the document's listeners (it bubbles there)."""
        event = Event(kind, target, **fields)
        for handler in self.listeners.get(kind, []):
            handler(event)
        return event
