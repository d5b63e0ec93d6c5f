"""The site in a second browser engine: Firefox (Debian's firefox-esr).

Playwright's own Firefox build can't be downloaded here and it does not drive
a stock Firefox, but Firefox speaks WebDriver BiDi, which puppeteer-core (a
pinned devDependency) drives. `firefox/play.mjs` starts the page, checks that a
first and a returning visit start Python from the build's memory snapshot (and
that a module it lacks is imported when asked for), and plays a
Werner hand to its end, duel decisions with the exchange and Dracula
placements by clicks; this test reads its report.
"""
import json
import os
import shutil
import subprocess
import threading
import warnings
from pathlib import Path

import pytest

FIREFOX = os.environ.get("FIREFOX_PATH", "/usr/bin/firefox-esr")
PLAY = Path(__file__).parent / "firefox" / "play.mjs"


@pytest.mark.browser
def test_the_site_starts_and_plays_in_firefox(tmp_path, copy_site):
    if not Path(FIREFOX).exists() or shutil.which("node") is None:
        if os.environ.get("CI"):
            pytest.fail(f"no Firefox at {FIREFOX} (or no node): scripts/setup.sh installs both")
        pytest.skip(f"no Firefox at {FIREFOX} (or no node)")
    from game.build import make_server

    site = copy_site(tmp_path / "site")  # with the tests' worker that imports from the stdlib
    shutil.copy2(Path(__file__).with_name("stdlib_probe.mjs"), site)
    server = make_server(site)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        run = subprocess.run(["node", str(PLAY), f"http://127.0.0.1:{server.server_address[1]}/",
                              FIREFOX], capture_output=True, text=True, timeout=900,
                             cwd=PLAY.parent)
    finally:
        server.shutdown()
        server.server_close()
    assert run.returncode == 0, run.stderr[-2000:]
    report = json.loads(run.stdout.strip().splitlines()[-1])
    assert report["errors"] == [], json.dumps(report)  # (whole: CI's log shows it)
    if report["start_misses"]:  # a lost click the second one made good: said, for the next look
        warnings.warn(f"Firefox: a Start click brought no table: {report['start_misses']}")
    # Python starts from the memory snapshot: a first visit downloads it, a
    # return visit restores the service worker's copy; a module the snapshot
    # lacks is imported from the standard library read then.
    assert report["first_python"] == "snapshot" and report["returning_python"] == "snapshot", report
    assert report["stdlib_import"] == ["snapshot", "imported difflib"], report
    assert report["werner_hand_over"] and report["werner_asked"], report
    assert report["duel_decisions"] == 6 and report["dracula_placements"] == 4, report
