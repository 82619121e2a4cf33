"""The shipped conftest's `session` survives a server that closes a kept-alive connection
after an error response (uvicorn does, racing the test's next request on that connection):
an idempotent request is sent again on a new connection, so a test's cleanup still runs."""

from __future__ import annotations

import socket
import subprocess
import sys
import threading
from pathlib import Path

from pipeline.offline.conftest_template import conftest_source
from pipeline.records import Endpoint, Spec

TEST = '''
def test_cleanup_after_an_error(base_url, session):
    assert session.get(f"{base_url}/flaky").status_code == 500
    assert session.delete(f"{base_url}/flaky").status_code == 204
'''


def _reply(conn: socket.socket, status: str) -> None:
    conn.sendall(f"HTTP/1.1 {status}\r\nContent-Length: 0\r\n\r\n".encode())


def _serve(listener: socket.socket, stop: threading.Event) -> None:
    """GET /flaky: 500, connection kept; a second request on that connection: closed
    unanswered; anything on a connection of its own: answered (DELETE 204, else 200)."""
    listener.settimeout(0.2)
    while not stop.is_set():
        try:
            conn, _ = listener.accept()
        except TimeoutError:
            continue
        with conn:
            served = 0
            while True:
                data = b""
                while b"\r\n\r\n" not in data:
                    chunk = conn.recv(4096)
                    if not chunk:
                        break
                    data += chunk
                if not data:
                    break
                method, path = data.split(b" ", 2)[:2]
                if served:
                    break  # the server already gave up on this connection
                served += 1
                if method == b"GET" and path == b"/flaky":
                    _reply(conn, "500 Internal Server Error")
                else:
                    _reply(conn, "204 No Content" if method == b"DELETE" else "200 OK")


def test_session_resends_an_idempotent_request_on_a_closed_connection(tmp_path: Path) -> None:
    spec = Spec(endpoints=[Endpoint(method="GET", path="/flaky")])
    (tmp_path / "conftest.py").write_text(conftest_source(spec, 8999))
    (tmp_path / "test_session.py").write_text(TEST)
    listener = socket.create_server(("127.0.0.1", 0))
    stop = threading.Event()
    server = threading.Thread(target=_serve, args=(listener, stop), daemon=True)
    server.start()
    try:
        port = listener.getsockname()[1]
        run = subprocess.run(
            [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(tmp_path)],
            capture_output=True, text=True, cwd=tmp_path, timeout=60,
            env={"PATH": "/usr/bin:/bin", "SERVICE_BASE_URL": f"http://127.0.0.1:{port}"})
    finally:
        stop.set()
        server.join(5)
        listener.close()
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
