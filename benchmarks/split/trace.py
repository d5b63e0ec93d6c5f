"""What the main thread's long tasks are, on the index.html of built sites.

    python benchmarks/split/trace.py SITE_DIR [SITE_DIR ...]

Each SITE_DIR is a built site, e.g. the two `run.py --keep DIR` keeps
(DIR/site, DIR/baseline). A cold load of its index.html in a fresh Chromium
profile is traced until <body data-state=ready>;
each main-thread task over 50 ms is printed with the longest events inside it
(function calls with their script, wasm compiles, parsing, layout).
"""

from __future__ import annotations

import json
import sys
import tempfile
import threading
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from game.build import CHROMIUM, CHROMIUM_ARGS, make_server  # noqa: E402

CATEGORIES = ["devtools.timeline", "disabled-by-default-devtools.timeline", "v8", "v8.wasm",
              "blink", "loading"]


def long_tasks(trace: dict) -> list[tuple[float, float, list[tuple[float, str]]]]:
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
        for task in (e for e in evs if e["name"] == "RunTask" and e["dur"] > 50_000):
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
    from playwright.sync_api import sync_playwright

    sites = [Path(a) for a in argv]
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
                cdp.send("Tracing.start", {"traceConfig": {"includedCategories": CATEGORIES}})
                page.goto(f"http://127.0.0.1:{server.server_address[1]}/index.html?speed=slow")
                page.wait_for_selector("body[data-state=ready]", timeout=120000)
                page.wait_for_timeout(500)
                cdp.send("Tracing.end")
                while not done.is_set():
                    page.wait_for_timeout(100)
                ctx.close()
            print(f"== {name}: main-thread tasks over 50 ms (start ms, duration ms)")
            for at, dur, parts in long_tasks({"traceEvents": chunks}):
                print(f"  at {at:7.0f}  {dur:6.0f} ms")
                for d, what in parts:
                    print(f"        {d:6.0f}  {what}")
    for server in servers:
        server.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
