"""The pages of the online browser tests, written once: a `Person` (one
person's browser, a context of its own, pointed at the test's relay: a
player, a watcher, or a raw wire page) and a `Peer` (a raw wire page in a
fixed room, for the wire's own tests). tests/browser/conftest.py's `people`
fixture makes Persons; the engine-side kit is tests/online_kit.py.
"""

from __future__ import annotations

import json
import os
import random
import tempfile
from pathlib import Path

from playwright.sync_api import TimeoutError as PlaywrightTimeout

SHOTS = Path(os.environ.get("SCREENSHOTS", Path(tempfile.gettempdir()) / "jekyll-hyde-shots"))
SIZES = {"phone": (390, 844), "desktop": (1366, 768)}
# What Trystero logs as an error when the other page closes its channel (Chromium
# reports the remote close as a channel error): a peer leaving, not a fault.
PEER_CLOSED = "Trystero peer error: OperationError: User-Initiated Abort, reason=Close called"
# What may be clicked for a decision: a playable card, a whole action, a part
# still offered (one of them at random).
CLICKABLE = ("#screen .card.playable[data-act], #screen .card.playable[data-part]",
             "#screen [data-act]:not([disabled])",
             "#screen [data-part]:not(.off):not([disabled])")

# What a person hears and sees move, counted in the page from its load: each
# line the live region is given (`window.heardLines`) and each card's flight
# started (`window.flights`: the motion's animations, game.web.front.motion).
WATCH = """
window.heardLines = []; window.flights = 0;
const animate = Element.prototype.animate;
Element.prototype.animate = function (frames, timing) {
  if (timing && timing.id === 'motion') window.flights += 1;
  return animate.call(this, frames, timing);
};
new MutationObserver(records => { for (const r of records) for (const n of r.addedNodes)
  if (n.parentElement && n.parentElement.id === 'live')
    for (const p of n.querySelectorAll('p')) window.heardLines.push(p.textContent);
}).observe(document, {childList: true, subtree: true});
"""

# Every peer connection of the page may use a TURN server's candidates only (it
# has none): no direct channel can open, as behind carrier-grade NAT.
NO_DIRECT = """{
  const Native = RTCPeerConnection;
  window.RTCPeerConnection = class extends Native {
    constructor(config = {}, ...rest) { super({ ...config, iceTransportPolicy: "relay" }, ...rest); }
  };
}"""


class Listened:
    """A page's errors (a test fails on any), warnings and requests, as heard."""

    def listen(self, page) -> None:
        self.errors: list[str] = []
        self.warnings: list[str] = []
        self.requests: list[str] = []
        page.on("request", lambda r: self.requests.append(r.url))
        page.on("pageerror", lambda e: self.errors.append(str(e)))
        page.on("console", self._console)

    def _console(self, message) -> None:
        if message.type == "error" and message.text != PEER_CLOSED:
            self.errors.append(message.text)
        elif message.type == "warning":
            self.warnings.append(message.text)


class Person(Listened):
    """A person's browser at `size`, the site's policy bypassed (the relay's
    port is not a published relay's) unless `bypass_csp` is false. `watch`: it
    counts what it hears and sees move (WATCH); `direct` false: it can open no
    direct channel (NO_DIRECT); `probe`: a raw wire page (static/js/wire-probe.mjs)
    instead of the site's own online play."""

    def __init__(self, chromium, relay_url: str, size: str = "desktop", bypass_csp: bool = True,
                 watch: bool = False, direct: bool = True, probe: bool = False) -> None:
        width, height = SIZES[size]
        self.ctx = chromium.new_context(bypass_csp=bypass_csp,
                                        viewport={"width": width, "height": height})
        self.ctx.add_init_script("window.jhgWireProbe = true" if probe else
                                 f"window.jhgTestRelay = {relay_url!r}; window.jhgTestGrace = 4;"
                                 " window.jhgTestCapture = []"  # (static/js/wire.mjs)
                                 "; window.jhgTestPaths = []")  # (static/js/wire-host.mjs)
        if watch:
            self.ctx.add_init_script(WATCH)
        if not direct:
            self.ctx.add_init_script(NO_DIRECT)
        self.ctx.set_default_timeout(30000)
        self.new_page()

    def new_page(self) -> None:
        """A tab of this person's browser (its storage kept: a seat token, a save)."""
        self.page = self.ctx.new_page()
        self.listen(self.page)

    def open(self, url: str) -> None:
        self.page.goto(url)
        self.page.wait_for_selector("body[data-state=ready]", timeout=60000)

    def shoot(self, name: str) -> None:
        SHOTS.mkdir(parents=True, exist_ok=True)
        own = self.page.viewport_size
        for size, (width, height) in SIZES.items():
            self.page.set_viewport_size({"width": width, "height": height})
            self.page.screenshot(path=str(SHOTS / f"online-{name}-{size}.png"), full_page=True)
        self.page.set_viewport_size(own)

    def report(self) -> str:
        """What this person's tabs show (address, state, text), and the last
        warnings heard: printed when a test fails."""
        shown = []
        for page in self.ctx.pages:
            try:
                state = page.evaluate("JSON.stringify(document.body && document.body.dataset)")
                text = " ".join(page.inner_text("body", timeout=2000).split())[:1200]
            except Exception as e:  # (a page closing or crashed says so instead)
                state, text = "?", f"unreadable: {e}"
            shown.append(f"{page.url} {state}: {text}")
        return "\n  ".join([*shown, f"warnings: {self.warnings[-8:]}"])

    def captured(self) -> list[str]:
        """Every message this page was handed since it loaded."""
        return self.page.evaluate("window.jhgTestCapture")

    def answered(self, heard: int) -> None:
        """Wait for the host's answer to a decision sent: a table or an error
        among the messages after the first `heard`."""
        self.page.wait_for_function(
            "n => window.jhgTestCapture.slice(n).some(t => "
            "['table', 'error'].includes(JSON.parse(t).type))", arg=heard, timeout=15000)

    def paths(self) -> list[bool]:
        """Whether each path the page's wire reported was relayed."""
        return [relayed for _, relayed, _ in self.page.evaluate("window.jhgTestPaths")]

    def on_turn(self) -> bool:
        """A guest's page: its seat is on turn."""
        return self.page.locator("#online-seats [aria-current=true] .online-you").count() > 0

    def click_something(self, rng: random.Random) -> bool:
        """One click towards a decision: close a hand's summary (a guest's own,
        as the person reads it first), confirm a complete one, else a likely part."""
        summary = self.page.locator("#modal #next-hand")
        confirm = self.page.locator("#screen [data-cmd=confirm]:not([disabled])")
        found = self.page.locator(", ".join(CLICKABLE))  # (a potion led needs its colour too)
        target = summary.first if summary.count() else confirm.first if confirm.count() \
            else found.nth(rng.randrange(found.count())) if found.count() else None
        if target is None:
            return False
        try:
            target.click(timeout=5000)
        except PlaywrightTimeout:  # a summary opened over it meanwhile: the next turn closes it
            pass
        return True


ROOM, SECRET = "room-7Qx2", "s3cret-Kb9"


class Peer(Listened):
    """One person's browser with the site open and the raw wire page installed
    (static/js/wire-probe.mjs), for the wire's own tests in the room ROOM;
    `direct` false: it can open no direct channel (NO_DIRECT)."""

    def __init__(self, chromium, site_url: str, bypass_csp: bool, direct: bool = True) -> None:
        self.ctx = chromium.new_context(bypass_csp=bypass_csp)
        self.ctx.add_init_script("window.jhgWireProbe = true")
        if not direct:
            self.ctx.add_init_script(NO_DIRECT)
        self.ctx.set_default_timeout(30000)
        self.page = self.ctx.new_page()
        self.listen(self.page)
        self.site_url = site_url
        self.load()

    def load(self) -> None:
        self.page.goto(self.site_url + "?lang=en")
        self.page.wait_for_selector("body[data-state=ready]", timeout=60000)
        self.page.wait_for_function("window.wireProbe !== undefined")

    def events(self) -> list[list]:
        return json.loads(self.page.evaluate("wireProbe.events()"))

    def wait_event(self, kind: str, count: int = 1, timeout: float = 30000) -> list:
        self.page.wait_for_function(
            f"JSON.parse(wireProbe.events()).filter(e => e[0] === '{kind}').length >= {count}",
            timeout=timeout)
        return [e for e in self.events() if e[0] == kind][count - 1]

    def joined(self) -> list[str]:
        return [e[1] for e in self.events() if e[0] == "PeerJoined"]

    def open_relays(self, relay_url: str, secret: str = SECRET) -> None:
        self.page.evaluate("([r, s, u]) => wireProbe.openRelays(r, s, JSON.stringify([u]), '[]')",
                           [ROOM, secret, relay_url])

    def send(self, peer: str, text: str) -> None:
        self.page.evaluate("([p, t]) => wireProbe.send(p, t)", [peer, text])

    def close(self) -> None:
        self.ctx.close()
