"""game.web.front is written for two interpreters: CPython (Pyodide, the
tests) and MicroPython, which will run it on the main thread once the game
moves to a worker. Its rules are checked here on the source, and the
modules are compiled and run by MicroPython itself (the npm build PyScript
pins, run by node)."""

import ast
import json
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FRONT = ROOT / "game" / "web" / "front"
MICROPYTHON = (ROOT / "node_modules" / "@micropython" / "micropython-webassembly-pyscript"
               / "micropython.mjs")
MODULES = sorted(p for p in FRONT.glob("*.py") if p.name != "__init__.py")


def breaches(tree: ast.AST) -> list[str]:
    """What in a module MicroPython would refuse or lack."""
    found = []
    guarded = set()  # imports under `if TYPE_CHECKING:` (mypy reads them, nothing runs them)
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) \
                and node.test.id == "TYPE_CHECKING":
            guarded.update(id(n) for n in ast.walk(node))
    for node in ast.walk(tree):
        line = getattr(node, "lineno", 0)
        if isinstance(node, (ast.Import, ast.ImportFrom)) and id(node) not in guarded:
            names = [node.module or ""] if isinstance(node, ast.ImportFrom) else \
                [a.name for a in node.names]
            for name in names:
                if name.split(".")[0] in ("__future__", "typing", "dataclasses", "enum", "abc"):
                    found.append(f"line {line}: import {name}")
        elif isinstance(node, (ast.List, ast.Tuple, ast.Set)) and \
                any(isinstance(e, ast.Starred) for e in node.elts) and \
                isinstance(getattr(node, "ctx", ast.Load()), ast.Load):
            found.append(f"line {line}: * inside a display")
        elif isinstance(node, ast.Dict) and None in node.keys:
            found.append(f"line {line}: ** inside a dict")
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for ann in [a.annotation for a in node.args.args] + [node.returns]:
                if ann is not None and not isinstance(ann, ast.Constant) and \
                        any(isinstance(n, ast.Name) and n.id in ("Any", "Callable")
                            for n in ast.walk(ann)):
                    found.append(f"line {line}: unquoted typing name in {node.name}'s annotations")
    return found


def test_the_rules_catch_what_micropython_lacks() -> None:
    bad = ("from __future__ import annotations\nfrom typing import Any\n"
           "x = [*a]\ny = {**b}\ndef f(v: Any) -> None: ...\n")
    assert len(breaches(ast.parse(bad))) == 5
    good = ("TYPE_CHECKING = False\nif TYPE_CHECKING:\n    from typing import Any\n"
            "def f(v: 'Any') -> None:\n    a, *rest = v\n")
    assert breaches(ast.parse(good)) == []


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.name)
def test_the_module_keeps_to_micropythons_subset(path: Path) -> None:
    assert breaches(ast.parse(path.read_text())) == []


RUN = """
import { loadMicroPython } from %s;
const out = [];
const mp = await loadMicroPython({stdout: (l) => out.push(l), stderr: (l) => out.push(l),
                                  linebuffer: true});
for (const dir of ["/game", "/game/web", "/game/web/front"]) mp.FS.mkdir(dir);
for (const dir of ["/game", "/game/web"]) mp.FS.writeFile(dir + "/__init__.py", "");
for (const [name, text] of Object.entries(%s)) mp.FS.writeFile("/game/web/front/" + name, text);
try {
  mp.runPython(%s);
} catch (e) {
  out.push(String(e));
}
console.log(JSON.stringify(out));
"""

SMOKE = """
import sys
sys.path.append("/")
from game.web.front.focus import Focus, attr, usable
from game.web.front.live import Heard, Live
from game.web.front.screen import Front, kebab
from game.web.front.events import Events
from game.web.front.motion import Motion, travel
from game.web.front.steps import ReviewDialog, Player, command_of
from game.web.front.storage import write, items, store
assert attr(None, "id") is None and usable(None)
live = Live(None)
assert live.heard.events == 0 and Heard(3).events == 3
front = Front(None, Focus(None), live, None)
assert front.overlay == "none" and kebab("toAct") == "to-act"
sent = []
events = Events(front, None, sent.append, lambda purpose, file: None)
assert sorted(events.handlers()) == ["change", "click", "keydown", "pointerdown", "submit"]
events.uses_touch(True)
events.uses_touch(True)
assert sent == [{"kind": "touch", "value": True}]
assert travel((0, 0, 50, 80), (100, 40, 100, 160)) == "translate(-125.0px, -80.0px) scale(0.5, 0.5)"
assert Motion(None).moves == []
assert write(None, "k", "v") == "blocked" and items(None) == {}
assert store(write, None, {"store": ["local", "k", "v"], "then_remove": "j"}) == "blocked"
from game.web.front.assemble import frame_of
assert frame_of('{"handled":true}') is None and frame_of('{"flash": "hi", "python": 1}') is None
assert frame_of('{"flash": "hi"}') == {"flash": "hi"}
print("ok", sys.implementation.name)
"""


@pytest.mark.skipif(shutil.which("node") is None, reason="node runs MicroPython")
def test_micropython_compiles_and_runs_the_modules() -> None:
    assert MICROPYTHON.exists(), "npm ci installs MicroPython (package.json)"
    files = {p.name: p.read_text() for p in FRONT.glob("*.py")}
    script = RUN % (json.dumps(MICROPYTHON.as_uri()), json.dumps(files), json.dumps(SMOKE))
    done = subprocess.run(["node", "--input-type=module", "-e", script], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout.strip().splitlines()[-1]) == ["ok micropython"]
