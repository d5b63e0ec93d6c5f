"""The built site ships Python as bytecode that the browser's Pyodide loads as is.

The build compiles the game package, PyScript's own package and the standard
library modules the page imports as it starts, inside Pyodide (in Node); here
the BUILT files are loaded by the same Pyodide in Node, as the page does, and
every module the game imports must come from a `.pyc`: the browser then
compiles nothing at start-up.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import zipfile

import pytest

# Loads the built runtime and package like the page (game.zip written as one
# file, first on sys.path: static/js/python.mjs), imports the engine and the
# page's pure modules, plays a move, and reports where each module came from.
CHECK = r"""
const [site] = process.argv.slice(1);
const vendor = site + "/static/vendor/pyodide/";
const { loadPyodide } = await import(vendor + "pyodide.mjs");
const fs = await import("node:fs");
const py = await loadPyodide({ indexURL: vendor });
py.FS.writeFile("/home/pyodide/game.zip", fs.readFileSync(site + "/game.zip"));
console.log(py.runPython(`
import json, sys
sys.path.insert(0, "/home/pyodide/game.zip")
import game, game.bots, game.web.draw.i18n, game.web.model.saves, game.web.draw.tables.jekyll_hyde
state = game.new_game("jekyll-hyde", {}, seed=1)
state = state.apply(state.legal_actions()[0])
# The package's data, read from inside the zip through the modules' loader.
import game.bots.ratings, game.bots.search, game.web.model.coach
assert game.web.draw.i18n.catalog("fr")["setup.wait"], "no French catalog"
assert game.web.model.coach.load("dracula").actions, "no lesson"
assert game.bots.search.browser_caps("dracula", "strong"), "no browser caps"
assert game.bots.ratings.load_ratings()["modes"], "no ratings"
# Frozen modules (os, codecs, ...) are built into the interpreter: not imported from a file.
json.dumps({name: m.__file__ for name, m in list(sys.modules.items())
            if getattr(m, "__file__", None) and m.__spec__ and m.__spec__.origin != "frozen"})
`));
"""


def test_the_shipped_zips_hold_bytecode(built_site):
    game_zip = zipfile.ZipFile(built_site / "game.zip").namelist()
    assert not [n for n in game_zip if n.endswith(".py")]
    assert sum(n.endswith(".pyc") for n in game_zip) > 40
    assert "game/web/draw/i18n/en.json" in game_zip
    # Of the standard library, what the page imports as it starts; the rest as source.
    stdlib = zipfile.ZipFile(built_site / "static/vendor/pyodide/python_stdlib.zip").namelist()
    assert {"asyncio/__init__.pyc", "json/decoder.pyc", "random.pyc"} <= set(stdlib)
    assert {"email/__init__.py", "unittest/__init__.py"} <= set(stdlib)
    assert not {n[:-1] for n in stdlib if n.endswith(".pyc")} & set(stdlib)  # never both
    lock = json.loads((built_site / "static/vendor/pyodide/pyodide-lock.json").read_text())
    assert lock["packages"] == {} and lock["info"]["python"].startswith("3.14")


def test_pyodide_imports_the_built_bytecode_without_compiling(built_site):
    node = shutil.which("node")
    if node is None:
        pytest.skip("no Node.js")
    done = subprocess.run([node, "--input-type=module", "-e", CHECK, str(built_site)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    files = json.loads(done.stdout.strip().splitlines()[-1])
    ours = {n: f for n, f in files.items()
            if f.startswith(("/lib/python314.zip/", "/home/pyodide/game.zip/"))}
    assert "game.web.draw.tables.jekyll_hyde" in ours and "random" in ours and "json" in ours
    compiled = {n: f for n, f in ours.items() if not f.endswith(".pyc")}
    assert compiled == {}, f"imported from source (compiled in the page): {compiled}"


# PyScript writes its package's sources at start-up, as its dist embeds them
# (@pyscript/core's src/stdlib/pyscript.js), and Python imports instead the
# .pyc the build put in game.zip's pyscript/ (the zip is first on sys.path):
# each must have been compiled from the very source PyScript writes.
PYSCRIPT_CHECK = r"""
const [site, stdlib] = process.argv.slice(1);
const vendor = site + "/static/vendor/pyodide/";
const { loadPyodide } = await import(vendor + "pyodide.mjs");
const fs = await import("node:fs");
const tree = (await import(stdlib)).default;
const files = {};
(function walk(base, t) {
  for (const [k, v] of Object.entries(t)) typeof v === "string" ? files[base + k] = v : walk(base + k + "/", v);
})("", tree);
const py = await loadPyodide({ indexURL: vendor });
py.FS.writeFile("/home/pyodide/game.zip", fs.readFileSync(site + "/game.zip"));
py.globals.set("files", py.toPy(files));
console.log(py.runPython(`
import importlib.util, json, zipfile
z = zipfile.ZipFile("/home/pyodide/game.zip")
report = {}
for name, source in files.items():
    pyc = z.read(name + "c")
    # flags 0b11: hash-based, checked against the source
    report[name] = (int.from_bytes(pyc[4:8], "little"),
                    pyc[8:16] == importlib.util.source_hash(source.encode()))
json.dumps(report)
`));
"""


def test_pyscripts_package_ships_as_bytecode_of_its_own_sources(built_site):
    from game.build import NODE

    node = shutil.which("node")
    if node is None:
        pytest.skip("no Node.js")
    stdlib = NODE / "@pyscript" / "core" / "src" / "stdlib" / "pyscript.js"
    done = subprocess.run([node, "--input-type=module", "-e", PYSCRIPT_CHECK, str(built_site),
                           stdlib.as_uri()], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert "pyscript/web.py" in report and "pyscript/__init__.py" in report
    assert report == {name: [0b11, True] for name in report}


def test_online_play_ships_in_a_zip_of_its_own(built_site):
    """A first visit downloads game.zip only: online play's modules are in
    online.zip (fetched when a page needs them), every other module of the
    page in game.zip, and neither holds the command line's."""
    from game.build import PARTS

    game_zip = set(zipfile.ZipFile(built_site / "game.zip").namelist())
    online = set(zipfile.ZipFile(built_site / "online.zip").namelist())
    assert {"game/online/host.pyc", "game/online/messages.pyc", "game/web/online/connection.pyc",
            "game/web/dom/wire.pyc"} <= online
    assert all(n.startswith(PARTS["online"]) for n in online)
    assert not [n for n in game_zip if n.startswith(PARTS["online"])]
    assert {"game/web/dom/parts.pyc", "game/web/runtime/controller.pyc"} <= game_zip
    assert not {"game/core/match.pyc", "game/core/cluster.pyc", "game/build.pyc"} & game_zip
    sw = (built_site / "sw.js").read_text()
    assert '"online.zip"' in sw  # precached once the first visit is over: offline on one network


# Loads static/js/front.json's image into the built MicroPython as
# static/js/front.mjs does, imports the front's modules in its order and
# reports where each came from.
FRONT_CHECK = r"""
const site = process.env.SITE;  // (not an argument: MicroPython's node start reads those)
const { loadMicroPython } = await import(site + "/static/vendor/micropython/micropython.mjs");
const fs = await import("node:fs");
const { order, rom } = JSON.parse(fs.readFileSync(site + "/static/js/front.json", "utf8"));
const mp = await loadMicroPython({ stdout: (line) => console.log(line),
                                   romfs: Uint8Array.from(atob(rom), (c) => c.charCodeAt(0)) });
mp.runPython(`
import json, os, sys
files = {}
for name in ${JSON.stringify(order)}:
    if not name.startswith("game.web.dom."):  # (the pages' entries need a page)
        __import__(name)
        files[name] = sys.modules[name].__file__
print(json.dumps({"cwd": os.getcwd(), "files": files}))
`);
"""


def test_micropython_imports_the_fronts_bytecode_from_its_image(built_site):
    """Each module of the front comes from the build's image, as bytecode,
    in an order where each comes after those it imports."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("node runs MicroPython")
    done = subprocess.run([node, "--input-type=module", "-e", FRONT_CHECK], capture_output=True,
                          text=True, timeout=120, env={**os.environ, "SITE": str(built_site)})
    assert done.returncode == 0, done.stderr[-2000:]
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["cwd"] == "/rom"  # (MicroPython starts in its image: paths are relative to it)
    files = report["files"]
    assert len([n for n in files if n.startswith("game.web.front.")]) == 10
    packages = {"game", "game.web", "game.web.dom", "game.web.front"}
    assert files == {name: name.replace(".", "/") + ("/__init__" if name in packages else "") + ".mpy"
                     for name in files}


def test_the_front_is_one_file_system_image():
    """game.build.romfs_image writes MicroPython's ROMFS format; its reader
    here walks it back to the files (MicroPython's own reading is the test above)."""
    from game.build import romfs_image

    files = {"game/__init__.mpy": b"M\x06", "game/web/front/a.mpy": bytes(range(200)) * 3,
             "game/web/dom/b.mpy": b"", "game/web/front/c.mpy": b"x" * 128}
    image = romfs_image(files)
    assert image[:3] == b"\xd2\xcd\x31" and len(image) % 2 == 0

    def uint(at: int) -> tuple[int, int]:
        value = 0
        while True:
            byte = image[at]
            value, at = (value << 7) | (byte & 0x7F), at + 1
            if byte < 0x80:
                return value, at

    def walk(at: int, end: int, prefix: str, out: dict[str, bytes]) -> None:
        while at < end:
            kind, at = uint(at)
            size, at = uint(at)
            stop = at + size
            length, at = uint(at)
            name = image[at:at + length].decode()
            at += length
            if kind == 4:  # a directory
                walk(at, stop, prefix + name + "/", out)
            else:  # a file: one data record
                data_kind, at = uint(at)
                data_size, at = uint(at)
                assert (kind, data_kind) == (5, 2)
                out[prefix + name] = image[at:at + data_size]
            at = stop

    total, at = uint(3)
    found: dict[str, bytes] = {}
    walk(at, at + total, "", found)
    assert found == files


def test_the_fronts_compiler_must_be_micropythons_release():
    from game.build import BuildError, _mpy_compile

    with pytest.raises(BuildError, match="another MicroPython"):
        _mpy_compile({"game/x.py": "A = 1"}, "1.27.0-1")
    with pytest.raises(BuildError, match="could not compile game/x.py"):
        _mpy_compile({"game/x.py": "def ("}, "1.28.0-6")
    assert _mpy_compile({"game/x.py": "A = 1"}, "1.28.0-6")["game/x.py"][:2] == b"M\x06"


def test_a_restored_python_gets_the_package_without_the_snapshots_modules(built_site):
    """game-rest.zip is game.zip without the modules the memory snapshot holds
    (a restored Python never reads them again); the data files and the modules
    read at start from the zip stay (scripts/startup.py's FROM_ZIP)."""
    from game.build import REST_ZIP

    whole = zipfile.ZipFile(built_site / "game.zip")
    rest = zipfile.ZipFile(built_site / REST_ZIP)
    dropped = set(whole.namelist()) - set(rest.namelist())
    assert set(rest.namelist()) <= set(whole.namelist())
    assert dropped and all(n.endswith(".pyc") for n in dropped)
    assert {"game/__init__.pyc", "game/jekyll_hyde/cards.pyc", "game/jekyll_hyde/rules.pyc",
            "game/web/runtime/controller.pyc", "game/web/model/page.pyc"} <= dropped
    assert {"game/web/dom/worker.pyc", "game/web/draw/i18n/fr.json"} <= set(rest.namelist())
    for name in rest.namelist():
        assert rest.read(name) == whole.read(name), name
    assert (built_site / REST_ZIP).stat().st_size < 0.6 * (built_site / "game.zip").stat().st_size
    assert f'"{REST_ZIP}"' in (built_site / "sw.js").read_text()  # precached
