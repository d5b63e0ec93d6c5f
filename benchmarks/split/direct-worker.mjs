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

// The page's clock (ms since its timeOrigin) from this worker's.
const onPageClock = (origin) => performance.timeOrigin + performance.now() - origin;

self.onmessage = async ({ data: { id, fn, arg, origin } }) => {
  const received = onPageClock(origin);
  try {
    const py = await ready;
    const result = await py.globals.get(fn)(...(arg === undefined ? [] : [arg]));
    postMessage({ id, result, hops: { received, answered: onPageClock(origin) } });
  } catch (e) {
    postMessage({ id, error: String(e) });
  }
};
