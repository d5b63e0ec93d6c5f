"""Start-up and play on the split page (issue 33: the game in a worker, the
page's front in MicroPython) against a baseline site built from a git ref
(by default e474a7b, the last commit with Python on the main thread).

    python benchmarks/split/run.py [--ref e474a7b] [--runs 3] [--clicks 50]
                                   [--keep DIR] [--site DIR] [--baseline DIR] [--raw FILE]

Not a test: prints numbers. The site is built from this checkout, the
baseline from `--ref` in a temporary detached worktree of this repository
(its node_modules and .venv are this checkout's, symlinked; `python -m game
build --out`), unless `--site` / `--baseline` name folders built already;
`--keep DIR` builds into DIR/site and DIR/baseline and keeps them. Both are
served side by side in the same run, each by its own local server (two
origins), with no COOP/COEP headers, as on GitHub Pages.

For each page and run (the order alternates), in Chromium at 1366x768 with a
fresh profile: a cold visit, then a warm one (the HTTP cache, and the service
worker's once registered), each from navigation to ready (<body
data-state=ready>), clicking a plain part of the page every 100 ms
meanwhile; then a third visit where Start is pressed as soon as the start
screen shows, and the keys panel is opened and closed `--clicks` times at
the table. Printed, medians over the runs (the worst run in brackets):
- time to ready; the longest main-thread task and the total blocking time
  (each task's time over 50 ms) from navigation to ready (PerformanceObserver
  `longtask`, installed before the page's own scripts);
- the clicks answered during start-up: the longest Event Timing input delay
  (the click's wait for the main thread) and duration (to the frame that
  shows it: each click before ready repaints a small square of the
  benchmark's own, else a click that changes nothing would wait for the
  next frame the page draws) before ready;
- the renderer's memory (RSS and PSS of the profile's renderer processes:
  the page and its workers, from /proc) after ready, cold and warm, and at
  the table after the clicks;
- Start pressed at first paint -> the table drawn;
- the keys panel's round trip: click -> the last change of #modal (median,
  p90, max over all clicks).
The load average is printed: on 2 shared cores other work stretches every
task; read the ratios of one run. `trace.py` names what the long tasks are.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from game.build import CHROMIUM, CHROMIUM_ARGS, build, make_server  # noqa: E402

BASELINE_REF = "e474a7b"  # the last commit with Python on the page's main thread
PAGE = "index.html?speed=slow"

# Installed before the page's own scripts: long tasks, click timings, and the
# dialog host's changes (a MutationObserver: the time a draw lands in the DOM).
OBSERVE = """
window.__run = {longtasks: [], events: [], clicks: [], changed: []};
new PerformanceObserver(l => { for (const e of l.getEntries())
  __run.longtasks.push([e.startTime, e.duration]); }).observe({type: 'longtask', buffered: true});
new PerformanceObserver(l => { for (const e of l.getEntries()) if (e.name === 'click' || e.name === 'pointerdown')
  __run.events.push([e.startTime, e.processingStart - e.startTime, e.duration]); })
  .observe({type: 'event', buffered: true, durationThreshold: 16});
addEventListener('click', e => __run.clicks.push(e.timeStamp), true);
// Until ready, each click repaints a square of its own: a click that changes
// nothing has no frame, and its Event Timing duration would run on to the
// next frame drawn for another reason. (Not at the bottom: under the loader's
// bar Event Timing dates a change at ready's frame, though the screen shows it
// at once, as Chromium's screencast does.)
addEventListener('click', () => {
  if (document.body && document.body.dataset.state === 'ready') return;
  let probe = document.getElementById('__probe');
  if (!probe) {
    probe = document.createElement('div');
    probe.id = '__probe';
    probe.style.cssText = 'position:fixed;left:0;top:50%;width:8px;height:8px;z-index:9999';
    document.documentElement.appendChild(probe);
  }
  probe.style.background = probe.style.background === 'red' ? 'blue' : 'red';
}, true);
addEventListener('DOMContentLoaded', () => {
  new MutationObserver(() => {  // the moment <body data-state> turned ready
    if (document.body.dataset.state === 'ready' && !window.__readyAt) window.__readyAt = performance.now();
  }).observe(document.body, {attributes: true, attributeFilter: ['data-state']});
  const modal = document.getElementById('modal');
  if (modal) new MutationObserver(() => __run.changed.push(performance.now()))
    .observe(modal, {childList: true, subtree: true, attributes: true, attributeFilter: ['hidden']});
});
"""


def baseline_site(ref: str, out: Path) -> Path:
    """Build the site of git `ref` into `out`: a temporary detached worktree of
    this repository, with this checkout's node_modules and .venv."""
    checkout = Path(tempfile.mkdtemp(prefix="baseline-checkout-")) / "src"
    subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(checkout), ref],
                   check=True, capture_output=True)
    try:
        for name in ("node_modules", ".venv"):
            (checkout / name).symlink_to((ROOT / name).resolve())
        subprocess.run([str(checkout / ".venv" / "bin" / "python"), "-m", "game", "build",
                        "--out", str(out)], cwd=checkout, check=True)
    finally:
        subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(checkout)],
                       check=False, capture_output=True)
        shutil.rmtree(checkout.parent, ignore_errors=True)
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
    """The longest task, the total blocking time and the number of long tasks
    that began before `until` (ms on the page's clock)."""
    seen = [d for s, d in tasks if s < until]
    return (max(seen, default=0.0), sum(max(0.0, d - 50) for d in seen), len(seen))


def clicks_before(events: list[list[float]], until: float) -> tuple[float, float]:
    """The longest input delay and duration of the clicks made before `until`."""
    seen = [e for e in events if e[0] < until]
    return max((e[1] for e in seen), default=0.0), max((e[2] for e in seen), default=0.0)


def visit(page, url: str) -> dict:
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
    return page.evaluate("""() => ({ready: window.__readyAt, longtasks: __run.longtasks,
                                    events: __run.events, isolated: self.crossOriginIsolated})""")


def round_trips(page, clicks: int) -> list[float]:
    """Open and close the keys panel `clicks` times in all: click -> the modal changed."""
    times = []
    for i in range(clicks):
        selector = "#keys-button" if i % 2 == 0 else "#modal [data-cmd=keys-close]"
        page.wait_for_selector(selector, state="visible", timeout=20000)
        before = page.evaluate("[__run.clicks.length, __run.changed.length]")
        page.click(selector)
        page.wait_for_function(f"__run.changed.length > {before[1]}", timeout=20000)
        page.wait_for_timeout(60)  # the last mutations of this draw
        t = page.evaluate(f"""() => {{ const c = __run.clicks[{before[0]}];
            const after = __run.changed.slice({before[1]}); return after[after.length - 1] - c; }}""")
        times.append(t)
    return times


def one(p, url: str, clicks: int) -> dict:
    """One run of one page: cold, warm, then Start at first paint and the clicks."""
    with tempfile.TemporaryDirectory(prefix="split-profile-") as profile:
        ctx = p.chromium.launch_persistent_context(
            profile, executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True,
            viewport={"width": 1366, "height": 768})
        ctx.add_init_script(OBSERVE)
        page = ctx.pages[0] if ctx.pages else ctx.new_page()
        cold = visit(page, url)
        cold["rss"], cold["pss"] = renderer_memory(profile)
        warm = visit(page, url)
        warm["rss"], warm["pss"] = renderer_memory(profile)
        page.goto(url, wait_until="commit")
        page.wait_for_selector("#start", state="visible")
        t0 = time.monotonic()
        page.click("#start")
        page.wait_for_selector("body[data-view=table]", timeout=60000)
        start_to_table = (time.monotonic() - t0) * 1000
        page.wait_for_selector("body[data-state=ready]")
        trips = round_trips(page, clicks)
        load = os.getloadavg()[0]
        table_rss, table_pss = renderer_memory(profile)
        ctx.close()
    return {"cold": cold, "warm": warm, "start_to_table": start_to_table, "trips": trips,
            "load_at_clicks": load, "table_rss": table_rss, "table_pss": table_pss}


def _p90(values: list[float]) -> float:
    return sorted(values)[int(len(values) * 0.9)]


def summary(results: dict[str, list[dict]]) -> None:
    med = statistics.median
    for name, runs in results.items():
        print(f"\n== {name} ({len(runs)} runs; medians, the worst run in brackets)")
        for visit_name in ("cold", "warm"):
            vs = [r[visit_name] for r in runs]
            longest = [tbt(v["longtasks"], v["ready"])[0] for v in vs]
            blocking = [tbt(v["longtasks"], v["ready"])[1] for v in vs]
            delays = [clicks_before(v["events"], v["ready"])[0] for v in vs]
            durations = [clicks_before(v["events"], v["ready"])[1] for v in vs]
            ready = [v["ready"] for v in vs]
            print(f"  {visit_name:5} ready {med(ready):6.0f} ms [{max(ready):6.0f}]"
                  f" | longest task {med(longest):4.0f} [{max(longest):4.0f}]"
                  f" | TBT {med(blocking):5.0f} [{max(blocking):5.0f}]"
                  f" | click input delay {med(delays):4.0f} [{max(delays):4.0f}]"
                  f", duration {med(durations):4.0f} [{max(durations):4.0f}]"
                  f" | renderer RSS {med([v['rss'] for v in vs]):5.0f}"
                  f" PSS {med([v['pss'] for v in vs]):5.0f} MB")
        trips = [t for r in runs for t in r["trips"]]
        starts = [r["start_to_table"] for r in runs]
        print(f"  Start at first paint -> table: {med(starts):.0f} ms [{max(starts):.0f}]")
        if trips:
            print(f"  keys panel, click -> drawn ({len(trips)}): median {med(trips):.1f} ms, "
                  f"p90 {_p90(trips):.1f}, max {max(trips):.1f} (load at the clicks "
                  f"{', '.join(str(round(r['load_at_clicks'], 1)) for r in runs)})")
        print(f"  renderer at the table after the clicks: RSS {med([r['table_rss'] for r in runs]):.0f}"
              f" PSS {med([r['table_pss'] for r in runs]):.0f} MB")
        print(f"  crossOriginIsolated: {runs[0]['cold']['isolated']}")


def _sites(args: argparse.Namespace, tmp: Path) -> dict[str, Path]:
    """The two built folders, built now unless given."""
    folder = args.keep or tmp
    site = args.site or folder / "site"
    if not (site / "index.html").exists():
        build(site)
    old = args.baseline or folder / "baseline"
    if not (old / "index.html").exists():
        baseline_site(args.ref, old)
    return {"split": site, f"baseline {args.ref}": old}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--ref", default=BASELINE_REF, help="the baseline's git ref")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--clicks", type=int, default=50)
    ap.add_argument("--site", type=Path, help="this checkout's site, built already")
    ap.add_argument("--baseline", type=Path, help="the baseline's site, built already")
    ap.add_argument("--keep", type=Path, help="build into DIR/site and DIR/baseline and keep them")
    ap.add_argument("--raw", type=Path, help="write the raw results to this JSON file")
    args = ap.parse_args(argv)
    from playwright.sync_api import sync_playwright

    tmp = Path(tempfile.mkdtemp(prefix="split-run-"))
    sites = _sites(args, tmp)
    servers = {name: make_server(site, 0) for name, site in sites.items()}
    for server in servers.values():
        threading.Thread(target=server.serve_forever, daemon=True).start()
    urls = {name: f"http://127.0.0.1:{s.server_address[1]}/{PAGE}" for name, s in servers.items()}
    names = list(urls)
    results: dict[str, list[dict]] = {n: [] for n in names}
    load = [os.getloadavg()[0]]
    with sync_playwright() as p:
        for run in range(args.runs):
            for name in (names if run % 2 == 0 else names[::-1]):
                results[name].append(one(p, urls[name], args.clicks))
                if args.raw:  # kept as it comes: a later failure loses nothing
                    args.raw.write_text(json.dumps(results))
                load.append(os.getloadavg()[0])
            print(f"run {run + 1}/{args.runs} done", file=sys.stderr)
    for server in servers.values():
        server.shutdown()
    print(f"Chromium, {args.runs} runs, load average {min(load):.1f}-{max(load):.1f} "
          f"on {os.cpu_count()} cores")
    summary(results)
    shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
