// The page's runtime (docs/DESIGN.md, "The page's runtime"). The game
// runs in a worker (engine.mjs: Pyodide from the snapshot, then
// game/web/dom/worker.py); the page's front (game/web/front/ and
// game/web/dom/main_thread.py, in MicroPython, compiled by the build in front.json)
// listens and draws. first.js loads this module once the first screen is painted.
// The worker first: the game's start (the longest) begins before MicroPython is
// even fetched (a static import of micropython.mjs would hold it back).
// A named moment of the start (as static/js/python.mjs's, for benchmarks/load.py --trace).
const mark = (name) => {
  try {
    performance.mark("jhg:" + name);
  } catch (e) {}
};
mark("front module");
const engine = new Worker(new URL("./engine.mjs", import.meta.url), { type: "module" });
window.jhgEngine = engine;
// <html data-busy> while a message of the page waits for the game's answer
// (engine.mjs answers each with {"handled"} after its frames): the browser
// tests wait for it to go before they look. Not the retry: it has no answer.
const root = document.documentElement;
let inFlight = 0;
const postNow = engine.postMessage.bind(engine);
engine.postMessage = (data, transfer) => {
  if (data !== '{"retry":true}') {
    inFlight += 1;
    root.dataset.busy = "";
  }
  postNow(data, transfer);
};
const answered = () => {
  inFlight = 0;
  delete root.dataset.busy;
};
// A worker that could not start (its scripts, Pyodide, the game): static/js/loader.js
// says so and its "Try again" reloads the page.
const engineFailed = () => {
  answered();  // (nothing more will be)
  dispatchEvent(new Event("jhg:engine-failed"));
};
// An error once Python is up is the game's own, not a download's: the page says
// the game could not start, never that it could not be downloaded.
const engineCrashed = (why) => {
  answered();
  dispatchEvent(new CustomEvent("jhg:engine-crashed", { detail: why }));
};
engine.addEventListener("error", (event) => {
  event.preventDefault();
  console.error("The game's worker failed:", event.message);
  if (root.dataset.python) engineCrashed("Error");
  else engineFailed();
});
engine.addEventListener("message", ({ data }) => {
  if (typeof data !== "string") return;
  if (data.startsWith('{"handled"')) {
    if (--inFlight <= 0) answered();
  } else if (data.startsWith('{"failed"')) {
    engineFailed();
  } else if (data.startsWith('{"crashed"')) {
    engineCrashed(String(JSON.parse(data).crashed));
  } else if (data.startsWith('{"offline"')) {
    dispatchEvent(new Event("jhg:download-failed"));
  } else if (data.startsWith('{"fetched"')) {
    dispatchEvent(new CustomEvent("jhg:fetched", { detail: JSON.parse(data).fetched }));
  } else if (data.startsWith('{"python"')) {
    const { python, snapshot } = JSON.parse(data);
    root.dataset.python = python;
    if (snapshot) root.dataset.snapshot = snapshot;
    dispatchEvent(new Event("jhg:python"));
  }
});

// Online play's connections live here, not in the worker (a worker has no
// WebRTC): each {"wire"} frame goes to wire-host.mjs, loaded with the first one
// (main_thread.py ignores them); its events go back as {"kind": "wire"} messages.
let wires = null;
engine.addEventListener("message", ({ data }) => {
  if (typeof data !== "string" || !data.startsWith('{"wire"')) return;
  const { wire } = JSON.parse(data);
  wires ??= import("./wire-host.mjs").then(({ Wires }) =>
    new Wires((event) => engine.postMessage(JSON.stringify({ kind: "wire", ...event }))));
  wires.then((host) => host.take(wire), (e) => {
    console.error("online play's connections could not load:", e);
    const failed = { kind: "wire", id: wire.id, event: "failed", code: "no-webrtc" };
    if (wire.open) engine.postMessage(JSON.stringify(failed));
  });
});
// The browser tests' handle on the connections (set by a test's script only).
if (window.jhgWireProbe === true) import("./wire-probe.mjs").then(({ install }) => install(window));

// A chosen file, read here (awaiting it is JavaScript's part) and posted to the
// game with its bytes; a file over the game's limit is never read.
window.jhgReadFile = async (file, purpose, limit) => {
  let data = null;
  if (file.size <= limit) {
    try {
      data = await file.arrayBuffer();
    } catch (e) {
      console.error("file read:", e);
    }
  }
  const head = JSON.stringify({ kind: "file", purpose, name: file.name, size: file.size });
  engine.postMessage({ file: head, data }, data ? [data] : []);
};

// benchmarks/think.py's hook (?bench only): its module, when the worker has it.
engine.addEventListener("message", ({ data }) => {
  if (typeof data === "string" && data.startsWith('{"bench"')) {
    import("./bench.mjs").then((bench) => bench.heard(engine, JSON.parse(data).bench));
  }
});

// The front's modules (game/build.py: bytecode in a file system image, and the
// order of their imports), fetched while MicroPython's script loads, once the
// first screen is painted (index.html: first.js's jhgPainted; the worker is
// already under way).
const front = fetch(new URL("./front.json", import.meta.url)).then((r) => r.json());
const specimens = fetch(new URL("./specimens.json", import.meta.url)).then((r) => r.json())
  .then((known) => known || {}, () => ({}));  // (none: nothing to lay out)
await window.jhgPainted;
mark("painted");
meetTheFonts(document.body.dataset.specimen);
const { loadMicroPython } = await import("../vendor/micropython/micropython.mjs");
const { order, rom } = await front;
// MicroPython mounts the image at /rom, on its import path: no file is written.
const mp = await loadMicroPython({
  linebuffer: true, stdout: (line) => console.log(line), stderr: (line) => console.error(line),
  romfs: Uint8Array.from(atob(rom), (c) => c.charCodeAt(0)),
});
mark("micropython");
// A storage area, or null where the browser refuses it (a setting, some private
// modes: reading `localStorage` throws). MicroPython cannot catch a JavaScript
// exception (it would unwind through its WebAssembly), so main_thread.py asks here,
// and writes through jhgStorageWrite.
window.jhgStorageArea = (name) => {
  try {
    const area = window[name];
    area.getItem("jhg.prefs");  // some browsers refuse only the first use
    return area;
  } catch (e) {
    return null;
  }
};
// A write (value null: a removal) to an area: null once done, else why not, as
// game/web/front/storage.py's `write` says it: "full" (its quota) or "blocked".
window.jhgStorageWrite = (area, key, value) => {
  if (area === null) return "blocked";
  try {
    if (value === null) area.removeItem(key);
    else area.setItem(key, value);
    return null;
  } catch (e) {
    if (`${e.name} ${e.message}`.toLowerCase().includes("quota")) return "full";
    try {
      void area.length;
    } catch (e2) {
      return "blocked";
    }
    return "full";
  }
};
// The front's modules, one task each, in the build's order (each after those
// it imports): the page answers a click between them, where one import of
// everything was one long task. Then the page's own entry, imported, then
// started: index.html's main_thread, or the one its <body> names (embed.html:
// data-front="embed_front").
const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0));
for (const name of order) {
  if (!name.startsWith("game.web.front.")) continue;  // (not the packages, nor the entries)
  await nextTask();
  mp.runPython(`import ${name}`);
}
const entry = `game.web.dom.${document.body.dataset.front || "main_thread"}`;
await nextTask();
mp.runPython(`import ${entry}`);
await nextTask();
mp.runPython(`${entry}.start()`);
mark("front listening");

// The first table the page draws comes in one frame. In Chromium on Linux
// each font size that frame meets for the first time (and each character
// its font lacks) is a synchronous question to the browser's process: the
// frame took 40-150 ms in cold traces,
// half of it asking. So while the page waits (for its game, or for a Start),
// the build's specimen of the table it would draw (game/build.py, `specimen`,
// in specimens.json; <body data-specimen>: the game, as first.js or
// embed-start.js found it) is laid out unseen beside #screen, one part a
// task (`cut`), then removed: the first frame finds those sizes known. Without a
// specimen (the file missing, a game unknown) nothing is done.
async function meetTheFonts(game) {
  const screen = document.getElementById("screen");
  const known = await specimens;
  const markup = Object.hasOwn(known, game) ? known[game] : null;
  if (typeof markup !== "string" || !screen) return;
  const specimen = document.createElement("template");
  specimen.innerHTML = markup;  // the build's own table, inert until laid out
  const box = document.createElement("div");
  box.className = "screen specimen";  // (.screen: the table's rules apply as in #screen)
  box.setAttribute("aria-hidden", "true");
  const parts = [];
  cut(box, [...specimen.content.childNodes], parts);
  screen.after(box);
  const next = () => {
    if (!parts.length) {
      box.remove();
      return;
    }
    const [parent, nodes] = parts.shift();
    parent.append(...nodes);
    void box.offsetHeight;  // laid out now, in this task
    setTimeout(next, 0);
  };
  setTimeout(next, 0);
}

// `nodes` (to go into `parent`, in order) in parts of at most 40 elements,
// each [parent, its nodes], in the order they go in: a bigger element goes in
// as an empty copy of itself (its classes: the table's rules still apply to
// what goes into it), its children cut in turn. The table whole was one
// 45-55 ms task in loaded cold traces.
function cut(parent, nodes, parts) {
  const most = 40;
  let run = [];
  let size = 0;
  const close = () => {
    if (run.length) parts.push([parent, run]);
    run = [];
    size = 0;
  };
  for (const node of nodes) {
    const elements = node.nodeType === Node.ELEMENT_NODE ? 1 + node.getElementsByTagName("*").length : 0;
    if (elements <= most) {
      if (size + elements > most) close();
      run.push(node);
      size += elements;
    } else {
      const shell = node.cloneNode(false);
      run.push(shell);
      close();
      cut(shell, [...node.childNodes], parts);
    }
  }
  close();
}
