"""Screenshots of Werner's table for the README (docs/screenshots/), from the built site.

    python3 scripts/screenshots.py                  # build the site, refresh docs/screenshots/
    python3 scripts/screenshots.py --site site      # use an already built site
    python3 scripts/screenshots.py --all /tmp/shots # every state, language and size, to look at

It serves the site on a free port of 127.0.0.1, plays a seeded 4-player game
in headless Chromium (/usr/bin/chromium, or $CHROMIUM_PATH) against random
bots and photographs each state a newcomer must be able to read: the person
on turn (with a hint), asking a bot for a card, the card winning the trick,
cards carried by a Transformation, the end-of-hand breakdown and the end of
the game; in English and French, at phone (390x844) and desktop (1366x768)
size. `PICKS` says which six go to the README; they are written as 8-bit
palette PNGs (with pngquant, when installed) to stay small.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import threading
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

SIZES = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1366, "height": 768}}
LANGS = ("en", "fr")
STATES = ("turn", "designation", "winning", "carried", "hand-end", "game-end")
# (state, language, size) of the six in docs/screenshots/, linked from README.md.
PICKS = (("turn", "en", "desktop"), ("winning", "en", "phone"), ("designation", "fr", "phone"),
         ("carried", "en", "desktop"), ("hand-end", "fr", "desktop"), ("game-end", "en", "phone"))
SEED, TARGET = 11, "100"
# Every card has arrived (game.web.draw.motion's animations); the "?" badges pulse forever.
STILL = """document.getAnimations().every(a =>
  a.effect.getTiming().iterations === Infinity || a.playState !== 'running')"""


def serve(site: Path) -> tuple[Any, str]:
    from game.build import make_server

    server = make_server(site, 0, "/")
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/"


def settle(page: Any) -> str:
    """Wait for the person's turn, a summary or the end: 'me', 'modal' or 'over'."""
    page.wait_for_function(
        "document.body.dataset.toAct !== 'bot' || !document.getElementById('modal').hidden",
        timeout=60000)
    return "modal" if not page.is_hidden("#modal") else str(page.evaluate(
        "document.body.dataset.toAct"))


def click_action(page: Any, selector: str) -> None:
    n = page.evaluate("document.body.dataset.actions")
    page.click(selector)
    page.wait_for_function(f"document.body.dataset.actions !== '{n}'")


def play(page: Any, url: str, lang: str, size: str, shoot: Any) -> None:
    """One game at one size in one language, `shoot(state)` at each state's first sight."""
    page.set_viewport_size(SIZES[size])
    page.goto(url + "blank.html")
    page.evaluate("localStorage.clear()")
    page.goto(f"{url}index.html?lang={lang}&speed=instant")
    page.wait_for_selector("body[data-state=ready]", timeout=120000)
    page.select_option("#f-players", "4")
    page.select_option("#f-seating", "A")
    page.select_option("#f-me", "0")
    for name in page.eval_on_selector_all("select[name^=bot]", "els => els.map(e => e.name)"):
        page.select_option(f"select[name={name}]", "random")
    page.select_option("#f-target", TARGET)
    page.fill("#f-seed", str(SEED))
    page.click("#start")
    page.wait_for_selector("body[data-view=table]")
    seen: set[str] = set()

    def once(state: str) -> None:
        if state not in seen:
            seen.add(state)
            page.evaluate("window.scrollTo(0, 0)")
            page.wait_for_function(STILL)  # no card caught on its way to the table
            shoot(state)

    for _ in range(600):
        where = settle(page)
        if where == "modal":
            final = page.locator("#modal .jh-verdict").count() > 0
            once("game-end" if final else "hand-end")
            if final:
                return
            page.click("#modal button")
            continue
        if where == "over":
            return
        if page.locator(".centre > .slot .card.winning").count() and \
                page.locator(".centre > .slot .card.played").count() >= 2:
            once("winning")
        if page.locator(".carried .card").count():
            once("carried")
        playable = page.locator(".hand.mine .card.playable")
        if "turn" not in seen and playable.count():
            page.click("#hint")
            page.wait_for_selector(".hinted", timeout=60000)
            once("turn")
        if "designation" not in seen and page.locator(".seat.designatable").count() \
                and playable.count():
            # Ask a bot for a card, slowly enough to see it think.
            page.select_option("#speed", "slow")
            page.click(".seat.designatable")
            page.wait_for_selector(".seat.thinking")
            once("designation")
            page.select_option("#speed", "instant")
            settle(page)
            continue
        click_action(page, ".hand.mine .card.playable" if playable.count()
                     else ".seat.designatable")
    raise RuntimeError(f"the game did not end ({lang}, {size}); seen {sorted(seen)}")


def small_png(png: bytes) -> bytes:
    """The screenshot as an 8-bit palette PNG (about a third of the size) when
    `pngquant` is installed (Debian: apt-get install pngquant); else as is."""
    pngquant = shutil.which("pngquant")
    if pngquant is None:
        return png
    done = subprocess.run([pngquant, "--quality=70-95", "--speed=1", "--strip", "-"],
                          input=png, capture_output=True, check=False)
    return done.stdout if done.returncode == 0 else png


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--site", type=Path, help="a built site (default: build one)")
    ap.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    ap.add_argument("--all", type=Path, help="also write every screenshot to this folder")
    args = ap.parse_args(argv)

    from playwright.sync_api import sync_playwright

    from game.build import CHROMIUM, CHROMIUM_ARGS, build

    site = args.site
    if site is None:
        site = build(Path(tempfile.mkdtemp()) / "site")
    (site / "blank.html").write_text("<!doctype html><title>blank</title>")
    server, url = serve(site)
    args.out.mkdir(parents=True, exist_ok=True)
    if args.all:
        args.all.mkdir(parents=True, exist_ok=True)
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            for lang in LANGS:
                for size in SIZES:
                    page = browser.new_page(viewport=SIZES[size])

                    def shoot(state: str, lang: str = lang, size: str = size,
                              page: Any = page) -> None:
                        png = page.screenshot()
                        name = f"werner-{state}-{lang}-{size}.png"
                        if args.all:
                            (args.all / name).write_bytes(png)
                        if (state, lang, size) in PICKS:
                            (args.out / name).write_bytes(small_png(png))
                        print(name, flush=True)

                    play(page, url, lang, size, shoot)
                    page.close()
            browser.close()
    finally:
        server.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
