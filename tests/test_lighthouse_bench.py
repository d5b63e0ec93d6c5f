"""The pure parts of the Lighthouse benchmark (benchmarks/lighthouse.py): the
figures read from a report, the audits that cost, and its compressing server."""

from __future__ import annotations

import functools
import gzip
import http.server
import threading
import urllib.request
from pathlib import Path
from typing import Any

from tests.benchmark_module import load_benchmark

lighthouse = load_benchmark("lighthouse")


def _audit(value: float | None = None, score: float | None = 1.0, **more: Any) -> dict[str, Any]:
    return {"numericValue": value, "score": score, "title": more.pop("title", "t"), **more}


def _report() -> dict[str, Any]:
    audits = {audit: _audit(100.0 * i, score=0.3)  # the metrics are printed, not costs
              for i, (_, audit, _) in enumerate(lighthouse.METRICS, 1)}
    audits.update({
        "long-tasks": _audit(details={"items": [{"duration": 120}, {"duration": 480}]}),
        "main-thread-tasks": _audit(details={"items": [{"duration": 30}, {"duration": 95}]}),
        "metrics": _audit(details={"items": [{"observedTraceEnd": 4321}]}),
        "render-blocking-insight": _audit(score=0, title="Render-blocking requests",
                                          displayValue="Est savings of 140 ms",
                                          metricSavings={"FCP": 150, "LCP": 0}),
        "unused-css-rules": _audit(score=1, title="Reduce unused CSS",
                                   metricSavings={"FCP": 0}),
        "unsized-images": _audit(score=None, title="Unsized", scoreDisplayMode="notApplicable"),
    })
    refs = [{"id": audit} for audit in audits]
    return {"audits": audits, "environment": {"benchmarkIndex": 900},
            "categories": {"performance": {"score": 0.78, "auditRefs": refs}}}


def test_figures_read_the_score_metrics_and_longest_tasks() -> None:
    got = lighthouse.figures(_report())
    assert got["score"] == 78
    assert [got[column] for column, _, _ in lighthouse.METRICS] == [100, 200, 300, 400, 500, 600]
    assert (got["longest"], got["observed"], got["end"], got["bench"]) == (480, 95, 4321, 900)


def test_costs_lists_failing_or_saving_audits_not_the_metrics() -> None:
    assert lighthouse.costs(_report()) == [
        "Render-blocking requests: Est savings of 140 ms (saves FCP 150)"]


def test_the_gzip_server_compresses_what_a_host_would(tmp_path: Path) -> None:
    (tmp_path / "page.html").write_text("<p>hello</p>" * 100)
    # (mtime=0: the gzip header holds no clock, so the bytes are the same at any second)
    (tmp_path / "snapshot.bin.gz").write_bytes(gzip.compress(b"already", mtime=0))
    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(lighthouse.GzipHandler, directory=str(tmp_path)))
    # (a short poll: `shutdown` waits for the loop's next look, half a second by default)
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.02},
                     daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}/"

    def get(path: str, accept: str) -> tuple[str | None, bytes]:
        request = urllib.request.Request(base + path, headers={"Accept-Encoding": accept})
        with urllib.request.urlopen(request) as answer:
            return answer.headers["Content-Encoding"], answer.read()

    try:
        encoding, body = get("page.html?x=1", "gzip, deflate")
        assert encoding == "gzip" and gzip.decompress(body) == b"<p>hello</p>" * 100
        assert get("page.html", "identity") == (None, b"<p>hello</p>" * 100)
        assert get("snapshot.bin.gz", "gzip") == (None, gzip.compress(b"already", mtime=0))
    finally:
        server.shutdown()


def test_screenshots_show_each_runs_final_screen() -> None:
    report = _report()
    report["audits"]["final-screenshot"] = _audit(
        details={"data": "data:image/jpeg;base64,AAAA", "timing": 3725})
    page = lighthouse.screenshots({("embed.html?game=<x>", "mobile"): [report, report]})
    assert page.count("<img src='data:image/jpeg;base64,AAAA'") == 2
    assert "embed.html?game=&lt;x&gt;, mobile, run 2: 3725 ms" in page


def test_the_floor_is_served_beside_the_site_as_it_is(tmp_path: Path) -> None:
    """--floor serves the site untouched (links) and floor.html, which loads the
    site's MicroPython and marks the page ready from Python."""
    site = tmp_path / "site"
    (site / "static" / "vendor" / "micropython").mkdir(parents=True)
    (site / "index.html").write_text("<p>the site</p>")
    (site / "static" / "vendor" / "micropython" / "micropython.mjs").write_text("// mp")
    served = lighthouse.with_floor(site, tmp_path / "served")
    assert (served / "index.html").read_text() == "<p>the site</p>"
    assert (served / "static" / "vendor" / "micropython" / "micropython.mjs").is_file()
    assert sorted(p.name for p in site.iterdir()) == ["index.html", "static"]  # untouched
    floor = (served / "floor.html").read_text()
    assert './static/vendor/micropython/micropython.mjs' in floor
    # One line of Python: a JavaScript string takes no raw newline.
    line = floor.split("runPython(")[1].split(");")[0]
    assert "body.dataset.state = 'ready'" in line and "\n" not in line
