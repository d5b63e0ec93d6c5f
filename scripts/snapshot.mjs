// Make a Pyodide memory snapshot of Python started and the game imported, at build time.
//
//     node scripts/snapshot.mjs PYODIDE_DIR GAME_ZIP OUT.gz
//
// Run by `python -m game build` on the BUILT runtime (the precompiled standard
// library: the snapshot remembers that zip's directory) and package. The page
// starts from it (static/js/python.mjs) instead of initialising Python and
// importing the modules one by one. Pyodide checks its build id on restore; the
// build names the file after a hash of its bytes. Written gzipped with its
// all-zero tail dropped (the page pads it back). Prints, as JSON, its full
// size and the files of GAME_ZIP whose modules it holds.
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
// As the page does (static/js/python.mjs): the zip written as one file, first
// on sys.path, and imported from. The file is not part of the snapshot (the
// page writes it again), the modules scripts/startup.py imports and sys.path
// are. PyScript's package, whose bytecode the zip also holds, is the
// browser's own: never imported here (it would find no page).
py.FS.writeFile("/home/pyodide/game.zip", readFileSync(gameZip));
py.runPython(`
import sys
sys.path.insert(0, "/home/pyodide/game.zip")
sys.modules["pyscript"] = None  # import pyscript: ModuleNotFoundError
`);
py.runPython(readFileSync(new URL("startup.py", import.meta.url), "utf8"));
py.runPython("import gc, sys; del sys.modules['pyscript']; gc.collect()");
// The zip's files the snapshot holds as modules: a restored Python never reads them.
const held = JSON.parse(py.runPython(`
import json, sys
prefix = "/home/pyodide/game.zip/"
json.dumps(sorted({m.__file__[len(prefix):] for m in list(sys.modules.values())
                   if (getattr(m, "__file__", None) or "").startswith(prefix)}))
`, { globals: py.globals.get("dict")() }));  // (its names stay out of the snapshot)
zeroFreedMemory(py._module);
const snapshot = py.makeMemorySnapshot();
let end = snapshot.length;
while (end > 0 && snapshot[end - 1] === 0) end--;
writeFileSync(out, gzipSync(snapshot.subarray(0, end), { level: 9 }));
console.log(JSON.stringify({ size: snapshot.length, held }));

// The heap's free blocks hold what was freed in them (read buffers, a
// zip's data, its inflater's window), which the gzipped snapshot carries
// for nothing: importing from a zip left 130 kB more of it than importing
// unpacked files. Each free block is taken (largest sizes first, until the
// allocator hands out memory past the last non-zero byte, which is zero
// already), zeroed and given back.
function zeroFreedMemory(M) {
  let end = M.HEAPU8.length;
  while (end > 0 && M.HEAPU8[end - 1] === 0) end--;
  const taken = [];
  for (const size of [1 << 20, 1 << 16, 1 << 12, 1 << 9, 1 << 6, 16]) {
    for (;;) {
      const block = M._malloc(size);
      if (!block) break;
      taken.push(block);
      M.HEAPU8.fill(0, block, block + size);
      if (block + size > end) break;
    }
  }
  for (const block of taken) M._free(block);
}
