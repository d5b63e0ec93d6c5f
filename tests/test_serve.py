"""`python -m game serve` says what is wrong with a port or host in one line
(status 2, no traceback) before building anything."""

from __future__ import annotations

import socket

import pytest

from game.__main__ import main


def test_a_busy_port_is_one_line_that_suggests_another(capsys):
    with socket.create_server(("127.0.0.1", 0)) as busy:
        port = busy.getsockname()[1]
        assert main(["serve", "--port", str(port)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert f"port {port} is already in use" in err and f"--port {port + 1}" in err


@pytest.mark.parametrize("args, words", [
    (["--port", "70000"], "a port is a number from 0 to 65535"),
    (["--port", "-1"], "a port is a number from 0 to 65535"),
    (["--host", "203.0.113.77"], "cannot serve on 203.0.113.77"),  # TEST-NET-3: not this machine
])
def test_a_bad_port_or_host_is_one_line(capsys, args, words):
    assert main(["serve", *args]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and words in err
