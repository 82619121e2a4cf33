"""start_service: answers when started; one clear line for each way it can fail; no leftovers."""

from __future__ import annotations

import os
import socket

import pytest
from exec_helpers import ENV_BIN, START_GRANDCHILD, get_json, make_oracle, pid_alive, wait_file

from pipeline.execution import ServiceError, free_port, start_service
from pipeline.execution.process import live_groups


def _start_error(oracle, port: int, timeout_s: float = 20, kind: str | None = None) -> str:
    """Start a service that must fail; return its (single-line) ServiceError message."""
    with pytest.raises(ServiceError) as info, start_service(oracle, port, ENV_BIN, timeout_s):
        pytest.fail("the service should not have started")
    msg = str(info.value)
    assert "\n" not in msg, msg
    if kind is not None:
        assert info.value.kind == kind
    return msg


def test_service_starts_and_answers(tmp_path):
    oracle = make_oracle(tmp_path, START_GRANDCHILD)
    port = free_port()
    with start_service(oracle, port, ENV_BIN, startup_timeout_s=20) as svc:
        assert svc.base_url == f"http://127.0.0.1:{port}"
        assert get_json(svc.base_url + "/items/1") == {"path": "/items/1", "ok": True}
        assert svc.alive() and pid_alive(svc.pid)
        assert any(f"serving on {port}" in line for line in svc.tail(10))
        leader, gc = svc.pid, int(wait_file(oracle / "grandchild.pid"))
        assert pid_alive(gc)
    assert not pid_alive(leader) and not pid_alive(gc)
    assert leader not in live_groups()


def test_group_killed_after_exception_in_block(tmp_path):
    oracle = make_oracle(tmp_path, START_GRANDCHILD)
    with pytest.raises(KeyError), start_service(oracle, free_port(), ENV_BIN, 20) as svc:
        gc = int(wait_file(oracle / "grandchild.pid"))
        raise KeyError("boom")
    assert not pid_alive(svc.pid) and not pid_alive(gc)


def test_env_bin_comes_first_on_path(tmp_path):
    bin_dir = tmp_path / "envbin"
    bin_dir.mkdir()
    fake = bin_dir / "whoami-env"
    fake.write_text("#!/bin/sh\necho from-task-env\n")
    fake.chmod(0o755)
    start = f"#!/bin/sh\nwhoami-env\nexec {ENV_BIN}/python3 server.py\n"
    oracle = make_oracle(tmp_path, start)
    with start_service(oracle, free_port(), bin_dir, 20) as svc:
        assert "from-task-env" in svc.tail(20)


def test_missing_start_sh(tmp_path):
    oracle = make_oracle(tmp_path, start_sh=None)
    msg = _start_error(oracle, free_port(), 5, "missing")
    assert "start.sh not found" in msg and "$PORT" in msg


def test_start_sh_not_executable(tmp_path):
    oracle = make_oracle(tmp_path, executable=False)
    msg = _start_error(oracle, free_port(), 5, "not_executable")
    assert "not executable" in msg and "chmod +x" in msg


def test_start_sh_crashes_at_start(tmp_path):
    start = "#!/bin/sh\necho 'ModuleNotFoundError: No module named flaskk' >&2\nexit 3\n"
    oracle = make_oracle(tmp_path, start)
    port = free_port()
    msg = _start_error(oracle, port, 20, "exited")
    assert "exited with code 3" in msg
    assert "No module named flaskk" in msg  # the last log line
    assert f"PORT={port}" in msg  # the fix: run it by hand


def test_start_sh_that_backgrounds_and_exits(tmp_path):
    start = "#!/bin/sh\necho $$ > leader.pid\nsleep 300 &\necho $! > grandchild.pid\nexit 0\n"
    oracle = make_oracle(tmp_path, start)
    assert "foreground" in _start_error(oracle, free_port())
    assert not pid_alive(int(wait_file(oracle / "grandchild.pid")))


def test_never_listening_times_out_and_is_killed(tmp_path):
    start = "#!/bin/sh\necho $$ > leader.pid\necho 'warming up forever'\nexec sleep 300\n"
    oracle = make_oracle(tmp_path, start)
    port = free_port()
    msg = _start_error(oracle, port, 0.5, "timeout")
    assert f"did not answer HTTP on port {port} within 0.5s" in msg
    assert "warming up forever" in msg and "0.0.0.0:$PORT" in msg
    assert not pid_alive(int(wait_file(oracle / "leader.pid")))
    assert not live_groups()


def test_port_in_use(tmp_path):
    oracle = make_oracle(tmp_path)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        msg = _start_error(oracle, port, 5, "port_in_use")
    assert msg == (
        f"port {port} is in use: stop what holds it or change `port` in task.toml")


def test_log_kept_when_path_given(tmp_path):
    oracle = make_oracle(tmp_path)
    log = tmp_path / "logs" / "svc.log"
    with start_service(oracle, free_port(), ENV_BIN, 20, log_path=log) as svc:
        get_json(svc.base_url + "/")
    assert log.exists() and "request" in log.read_text()
    assert os.access(log, os.R_OK)


RANDOM_SERVER = '''
import http.server, json, os, random

class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        body = json.dumps({"draw": random.random(), "order": list({"a", "b", "c", "d"})}).encode()
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

http.server.HTTPServer(("0.0.0.0", int(os.environ["PORT"])), Handler).serve_forever()
'''


def test_a_service_drawing_random_numbers_answers_the_same_on_every_start(tmp_path):
    """A game oracle's random move must not decide whether a test kills a mutant."""
    oracle = make_oracle(tmp_path)
    (oracle / "server.py").write_text(RANDOM_SERVER)
    answers = []
    for _ in range(2):
        with start_service(oracle, free_port(), ENV_BIN, 20) as svc:
            answers.append([get_json(svc.base_url + "/") for _ in range(3)])
    assert answers[0] == answers[1]
    draws = [a["draw"] for a in answers[0]]
    assert len(set(draws)) == 3  # still random within a run, only reproducible across runs
