"""A minimal Nostr relay (NIP-01's EVENT, REQ and CLOSE) for the online-play
tests: the pages' wire is introduced through it on 127.0.0.1, with no
internet. It keeps events in memory, checks no signature, and sends each
event to every subscription whose filter matches (kinds, since, #tags).
With `max_message` it refuses a longer message, as public relays do (NIP-11's
`limitation.max_message_length`, which it publishes to a request for
`application/nostr+json`).

    with NostrRelay() as relay:
        relay.url  # ws://127.0.0.1:<port>
        relay.stop()  # a relay outage: every socket closed, nobody can connect...
        relay.start()  # ...until it is back, on the same port
"""

from __future__ import annotations

import asyncio
import json
import threading
from typing import Any

from tornado.httpserver import HTTPServer
from tornado.netutil import bind_sockets
from tornado.web import Application
from tornado.websocket import WebSocketClosedError, WebSocketHandler


def matches(event: dict[str, Any], wanted: dict[str, Any]) -> bool:
    """Whether `event` passes one NIP-01 filter.

    >>> e = {"kind": 20001, "created_at": 10, "tags": [["x", "t"]], "pubkey": "p", "id": "i"}
    >>> matches(e, {"kinds": [20001], "#x": ["t"], "since": 10}), matches(e, {"#x": ["u"]})
    (True, False)
    """
    if "kinds" in wanted and event.get("kind") not in wanted["kinds"]:
        return False
    if "since" in wanted and event.get("created_at", 0) < wanted["since"]:
        return False
    for key, field in (("ids", "id"), ("authors", "pubkey")):
        if key in wanted and event.get(field) not in wanted[key]:
            return False
    for key, values in wanted.items():
        if key.startswith("#"):
            tags = {t[1] for t in event.get("tags", []) if len(t) > 1 and t[0] == key[1:]}
            if not tags & set(values):
                return False
    return True


class _Client(WebSocketHandler):
    def initialize(self, relay: NostrRelay) -> None:
        self.relay = relay
        self.subscriptions: dict[str, list[dict[str, Any]]] = {}

    def check_origin(self, origin: str) -> bool:
        return True  # the pages are served from another port

    def open(self, *args: str, **kwargs: str) -> None:
        self.relay.clients.add(self)

    def on_close(self) -> None:
        self.relay.clients.discard(self)

    def say(self, message: list[Any]) -> None:
        try:
            self.write_message(json.dumps(message))
        except WebSocketClosedError:
            pass

    def get(self, *args: Any, **kwargs: Any) -> Any:
        if "application/nostr+json" in self.request.headers.get("Accept", ""):
            limitation = {"max_message_length": self.relay.max_message} if self.relay.max_message else {}
            self.set_header("Content-Type", "application/nostr+json")
            self.set_header("Access-Control-Allow-Origin", "*")
            self.finish(json.dumps({"name": "test relay", "limitation": limitation}))
            return None
        return super().get(*args, **kwargs)

    def on_message(self, message: str | bytes) -> None:
        kind, *rest = json.loads(message)
        if kind == "EVENT" and self.relay.max_message and len(message) > self.relay.max_message:
            self.relay.refused += 1
            self.say(["OK", rest[0].get("id", ""), False, "invalid: message too large"])
        elif kind == "EVENT":
            event = rest[0]
            self.relay.events.append(event)
            self.say(["OK", event["id"], True, ""])
            for client in list(self.relay.clients):
                for sub, filters in client.subscriptions.items():
                    if any(matches(event, f) for f in filters):
                        client.say(["EVENT", sub, event])
        elif kind == "REQ":
            sub, filters = rest[0], rest[1:]
            self.subscriptions[sub] = filters
            for event in self.relay.events:
                if any(matches(event, f) for f in filters):
                    self.say(["EVENT", sub, event])
            self.say(["EOSE", sub])
        elif kind == "CLOSE":
            self.subscriptions.pop(rest[0], None)


class NostrRelay:
    def __init__(self, max_message: int = 0) -> None:
        self.max_message = max_message  # characters of one message; 0: no limit
        self.refused = 0  # messages refused as too long
        self.events: list[dict[str, Any]] = []
        self.clients: set[_Client] = set()
        self.url = ""
        self.port = 0
        self.loop: asyncio.AbstractEventLoop | None = None
        self.thread: threading.Thread | None = None
        self.server: HTTPServer | None = None

    def __enter__(self) -> NostrRelay:
        ready = threading.Event()

        def run() -> None:
            self.loop = asyncio.new_event_loop()
            asyncio.set_event_loop(self.loop)
            self._listen()
            ready.set()
            self.loop.run_forever()
            if self.server is not None:
                self.server.stop()
            self.loop.close()

        self.thread = threading.Thread(target=run, daemon=True)
        self.thread.start()
        ready.wait(10)
        return self

    def _listen(self) -> None:
        sockets = bind_sockets(self.port, "127.0.0.1", reuse_port=False)
        self.server = HTTPServer(Application([(r"/", _Client, {"relay": self})]))
        self.server.add_sockets(sockets)
        self.port = sockets[0].getsockname()[1]
        self.url = f"ws://127.0.0.1:{self.port}"

    def _in_loop(self, step: Any) -> None:
        assert self.loop is not None
        done = threading.Event()

        def run() -> None:
            try:
                step()
            finally:
                done.set()
        self.loop.call_soon_threadsafe(run)
        done.wait(10)

    def stop(self) -> None:
        """The relay goes down: it stops listening and closes every socket."""
        def down() -> None:
            if self.server is not None:
                self.server.stop()
                self.server = None
            for client in list(self.clients):
                client.close()
            self.clients.clear()
        self._in_loop(down)

    def start(self) -> None:
        """The relay is back, on the same port (its events kept)."""
        self._in_loop(self._listen)

    def __exit__(self, *exc: object) -> None:
        assert self.loop is not None and self.thread is not None
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)
