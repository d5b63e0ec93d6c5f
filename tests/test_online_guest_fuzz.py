"""Anything at all from the host's peer (issue 57, item 4): over whole games
of every mode, each message the host sends a guest comes after random and
mutated copies of messages of every type, from the host's own peer. No
exception escapes to the page's guard, the guest's seat token stays kept,
and the game still ends with the guest's transcript the host's.

A mutated copy never claims a newer state than the host has sent: a page
that jumped ahead would ignore the host's real updates until the next one
(numbered updates and the host's resend are what bring it back)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from game.online import messages as m
from game.online.wire import Received
from game.web.runtime import online_door as ol
from tests.page_kit import items
from tests.test_online_play_page import seated

MODES = {"werner-4": ("jekyll-hyde", {"players": "4", "jh_me": "0", "jh_bot": "random"}),
         "werner-3": ("jekyll-hyde", {"players": "3", "jh_me": "0", "jh_bot": "random"}),
         "duel": ("jekyll-vs-hyde", {"jvh_role": "J", "jvh_bot": "random"}),
         "return-match": ("jekyll-vs-hyde", {"jvh_role": "J", "jvh_bot": "random",
                                             "variant": "return-match"}),
         "dracula": ("dracula", {"dr_bot": "random"})}
ODD = [None, True, -1, 0, 10**12, 2.5, "", "ZZ9", "x" * 300, [], [None], {}, {"a": [1]},
       ["P1", "P1"], {"J": "ten"}]


def odd(rng: random.Random, like: Any = None) -> Any:
    """A value of the wrong kind, or a piece of the message it replaces."""
    if isinstance(like, list) and like and rng.random() < 0.3:
        return rng.sample(like, rng.randint(0, len(like)))
    if isinstance(like, dict) and like and rng.random() < 0.3:
        return mutate(rng, like, depth=1)
    return rng.choice(ODD)


def mutate(rng: random.Random, data: dict[str, Any], depth: int = 0) -> dict[str, Any]:
    out = dict(data)
    for _ in range(rng.randint(1, 3)):
        if not out:
            break
        key = rng.choice(sorted(out))
        roll = rng.random()
        if roll < 0.2:
            del out[key]
        elif roll < 0.45 and isinstance(out[key], dict) and depth < 2:
            out[key] = mutate(rng, out[key], depth + 1)
        else:
            out[key] = odd(rng, out[key])
    return out


def spoilt(rng: random.Random, text: str, newest: int) -> str:
    """A random or mutated host message, never newer than state `newest`."""
    roll = rng.random()
    if roll < 0.1:
        return text[: rng.randint(0, len(text))]  # cut short
    if roll < 0.25:
        kind = rng.choice(sorted(m.HOST_TYPES))
        data: dict[str, Any] = {"v": 3, "type": kind,
                                **{rng.choice(["game", "you", "player", "observation", "log",
                                               "turn", "seats", "code", "params", "seat",
                                               "key", "token"]): odd(rng) for _ in range(3)}}
    else:
        data = mutate(rng, json.loads(text))
        data["type"] = json.loads(text)["type"] if rng.random() < 0.8 else odd(rng)
    if "state" in data or rng.random() < 0.5:
        data["state"] = rng.randint(0, max(newest, 0))
    return json.dumps(data)


# The quick run fuzzes a duel and Dracula; the longer games (the Werner games, the
# return match: the duel's messages over two legs): the full run.
@pytest.mark.parametrize("mode", [mode if mode in ("duel", "dracula")
                                  else pytest.param(mode, marks=pytest.mark.slow)
                                  for mode in MODES])
def test_nothing_from_the_hosts_peer_knocks_the_guest_over(mode):
    game, setup = MODES[mode]
    pages = seated(game, setup, ["Ann"])
    guest, screen = pages.guests[0]
    host = guest.page.online.guest.host
    seat_token = next(k for k in items(guest) if k.startswith("jhg.online.seat."))
    kept = items(guest)[seat_token]
    rng = random.Random(f"fuzz-{mode}")
    newest = [0]
    heard = lambda event: ol.heard(guest, event)

    def hears_worse_first(event):  # every message from the host, after its spoilt copies
        if isinstance(event, Received) and event.peer == host:
            data = json.loads(event.text)
            for _ in range(rng.randint(1, 2)):
                heard(Received(host, spoilt(rng, event.text, newest[0])))
                assert screen.errors == [], event.text[:80]
            newest[0] = max(newest[0], data.get("state", 0) if isinstance(
                data.get("state"), int) else 0)
        heard(event)

    guest.online.wire.net.rooms[guest.online.wire.room][
        guest.online.wire.me] = hears_worse_first
    pages.play()
    pages.net.pump()
    assert screen.errors == []
    assert items(guest)[seat_token] == kept
    assert guest.page.online.guest.transcript == pages.host.session.save["transcript"]
