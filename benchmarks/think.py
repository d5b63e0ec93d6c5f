"""Think time of the strong (search) bot in the browser, against CPython.

    python benchmarks/think.py [--moves 12] [--budget 1.0] [--games dracula,...]

Not a test: prints a table. The built site is served locally and loaded in
headless Debian Chromium (the flags of DESIGN §4.1, a persistent profile).
For each game the page's debug hook `window.thinkBench(game, seed, moves,
budget)` (game/web/bench.py; it builds its own positions with heuristic
bots and never touches the table) runs the strong bot on `moves` positions
as the page does: slices of 40 ms that yield to the browser, under the
budget, after one short warm-up search (imports). Meanwhile the page records
'longtask' entries (PerformanceObserver) and the animation frames; only tasks and frame gaps that overlap a search
count (not the set-up of the positions). Reported per game:
- think time per move in Pyodide, p50/p95 (ms);
- Python's own view: the longest slice between two yields, the longest single
  iteration and the longest garbage collection (does a long task come from
  the search, or from the machine?);
- the longest main-thread task and the longest frame gap while thinking
  (goal <= 100 ms);
- search iterations per second in Pyodide, and in CPython on this machine
  for the same positions (the observations the page searched, same budget).
The load average is printed: on 2 shared cores other work skews both sides.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from game.build import CHROMIUM, CHROMIUM_ARGS, SITE, ensure_built, make_server  # noqa: E402

GAMES = ("jekyll-hyde", "jekyll-vs-hyde", "dracula")

RUN = """async ([game, seed, moves, budget]) => {
  const tasks = [];
  let obs = null;
  try {
    obs = new PerformanceObserver(list => {
      for (const e of list.getEntries()) tasks.push([e.startTime, e.duration]); });
    obs.observe({type: 'longtask'});
  } catch (e) { /* no longtask support: the frame gaps still say it */ }
  const frames = [];
  let running = true;
  function frame(now) { frames.push(now); if (running) requestAnimationFrame(frame); }
  requestAnimationFrame(frame);
  const out = await window.thinkBench(game, seed, moves, budget);
  running = false;
  await new Promise(r => setTimeout(r, 50));
  if (obs) obs.disconnect();
  return {moves: JSON.parse(String(out)), tasks, frames};
}"""


def _pct(values: list[float], p: float) -> float:
    v = sorted(values)
    k = (len(v) - 1) * p
    lo, hi = int(k), min(int(k) + 1, len(v) - 1)
    return v[lo] + (v[hi] - v[lo]) * (k - lo)


def _cpython(observations: list[dict], budget: float) -> tuple[float, list[float]]:
    """Iterations per second of the same search in this CPython, same positions."""
    from game.bots.search import SearchBot

    rates = []
    for i, obs in enumerate(observations):
        bot = SearchBot(budget=budget)
        t0 = time.monotonic()
        bot.choose(obs, obs["legal"], random.Random(i))
        rates.append(bot.last_iterations / (time.monotonic() - t0))
    return statistics.median(rates), rates


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--moves", type=int, default=12)
    ap.add_argument("--budget", type=float, default=1.0)
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--games", default=",".join(GAMES))
    ap.add_argument("--moves-detail", action="store_true",
                    help="also print each move's time, iterations, longest slice and iteration")
    ap.add_argument("--site", default=None, help="a built site (default: build ./site)")
    args = ap.parse_args(argv)
    from playwright.sync_api import sync_playwright

    site = Path(args.site) if args.site else ensure_built(SITE)
    games = [g for g in args.games.split(",") if g]
    load_before = os.getloadavg()[0]
    server = make_server(site, 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/?speed=slow&bench"
    page_results = {}
    with tempfile.TemporaryDirectory() as profile, sync_playwright() as p:
        ctx = p.chromium.launch_persistent_context(profile, executable_path=CHROMIUM,
                                                   args=CHROMIUM_ARGS, headless=True)
        page = ctx.pages[0] if ctx.pages else ctx.new_page()
        page.set_default_timeout(600000)
        page.goto(url)
        page.wait_for_function("document.body && document.body.dataset.state === 'ready'",
                               timeout=120000)
        page.wait_for_function("typeof window.thinkBench === 'function'")
        for game in games:  # a short warm-up first: imports and first-call costs
            page.evaluate("g => window.thinkBench(g, 99, 1, 0.2)", game)
            page_results[game] = page.evaluate(RUN, [game, args.seed, args.moves, args.budget])
            print(f"{game}: page done", file=sys.stderr)
        ctx.close()
    server.shutdown()
    load_mid = os.getloadavg()[0]

    rows, over_share = [], []
    for game in games:
        r = page_results[game]
        ms = [m["ms"] for m in r["moves"]]
        py_rates = [m["iterations"] / (m["ms"] / 1000) for m in r["moves"]]
        cp_rate, _ = _cpython([m["obs"] for m in r["moves"]], args.budget)
        # Only what overlaps a search: not the positions' set-up or the JSON answer.
        windows = [m["window"] for m in r["moves"]]
        tasks = [d for s, d in r["tasks"] if any(s < b and s + d > a for a, b in windows)]
        gaps = [y - x for x, y in zip(r["frames"], r["frames"][1:])
                if any(x < b and y > a for a, b in windows)]
        longest = max(tasks, default=0.0)
        slices = max(max(m["slice_ms"], m["start_ms"]) for m in r["moves"])
        gc_ms = max(m["gc_ms"] for m in r["moves"])
        it_ms = max(m["iteration_ms"] for m in r["moves"])
        n_slices = sum(m["slices"] for m in r["moves"])
        n_over = sum(m["slices_over_100ms"] for m in r["moves"])
        over_share.append(f"{game} {n_over}/{n_slices}")
        rows.append((game, len(ms), statistics.median(ms), _pct(ms, 0.95), longest,
                     len(tasks), max(gaps, default=0.0), slices, it_ms, gc_ms,
                     statistics.median(py_rates), cp_rate))
    print(f"strong bot, budget {args.budget:g} s, slices of 40 ms; load average "
          f"{load_before:.1f} before, {load_mid:.1f} after the browser part, "
          f"{os.getloadavg()[0]:.1f} at the end, on {os.cpu_count()} cores")
    print(f"{'game':16}{'moves':>6}{'p50 ms':>8}{'p95 ms':>8}{'long task':>10}{'#long':>6}"
          f"{'frame gap':>10}{'slice':>7}{'iter':>6}{'gc':>6}{'Pyodide it/s':>13}"
          f"{'CPython it/s':>13}{'ratio':>7}")
    for g, n, p50, p95, longest, nlong, gap, sl, itm, gcm, py, cp in rows:
        print(f"{g:16}{n:6d}{p50:8.0f}{p95:8.0f}{longest:10.0f}{nlong:6d}{gap:10.0f}{sl:7.0f}"
              f"{itm:6.0f}{gcm:6.0f}"
              f"{py:13.0f}{cp:13.0f}{cp / py if py else float('nan'):6.2f}x")
    if args.moves_detail:
        for game in games:
            print(game, " ".join(f'{m["ms"]:.0f}ms/{m["iterations"]}it/'
                                 f'{m["slice_ms"]:.0f}/{m["iteration_ms"]:.0f}'
                                 for m in page_results[game]["moves"]))
    print("long task / frame gap: longest main-thread task (ms, 'longtask' entries over 50 ms)"
          " and longest gap between frames while thinking (goal <= 100 ms).")
    print("slice: the longest stretch of Python between two yields, as Python timed it (ms);"
          " iter: the longest single iteration; gc: the longest garbage collection.")
    print("slices over 100 ms (Python's clock): " + ", ".join(over_share))
    print("it/s: median over moves of iterations / think time; ratio = CPython / Pyodide.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
