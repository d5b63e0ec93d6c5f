// Compile zips of Python sources to bytecode inside Pyodide, at build time.
//
//     node scripts/precompile.mjs PYODIDE_DIR IN.zip OUT.zip PREFIX [IN OUT PREFIX ...]
//
// Run by `python -m game build`. The browser's Python is Pyodide's, so the
// bytecode is made by the same Pyodide (same magic number), here in Node: every
// `X.py` becomes a sourceless `X.pyc` (any other file is copied), and the page
// then compiles nothing when it imports. PREFIX is where the zip's files sit
// in the browser, for the file names in tracebacks. A file that does not
// compile (there should be none) is kept as source. Prints one line per zip.
import { readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [pyodideDir, ...jobs] = process.argv.slice(2);
if (!pyodideDir || jobs.length === 0 || jobs.length % 3 !== 0) {
  console.error("usage: node precompile.mjs PYODIDE_DIR IN.zip OUT.zip PREFIX [...]");
  process.exit(2);
}
const dir = resolve(pyodideDir) + "/";
const { loadPyodide } = await import(pathToFileURL(dir + "pyodide.mjs").href);
const py = await loadPyodide({ indexURL: dir });
py.runPython(`
import importlib._bootstrap_external as _external
import zipfile

def precompile(src, dst, prefix):
    """Write zip \`dst\`: zip \`src\` with each .py as a sourceless .pyc; (compiled, kept)."""
    compiled = kept = 0
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dst, "w", zipfile.ZIP_DEFLATED) as zout:
        for info in zin.infolist():
            name, data = info.filename, zin.read(info)
            if name.endswith(".py"):
                try:
                    code = compile(data, prefix + name, "exec", dont_inherit=True)
                except SyntaxError:
                    kept += 1
                else:
                    name, data = name + "c", bytes(_external._code_to_timestamp_pyc(code))
                    compiled += 1
            # Fixed timestamps: the same sources give the same bytes.
            out = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
            out.compress_type = zipfile.ZIP_DEFLATED
            zout.writestr(out, data)
    return f"{compiled} compiled, {kept} kept as source"
`);
const precompile = py.globals.get("precompile");
for (let i = 0; i < jobs.length; i += 3) {
  const [src, dst, prefix] = jobs.slice(i, i + 3);
  py.FS.writeFile("/tmp/in.zip", readFileSync(src));
  const said = precompile("/tmp/in.zip", "/tmp/out.zip", prefix);
  writeFileSync(dst, py.FS.readFile("/tmp/out.zip"));
  console.log(`${dst}: ${said}`);
}
