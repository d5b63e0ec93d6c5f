"""The wire format: every message reads back as it was written, and anything
else is refused with a code before it reaches the host's room."""

from __future__ import annotations

import json
import re

import pytest

from game import GameError
from game.online import messages as m

TOKEN = "seat-token-00000001"

MESSAGES = [
    m.Join("room-secret-1234", "Ann", None), m.Join("room-secret-1234", "Zoë", TOKEN),
    m.Decide("HF4", 12, TOKEN), m.Decide("give:R1,G3", 0, TOKEN), m.React("good_game"),
    m.Leave(),
    m.Refused("table_full", {"seats": 4}),
    m.Lobby("dracula", [{"seat": "0", "kind": "host", "name": "Hal", "level": ""},
                        {"seat": "1", "kind": "open", "name": "", "level": ""}], None),
    m.Seated("1", TOKEN),
    m.TableUpdate("dracula", "1", 1, {"hand": ["AS"]}, [[3, [{"kind": "placed"}]]], 3, "0",
                  [{"seat": "1", "kind": "person", "name": "Ann", "level": ""}]),
    m.Error("card_not_in_hand", {"card": "HA"}, 3), m.Reaction("1", "wow"),
    m.Over({"game": "dracula", "seed": 5, "actions": []}), m.HostLeft(),
]


@pytest.mark.parametrize("message", MESSAGES, ids=lambda msg: msg.TYPE)
def test_every_message_reads_back(message):
    text = m.encode(message)
    read = m.read_guest if type(message).TYPE in m.GUEST_TYPES else m.read_host
    assert read(text) == message
    assert json.loads(text)["v"] == m.VERSION


def test_a_host_message_is_not_a_guest_message_nor_the_reverse():
    with pytest.raises(m.MessageError) as e:
        m.read_guest(m.encode(m.HostLeft()))
    assert e.value.code == "unknown_type"
    with pytest.raises(m.MessageError) as e:
        m.read_host(m.encode(m.Leave()))
    assert e.value.code == "unknown_type"


def join(**fields):
    return json.dumps({"v": 3, "type": "join", "secret": "room-secret-1234", "name": "Ann",
                       "token": None, **fields})


BAD = [
    (b"{}", "not_text"), (None, "not_text"), ("", "not_json"), ("{'v': 1}", "not_json"),
    ("[1, 2]", "not_json"), ('"join"', "not_json"), ("[" * 50 + "]" * 50, "too_deep"),
    ('{"type": "leave"}', "bad_version"), ('{"v": 2, "type": "leave"}', "bad_version"),
    ('{"v": true, "type": "leave"}', "bad_version"),
    ('{"v": 3, "type": "shout"}', "unknown_type"), ('{"v": 3, "type": 3}', "unknown_type"),
    ('{"v": 3}', "unknown_type"), ('{"v": 3, "type": "leave", "seat": 0}', "unknown_field"),
    ('{"v": 3, "type": "react"}', "missing_field"),
    ('{"v": 3, "type": "react", "key": "you fool"}', "unknown_reaction"),
    (join(secret="short"), "bad_field"), (join(secret=7), "bad_field"),
    (join(name=""), "bad_name"), (join(name="   "), "bad_name"), (join(name=["Ann"]), "bad_name"),
    (join(name="A" * 25), "bad_name"), (join(name="Ann\u202eevE"), "bad_name"),
(join(name="Ann\x00"), "bad_name"),
    (join(token="short"), "bad_field"), (join(token="x" * 16 + "!"), "bad_field"),
    (join(token=12345678901234567890), "bad_field"),
    ('{"v": 3, "type": "decide", "action": "HA", "state": -1, "token": "%s"}' % TOKEN,
     "bad_field"),
    ('{"v": 3, "type": "decide", "action": "HA", "state": 1.0, "token": "%s"}' % TOKEN,
     "bad_field"),
    ('{"v": 3, "type": "decide", "action": "HA", "state": true, "token": "%s"}' % TOKEN,
     "bad_field"),
    ('{"v": 3, "type": "decide", "action": "", "state": 1, "token": "%s"}' % TOKEN, "bad_field"),
    ('{"v": 3, "type": "decide", "action": "H\u00e9", "state": 1, "token": "%s"}' % TOKEN,
     "bad_field"),
    ('{"v": 3, "type": "decide", "action": "%s", "state": 1, "token": "%s"}' % ("A" * 201, TOKEN),
     "bad_field"),
    ('{"v": 3, "type": "decide", "action": "HA", "state": 1}', "missing_field"),
]


@pytest.mark.parametrize("text,code", BAD)
def test_a_bad_message_is_refused_with_its_code(text, code):
    with pytest.raises(m.MessageError) as e:
        m.read_guest(text)
    assert e.value.code == code
    assert isinstance(e.value, GameError) and str(e.value)  # an English message too
    json.dumps(e.value.to_json())  # and its params cross the wire as they are


def test_a_megabyte_is_refused_without_being_parsed(monkeypatch):
    def parse(text):
        raise AssertionError("parsed")

    monkeypatch.setattr(m.json, "loads", parse)
    huge = join(name="A" * 1_000_000)
    with pytest.raises(m.MessageError) as e:
        m.read_guest(huge)
    assert (e.value.code, e.value.params) == ("too_big", {"most": m.MAX_GUEST_CHARS})
    with pytest.raises(m.MessageError) as e:
        m.read_host("[" * (m.MAX_HOST_CHARS + 1))
    assert e.value.code == "too_big"


def test_a_name_is_tidied():
    assert m.read_guest(join(name="  Ann \t Lee ")).name == "Ann Lee"
    assert m.read_guest(join(name="Ann\nBob")).name == "Ann Bob"
    assert m.read_guest(join(name="Zoë-Ève O'Neill")).name == "Zoë-Ève O'Neill"


def test_every_refusal_notice_and_reaction_has_words_in_the_catalog():
    """A guest says a refusal by its code (`online.refused.<code>`; an engine
    error keeps its `error.<code>`), the host's page a notice by its key."""
    from pathlib import Path

    from game.web.draw.i18n import catalog

    root = Path(__file__).resolve().parents[1] / "game" / "online"
    source = (root / "host.py").read_text() + (root / "messages.py").read_text()
    codes = set(re.findall(r'_refuse\([^,()]+, "(\w+)"', source))
    codes |= set(re.findall(r'code(?:: str)? ?= ?"(\w+)"', source)) | set(re.findall(
        r'refusal = "(\w+)"', source)) | {m.MessageError.default_code}
    assert {"bad_secret", "table_full", "flood", "too_big", "replayed"} <= codes
    notices = set(re.findall(r'Notice\("(\w+)"', source))
    assert {"dropped", "back", "stood_in"} <= notices
    words = catalog("en")
    wanted = ({f"online.refused.{c}" for c in codes} | {f"online.{n}" for n in notices}
              | {f"react.{r}" for r in m.REACTIONS})
    missing = sorted(wanted - set(words))
    assert missing == []
