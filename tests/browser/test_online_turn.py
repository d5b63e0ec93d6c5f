"""The host's own TURN server between two browsers (issue 54, item 3): a local
coturn on 127.0.0.1, the host typing it in before the table opens, a friend
whose browser can use a TURN server's candidates only
(tests/browser/test_online_relayed.py's guests: `iceTransportPolicy:
"relay"`, as behind a network that lets no direct connection through). The
friend's page is handed the server sealed for it on the relayed path, and its
channel to the host opens through the TURN server: each page says so ("through
your TURN server", "through the host's TURN server"), where without one it
stays "through the relays". Skipped where coturn's `turnserver` is
not installed (`apt-get install coturn`)."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time

import pytest

from tests.browser.test_online_relayed import RELAY_CAP

# The relay refuses long messages, as for test_online_relayed.py's friends.
pytestmark = [pytest.mark.browser, pytest.mark.relay_cap(RELAY_CAP)]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def turn_server():
    """coturn on 127.0.0.1 (its port), one user "ann" with the password "pa55"."""
    if shutil.which("turnserver") is None:
        pytest.skip("needs coturn's turnserver (apt-get install coturn)")
    port = free_port()
    server = subprocess.Popen(
        ["turnserver", "-n", "--listening-ip=127.0.0.1", "--relay-ip=127.0.0.1",
         f"--listening-port={port}", "--lt-cred-mech", "--user=ann:pa55", "--realm=jhg.test",
         "--no-tls", "--no-dtls", "--allow-loopback-peers", "--no-cli", "--log-file=stdout",
         "--simple-log", f"--min-port={port + 1}", f"--max-port={port + 40}"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(100):
        try:
            socket.create_connection(("127.0.0.1", port), 0.2).close()
            break
        except OSError:
            time.sleep(0.1)
    yield port
    server.terminate()
    server.wait(10)


def test_a_friend_with_no_direct_way_reaches_the_host_through_its_own_turn_server(
        people, site_url, turn_server):
    host = people("desktop")
    host.open(site_url + "?lang=en&speed=instant")
    host.page.select_option("#f-game", "jekyll-vs-hyde")
    host.page.click("#online-host")
    host.page.click("#online-turn summary")
    host.page.fill("#online-turn-address", f"turn:127.0.0.1:{turn_server}")
    host.page.fill("#online-turn-user", "ann")
    host.page.fill("#online-turn-credential", "pa55")
    host.page.click("#online-turn-keep")
    host.page.wait_for_selector("#online-turn-kept >> text=Kept in this browser: 127.0.0.1.")
    host.page.wait_for_selector("#online-contacts >> text=your own TURN server (127.0.0.1)")
    host.shoot("turn-host-intro")
    host.page.click("#online-open")
    invite = host.page.get_attribute("#invite-link", "href")
    assert "pa55" not in invite and str(turn_server) not in invite
    guest = people("phone", direct=False)  # (TURN candidates only)
    guest.open(invite + "&lang=en")
    guest.page.wait_for_selector("#online-contacts >> text=their own TURN server")
    guest.page.fill("#online-name", "Ann")
    guest.page.click("#online-join")
    started = time.monotonic()
    guest.page.wait_for_selector("#online-waiting", timeout=60000)
    # The friend's page re-enters Trystero's room to try the TURN server it was
    # handed: its channel opened 58-59 s after Join at load 2-4, past 90 s in a
    # whole suite run at load 3-5 (the relays carry the table meanwhile).
    host.page.wait_for_selector("#online-joined >> text=Ann · through your TURN server",
                                timeout=180000)
    print(f"\nthrough the host's TURN server: from Join to a channel of their own"
          f" {time.monotonic() - started:.1f} s (load {os.getloadavg()[0]:.1f})")
    guest.page.wait_for_selector("#online-path >> text=through the host’s TURN server")
    # Each page found its channel's chosen candidates were a TURN server's.
    for person in (host, guest):
        assert person.page.evaluate("window.jhgTestPaths").pop()[1:] == [False, True]
    host.shoot("turn-host-lobby")
