"""Play with friends between real browsers on one machine, with no internet
(issue 32): a host and a guest in separate browser contexts of one Chromium,
introduced through a Nostr relay on 127.0.0.1 (the `relay` fixture), which
each page is pointed at before it loads (`window.jhgTestRelay`, see
game/web/dom/boot.py; the contexts bypass the site's policy, which allows the
published relays only). The host opens Play with friends, the guest opens the
invite link, joins and is seated, and they play through clicks on their own
pages; a reload of the guest's page takes the seat back, a reload of the
host's page keeps the table while the guest says "reconnecting".
Screenshots (SCREENSHOTS folder) of the lobby, the join form, the guest's
table and "reconnecting", at phone and desktop size.
"""

from __future__ import annotations

import os
import random
import tempfile
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.browser
SHOTS = Path(os.environ.get("SCREENSHOTS", Path(tempfile.gettempdir()) / "jekyll-hyde-shots"))
PEER_CLOSED = "Trystero peer error: OperationError: User-Initiated Abort, reason=Close called"
SIZES = {"phone": (390, 844), "desktop": (1366, 768)}
# What may be clicked for a decision: a playable card, a whole action, a part
# still offered (one of them at random).
CLICKABLE = ("#screen .card.playable[data-act], #screen .card.playable[data-part]",
             "#screen [data-act]:not([disabled])",
             "#screen [data-part]:not(.off):not([disabled])")


class Person:
    def __init__(self, chromium, relay_url: str, size: str, bypass_csp: bool = True) -> None:
        width, height = SIZES[size]
        self.ctx = chromium.new_context(bypass_csp=bypass_csp,
                                        viewport={"width": width, "height": height})
        self.ctx.add_init_script(f"window.jhgTestRelay = {relay_url!r}; window.jhgTestGrace = 4")
        self.ctx.set_default_timeout(30000)
        self.page = self.ctx.new_page()
        self.errors: list[str] = []
        self.requests: list[str] = []
        self.page.on("request", lambda r: self.requests.append(r.url))
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error"
                     and m.text != PEER_CLOSED else None)

    def open(self, url: str) -> None:
        self.page.goto(url)
        self.page.wait_for_selector("body[data-state=ready]", timeout=60000)

    def shoot(self, name: str) -> None:
        SHOTS.mkdir(parents=True, exist_ok=True)
        for size, (width, height) in SIZES.items():
            self.page.set_viewport_size({"width": width, "height": height})
            self.page.screenshot(path=str(SHOTS / f"online-{name}-{size}.png"), full_page=True)

    def click_something(self, rng: random.Random) -> bool:
        """One click towards a decision: confirm a complete one, else a likely part."""
        confirm = self.page.locator("#screen [data-cmd=confirm]:not([disabled])")
        if confirm.count():
            confirm.first.click()
            return True
        found = self.page.locator(", ".join(CLICKABLE))  # (a potion led needs its colour too)
        if found.count():
            found.nth(rng.randrange(found.count())).click()
            return True
        return False


@pytest.fixture
def people(chromium, site_url, relay):
    made: list[Person] = []

    def make(size: str = "desktop", bypass_csp: bool = True) -> Person:
        made.append(Person(chromium, relay.url, size, bypass_csp))
        return made[-1]

    yield make
    for p in made:
        p.ctx.close()
    for p in made:
        assert not p.errors, p.errors


def host_and_guest(people, site_url: str, game: str, form: dict[str, str]):
    host, guest = people("desktop"), people("phone")
    host.open(site_url + "?lang=en&speed=instant")
    host.page.select_option("#f-game", game)
    for name, value in form.items():
        host.page.select_option(f'#setup [name="{name}"]', value)
    host.page.click("#online-host")
    host.page.wait_for_selector("#online-contacts")
    assert not [u for u in host.page.evaluate("performance.getEntries().map(e => e.name)")
                if "trystero" in u]  # nothing contacted before the person chooses
    host.page.click("#online-open")
    invite = host.page.get_attribute("#invite-link", "href")
    assert invite.startswith(site_url + "?join=")  # whole: a phone's camera reads its QR code
    assert host.page.locator("#online-qr svg").count() == 1
    guest.open(invite + "&lang=en")
    guest.page.wait_for_selector("#online-join")
    started = time.monotonic()
    guest.page.fill("#online-name", "Ann")
    guest.page.click("#online-join")
    guest.page.wait_for_selector("#online-waiting", timeout=60000)
    host.page.wait_for_selector("#online-joined >> text=Ann")
    print(f"\nfrom Join to the lobby: {time.monotonic() - started:.1f} s")
    return host, guest


def guest_on_turn(guest: Person) -> bool:
    return guest.page.locator(
        "#online-seats [aria-current=true] .online-you").count() > 0


def play(host: Person, guest: Person, until: str, most_seconds: float = 240) -> None:
    """Both click until `until` (a selector on the host's page) appears."""
    rng = random.Random(2)
    ends = time.monotonic() + most_seconds
    while time.monotonic() < ends:
        if host.page.locator(until).count():
            return
        if host.page.locator("#next-hand").count():
            host.page.click("#next-hand")
        elif host.page.locator("body[data-to-act=me]").count():
            host.click_something(rng)
        elif guest_on_turn(guest):
            guest.click_something(rng)
        host.page.wait_for_timeout(60)
    host.shoot("stuck-host")
    guest.shoot("stuck-guest")
    state = [host.page.get_attribute("body", "data-to-act"), guest.page.inner_text("#online-bar"),
             guest.page.inner_text("#message"), host.page.inner_text("#message")]
    raise AssertionError(f"{until} never came: {state}")


def test_a_duel_from_the_invite_link_to_the_end_of_a_round(people, site_url):
    host, guest = host_and_guest(people, site_url, "jekyll-vs-hyde",
                                 {"jvh_role": "J", "jvh_bot": "random"})
    host.shoot("host-lobby")
    guest.shoot("guest-waiting")
    host.page.click("#online-start")
    guest.page.wait_for_selector("#online-bar", timeout=30000)
    guest.shoot("guest-table")
    play(host, guest, "#next-hand, body[data-to-act=over]")
    assert "Ann" in host.page.inner_text("#online-seats")

    guest.page.reload()  # the guest's tab reloads: the token kept rejoins, no Join pressed
    guest.page.wait_for_selector("body[data-state=ready]", timeout=60000)
    guest.page.wait_for_selector("#online-bar", timeout=60000)

    host.page.reload()  # the host's tab reloads: the guest waits, then finds it again
    guest.page.wait_for_selector("#online-status", timeout=30000)
    guest.shoot("guest-reconnecting")
    host.page.wait_for_selector("body[data-state=ready]", timeout=60000)
    guest.page.wait_for_selector("#online-status", state="detached", timeout=60000)


def test_a_dracula_deal_with_a_friend(people, site_url):
    host, guest = host_and_guest(people, site_url, "dracula", {"dr_bot": "random"})
    host.page.click("#online-start")
    guest.page.wait_for_selector("#online-bar", timeout=30000)
    play(host, guest, "#next-hand, body[data-to-act=over]")


def test_a_duel_joined_by_codes_with_no_third_party(people, site_url):
    """Under the site's own policy (no relay allowed but the published ones,
    and none is contacted): the invitation link and the answer code carried
    between the pages by the test, as friends would by hand."""
    host, guest = people("desktop", bypass_csp=False), people("phone", bypass_csp=False)
    host.open(site_url + "?lang=en&speed=instant")
    host.page.select_option("#f-game", "jekyll-vs-hyde")
    host.page.click("#online-host")
    host.page.click("#online-open-codes")
    host.page.click("#online-invite-code")
    invite = host.page.get_attribute("#online-codes a", "href", timeout=30000)
    assert invite.startswith(site_url + "?join=")
    guest.open(invite + "&lang=en")
    guest.page.fill("#online-name", "Ann")
    started = time.monotonic()
    guest.page.click("#online-join")
    answer = guest.page.inner_text("#answer-code", timeout=30000)
    guest.shoot("guest-answer-code")
    host.page.fill("#online-answer-link-1", answer)
    host.shoot("host-codes")
    host.page.click("#online-accept-link-1")
    guest.page.wait_for_selector("#online-waiting", timeout=30000)
    print(f"\nby codes, from Join to the lobby: {time.monotonic() - started:.1f} s"
          f" (invitation {len(invite)} characters, answer {len(answer)})")
    host.page.click("#online-start")
    guest.page.wait_for_selector("#online-bar", timeout=30000)
    play(host, guest, "#next-hand, body[data-to-act=over]")
    site = site_url.split("/jekyll/")[0]
    for person in (host, guest):  # nothing but the site itself (and the devices' channel)
        assert not [u for u in person.requests if not u.startswith((site, "data:", "blob:"))]
