// The "direct" variant's worker (split-direct.html): no PyScript. Pyodide from
// the site's own static/js/python.mjs (the snapshot), the package unpacked
// from game.zip, then worker.py; the page calls its functions by message:
// {id, fn, arg} -> {id, result} or {id, error}.
import { loadPyodide } from "../static/js/python.mjs";

const ready = (async () => {
  const [py, zip, code] = await Promise.all([
    loadPyodide(),
    fetch("../game.zip").then((r) => r.arrayBuffer()),
    fetch("./worker.py").then((r) => r.text()),
  ]);
  py.unpackArchive(zip, "zip");
  await py.runPythonAsync(code);
  return py;
})();

self.onmessage = async ({ data: { id, fn, arg } }) => {
  try {
    const py = await ready;
    const result = await py.globals.get(fn)(...(arg === undefined ? [] : [arg]));
    postMessage({ id, result });
  } catch (e) {
    postMessage({ id, error: String(e) });
  }
};
