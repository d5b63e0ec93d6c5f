"""The worker's wires (game/web/dom/wire.py) under CPython: each wire's
orders posted as frames for the page (static/js/wire-host.mjs), and the
page's events and answers routed back to the wire they are for."""

from __future__ import annotations

import ast
import asyncio
import base64
import re
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from game.online import proof
from game.online.wire import (KeyedWire, PeerJoined, PeerLeft, PeerPath, Received, RelaysChanged,
                              WireFailed)
from game.web.online import connection
from game.web.online.connection import BadCode, Description, pack, unpack
from game.web.dom import worker_online, wire
from game.web.dom.wire import LinkWire, RelayWire, Switchboard, WireError
from tests.page_kit import run_alone
from tests.test_online_connection import CHROMIUM_OFFER

ROOT = Path(__file__).resolve().parent.parent
ANSWER = CHROMIUM_OFFER.replace("a=setup:actpass", "a=setup:active")


class Page:
    """The page's side: what was posted to it, and a board to answer through."""

    def __init__(self) -> None:
        self.frames: list[dict[str, Any]] = []
        self.board = Switchboard(self.frames.append)

    def orders(self) -> list[dict[str, Any]]:
        return [f["wire"] for f in self.frames]

    def tell(self, **event: Any) -> None:
        self.board.heard({"kind": "wire", **event})


def test_a_relay_wire_posts_its_orders_and_hears_its_own_events_only():
    page = Page()
    heard: list[Any] = []
    first = RelayWire(("ws://127.0.0.1:1",), (), board=page.board)
    first.open("room-1", "secret", heard.append)
    other: list[Any] = []
    second = RelayWire(board=page.board)
    second.open("room-2", "other", other.append)
    opened = page.orders()
    assert opened[0] == {"id": 1, "open": "relays", "appId": connection.APP_ID, "room": "room-1",
                         "secret": "secret", "relays": ["ws://127.0.0.1:1"], "iceServers": [],
                         "max": connection.MAX_MESSAGE, "wait": 8000, "key": None,
                         "turn": None}
    assert opened[1]["id"] == 2 and opened[1]["relays"] == list(connection.RELAYS)
    assert opened[1]["iceServers"] == [{"urls": u} for u in connection.STUN]
    page.tell(id=1, event="me", peer="me-1")
    page.tell(id=1, event="joined", peer="p")
    page.tell(id=1, event="received", peer="p", text="hi")
    page.tell(id=2, event="joined", peer="q")
    page.tell(id=1, event="left", peer="p")
    page.tell(id=1, event="relays", up=True, reached=3, of=6)  # counted every 2 s from the start
    page.tell(id=1, event="relays", up=False, reached="3", of=6)  # (not a count: none said)
    page.tell(id=1, event="failed", code="no-relay")
    page.tell(id=9, event="joined", peer="nobody's")
    page.tell(id="1", event="joined", peer="not a number")
    assert first.me == "me-1" and second.me == ""
    assert heard == [PeerJoined("p"), Received("p", "hi"), PeerLeft("p"),
                     RelaysChanged(True, 3, 6), RelaysChanged(False), WireFailed("no-relay")]
    assert other == [PeerJoined("q")]
    first.send("p", "hello")
    first.close()
    first.send("p", "after")  # dropped: the wire is closed
    page.tell(id=1, event="joined", peer="late")
    assert page.orders()[2:] == [{"id": 1, "send": ["p", "hello"]}, {"id": 1, "close": True}]
    assert heard[-1] == WireFailed("no-relay") and list(page.board.wires) == [2]


def test_a_relay_wire_says_each_peers_path_and_keeps_who_is_relayed():
    page = Page()
    heard: list[Any] = []
    relays = RelayWire(("ws://127.0.0.1:1",), (), board=page.board)
    relays.open("room-1", "secret", heard.append)
    page.tell(id=1, event="joined", peer="p")
    page.tell(id=1, event="path", peer="p", relayed=True)
    page.tell(id=1, event="joined", peer="q")
    page.tell(id=1, event="path", peer="q", relayed=False)
    assert relays.relayed == {"p"}
    page.tell(id=1, event="path", peer="p", relayed=False)  # a direct channel opened later
    page.tell(id=1, event="path", peer="q", relayed="yes")  # (only true is relayed)
    assert relays.relayed == set()
    page.tell(id=1, event="path", peer="q", relayed=True)  # its channel dropped: relayed again
    page.tell(id=1, event="left", peer="q")
    assert relays.relayed == set()
    assert heard == [PeerJoined("p"), PeerPath("p", True), PeerJoined("q"), PeerPath("q", False),
                     PeerPath("p", False), PeerPath("q", False), PeerPath("q", True), PeerLeft("q")]


def test_a_relay_wire_says_which_direct_channel_goes_through_a_turn_server():
    page = Page()
    heard: list[Any] = []
    relays = RelayWire(("ws://127.0.0.1:1",), (), board=page.board)
    relays.open("room-1", "secret", heard.append)
    page.tell(id=1, event="path", peer="p", relayed=False, turn=True)
    page.tell(id=1, event="path", peer="q", relayed=False, turn="yes")  # (only true is)
    page.tell(id=1, event="path", peer="r", relayed=True, turn=True)  # (relayed: no channel)
    assert heard == [PeerPath("p", False, True), PeerPath("q", False), PeerPath("r", True)]
    assert [e.way for e in heard] == ["turn", "direct", "relayed"]


def test_a_relay_wire_is_told_the_tables_key_for_its_relayed_path():
    page = Page()
    point = bytes.fromhex("04" + "6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296"
                               "4fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5")
    guest, host, plain = (RelayWire(board=page.board) for _ in range(3))
    assert isinstance(guest, KeyedWire) and not isinstance(LinkWire(board=page.board), KeyedWire)
    guest.keyed(proof.compress(point))
    host.keyed(proof.compress(point), '{"kty": "EC"}')
    for wire_ in (guest, host, plain):
        wire_.open("room", "secret", lambda e: None)
    keys = [order["key"] for order in page.orders()]
    expanded = base64.urlsafe_b64encode(point).decode().rstrip("=")
    assert keys == [{"verify": expanded}, {"sign": '{"kty": "EC"}'}, None]
    broken = RelayWire(board=page.board)
    broken.keyed("A" + "_" * 43)  # not a point: no key (a guest then trusts who answers)
    assert broken.key is None


def test_a_link_wire_packs_the_descriptions_the_page_gathers():
    async def run() -> None:
        page = Page()
        host = LinkWire(board=page.board)
        host.open("", "", lambda e: None)
        invited = asyncio.ensure_future(host.invite())
        await asyncio.sleep(0)
        ask = page.orders()[-1]
        assert ask == {"id": 1, "ask": 1, "invite": True}
        page.tell(id=1, reply=1, value=["link-1", CHROMIUM_OFFER])
        peer, code = await invited
        assert peer == "link-1" and code == pack(Description("offer", CHROMIUM_OFFER))
        with pytest.raises(BadCode):
            host.accept("link-1", "not a code")
        with pytest.raises(ValueError):  # an invitation is no answer
            host.accept("link-1", code)
        answer = pack(Description("answer", ANSWER))
        with pytest.raises(ValueError):  # no such invitation
            host.accept("link-2", answer)
        accepted = host.accept("link-1", answer)
        assert page.orders()[-1] == {"id": 1, "ask": 2, "accept": ["link-1", unpack(answer).sdp]}
        page.tell(id=1, reply=2, value=None)
        assert await accepted is None

        guest = LinkWire(board=page.board)
        guest.open("", "", lambda e: None)
        with pytest.raises(ValueError):  # an answer is no invitation
            guest.answer(answer)
        answering = asyncio.ensure_future(guest.answer(code))
        await asyncio.sleep(0)
        assert page.orders()[-1] == {"id": 2, "ask": 1, "answer": unpack(code).sdp}
        page.tell(id=2, reply=1, value=ANSWER)
        assert await answering == answer
        again = asyncio.ensure_future(guest.answer(code))
        await asyncio.sleep(0)
        page.tell(id=2, reply=2, error="Error: no WebRTC")
        with pytest.raises(WireError):
            await again
    run_alone(run())  # its own loop: Playwright's runs in a full test run


def test_an_answer_for_a_closed_wire_is_dropped_and_its_question_cancelled():
    async def run() -> None:
        page = Page()
        guest = LinkWire(board=page.board)
        guest.open("", "", lambda e: None)
        answering = asyncio.ensure_future(guest.answer(pack(Description("offer", CHROMIUM_OFFER))))
        await asyncio.sleep(0)
        guest.close()
        page.tell(id=1, reply=1, value=ANSWER)
        with pytest.raises(asyncio.CancelledError):
            await answering
    run_alone(run())  # its own loop: Playwright's runs in a full test run


def _online() -> SimpleNamespace:
    return SimpleNamespace(online=SimpleNamespace(grace=None))


def test_the_worker_sets_the_wires_and_only_a_tests_hooks_change_them():
    ctrl = _online()
    worker_online.install(ctrl, "http://127.0.0.1/jekyll/", {})  # type: ignore[arg-type]
    online = ctrl.online
    assert online.address == "http://127.0.0.1/jekyll/" and online.grace is None
    published = online.make_wire()
    assert isinstance(published, RelayWire) and published.relays == connection.RELAYS
    assert published.board is wire.BOARD
    assert isinstance(online.make_code_wire(), LinkWire)
    assert online.load is not None
    ctrl = _online()
    worker_online.install(ctrl, "", {"relay": "ws://127.0.0.1:7", "grace": 4})  # type: ignore[arg-type]
    test_wire = ctrl.online.make_wire()
    assert (test_wire.relays, test_wire.ice_servers) == (("ws://127.0.0.1:7",), ())
    assert ctrl.online.grace == 4.0
    ctrl = _online()
    worker_online.install(ctrl, "", {"relay": ["x"], "grace": True})  # type: ignore[arg-type]
    assert ctrl.online.make_wire().relays == connection.RELAYS and ctrl.online.grace is None


def test_the_page_routes_wire_events_to_the_worker_board():
    heard: list[Any] = []
    relay = RelayWire()
    relay.board = Switchboard(lambda frame: None)
    number = relay.board.plug(relay)
    relay.heard = heard.append
    saved = wire.BOARD
    wire.BOARD = relay.board
    try:
        worker_online.heard({"kind": "wire", "id": number, "event": "joined", "peer": "p"})
    finally:
        wire.BOARD = saved
    assert heard == [PeerJoined("p")]


def test_the_tests_probe_uses_the_games_constants():
    probe = (ROOT / "static" / "js" / "wire-probe.mjs").read_text(encoding="utf-8")

    def const(name: str) -> str:
        found = re.search(rf"const {name} = (.+);", probe)
        assert found, name
        return found.group(1)
    assert const("APP_ID") == f'"{connection.APP_ID}"'
    assert int(const("MAX_MESSAGE")) == connection.MAX_MESSAGE
    assert int(const("RELAY_WAIT_MS")) == round(wire.RELAY_WAIT_S * 1000)


@pytest.mark.parametrize("module", ["worker.py", "worker_online.py"])
def test_the_worker_starts_without_online_plays_part(module):
    """What the worker imports at its start is in game.zip: online play's
    modules (online.zip) are imported only once `Online.load` fetched them."""
    from game.build import PARTS

    tree = ast.parse((ROOT / "game" / "web" / "dom" / module).read_text(encoding="utf-8"))
    started, nodes = [], list(tree.body)
    while nodes:  # what runs on import: not a function's body, not `if TYPE_CHECKING:`
        node = nodes.pop()
        if isinstance(node, ast.ImportFrom) and node.module:
            started += [f"{node.module}.{a.name}" for a in node.names] + [node.module]
        elif isinstance(node, ast.Import):
            started += [a.name for a in node.names]
        elif isinstance(node, (ast.If, ast.Try, ast.ClassDef)) and not (
                isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING"):
            nodes += [n for n in ast.iter_child_nodes(node) if isinstance(n, ast.stmt)]
    paths = [name.replace(".", "/") + "." for name in started]
    assert not [p for p in paths if p.startswith(PARTS["online"])]
