"""Shared helpers for the execution tests: tiny fixture services and process checks."""

from __future__ import annotations

import json
import os
import sys
import time
import urllib.request
from pathlib import Path

SERVER = '''
import http.server, json, os, sys

class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        code = 404 if self.path.startswith("/missing") else 200
        body = json.dumps({"path": self.path, "ok": code == 200}).encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, fmt, *args):
        sys.stderr.write("request " + (fmt % args) + "\\n")
        sys.stderr.flush()

port = int(os.environ["PORT"])
print(f"serving on {port}", flush=True)
http.server.ThreadingHTTPServer(("0.0.0.0", port), Handler).serve_forever()
'''

START_OK = "#!/bin/sh\nexec python3 server.py\n"
# A start.sh whose service has a grandchild: a background sleep in the same group.
START_GRANDCHILD = (
    "#!/bin/sh\n"
    "sleep 300 &\n"
    "echo $! > grandchild.pid\n"
    "echo $$ > leader.pid\n"
    "exec python3 server.py\n"
)

ENV_BIN = Path(sys.executable).parent  # has python3, like a task env would


def make_oracle(root: Path, start_sh: str | None = START_OK, executable: bool = True) -> Path:
    """An oracle folder with server.py and (optionally) a start.sh."""
    oracle = root / "oracle"
    oracle.mkdir(parents=True, exist_ok=True)
    (oracle / "server.py").write_text(SERVER)
    if start_sh is not None:
        script = oracle / "start.sh"
        script.write_text(start_sh)
        script.chmod(0o755 if executable else 0o644)
    return oracle


def pid_alive(pid: int) -> bool:
    """True if pid exists and is not a zombie (PID 1 here may not reap orphans)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state not in ("Z", "X")


def wait_file(path: Path, timeout_s: float = 10.0) -> str:
    """Poll until `path` has content (tests may poll; product code never sleeps blindly)."""
    end = time.monotonic() + timeout_s
    while time.monotonic() < end:
        if path.exists() and path.read_text().strip():
            return path.read_text().strip()
        time.sleep(0.02)
    raise AssertionError(f"{path} never appeared")


def get_json(url: str) -> dict:
    with urllib.request.urlopen(url, timeout=5) as resp:  # noqa: S310 (loopback only)
        return json.loads(resp.read())
