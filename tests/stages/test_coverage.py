"""Never an empty suite: untested endpoints are named, a task with no accepted case fails."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from pipeline.execution import free_port
from pipeline.records import Endpoint, Spec, TestCase
from pipeline.stages.coverage import endpoints_without_accepted, no_accepted_reason

SPEC = Spec(endpoints=[Endpoint(method="GET", path="/a"), Endpoint(method="POST", path="/a"),
                       Endpoint(method="GET", path="/a/{id}")])


def _case(*endpoints: str) -> TestCase:
    return TestCase(case_id="t::x", task_id="t", round=0, category="api_compliance",
                    name="test_x", code="def test_x():\n    pass\n", endpoints=list(endpoints))


def test_endpoints_without_accepted_keep_document_order() -> None:
    assert endpoints_without_accepted(SPEC, []) == ["GET /a", "POST /a", "GET /a/{id}"]
    assert endpoints_without_accepted(SPEC, [_case("POST /a", "GET /a/{id}")]) == ["GET /a"]
    assert endpoints_without_accepted(SPEC, [_case("GET /a"), _case("POST /a", "GET /a/{id}")
                                             ]) == []


def test_no_accepted_reason_names_the_discards() -> None:
    assert no_accepted_reason(SPEC, {"accepted": 1, "discarded:low_quality": 4}) is None
    assert no_accepted_reason(SPEC, {"area_chair": 1}) is None  # a human still decides
    reason = no_accepted_reason(SPEC, {"discarded:fails_on_oracle": 3,
                                       "discarded:low_quality": 1})
    assert reason is not None
    assert "3 documented endpoint(s)" in reason
    assert "1 low_quality" in reason and "3 fails_on_oracle" in reason
    assert "no case was generated" in (no_accepted_reason(SPEC, {}) or "")


# Answers every request with 500 (the readiness probe only needs an answer): no case can
# pass on it, so nothing is ever accepted.
BROKEN = textwrap.dedent("""\
    import os
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    class H(BaseHTTPRequestHandler):
        def answer(self):
            self.send_response(500)
            self.send_header("Content-Length", "0")
            self.end_headers()

        do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = answer

        def log_message(self, *args):
            pass

    ThreadingHTTPServer(("0.0.0.0", int(os.environ["PORT"])), H).serve_forever()
    """)


@pytest.mark.slow
def test_task_without_accepted_case_fails_and_is_not_published(tmp_path: Path,
                                                                task_factory) -> None:
    raw = tmp_path / "data" / "raw"
    task_factory(raw, "healthy", free_port())
    task_factory(raw, "broken", free_port(), server=BROKEN)
    env = {**os.environ, "REPOGENESIS_MAX_ROUNDS": "1", "REPOGENESIS_MUTATION_CAP": "0",
           "REPOGENESIS_STARTUP_TIMEOUT_S": "20"}
    data = tmp_path / "data"
    proc = subprocess.run([sys.executable, "-m", "pipeline", "build", "--data", str(data)],
                          capture_output=True, text=True, env=env, timeout=600)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    status = json.loads(subprocess.run(
        [sys.executable, "-m", "pipeline", "status", "--json", "--data", str(data)],
        capture_output=True, text=True, env=env).stdout)["tasks"]
    broken = status["broken"]
    assert broken["state"] == "failed" and broken["accepted"] == 0
    assert "no accepted test case" in broken["error"]
    assert broken["endpoints_without_accepted"] == ["GET /ping", "GET /items/{id}"]
    assert status["healthy"]["state"] == "done"
    # the generated GET /ping case checks the documented value of `pong`, not only its key
    # and type, so the reviewers accept it and every endpoint of the healthy task is covered
    assert status["healthy"]["endpoints_without_accepted"] == []
    assert {p.parent.name for p in data.glob("*/*/task.json")} == {"healthy"}
    shown = subprocess.run([sys.executable, "-m", "pipeline", "status", "--data", str(data)],
                           capture_output=True, text=True, env=env).stdout
    assert "broken: no accepted case for GET /ping, GET /items/{id}" in " ".join(shown.split())


def test_a_human_case_covers_what_its_runs_sent() -> None:
    human = _case().model_copy(update={"case_id": "t::h", "origin": "existing"})
    sent = {"t::h": ["GET /a/42", "DELETE /a/42"]}  # DELETE /a/{id} is not documented
    assert endpoints_without_accepted(SPEC, [human], sent) == ["GET /a", "POST /a"]
    assert endpoints_without_accepted(SPEC, [human]) == ["GET /a", "POST /a", "GET /a/{id}"]
    # a case that declares its endpoints is taken at its word
    declared = _case("POST /a")
    assert endpoints_without_accepted(SPEC, [declared], {"t::x": ["GET /a"]}) == [
        "GET /a", "GET /a/{id}"]
