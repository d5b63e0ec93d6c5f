"""The page code's layers: only game/web/dom/ imports the browser (`js`,
`pyodide`, `pyscript`) and it holds at most a quarter of game/web's lines; no
function is over 60 lines and no class over 400; nothing in game/ imports
itself back in a cycle."""

from __future__ import annotations

import ast
import functools
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WEB = ROOT / "game" / "web"
DOM = WEB / "dom"
BROWSER = {"js", "pyodide", "pyscript"}
MAX_FUNCTION_LINES = 60
MAX_CLASS_LINES = 400


@functools.cache
def _source(path: Path) -> tuple[str, ast.Module]:
    """A file's text and tree, read and parsed once for this module's tests
    (which only read them), not once a test."""
    text = path.read_text(encoding="utf-8")
    return text, ast.parse(text)


def _tree(path: Path) -> ast.Module:
    return _source(path)[1]


@functools.cache
def _walk(tree: ast.AST) -> tuple[ast.AST, ...]:
    """`ast.walk(tree)`, walked once a tree (the trees are only read)."""
    return tuple(ast.walk(tree))


def _modules() -> list[tuple[str, ast.Module]]:
    return [(p.relative_to(ROOT).as_posix(), _tree(p))
            for p in sorted(WEB.rglob("*.py")) if "__pycache__" not in p.parts]


def _imports_browser(tree: ast.Module) -> bool:
    """Whether `tree` imports a browser module anywhere (top level or inside a function)."""
    for node in _walk(tree):
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
        for node in _walk(tree):
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
    tree = _tree(path)
    typing_only = {id(n) for node in _walk(tree) if isinstance(node, ast.If)
                   and "TYPE_CHECKING" in ast.unparse(node.test) for n in ast.walk(node)}
    found = set()
    for node in _walk(tree):
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


# -- one table for every game (issue 53): what differs between games is asked of
# the game's table (game/web/draw/tables/) or its engine, never looked up by name --

TABLE_DIR = WEB / "draw/tables"
# The page's own folders that may know a game by its id: the tables, and the
# front and the browser's folder, which the engine's facts never reach.
KNOWS_GAMES = (TABLE_DIR, WEB / "front", DOM)
# A record of version 1 names the one game whose levels moved in version 2:
# the history of a file format, not a fact a new game adds to.
FORMAT_HISTORY = {("game/web/model/saves.py", "MOVED_IN_2")}


def _shell_modules() -> list[tuple[str, ast.Module]]:
    return [(path, tree) for path, tree in _modules()
            if not any((ROOT / path).is_relative_to(d) for d in KNOWS_GAMES)]


def _table_hooks() -> set[str]:
    """The names a table provides: the `Table` protocol's members and every
    public name at the top of a game's table module."""
    names = set()
    for path in TABLE_DIR.glob("*.py"):
        tree = _tree(path)
        body = tree.body
        if path.name == "__init__.py":
            body = next(n.body for n in tree.body if isinstance(n, ast.ClassDef)
                        and n.name == "Table")
        elif path.name in ("common.py", "checked.py"):
            continue
        for node in body:
            if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
                names.add(node.name)
            elif isinstance(node, (ast.Assign, ast.AnnAssign)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                names |= {t.id for t in targets if isinstance(t, ast.Name)}
            elif isinstance(node, ast.ImportFrom):
                names |= {a.asname for a in node.names if a.asname}
    return {n for n in names if not n.startswith("_")}


def _hook_lookups(tree: ast.Module, hooks: set[str]) -> list[str]:
    """`getattr(x, "hook", ...)` and `hasattr(x, "hook")` of a table's hook."""
    found = []
    for node in _walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                and node.func.id in ("getattr", "hasattr") and len(node.args) >= 2 \
                and isinstance(node.args[1], ast.Constant) and node.args[1].value in hooks:
            found.append(f"{node.lineno} {ast.unparse(node)}")
    return found


def test_no_table_hook_is_looked_up_by_name():
    """Every hook of a table is declared on `Table` with its default, so the
    shell calls it plainly and mypy checks the call."""
    hooks = _table_hooks()
    assert {"render", "parts", "confirm", "attempt", "finished"} <= hooks
    build = ROOT / "game" / "build.py"  # an embed's first paint asks the table too
    modules = [*_modules(), ("game/build.py", _tree(build))]
    found = [f"{path}:{hit}" for path, tree in modules for hit in _hook_lookups(tree, hooks)
             if not (ROOT / path).is_relative_to(WEB / "front")]
    assert not found, f"a table hook looked up by name: {found}"


def test_mypy_checks_every_table_against_the_protocol():
    """game/web/draw/tables/checked.py gives each game's table module the type
    `Table`: `renderer()` imports them by name, which mypy does not follow."""
    from game.web.draw.tables import TABLES

    tree = _tree(TABLE_DIR / "checked.py")
    checked = {ast.unparse(node.value) for node in _walk(tree)
               if isinstance(node, ast.AnnAssign) and ast.unparse(node.annotation) == "Table"}
    assert checked == {module.rpartition(".")[2] for module in TABLES.values()}


def _docstrings(tree: ast.Module) -> set[int]:
    return {id(node.body[0].value) for node in _walk(tree)
            if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
            and node.body and isinstance(node.body[0], ast.Expr)
            and isinstance(node.body[0].value, ast.Constant)}


def _game_ids_named(path: str, tree: ast.Module) -> list[str]:
    """Where code (not a docstring) outside the tables names a game by its id."""
    from game import GAMES

    history = {id(n) for node in tree.body if isinstance(node, ast.Assign)
               for target in node.targets if isinstance(target, ast.Name)
               and (path, target.id) in FORMAT_HISTORY for n in ast.walk(node)}
    skip = _docstrings(tree) | history
    return [f"{path}:{node.lineno} {node.value!r}" for node in _walk(tree)
            if isinstance(node, ast.Constant) and node.value in GAMES and id(node) not in skip]


def test_no_game_id_is_compared_outside_the_tables():
    """A fourth game brings its table and its engine: statistics, files,
    online play, motion and embeds ask them, no branch names a game."""
    found = [hit for path, tree in _shell_modules() for hit in _game_ids_named(path, tree)]
    assert not found, f"a game named by its id outside game/web/draw/tables/: {found}"


def test_the_checks_see_a_hook_lookup_and_a_game_id():
    tree = ast.parse('def f(s):\n    """For "dracula"."""\n    x = getattr(s.table, "parts", 1)\n'
                     '    return x if s.game == "dracula" else getattr(s, "budget", 0)\n')
    assert [h.split()[1] for h in _hook_lookups(tree, {"parts"})] == ["getattr(s.table,"]
    assert _game_ids_named("f.py", tree) == ["f.py:4 'dracula'"]


WORDS = ("str", "Html", "list[str]")  # what a function that words returns


def _annotation(node: ast.expr | None) -> str:
    return ast.unparse(node) if node is not None else ""


def _wording() -> set[str]:
    """The names of what words the page: the renderer's functions that return
    words or markup (the `Table` protocol's and game.web.draw.tables' own), and
    `Session`'s helpers that take a translator."""
    names = set()
    tables = _tree(WEB / "draw/tables" / "__init__.py")
    for node in ast.walk(tables):
        if isinstance(node, ast.FunctionDef) and _annotation(node.returns) in WORDS:
            names.add(node.name)
    session = _tree(WEB / "model/session.py")
    for cls in session.body:
        if isinstance(cls, ast.ClassDef) and cls.name == "Session":
            names |= {f.name for f in cls.body if isinstance(f, ast.FunctionDef)
                      and any(_annotation(a.annotation) == "Translator" for a in f.args.args)}
    return names


def _words_in(path: Path, wording: set[str]) -> list[str]:
    """Where the module-level functions of `path` (its reducer) take a
    translator, call one (`t(...)`, `page.t(...)`, `say`) or call what words."""
    found = []
    for fn in _tree(path).body:
        if not isinstance(fn, ast.FunctionDef):
            continue
        found += [f"{fn.name} takes {a.arg}" for a in fn.args.args
                  if _annotation(a.annotation) == "Translator"]
        for call in ast.walk(fn):
            if isinstance(call, ast.Call):
                f = call.func
                name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(
                    f, ast.Attribute) else ""
                if name in {"t", "say"} | wording:
                    found.append(f"{fn.name}:{call.lineno} calls {name}")
    return found


def test_the_table_and_page_reducers_speak_data_and_the_views_word_it():
    """Issue 53 item 3: the reducers return codes and params (the message
    under the table, the hint), never words, so a language change re-words
    what is on screen at once; session.py does not even import the translator."""
    wording = _wording()
    assert {"hint_text", "who_decides", "explain", "context"} <= wording  # the checks see them
    for path in (WEB / "model/session.py", WEB / "model/page.py"):
        assert not _words_in(path, wording), (path.name, _words_in(path, wording))
    assert not _runtime_imports(WEB / "model/session.py", {"game.web.draw.i18n", "game.web.draw.i18n.Translator"})
    session = _tree(WEB / "model/session.py")
    fields = {node.target.id: _annotation(node.annotation) for cls in session.body
              if isinstance(cls, ast.ClassDef) and cls.name == "Session"
              for node in cls.body
              if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name)}
    assert "str" not in fields["message"].split(" | "), fields["message"]


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
    for node in _walk(tree):
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
    from game.web.runtime.controller import ROUTES

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
    """Each effect a reducer may ask for (game.web.model.page's PageEffect, the
    table session's among them) is one the controller's `carry_out` does:
    none is made and then dropped."""
    from game.web.model.page import PageEffect

    tree = _tree(WEB / "runtime/controller.py")
    carry_out = [node for node in _walk(tree) if isinstance(node, ast.FunctionDef)
                 and node.name in ("carry_out", "carry_out_panel", "carry_out_table")]
    modules = ("ts", "pg", "sp", "fp", "fx", "an")  # the session, page, panels', effects' and analysis's modules
    handled = {node.attr for fn in carry_out for node in ast.walk(fn)
               if isinstance(node, ast.Attribute)
               and isinstance(node.value, ast.Name) and node.value.id in modules}
    assert _union_members(PageEffect) - handled == set()


# -- everything the page knows is in `Page` (issue 53, item 1) -------------------------

def _page_stores(tree: ast.Module) -> list[tuple[int, str]]:
    """Where `tree` stores an object's `page` (`x.page = ...`, `x.page, y = ...`,
    `setattr(x, "page", ...)`), with the function that does."""
    found = []
    for fn in _walk(tree):
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            continue
        name = getattr(fn, "name", "<lambda>")
        for node in ast.walk(fn):
            targets: list[ast.expr] = []
            if isinstance(node, ast.Assign):
                targets = [t for target in node.targets for t in (
                    target.elts if isinstance(target, ast.Tuple) else [target])]
            elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
                targets = [node.target]
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                    and node.func.id == "setattr" and len(node.args) > 1 \
                    and isinstance(node.args[1], ast.Constant) and node.args[1].value == "page":
                found.append((node.lineno, name))
            found += [(node.lineno, name) for t in targets
                      if isinstance(t, ast.Attribute) and t.attr == "page"]
    return sorted(set(found))


def test_only_the_dispatch_loop_stores_a_new_page():
    """The controller's `run` (the dispatch loop) is the one place that
    stores a new `Page`, besides the page being born in `__init__`; the
    panels' and the keeper's functions return values and actions, never a
    page (online play's reducers neither: its state is `Page.online`)."""
    stores: dict[str, list[tuple[int, str]]] = {}
    for path, tree in _modules():
        if (ROOT / path).is_relative_to(DOM) or (ROOT / path).is_relative_to(WEB / "front"):
            continue
        if found := _page_stores(tree):
            stores[path] = found
    controller = stores.pop("game/web/runtime/controller.py", [])
    assert [name for _, name in controller] == ["__init__", "run"], controller
    assert stores == {}, stores


def test_the_page_store_check_sees_every_way_to_store_a_page():
    tree = ast.parse("def f(c):\n    c.page = 1\n    c.page, x = 2, 3\n"
                     "    setattr(c, 'page', 4)\n    c.pages = 5\n")
    assert [line for line, _ in _page_stores(tree)] == [2, 3, 4]


PANELS_KEEPING_NOTHING = ("model/stats_page.py", "model/file_panel.py", "runtime/step_player.py",
                          "model/review.py")
CONTROLLER_NAMES = {"app", "ctrl", "controller", "host"}


def test_no_panel_keeps_the_controller():
    """The statistics, the file dialog and the step players are values in
    the page (or, embed.html's example, need none): none of their classes
    takes or keeps the controller (or a host standing for it)."""
    kept = []
    for name in PANELS_KEEPING_NOTHING:
        tree = _tree(WEB / name)
        for cls in (n for n in _walk(tree) if isinstance(n, ast.ClassDef)):
            for node in ast.walk(cls):
                if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
                        and node.value.id == "self" and node.attr in CONTROLLER_NAMES:
                    kept.append(f"{name}:{node.lineno} {cls.name} self.{node.attr}")
                if isinstance(node, ast.arg) and ("Controller" in _annotation(node.annotation)
                                                  or "Host" in _annotation(node.annotation)):
                    kept.append(f"{name}:{node.lineno} {cls.name} takes {node.arg}")
    assert not kept, kept


def _all_imports(path: Path, modules: set[str]) -> set[str]:
    """Every game module `path` imports: at the top, under TYPE_CHECKING, in a function."""
    found = set()
    for node in _walk(_tree(path)):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found |= {node.module, *(f"{node.module}.{a.name}" for a in node.names)}
        elif isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
    return found & modules


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    cycles: list[list[str]] = []
    done: set[str] = set()

    def visit(module: str, path: list[str]) -> None:
        for nxt in sorted(graph[module]):
            if nxt in path:
                cycles.append(path[path.index(nxt):] + [nxt])
            elif nxt not in done:
                visit(nxt, path + [nxt])
        done.add(module)

    for module in sorted(graph):
        if module not in done:
            visit(module, [module])
    return cycles


# The comment that lets a function import a module back: online play's part,
# fetched before any of its actions (game.build.PARTS), kept apart from the
# modules of a first visit by importing it only where it is needed.
PART_MARKS = ("online play's part", "online.zip", "game.build.PARTS")


def _imports_but_parts(path: Path, modules: set[str]) -> set[str]:
    """Every game module `path` imports, at the top, under TYPE_CHECKING and
    in a function, less a function's import that says it keeps a download
    part apart (PART_MARKS, in a comment on its line or the line above)."""
    text, tree = _source(path)
    lines = text.splitlines()
    local = {id(n) for fn in _walk(tree) if isinstance(fn, (ast.FunctionDef,
                                                               ast.AsyncFunctionDef))
             for n in ast.walk(fn) if isinstance(n, (ast.Import, ast.ImportFrom))}
    found = set()
    for node in _walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = {node.module, *(f"{node.module}.{a.name}" for a in node.names)}
        elif isinstance(node, ast.Import):
            names = {a.name for a in node.names}
        else:
            continue
        near = "\n".join(lines[max(0, node.lineno - 2):node.end_lineno])
        if id(node) in local and "#" in near and any(mark in near for mark in PART_MARKS):
            continue
        found |= names
    return found & modules


def test_game_has_no_import_cycle_counting_type_checking_imports():
    """No module of game/ imports one that imports it back, counting the
    imports under TYPE_CHECKING and inside functions (but those that keep
    online play's part apart, and say so): the controller, online play's
    actions (game.web.runtime.online_door) and its reducers (game.web.online.host,
    .guest) import each other in one direction."""
    files = {".".join(p.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__"): p
             for p in (ROOT / "game").rglob("*.py") if "__pycache__" not in p.parts}
    graph = {m: _imports_but_parts(p, set(files)) for m, p in files.items()}
    assert "game.web.online.state" in graph["game.web.model.page"]  # (TYPE_CHECKING: counted)
    assert "game.web.runtime.online_door" in graph["game.web.online.host"]
    cycles = _cycles(graph)
    assert not cycles, f"import cycles: {cycles[:3]}"


def test_the_part_check_counts_an_unmarked_import_in_a_function(tmp_path):
    module = tmp_path / "m.py"
    module.write_text("def f():\n    from game.web.online import host\n\n"
                      "def g():\n    # (online play's part, online.zip)\n"
                      "    from game.web.online import guest\n", encoding="utf-8")
    found = _imports_but_parts(module, {"game.web.online.host", "game.web.online.guest"})
    assert found == {"game.web.online.host"}


# The embed's runner (embed.html's game: game.web.embed.game) holds the
# controller it starts, as the browser's worker (game.web.dom) does.
KEEPS_ITS_CONTROLLER = ("embed/game.py",)


def test_no_class_keeps_the_controller():
    """No class of game/web (the browser's folders and the embed's runner
    aside) keeps the controller: online play's state is `Page.online`, its
    runtime gets the controller handed in (game.web.online.runner)."""
    kept = []
    for path, tree in _modules():
        where = ROOT / path
        if where.is_relative_to(DOM) or where.is_relative_to(WEB / "front") \
                or where.relative_to(WEB).as_posix() in KEEPS_ITS_CONTROLLER:
            continue
        for node in _walk(tree):
            text = ast.unparse(node) if isinstance(node, ast.Attribute) else ""
            if text in ("self.ctrl", "self.online.ctrl"):
                kept.append(f"{path}:{node.lineno} {text}")
    assert not kept, kept


def test_no_import_cycle_among_the_page_modules_counting_every_import():
    """Among game/web's modules other than online play's (online*.py, which
    the controller imports for its lobby), none imports another that imports
    it back, counting the imports under TYPE_CHECKING and those inside functions."""
    files = {".".join(p.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__"): p
             for p in WEB.rglob("*.py") if "__pycache__" not in p.parts
             and not p.is_relative_to(DOM) and not p.is_relative_to(WEB / "front")
             and not p.name.startswith("online")}
    graph = {m: _all_imports(p, set(files)) for m, p in files.items()}
    assert graph["game.web.runtime.controller"] >= {"game.web.model.stats_page", "game.web.model.file_panel"}
    cycles = _cycles(graph)
    assert not cycles, f"import cycles: {cycles[:3]}"


def test_the_cycle_check_sees_a_cycle():
    assert _cycles({"a": {"b"}, "b": {"a"}}) == [["a", "b", "a"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []
