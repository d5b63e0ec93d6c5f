"""Lighthouse's performance score of pages of the built site (issue 33's targets).

    npm install --prefix /tmp/lh-npm lighthouse@13.5.0   # once; not in package.json
    python benchmarks/lighthouse.py [--runs 5] [--site DIR] [--lighthouse /tmp/lh-npm]
        [--form-factors desktop,mobile] [--keep DIR] [--floor] index.html "embed.html?game=jekyll-hyde"

Not a test: prints numbers. Lighthouse 13.5 wants Node 22.19 but runs on
Debian's Node 20 (npm warns, EBADENGINE). The site (`--site`, or built from
the sources into a temporary folder) is served by game.build's static server
on 127.0.0.1 (no compression, `Cache-Control: no-cache` but for
static/vendor/), or with `--gzip` answering gzip-encoded as a compressing
host does (the transfer sizes feed Lighthouse's simulated network). Each
page is measured by the Lighthouse CLI with Debian's Chromium (CHROMIUM_PATH,
default /usr/bin/chromium: headless, no sandbox), once with
`--preset=desktop` and once with the default mobile emulation (Moto G Power,
simulated slow 4G and a 4x slower CPU), `--runs` times in alternating order;
each run is a fresh Chromium with a fresh profile and Lighthouse clears the
origin's storage: a first visit. The scores and metrics are Lighthouse's
simulation (Lantern) from the trace, not the observed times.

What Lighthouse waits for: FCP + 1 s, the load event + 1 s, and the network
quiet for 1 s (at most 2 requests in flight, none critical), then the main
thread quiet (no task over 50 ms) for 1 s; at most 45 s. It does not wait
for the page's ready. On today's pages Python's start counts all the same:
its fetches keep the network busy and its long tasks the main thread, so
Lighthouse stops after ready (as a rule: under load it once stopped before
the embed's table). A page whose Python runs in a worker (the split
prototype) falls quiet on the main thread once the worker's downloads end,
and Lighthouse stops before the worker is ready: its ready is not scored.
The final screenshots tell which: `--keep DIR` keeps the reports and writes
every run's final screenshot into DIR/final-screenshots.html. The service
worker registers only once the page is ready and is not measured.

`--floor` adds a page of its own, `floor.html` (FLOOR_HTML), served beside the
site's: it loads the site's MicroPython and runs one line of Python in it,
nothing else. What it scores is the least any page pays with its front in
MicroPython on the main thread (issue 33), whatever the front does.

Printed, medians over the runs, per page and form factor: the performance
score, total blocking time, LCP, FCP, Speed Index, CLS, time to interactive,
the longest main-thread task (`long-tasks`, simulated like TBT) and the
longest observed one (`main-thread-tasks`), the trace's end (observed);
then, from the run with the median score, the audits that cost something
(insights and diagnostics with a score under 0.9 or a saving), and the load
average (1/5/15 min) at the start and end.
"""

from __future__ import annotations

import argparse
import functools
import gzip
import html
import http.server
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from game.build import CHROMIUM, CHROMIUM_ARGS, SiteHandler, build, make_server  # noqa: E402

METRICS = (  # (column, audit id, unit)
    ("TBT", "total-blocking-time", "ms"), ("LCP", "largest-contentful-paint", "ms"),
    ("FCP", "first-contentful-paint", "ms"), ("SI", "speed-index", "ms"),
    ("CLS", "cumulative-layout-shift", ""), ("TTI", "interactive", "ms"))
# The metrics themselves are printed above; these would only repeat them.
NOT_COSTS = {a for _, a, _ in METRICS} | {"max-potential-fid", "metrics", "main-thread-tasks",
                                          "screenshot-thumbnails", "final-screenshot",
                                          "network-requests", "diagnostics", "script-treemap-data"}


# The floor: the site's MicroPython, loaded as the pages' front.mjs loads it, and one
# line of Python; a heading and a paragraph give it a first paint.
FLOOR_HTML = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="description" content="MicroPython alone on the main thread">
<title>MicroPython's floor</title></head>
<body data-state="loading"><h1>MicroPython's floor</h1>
<p>This page loads only the site's MicroPython and runs one line of Python in it.</p>
<script type="module">
const { loadMicroPython } = await import("./static/vendor/micropython/micropython.mjs");
const mp = await loadMicroPython({ linebuffer: true });
mp.runPython("import js; js.document.body.dataset.state = 'ready'");
</script></body></html>
"""


def with_floor(site: Path, into: Path) -> Path:
    """A folder serving `site` as it is (links to its entries) and floor.html."""
    into.mkdir(parents=True)
    for entry in site.iterdir():
        (into / entry.name).symlink_to(entry.resolve())
    (into / "floor.html").write_text(FLOOR_HTML)
    return into


class GzipHandler(SiteHandler):
    """The site's handler, answering gzip-encoded when asked, as a compressing host would."""

    packed: dict[str, bytes] = {}  # path -> gzip, shared by the handler's threads
    STORED = (".gz", ".png", ".jpg", ".ico")  # compressed already

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        path = self.translate_path(self.path.split("?")[0])
        if ("gzip" not in self.headers.get("Accept-Encoding", "") or path.endswith(self.STORED)
                or not os.path.isfile(path)):
            return super().do_GET()
        if path not in self.packed:
            self.packed[path] = gzip.compress(Path(path).read_bytes(), 6)
        body = self.packed[path]
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(path))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


def lighthouse_command(prefix: Path) -> list[str]:
    cli = prefix / "node_modules" / "lighthouse" / "cli" / "index.js"
    if not cli.is_file():
        sys.exit(f"no Lighthouse in {prefix}: npm install --prefix {prefix} lighthouse@13.5.0")
    return ["node", str(cli)]


def run_lighthouse(command: list[str], url: str, form_factor: str, out: Path) -> dict[str, Any]:
    """One Lighthouse run (its own Chromium and profile); the JSON report."""
    flags = [url, "--output=json", f"--output-path={out}", "--only-categories=performance",
             "--quiet", "--chrome-flags=" + " ".join(CHROMIUM_ARGS)]
    if form_factor == "desktop":
        flags.append("--preset=desktop")
    env = {**os.environ, "CHROME_PATH": CHROMIUM}
    subprocess.run(command + flags, check=True, env=env, stdout=subprocess.DEVNULL)
    report: dict[str, Any] = json.loads(out.read_text())
    return report


def figures(report: dict[str, Any]) -> dict[str, float]:
    """The score and metrics of one report (ms; CLS unitless)."""
    audits = report["audits"]
    out: dict[str, float] = {"score": 100 * (report["categories"]["performance"]["score"] or 0)}
    for column, audit, _ in METRICS:
        out[column] = audits[audit].get("numericValue", float("nan"))
    tasks = audits["long-tasks"].get("details", {}).get("items", [])
    out["longest"] = max((t["duration"] for t in tasks), default=0.0)
    observed = audits["main-thread-tasks"].get("details", {}).get("items", [])
    out["observed"] = max((t["duration"] for t in observed), default=0.0)
    out["end"] = audits["metrics"]["details"]["items"][0].get("observedTraceEnd", float("nan"))
    out["bench"] = report["environment"]["benchmarkIndex"]  # Lighthouse's CPU speed test
    return out


def costs(report: dict[str, Any]) -> list[str]:
    """The performance audits that cost something in one report, one line each."""
    lines = []
    for ref in report["categories"]["performance"]["auditRefs"]:
        audit = report["audits"][ref["id"]]
        if ref["id"] in NOT_COSTS or audit.get("scoreDisplayMode") in ("notApplicable", "manual"):
            continue
        score = audit.get("score")
        savings = audit.get("metricSavings") or {}
        if (score is not None and score < 0.9) or any(v for v in savings.values()):
            saved = ", ".join(f"{k} {v:.0f}" for k, v in savings.items() if v)
            lines.append(f"{audit['title']}: {audit.get('displayValue', '')}"
                         + (f" (saves {saved})" if saved else ""))
    return lines


def screenshots(reports: dict[tuple[str, str], list[dict[str, Any]]]) -> str:
    """An HTML page of each run's final screenshot: was the page ready when Lighthouse stopped?"""
    cells = []
    for (page, form), runs in reports.items():
        for n, report in enumerate(runs, 1):
            shot = report["audits"]["final-screenshot"].get("details", {})
            cells.append(f"<figure><img src='{shot.get('data', '')}' width=300>"
                         f"<figcaption>{html.escape(page)}, {form}, run {n}: "
                         f"{shot.get('timing', '?')} ms</figcaption></figure>")
    return ("<!doctype html><meta charset=utf-8><title>Final screenshots</title>"
            "<style>figure{display:inline-block;vertical-align:top;font:12px sans-serif}</style>"
            + "".join(cells))


def load() -> str:
    return "/".join(f"{x:.2f}" for x in os.getloadavg())


def summary(results: dict[tuple[str, str], list[dict[str, Any]]]) -> None:
    head = ["score"] + [c for c, _, _ in METRICS] + ["longest", "observed", "end", "bench"]
    print(f"{'page':34} {'form':8} " + " ".join(f"{h:>8}" for h in head))
    for (page, form), reports in results.items():
        rows = [figures(r) for r in reports]
        medians = {h: statistics.median(row[h] for row in rows) for h in head}
        scores = sorted(row["score"] for row in rows)
        print(f"{page[:34]:34} {form:8} " + " ".join(
            f"{medians[h]:8.3f}" if h == "CLS" else f"{medians[h]:8.0f}" for h in head)
            + f"   scores {'/'.join(f'{s:.0f}' for s in scores)}")
    for (page, form), reports in results.items():
        middle = sorted(reports, key=lambda r: figures(r)["score"])[len(reports) // 2]
        print(f"\n{page}, {form}: what costs (the run with the median score)")
        for line in costs(middle):
            print("  - " + line)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("pages", nargs="*", default=["index.html", "embed.html?game=jekyll-hyde"])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--site", type=Path, help="an already built site (default: build one)")
    ap.add_argument("--lighthouse", type=Path, default=Path("/tmp/lh-npm"),
                    help="the npm prefix Lighthouse is installed in")
    ap.add_argument("--form-factors", default="desktop,mobile")
    ap.add_argument("--gzip", action="store_true",
                    help="serve gzip-encoded (all but .gz and images), as a compressing host")
    ap.add_argument("--keep", type=Path, help="keep the JSON reports in this folder")
    ap.add_argument("--floor", action="store_true",
                    help="measure floor.html too: MicroPython alone on the main thread")
    args = ap.parse_args(argv)
    command = lighthouse_command(args.lighthouse)
    version = subprocess.run(command + ["--version"], capture_output=True, text=True).stdout
    tmp = Path(tempfile.mkdtemp(prefix="lighthouse-"))
    site = args.site or build(tmp / "site")
    if args.floor:
        site = with_floor(site, tmp / "served")
        args.pages.append("floor.html")
    reports = args.keep or tmp / "reports"
    reports.mkdir(parents=True, exist_ok=True)
    server = (http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(GzipHandler, directory=str(site)))
        if args.gzip else make_server(site, 0))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}/"
    forms = args.form_factors.split(",")
    print(f"Lighthouse {version.strip()}, {CHROMIUM}, {args.runs} runs, "
          + ("gzip, " if args.gzip else "")
          + f"{os.cpu_count()} cores; load average at start {load()}")
    results: dict[tuple[str, str], list[dict[str, Any]]] = {
        (p, f): [] for p in args.pages for f in forms}
    for run in range(args.runs):
        order = list(results) if run % 2 == 0 else list(results)[::-1]
        for page, form in order:
            plain = page.replace("?", "_").replace("=", "-").replace("/", "_")
            name = f"{plain}.{form}.{run + 1}.json"
            results[page, form].append(run_lighthouse(command, base + page, form, reports / name))
        print(f"run {run + 1}/{args.runs} done, load average {load()}", file=sys.stderr)
    server.shutdown()
    print(f"load average at end {load()}; medians of {args.runs} (ms; CLS unitless; "
          "longest: Lighthouse's simulated long task, observed: the trace's; end: trace end; "
          "bench: Lighthouse's benchmarkIndex, higher is a faster CPU)")
    summary(results)
    if args.keep:
        (args.keep / "final-screenshots.html").write_text(screenshots(results))
    else:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
