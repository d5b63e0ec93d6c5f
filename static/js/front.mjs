// The page's runtime (docs/DESIGN.md, "Python off the main thread"). The game
// runs in a worker (engine.mjs: Pyodide from the snapshot, then
// game/web/dom/worker.py); the page's front (game/web/front/ and
// game/web/dom/main_thread.py, in MicroPython, their sources in front.json)
// listens and draws. first.js loads this module once the first screen is painted.
// The worker first: the game's start (the longest) begins before MicroPython is
// even fetched (a static import of micropython.mjs would hold it back).
const engine = new Worker(new URL("./engine.mjs", import.meta.url), { type: "module" });
window.jhgEngine = engine;
// A worker that could not start (its scripts, Pyodide, the game): static/js/loader.js
// says so and its "Try again" reloads the page.
const engineFailed = () => dispatchEvent(new Event("jhg:engine-failed"));
engine.addEventListener("error", (event) => {
  event.preventDefault();
  console.error("The game's worker failed:", event.message);
  engineFailed();
});
engine.addEventListener("message", ({ data }) => {
  if (typeof data === "string" && data.startsWith('{"failed"')) engineFailed();
});

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

const { loadMicroPython } = await import("../vendor/micropython/micropython.mjs");
const [mp, sources] = await Promise.all([
  loadMicroPython({ linebuffer: true, stdout: (line) => console.log(line),
                    stderr: (line) => console.error(line) }),
  fetch(new URL("./front.json", import.meta.url)).then((r) => r.json()),
]);
try { mp.FS.mkdir("/lib"); } catch (e) {}  // (there already)
for (const [path, text] of Object.entries(sources)) {
  let dir = "";
  for (const part of path.split("/").slice(0, -1)) {
    dir += "/" + part;
    try { mp.FS.mkdir("/lib" + dir); } catch (e) {}  // (made already)
  }
  mp.FS.writeFile("/lib/" + path, text);
}
// The page's own entry: index.html's main_thread, or the one its <body> names
// (embed.html: data-front="embed_front").
mp.runPython(`import game.web.dom.${document.body.dataset.front || "main_thread"}`);
