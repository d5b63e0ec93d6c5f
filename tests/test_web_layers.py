"""The page code's layers: only game/web/dom/ imports the browser (`js`,
`pyodide`, `pyscript`) and it holds at most a quarter of game/web's lines; no
function is over 60 lines and no class over 400; nothing in game/ imports
itself back in a cycle."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WEB = ROOT / "game" / "web"
DOM = WEB / "dom"
BROWSER = {"js", "pyodide", "pyscript"}
MAX_FUNCTION_LINES = 60
MAX_CLASS_LINES = 400


def _modules() -> list[tuple[str, ast.Module]]:
    return [(p.relative_to(ROOT).as_posix(), ast.parse(p.read_text(encoding="utf-8")))
            for p in sorted(WEB.rglob("*.py")) if "__pycache__" not in p.parts]


def _imports_browser(tree: ast.Module) -> bool:
    """Whether `tree` imports a browser module anywhere (top level or inside a function)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        else:
            continue
        if any(name.split(".")[0] in BROWSER for name in names):
            return True
    return False


def _too_long(kinds: tuple[type, ...], limit: int) -> list[str]:
    out = []
    for path, tree in _modules():
        for node in ast.walk(tree):
            if isinstance(node, kinds):
                assert node.end_lineno is not None
                lines = node.end_lineno - node.lineno + 1
                if lines > limit:
                    out.append(f"{path}:{node.lineno} {node.name} ({lines} lines)")
    return out


def test_only_the_dom_folder_imports_the_browser():
    offenders = [path for path, tree in _modules()
                 if _imports_browser(tree)
                 and not (ROOT / path).is_relative_to(DOM)]
    assert not offenders, f"import js/pyodide/pyscript outside game/web/dom/: {offenders}"


def test_no_function_over_60_lines():
    long = _too_long((ast.FunctionDef, ast.AsyncFunctionDef), MAX_FUNCTION_LINES)
    assert not long, f"functions over {MAX_FUNCTION_LINES} lines: {long}"


def test_no_class_over_400_lines():
    long = _too_long((ast.ClassDef,), MAX_CLASS_LINES)
    assert not long, f"classes over {MAX_CLASS_LINES} lines: {long}"


def test_the_checks_see_a_browser_import_inside_a_function():
    tree = ast.parse("def f():\n    if True:\n        from pyodide.ffi import to_js\n")
    assert _imports_browser(tree)
    assert not _imports_browser(ast.parse("import json\nfrom game.web import html\n"))


def _lines(paths: list[Path]) -> int:
    return sum(len(p.read_text(encoding="utf-8").splitlines()) for p in paths)


def test_the_browser_folder_is_at_most_a_quarter_of_the_page_code():
    everything = [p for p in WEB.rglob("*.py") if "__pycache__" not in p.parts]
    dom = [p for p in everything if p.is_relative_to(DOM)]
    assert 0 < _lines(dom) <= _lines(everything) / 4, (_lines(dom), _lines(everything))


def _runtime_imports(path: Path, modules: set[str]) -> set[str]:
    """The game modules `path` imports when it runs (not those under TYPE_CHECKING)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    typing_only = {id(n) for node in ast.walk(tree) if isinstance(node, ast.If)
                   and "TYPE_CHECKING" in ast.unparse(node.test) for n in ast.walk(node)}
    found = set()
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module)
            found |= {f"{node.module}.{a.name}" for a in node.names}
        elif isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
    return found & modules


def test_game_has_no_import_cycle():
    files = {".".join(p.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__"): p
             for p in (ROOT / "game").rglob("*.py") if "__pycache__" not in p.parts}
    graph = {m: _runtime_imports(p, set(files)) for m, p in files.items()}
    cycles = []

    def visit(module: str, path: list[str]) -> None:
        for nxt in graph[module]:
            if nxt in path:
                cycles.append(path[path.index(nxt):] + [nxt])
            elif nxt not in done:
                visit(nxt, path + [nxt])
        done.add(module)

    done: set[str] = set()
    for module in graph:
        if module not in done:
            visit(module, [module])
    assert not cycles, f"import cycles: {cycles[:3]}"


COMMAND_NAMES = {"cmd", "command"}  # what a variable holding a command's name is called


def _is_command(node: ast.expr) -> bool:
    """A command's name: a variable `cmd`/`command`, or a message's `"cmd"`
    (`msg["cmd"]`, `msg.get("cmd")`)."""
    if isinstance(node, ast.Name):
        return node.id in COMMAND_NAMES
    if isinstance(node, ast.Subscript):
        return ast.unparse(node.slice).strip("'\"") == "cmd"
    if isinstance(node, ast.Call):
        return (isinstance(node.func, ast.Attribute) and node.func.attr == "get"
                and bool(node.args) and ast.unparse(node.args[0]).strip("'\"") == "cmd")
    return False


def _compared_commands(tree: ast.Module) -> list[int]:
    """The lines where a command's name is compared (`==`, `in`...), tested by
    its prefix (`startswith`) or taken apart (`cmd[0]`): a router by hand."""
    lines = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and node.func.attr in ("startswith", "endswith", "partition", "split"):
            sides = [node.func.value]
        elif isinstance(node, ast.Subscript) and not isinstance(node.ctx, ast.Store):
            sides = [node.value]
        else:
            continue
        if any(_is_command(side) for side in sides):
            lines.append(node.lineno)
    return lines


def test_one_table_routes_every_command():
    """No command name is compared anywhere in the page's code (leaving out
    front/ and dom/, which gather what the DOM says): each is looked up in a
    table (the controller's ROUTES, fed by the panels' own COMMANDS)."""
    offenders = [f"{path}:{line}" for path, tree in _modules()
                 if not (ROOT / path).is_relative_to(DOM)
                 and not (ROOT / path).is_relative_to(WEB / "front")
                 for line in _compared_commands(tree)]
    assert not offenders, f"a command name compared outside the routing table: {offenders}"


def test_the_routing_check_sees_a_router_by_hand():
    for router in ('if cmd == "stats":\n    pass\n', 'x = cmd in ("a", "b")\n',
                   'cmd.startswith("file-")\n', 'f = cmd[0] == "f"\n',
                   'if msg.get("cmd") == "close":\n    pass\n', 'y = "a" == command\n'):
        assert _compared_commands(ast.parse(router)), router
    assert not _compared_commands(ast.parse('do = ROUTES.get(cmd)\nkind == "steps"\n'))


def test_every_command_the_page_draws_has_a_route():
    """Each `data-cmd` in the page's markup is in the routing table (a
    command with no route would do nothing), save those the front takes
    itself (a copy, a file chosen, a form's change, the language, the pace)."""
    from game.web.controller import ROUTES

    front_only = {"online-copy", "file-chosen", "stats-file", "setup-change", "lang", "speed"}
    drawn = {name for path in WEB.rglob("*.py") if not path.is_relative_to(DOM)
             for name in re.findall(r'data-cmd="([a-z-]+)"', path.read_text(encoding="utf-8"))}
    assert drawn, "no data-cmd found"
    assert not drawn - front_only - ROUTES.keys(), sorted(drawn - front_only - ROUTES.keys())


def _union_members(union: object) -> set[str]:
    import typing

    members = set()
    for member in typing.get_args(union):
        members |= _union_members(member) if typing.get_args(member) else {member.__name__}
    return members


def test_every_effect_is_carried_out():
    """Each effect a reducer may ask for (game.web.page's PageEffect, the
    table session's among them) is one the controller's `carry_out` does:
    none is made and then dropped."""
    from game.web.page import PageEffect

    tree = ast.parse((WEB / "controller.py").read_text(encoding="utf-8"))
    carry_out = next(node for node in ast.walk(tree)
                     if isinstance(node, ast.FunctionDef) and node.name == "carry_out")
    handled = {node.attr for node in ast.walk(carry_out) if isinstance(node, ast.Attribute)
               and isinstance(node.value, ast.Name) and node.value.id in ("ts", "pg")}
    assert _union_members(PageEffect) - handled == set()
