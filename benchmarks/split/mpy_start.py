"""MicroPython's own start on the main thread, with and without PyScript.

    python benchmarks/split/mpy_start.py SITE_DIR [--runs 4]

SITE_DIR: a site completed by `run.py --keep SITE_DIR` (it copies
mpy-bare.html, which calls micropython.mjs's loadMicroPython itself, and
mpy-pyscript.html, a `<script type="mpy">` through PyScript's core.js).
Each page is loaded cold and warm in a fresh Chromium profile per run;
printed: when the first Python line ran, the longest main-thread task and
the total blocking time (medians, then every run's longest task).
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import threading
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from game.build import CHROMIUM, CHROMIUM_ARGS, make_server  # noqa: E402

PAGES = ("mpy-bare.html", "mpy-pyscript.html")
LONGTASKS = ("window.__lt = []; new PerformanceObserver(l => { for (const e of l.getEntries())"
             " __lt.push(e.duration) }).observe({type: 'longtask', buffered: true});")


def main(argv: list[str]) -> int:
    from playwright.sync_api import sync_playwright

    site = Path(argv[0])
    runs = int(argv[argv.index("--runs") + 1]) if "--runs" in argv else 4
    server = make_server(site, 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}/"
    got: dict[tuple[str, str], list[tuple[float, float, float]]] = {}
    load = [os.getloadavg()[0]]
    with sync_playwright() as p:
        for _ in range(runs):
            for page_name in PAGES:
                with tempfile.TemporaryDirectory() as profile:
                    ctx = p.chromium.launch_persistent_context(
                        profile, executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
                    page = ctx.pages[0]
                    page.add_init_script(LONGTASKS)
                    for visit in ("cold", "warm"):
                        page.goto(base + page_name)
                        page.wait_for_selector("body[data-state=ready]", timeout=60000)
                        page.wait_for_timeout(300)
                        first = page.evaluate(
                            "performance.getEntriesByName('mpy:first-line')[0].startTime")
                        tasks = page.evaluate("__lt")
                        got.setdefault((page_name, visit), []).append(
                            (first, max(tasks, default=0.0), sum(max(0.0, d - 50) for d in tasks)))
                    ctx.close()
                load.append(os.getloadavg()[0])
    server.shutdown()
    med = statistics.median
    print(f"Chromium, {runs} runs, load average {min(load):.1f}-{max(load):.1f} on {os.cpu_count()} cores")
    for (page_name, visit), rows in got.items():
        print(f"  {page_name:18} {visit:5} first line {med(r[0] for r in rows):5.0f} ms"
              f" | longest task {med(r[1] for r in rows):4.0f} ms {[round(r[1]) for r in rows]}"
              f" | TBT {med(r[2] for r in rows):4.0f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
