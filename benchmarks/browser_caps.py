"""The iterations the search bot reaches in the browser, per game and stage,
recorded as the caps of `browser=1` (game/bots/browser_caps.json).

    python benchmarks/browser_caps.py [--quick] [--per-stage 5] [--games dracula,...]
                                      [--out game/bots/browser_caps.json | --dry-run]

The page plays on a clock (the levels that think seconds a move in each
game's `search.LEVELS`: Dracula's strong 1 s and expert 3 s, the card games'
expert 1 s); the benchmarks play on iteration caps. This measures the clock
in iterations where the players meet the bots: the built site in headless Debian Chromium (Pyodide),
through the page's `window.thinkBench` (benchmarks/page_think.py, run in the game's
worker), which searches positions of heuristic games as the table does, in
slices that yield to the worker's event loop. For each game it takes `--per-stage` decisions of every stage of
the game's `search.stage` and searches each once for the longest budget:
the iterations begun before each level's budget are that level's (a shorter
search is a prefix of the longer one, same seed).

A search that ends early (Dracula's exact search once one placement is
clearly best) would stop at the same point under any larger cap, so it
counts at its own rate times the budget.

The cap of a stage is the MEDIAN over its decisions: the strength a player
typically meets. With a handful of decisions a stage, a lower quantile
would mostly follow one decision slowed by a garbage collection or by
another process on the machine.

Measure on a quiet machine: the load (printed and recorded) lowers every
cap. So does anything that takes the CPU from Chromium: the record keeps
Chromium's CPU time over the wall time for each game (about 1 when the
page had a core to itself). About 3 minutes; `--quick` (3 decisions a
stage) about 2.
"""

from __future__ import annotations

import argparse
import datetime
import json
import math
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from game.bots import think_seconds  # noqa: E402
from game.bots.search import BROWSER_CAPS, rules_of  # noqa: E402
from game.build import CHROMIUM, CHROMIUM_ARGS, SITE, ensure_built, make_server  # noqa: E402

GAMES = ("jekyll-hyde", "jekyll-vs-hyde", "dracula")


def caps(moves: list[dict], stages: tuple[str, ...],
         levels: dict[str, float]) -> tuple[dict, dict, dict]:
    """Per level (with its budget) and stage: the median iterations reached
    (the cap), and the decisions measured and all their values (for the record)."""
    out: dict[str, dict[str, int]] = {level: {} for level in levels}
    counts: dict[str, int] = {}
    seen: dict[str, dict[str, list[int]]] = {level: {} for level in levels}
    for stage in stages:
        ours = [m for m in moves if m["stage"] == stage]
        if not ours:
            raise SystemExit(f"no decision of stage {stage!r}: raise --per-stage")
        counts[stage] = len(ours)
        for level, budget in levels.items():
            values = [_reached(m, budget) for m in ours]
            seen[level][stage] = sorted(values)
            out[level][stage] = max(1, math.floor(statistics.median(values)))
    return out, counts, seen


def _reached(move: dict, budget: float) -> int:
    """Iterations begun in `budget` seconds; a search that ended sooner, at its rate."""
    known = move["reached"].get(f"{budget:g}")
    if known is not None:
        return int(known)
    if not move["finished"]:
        raise SystemExit(f"a search ran {move['search_s']:.2f} s: shorter than {budget} s")
    return int(move["iterations"] / max(move["search_s"], 1e-3) * budget)


def _cpu_seconds(profile: str) -> float:
    """CPU time (user + system) so far of the Chromium started with `profile`
    and all its child processes (the page's renderer among them)."""
    parents, cpu, ours = {}, {}, set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
            cmdline = (stat.parent / "cmdline").read_bytes()
        except OSError:  # ended meanwhile
            continue
        fields = text.rpartition(")")[2].split()
        pid = int(stat.parent.name)
        parents[pid] = int(fields[1])
        cpu[pid] = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        if profile.encode() in cmdline and b"--type=" not in cmdline:
            ours.add(pid)  # the browser process
    grew = True
    while grew:
        more = {p for p, parent in parents.items() if parent in ours} - ours
        ours |= more
        grew = bool(more)
    return sum(cpu[p] for p in ours)


def machine(load: list[float]) -> dict:
    cpu = next((line.split(":", 1)[1].strip() for line in
                Path("/proc/cpuinfo").read_text().splitlines() if line.startswith("model name")),
               platform.processor())
    chromium = subprocess.run([CHROMIUM, "--version"], capture_output=True, text=True,
                              check=False).stdout.strip()
    runtime = ROOT / "node_modules" / "pyodide"
    pyodide = json.loads((runtime / "package.json").read_text())["version"]
    python = json.loads((runtime / "pyodide-lock.json").read_text())["info"]["python"]
    return {"cpu": cpu, "cores": os.cpu_count(), "load_average_1min": load,
            "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
            "chromium": chromium, "pyodide": f"{pyodide} (Python {python})"}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--per-stage", type=int, default=5, help="decisions of each stage")
    ap.add_argument("--quick", action="store_true", help="3 decisions of each stage")
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--games", default=",".join(GAMES))
    ap.add_argument("--out", default=str(BROWSER_CAPS))
    ap.add_argument("--dry-run", action="store_true", help="print, write nothing")
    ap.add_argument("--site", default=None, help="a built site (default: build ./site)")
    args = ap.parse_args(argv)
    from playwright.sync_api import sync_playwright

    per_stage = 3 if args.quick else args.per_stage
    games = [g for g in args.games.split(",") if g]
    if set(games) != set(GAMES) and not args.dry_run:  # one file, one machine and run
        ap.error("--games: measuring only some games needs --dry-run")
    budgets = {game: think_seconds(game) for game in games}  # of each level on the clock
    site = Path(args.site) if args.site else ensure_built(SITE)
    load = [os.getloadavg()[0]]
    server = make_server(site, 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/?speed=slow&bench"
    results, share = {}, {}
    with tempfile.TemporaryDirectory() as profile, sync_playwright() as p:
        ctx = p.chromium.launch_persistent_context(profile, executable_path=CHROMIUM,
                                                   args=CHROMIUM_ARGS, headless=True)
        page = ctx.pages[0] if ctx.pages else ctx.new_page()
        page.set_default_timeout(900000)
        page.goto(url)
        page.wait_for_function("document.body && document.body.dataset.state === 'ready'",
                               timeout=120000)
        page.wait_for_function("typeof window.thinkBench === 'function'")
        for game in games:
            longest = max(budgets[game].values())
            marks = ",".join(f"{b:g}" for b in budgets[game].values())
            page.evaluate("g => window.thinkBench(g, 99, 1, 0.2)", game)  # imports, first calls
            cpu, wall = _cpu_seconds(profile), time.monotonic()
            out = page.evaluate("a => window.thinkBench(...a)",
                                [game, args.seed, per_stage, longest, marks, True])
            # Chromium's CPU time over the wall time: near 1 when the page had a core
            # to itself, less when other work on the machine took turns with it.
            share[game] = round((_cpu_seconds(profile) - cpu) / (time.monotonic() - wall), 2)
            results[game] = json.loads(out)
            load.append(os.getloadavg()[0])
            print(f"{game}: {len(results[game])} decisions, load {load[-1]:.2f}, "
                  f"Chromium's CPU share {share[game]:.2f}", file=sys.stderr)
        ctx.close()
    server.shutdown()

    record = {"about": "Iterations the page's search reaches per move, per game, budget and "
                       "stage (benchmarks/browser_caps.py): the median over the decisions "
                       "measured. game.bots.search plays at them with the setting browser=1.",
              "budgets_s": budgets, "quantile": "median",
              "machine": {**machine(load), "chromium_cpu_share": share},
              "games": {}, "decisions": {}, "reached": {}}
    for game in games:
        stages = tuple(rules_of(game).STAGES)
        record["games"][game], record["decisions"][game], record["reached"][game] = caps(
            results[game], stages, budgets[game])
    print(f"load average (1 min) during the run: {', '.join(f'{x:.2f}' for x in load)} "
          f"on {os.cpu_count()} cores; {record['machine']['cpu']}; Chromium's CPU share "
          + ", ".join(f"{g} {x:.2f}" for g, x in share.items()))
    for game in games:
        print(f"{game:16}{'stage':10}{'n':>3}"
              + "".join(f"{f'{lv} {b:g} s':>13}" for lv, b in budgets[game].items()))
        for stage, n in record["decisions"][game].items():
            print(f"{'':16}{stage:10}{n:3d}"
                  + "".join(f"{record['games'][game][lv][stage]:13d}" for lv in budgets[game]))
    if not args.dry_run:
        path = Path(args.out)
        path.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
        print(f"written: {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
