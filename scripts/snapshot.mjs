// Make a Pyodide memory snapshot of Python started and the game imported, at build time.
//
//     node scripts/snapshot.mjs PYODIDE_DIR GAME_ZIP OUT.gz
//
// Run by `python -m game build` on the BUILT runtime (the precompiled standard
// library: the snapshot remembers that zip's directory) and package. The page
// starts from it (static/js/python.mjs) instead of initialising Python and
// importing the modules one by one. Pyodide checks its build id on restore; the
// build names the file after a hash of its bytes. Written gzipped with its
// all-zero tail dropped (the page pads it back); prints the full size.
import { readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";

const [pyodideDir, gameZip, out] = process.argv.slice(2);
if (!out) {
  console.error("usage: node snapshot.mjs PYODIDE_DIR GAME_ZIP OUT.gz");
  process.exit(2);
}
const dir = resolve(pyodideDir) + "/";
const { loadPyodide } = await import(pathToFileURL(dir + "pyodide.mjs").href);
const py = await loadPyodide({ indexURL: dir, _makeSnapshot: true });
// As PyScript does with `"./game.zip" = "./*"`: unpacked into the working
// directory. Files are not part of the snapshot (the page unpacks them again),
// the modules scripts/startup.py imports are.
py.FS.writeFile("/tmp/game.zip", readFileSync(gameZip));
// Not PyScript's package's bytecode (pyscript/__pycache__): without PyScript's
// sources that folder would be an empty namespace package named pyscript.
py.runPython(`
import os, zipfile
with zipfile.ZipFile("/tmp/game.zip") as z:
    z.extractall(os.getcwd(), [n for n in z.namelist() if not n.startswith("pyscript/")])
os.remove("/tmp/game.zip")
`);
py.runPython(readFileSync(new URL("startup.py", import.meta.url), "utf8"));
py.runPython("import gc; gc.collect()");
const snapshot = py.makeMemorySnapshot();
let end = snapshot.length;
while (end > 0 && snapshot[end - 1] === 0) end--;
writeFileSync(out, gzipSync(snapshot.subarray(0, end), { level: 9 }));
console.log(snapshot.length);
