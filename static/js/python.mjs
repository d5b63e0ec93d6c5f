// The page's Python: Pyodide's own loadPyodide, started from a memory snapshot.
// pyscript.toml's `interpreter` points here; PyScript calls loadPyodide exactly
// as it calls the stock module's.
//
// The snapshot (made at build time by scripts/snapshot.mjs: Python started and
// the game imported) is only an accelerator: restoring it skips Python's
// start-up and imports. A return visit takes the service worker's copy; a
// first visit starts Python normally and never downloads it: its megabytes
// would cost a first visit a third more bytes, for a start that no longer
// holds the page (Python runs in the game's worker, static/js/engine.mjs).
// It is inflated where Python runs, in that worker. A missing, corrupt or
// mismatched snapshot, or a browser without the Cache API or
// DecompressionStream, starts Python normally, silently (the console says why).
//
// The game's package, game.zip, is fetched here too, alongside the wasm and
// the snapshot, and written into Python's file system as one file, which
// Python imports from (zipimport: the zip is first on sys.path, in the
// snapshot as in a fresh start). Nothing is unpacked at start: PyScript's
// `[files]` would have unpacked its 90-odd entries at every start, 200-290 ms
// of the main thread. The snapshot's modules came from this same zip.
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
const GAME_URL = new URL("../../game.zip", import.meta.url).href;
// Where the zip is written: the path scripts/snapshot.mjs gave it, on sys.path.
const GAME_PATH = "/home/pyodide/game.zip";

// The package's bytes; a failed download is asked again by static/js/loader.js.
async function gameZip() {
  const response = await fetch(GAME_URL);
  if (!response.ok) throw new Error(`game.zip: HTTP ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}

// `py` with the package in place: the zip written, and where Python started
// fresh, put on sys.path (the snapshot has it there already). A snapshot's
// importer re-reads the zip's table of contents from the file written now
// (its own invalidate_caches: importlib's would import importlib.metadata,
// measured 400 ms).
function withGame(py, bytes, fresh) {
  py.FS.writeFile(GAME_PATH, bytes, { canOwn: true });
  py.runPython(fresh ? `import sys; sys.path.insert(0, "${GAME_PATH}")`
                     : `import sys; getattr(sys.path_importer_cache.get("${GAME_PATH}"), "invalidate_caches", int)()`);
  return py;
}

// The snapshot to start from: null if there is none to use, else {bytes: a
// promise of its bytes}, so that Pyodide fetches its wasm while it inflates.
// Only the service worker's copy (see above). Inflated here, in the game's
// worker: the page's thread never sees its megabytes.
async function snapshot() {
  if (!self.DecompressionStream || !self.caches || !(SNAPSHOT_SIZE > 0)) return null;
  const source = await caches.match(new URL(SNAPSHOT, INDEX_URL).href);
  if (!source) return null;
  const inflated = new Response(source.body.pipeThrough(new DecompressionStream("gzip")));
  const bytes = inflated.arrayBuffer().then((raw) => {
    if (raw.byteLength > SNAPSHOT_SIZE) throw new Error("snapshot larger than built");
    const whole = new Uint8Array(SNAPSHOT_SIZE);  // the tail the build dropped: zeros
    whole.set(new Uint8Array(raw));
    return whole;
  });
  bytes.catch(() => {});  // a failure is reported once, by loadPyodide below
  return { bytes };
}

// How Python started, for tests and curious players: <html data-python="snapshot|fresh">
// (in a worker, its page is told: static/js/engine.mjs).
export let started = null;
function said(how) {
  started = how;
  if (self.document) document.documentElement.dataset.python = how;
}

export async function loadPyodide(options = {}) {
  // PyScript passes this module's folder as indexURL: Pyodide's files are in vendor/.
  const stock = { ...options, indexURL: INDEX_URL };
  const game = gameZip();
  game.catch(() => {});  // a failure is reported where it is awaited, below
  let found = null;
  try {
    found = await snapshot();
  } catch (e) {
    console.warn("Python starts without its snapshot:", e);
  }
  let restored = null;
  if (found) {
    try {
      restored = await loadStock({ ...stock, _loadSnapshot: found.bytes });
      // The snapshot froze the generator's state: without this every visit
      // would deal the same games.
      restored.runPython("import random; random.seed()");
    } catch (e) {
      restored = null;
      console.warn("Python starts without its snapshot:", e);
    }
  }
  if (restored) {
    said("snapshot");
    return withGame(restored, await game, false);
  }
  const py = await loadStock(stock);
  said("fresh");
  return withGame(py, await game, true);
}
