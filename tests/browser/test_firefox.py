"""The site in a second browser engine: Firefox (Debian's firefox-esr).

Playwright's own Firefox build can't be downloaded here and it does not drive
a stock Firefox, but Firefox speaks WebDriver BiDi, which puppeteer-core (a
pinned devDependency) drives. `firefox/play.mjs` starts the page, checks that a
first visit starts Python fresh and a returning one from the build's memory snapshot, and plays a
Werner hand to its end, duel decisions with the exchange and Dracula
placements by clicks; this test reads its report.
"""
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

FIREFOX = os.environ.get("FIREFOX_PATH", "/usr/bin/firefox-esr")
PLAY = Path(__file__).parent / "firefox" / "play.mjs"


@pytest.mark.browser
def test_the_site_starts_and_plays_in_firefox(site_url):
    if not Path(FIREFOX).exists() or shutil.which("node") is None:
        if os.environ.get("CI"):
            pytest.fail(f"no Firefox at {FIREFOX} (or no node): scripts/setup.sh installs both")
        pytest.skip(f"no Firefox at {FIREFOX} (or no node)")
    run = subprocess.run(["node", str(PLAY), site_url, FIREFOX], capture_output=True, text=True,
                         timeout=900, cwd=PLAY.parent)
    assert run.returncode == 0, run.stderr[-2000:]
    report = json.loads(run.stdout.strip().splitlines()[-1])
    assert report["errors"] == [], report
    # A first visit starts Python fresh in the worker (the snapshot is never
    # downloaded then); a return visit restores it from the service worker's cache.
    assert report["first_python"] == "fresh" and report["returning_python"] == "snapshot", report
    assert report["werner_hand_over"] and report["werner_asked"], report
    assert report["duel_decisions"] == 6 and report["dracula_placements"] == 4, report
