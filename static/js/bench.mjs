// benchmarks/think.py's hook (`?bench`), on the page: front.mjs loads this
// module when the game's worker says it has the hook ({"bench": "ready"}), and
// hands it each answer. window.thinkBench(game, seed, count, budget, marks,
// per_stage) posts a call to the worker (game/web/dom/worker_bench.py) and
// resolves to its JSON text; the page's timeOrigin lets the worker give its
// times on the page's clock.
const calls = new Map();
let lastId = 0;

export function heard(engine, said) {
  if (said === "ready") {
    window.thinkBench = (...args) => new Promise((resolve, reject) => {
      const id = ++lastId;
      calls.set(id, { resolve, reject });
      engine.postMessage(JSON.stringify({ kind: "bench", id, args, origin: performance.timeOrigin }));
    });
    return;
  }
  const call = calls.get(said.id);
  calls.delete(said.id);
  if (!call) return;
  if ("error" in said) call.reject(new Error(said.error));
  else call.resolve(said.result);
}
