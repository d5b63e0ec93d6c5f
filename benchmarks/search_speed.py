"""Iterations per CPU second of the search bot, per stage of a game, in this
CPython and in Pyodide (the page's runtime, run by Node: the same wasm
interpreter and V8 as Chromium).

    python benchmarks/search_speed.py [--game dracula] [--per-stage 3] [--src DIR]
        [--settings infer=1] [--cpython-only] [--by-hand]

Not a test: prints a table. Each side searches the same positions (those of
benchmarks/browser_caps.py: heuristic games, `--per-stage` decisions of each
stage) to fixed iteration caps, twice (the first run warms imports and
caches), and divides the iterations by the process's CPU time, so other work
on the machine hardly moves the figures: made for before/after comparisons
on a busy machine (`--src` points at another checkout's `game/`). The caps
the page reaches (benchmarks/browser_caps.py) still need a quiet machine.
`--settings` gives the search bot settings (`infer=1;endgame=2`), for the
cost of one; `--cpython-only` leaves Pyodide out. `--by-hand` splits each
stage by the cards in the player's hand (`late-3`; in Werner's game the
tricks left, its search's `endgame_cards`), for the card games'
exact endgames (`endgame=N;enumerate=1`, where an iteration values one
action in one world and a decision may end before its cap: the CPU
milliseconds a decision are printed too).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYODIDE = ROOT / "node_modules" / "pyodide"

# Iterations per decision: enough for a tenth of a second or more at each stage.
ITERATIONS = {"ways": 150, "tree-8": 150, "exact-7": 150, "exact-6": 500, "exact-5": 1500,
              "exact-4": 1500, "early": 1000, "late": 1000}

# Runs in both interpreters; `cpu_now` is the process's CPU time in seconds.
PROGRAM = """
import json, random, sys
sys.path.insert(0, SRC)
from game.bots.search import SearchBot, rules_of
sys.path.insert(0, SRC + '/benchmarks')
from page_think import positions

rules = rules_of(GAME)
cards = getattr(rules, "endgame_cards", lambda obs: len(obs["hand"]))
observations = positions(GAME, 3, PER_STAGE, per_stage=True)

def run():
    rates = {}
    for i, obs in enumerate(observations):
        stage = rules.stage(obs)
        search = SearchBot(iterations=ITERATIONS[stage], **SETTINGS).start(obs, random.Random(i))
        t0 = cpu_now()
        while not search.finished():
            search.iterate()
        key = f"{stage}-{cards(obs)}" if BY_HAND else stage
        total = rates.setdefault(key, [0, 0.0, 0])
        total[0] += search.iterations
        total[1] += cpu_now() - t0
        total[2] += 1
    return {key: [n / max(t, 1e-9), 1000 * t / d] for key, (n, t, d) in sorted(rates.items())}

run()
RESULT = json.dumps(run())
"""

NODE = """
import { loadPyodide } from %(pyodide)s;
import fs from "node:fs";
import path from "node:path";
const py = await loadPyodide({ indexURL: %(index)s });
function copy(dir, dest) {
  py.FS.mkdirTree(dest);
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) { if (e.name !== "__pycache__") copy(p, dest + "/" + e.name); }
    else if (/\\.(py|json)$/.test(e.name)) py.FS.writeFile(dest + "/" + e.name, fs.readFileSync(p));
  }
}
copy(%(game)s, "/src/game");
py.globals.set("cpu_now", () => { const u = process.cpuUsage(); return (u.user + u.system) / 1e6; });
py.runPython(%(program)s);
console.log(py.globals.get("RESULT"));
"""


def _setup(game: str, per_stage: int, src: str, settings: dict[str, int],
           by_hand: bool) -> str:
    return (f"GAME = {game!r}\nPER_STAGE = {per_stage}\nSRC = {src!r}\n"
            f"ITERATIONS = {ITERATIONS!r}\nSETTINGS = {settings!r}\nBY_HAND = {by_hand!r}\n")


def cpython(game: str, per_stage: int, src: Path, settings: dict[str, int],
            by_hand: bool = False) -> dict[str, list[float]]:
    code = "import time\ncpu_now = time.process_time\n" \
        + _setup(game, per_stage, str(src), settings, by_hand) \
        + PROGRAM + "\nprint(RESULT)\n"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=tempfile.gettempdir())
    return json.loads(out.stdout.strip().splitlines()[-1])


def pyodide(game: str, per_stage: int, src: Path, settings: dict[str, int],
            by_hand: bool = False) -> dict[str, list[float]]:
    script = NODE % {"pyodide": json.dumps(str(PYODIDE / "pyodide.mjs")),
                     "index": json.dumps(str(PYODIDE) + "/"),
                     "game": json.dumps(str(src / "game")),
                     "program": json.dumps(_setup(game, per_stage, "/src", settings, by_hand)
                                          + PROGRAM)}
    with tempfile.NamedTemporaryFile("w", suffix=".mjs", delete=False) as f:
        f.write(script)
    try:
        out = subprocess.run(["node", f.name], capture_output=True, text=True, check=True)
    finally:
        os.unlink(f.name)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default="dracula")
    ap.add_argument("--per-stage", type=int, default=3)
    ap.add_argument("--src", default=str(ROOT), help="the checkout whose game/ to time")
    ap.add_argument("--settings", default="", help="the search bot's settings: infer=1;...")
    ap.add_argument("--cpython-only", action="store_true")
    ap.add_argument("--by-hand", action="store_true",
                    help="each stage split by the cards in hand")
    args = ap.parse_args(argv)
    src = Path(args.src).resolve()
    settings = {k: int(v) for k, _, v in (s.partition("=") for s in args.settings.split(";") if s)}
    load = os.getloadavg()[0]
    cp = cpython(args.game, args.per_stage, src, settings, args.by_hand)
    pyo = {} if args.cpython_only else pyodide(args.game, args.per_stage, src, settings,
                                               args.by_hand)
    print(f"{args.game} from {src}{' ' + args.settings if settings else ''}: iterations per "
          f"CPU second; load average {load:.1f} before, {os.getloadavg()[0]:.1f} after, "
          f"on {os.cpu_count()} cores")
    print(f"{'stage':10}{'CPython':>10}{'Pyodide':>10}{'ratio':>7}"
          f"{'ms/decision CPython':>21}{'Pyodide':>9}")
    for stage, (rate, ms) in cp.items():
        if stage in pyo:
            print(f"{stage:10}{rate:10.0f}{pyo[stage][0]:10.0f}{rate / pyo[stage][0]:6.2f}x"
                  f"{ms:21.1f}{pyo[stage][1]:9.1f}")
        else:
            print(f"{stage:10}{rate:10.0f}{'':17}{ms:21.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
