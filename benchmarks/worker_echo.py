"""How soon a page gets a worker's answer to a message posted from a click:
the floor under any click at the table, whose game answers from a worker.

    python benchmarks/worker_echo.py [--clicks 30]

Not a test: prints numbers. A page of its own (a button and a worker that
echoes each message at once, nothing of the site's) in headless Chromium
(game.build's CHROMIUM_ARGS): for each way of posting (from the click's
handler, from a timeout the handler sets, through a MessageChannel, from
`pointerdown`) and, as the baseline, from a timer with no input, the time
from the post, and from the input's handler, to the page's message event,
median and p90 over `--clicks`.
"""

from __future__ import annotations

import argparse
import functools
import http.server
import os
import statistics
import sys
import tempfile
import threading
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from game.build import CHROMIUM, CHROMIUM_ARGS  # noqa: E402

PAGE = """<!doctype html><html><body><button id="b">click</button><p id="out"></p>
<script>
const worker = new Worker("echo.js");
const channel = new MessageChannel();
worker.postMessage("port", [channel.port2]);
window.times = [];
let posted = 0, began = 0, way = "";
const answered = () => {
  const now = performance.now();
  times.push([way, now - posted, now - began]);
  out.textContent = times.length;
};
worker.onmessage = answered;
channel.port1.onmessage = answered;
window.way = "click";
const post = () => { posted = performance.now(); worker.postMessage("x"); };
b.addEventListener("pointerdown", () => {
  if (window.way === "pointerdown") { way = "pointerdown"; began = performance.now(); post(); }
});
b.addEventListener("click", () => {
  way = window.way;
  began = performance.now();
  if (way === "click") post();
  else if (way === "timeout") setTimeout(post, 0);
  else if (way === "channel") { posted = performance.now(); channel.port1.postMessage("x"); }
});
window.fromTimer = () => setTimeout(() => { way = "timer, no input"; began = performance.now(); post(); }, 0);
</script></body></html>
"""
ECHO = """let port = null;
onmessage = (e) => {
  if (e.data === "port") { port = e.ports[0]; port.onmessage = (m) => port.postMessage(m.data); }
  else postMessage(e.data);
};
"""
WAYS = ("click", "timeout", "channel", "pointerdown")


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args: object) -> None:
        pass


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--clicks", type=int, default=30)
    args = ap.parse_args(argv)
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as folder:
        (Path(folder) / "index.html").write_text(PAGE)
        (Path(folder) / "echo.js").write_text(ECHO)
        server = http.server.ThreadingHTTPServer(
            ("127.0.0.1", 0), functools.partial(_Quiet, directory=folder))
        threading.Thread(target=server.serve_forever, daemon=True).start()
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            page = browser.new_page()
            page.goto(f"http://127.0.0.1:{server.server_address[1]}/index.html")
            for way in WAYS:
                page.evaluate(f"window.way = '{way}'")
                for _ in range(args.clicks):
                    page.click("#b")
                    page.wait_for_timeout(50)
            for _ in range(args.clicks):
                page.evaluate("fromTimer()")
                page.wait_for_timeout(50)
            times = page.evaluate("times")
            browser.close()
        server.shutdown()
    print(f"Chromium headless, {args.clicks} posts each; load average "
          f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print(f"{'ms, median (p90)':20}{'posted -> answer':>20}{'input -> answer':>20}")
    for way in (*WAYS, "timer, no input"):
        cells = []
        for column in (1, 2):
            got = sorted(t[column] for t in times if t[0] == way)
            cells.append(f"{statistics.median(got):.1f} ({got[int(len(got) * 0.9)]:.1f})")
        print(f"  {way:18}" + "".join(f"{c:>20}" for c in cells))
    return 0


if __name__ == "__main__":
    sys.exit(main())
