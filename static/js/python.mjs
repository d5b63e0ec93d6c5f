// The page's Python: Pyodide's own loadPyodide, started from a memory snapshot
// when the service worker has one cached. pyscript.toml's `interpreter` points
// here; PyScript calls loadPyodide exactly as it calls the stock module's.
//
// The snapshot (made at build time by scripts/snapshot.mjs: Python started and
// the game imported) is only an accelerator. A first visit never waits for its
// megabytes (the service worker precaches it afterwards); a missing, corrupt
// or mismatched snapshot, or a browser without Cache Storage or
// DecompressionStream, starts Python normally, silently (the console says why).
// `python -m game build` fills in SNAPSHOT (its file name, a hash of its bytes)
// and SNAPSHOT_SIZE (its size before the all-zero tail was dropped).
import { loadPyodide as loadStock, version } from "../vendor/pyodide/pyodide.mjs";

export { version };

// Emscripten's stand-in for setImmediate listens to the window's "message"
// events and runs the next queued callback for any message "_si", whoever
// posted it: an embedding page, an extension or a resizer script then caused a
// page error. Given a setImmediate of its own (a private MessageChannel that
// nobody else can post to), Pyodide never listens to the window's messages.
if (!globalThis.setImmediate) {
  const channel = new MessageChannel();
  const queued = new Map();
  let lastId = 0;
  channel.port1.onmessage = (event) => {
    const run = queued.get(event.data);
    queued.delete(event.data);
    if (run) run();
  };
  globalThis.setImmediate = (callback, ...args) => {
    const id = ++lastId;
    queued.set(id, () => callback(...args));
    channel.port2.postMessage(id);
    return id;
  };
  globalThis.clearImmediate = (id) => queued.delete(id);
}

const SNAPSHOT = "__SNAPSHOT__";
const SNAPSHOT_SIZE = Number("__SNAPSHOT_SIZE__");
const INDEX_URL = new URL("../vendor/pyodide/", import.meta.url).href;

// The snapshot's bytes as they arrive: the service worker's copy on a return
// visit; on a first visit the network's, unless the browser says the connection
// is slow or the visitor saves data (its megabytes then cost more time than
// Python's start-up they save). Null: start Python normally.
async function snapshotSource() {
  if (!self.DecompressionStream || !(SNAPSHOT_SIZE > 0)) return null;
  const url = new URL(SNAPSHOT, INDEX_URL).href;
  const hit = self.caches ? await caches.match(url) : null;
  if (hit) return hit;
  const link = navigator.connection;
  if (link && (link.saveData || /(^|-)[23]g$/.test(link.effectiveType || ""))) return null;
  const response = await fetch(url);
  if (!response.ok) throw new Error(`snapshot: HTTP ${response.status}`);
  return response;
}

async function inflate(source) {
  const raw = await new Response(source.body.pipeThrough(new DecompressionStream("gzip")))
    .arrayBuffer();
  if (raw.byteLength > SNAPSHOT_SIZE) throw new Error("snapshot larger than built");
  const bytes = new Uint8Array(SNAPSHOT_SIZE);  // the dropped tail: zeros
  bytes.set(new Uint8Array(raw));
  return bytes;
}

// How Python started, for tests and curious players: <html data-python="snapshot|fresh">.
function said(how) {
  if (self.document) document.documentElement.dataset.python = how;
}

export async function loadPyodide(options = {}) {
  // PyScript passes this module's folder as indexURL: Pyodide's files are in vendor/.
  const stock = { ...options, indexURL: INDEX_URL };
  let source = null;
  try {
    source = await snapshotSource();
  } catch (e) {
    console.warn("Python starts without its snapshot:", e);
  }
  if (source) {
    try {
      // Pyodide fetches its wasm while the snapshot inflates.
      const py = await loadStock({ ...stock, _loadSnapshot: inflate(source) });
      // The snapshot froze the generator's state: without this every visit
      // would deal the same games.
      py.runPython("import random; random.seed()");
      said("snapshot");
      return py;
    } catch (e) {
      console.warn("Python starts without its snapshot:", e);
    }
  }
  const py = await loadStock(stock);
  said("fresh");
  return py;
}
