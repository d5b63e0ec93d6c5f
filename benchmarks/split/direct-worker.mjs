// The "direct" variant's worker (split-direct.html): no PyScript. Pyodide from
// the site's own static/js/python.mjs (the snapshot), the package unpacked
// from game.zip, then worker.py; the page calls its functions by message:
// {id, fn, arg} -> {id, result} or {id, error}, each answered from the
// message's own handler (Python called synchronously: no event-loop hop).
// What Python draws without a click (bots, hints) it posts at once through
// self.splitPush: {pushed}.
import { loadPyodide } from "../static/js/python.mjs";

// The page's clock (ms since its timeOrigin) from this worker's; the page
// sends its timeOrigin with each call.
let pageOrigin = performance.timeOrigin;
const onPageClock = () => performance.timeOrigin + performance.now() - pageOrigin;

self.splitPush = (pushed) => postMessage({ pushed, hops: { answered: onPageClock() } });

let py = null;
const early = [];  // calls made before Python was up, in order
(async () => {
  const [pyodide, zip, code] = await Promise.all([
    loadPyodide(),
    fetch("../game.zip").then((r) => r.arrayBuffer()),
    fetch("./worker.py").then((r) => r.text()),
  ]);
  pyodide.unpackArchive(zip, "zip");
  await pyodide.runPythonAsync(code);
  py = pyodide;
  for (const data of early.splice(0)) answer(data);
})();

function answer({ id, fn, arg, origin }) {
  pageOrigin = origin;
  const received = onPageClock();
  try {
    const result = py.globals.get(fn)(...(arg === undefined ? [] : [arg]));
    postMessage({ id, result, hops: { received, answered: onPageClock() } });
  } catch (e) {
    postMessage({ id, error: String(e) });
  }
}

self.onmessage = ({ data }) => {
  if (py === null) early.push(data);
  else answer(data);
};
