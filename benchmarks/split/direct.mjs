// The "direct" variant (split-direct.html): no PyScript on the main thread.
// The Pyodide worker (direct-worker.mjs) is created at once; MicroPython is
// loaded by micropython.mjs's own loadMicroPython and runs main.py, which
// finds the worker's functions in window.splitEngine (each returns a promise).
import { loadMicroPython } from "../static/vendor/micropython/micropython.mjs";

const worker = new Worker(new URL("./direct-worker.mjs", import.meta.url), { type: "module" });
const waiting = new Map();
let lastId = 0;
worker.onmessage = ({ data: { id, result, error } }) => {
  window.splitArrived = performance.now();  // main.py: how long MicroPython takes to resume
  const { resolve, reject } = waiting.get(id);
  waiting.delete(id);
  if (error) reject(new Error(error));
  else resolve(result);
};
const call = (fn) => (arg) => new Promise((resolve, reject) => {
  const id = ++lastId;
  waiting.set(id, { resolve, reject });
  worker.postMessage({ id, fn, arg });
});
window.splitEngine = { start: call("start"), act: call("act"), later: call("later") };

const [mp, code] = await Promise.all([
  loadMicroPython({ linebuffer: false, stderr: (line) => console.error(line) }),
  fetch(new URL("./main.py", import.meta.url)).then((r) => r.text()),
]);
mp.runPython(code);
