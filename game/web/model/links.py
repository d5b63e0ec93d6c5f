"""What the page's address asks for, read once at start-up, with no browser
import: `?game=`, `?deal=`, `?lesson`, `?lang=`, `?speed=`, `?bench`. Every
parameter of no use (an unknown name, or a known one with a value it cannot
take) is reported alike, never a crash.

>>> link = read_link([("game", "dracula"), ("deal", "12"), ("x", "1"), ("speed", "warp")])
>>> link.game, link.deal, link.speed, link.ignored
('dracula', 12, None, ['x', 'speed=warp'])
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Callable

from game import GAMES
from game.web.draw.i18n import pick_language
from game.web.model.inputs import BadNumber, read_int
from game.web.draw.start_screen import SPEEDS

STAY_IN_ADDRESS = {"lang", "speed", "bench", "join", "watch"}  # what a reload may read again


@dataclass(frozen=True)
class Link:
    game: str | None = None
    deal: int | None = None
    lesson: bool = False
    lang: str | None = None
    speed: str | None = None
    bench: bool = False
    join: str | None = None  # an online table's invite (game.web.runtime.online_door)
    watch: str | None = None  # an online table's watch link: the invite's value, no seat
    code: str | None = None  # with it, the host's code: joined with no third party
    ignored: list[str] = field(default_factory=list)


CODE = re.compile(r"[A-Za-z0-9+/~_,.:-]{10,1000}")  # game.web.online.connection.pack's code
JOIN = re.compile(r"^([a-z-]{1,30})\.([A-Za-z0-9_-]{8,64})\.([A-Za-z0-9_-]{8,64})"
                  r"(?:\.([AB][A-Za-z0-9_-]{43}))?$")


def read_join(value: str) -> tuple[str, str, str, str | None] | None:
    """An online table's invite (game.web.runtime.online_door): its (game, room, secret,
    the host's public key or None), or None if it is none of ours.

    >>> read_join("dracula.abcdefgh12.s3cret-s3cret")
    ('dracula', 'abcdefgh12', 's3cret-s3cret', None)
    >>> read_join("dracula.abcdefgh12.s3cret-s3cret." + "A" * 44)[3] == "A" * 44
    True
    >>> read_join("chess.abcdefgh12.s3cret-s3cret") is None
    True
    """
    match = JOIN.match(value)
    if match is None or match.group(1) not in GAMES:
        return None
    return match.group(1), match.group(2), match.group(3), match.group(4)


def _deal(value: str) -> bool:
    try:
        read_int(value, "deal", hi=2**31 - 1)
        return True
    except BadNumber:
        return False


VALID: dict[str, Callable[[str], bool]] = {
    "game": lambda v: v in GAMES,
    # a language of ours ('fr-CA' counts) when no fallback decides for it
    "lang": lambda v: pick_language(v, "de") == pick_language(v, "fr"),
    "speed": lambda v: v in SPEEDS,
    "deal": _deal,
    "bench": lambda v: True,
    "lesson": lambda v: v in ("", "1"),  # the rules pages' "Learn by playing"
    "join": lambda v: read_join(v) is not None,
    "watch": lambda v: read_join(v) is not None,  # `?watch=`: the invite's value, to watch
    "code": lambda v: CODE.fullmatch(v) is not None,
}


def read_link(params: list[tuple[str, str]]) -> Link:
    bad = [name for name in dict.fromkeys(k for k, _ in params) if name not in VALID]
    bad += [f"{k}={v:.20}" for k, v in params if k in VALID and not VALID[k](v)]
    good = {k: v for k, v in params if k in VALID and VALID[k](v)}
    return Link(game=good.get("game"),
                deal=read_int(good["deal"], "deal") if "deal" in good else None,
                lesson="lesson" in good, lang=dict(params).get("lang"),
                speed=good.get("speed"), bench="bench" in dict(params), join=good.get("join"),
                watch=good.get("watch"), code=good.get("code"),
                ignored=bad)


def kept_in_address(params: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """What stays in the address once the link was read: the language and
    pace, which replace nothing (a reload resumes the game in progress)."""
    return [(k, v) for k, v in params if k in STAY_IN_ADDRESS]


def forget_link(search: str) -> str | None:
    """The address's query once the link was read (`kept_in_address`), or
    None if it keeps everything.

    >>> forget_link("?game=dracula&lang=fr&seed=7")
    '?lang=fr'
    >>> forget_link("?game=dracula"), forget_link("?lang=fr") is None
    ('', True)
    """
    from urllib.parse import parse_qsl, quote

    params = parse_qsl(search.lstrip("?"), keep_blank_values=True)
    kept = kept_in_address(params)
    if kept == params:
        return None
    query = "&".join(f"{k}={quote(v, safe=URI_COMPONENT_SAFE)}" for k, v in kept)
    return f"?{query}" if query else ""


URI_COMPONENT_SAFE = "-_.!~*'()"  # what JavaScript's encodeURIComponent leaves as it is
