// The game's worker (front.mjs starts it): Pyodide from the site's own
// python.mjs (the snapshot, game.zip written as one file), then
// game/web/dom/worker.py, which
// takes each message of the page: a gesture as JSON, or a chosen file ({file,
// data}). Messages that come before Python is up wait here, in order. A start
// that fails is posted as {"failed": why}.
import { loadPyodide, started } from "./python.mjs";

// What the worker downloads, named to the page as it arrives: the loader's progress.
try {
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) postMessage(JSON.stringify({ fetched: e.name }));
  }).observe({ type: "resource", buffered: true });
} catch (e) {}  // (no progress shown, nothing else lost)

// static/js/wire.mjs for game/web/dom/wire.py's WebKeys (WebCrypto is here too).
self.jhgWireModule = () => import("./wire.mjs");
const waiting = [];
let receive = null;
const take = (data) => (typeof data === "string" ? receive(data) : receive(data.file, data.data));
self.onmessage = ({ data }) => (receive ? take(data) : waiting.push(data));
try {
  const py = await loadPyodide();
  postMessage(JSON.stringify({ python: started }));  // how it started: <html data-python>
  receive = py.pyimport("game.web.dom.worker").receive;
} catch (e) {  // the page says so and offers "Try again" (front.mjs, loader.js)
  console.error("The game could not start:", e);
  postMessage(JSON.stringify({ failed: String(e) }));
}
if (receive) for (const data of waiting.splice(0)) take(data);
