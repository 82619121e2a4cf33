"""A README of curl examples and no answers (the common walkthrough): the build sends the
examples to the running oracle first, and the suite written from what came back passes on it
and catches an update that is not stored."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path

import pytest

from pipeline.execution import free_port
from pipeline.spec import load_spec
from pipeline.stages.generated_run import first_error, run_generated
from pipeline.stages.observe import observe_task
from pipeline.tasks import load_task

ROOT = Path(__file__).resolve().parents[2]

README = textwrap.dedent("""\
    # Staff API

    Create Staff

    ```bash
    curl -X POST http://localhost:8000/staff \\
    -H "Content-Type: application/json" \\
    -d '{
        "name": "Ada",
        "grade": 3
    }'
    ```
    Get All Staff

    ```bash
    curl -X GET http://localhost:8000/staff
    ```
    Get Staff by ID

    ```bash
    curl -X GET http://localhost:8000/staff/1
    ```
    Update Staff

    ```bash
    curl -X PUT http://localhost:8000/staff/1 \\
    -H "Content-Type: application/json" \\
    -d '{"name": "Bea", "grade": 4}'
    ```
    Delete Staff

    ```bash
    curl -X DELETE http://localhost:8000/staff/1
    ```
    """)

SERVER = textwrap.dedent("""\
    import json, os, re, threading
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    STAFF, LOCK = {}, threading.Lock()
    STORE_UPDATES = True

    class H(BaseHTTPRequestHandler):
        def body(self):
            return json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)))

        def item(self):
            m = re.fullmatch(r"/staff/(\\d+)", self.path)
            return int(m.group(1)) if m else None

        def do_POST(self):
            if self.path != "/staff":
                return self.reply(404, {"status": "no route"})
            with LOCK:
                new = max(STAFF, default=0) + 1  # never an id a record still has
                STAFF[new] = {"id": new, **self.body()}
            self.reply(201, {"status": "Staff added"})

        def do_GET(self):
            if self.path == "/staff":
                return self.reply(200, {"staff": list(STAFF.values())})
            key = self.item()
            if key in STAFF:
                return self.reply(200, {"member": STAFF[key]})
            self.reply(404, {"status": "not found"})

        def do_PUT(self):
            key, changes = self.item(), self.body()
            if key not in STAFF:
                return self.reply(404, {"status": "not found"})
            if STORE_UPDATES:
                STAFF[key].update(changes)
            self.reply(200, {"status": "Staff updated"})

        def do_DELETE(self):
            key = self.item()
            if STAFF.pop(key, None) is None:
                return self.reply(404, {"status": "not found"})
            self.reply(200, {"status": "Staff deleted"})

        def reply(self, status, body):
            data = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args):
            pass

    ThreadingHTTPServer(("127.0.0.1", int(os.environ["PORT"])), H).serve_forever()
    """)


def test_the_examples_are_sent_in_order_and_their_answers_kept(
        tmp_path: Path, task_factory: Callable[..., Path]) -> None:
    task = load_task(task_factory(tmp_path, "staff", 8000, readme=README, server=SERVER))
    observed = observe_task(task, load_spec(task.readme), 30.0, None)
    assert [(o.method, o.sent_path, o.status) for o in observed] == [
        ("POST", "/staff", 201), ("GET", "/staff", 200), ("GET", "/staff/1", 200),
        ("PUT", "/staff/1", 200)]
    assert observed[2].answer == {"member": {"id": 1, "name": "Ada", "grade": 3}}


def test_the_suite_passes_on_the_oracle_and_catches_an_update_not_stored(
        tmp_path: Path, task_factory: Callable[..., Path]) -> None:
    good = run_generated(task_factory(tmp_path, "staff", 8000, readme=README, server=SERVER),
                         runs=2)
    failing = {n: first_error(good.outputs.get(n, "")) for n in good.failing()}
    assert failing == {}
    assert "test_staff_lifecycle_create_read_update_delete" in good.outcomes[0]
    broken = SERVER.replace("STORE_UPDATES = True", "STORE_UPDATES = False")
    bad = run_generated(task_factory(tmp_path / "faulty", "staff", 8000, readme=README,
                                  server=broken), runs=1)
    assert "test_staff_lifecycle_create_read_update_delete" in bad.failing()


FAILING = '''def test_get_staff_returns_created_staff(base_url, session):
    payload = {"name": "Ada", "grade": 3}
    created = session.post(f"{base_url}/staff", json=payload)
    assert created.status_code == 201, created.text
    staff = created.json()
    staff_id = staff["id"]
    fetched = session.get(f"{base_url}/staff/{staff_id}")
    assert fetched.status_code == 200, fetched.text
'''


def test_a_setup_that_cannot_find_its_record_is_repaired_and_then_passes(
        tmp_path: Path, task_factory: Callable[..., Path]) -> None:
    """`staff["id"]` raised KeyError on `{"status": "Staff added"}`: the refiner looks the
    record up (answer, else list) instead of giving up, and the refined case passes."""
    from pipeline.execution import free_port, run_pytest, start_service
    from pipeline.offline.refine import refine_case
    from pipeline.records import Evidence, RunResult, TestCase
    from pipeline.suites import conftest_source, module_source

    task = load_task(task_factory(tmp_path, "staff", 8000, readme=README, server=SERVER))
    spec = load_spec(task.readme)
    spec.observed = observe_task(task, spec, 30.0, None)
    case = TestCase(case_id="staff::t", task_id="staff", round=0, category="api_compliance",
                    name="test_get_staff_returns_created_staff", code=FAILING,
                    origin="generated", author="offline")
    output = '>       staff_id = staff["id"]\nE       KeyError: \'id\'\n'
    evidence = Evidence(case_id=case.case_id, round=0,
                        runs=[RunResult(outcome="failed", output=output)])
    refined = refine_case(case, evidence, [], spec)
    assert refined.round == 1
    assert ('staff = created_record(session, created, f"{base_url}/staff", payload, "staff")'
            in refined.code)
    assert 'staff_id = id_of_record(staff, "staff")' in refined.code
    tests = tmp_path / "suite"
    tests.mkdir()
    (tests / "conftest.py").write_text(conftest_source(spec, 8000))
    with start_service(task.oracle_dir, free_port(), None) as service:
        for version in (case, refined):
            (tests / "test_it.py").write_text(module_source([version]))
            run = run_pytest(tests, service.base_url, 60)
            assert [t.outcome for t in run.tests] == (
                ["passed"] if version is refined else ["failed"])


@pytest.mark.slow
def test_a_build_of_a_curl_only_readme_publishes_round_trips_with_their_helpers(
        tmp_path: Path, task_factory: Callable[..., Path]) -> None:
    """The build observes before it generates: the published suite of a README with no
    answers holds a create-read-update-delete test, and its module carries the helpers."""
    data = tmp_path / "data"
    task_factory(data / "raw", "staff", free_port(), readme=README, server=SERVER)
    proc = subprocess.run(
        [sys.executable, "-m", "pipeline", "build", "--data", str(data)], cwd=ROOT,
        capture_output=True, text=True, timeout=600,
        env={**os.environ, "REPOGENESIS_MUTATION_CAP": "0"})
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    published = "\n".join(p.read_text() for p in (data / "train" / "staff").rglob("test_*.py"))
    assert "def test_staff_lifecycle_create_read_update_delete(" in published
    assert "def created_record(" in published
