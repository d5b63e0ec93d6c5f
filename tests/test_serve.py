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


def test_a_download_the_browser_stops_prints_no_traceback(tmp_path, capsys):
    """A page left mid-download (the runtime's megabytes) is no error: the
    terminal that serves the site stays quiet."""
    import threading
    import time

    from game.build import make_server

    (tmp_path / "big.bin").write_bytes(b"x" * 20_000_000)
    server = make_server(tmp_path, 0)
    # (polled often, so that `shutdown` need not wait out the default half second)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.01},
                              daemon=True)
    thread.start()
    serving = set(threading.enumerate())
    try:
        for _ in range(3):
            with socket.create_connection(server.server_address) as client:
                client.sendall(b"GET /big.bin HTTP/1.1\r\nHost: x\r\n\r\n")
                client.recv(1000)
                client.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\0\0\0\0\0\0\0")
            # The request's thread meets the closed connection (and would print its
            # traceback) before it ends: wait for that end, not for a time.
            deadline = time.monotonic() + 30
            while set(threading.enumerate()) - serving and time.monotonic() < deadline:
                time.sleep(0.01)
    finally:
        server.shutdown()
        server.server_close()
    assert "Traceback" not in capsys.readouterr().err
