// The game's worker (front.mjs starts it): Pyodide from the site's own
// python.mjs (the snapshot when cached, game.zip written as one file), then
// game/web/dom/worker.py, which takes each message of the page: a gesture as
// JSON, or a chosen file ({file, data}). Messages that come before Python is up
// wait here, in order. A start that fails is posted as {"failed": why}.
import { loadPyodide, mark, started, snapshotFrom } from "./python.mjs";

mark("worker");

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
// Each message is answered, once its frames are posted, with {"handled"}: the
// page knows what is still in flight (front.mjs, <html data-busy>).
const HANDLED = '{"handled":true}';
const take = (data) => {
  try {
    if (typeof data === "string") receive(data);
    else receive(data.file, data.data);
  } finally {
    postMessage(HANDLED);
  }
};

// A start-up download that fails for want of a network (the runtime, the
// standard library, game.zip) is told to the page ({"offline"}) and asked again
// when the page says so ({"retry"}: "Try again", Start, or the browser back
// online; static/js/loader.js): the start goes on as if it had only been slow.
const retries = [];
const RETRY = '{"retry":true}';
const fetchNow = self.fetch.bind(self);
self.fetch = (...args) => fetchNow(...args).catch(function again(e) {
  if (receive || (e && e.name === "AbortError")) throw e;
  console.warn("A start-up download failed; it is asked again on retry:", e);
  postMessage(JSON.stringify({ offline: String(e) }));
  return new Promise((resolve) => retries.push(resolve)).then(() => fetchNow(...args).catch(again));
});
// The wasm cut off midway cannot be asked again here: the page reloads.
self.addEventListener("pyodide:wasm-failed", () => postMessage(JSON.stringify({ failed: "wasm" })));

self.onmessage = ({ data }) => {
  if (data === RETRY) for (const resume of retries.splice(0)) resume();
  else if (receive) take(data);
  else waiting.push(data);
};
let py = null;
try {
  py = await loadPyodide();
  // How it started: <html data-python> (and data-snapshot: "kept" or "inflated").
  postMessage(JSON.stringify({ python: started, snapshot: snapshotFrom }));
  receive = py.pyimport("game.web.dom.worker").receive;
  mark("worker module imported");
} catch (e) {  // the page says so and offers "Try again" (front.mjs, loader.js)
  console.error("The game could not start:", e);
  // Once Python is up the fault is the game's, not a download's.
  postMessage(JSON.stringify(py ? { crashed: String(e && e.name || e) } : { failed: String(e) }));
}
if (receive) for (const data of waiting.splice(0)) take(data);
