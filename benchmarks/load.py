"""Load time of the site against a bare PyScript page on the same runtime.

    python benchmarks/load.py [--runs 3] [--browser chromium|firefox] [--site DIR]

Not a test: prints numbers and ratios. Both pages are served by the same
local server and loaded in fresh persistent Chromium profiles (a disk cache
like a real browser), alternating bare/site in each run:
- cold: first visit (empty cache); the site shows its start screen;
- warm: second visit in the same profile, once the service worker has
  precached (and the site's page has kept its inflated snapshot); the site
  resumes a saved game and is playable at the table;
- offline: third visit with the network off (the context offline), answered
  by each page's service worker (the bare page gets a minimal precaching
  worker, registered after Python is up like the site's).
With `--browser firefox` the same visits are made in Debian's firefox-esr,
driven by puppeteer-core (`firefox_visits.mjs`); there the bytes of the
split page are unknown (its worker's timeline cannot be read over BiDi).
The machine's load average is printed too: on 2 shared cores, other work
skews the ratios (the site's extra start-up work is stretched most).
Reported: time from navigation to first paint, to "playable" (<body
data-state=ready>; site: the game's first drawing is on the page, the game
running in its worker; bare: Python ready), and bytes transferred (the
page's resource timing and its workers': index.html's game worker fetches
the runtime itself). Goals (issue 59): playable <= 0.40x bare, cold,
warm and offline; a first visit's bytes <= 1.3x bare. With `--trace`, when
each named part of the site's start ended (the marks of static/js/python.mjs,
engine.mjs, front.mjs and game/web/dom, and the downloads of the runtime, the
snapshot and the zips), median per visit.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import sys
import tempfile
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from game.build import CHROMIUM, CHROMIUM_ARGS, NODE, SITE, ensure_built, make_server  # noqa: E402

FIREFOX = os.environ.get("FIREFOX_PATH", "/usr/bin/firefox-esr")
VISITS = ("cold", "warm", "offline")
BARE_HTML = """<!doctype html>
<html><head><meta charset="utf-8"><title>bare</title></head>
<body data-state="loading"><p>bare PyScript page</p>
<script type="module" src="./static/vendor/pyscript/core.js"></script>
<script type="py" config="./bare.json">
from pyscript import document
document.body.dataset.state = "ready"
</script>
<script>
addEventListener("py:all-done", function () { navigator.serviceWorker.register("./sw.js"); });
</script></body></html>
"""
MEASURE = """() => {
  const nav = performance.getEntriesByType('navigation')[0];
  const paint = performance.getEntriesByType('paint').find(e => e.name === 'first-contentful-paint')
             || performance.getEntriesByType('paint')[0];
  let bytes = nav ? nav.transferSize : 0;
  for (const r of performance.getEntriesByType('resource')) bytes += r.transferSize;
  return {ready: performance.now(), paint: paint ? paint.startTime : null, bytes};
}"""


def _pages(tmp: Path, site: Path) -> dict[str, str]:
    (tmp / "site").symlink_to(site, target_is_directory=True)
    bare = tmp / "bare"
    (bare / "static").mkdir(parents=True)
    # The runtime exactly as the lock file installs it, untouched (not the
    # site's vendored copy, whose Python the build precompiles).
    vendor = bare / "static" / "vendor"
    vendor.mkdir()
    (vendor / "pyscript").symlink_to(NODE / "@pyscript" / "core" / "dist", target_is_directory=True)
    (vendor / "pyodide").symlink_to(NODE / "pyodide", target_is_directory=True)
    (bare / "index.html").write_text(BARE_HTML)
    (bare / "bare.json").write_text('{"interpreter": "./static/vendor/pyodide/pyodide.mjs"}\n')
    # The bare page's worker: the site's own sw.js with the bare page's files.
    sw = (site / "sw.js").read_text()
    files = json.loads(re.search(r"const FILES = (\[.*?\]);", sw, re.S).group(1))
    files = ["./", "index.html", "bare.json"] + [f for f in files if f.startswith("static/vendor/")
                                                 and (bare / f).exists()]
    sw = re.sub(r"const FILES = \[.*?\];", "const FILES = " + json.dumps(files) + ";", sw,
                flags=re.S)
    (bare / "sw.js").write_text(sw.replace('const CACHE = "jhg-', 'const CACHE = "jhg-bare-'))
    return {"bare": "bare/", "site": "site/?speed=slow"}


# What a worker of the page downloaded: its requests are in its own timeline,
# not the page's (index.html's game worker fetches the runtime, the snapshot
# and game.zip).
WORKER_BYTES = "performance.getEntriesByType('resource').reduce((n, r) => n + r.transferSize, 0)"
# The inflated snapshot kept by the site's first visit (static/js/python.mjs
# writes it to the origin's private file system a few seconds after Python is
# up), waited for at most 30 s: true once there (a browser that refuses to keep
# it is measured without it).
KEPT_SNAPSHOT = """() => new Promise((resolve) => {
  const t0 = Date.now();
  (async function ask() {
    let kept = false;
    for await (const name of (await navigator.storage.getDirectory()).keys()) {
      kept ||= name.startsWith("python-");
    }
    if (kept || Date.now() - t0 > 30000) resolve(kept); else setTimeout(ask, 250);
  })();
})"""
# The service worker active (its install precached the site), or a clear failure.
SERVICE_WORKER = """Promise.race([navigator.serviceWorker.ready.then(() => 1),
  new Promise((_, no) => setTimeout(() => no(new Error('no service worker within 120 s')), 120000))])"""


# The start's named moments in a thread's timeline (static/js/python.mjs's
# `mark`, front.mjs's, game/web/dom's), and when its downloads of the runtime,
# the snapshot and the game's zips ended: [name, ms since the epoch].
MARKS = """() => [...performance.getEntriesByType('mark').filter((m) => m.name.startsWith('jhg:'))
    .map((m) => [m.name.slice(4), performance.timeOrigin + m.startTime]),
  ...performance.getEntriesByType('resource')
    .filter((r) => /(pyodide\\.asm\\.wasm|snapshot-.*|game(-rest)?\\.zip)$/.test(r.name))
    .map((r) => ['downloaded ' + r.name.split('/').pop().replace(/snapshot-.*/, 'snapshot'),
                 performance.timeOrigin + r.responseEnd])]"""


def _visit(page, url: str) -> dict:
    page.goto(url, wait_until="commit")
    page.wait_for_function("document.body && document.body.dataset.state === 'ready'",
                           polling="raf", timeout=120000)
    got: dict = page.evaluate(MEASURE)
    got["bytes"] += sum(worker.evaluate(WORKER_BYTES) for worker in page.workers)
    # Each moment in ms since the navigation began (the page's time origin).
    origin = page.evaluate("performance.timeOrigin")
    marks = page.evaluate(MARKS) + [m for w in page.workers for m in w.evaluate(MARKS)]
    got["marks"] = {name: at - origin for name, at in marks}
    return got


def _one(p, kind: str, url: str) -> dict[str, dict]:
    with tempfile.TemporaryDirectory() as profile:
        ctx = p.chromium.launch_persistent_context(profile, executable_path=CHROMIUM,
                                                   args=CHROMIUM_ARGS, headless=True)
        page = ctx.pages[0] if ctx.pages else ctx.new_page()
        cold = _visit(page, url)
        if kind == "site":  # leave a game in progress: the warm visit resumes the table
            page.click("#start")
            page.wait_for_selector("body[data-view=table]")
        # A returning visitor comes back after the service worker has precached
        # (and the site's page has kept its inflated snapshot).
        page.evaluate(SERVICE_WORKER)
        if kind == "site":
            page.evaluate(KEPT_SNAPSHOT)
        page.wait_for_timeout(500)
        warm = _visit(page, url)
        ctx.set_offline(True)
        offline = _visit(page, url)
        ctx.close()
    return {"cold": cold, "warm": warm, "offline": offline}


def _one_firefox(kind: str, url: str) -> dict[str, dict]:
    """The three visits in a fresh Firefox profile (`firefox_visits.mjs`)."""
    import subprocess

    run = subprocess.run(["node", str(Path(__file__).parent / "firefox_visits.mjs"), url,
                          FIREFOX, MEASURE, kind, WORKER_BYTES, KEPT_SNAPSHOT],
                         capture_output=True, text=True, check=True,
                         timeout=900)
    result: dict[str, dict] = json.loads(run.stdout.strip().splitlines()[-1])
    return result


def _print_trace(visits: dict[str, list[dict]]) -> None:
    """Each named moment of the site's start, per visit: the median ms after
    navigation, in order, with the gap since the moment before."""
    for visit in VISITS:
        runs = [r.get("marks", {}) for r in visits[visit]]
        at = {name: statistics.median([m[name] for m in runs if name in m])
              for name in {n for m in runs for n in m}}
        print(f"\nthe site's start, {visit} visit: median ms after navigation (+ since the line before)")
        last = 0.0
        for name in sorted(at, key=at.__getitem__):
            print(f"  {name:30}{at[name]:8.0f}  (+{at[name] - last:.0f})")
            last = at[name]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--browser", choices=("chromium", "firefox"), default="chromium")
    ap.add_argument("--site", help="a built site folder to measure (default: build the sources)")
    ap.add_argument("--trace", action="store_true",
                    help="also print when each part of the site's start ended (Chromium)")
    args = ap.parse_args(argv)
    from playwright.sync_api import sync_playwright

    site = Path(args.site).resolve() if args.site else ensure_built(SITE)
    results: dict[str, dict[str, list[dict]]] = {k: {v: [] for v in VISITS}
                                                 for k in ("bare", "site")}
    with tempfile.TemporaryDirectory() as tmp:
        pages = _pages(Path(tmp), site)
        server = make_server(tmp, 0)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        base = f"http://127.0.0.1:{server.server_address[1]}/"
        with sync_playwright() as p:
            for run in range(args.runs):
                order = ("bare", "site") if run % 2 == 0 else ("site", "bare")
                for kind in order:
                    r = (_one(p, kind, base + pages[kind]) if args.browser == "chromium"
                         else _one_firefox(kind, base + pages[kind]))
                    for visit in VISITS:
                        results[kind][visit].append(r[visit])
                print(f"run {run + 1}/{args.runs} done", file=sys.stderr)
        server.shutdown()

    def med(kind: str, visit: str, key: str) -> float:
        vals = [r[key] for r in results[kind][visit] if r[key] is not None]
        return statistics.median(vals) if vals else float("nan")

    print(f"{args.browser}: median of {args.runs} runs, fresh profiles, same server and runtime; "
          f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print(f"{'':14}{'first paint ms':>16}{'playable ms':>14}{'bytes':>14}")
    for visit in VISITS:
        for kind in ("bare", "site"):
            print(f"{visit + ' ' + kind:14}{med(kind, visit, 'paint'):16.0f}"
                  f"{med(kind, visit, 'ready'):14.0f}{med(kind, visit, 'bytes'):14.0f}")
        ratio_t = med("site", visit, "ready") / med("bare", visit, "ready")
        bare_bytes = med("bare", visit, "bytes")
        ratio_b = med("site", visit, "bytes") / bare_bytes if bare_bytes else float("nan")
        bytes_col = f"{ratio_b:13.2f}x" if bare_bytes else f"{'-':>14}"  # offline: none
        print(f"{visit + ' ratio':14}{'':16}{ratio_t:13.2f}x{bytes_col}"
              f"   (goal <= 0.40x time, <= 1.30x bytes)")
    if args.trace:
        _print_trace(results["site"])
    if any(r["bytes"] is None for visits in results.values() for rs in visits.values() for r in rs):
        print("bytes nan: a worker's downloads could not be read (Firefox's WebDriver BiDi"
              " cannot evaluate in a module worker); Chromium counts them")
    return 0


if __name__ == "__main__":
    sys.exit(main())
