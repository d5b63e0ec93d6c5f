"""Issue 33's prototype, measured: Pyodide in a PyScript worker (started from
the build's memory snapshot), a thin MicroPython layer on the main thread.

    python benchmarks/split/run.py [--runs 3] [--clicks 50] [--bots 12] [--mpy DIR] [--keep DIR]

MicroPython comes from package.json (`npm ci`); `--mpy` names another
`node_modules` parent.

Not a test, and the site is unchanged: the site is built into a temporary
folder, then three pages are added beside index.html:
- split.html: index.html with its <script type="py"> replaced by main.py on
  MicroPython (the npm package above, copied to static/vendor/micropython/)
  and worker.py in a PyScript worker whose interpreter is the site's own
  static/js/python.mjs (the snapshot, inflated by its nested worker);
- split-fresh.html: the same with the stock pyodide.mjs in the worker (no
  snapshot: Python starts and imports the game, game.zip unpacked);
- the CSP of both pages adds `blob:` to worker-src (PyScript's workers are
  started from a Blob URL);
- split-direct.html: no PyScript on the main thread: first.js loads
  direct.mjs, which starts direct-worker.mjs (Pyodide from python.mjs,
  game.zip unpacked, worker.py) and runs main.py on MicroPython's own
  loadMicroPython;
- split-front.html: the real split, the page's own code on both sides
  (front.mjs, front-worker.mjs: game/web/front/ and
  game/web/dom/main_thread.py on MicroPython, game/web/dom/worker.py in
  the worker).
Served by game.build's static server: no COOP/COEP headers, as on GitHub
Pages (so no SharedArrayBuffer: `crossOriginIsolated` is printed).

Measured in Chromium (`--pages`; fresh profile per page and run; a cold visit, then a
warm one from the HTTP cache), from navigation to ready (today's page:
<body data-state=ready>; the split: the worker's first answer applied):
longest main-thread task and total blocking time (PerformanceObserver
`longtask`), the input delay of clicks made every 100 ms during the load
(Event Timing), the time to the start screen's answer to Start pressed at
first paint (the table drawn), the round trip of `--clicks` actions at a
table (click -> patches applied: the keys panel opened and closed) and, for
the split pages, each hop of it (main.py's window.splitTimes: median and p90
of the time from each moment to the next), the same for what the bots draw
without a click (`--bots` draws, the person's turns played meanwhile), the
renderer's memory (RSS and PSS of its processes, read from /proc), and the
worker's start. The load average is printed: read the ratios of one run.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from game.build import CHROMIUM, CHROMIUM_ARGS, build, make_server  # noqa: E402

HERE = Path(__file__).resolve().parent
MPY_PACKAGE = "@micropython/micropython-webassembly-pyscript"
MPY_FILES = ("micropython.mjs", "micropython.wasm")
PY_SCRIPT = re.compile(r'<script type="py" config="\./pyscript\.json">.*?</script>', re.S)
SPLIT_SCRIPTS = """<script type="mpy" src="./split/main.py" config="./split/mpy.json"></script>
<script type="py" worker name="engine" src="./split/worker.py" config="./split/{worker}.json"></script>"""

# Installed before the page's own scripts: long tasks, click timings, and the
# table's changes (a MutationObserver: the time a patch lands in the DOM).
OBSERVE = """
window.__split = {longtasks: [], events: [], clicks: [], changed: []};
new PerformanceObserver(l => { for (const e of l.getEntries())
  __split.longtasks.push([e.startTime, e.duration]); }).observe({type: 'longtask', buffered: true});
new PerformanceObserver(l => { for (const e of l.getEntries()) if (e.name === 'click' || e.name === 'pointerdown')
  __split.events.push([e.startTime, e.processingStart - e.startTime, e.duration]); })
  .observe({type: 'event', buffered: true, durationThreshold: 16});
addEventListener('click', e => __split.clicks.push(e.timeStamp), true);
(function poll() {  // when <body data-state> turned ready (to a frame)
  if (document.body && document.body.dataset.state === 'ready') window.__readyAt = performance.now();
  else requestAnimationFrame(poll);
})();
addEventListener('DOMContentLoaded', () => {
  const modal = document.getElementById('modal');
  if (modal) new MutationObserver(() => __split.changed.push(performance.now()))
    .observe(modal, {childList: true, subtree: true, attributes: true, attributeFilter: ['hidden']});
});
"""


def make(site: Path, mpy_prefix: Path) -> None:
    """Add the prototype's pages to a built site."""
    source = mpy_prefix / "node_modules" / MPY_PACKAGE
    vendor = site / "static" / "vendor" / "micropython"
    vendor.mkdir(parents=True, exist_ok=True)
    for name in MPY_FILES:
        shutil.copy(source / name, vendor / name)
    folder = site / "split"
    folder.mkdir(exist_ok=True)
    for name in ("main.py", "worker.py", "direct.mjs", "direct-worker.mjs"):
        shutil.copy(HERE / name, folder / name)
    for name in ("sync-probe.html", "mpy-bare.html", "mpy-pyscript.html"):  # the probes
        shutil.copy(HERE / name, site / name)
    # Paths in a config are relative to it ([files]) or to the page (interpreter).
    (folder / "mpy.json").write_text(json.dumps(
        {"interpreter": "./static/vendor/micropython/micropython.mjs", "plugins": ["!error"]}))
    # sync_main_only: the worker never asks for `window` (PyScript then does not warn).
    worker = {"plugins": ["!error"], "files": {"../game.zip": "./*"}, "sync_main_only": True}
    (folder / "worker.json").write_text(json.dumps(
        {**worker, "interpreter": "../static/js/python.mjs"}))
    (folder / "worker-fresh.json").write_text(json.dumps(
        {**worker, "interpreter": "../static/vendor/pyodide/pyodide.mjs"}))
    today = (site / "index.html").read_text()
    index = today.replace("worker-src 'self'", "worker-src 'self' blob:")
    for page, worker_config in (("split.html", "worker"), ("split-fresh.html", "worker-fresh")):
        html, n = PY_SCRIPT.subn(SPLIT_SCRIPTS.format(worker=worker_config), index)
        assert n == 1, "index.html's Python script not found"
        (site / page).write_text(html)
    # No PyScript on the main thread: first.js loads direct.mjs after the first paint.
    html, n = PY_SCRIPT.subn("", today.replace(
        'data-runtime="./static/vendor/pyscript/core.js"', 'data-runtime="./split/direct.mjs"'))
    assert n == 1 and "./split/direct.mjs" in html, "index.html's runtime not found"
    (site / "split-direct.html").write_text(html.replace(
        '<link rel="modulepreload" href="./static/vendor/pyscript/core.js">', ""))
    make_front(site, today, folder)


FRONT_SOURCES = ("game/web/front/*.py", "game/web/dom/main_thread.py")


def make_front(site: Path, today: str, folder: Path) -> None:
    """split-front.html: the real split — the page's front (game/web/front/,
    MicroPython, its sources in split/front.json) and the game in a worker
    of ours (game/web/dom/worker.py) — loaded by first.js after the first paint."""
    for name in ("front.mjs", "front-worker.mjs"):
        shutil.copy(HERE / name, folder / name)
    sources = {"game/__init__.py": "", "game/web/__init__.py": "", "game/web/dom/__init__.py": ""}
    for pattern in FRONT_SOURCES:
        for path in sorted(ROOT.glob(pattern)):
            sources[str(path.relative_to(ROOT))] = path.read_text()
    (folder / "front.json").write_text(json.dumps(sources))
    html, n = PY_SCRIPT.subn("", today.replace(
        'data-runtime="./static/vendor/pyscript/core.js"', 'data-runtime="./split/front.mjs"'))
    assert n == 1 and "./split/front.mjs" in html, "index.html's runtime not found"
    (site / "split-front.html").write_text(html.replace(
        '<link rel="modulepreload" href="./static/vendor/pyscript/core.js">', ""))


def sizes(site: Path) -> dict[str, tuple[int, int]]:
    import gzip

    out = {}
    for name in MPY_FILES:
        data = (site / "static" / "vendor" / "micropython" / name).read_bytes()
        out[name] = (len(data), len(gzip.compress(data, 9)))
    return out


def renderer_memory(profile: str) -> tuple[float, float]:
    """RSS and PSS (MB) of this profile's renderer processes (the page, its workers)."""
    rss = pss = 0
    for proc in psutil.process_iter(["cmdline"]):
        cmd = " ".join(proc.info["cmdline"] or [])
        if profile in cmd and "--type=renderer" in cmd:
            try:
                full = proc.memory_full_info()
                rss += full.rss
                pss += full.pss
            except psutil.Error:
                pass
    return rss / 2**20, pss / 2**20


def tbt(tasks: list[list[float]], until: float) -> tuple[float, float, int]:
    seen = [d for s, d in tasks if s < until]
    return (max(seen, default=0.0), sum(max(0.0, d - 50) for d in seen), len(seen))


def visit(page, url: str, ready_mark: str | None) -> dict:
    """Load `url`, clicking a plain part of the page every 100 ms until ready."""
    page.goto(url, wait_until="commit")
    page.wait_for_selector("#brand", state="attached")
    deadline = time.monotonic() + 120
    while not page.evaluate("document.body.dataset.state === 'ready'"):
        if time.monotonic() > deadline:
            raise TimeoutError(url)
        try:
            page.mouse.click(5, 300)  # the page's background: no command
        except Exception:
            pass
        page.wait_for_timeout(100)
    page.wait_for_timeout(300)  # the buffered observers deliver
    got = page.evaluate("""(mark) => {
      const m = mark && performance.getEntriesByName(mark)[0];
      const paint = performance.getEntriesByType('paint').find(e => e.name === 'first-contentful-paint');
      return {ready: m ? m.startTime : (window.__readyAt || null), longtasks: __split.longtasks,
              events: __split.events, paint: paint ? paint.startTime : null,
              mpy: (performance.getEntriesByName('split:mpy-up')[0] || {}).startTime || null,
              worker: window.splitWorker || null, isolated: self.crossOriginIsolated,
              python: document.documentElement.dataset.python || null};
    }""", ready_mark)
    return got


def round_trips(page, clicks: int) -> list[float]:
    """Open and close the keys panel `clicks` times in all: click -> the modal changed."""
    times = []
    for i in range(clicks):
        selector = "#keys-button" if i % 2 == 0 else "#modal [data-cmd=keys-close]"
        page.wait_for_selector(selector, state="visible", timeout=20000)
        before = page.evaluate("[__split.clicks.length, __split.changed.length]")
        page.click(selector)
        page.wait_for_function(f"__split.changed.length > {before[1]}", timeout=20000)
        page.wait_for_timeout(60)  # the last mutations of this draw
        t = page.evaluate(f"""() => {{ const c = __split.clicks[{before[0]}];
            const after = __split.changed.slice({before[1]}); return after[after.length - 1] - c; }}""")
        times.append(t)
    return times


# What the person may play, tried in this order (a card first: asking a seat may be refused).
PLAYABLE = ("#screen .hand.mine .card.playable[data-act]", "#screen .card.playable[data-part]",
            "#screen [data-act]:not([disabled])")


def bot_moves(page, moves: int, seconds: float = 60) -> None:
    """Play the person's turns until the bots have drawn `moves` times (the
    split's window.splitBotTimes: each draw made without a click)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if page.evaluate("(window.splitBotTimes || []).length") >= moves:
            return
        if page.evaluate("document.body.dataset.view") != "table":
            page.click("#new-game, #start, [data-cmd=new]", timeout=5000)
        else:
            for selector in PLAYABLE:
                mine = page.locator(selector)
                if mine.count():
                    try:
                        mine.first.click(timeout=2000)
                    except Exception:
                        pass  # redrawn meanwhile: try again
                    break
        page.wait_for_timeout(150)


# The moments main.py notes of each answer (on the page's clock), in order; a
# hop is the time from one present to the next present.
MOMENTS = ("click", "handler", "task", "posted", "received", "py_start", "py_end", "answered",
           "arrived", "resumed", "applied")
BOT_MOMENTS = ("drawn", "py_end", "answered", "arrived", "resumed", "applied")


def hop_gaps(records: list[dict], moments: tuple[str, ...]) -> dict[str, list[float]]:
    """Each record's time from each of `moments` it holds to the next it
    holds (a page variant notes only some), and from its first to its last."""
    gaps: dict[str, list[float]] = {}
    for r in records:
        present = [m for m in moments if r.get(m) is not None]
        for a, b in zip(present, present[1:]):
            gaps.setdefault(f"{a} -> {b}", []).append(r[b] - r[a])
        gaps.setdefault(f"{present[0]} -> {present[-1]} (all)", []).append(r[present[-1]] - r[present[0]])
    return gaps


def hop_table(records: list[dict], moments: tuple[str, ...]) -> None:
    """Each hop's median and p90 (ms) over `records`."""
    for hop, values in hop_gaps(records, moments).items():
        values.sort()
        print(f"    {hop:28} median {statistics.median(values):6.1f}  p90 "
              f"{values[int(len(values) * 0.9)]:6.1f}  max {values[-1]:6.1f}  ({len(values)})")


def one(p, base: str, name: str, path: str, clicks: int, bots: int) -> dict:
    with tempfile.TemporaryDirectory(prefix="split-profile-") as profile:
        ctx = p.chromium.launch_persistent_context(
            profile, executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True,
            viewport={"width": 1366, "height": 768})
        ctx.add_init_script(OBSERVE)
        page = ctx.pages[0] if ctx.pages else ctx.new_page()
        mark = "split:worker-ready" if name != "today" else None
        cold = visit(page, base + path, mark)
        cold["rss"], cold["pss"] = renderer_memory(profile)
        warm = visit(page, base + path, mark)
        warm["rss"], warm["pss"] = renderer_memory(profile)
        # Start pressed at first paint (a third visit), then actions at the table.
        page.goto(base + path, wait_until="commit")
        page.wait_for_selector("#start", state="visible")
        t0 = time.monotonic()
        page.click("#start")
        try:
            page.wait_for_selector("body[data-view=table]", timeout=60000)
        except Exception:
            page.screenshot(path=f"/tmp/split-fail-{name}.png")
            print(name, page.evaluate("JSON.stringify(document.body.dataset)"), file=sys.stderr)
            raise
        start_to_table = (time.monotonic() - t0) * 1000
        page.wait_for_selector("body[data-state=ready]")
        trips = round_trips(page, clicks)
        load = os.getloadavg()[0]
        parts = page.evaluate("window.splitTimes || []")
        if bots and name not in ("today", "split-front"):  # (split-front keeps no such record)
            bot_moves(page, bots)
        bot_parts = page.evaluate("window.splitBotTimes || []")
        table_rss, table_pss = renderer_memory(profile)
        ctx.close()
    return {"cold": cold, "warm": warm, "start_to_table": start_to_table, "trips": trips, "parts": parts,
            "bot_parts": bot_parts, "load_at_clicks": load,
            "table_rss": table_rss, "table_pss": table_pss}


def summary(results: dict[str, list[dict]]) -> None:
    med = statistics.median
    for name, runs in results.items():
        print(f"\n== {name} ({len(runs)} runs; medians, max over runs in brackets)")
        for visit_name in ("cold", "warm"):
            vs = [r[visit_name] for r in runs]
            longest = [tbt(v["longtasks"], v["ready"])[0] for v in vs]
            blocking = [tbt(v["longtasks"], v["ready"])[1] for v in vs]
            delays = [max([e[1] for e in v["events"] if e[0] < v["ready"]], default=0) for v in vs]
            durations = [max([e[2] for e in v["events"] if e[0] < v["ready"]], default=0) for v in vs]
            print(f"  {visit_name:5} ready {med([v['ready'] for v in vs]):6.0f} ms"
                  f" | longest task {med(longest):4.0f} [{max(longest):4.0f}]"
                  f" | TBT {med(blocking):5.0f} [{max(blocking):5.0f}]"
                  f" | click input delay max {med(delays):4.0f} [{max(delays):4.0f}]"
                  f" | click duration max {med(durations):4.0f} [{max(durations):4.0f}]"
                  f" | renderer RSS {med([v['rss'] for v in vs]):5.0f} PSS {med([v['pss'] for v in vs]):5.0f} MB")
            if vs[0]["mpy"]:
                print(f"        mpy up {med([v['mpy'] for v in vs]):5.0f} ms; worker "
                      + "; ".join(str(v["worker"]) for v in vs))
        trips = [t for r in runs for t in r["trips"]]
        print(f"  Start at first paint -> table: {med([r['start_to_table'] for r in runs]):.0f} ms"
              f" [{max(r['start_to_table'] for r in runs):.0f}]")
        print(f"  round trip click -> patched ({len(trips)}): median {med(trips):.1f} ms, "
              f"p90 {sorted(trips)[int(len(trips) * 0.9)]:.1f}, max {max(trips):.1f}"
              f" (load at the clicks {', '.join(str(round(r['load_at_clicks'], 1)) for r in runs)})")
        for r in runs:
            t = sorted(r["trips"])
            print(f"    one run: median {med(t):.1f}, p90 {t[int(len(t) * 0.9)]:.1f}")
        parts = [x for r in runs for x in r["parts"]]
        if parts:
            print(f"  of which, hop by hop (main.py's marks, {len(parts)} actions; ms):")
            hop_table(parts, MOMENTS)
        bot_parts = [x for r in runs for x in r["bot_parts"] if x.get("drawn") is not None]
        if bot_parts:
            print(f"  drawn without a click (bots), worker's draw -> applied ({len(bot_parts)}):")
            hop_table(bot_parts, BOT_MOMENTS)
        print(f"  renderer at the table after the clicks: RSS {med([r['table_rss'] for r in runs]):.0f}"
              f" PSS {med([r['table_pss'] for r in runs]):.0f} MB")
        print(f"  crossOriginIsolated: {runs[0]['cold']['isolated']}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--clicks", type=int, default=50)
    ap.add_argument("--bots", type=int, default=12, help="bot moves to time per split page and run")
    ap.add_argument("--mpy", type=Path, default=ROOT, help="where node_modules holds MicroPython")
    ap.add_argument("--keep", type=Path, help="build into this folder and keep it")
    ap.add_argument("--pages", default="today,split,split-fresh,split-direct")
    ap.add_argument("--raw", type=Path, help="write the raw results to this JSON file")
    args = ap.parse_args(argv)
    from playwright.sync_api import sync_playwright

    tmp = tempfile.mkdtemp(prefix="split-site-")
    site = args.keep or Path(tmp) / "site"
    if not (site / "index.html").exists():
        build(site)
    make(site, args.mpy)
    for name, (raw, gz) in sizes(site).items():
        print(f"{name}: {raw} bytes, {gz} gzipped")
    server = make_server(site, 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}/"
    paths = {"today": "index.html?speed=slow", "split": "split.html?speed=slow",
             "split-fresh": "split-fresh.html?speed=slow",
             "split-direct": "split-direct.html?speed=slow",
             "split-front": "split-front.html?speed=slow"}
    names = args.pages.split(",")
    results: dict[str, list[dict]] = {n: [] for n in names}
    load = [os.getloadavg()[0]]
    with sync_playwright() as p:
        for run in range(args.runs):
            for name in (names if run % 2 == 0 else names[::-1]):
                results[name].append(one(p, base, name, paths[name], args.clicks, args.bots))
                if args.raw:  # kept as it comes: a later failure loses nothing
                    args.raw.write_text(json.dumps(results))
                load.append(os.getloadavg()[0])
            print(f"run {run + 1}/{args.runs} done", file=sys.stderr)
    server.shutdown()
    print(f"Chromium, {args.runs} runs, load average {min(load):.1f}-{max(load):.1f} "
          f"on {os.cpu_count()} cores")
    summary(results)
    if not args.keep:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
