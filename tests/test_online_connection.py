"""Online play's connection data under CPython (game.web.online.connection): the
short code a WebRTC offer or answer travels in by hand, and the policy that
lets the page reach the published relays and nothing else."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from game import build
from game.web.online.connection import (RELAYS, BadCode, Description, connect_sources, pack,
                                 relay_hosts, stun_hosts, unpack)

# A data-channel offer as Chromium gathers it with host candidates only.
CHROMIUM_OFFER = (
    "v=0\r\no=- 5183432913376395563 2 IN IP4 127.0.0.1\r\ns=-\r\nt=0 0\r\n"
    "a=group:BUNDLE 0\r\na=extmap-allow-mixed\r\na=msid-semantic: WMS\r\n"
    "m=application 40581 UDP/DTLS/SCTP webrtc-datachannel\r\nc=IN IP4 192.0.2.2\r\n"
    "a=candidate:3372391227 1 udp 2122260223 192.0.2.2 40581 typ host generation 0 "
    "network-id 1\r\n"
    "a=candidate:1795513903 1 udp 2122197247 fd00::2 37887 typ host generation 0 "
    "network-id 2\r\n"
    "a=candidate:2104296087 1 tcp 1518280447 192.0.2.2 9 typ host tcptype active "
    "generation 0 network-id 1\r\n"
    "a=candidate:842163049 1 udp 1677729535 198.51.100.7 61000 typ srflx raddr 192.0.2.2 "
    "rport 40581 generation 0\r\n"
    "a=ice-ufrag:JCk7\r\na=ice-pwd:f6DS8V5zMyc6RMGNO+EFkNAU\r\na=ice-options:trickle\r\n"
    "a=fingerprint:sha-256 35:91:45:DB:6B:6E:D2:34:59:A3:60:CF:73:3D:8D:CD:F9:65:8B:"
    "2B:F9:E5:9E:F1:20:84:86:A2:1A:8D:B6:4E\r\n"
    "a=setup:actpass\r\na=mid:0\r\na=sctp-port:5000\r\na=max-message-size:262144\r\n")


def test_an_offer_travels_in_a_short_code_and_comes_back_whole():
    code = pack(Description("offer", CHROMIUM_OFFER))
    assert len(code) < 120 and re.fullmatch(r"[A-Za-z0-9+/_~,.:\-]+", code), code
    back = unpack(code)
    assert back.kind == "offer"
    for kept in ("a=ice-ufrag:JCk7", "a=ice-pwd:f6DS8V5zMyc6RMGNO+EFkNAU", "a=setup:actpass",
                 "a=fingerprint:sha-256 35:91:45:DB:6B:6E:D2:34:59:A3:60:CF:73:3D:8D:CD:F9:65:8B:"
                 "2B:F9:E5:9E:F1:20:84:86:A2:1A:8D:B6:4E",
                 "192.0.2.2 40581 typ host", "fd00::2 37887 typ host"):
        assert kept in back.sdp
    # Host candidates only: no address that STUN found, no TCP.
    assert "198.51.100.7" not in back.sdp and " tcp " not in back.sdp
    assert pack(back) == code


def test_an_answer_keeps_its_role():
    answer = CHROMIUM_OFFER.replace("a=setup:actpass", "a=setup:active")
    back = unpack(pack(Description("answer", answer)))
    assert back.kind == "answer" and "a=setup:active" in back.sdp


@pytest.mark.parametrize("code", [
    "", "hello", "o~a~b~c", "x~JCk7~pwd~NZFC~192.0.2.2_1",
    "o~JC k7~pwd~NZFC~192.0.2.2_1", "o~JCk7~pwd~NZFC~192.0.2.2_70000",
    "o~JCk7~pwd~NZFC~<script>_1", "o~JCk7~pwd~!!!~192.0.2.2_1", "o~" + "a" * 2000 + "~p~f~h_1"])
def test_anything_else_is_no_code(code):
    with pytest.raises(BadCode):
        unpack(code)


def test_a_description_without_host_candidates_has_no_code():
    only_stun = re.sub(r"a=candidate:.*typ host.*\r\n", "", CHROMIUM_OFFER)
    with pytest.raises(BadCode):
        pack(Description("offer", only_stun))


def test_the_policy_connects_to_the_site_and_the_relays_only():
    connect = re.search(r"connect-src ([^;]*);", build.CSP)
    assert connect is not None
    infos = ["https://" + url.removeprefix("wss://") for url in RELAYS]  # (their NIP-11 documents)
    assert connect.group(1).split() == ["'self'", *RELAYS, *infos] == connect_sources().split()
    assert all(url.startswith("wss://") for url in RELAYS)
    assert all("." in host and "/" not in host for host in relay_hosts())


def test_the_library_is_not_precached(tmp_path):
    (tmp_path / "static" / "vendor" / "trystero" / "core").mkdir(parents=True)
    (tmp_path / "static" / "vendor" / "trystero" / "core" / "index.mjs").write_text("")
    (tmp_path / "static" / "js").mkdir()
    (tmp_path / "static" / "js" / "wire.mjs").write_text("")
    assert build._precache_list(tmp_path)[-1] == "static/js/wire.mjs"
    assert not [f for f in build._precache_list(tmp_path) if "trystero" in f]


def test_the_readme_names_every_relay_and_stun_server_of_several_operators():
    """The page contacts exactly what the README names, from several operators
    (one relay or STUN server down, or gone, leaves the others)."""
    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    for host in (*relay_hosts(), *stun_hosts()):
        assert host in readme, host
    operators = {".".join(host.split(".")[-2:]) for host in relay_hosts()}
    assert len(operators) == len(RELAYS) >= 4
    assert len({".".join(host.split(".")[-2:]) for host in stun_hosts()}) >= 2
