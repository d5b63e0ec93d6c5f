"""Online play's drivers for the game in a worker (game/web/dom/worker.py):
the wires (game.web.dom.wire: their connections live on the page, since a
worker has no WebRTC), online play's modules fetched when first needed, and
the host's signer on the worker's own WebCrypto. Nothing here imports online
play's part (online.zip) before a player chooses online play.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # (online play's part: not in game.zip)
    from game.online.wire import CodeWire, Wire
    from game.web.runtime.controller import Controller


def install(ctrl: Controller, address: str, hooks: dict[str, Any]) -> None:
    """Set `ctrl.online`'s drivers. `hooks` are the browser tests' own relay
    and short grace period (`window.jhgTestRelay`, `window.jhgTestGrace`,
    which only a test's script sets before the page loads: a link cannot, so
    a player's page uses the published relays)."""
    online = ctrl.online
    online.address = address
    online.make_wire = _relay_wire
    online.make_code_wire = _code_wire

    async def load() -> None:
        await _load(ctrl, address)
    online.load = load
    relay, grace = hooks.get("relay"), hooks.get("grace")
    if isinstance(relay, str):
        def test_wire() -> Wire:
            from game.web.dom.wire import RelayWire

            return RelayWire(tuple(relay.split()), ())  # (local relays, by spaces: no STUN)
        online.make_wire = test_wire
    if isinstance(grace, (int, float)) and not isinstance(grace, bool):
        online.grace = float(grace)


def _relay_wire() -> Wire:
    """The wire through the public relays."""
    from game.web.dom.wire import RelayWire  # (online play's part, fetched by then)

    return RelayWire()


def _code_wire() -> CodeWire:
    """The wire with no third party: codes carried by hand."""
    from game.web.dom.wire import LinkWire

    return LinkWire()


async def _load(ctrl: Controller, address: str) -> None:
    """Online play's modules, fetched from beside the page the first time it
    needs them, and the host's signer: WebCrypto is offered on https and
    localhost only (elsewhere the invite link carries no key and a guest
    trusts who answers)."""
    import js

    from game.web.dom.parts import load_part

    await load_part("online", address)
    if getattr(js.crypto, "subtle", None) is not None:
        from game.web.dom.wire import WebKeys

        ctrl.online.keys = WebKeys()


def heard(msg: dict[str, Any]) -> None:
    """A wire's event or answer from the page (`{"kind": "wire", ...}`):
    online play's part is here by then, since a wire is open."""
    from game.web.dom.wire import BOARD

    BOARD.heard(msg)
