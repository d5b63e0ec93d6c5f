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
