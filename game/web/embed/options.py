"""embed.html: a scripted example step by step, or a live table with fixed options.

    embed.html?game=jekyll-hyde&scenario=designation&step=3&lang=fr
    embed.html?game=dracula&seed=5&bots=strong&lang=it          (a live game)

A scenario is a NAME (`[a-z0-9-]+`), read from the site's own
`static/scenarios/<game>/<name>.json` by a relative URL: a URL, a path or
anything else is refused with a message in the frame, so an embed can never
load a file from another origin. The table is drawn by the game's own
renderer (game.web.draw.tables) from the observation of one player for the whole
example (`seat=`, else the first to decide), as a spectator sees it: nobody is
"you".

This module checks the parameters and replays a scenario; the worker's
game is game.web.embed.game, the page's front game.web.front.embedded.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from game.web.model.inputs import BadNumber, read_int
from game.web.model.replay import word

if TYPE_CHECKING:
    from game.core.state import State
    from game.core.transcript import Transcript

NAME = re.compile(r"[a-z0-9-]{1,64}")
SCENARIO_PARAMS = {"game", "scenario", "step", "lang", "seat", "autoplay"}
# A live table's parameters besides its game's options (see live_params).
LIVE_PARAMS = {"game", "lang", "seed", "bots", "seat", "role", "first", "speed"}


class EmbedError(ValueError):
    """A parameter or a scenario that cannot be shown; the message is for the reader."""


def parse(query: dict[str, str], games: list[str], lang: str) -> dict[str, Any]:
    """Check the parameters: {"mode": "scenario"|"live", ...}, or raise EmbedError."""
    game = query.get("game", "")
    if game not in games:
        raise EmbedError(word(lang, "err.game", value=game, games=", ".join(games)))
    if "scenario" in query:
        name = query["scenario"]
        if not NAME.fullmatch(name):
            raise EmbedError(word(lang, "err.scenario", value=name))
        unknown = sorted(set(query) - SCENARIO_PARAMS)
        if unknown:
            raise EmbedError(word(lang, "err.param", names=", ".join(unknown)))
        step = query.get("step", "0").strip() or "0"
        try:
            first = read_int(step, "step", hi=10_000)
        except BadNumber:
            raise EmbedError(word(lang, "err.step", value=step[:20])) from None
        return {"mode": "scenario", "game": game, "name": name, "step": first,
                "seat": query.get("seat"), "autoplay": query.get("autoplay") in ("1", "true"),
                "url": f"./static/scenarios/{game}/{name}.json"}
    unknown = sorted(set(query) - live_params(game))
    if unknown:
        raise EmbedError(word(lang, "err.param", names=", ".join(unknown)))
    return {"mode": "live", "game": game, "setup": live_setup(game, query, lang)}


def live_params(game: str) -> set[str]:
    """The parameters of a live `game`: LIVE_PARAMS and its start screen's engine options."""
    from game.web.draw.tables import renderer

    return LIVE_PARAMS | {field.name for field in renderer(game).OPTION_FIELDS}


def live_setup(game: str, query: dict[str, str], lang: str) -> dict[str, str]:
    """The start-screen values (as game.web.draw.tables' parse_setup reads them) of a live embed."""
    from game.web.draw.tables import renderer

    def pick(name: str, allowed: tuple[str, ...], default: str) -> str:
        value = query.get(name, default)
        if value not in allowed:
            raise EmbedError(word(lang, "err.value", name=name, value=value[:20]))
        return value

    values = {"game": game}
    seed = query.get("seed", "")
    if seed:
        try:
            seed = str(read_int(seed, "seed"))
        except BadNumber:
            raise EmbedError(word(lang, "err.value", name="seed", value=seed[:20])) from None
    values["seed"] = seed
    if "bots" in query:
        from game.bots import levels

        if query["bots"] == "normal":  # the start screen's word for the heuristic
            query = {**query, "bots": "heuristic"}
        bot = pick("bots", tuple(levels(game)), "")
        values.update(renderer(game).every_bot(bot))
    # An engine option on the start screen is a parameter of the same name and choices.
    for field in renderer(game).OPTION_FIELDS:
        values[field.name] = pick(field.name, field.texts(), str(field.spec.default))
    # Which player the person is: page choices, not options of the game.
    values.update(renderer(game).seat_params(values, pick))
    return values


def load_scenario(text: str, params: dict[str, Any],
                  lang: str) -> tuple[Transcript, list[State]]:
    """(transcript, states) of a scenario file's text, or raise EmbedError."""
    from game.core.transcript import Transcript, TranscriptError

    name = params["name"]
    try:
        transcript = Transcript.parse(text, f"the example {name!r}")
        if transcript.game != params["game"]:
            raise TranscriptError(f"it is a {transcript.game} game")
        states = transcript.states()
    except (ValueError, TranscriptError) as e:
        raise EmbedError(word(lang, "err.replay", name=name, reason=str(e))) from e
    return transcript, states
