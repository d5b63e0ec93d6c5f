"""The relayed path's parts outside a browser (issue 54, items 1 and 2): the
pieces and their assembly, and the key each pair of pages agrees
(static/js/wire.mjs, run by Node through tests/relayed_oracle.mjs), and the
path of a peer, which the host and a guest carry on through whichever it is.
The relayed path itself, between browsers: tests/browser/test_online_relayed.py."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from game.online import guest as g
from game.online import host as h
from game.online.wire import PeerPath
from tests.nostr_relay import NostrRelay
from tests.online_kit import LoopTable

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.skipif(shutil.which("node") is None, reason="needs node")
def test_pieces_come_together_once_each_in_order_and_only_the_reader_can_open_them():
    done = subprocess.run(["node", str(ROOT / "tests" / "relayed_oracle.mjs")], capture_output=True,
                          text=True, check=True, cwd=ROOT, timeout=120)
    found = json.loads(done.stdout)
    assert found["pieces"] == 6 and found["whole"] and found["empty"] == [""]  # a 95 KB rejoin
    assert found["handed"] == ["ab", "cd", "e", "f"] and found["next"] == 4
    assert found["after_drop"] == "f"  # a spoilt message is read from the sender's next copy
    assert found["read_by_ann"] == "Ann's hand" and found["hidden"]
    assert found["bea_cannot"]  # another friend at the table, her own key with the host
    assert found["other_header_cannot"]  # a piece moved to another message's number


def test_a_peers_path_changes_nothing_at_the_table():
    table = LoopTable("dracula", {}, {"0": ("guest", "Ann"), "1": ("bot", "random")})
    table.seat_everyone()
    peer = next(iter(table.guests))
    for relayed in (True, False):
        assert h.reduce(table.room, PeerPath(peer, relayed), table.now) == (table.room, (), ())
    guest = table.guests[peer]
    assert g.reduce(guest, PeerPath("host", True)) == (guest, ())


def three_pages(tmp_path: Path, relay: NostrRelay) -> tuple[dict, NostrRelay]:
    """tests/relayed_pages_oracle.mjs's findings, its three pages through `relay`."""
    from game.build import _copy_trystero

    pages = []
    for name in ("host", "ann", "bea"):  # (each page its own Nostr id: its own modules)
        (tmp_path / name / "js").mkdir(parents=True)
        shutil.copy(ROOT / "static" / "js" / "wire.mjs", tmp_path / name / "js" / "wire.mjs")
        _copy_trystero(tmp_path / name / "vendor")
        pages.append(str(tmp_path / name))
    with relay:
        done = subprocess.run(["node", str(ROOT / "tests" / "relayed_pages_oracle.mjs"), relay.url,
                               str(ROOT), *pages], capture_output=True, text=True, cwd=ROOT,
                              timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout), relay


@pytest.mark.skipif(shutil.which("node") is None, reason="needs node")
def test_three_pages_through_a_relay_the_hosts_messages_and_turn_server_are_for_each_friend_alone(
        tmp_path):
    """Host, Ann and Bea (Bea holds the same link) on the local relay: the
    host's own TURN server reaches each friend sealed for them; what the host
    seals for Ann on the direct path (where Bea may have tampered with the
    introductions and sit in the middle) Bea cannot read nor forge, and Ann
    reads it once; nothing the relay carried holds the hand or the TURN
    server's credential."""
    found, relay = three_pages(tmp_path, NostrRelay())
    carried = json.dumps(relay.events)
    turn = {"urls": "turns:turn.example.org:5349", "username": "ann-turn", "credential": "pa55-word"}
    assert found["turn_to_ann"] == turn == found["turn_to_bea"] and found["host_took_none"]
    assert found["friends_never_met"]
    assert found["sealed_hides"] and found["bea_reads"] is None
    assert found["ann_reads"] == "Ann's hand: the seven of spades" and found["replayed"] is None
    assert found["forged_read_by_host"] is None and found["ann_writes"] == "Ann decides"
    assert [text[:20] for _, text in found["ann_received"]] == ["relayed: Ann's cards", "long:" + "L" * 15]
    assert found["piece"] == 16 * 1024 and relay.refused == 0  # (the relay publishes no limit)
    assert found["bea_received"] == []
    assert len(relay.events) > 6  # (hellos, the TURN server's copies, pieces, acks)
    for secret in ("pa55-word", "ann-turn", "turn.example.org", "seven", "Ann's cards"):
        assert secret not in carried


@pytest.mark.skipif(shutil.which("node") is None, reason="needs node")
@pytest.mark.slow  # the three pages in Node again (1.5 s; the quick run has them once, above)
def test_pieces_are_cut_to_the_limit_a_relay_publishes_in_its_nip11_document(tmp_path):
    """A relay whose NIP-11 document says it takes messages of 6,000
    characters at most: the pages read it and cut every piece to fit, so the
    relay refuses none (before, a 16 KB piece was refused and halved)."""
    found, relay = three_pages(tmp_path, NostrRelay(max_message=6000))
    assert found["piece"] <= 6000 - 512 and relay.refused == 0
    assert found["ann_received"][1][1] == "long:" + "L" * 20000
    pieces = [e for e in relay.events if len(e["content"]) > 3000]
    assert len(pieces) >= 20000 * 4 // 3 // found["piece"]  # (cut, each under the limit)
    assert all(len(json.dumps(["EVENT", e])) <= 6000 for e in relay.events)
