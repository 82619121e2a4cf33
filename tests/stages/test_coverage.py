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
    assert "GET /ping" not in status["healthy"]["endpoints_without_behaviour"]
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


BOOKS = Spec(base_path="/api", endpoints=[
    Endpoint(method="POST", path="/api/books"), Endpoint(method="GET", path="/api/books/{id}"),
    Endpoint(method="GET", path="/api/health"),  # documents nothing it answers
    Endpoint(method="GET", path="/api/stats", response_example={"books": 1}),
    Endpoint(method="DELETE", path="/api/books/{id}")])


def _coded(code: str, *endpoints: str) -> TestCase:
    name = code.split("def ", 1)[1].split("(", 1)[0]
    return TestCase(case_id=f"t::{name}", task_id="t", round=0, category="api_compliance",
                    name=name, code=textwrap.dedent(code), endpoints=list(endpoints))


ROUND_TRIP = _coded("""\
    def test_round_trip(client):
        made = client.post("/books", json={"title": "Dune"})
        assert made.status_code == 201
        got = client.get(f"/books/{made.json()['id']}")
        assert got.json()["title"] == "Dune"
    """, "POST /api/books", "GET /api/books/{id}")
SHAPES = _coded("""\
    def test_shapes(client):
        assert client.get("/stats").status_code == 200
        gone = client.delete("/books/1")
        assert gone.status_code in (204, 404)
        assert "books" in client.get("/stats").json()
    """, "GET /api/stats", "DELETE /api/books/{id}")
GONE = _coded("""\
    def test_gone(client, book_id):
        assert client.delete(f"/books/{book_id}").status_code == 204
        assert client.get(f"/books/{book_id}").status_code == 404
    """, "DELETE /api/books/{id}", "GET /api/books/{id}")


def test_endpoints_without_behaviour_are_those_checked_only_for_shape() -> None:
    from pipeline.stages.coverage import endpoints_without_behaviour

    # the value read back checks the write before it and the read; a health check that
    # documents no answer states no behaviour to check
    assert endpoints_without_behaviour(BOOKS, [ROUND_TRIP, SHAPES]) == [
        "GET /api/stats", "DELETE /api/books/{id}"]
    # a delete seen through the later 404 is a side effect checked
    assert endpoints_without_behaviour(BOOKS, [ROUND_TRIP, SHAPES, GONE]) == ["GET /api/stats"]
    # shape-only cases check no value for anything they declare
    assert endpoints_without_behaviour(BOOKS, [SHAPES]) == [
        "POST /api/books", "GET /api/books/{id}", "GET /api/stats", "DELETE /api/books/{id}"]


def test_a_write_sent_by_a_helper_counts_for_the_value_read_after_it() -> None:
    from pipeline.stages.coverage import behaviour_endpoints

    helper = _coded("""\
        def test_helper(client):
            book = make_book(client, title="Dune")
            assert client.get(f"/books/{book['id']}").json()["title"] == "Dune"
        """, "POST /api/books", "GET /api/books/{id}")
    assert behaviour_endpoints(BOOKS, helper) == {"POST /api/books", "GET /api/books/{id}"}
    # a write sent after the last value check is checked by its status only
    status_only = _coded("""\
        def test_status_only(client):
            assert client.get("/books/2").json()["title"] == "x"
            assert client.delete("/books/1").status_code == 404
        """, "DELETE /api/books/{id}", "GET /api/books/{id}")
    assert behaviour_endpoints(BOOKS, status_only) == {"GET /api/books/{id}"}


def test_a_token_is_checked_by_the_request_it_opens() -> None:
    from pipeline.stages.coverage import behaviour_endpoints

    spec = Spec(endpoints=[
        Endpoint(method="GET", path="/api/token", response_example={"token": "t"}),
        Endpoint(method="GET", path="/api/books", response_example=[{"title": "Dune"}])])
    opened = _coded("""\
        def test_opened(client):
            issued = client.get("/api/token", auth=("ann", "pw"))
            token = issued.json()["token"]
            headers = {"Authorization": f"Bearer {token}"}
            listed = client.get("/api/books", headers=headers)
            assert 200 <= listed.status_code < 300
        """, "GET /api/token", "GET /api/books")
    assert behaviour_endpoints(spec, opened) == {"GET /api/token"}
    # a token read but never used, or a request refused with it, checks nothing of it
    unused = _coded("""\
        def test_unused(client):
            issued = client.get("/api/token", auth=("ann", "pw"))
            token = issued.json()["token"]
            plain = client.get("/api/books", headers=other_headers)
            assert plain.status_code == 200
            refused = client.get("/api/books", headers={"T": token})
            assert refused.status_code == 401
        """, "GET /api/token", "GET /api/books")
    assert behaviour_endpoints(spec, unused) == set()
