"""A README of curl examples and no answers (the common walkthrough): the build sends the
examples to the running oracle first, and the suite written from what came back passes on it
and catches an update that is not stored."""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from pathlib import Path

from pipeline.offline.gen_run import first_error, run_generated
from pipeline.spec import load_spec
from pipeline.stages.observe import observe_task
from pipeline.tasks import load_task

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
                new = len(STAFF) + 1
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
