"""Think time of the bots in the browser, against CPython, and what the
page's main thread does meanwhile.

    python benchmarks/think.py [--moves 12] [--budget 1.0] [--games dracula,...]
                               [--levels random,...] [--bot-turns 8] [--no-table]

Not a test: prints two tables. The built site is served locally and loaded
in headless Debian Chromium (game.build.CHROMIUM_ARGS, a persistent profile).
The game runs in a worker (game/web/dom/worker.py); the main thread runs only
the page's front (MicroPython), so what matters there is how long its tasks
are while the worker thinks, not the search's own slices.

1. The search, per game: the page's debug hook `window.thinkBench(game, seed,
   moves, budget)` (`?bench`: static/js/bench.mjs posts it to the worker,
   game/web/dom/worker_bench.py runs benchmarks/page_think.py; it builds its own
   positions with heuristic bots and never touches the table) runs the strong
   bot on `moves` positions as the table does: slices of 40 ms
   (game.web.runtime.thinking.SLICE) that yield to the worker's event loop, under the
   budget, after one short warm-up search (imports). Meanwhile the page records
   'longtask' entries (PerformanceObserver) and the animation frames of the
   main thread; only tasks and frame gaps that overlap a search count (the
   windows are put on the page's clock). Reported:
   - think time per move in Pyodide, p50/p95 (ms);
   - Python's own view: the longest slice between two yields (in the worker a
     slice holds back the gestures that arrive meanwhile: a click at the
     table waits for it), the longest single iteration and the longest
     garbage collection;
   - the main thread while thinking: the longest task, the total blocking
     time (the sum of each task's time over 50 ms) and the longest frame gap;
   - search iterations per second in Pyodide, and in CPython on this machine
     for the same positions (the observations the page searched, same budget).
2. At the table, per game (`--no-table` leaves it out): after a warm-up
   game (not counted), a game dealt with every bot at each level in turn
   (`--levels`), the person's turns played
   with the page's own hint (its action posted as the front posts a click's),
   until the bots have been on turn `--bot-turns` times; the main thread's
   longest task and total blocking time while a bot is to act (<body
   data-to-act=bot>: the pause of `--speed` and the thinking, up to the
   bot's move drawn), while a hint thinks (its button pressed to its answer
   drawn), opening the review (pressed to its first step drawn; at a hand's
   end, and once the game file below is played to its end) and opening a game
   file (chosen to its panel drawn; a whole random game of the same seed).
The load average is printed: on 2 shared cores other work skews both sides.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from game.build import CHROMIUM, CHROMIUM_ARGS, SITE, ensure_built, make_server  # noqa: E402

GAMES = ("jekyll-hyde", "jekyll-vs-hyde", "dracula")

# Installed before the page's own scripts: the main thread's long tasks and
# frames all along, the windows while a bot is to act (<body data-to-act>), and
# `until(selector, gone)`: the page's clock when a selector first matches (or no longer does).
OBSERVE = """
window.__bench = {tasks: [], frames: [], bots: [], botSince: null, fileChosen: null};
try {
  new PerformanceObserver(l => { for (const e of l.getEntries())
    __bench.tasks.push([e.startTime, e.duration]); }).observe({type: 'longtask', buffered: true});
} catch (e) { /* no longtask support: the frame gaps still say it */ }
(function frame(now) { __bench.frames.push(now); requestAnimationFrame(frame); })(0);
addEventListener('change', e => { if (e.target.type === 'file') __bench.fileChosen = performance.now(); },
                 true);
addEventListener('DOMContentLoaded', () => new MutationObserver(() => {
  const bot = document.body.dataset.toAct === 'bot';
  if (bot && __bench.botSince === null) __bench.botSince = performance.now();
  if (!bot && __bench.botSince !== null) {
    __bench.bots.push([__bench.botSince, performance.now()]);
    __bench.botSince = null;
  }
}).observe(document.body, {attributes: true, attributeFilter: ['data-to-act']}));
__bench.until = (selector, gone = false, timeout = 60000) => new Promise((resolve, reject) => {
  const there = () => !document.querySelector(selector) === gone;
  if (there()) return resolve(performance.now());
  const seen = new MutationObserver(() => {
    if (there()) { seen.disconnect(); resolve(performance.now()); } });
  seen.observe(document.documentElement, {subtree: true, childList: true, attributes: true});
  setTimeout(() => { seen.disconnect(); reject(new Error('not seen: ' + selector)); }, timeout);
});
"""

SEARCH = """async ([game, seed, moves, budget]) => {
  const out = await window.thinkBench(game, seed, moves, budget);
  return JSON.parse(String(out));
}"""

# A hint asked (its button pressed) and its answer drawn: [pressed, drawn, action].
HINT = """async () => {
  await __bench.until('#hint:not([aria-busy=true])');
  const pressed = performance.now();
  document.getElementById('hint').click();
  const drawn = await __bench.until('#hint-text[data-action]:not([data-action=""])');
  return [pressed, drawn, document.getElementById('hint-text').dataset.action];
}"""

REVIEW = """async () => {
  const pressed = performance.now();
  document.getElementById('review-open').click();
  const drawn = await __bench.until('dialog#review[open][data-step]');
  document.querySelector('#review [data-rv=close]').click();
  await __bench.until('dialog#review[open]', true);
  return [pressed, drawn];
}"""


def _pct(values: list[float], p: float) -> float:
    v = sorted(values)
    k = (len(v) - 1) * p
    lo, hi = int(k), min(int(k) + 1, len(v) - 1)
    return v[lo] + (v[hi] - v[lo]) * (k - lo)


def blocking(tasks: list[list[float]], windows: list[list[float]]) -> tuple[float, float, int]:
    """The main thread during `windows` ([start, end] on the page's clock): the
    longest task that overlaps one, the total blocking time of those tasks (each
    one's time over 50 ms, counted once) and their number."""
    seen = [d for s, d in tasks if any(s < b and s + d > a for a, b in windows)]
    return max(seen, default=0.0), sum(max(0.0, d - 50) for d in seen), len(seen)


def frame_gap(frames: list[float], windows: list[list[float]]) -> float:
    """The longest time between two animation frames that overlaps a window."""
    return max((y - x for x, y in zip(frames, frames[1:])
                if any(x < b and y > a for a, b in windows)), default=0.0)


def _cpython(observations: list[dict], budget: float) -> tuple[float, list[float]]:
    """Iterations per second of the same search in this CPython, same positions."""
    from game.bots.search import SearchBot

    rates = []
    for i, obs in enumerate(observations):
        bot = SearchBot(budget=budget)
        t0 = time.monotonic()
        bot.choose(obs, obs["legal"], random.Random(i))
        rates.append(bot.last_iterations / (time.monotonic() - t0))
    return statistics.median(rates), rates


# -- at the table ------------------------------------------------------------------------

def _state(page) -> dict:
    return page.evaluate("""() => ({toAct: document.body.dataset.toAct, view: document.body.dataset.view,
        actions: document.body.dataset.actions, modal: !document.getElementById('modal').hidden,
        review: !!document.querySelector('#modal:not([hidden]) #review-open'),
        final: !!document.querySelector('#modal:not([hidden]) [data-cmd=new]')})""")


def deal(page, game: str, level: str, seed: int) -> None:
    """A new game of `game` from the start screen, every bot at `level`."""
    if page.evaluate("!document.getElementById('setup')"):
        page.evaluate("document.getElementById('new-game').click()")
        page.wait_for_selector("#setup")
    if page.input_value("#f-game") != game:
        before = page.inner_html("#setup")
        page.select_option("#f-game", game)
        page.wait_for_function("b => document.getElementById('setup').innerHTML !== b", arg=before)
    for name in page.eval_on_selector_all(
            "#setup select:not(#f-game)",
            "(els, level) => els.filter(e => [...e.options].some(o => o.value === level))"
            ".map(e => e.name)", level):
        page.select_option(f"#setup select[name={name}]", level)
    if page.locator("#f-seed").count():
        page.fill("#f-seed", str(seed))
    page.click("#start")
    page.wait_for_selector("body[data-view=table], #deal-replace")
    if page.evaluate("document.body.dataset.view") != "table":
        page.click("#deal-replace")
        page.wait_for_selector("body[data-view=table]")


def play(page, game: str, level: str, seed: int, turns: int, seconds: float,
         got: dict[str, list]) -> int:
    """Deal at `level` and play the person's turns with the page's hint until the
    bots have been on turn `turns` times (or `seconds` passed); hints and
    reviews (up to two, at a hand's end) go into `got`. The bots' turns seen."""
    deal(page, game, level, seed)
    first = page.evaluate("__bench.bots.length")
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        seen = page.evaluate("__bench.bots.length") - first
        if seen >= turns:
            return seen
        s = _state(page)
        if s["modal"]:
            if s["review"] and len(got["review"]) < 2:
                got["review"].append(page.evaluate(REVIEW))
            if s["final"] or s["toAct"] == "over":
                seed += 1
                deal(page, game, level, seed)
            else:
                page.evaluate("document.querySelector('#modal button.primary').click()")
                page.wait_for_timeout(100)
        elif s["toAct"] == "over":
            seed += 1
            deal(page, game, level, seed)
        elif s["toAct"] == "me":
            pressed, drawn, action = page.evaluate(HINT)
            got["hint"].append([pressed, drawn])
            page.evaluate("act => window.jhgEngine.postMessage(JSON.stringify("
                          "{kind: 'decide', act}))", action)  # as the front posts a click's
            page.wait_for_function("n => document.body.dataset.actions !== n", arg=s["actions"])
        else:
            page.wait_for_timeout(100)
    return page.evaluate("__bench.bots.length") - first


def whole_game(game: str, seed: int) -> bytes:
    """A game file: `game` played to its end by random legal moves (game.web.model.files)."""
    from game import new_game

    state, rng, actions = new_game(game, None, seed), random.Random(seed), []
    while not state.over:
        actions.append(rng.choice(state.legal_actions()))
        state = state.apply(actions[-1])
    return json.dumps({"game": game, "options": new_game(game, None, seed).to_json()["options"],
                       "seed": seed, "actions": actions}).encode()


def open_file(page, game: str, seed: int, got: dict[str, list]) -> None:
    """Open a whole game from a file (chosen -> its panel drawn), continue it at
    its end, and open the review of the game over (pressed -> first step)."""
    button = "#file-open" if page.locator("#file-open").count() else "#file-open-table"
    with page.expect_file_chooser() as chooser:
        page.click(button)
    chooser.value.set_files(files=[{"name": f"{game}.json", "mimeType": "application/json",
                                    "buffer": whole_game(game, seed)}])
    drawn = page.evaluate("__bench.until('#file-panel:not([hidden]) .sheet')")
    got["file"].append([page.evaluate("__bench.fileChosen"), drawn])
    page.click("[data-cmd=file-continue]")
    page.wait_for_selector("body[data-to-act=over], [data-cmd=file-replace]")
    if page.locator("[data-cmd=file-replace]").count():
        page.click("[data-cmd=file-replace]")
    page.wait_for_selector("body[data-to-act=over]")
    if page.locator("#review-open").count():
        got["review"].append(page.evaluate(REVIEW))


def table_rows(page, game: str, levels: list[str], args: argparse.Namespace) -> list[tuple]:
    """The table's measurements of one game: (what, n, p50 ms, windows)."""
    got: dict[str, list] = {"hint": [], "review": [], "file": []}
    # A warm-up first, not counted: the first table of a game runs code the
    # page has not run yet (MicroPython's lazily compiled wasm, first imports).
    play(page, game, levels[0], args.seed - 1, 1, args.seconds, {"hint": [], "review": []})
    rows = []
    for i, level in enumerate(levels):
        first = page.evaluate("__bench.bots.length")
        play(page, game, level, args.seed + 100 * i, args.bot_turns, args.seconds, got)
        windows = page.evaluate("n => __bench.bots.slice(n)", first)
        rows.append((f"bots {level}", windows))
        print(f"{game}: bots {level} done ({len(windows)} turns)", file=sys.stderr)
    open_file(page, game, args.seed, got)
    rows += [("hint", got["hint"]), ("review", got["review"]), ("game file", got["file"])]
    return rows


def _table(p, url: str, games: list[str], levels: list[str], args: argparse.Namespace) -> dict:
    with tempfile.TemporaryDirectory() as profile:
        ctx = p.chromium.launch_persistent_context(profile, executable_path=CHROMIUM,
                                                   args=CHROMIUM_ARGS, headless=True,
                                                   viewport={"width": 1366, "height": 768})
        ctx.add_init_script(OBSERVE)
        page = ctx.pages[0] if ctx.pages else ctx.new_page()
        # What the page says went wrong ("bot error: ..."): a bot that failed
        # never moves, and its window would read as a long think.
        errors: list[str] = []
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: errors.append(f"pageerror: {e}"))
        page.set_default_timeout(120000)
        page.goto(url)
        page.wait_for_selector("body[data-state=ready]")
        rows = {game: table_rows(page, game, levels, args) for game in games}
        tasks, frames = page.evaluate("[__bench.tasks, __bench.frames]")
        ctx.close()
    return {"rows": rows, "tasks": tasks, "frames": frames, "errors": errors}


def _search(p, url: str, games: list[str], args: argparse.Namespace) -> dict:
    with tempfile.TemporaryDirectory() as profile:
        ctx = p.chromium.launch_persistent_context(profile, executable_path=CHROMIUM,
                                                   args=CHROMIUM_ARGS, headless=True)
        ctx.add_init_script(OBSERVE)
        page = ctx.pages[0] if ctx.pages else ctx.new_page()
        page.set_default_timeout(600000)
        page.goto(url)
        page.wait_for_selector("body[data-state=ready]", timeout=120000)
        page.wait_for_function("typeof window.thinkBench === 'function'")
        moves = {}
        for game in games:  # a short warm-up first: imports and first-call costs
            page.evaluate(SEARCH, [game, 99, 1, 0.2])
            moves[game] = page.evaluate(SEARCH, [game, args.seed, args.moves, args.budget])
            print(f"{game}: search done", file=sys.stderr)
        tasks, frames = page.evaluate("[__bench.tasks, __bench.frames]")
        ctx.close()
    return {"moves": moves, "tasks": tasks, "frames": frames}


def print_search(r: dict, games: list[str], budget: float) -> None:
    print(f"1. the strong bot's search in the worker, budget {budget:g} s, slices of 40 ms")
    print(f"{'game':16}{'moves':>6}{'p50 ms':>8}{'p95 ms':>8}{'long task':>10}{'TBT':>6}"
          f"{'#long':>6}{'frame gap':>10}{'slice':>7}{'iter':>6}{'gc':>6}{'Pyodide it/s':>13}"
          f"{'CPython it/s':>13}{'ratio':>7}")
    over_share = []
    for game in games:
        moves = r["moves"][game]
        ms = [m["ms"] for m in moves]
        py = statistics.median(m["iterations"] / (m["ms"] / 1000) for m in moves)
        cp, _ = _cpython([m["obs"] for m in moves], budget)
        windows = [m["window"] for m in moves]
        longest, tbt, n_long = blocking(r["tasks"], windows)
        sl = max(max(m["slice_ms"], m["start_ms"]) for m in moves)
        over_share.append(f"{game} {sum(m['slices_over_100ms'] for m in moves)}"
                          f"/{sum(m['slices'] for m in moves)}")
        print(f"{game:16}{len(ms):6d}{statistics.median(ms):8.0f}{_pct(ms, 0.95):8.0f}"
              f"{longest:10.0f}{tbt:6.0f}{n_long:6d}{frame_gap(r['frames'], windows):10.0f}"
              f"{sl:7.0f}{max(m['iteration_ms'] for m in moves):6.0f}"
              f"{max(m['gc_ms'] for m in moves):6.0f}"
              f"{py:13.0f}{cp:13.0f}{cp / py if py else float('nan'):6.2f}x")
    print("long task / TBT / frame gap: the main thread while the worker searched: its longest"
          " task ('longtask' entries over 50 ms), total blocking time and longest gap between"
          " frames (ms; goal <= 100).")
    print("slice: the longest stretch of Python between two yields in the worker, as Python"
          " timed it (ms); iter: the longest single iteration; gc: the longest garbage collection.")
    print("slices over 100 ms (Python's clock): " + ", ".join(over_share))
    print("it/s: median over moves of iterations / think time; ratio = CPython / Pyodide.")


def print_table(r: dict, speed: str) -> None:
    print(f"\n2. the main thread at the table (speed {speed}; ms)")
    print(f"{'game':16}{'while':16}{'n':>4}{'p50':>7}{'long task':>10}{'TBT':>7}"
          f"{'TBT/each':>9}{'#long':>6}{'frame gap':>10}")
    for game, rows in r["rows"].items():
        for what, windows in rows:
            if not windows:
                print(f"{game:16}{what:16}{0:4d}   (none)")
                continue
            longest, tbt, n_long = blocking(r["tasks"], windows)
            p50 = statistics.median(b - a for a, b in windows)
            print(f"{game:16}{what:16}{len(windows):4d}{p50:7.0f}{longest:10.0f}{tbt:7.0f}"
                  f"{tbt / len(windows):9.1f}{n_long:6d}{frame_gap(r['frames'], windows):10.0f}")
    print("bots L: while a bot is to act (the pause, its thinking, its move drawn), every bot at"
          " level L; hint: pressed -> drawn; review: pressed -> its first step drawn; game file:"
          " chosen -> its panel drawn. p50: the window's median length; long task, TBT: tasks"
          " over 50 ms that overlap a window (each counted once).")
    if r["errors"]:
        print(f"the page's errors at the table ({len(r['errors'])}; the rows above may be"
              " windows of a bot that never moved):")
        for text in r["errors"][:10]:
            print("  ", text[:200])


def main(argv: list[str] | None = None) -> int:
    from game.bots import LEVELS

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--moves", type=int, default=12)
    ap.add_argument("--budget", type=float, default=1.0)
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--games", default=",".join(GAMES))
    ap.add_argument("--levels", default=",".join(LEVELS), help="the table's bot levels")
    ap.add_argument("--bot-turns", type=int, default=8,
                    help="at the table, the bots' turns to watch per game and level")
    ap.add_argument("--seconds", type=float, default=120,
                    help="at the table, at most this long per game and level")
    ap.add_argument("--speed", default="fast", help="the table's pace (the bots' pause)")
    ap.add_argument("--no-table", action="store_true", help="measure the search only")
    ap.add_argument("--moves-detail", action="store_true",
                    help="also print each move's time, iterations, longest slice and iteration")
    ap.add_argument("--site", default=None, help="a built site (default: build ./site)")
    args = ap.parse_args(argv)
    from playwright.sync_api import sync_playwright

    site = Path(args.site) if args.site else ensure_built(SITE)
    games = [g for g in args.games.split(",") if g]
    levels = [v for v in args.levels.split(",") if v]
    load = [os.getloadavg()[0]]
    server = make_server(site, 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}/"
    with sync_playwright() as p:
        search = _search(p, base + "?speed=slow&bench", games, args)
        load.append(os.getloadavg()[0])
        table = None if args.no_table else _table(p, base + f"?speed={args.speed}&lang=en",
                                                  games, levels, args)
        load.append(os.getloadavg()[0])
    server.shutdown()
    print(f"load average {', '.join(f'{x:.1f}' for x in load)} (start, after the search, after"
          f" the table), on {os.cpu_count()} cores")
    print_search(search, games, args.budget)
    if args.moves_detail:
        for game in games:
            print(game, " ".join(f'{m["ms"]:.0f}ms/{m["iterations"]}it/'
                                 f'{m["slice_ms"]:.0f}/{m["iteration_ms"]:.0f}'
                                 for m in search["moves"][game]))
    if table is not None:
        print_table(table, args.speed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
