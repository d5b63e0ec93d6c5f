"""How soon the page's hand analysis shows its first verdict, and the whole
hand, in the browser at the page's budgets (game/web/runtime/analysis_run.py).

    python benchmarks/analysis_page.py [--games dracula,jekyll-vs-hyde,jekyll-hyde]

Not a test: prints the figures with the machine's load. The built site is
served locally and loaded in headless Debian Chromium (game.build's
CHROMIUM_ARGS); for each game a save one forced bot move before the end of
its first hand (tests/browser/conftest.py's `save_near_end`: a Werner hand
of four, a duel round, a Dracula deal) is put in storage, the page ends the
hand, and "Analyse this hand" on its summary is pressed: the time from that
click to the first mark on screen, and to the last decision judged.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from game.build import CHROMIUM, CHROMIUM_ARGS, build, make_server  # noqa: E402
from tests.browser.conftest import PREFIX, UI  # noqa: E402
from tests.conftest import BLANK  # noqa: E402

GAMES = {"dracula": ({"first_dealer": 1}, 0, 12),
         "jekyll-vs-hyde": ({}, "J", 5),
         "jekyll-hyde": ({"players": 4, "target": 150}, 0, 7)}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--games", default=",".join(GAMES))
    args = p.parse_args()
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        site = build(Path(tmp) / "site")
        (site / "blank.html").write_text(BLANK)
        server = make_server(site, 0, PREFIX)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        url = f"http://127.0.0.1:{server.server_address[1]}{PREFIX}"
        with sync_playwright() as driver:
            ctx = driver.chromium.launch_persistent_context(
                str(Path(tmp) / "profile"), executable_path=CHROMIUM, args=CHROMIUM_ARGS,
                headless=True, viewport={"width": 1366, "height": 768})
            ctx.set_default_timeout(300000)
            page = ctx.new_page()
            page.site_url = url
            print(f"load at the start: {os.getloadavg()}", flush=True)
            for game in args.games.split(","):
                options, me, seed = GAMES[game]
                UI.resume_save(page, game, UI.save_near_end(game, options, me, seed))
                UI.wait_settled(page)
                page.wait_for_selector("#analyse-open")
                started = time.monotonic()
                page.click("#analyse-open")
                page.wait_for_selector("#rv-analysis .rv-mark")
                first = time.monotonic() - started
                page.wait_for_selector("#rv-cancel", state="detached")
                whole = time.monotonic() - started
                count = page.locator("#rv-analysis .rv-mark").count()
                print(f"{game}: {count} decisions; the first verdict on screen {first:.1f} s, "
                      f"the whole hand {whole:.1f} s (load {os.getloadavg()[0]:.1f})",
                      flush=True)
                page.click("#rv-close")
            ctx.close()
        server.shutdown()


if __name__ == "__main__":
    main()
