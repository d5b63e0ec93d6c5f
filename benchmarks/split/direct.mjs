// The "direct" variant (split-direct.html): no PyScript on the main thread.
// The Pyodide worker (direct-worker.mjs) is created at once; MicroPython is
// loaded by micropython.mjs's own loadMicroPython and runs main.py, which
// finds the worker's functions in window.splitEngine (each returns a promise)
// and sets window.splitPushed, called with what the worker draws unasked.
import { loadMicroPython } from "../static/vendor/micropython/micropython.mjs";

const worker = new Worker(new URL("./direct-worker.mjs", import.meta.url), { type: "module" });
const waiting = new Map();
let lastId = 0;
// Each hop of a call, in ms on this page's clock (run.py prints them): posted here,
// received, Python's start and end (worker.py) and posted back in the worker
// (its clock put on ours through performance.timeOrigin), arrived here.
const posted = new Map();
const frames = new Map();
// What the worker drew without a click ({pushed}) goes straight to main.py.
worker.onmessage = ({ data: { id, result, error, hops, pushed } }) => {
  window.splitHops = { ...hops, arrived: performance.now() };
  if (pushed !== undefined) {
    window.splitPushed(pushed);
    return;
  }
  window.splitHops.posted = posted.get(id);
  if (frames.has(id)) window.splitHops.frame = frames.get(id);
  posted.delete(id);
  frames.delete(id);
  const { resolve, reject } = waiting.get(id);
  waiting.delete(id);
  if (error) reject(new Error(error));
  else resolve(result);
};
const call = (fn) => (arg) => new Promise((resolve, reject) => {
  const id = ++lastId;
  waiting.set(id, { resolve, reject });
  posted.set(id, performance.now());
  // When the page's next frame began (if before the answer arrived: it waited for the frame).
  requestAnimationFrame(() => { if (posted.has(id)) frames.set(id, performance.now()); });
  worker.postMessage({ id, fn, arg, origin: performance.timeOrigin });
});
window.splitEngine = { start: call("start"), act: call("act") };

const [mp, code] = await Promise.all([
  loadMicroPython({ linebuffer: false, stderr: (line) => console.error(line) }),
  fetch(new URL("./main.py", import.meta.url)).then((r) => r.text()),
]);
mp.runPython(code);
