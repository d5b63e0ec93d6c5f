"""What the main thread's long tasks are, on a page of built sites.

    python benchmarks/split/trace.py [--page PAGE] [--cpu N] [--over MS] SITE_DIR [SITE_DIR ...]

Each SITE_DIR is a built site, e.g. the two `run.py --keep DIR` keeps
(DIR/site, DIR/baseline). A cold load of its PAGE (default
`index.html?speed=slow`; e.g. `embed.html?game=jekyll-hyde`) in a fresh
Chromium profile is traced until <body data-state=ready> and half a second
more; each main-thread task over MS (default 50) is printed with the longest
events inside it (function calls with their script, wasm compiles, parsing,
layout), then the longest task and the total blocking time (each task's time
over 50 ms). `--cpu 4` slows the page's CPU four times, as Lighthouse's mobile
emulation does (its figures are simulated, these observed).
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import threading
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from game.build import CHROMIUM, CHROMIUM_ARGS, make_server  # noqa: E402

CATEGORIES = ["devtools.timeline", "disabled-by-default-devtools.timeline", "v8", "v8.wasm",
              "blink", "loading"]


def long_tasks(trace: dict, over: float = 50) -> list[tuple[float, float, list[tuple[float, str]]]]:
    events = trace["traceEvents"]
    main = {(e["pid"], e["tid"]) for e in events
            if e.get("name") == "thread_name" and e["args"].get("name") == "CrRendererMain"}
    by_thread = defaultdict(list)
    for e in events:
        if (e.get("pid"), e.get("tid")) in main and e.get("ph") == "X" and "dur" in e:
            by_thread[(e["pid"], e["tid"])].append(e)
    out = []
    for evs in by_thread.values():
        start = min((e["ts"] for e in evs if e["name"] == "RunTask"), default=0)
        for task in (e for e in evs if e["name"] == "RunTask" and e["dur"] > over * 1000):
            end = task["ts"] + task["dur"]
            inside = [e for e in evs if e is not task and task["ts"] <= e["ts"] < end
                      and e["dur"] > 10_000 and e["name"] != "RunTask"]
            parts = []
            for e in sorted(inside, key=lambda e: -e["dur"])[:6]:
                data = e.get("args", {}).get("data", {}) or {}
                where = data.get("url") or data.get("functionName") or ""
                parts.append((e["dur"] / 1000, f"{e['name']} {str(where)[-60:]}".strip()))
            out.append(((task["ts"] - start) / 1000, task["dur"] / 1000, parts))
    return sorted(out)


def main(argv: list[str]) -> int:
    import argparse

    from playwright.sync_api import sync_playwright

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sites", nargs="+", type=Path)
    parser.add_argument("--page", default="index.html?speed=slow")
    parser.add_argument("--cpu", type=float, default=1, help="CPU slowdown (Lighthouse mobile: 4)")
    parser.add_argument("--over", type=float, default=50, help="print tasks longer than this, ms")
    args = parser.parse_args(argv)
    sites = args.sites
    servers = [make_server(site, 0) for site in sites]
    for server in servers:
        threading.Thread(target=server.serve_forever, daemon=True).start()
    with sync_playwright() as p:
        for site, server in zip(sites, servers):
            name = str(site)
            with tempfile.TemporaryDirectory() as profile:
                ctx = p.chromium.launch_persistent_context(profile, executable_path=CHROMIUM,
                                                           args=CHROMIUM_ARGS, headless=True)
                page = ctx.pages[0]
                cdp = ctx.new_cdp_session(page)
                chunks: list[dict] = []
                done = threading.Event()
                cdp.on("Tracing.dataCollected", lambda d: chunks.extend(d["value"]))
                cdp.on("Tracing.tracingComplete", lambda d: done.set())
                if args.cpu != 1:
                    cdp.send("Emulation.setCPUThrottlingRate", {"rate": args.cpu})
                cdp.send("Tracing.start", {"traceConfig": {"includedCategories": CATEGORIES}})
                page.goto(f"http://127.0.0.1:{server.server_address[1]}/{args.page}")
                page.wait_for_selector("body[data-state=ready]", timeout=120000)
                page.wait_for_timeout(500)
                cdp.send("Tracing.end")
                while not done.is_set():
                    page.wait_for_timeout(100)
                ctx.close()
            tasks = long_tasks({"traceEvents": chunks}, min(args.over, 50))  # all that block
            print(f"== {name} {args.page}, CPU x{args.cpu:g}: main-thread tasks over "
                  f"{args.over:g} ms (start ms, duration ms)")
            for at, dur, parts in (t for t in tasks if t[1] > args.over):
                print(f"  at {at:7.0f}  {dur:6.0f} ms")
                for d, what in parts:
                    print(f"        {d:6.0f}  {what}")
            print(f"   longest {max((t[1] for t in tasks), default=0):.0f} ms, total blocking time "
                  f"{sum(max(0, t[1] - 50) for t in tasks):.0f} ms to ready; load average "
                  + "/".join(f"{x:.2f}" for x in os.getloadavg()))
    for server in servers:
        server.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
