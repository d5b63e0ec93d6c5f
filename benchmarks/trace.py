"""Start-up traced in Chromium: the main thread's blocking time until the page is ready.

    python benchmarks/trace.py [--runs 5] [--site DIR] [--compare DIR] [--pages index,embed]

Not a test: prints numbers. Each page is loaded in a fresh persistent
Chromium profile (a disk cache like a real browser), a cold visit then a
warm one (index.html: a game left in progress, so the warm visit resumes the
table; the embed: its example again), with the bare PyScript page of
`benchmarks/load.py` as a baseline in the same run, all served by one local
server, and a blank document (one line of text) for the browser's own
floor: a new renderer's first navigation commit costs tens of ms on any
page. `--site` measures an already built folder; by default the site is
built from the sources. `--compare DIR` also measures the pages of another
built folder (e.g. an older build) in the same run, as "old index", "old embed".

Each page is visited twice over (cold then warm, each pair in a new
profile): once with no trace, where only the browser's own count of long
tasks is kept (the instrument below stretches the page's tasks: its
sampling profiler interrupts script and wasm all along; the navigation's
own commit, which makes the document, comes before anything in the page
can observe, so only the traced visits and the blank page show it), and
once traced, to say what ran. Two instruments in the traced visit:
- Chromium's tracing (CDP `Tracing`, the categories DevTools' performance
  panel records): every task on the page's main thread, with what ran inside
  it (script URLs and function names, wasm compiles, parsing, layout), so the
  longest task is named, not only timed;
- a `PerformanceObserver` of `longtask` entries, installed by an init script
  before any of the page's scripts: the browser's own count of tasks over
  50 ms (durations without attribution), as a check of the trace's.
Printed, medians over the runs: untraced, the longest task from navigation
to ready ("<50" when the browser saw no task over 50 ms), in how many runs
it saw one, and the total blocking time; traced, total blocking time from first contentful
paint to ready (over the main thread's tasks, of the part of each in that
window, its length − 50 ms; as Lighthouse counts it, but ending at ready),
the same from longtask entries, the longest task from navigation to ready
with what it was (in the run whose longest task is the median), and time to
ready ("ready": `<body data-state="ready">`, as load.py). The machine's load
average at start and end: on 2 shared cores other work stretches every task.
A task's length leaves out the trace's own profiler starting inside it (a
warm visit's first task: 25-40 ms that no player's browser spends).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import threading
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))
sys.path.insert(0, str(ROOT))

from load import _pages  # noqa: E402  (the bare page, built beside the site)

from game.build import CHROMIUM, CHROMIUM_ARGS, SITE, ensure_built, make_server  # noqa: E402

CATEGORIES = ",".join(("devtools.timeline", "disabled-by-default-devtools.timeline", "toplevel",
                       "blink.user_timing", "loading", "v8", "v8.execute",
                       "disabled-by-default-v8.cpu_profiler"))
# A main-thread task, as Chromium names the outermost event of one.
TASKS = ("ThreadControllerImpl::RunTask", "RunTask")
# The trace's JS sampling profiler starting, inside the new document's first
# task that runs script (25-40 ms on a warm visit): the instrument's cost, not
# the page's, so taken out of that task's length.
INSTRUMENT = "CpuProfiler::StartProfiling"
# The trace's clock against the page's: a user-timing mark made before any of
# the page's scripts (its trace event's ts against its startTime), and the
# browser's own long tasks.
INIT = """
performance.mark("trace-origin");
self.__longtasks = [];
// The page ready, seen by the page itself at the next frame (whose task lays out
// and paints what made it ready): the benchmark asks for it by CDP, not by a
// Playwright wait, whose selector engine (a script of its own, 30 ms to
// compile) would run on the page's thread in the window measured.
self.__ready = 0;
new MutationObserver((records, observer) => {
  if (document.body && document.body.dataset.state === "ready") {
    observer.disconnect();
    requestAnimationFrame(() => { self.__ready = performance.now(); });
  }
}).observe(document, {attributes: true, subtree: true, attributeFilter: ["data-state"]});
try {
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) self.__longtasks.push([e.startTime, e.duration]);
  }).observe({type: "longtask", buffered: true});
} catch (e) {}
"""
MEASURE = """() => {
  const paint = performance.getEntriesByType('paint').find(e => e.name === 'first-contentful-paint');
  const origin = performance.getEntriesByName('trace-origin')[0];
  return {ready: self.__ready, fcp: paint ? paint.startTime : null,
          origin: origin ? origin.startTime : null, longtasks: self.__longtasks || []};
}"""
PAGES = {"index": "site/index.html?speed=slow", "embed": "site/embed.html?game=jekyll-hyde",
         "bare": "bare/", "blank": "blank/"}
# The browser's own floor: a document with one line of text and nothing to
# load, ready as soon as it is parsed. Its tasks (a new renderer's first
# navigation commit, its first style and layout) are what any page pays.
BLANK_HTML = """<!doctype html><html lang="en"><meta charset="utf-8"><title>blank</title>
<body><p>A page with nothing to load.</p>
<script>document.body.dataset.state = "ready";</script></body></html>
"""


def _until_ready(page, cdp, url: str) -> dict[str, Any]:
    """Visit `url` and wait for it to be ready: the page's measures."""
    page.goto(url, wait_until="commit")
    for _ in range(2400):
        ready = cdp.send("Runtime.evaluate", {"expression": "self.__ready || 0",
                                              "returnByValue": True})
        if ready.get("result", {}).get("value"):
            break
        page.wait_for_timeout(50)
    else:
        raise RuntimeError(f"{url} was not ready within two minutes")
    measured: dict[str, Any] = page.evaluate(MEASURE)
    return measured


def _trace(page, cdp, url: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Visit `url` traced: (the page's measures, the trace's events)."""
    events: list[dict[str, Any]] = []
    done: list[bool] = []
    cdp.on("Tracing.dataCollected", lambda params: events.extend(params["value"]))
    cdp.on("Tracing.tracingComplete", lambda params: done.append(True))
    cdp.send("Tracing.start", {"transferMode": "ReportEvents",
                               "traceConfig": {"includedCategories": CATEGORIES.split(",")}})
    measured = _until_ready(page, cdp, url)
    page.wait_for_timeout(100)  # the ready task's end in the trace
    cdp.send("Tracing.end")
    for _ in range(1200):
        if done:
            break
        page.wait_for_timeout(50)
    else:
        raise RuntimeError("the trace did not complete within a minute")
    return measured, events


def _main_thread(events: list[dict[str, Any]]) -> tuple[int, int, float] | None:
    """(pid, tid) of the page's main thread and the trace's ts (µs) of its time origin."""
    for e in events:
        if e.get("name") == "trace-origin" and e.get("cat", "").startswith("blink.user_timing"):
            return e["pid"], e["tid"], float(e["ts"])
    return None


def _tasks(events: list[dict[str, Any]], pid: int, tid: int) -> list[dict[str, Any]]:
    """The outermost complete events of the thread's tasks, in order (ts, dur
    in µs), each less the time the trace's own profiler took to start in it
    (`INSTRUMENT`: its `dur`; the whole event is kept as `traced`)."""
    mine = sorted((e for e in events if e.get("pid") == pid and e.get("tid") == tid
                   and e.get("ph") == "X" and e.get("name") in TASKS and "dur" in e),
                  key=lambda e: (e["ts"], -e["dur"]))
    out: list[dict[str, Any]] = []
    for e in mine:
        if out and e["ts"] < out[-1]["ts"] + out[-1]["dur"]:
            continue  # nested in the previous task
        out.append(e)
    starts = [e for e in events if e.get("pid") == pid and e.get("tid") == tid
              and e.get("name") == INSTRUMENT and "dur" in e]
    for i, task in enumerate(out):
        own = sum(e["dur"] for e in starts if task["ts"] <= e["ts"] < task["ts"] + task["dur"])
        if own:
            out[i] = {**task, "traced": task["dur"], "dur": task["dur"] - own}
    return out


# Wrappers that say nothing of what ran, and the garbage collector's own events.
_GENERIC = ("RunTask", "ThreadControllerImpl::RunTask", "v8.callFunction", "RunMicrotasks",
            "BlinkScheduler_PerformMicrotaskCheckpoint", "SimpleWatcher::OnHandleReady",
            "Receive mojo message", "V8.", "MajorGC", "MinorGC", "HandlePostMessage")


def _samples(events: list[dict[str, Any]], pid: int, tid: int) -> list[tuple[float, str]]:
    """The JS sampling profiler's samples of the thread: (ts, the outermost
    named script functions of its stack, e.g. "writeFile > unpackArchive")."""
    profiles = {e["id"]: e["args"]["data"]["startTime"] for e in events
                if e.get("name") == "Profile" and e.get("pid") == pid and e.get("tid") == tid}
    nodes: dict[tuple[str, int], dict[str, Any]] = {}
    out: list[tuple[float, str]] = []
    clock = dict(profiles)
    for e in events:
        if e.get("name") != "ProfileChunk" or e.get("id") not in profiles:
            continue
        data = e["args"]["data"]
        for n in data.get("cpuProfile", {}).get("nodes", []):
            nodes[e["id"], n["id"]] = n
        for sample, delta in zip(data.get("cpuProfile", {}).get("samples", []),
                                 data.get("timeDeltas", [])):
            clock[e["id"]] += delta
            out.append((clock[e["id"]], _stack_label(nodes, e["id"], sample)))
    return out


def _stack_label(nodes: dict[tuple[str, int], dict[str, Any]], profile: str, leaf: int) -> str:
    names: list[str] = []
    node: dict[str, Any] | None = nodes.get((profile, leaf))
    while node is not None:
        frame = node["callFrame"]
        url = frame.get("url", "")
        if frame.get("functionName") and url and not url.endswith(".wasm"):
            names.append(frame["functionName"])
        elif not url and frame.get("functionName", "").startswith("(") and not names:
            names.append(frame["functionName"])  # (program), (garbage collector)
        node = nodes.get((profile, node["parent"])) if "parent" in node else None
    return " > ".join(names[::-1][:3]) or "(wasm)"


def _what(events: list[dict[str, Any]], samples: list[tuple[float, str]], task: dict[str, Any],
          pid: int, tid: int) -> str:
    """What ran in `task`: the script functions its samples were in (share of
    them), then its longest inner trace events that name something (an event
    type, a wasm compile, layout), with their ms."""
    start, end = task["ts"], task["ts"] + task.get("traced", task["dur"])
    seen = Counter(label for ts, label in samples if start <= ts < end)
    names = [f"{label} {100 * n / sum(seen.values()):.0f}%" for label, n in seen.most_common(3)]
    inner = [e for e in events if e.get("pid") == pid and e.get("tid") == tid
             and e.get("ph") == "X" and start <= e["ts"] < end and e.get("dur", 0) > 0.1 * task["dur"]]
    for e in sorted(inner, key=lambda e: -e["dur"]):
        if e["name"].startswith(_GENERIC):
            continue
        data = (e.get("args") or {}).get("data") or {}
        label = " ".join(x for x in (e["name"], data.get("type") or "") if x)
        if not any(n.startswith(label + " ") for n in names):
            names.append(f"{label} {e['dur'] / 1000:.0f}ms")
        if len(names) == 5:
            break
    return "; ".join(names)


def _blocking(spans: list[tuple[float, float]], start: float, end: float) -> float:
    """Total blocking time (ms) of the tasks `spans` (start, duration in ms) within [start, end]."""
    total = 0.0
    for t0, dur in spans:
        if dur <= 50:
            continue
        clipped = min(t0 + dur, end) - max(t0, start)
        total += max(0.0, clipped - 50)
    return total


def _visit(page, cdp, url: str) -> dict[str, Any]:
    measured, events = _trace(page, cdp, url)
    found = _main_thread(events)
    if found is None or measured["origin"] is None:
        raise RuntimeError("the trace has no trace-origin mark: cannot find the main thread")
    pid, tid, origin_ts = found
    zero = origin_ts - measured["origin"] * 1000  # the page's time 0 on the trace's clock
    tasks = [t for t in _tasks(events, pid, tid) if zero <= t["ts"] <= zero + measured["ready"] * 1000]
    spans = [((t["ts"] - zero) / 1000, t["dur"] / 1000) for t in tasks]
    fcp, ready = measured["fcp"] or 0.0, measured["ready"]
    longest = max(tasks, key=lambda t: t["dur"], default=None)
    return {"ready": ready, "fcp": fcp, "tbt": _blocking(spans, fcp, ready),
            "tbt_longtask": _blocking([tuple(x) for x in measured["longtasks"]], fcp, ready),
            "longest": longest["dur"] / 1000 if longest else 0.0,
            "what": _what(events, _samples(events, pid, tid), longest, pid, tid) if longest else "",
            "at": (longest["ts"] - zero) / 1000 if longest else 0.0}


def _untraced(page, cdp, url: str) -> dict[str, Any]:
    """Visit `url` with no trace: the browser's own long tasks (over 50 ms)
    from navigation to ready, unstretched by the instrument."""
    measured = _until_ready(page, cdp, url)
    spans = [(start, dur) for start, dur in measured["longtasks"] if start <= measured["ready"]]
    fcp, ready = measured["fcp"] or 0.0, measured["ready"]
    longest = max(spans, key=lambda span: span[1], default=(0.0, 0.0))
    return {"ready": ready, "tbt": _blocking(spans, fcp, ready), "longest": longest[1],
            "at": longest[0], "long": len(spans)}


def _one(p, kind: str, url: str, traced: bool = True) -> dict[str, dict[str, Any]]:
    """A cold visit then a warm one, in a new profile, traced or not."""
    visit = _visit if traced else _untraced
    with tempfile.TemporaryDirectory() as profile:
        ctx = p.chromium.launch_persistent_context(profile, executable_path=CHROMIUM,
                                                   args=CHROMIUM_ARGS, headless=True)
        ctx.add_init_script(INIT)
        page = ctx.pages[0] if ctx.pages else ctx.new_page()
        cdp = ctx.new_cdp_session(page)
        cold = visit(page, cdp, url)
        if kind.endswith("index"):  # a game in progress: the warm visit resumes the table
            page.click("#start")
            page.wait_for_selector("body[data-view=table]")
        # A returning visitor comes back after the service worker has precached
        # (the embed and the blank page register none: the HTTP cache only).
        if not kind.endswith(("embed", "blank")):
            page.evaluate("navigator.serviceWorker.ready.then(() => 1)")
        page.wait_for_timeout(500)
        warm = visit(page, cdp, url)
        ctx.close()
    return {"cold": cold, "warm": warm}


def _report(results: dict[str, dict[str, list[dict[str, Any]]]], runs: int) -> None:
    print(f"{'':14}{'untraced:':>9}{'longest':>8}{'at':>6}{'runs>50':>8}{'TBT':>5}"
          f"{'traced:':>8}{'TBT':>5}{'(longtask)':>11}{'longest':>8}{'ready':>6}"
          f"   traced longest task: at ms, what ran in it (ms)")
    for kind, visits in results.items():
        for visit, rows in visits.items():
            def med(key: str) -> float:
                return statistics.median(r[key] for r in rows)

            def plain(key: str) -> float:
                return float(statistics.median(r["plain"][key] for r in rows))
            # (the higher middle: a run with no long task has no length to average)
            longest = float(statistics.median_high(r["plain"]["longest"] for r in rows))
            over = sum(1 for r in rows if r["plain"]["long"])
            middle = sorted(rows, key=lambda r: r["plain"]["longest"])[len(rows) // 2]["plain"]
            at = f"{middle['at']:.0f}" if longest else ""
            typical = sorted(rows, key=lambda r: r["longest"])[len(rows) // 2]
            print(f"{kind + ' ' + visit:14}{'':9}{f'{longest:.0f}' if longest else '<50':>8}"
                  f"{at:>6}"
                  f"{f'{over}/{len(rows)}':>8}{plain('tbt'):5.0f}{'':8}"
                  f"{med('tbt'):5.0f}{med('tbt_longtask'):11.0f}"
                  f"{med('longest'):8.0f}{med('ready'):6.0f}   at {typical['at']:.0f}: "
                  f"{typical['what']}")
    print(f"(ms, medians of {runs}; TBT ratio to bare, cold/warm: " + ", ".join(
        f"{kind} {statistics.median(r['tbt'] for r in results[kind]['cold']) / max(1.0, statistics.median(r['tbt'] for r in results['bare']['cold'])):.2f}"
        f"/{statistics.median(r['tbt'] for r in results[kind]['warm']) / max(1.0, statistics.median(r['tbt'] for r in results['bare']['warm'])):.2f}"
        for kind in results if kind not in ("bare", "blank")) + ")")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--site", help="a built site folder to measure (default: build the sources)")
    ap.add_argument("--compare", help="another built site folder, measured in the same run")
    ap.add_argument("--pages", default="index,embed",
                    help="of: index, embed (bare and blank are always run)")
    args = ap.parse_args(argv)
    from playwright.sync_api import sync_playwright

    kinds = ["bare", "blank"] + [k for k in args.pages.split(",")
                                 if k in PAGES and k not in ("bare", "blank")]
    if args.compare:
        kinds += [f"old {k}" for k in kinds[2:]]
    site = Path(args.site).resolve() if args.site else ensure_built(SITE)
    print(f"load average at start {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores; {site}")
    results: dict[str, dict[str, list[dict[str, Any]]]] = {k: {"cold": [], "warm": []}
                                                           for k in kinds}
    with tempfile.TemporaryDirectory() as tmp:
        _pages(Path(tmp), site)
        (Path(tmp) / "blank").mkdir()
        (Path(tmp) / "blank" / "index.html").write_text(BLANK_HTML)
        if args.compare:
            (Path(tmp) / "old").symlink_to(Path(args.compare).resolve(), target_is_directory=True)
        server = make_server(tmp, 0)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        base = f"http://127.0.0.1:{server.server_address[1]}/"
        with sync_playwright() as p:
            for run in range(args.runs):
                for kind in (kinds if run % 2 == 0 else kinds[::-1]):
                    url = PAGES[kind] if kind in PAGES else "old" + PAGES[kind[4:]][4:]
                    r = _one(p, kind, base + url)
                    plain = _one(p, kind, base + url, traced=False)
                    for visit in ("cold", "warm"):
                        results[kind][visit].append({**r[visit], "plain": plain[visit]})
                    print(f"  {kind}: ready {r['cold']['ready']:.0f} / {r['warm']['ready']:.0f} ms",
                          file=sys.stderr)
                print(f"run {run + 1}/{args.runs} done", file=sys.stderr)
        server.shutdown()
    _report(results, args.runs)
    print(f"load average at end {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
