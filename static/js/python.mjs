// The page's Python: Pyodide's own loadPyodide, started from a memory snapshot.
// pyscript.toml's `interpreter` points here; PyScript calls loadPyodide exactly
// as it calls the stock module's.
//
// The snapshot (made at build time by scripts/snapshot.mjs: Python started and
// the game imported) skips Python's start-up and imports. A return visit takes
// the service worker's copy; a first visit downloads it (5.8 MB gzipped). A
// restored Python has imported what the game needs from the standard library:
// its zip (3.2 MB) is then put in place as a file fetched the first time it is
// read (an import of a module not imported yet), by a synchronous request in
// this worker, which the service worker answers offline. So a first visit
// downloads the snapshot instead of the standard library, and Python is up
// sooner (benchmarks/RESULTS.md has the figures). The snapshot is inflated in the
// game's worker (static/js/engine.mjs). A missing, corrupt or mismatched snapshot, or a
// browser without DecompressionStream, starts Python normally, with the
// standard library fetched at start, silently (the console says why).
//
// The game's package, game.zip, is fetched here too, alongside the wasm and
// the snapshot, and written into Python's file system as one file, which
// Python imports from (zipimport: the zip is first on sys.path, in the
// snapshot as in a fresh start). Nothing is unpacked at start: PyScript's
// `[files]` would have unpacked its 90-odd entries at every start, 200-290 ms
// of the main thread. The snapshot's modules came from this same zip: a
// restored Python gets game-rest.zip instead, the zip without them (its
// importer re-reads the table of contents, see withGame), at the same path.
// `python -m game build` fills in SNAPSHOT (its file name, a hash of its
// bytes), SNAPSHOT_SIZE (its size before the all-zero tail was dropped) and
// STDLIB_SIZE (the standard library zip's).
import { loadPyodide as loadStock, version } from "../vendor/pyodide/pyodide.mjs";

export { version };

// A named moment of the start in this thread's performance timeline ("jhg:"
// and a name): benchmarks/load.py --trace reads them, with the page's own, as
// the parts of a start (how long each waited for the one before).
export function mark(name) {
  try {
    performance.mark("jhg:" + name);
  } catch (e) {}  // (a browser without marks: nothing is traced, nothing lost)
}

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
const STDLIB_SIZE = Number("__STDLIB_SIZE__");
const INDEX_URL = new URL("../vendor/pyodide/", import.meta.url).href;
const STDLIB_URL = new URL("python_stdlib.zip", INDEX_URL).href;
const GAME_URL = new URL("../../game.zip", import.meta.url).href;
// game.zip without the modules the snapshot holds (game.build.REST_ZIP).
const REST_URL = new URL("../../game-rest.zip", import.meta.url).href;
// Where the zip is written: the path scripts/snapshot.mjs gave it, on sys.path.
const GAME_PATH = "/home/pyodide/game.zip";

// The package's bytes (a promise whose failure is reported where it is
// awaited); a failed download is asked again by static/js/loader.js.
function gameZip(url) {
  const bytes = fetch(url).then(async (response) => {
    if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
    return new Uint8Array(await response.arrayBuffer());
  });
  bytes.catch(() => {});
  return bytes;
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
// promise of its bytes, from: "kept" or "inflated", keep(): after a restore
// from inflated bytes, keep them for the next visits; forget(): after a kept
// copy failed, delete it}. A return visit starts from the bytes a previous
// one kept (readKept): Pyodide sizes its memory from the snapshot before it
// instantiates its wasm, so inflating 26 MB (300-400 ms of a warm start) held
// everything else back. Otherwise the service worker's copy, or the network's
// on a first visit, not awaited here: Pyodide's downloads start without
// waiting for its answer, and a failed one fails the restore, which falls back
// to a fresh start. Inflated here, in the game's worker: the page's thread
// never sees its megabytes.
async function snapshot() {
  if (!(SNAPSHOT_SIZE > 0)) return null;
  const name = KEPT_PREFIX + SNAPSHOT.replace(/\.gz$/, "");
  const kept = await readKept(name).catch(() => null);
  if (kept) {
    mark("snapshot read");
    return { bytes: Promise.resolve(kept), from: "kept", keep() {}, forget: () => forgetKept() };
  }
  if (!self.DecompressionStream) return null;
  const url = new URL(SNAPSHOT, INDEX_URL).href;
  const cached = self.caches ? await caches.match(url) : undefined;
  const source = cached ? Promise.resolve(cached) : fetch(url).then((response) => {
    if (!response.ok) throw new Error(`${SNAPSHOT}: HTTP ${response.status}`);
    return response;
  });
  const inflate = (response) =>
    new Response(response.body.pipeThrough(new DecompressionStream("gzip"))).arrayBuffer();
  const bytes = source.then(inflate).then((raw) => {
    if (raw.byteLength > SNAPSHOT_SIZE) throw new Error("snapshot larger than built");
    const whole = new Uint8Array(SNAPSHOT_SIZE);  // the tail the build dropped: zeros
    whole.set(new Uint8Array(raw));
    mark("snapshot inflated");
    return whole;
  });
  bytes.catch(() => {});  // a failure is reported once, by loadPyodide below
  const keep = () => bytes.then((whole) => setTimeout(() => writeKept(name, whole), KEEP_AFTER));
  return { bytes, from: "inflated", keep, forget() {} };
}

// The inflated snapshot is kept in the origin's private file system, one file
// (the current build's, named after its snapshot: the others are deleted when
// it is written), read back in one synchronous read (a worker's sync access
// handle: 25-30 ms, where Cache Storage took 150-190 ms for the same bytes).
// Written KEEP_AFTER ms after a restore, out of the way of the game's own
// start. A browser without that file system (or a page's thread), one that
// refuses to write (no room, private mode), or another tab holding the file
// at that moment: the snapshot is inflated, as on a first visit.
const KEPT_PREFIX = "python-";
const KEEP_AFTER = 3000;

// The origin's private file system, or null where a kept snapshot cannot be
// read in one synchronous read (no such file system, or not in a worker).
async function keptFolder() {
  if (!self.FileSystemSyncAccessHandle || !navigator.storage || !navigator.storage.getDirectory) return null;
  return navigator.storage.getDirectory();
}

async function readKept(name) {
  const folder = await keptFolder();
  const file = folder && (await folder.getFileHandle(name).catch(() => null));
  if (!file) return null;
  const handle = await file.createSyncAccessHandle();
  try {
    if (handle.getSize() !== SNAPSHOT_SIZE) throw new Error("kept snapshot of another size");
    const bytes = new Uint8Array(SNAPSHOT_SIZE);
    if (handle.read(bytes, { at: 0 }) !== SNAPSHOT_SIZE) throw new Error("kept snapshot cut short");
    return bytes;
  } finally {
    handle.close();
  }
}

async function writeKept(name, whole) {
  try {
    const folder = await keptFolder();
    if (!folder) return;
    const handle = await (await folder.getFileHandle(name, { create: true })).createSyncAccessHandle();
    try {
      handle.truncate(0);
      handle.write(whole, { at: 0 });
      handle.flush();
    } finally {
      handle.close();
    }
    await removeKept(folder, name);
  } catch (e) {
    console.warn("The inflated snapshot is not kept (the next visit inflates it again):", e);
  }
}

// Every kept snapshot in `folder` but the one named `except`.
async function removeKept(folder, except = null) {
  for await (const name of folder.keys()) {
    if (name !== except && name.startsWith(KEPT_PREFIX)) await folder.removeEntry(name);
  }
}

async function forgetKept() {
  try {
    const folder = await keptFolder();
    if (folder) await removeKept(folder);
  } catch (e) {}  // (then the next visit fails the same way, and starts all the same)
}

// The standard library's zip at `path` as a file whose bytes are fetched the
// first time Python reads it (its size is known: the build wrote it here), in
// a worker (a synchronous request cannot take bytes on a page's thread).
// Pyodide's loader calls this instead of fetching the zip at start (its
// `stdLibURL` patched by game/build.py). Python's file system keeps a file's
// bytes in `contents` and its size in `usedBytes`: both are answered here. A
// read that cannot fetch (offline before the service worker has the zip) is
// an I/O error for that import, and the next read asks again.
const lazyStdlib = {
  mount(FS, path) {
    FS.writeFile(path, new Uint8Array(0));
    const node = FS.lookupPath(path).node;
    let bytes = null;
    Object.defineProperties(node, {
      usedBytes: { get: () => (bytes ? bytes.length : STDLIB_SIZE), set() {}, configurable: true },
      contents: { get: () => (bytes ??= readStdlib(FS)), set(b) { bytes = b; }, configurable: true },
    });
  },
};

function readStdlib(FS) {
  const request = new XMLHttpRequest();
  request.open("GET", STDLIB_URL, false);  // Python's read waits for it: this is a worker
  request.responseType = "arraybuffer";
  try {
    request.send();
  } catch (e) {
    console.error("The standard library could not be fetched:", e);
    throw new FS.ErrnoError(29);  // EIO
  }
  if (request.status !== 200 || request.response.byteLength !== STDLIB_SIZE) {
    console.error(`The standard library could not be fetched: HTTP ${request.status}`);
    throw new FS.ErrnoError(29);
  }
  return new Uint8Array(request.response);
}

// How Python started, for tests and curious players: <html data-python="snapshot|fresh">
// (in a worker, its page is told: static/js/engine.mjs).
// `snapshotFrom`: "kept" or "inflated" (see snapshot()), null for a fresh start.
export let started = null;
export let snapshotFrom = null;
function said(how) {
  started = how;
  if (self.document) document.documentElement.dataset.python = how;
}

// Pyodide compiles its wasm when it instantiates it, and it instantiates only
// once the snapshot's bytes are in (it sizes its memory from them): on a
// first visit the compile waited for the inflating. Here the compile starts
// with the download, at once, from the same response: Pyodide's own fetch of
// the wasm is answered with it, and its instantiateStreaming instantiates the
// module compiled meanwhile (or, if that compile failed, compiles as before).
function compileEarly() {
  if (!WebAssembly.compileStreaming) return;
  const url = new URL("pyodide.asm.wasm", INDEX_URL).href;
  const fetchNow = self.fetch;
  const download = fetchNow(url);
  const compiled = WebAssembly.compileStreaming(download.then((response) => response.clone()));
  compiled.then(() => mark("wasm compiled"), () => {});  // (failed: Pyodide compiles it itself, and says why it cannot)
  self.fetch = (input, init) => {
    if (String(input) !== url) return fetchNow(input, init);
    self.fetch = fetchNow;  // once: a fresh start after a failed restore fetches anew
    return download;
  };
  const instantiateStreaming = WebAssembly.instantiateStreaming;
  WebAssembly.instantiateStreaming = async (source, imports) => {
    WebAssembly.instantiateStreaming = instantiateStreaming;
    let module;
    try {
      module = await compiled;
    } catch (e) {
      return instantiateStreaming(source, imports);
    }
    Promise.resolve(source).then((response) => response.body && response.body.cancel()).catch(() => {});
    return { module, instance: await WebAssembly.instantiate(module, imports) };
  };
}

export async function loadPyodide(options = {}) {
  // PyScript passes this module's folder as indexURL: Pyodide's files are in vendor/.
  const stock = { ...options, indexURL: INDEX_URL };
  compileEarly();
  let found = null;
  try {
    found = await snapshot();
  } catch (e) {
    console.warn("Python starts without its snapshot:", e);
  }
  if (found) {
    const rest = gameZip(REST_URL);
    let restored = null;
    try {
      const stdlib = self.XMLHttpRequest && !self.document && STDLIB_SIZE > 0 ? { stdLibURL: lazyStdlib } : {};
      restored = await loadStock({ ...stock, ...stdlib, _loadSnapshot: found.bytes });
      // The snapshot froze the generator's state: without this every visit
      // would deal the same games.
      restored.runPython("import random; random.seed()");
      mark("python restored");
    } catch (e) {
      console.warn("Python starts without its snapshot:", e);
      found.forget();  // a kept copy that fails is not tried again
    }
    if (restored) {
      said("snapshot");
      snapshotFrom = found.from;
      found.keep();
      const ready = withGame(restored, await rest, false);
      mark("game zip in place");
      return ready;
    }
  }
  const game = gameZip(GAME_URL);
  const py = await loadStock(stock);
  said("fresh");
  mark("python started");
  const ready = withGame(py, await game, true);
  mark("game zip in place");
  return ready;
}
