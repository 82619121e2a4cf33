"""Faults stay with their own task: a malformed task, an oracle that dies mid-build, a test
that hangs. Each shows a clear reason in `status`, and the healthy task is still built."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from pipeline.execution import free_port

pytestmark = pytest.mark.slow

# Serves three requests, then exits: it answers the readiness probe, then dies mid-run.
DYING = textwrap.dedent("""\
    import json, os
    from http.server import BaseHTTPRequestHandler, HTTPServer

    class H(BaseHTTPRequestHandler):
        def do_GET(self):
            data = json.dumps({"pong": True}).encode()
            self.send_response(200 if self.path == "/ping" else 404)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args):
            pass

    server = HTTPServer(("0.0.0.0", int(os.environ["PORT"])), H)
    for _ in range(3):
        server.handle_request()
    print("oracle gave up after three requests", flush=True)
    """)

HANGING_TEST = textwrap.dedent("""\
    import os
    import time

    import requests


    def test_ping_answers_pong():
        base = os.environ.get("SERVICE_BASE_URL", "http://localhost:1")
        response = requests.get(base + "/ping", timeout=5)
        assert response.status_code == 200
        assert response.json() == {"pong": True}


    def test_waits_forever():
        time.sleep(3600)
    """)


def test_faults_stay_with_their_task(tmp_path: Path, task_factory) -> None:
    raw = tmp_path / "data" / "raw"
    task_factory(raw, "healthy", free_port())
    task_factory(raw, "broken-toml", free_port(), toml='id = "broken-toml"\nport = "x"\n')
    task_factory(raw, "dying", free_port(), server=DYING)
    hangs = task_factory(raw, "hangs", free_port())
    (hangs / "tests").mkdir()
    (hangs / "tests" / "test_human.py").write_text(HANGING_TEST)
    env = {**os.environ, "REPOGENESIS_CASE_TIMEOUT_S": "3", "REPOGENESIS_MAX_ROUNDS": "1",
           "REPOGENESIS_STARTUP_TIMEOUT_S": "20"}
    data = tmp_path / "data"
    proc = subprocess.run([sys.executable, "-m", "pipeline", "build", "--data", str(data)],
                          capture_output=True, text=True, env=env, timeout=600)
    assert proc.returncode == 1, proc.stdout + proc.stderr  # some tasks failed
    status = json.loads(subprocess.run(
        [sys.executable, "-m", "pipeline", "status", "--json", "--data", str(data)],
        capture_output=True, text=True, env=env).stdout)["tasks"]

    assert status["broken-toml"]["state"] == "failed"
    assert "task.toml" in status["broken-toml"]["error"]
    assert "port" in status["broken-toml"]["error"]

    assert status["dying"]["state"] == "failed"
    assert "exited while the tests ran" in status["dying"]["error"]
    assert "gave up after three requests" in status["dying"]["error"]

    assert status["healthy"]["state"] == "done"
    assert status["healthy"]["accepted"] > 0

    # The hanging human test is failed alone by the per-case timeout; the rest still pass.
    assert status["hangs"]["state"] == "done"
    assert status["hangs"]["accepted"] > 0
    assert status["hangs"]["discarded"].get("fails_on_oracle", 0) >= 1
    written = {p.parent.name for p in data.glob("*/*/task.json")}
    assert written == {"healthy", "hangs"}
    hang_json = json.loads(next(data.glob("*/hangs/task.json")).read_text())
    names = {c["name"] for c in hang_json["test_cases"]}
    assert "test_waits_forever" not in names
