"""The command line: replay, analyse, simulate, play, serve.

    python -m game replay FILE [--watcher]
    python -m game analyse FILE... [--seat S] [--hand N] [--json]
        [--iterations N] [--workers N | --scheduler A]
    python -m game simulate --game jekyll-hyde --bots heuristic,random --games 1000 --seed 1
        [--workers N | --scheduler tcp://HOST:8786]
    python -m game play [--game jekyll-hyde] [--seat 0] [--bots heuristic]
    python -m game serve [--port 8000] [--host 127.0.0.1]
    python -m game build [--out site]
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import random
import re
import sys
from functools import lru_cache
from typing import Any, Callable, TextIO

from game import GAMES, game_module, game_options, new_game
from game.core.state import BadOptionsError, GameError, Player, State

MAX_OPTIONS_TEXT = 10_000


def _options(text: str | None) -> dict[str, Any] | None:
    if text is None:
        return None
    if len(text) > MAX_OPTIONS_TEXT:
        raise BadOptionsError(f"--options is longer than {MAX_OPTIONS_TEXT} characters",
                              code="options_too_long")
    try:
        options = json.loads(text)
    except json.JSONDecodeError as e:
        raise BadOptionsError(f"--options is not JSON: {e.msg}", code="not_json") from e
    except (ValueError, RecursionError) as e:  # a 4301-digit number, 100,000 brackets
        why = "nested too deeply" if isinstance(e, RecursionError) else "a number too long"
        raise BadOptionsError(f"--options is not JSON we can read: {why}",
                              code="not_json") from e
    if not isinstance(options, dict):
        raise BadOptionsError('--options must be a JSON object, e.g. \'{"players": 3}\'',
                              code="invalid_field", params={"path": "options"})
    return options


@lru_cache(maxsize=1)
def _options_help() -> str:
    """Every game's options, for --help: declared once, in each game's rules."""
    lines = ["options (--options as JSON, e.g. '{\"players\": 3}'):"]
    for game_id in GAMES:
        lines.append(f"  {game_id}:")
        lines += [f"    {spec.summary()}" for spec in game_options(game_id)]
    return "\n".join(lines)


def cmd_replay(args: argparse.Namespace) -> int:
    from game.core.transcript import Transcript

    state = Transcript.load(args.file).replay()
    shown = state.public_observation() if args.watcher else state.to_json()
    json.dump(shown, sys.stdout, indent=1 if args.pretty else None)
    sys.stdout.write("\n")
    return 0


def cmd_analyse(args: argparse.Namespace) -> int:
    from game.analysis import analyse_files
    from game.core.match import workers_from_args

    analyses = analyse_files(args.files, args.seat, args.hand, workers_from_args(args),
                             args.iterations)
    for path, analysis in zip(args.files, analyses):
        if args.json:
            print(json.dumps({"file": path, **analysis.to_json()}))
        else:
            print(f"{path}: {analysis.text()}")
    return 0


def cmd_simulate(args: argparse.Namespace) -> int:
    from game.core.match import simulate, workers_from_args

    bots = [b.strip() for b in args.bots.split(",")]
    workers = workers_from_args(args)
    progress: Callable[[int], None] | None = None
    if not args.json and sys.stderr.isatty():
        def progress(n: int) -> None:
            print(f"\r{n}/{args.games}", end="", file=sys.stderr, flush=True)
    result = simulate(args.game, bots, args.games, args.seed, _options(args.options), progress,
                      workers)
    if progress is not None:
        print(file=sys.stderr)
    if args.json:
        print(json.dumps(result.to_json()))
    else:
        print(result.table())
    return 0


def cmd_play(args: argparse.Namespace, stdin: TextIO | None = None) -> int:
    from game.bots import make_bot

    stdin = sys.stdin if stdin is None else stdin  # read at the call: a test may redirect it

    module = game_module(args.game)
    state = new_game(args.game, _options(args.options), args.seed)
    seat = state.to_act if args.seat is None else _player(state, args.seat)
    me = state.identity(seat)  # with 3 players a name: seats rotate between hands
    rng = random.Random(args.seed)
    bot = make_bot(args.game, args.bots)
    text = importlib.import_module(module.__name__ + ".text")
    print(text.intro(state.observation(seat)))
    while state.to_act is not None:
        player = state.to_act
        if state.identity(player) != me:
            action = bot.choose(state.observation(player), state.legal_actions(), rng)
            print(text.describe(state, action))
            state = state.apply(action)
            continue
        seat = player
        obs = state.observation(seat)
        print(text.render(obs))
        legal = obs["legal"]
        print("  ".join(f"{i}) {a}" for i, a in enumerate(legal, 1)))
        while True:
            print("your move (number or action, q to quit): ", end="", flush=True)
            line = stdin.readline()
            if not line:
                print("\nend of input: game left unfinished")
                return 0
            choice = line.strip()
            if choice in ("q", "quit"):
                return 0
            if re.fullmatch("[0-9]{1,4}", choice) and 1 <= int(choice) <= len(legal):
                choice = legal[int(choice) - 1]
            try:
                after = state.apply(choice)
            except GameError as e:
                print(f"  not possible: {e}")
                continue
            print(text.describe(state, choice))
            state = after
            break
    print(text.final(state.observation(seat)))
    return 0


def _player(state: State, text: str) -> Player:
    for p in state.players:
        if str(p) == text:
            return p
    raise GameError(f"--seat {text!r}: players are {', '.join(map(str, state.players))}",
                    code="unknown_seat", params={"seat": text})


def cmd_serve(args: argparse.Namespace) -> int:
    from game.build import serve

    return serve(port=args.port, rebuild=args.rebuild, host=args.host)


def cmd_build(args: argparse.Namespace) -> int:
    from game.build import main as build_main

    return build_main(["--out", args.out] if args.out else [])


def parser() -> argparse.ArgumentParser:
    from game.core.match import add_workers_arguments

    p = argparse.ArgumentParser(prog="python -m game", description=__doc__.split("\n")[0])
    sub = p.add_subparsers(dest="command", required=True)

    r = sub.add_parser("replay", help="replay a transcript and print the final state as JSON")
    r.add_argument("file")
    r.add_argument("--pretty", action="store_true", help="indent the JSON")
    r.add_argument("--watcher", action="store_true",
                   help="print what a watcher without a seat sees (no hidden card)")
    r.set_defaults(run=cmd_replay)

    a = sub.add_parser("analyse", help="what the expert would have played at each of a seat's "
                                       "decisions, from that seat's view, and what each cost")
    a.add_argument("files", nargs="+", metavar="FILE", help="transcripts of games")
    a.add_argument("--seat", help="the seat or player to analyse (default: the file's 'me', "
                                  "else the first)")
    a.add_argument("--hand", type=int, help="only this hand (1 for the first)")
    a.add_argument("--json", action="store_true", help="print one JSON object a file")
    a.add_argument("--iterations", type=int, metavar="N",
                   help="the search's iterations a decision (default: twice what the page's "
                        "expert reaches in its budget)")
    add_workers_arguments(a)
    a.set_defaults(run=cmd_analyse)

    s = sub.add_parser("simulate", help="bot against bot on seat-swapped seeded deals",
                       epilog=_options_help(),
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    s.add_argument("--game", required=True, choices=list(GAMES))
    s.add_argument("--bots", required=True, help="two bot names, e.g. heuristic,random")
    s.add_argument("--games", type=int, default=100)
    s.add_argument("--seed", type=int, default=0)
    s.add_argument("--options", help="game options as JSON")
    s.add_argument("--json", action="store_true", help="print one JSON object")
    add_workers_arguments(s)
    s.set_defaults(run=cmd_simulate)

    g = sub.add_parser("play", help="play in the terminal against bots", epilog=_options_help(),
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    g.add_argument("--game", default="jekyll-hyde", choices=list(GAMES))
    g.add_argument("--seat", help="your seat or role (default: the first)")
    g.add_argument("--bots", default="heuristic", help="the bot at every other seat")
    g.add_argument("--seed", type=int)
    g.add_argument("--options", help="game options as JSON")
    g.set_defaults(run=cmd_play)

    v = sub.add_parser("serve", help="build the site if needed and serve it (on 127.0.0.1 unless --host)")
    v.add_argument("--port", type=int, default=8000)
    v.add_argument("--host", default="127.0.0.1",
                   help="address to listen on, e.g. 0.0.0.0 for a phone on the same network")
    v.add_argument("--rebuild", action="store_true", help="build even if up to date")
    v.set_defaults(run=cmd_serve)

    b = sub.add_parser("build", help="assemble the static site (default: ./site)")
    b.add_argument("--out", help="output folder (default: site/ beside game/)")
    b.set_defaults(run=cmd_build)
    return p


def main(argv: list[str] | None = None) -> int:
    # A character the terminal cannot show (an ASCII locale) prints as '?',
    # and one it cannot read (`é` typed under PYTHONIOENCODING=ascii:strict)
    # reads as U+FFFD, an action like any unknown one: never a crash.
    for stream in (sys.stdin, sys.stdout, sys.stderr):
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="replace")
    args = parser().parse_args(argv)
    try:
        status: int = args.run(args)
        sys.stdout.flush()  # a reader that left shows here, not at exit (status 120)
        return status
    except GameError as e:
        message = " ".join(str(e).splitlines())
        print(f"error: {message}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader left (`... | head`): stop quietly, like other Unix tools,
        # and point stdout at devnull so the final flush does not complain.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 141


if __name__ == "__main__":
    sys.exit(main())
