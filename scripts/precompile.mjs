// Compile Python to bytecode inside Pyodide, at build time.
//
//     node scripts/precompile.mjs PYODIDE_DIR GAME_IN.zip GAME_OUT.zip GAME_PREFIX \
//                                 STDLIB_IN.zip STDLIB_OUT.zip STDLIB_PREFIX PYSCRIPT_STDLIB.js
//
// Run by `python -m game build`. The browser's Python is Pyodide's, so the
// bytecode is made by the same Pyodide (same magic number), here in Node: an
// `X.py` becomes a sourceless `X.pyc` (any other file is copied), and the page
// then compiles nothing when it imports. Every module of the game is compiled;
// of the standard library, the modules the page imports as it starts
// (scripts/startup.py, run here with the game's sources in the working
// directory): the rest stays source, a third of the bytes, compiled only if a
// page ever imports it. PREFIX is where the zip's files sit in the browser,
// for the file names in tracebacks. A file that does not compile (there should
// be none) is kept as source. Prints one line per zip.
//
// PyScript writes its own Python package (the `pyscript` module) as source
// into the working directory at every start and imports it: GAME_OUT also
// gets that package as sourceless bytecode in `pyscript/`, compiled from
// PYSCRIPT_STDLIB (@pyscript/core's src/stdlib/pyscript.js, the sources its
// dist embeds), which Python imports instead since game.zip comes first on
// sys.path. Hash-based .pyc files, the hash of the source they were compiled
// from in their header (tests/test_build_bytecode.py compares it with the
// source PyScript writes).
import { readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [pyodideDir, ...jobs] = process.argv.slice(2);
if (!pyodideDir || jobs.length !== 7) {
  console.error("usage: node precompile.mjs PYODIDE_DIR GAME_IN GAME_OUT GAME_PREFIX " +
                "STDLIB_IN STDLIB_OUT STDLIB_PREFIX PYSCRIPT_STDLIB");
  process.exit(2);
}
const [gameIn, gameOut, gamePrefix, stdlibIn, stdlibOut, stdlibPrefix, pyscriptStdlib] = jobs;
// The `pyscript` package's files, {"pyscript/web.py": source, ...}.
const pyscriptFiles = {};
(function walk(base, tree) {
  for (const [name, value] of Object.entries(tree)) {
    if (typeof value === "string") pyscriptFiles[base + name] = value;
    else walk(base + name + "/", value);
  }
})("", (await import(pathToFileURL(resolve(pyscriptStdlib)).href)).default);
const dir = resolve(pyodideDir) + "/";
const { loadPyodide } = await import(pathToFileURL(dir + "pyodide.mjs").href);
const py = await loadPyodide({ indexURL: dir, stdLibURL: resolve(stdlibIn) });
py.FS.writeFile("/tmp/game.zip", readFileSync(gameIn));
py.runPython(`
import os, zipfile
zipfile.ZipFile("/tmp/game.zip").extractall(os.getcwd())
`);
py.runPython(readFileSync(new URL("startup.py", import.meta.url), "utf8"));
py.runPython(`
import importlib._bootstrap_external as _external
import importlib.util
import sys
import zipfile

def imported_from(prefix):
    """The zip members under \`prefix\` that imported modules were loaded from."""
    return {m.__spec__.origin[len(prefix):] for m in list(sys.modules.values())
            if getattr(m, "__spec__", None) and (m.__spec__.origin or "").startswith(prefix)}

def precompile(src, dst, prefix, only=None, cached=None, optimize=0):
    """Write zip \`dst\`: zip \`src\` with each .py (of \`only\`, if given) as a
    sourceless .pyc (compiled at \`optimize\`), plus a sourceless hash-based
    .pyc of each \`cached\` {name: source}; (compiled, kept)."""
    compiled = kept = 0
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dst, "w", zipfile.ZIP_DEFLATED) as zout:
        for name, source in (cached or {}).items():
            data = source.encode()
            code = compile(data, prefix + name, "exec", dont_inherit=True)
            pyc = _external._code_to_hash_pyc(code, importlib.util.source_hash(data), checked=True)
            out = zipfile.ZipInfo(name + "c",
                                  date_time=(2020, 1, 1, 0, 0, 0))
            zout.writestr(out, bytes(pyc), compress_type=zipfile.ZIP_DEFLATED, compresslevel=9)
            compiled += 1
        for info in zin.infolist():
            name, data = info.filename, zin.read(info)
            if name.endswith(".py") and (only is None or name in only):
                try:
                    code = compile(data, prefix + name, "exec", dont_inherit=True,
                                   optimize=optimize)
                except SyntaxError:
                    kept += 1
                else:
                    name, data = name + "c", bytes(_external._code_to_timestamp_pyc(code))
                    compiled += 1
            elif name.endswith(".py"):
                kept += 1
            # Fixed timestamps: the same sources give the same bytes.
            out = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
            zout.writestr(out, data, compress_type=zipfile.ZIP_DEFLATED, compresslevel=9)
    return f"{compiled} compiled, {kept} kept as source"
`);
const stdlibModules = py.globals.get("imported_from")(stdlibPrefix);
const precompile = py.globals.get("precompile");
// The game's own modules at optimize=2 (python -OO): no docstrings, which
// only the tests and the command line read, nor asserts, which only narrow
// types; 68 kB less in game.zip and less in the snapshot that imports them.
for (const [src, dst, prefix, only, cached, optimize] of [
  [gameIn, gameOut, gamePrefix, undefined, py.toPy(pyscriptFiles), 2],
  [stdlibIn, stdlibOut, stdlibPrefix, stdlibModules, undefined, 0]]) {
  py.FS.writeFile("/tmp/in.zip", readFileSync(src));
  const said = precompile("/tmp/in.zip", "/tmp/out.zip", prefix, only, cached, optimize);
  writeFileSync(dst, py.FS.readFile("/tmp/out.zip"));
  console.log(`${dst}: ${said}`);
}
