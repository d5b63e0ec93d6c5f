// Compile Python to bytecode inside Pyodide, at build time.
//
//     node scripts/precompile.mjs PYODIDE_DIR GAME_IN.zip GAME_OUT.zip GAME_PREFIX \
//                                 STDLIB_IN.zip STDLIB_OUT.zip STDLIB_PREFIX
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
import { readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [pyodideDir, ...jobs] = process.argv.slice(2);
if (!pyodideDir || jobs.length !== 6) {
  console.error("usage: node precompile.mjs PYODIDE_DIR GAME_IN GAME_OUT GAME_PREFIX " +
                "STDLIB_IN STDLIB_OUT STDLIB_PREFIX");
  process.exit(2);
}
const [gameIn, gameOut, gamePrefix, stdlibIn, stdlibOut, stdlibPrefix] = jobs;
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
import sys
import zipfile

def imported_from(prefix):
    """The zip members under \`prefix\` that imported modules were loaded from."""
    return {m.__spec__.origin[len(prefix):] for m in list(sys.modules.values())
            if getattr(m, "__spec__", None) and (m.__spec__.origin or "").startswith(prefix)}

def precompile(src, dst, prefix, only=None):
    """Write zip \`dst\`: zip \`src\` with each .py (of \`only\`, if given) as a
    sourceless .pyc; (compiled, kept)."""
    compiled = kept = 0
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dst, "w", zipfile.ZIP_DEFLATED) as zout:
        for info in zin.infolist():
            name, data = info.filename, zin.read(info)
            if name.endswith(".py") and (only is None or name in only):
                try:
                    code = compile(data, prefix + name, "exec", dont_inherit=True)
                except SyntaxError:
                    kept += 1
                else:
                    name, data = name + "c", bytes(_external._code_to_timestamp_pyc(code))
                    compiled += 1
            elif name.endswith(".py"):
                kept += 1
            # Fixed timestamps: the same sources give the same bytes.
            out = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
            out.compress_type = zipfile.ZIP_DEFLATED
            zout.writestr(out, data, compresslevel=9)
    return f"{compiled} compiled, {kept} kept as source"
`);
const stdlibModules = py.globals.get("imported_from")(stdlibPrefix);
const precompile = py.globals.get("precompile");
for (const [src, dst, prefix, only] of [[gameIn, gameOut, gamePrefix, undefined],
                                        [stdlibIn, stdlibOut, stdlibPrefix, stdlibModules]]) {
  py.FS.writeFile("/tmp/in.zip", readFileSync(src));
  const said = precompile("/tmp/in.zip", "/tmp/out.zip", prefix, only);
  writeFileSync(dst, py.FS.readFile("/tmp/out.zip"));
  console.log(`${dst}: ${said}`);
}
