"""Ports: free port, in-use detection, polling until HTTP answers."""

from __future__ import annotations

import http.server
import socket
import subprocess
import sys
import threading
import time

import pytest

from pipeline.execution import ports
from pipeline.execution.ports import (
    PortTimeout,
    ProcessExited,
    free_port,
    port_in_use,
    wait_for_port,
)


class _Quiet(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(404)  # any HTTP response counts as answering
        self.end_headers()

    def log_message(self, *args):
        pass


def test_free_port_is_free():
    port = free_port()
    assert 1024 <= port <= 65535
    assert not port_in_use(port)


def test_port_in_use_detects_listener():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        assert port_in_use(s.getsockname()[1])


def test_wait_for_port_returns_once_http_answers():
    port = free_port()
    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), _Quiet)
    # Start serving only after a delay, so the wait really has to poll.
    timer = threading.Timer(0.3, server.serve_forever)
    timer.start()
    try:
        t0 = time.monotonic()
        wait_for_port("127.0.0.1", port, 5.0)
        assert time.monotonic() - t0 < 3.0
    finally:
        server.shutdown()  # returns once serve_forever (started by the timer) has stopped
        timer.join()
        server.server_close()


def test_wait_for_port_times_out_when_nothing_listens():
    port = free_port()
    t0 = time.monotonic()
    with pytest.raises(PortTimeout, match="connection refused"):
        wait_for_port("127.0.0.1", port, 0.4)
    assert time.monotonic() - t0 < 2.0


def test_open_port_without_http_does_not_count():
    """A socket that accepts but never speaks HTTP is not a ready service."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        with pytest.raises(PortTimeout, match="no HTTP response"):
            wait_for_port("127.0.0.1", s.getsockname()[1], 0.6)


def test_wait_for_port_returns_early_when_process_dies():
    proc = subprocess.Popen([sys.executable, "-c", "raise SystemExit(3)"])
    try:
        t0 = time.monotonic()
        with pytest.raises(ProcessExited) as info:
            wait_for_port("127.0.0.1", free_port(), 30.0, proc=proc)
        assert info.value.returncode == 3
        assert time.monotonic() - t0 < 5.0
    finally:
        proc.wait()


def test_refuses_non_loopback_host():
    with pytest.raises(ValueError, match="loopback"):
        wait_for_port("10.0.0.1", 80, 0.1)


def test_free_port_is_outside_the_ephemeral_range():
    """An outgoing connection anywhere on the machine takes its local port from that range,
    so a port picked there can be taken before the service binds it."""
    low, high = ports._ephemeral_range()
    picked = {free_port() for _ in range(50)}
    assert all(10000 <= p <= 65535 and not low <= p <= high for p in picked)
    assert len(picked) > 1  # at random, not one fixed port


def test_free_port_skips_a_port_something_listens_on(monkeypatch):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        busy = s.getsockname()[1]
        later = iter([busy, busy, 61999])
        monkeypatch.setattr(ports, "_candidate_port", lambda: next(later))
        monkeypatch.setattr(ports, "_reserve", lambda port: True)
        assert free_port() == 61999
