"""A README whose login is an OAuth2 password form (`-d "username=..&password=.."`, the token
read with `jq -r .access_token`) and whose records sit behind that login: the spec reads the
form, the observer signs in as the document shows, and the generated suite logs in with the
registered account's email as its `username`, passes on the oracle and catches a lost record, a
login that takes any password, and a pin action that toggles or pins the wrong note."""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from pathlib import Path

from variant_suite import SERVE_JSON

from pipeline.spec import extract_spec, load_spec
from pipeline.stages.observe import observe_task
from pipeline.tasks import load_task

README = textwrap.dedent("""\
    # Notes

    ### Register

    ```shell
    curl -X POST "http://localhost:8000/register" \\
      -H "Content-Type: application/json" \\
      -d '{"email": "ada@example.com", "password": "s3cret-pass"}'
    ```

    ### Log in

    ```shell
    export TOKEN=$(curl -s -X POST "http://localhost:8000/token" \\
      -H "Content-Type: application/x-www-form-urlencoded" \\
      -d "username=ada@example.com&password=s3cret-pass" | jq -r .access_token)
    ```

    ### Add a note

    ```shell
    curl -X POST "http://localhost:8000/notes" -H "Authorization: Bearer $TOKEN" \\
      -H "Content-Type: application/json" -d '{"text": "buy milk"}'
    ```

    ### List notes

    ```shell
    curl "http://localhost:8000/notes" -H "Authorization: Bearer $TOKEN"
    ```

    ### Pin a note

    ```shell
    curl -X PATCH "http://localhost:8000/notes/1/pin" -H "Authorization: Bearer $TOKEN"
    ```

    ### Delete a note

    ```shell
    curl -X DELETE "http://localhost:8000/notes/1" -H "Authorization: Bearer $TOKEN"
    ```
    """)

SERVER = textwrap.dedent("""\
    import json, os, threading, uuid
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
    from urllib.parse import parse_qs

    USERS, TOKENS, NOTES, LOCK = {}, {}, [], threading.Lock()
    KEEP_NOTES = True
    CHECK_PASSWORD = True
    PIN = "True"  # what pinning sets: "not note['pinned']" toggles
    PIN_FIRST = False  # pin the caller's first note whatever the id

    class H(BaseHTTPRequestHandler):
        def raw(self):
            return self.rfile.read(int(self.headers.get("Content-Length") or 0)).decode()

        def user(self):
            auth = self.headers.get("Authorization", "")
            return TOKENS.get(auth[7:]) if auth.startswith("Bearer ") else None

        def do_POST(self):
            if self.path == "/register":
                try:
                    body = json.loads(self.raw())
                except ValueError:
                    return self.reply(400, {"detail": "not JSON"})
                with LOCK:
                    if body["email"] in USERS:
                        return self.reply(400, {"detail": "taken"})
                    USERS[body["email"]] = body["password"]
                return self.reply(201, {"email": body["email"]})
            if self.path == "/token":
                if "x-www-form-urlencoded" not in self.headers.get("Content-Type", ""):
                    return self.reply(422, {"detail": "form expected"})
                form = {k: v[0] for k, v in parse_qs(self.raw()).items()}
                known = form.get("username") in USERS
                if not known or (CHECK_PASSWORD
                                 and USERS[form["username"]] != form.get("password")):
                    return self.reply(401, {"detail": "bad credentials"})
                token = uuid.uuid4().hex
                TOKENS[token] = form["username"]
                return self.reply(200, {"access_token": token, "token_type": "bearer"})
            if self.path == "/notes":
                who = self.user()
                if who is None:
                    return self.reply(401, {"detail": "not authenticated"})
                note = {"id": len(NOTES) + 1, "owner": who, "pinned": False,
                        **json.loads(self.raw())}
                if KEEP_NOTES:
                    NOTES.append(note)
                return self.reply(201, note)
            self.reply(404, {"detail": "no route"})

        def do_GET(self):
            if self.path != "/notes":
                return self.reply(404, {"detail": "no route"})
            who = self.user()
            if who is None:
                return self.reply(401, {"detail": "not authenticated"})
            self.reply(200, [n for n in NOTES if n["owner"] == who])

        def do_PATCH(self):
            who = self.user()
            if who is None:
                return self.reply(401, {"detail": "not authenticated"})
            mine = [n for n in NOTES if n["owner"] == who]
            found = next((n for n in mine if self.path == f"/notes/{n['id']}/pin"
                          or PIN_FIRST), None)
            if found is None:
                return self.reply(404, {"detail": "not found"})
            found["pinned"] = eval(PIN, {"note": found})
            self.reply(200, found)

        def do_DELETE(self):
            who, found = self.user(), None
            if who is None:
                return self.reply(401, {"detail": "not authenticated"})
            with LOCK:
                found = next((n for n in NOTES if self.path == f"/notes/{n['id']}"
                              and n["owner"] == who), None)
                if found is None:
                    return self.reply(404, {"detail": "not found"})
                NOTES.remove(found)
            self.reply(200, {"detail": "deleted"})

    """) + SERVE_JSON


def test_the_form_login_is_read_as_a_form_with_the_token_field_it_answers() -> None:
    spec = extract_spec(README)
    login = next(e for e in spec.endpoints if e.path == "/token")
    register = next(e for e in spec.endpoints if e.path == "/register")
    assert login.request_form and not register.request_form
    assert login.request_example == {"username": "ada@example.com", "password": "s3cret-pass"}
    assert login.response_schema == {"type": "object", "properties": {"access_token": {}}}
    assert spec.auth is not None and spec.auth.login_path == "/token"
    assert "request_form" not in register.model_dump()  # JSON endpoints keep their bytes
    assert login.model_dump()["request_form"] is True


def test_the_observer_signs_in_and_sees_the_protected_records(
        tmp_path: Path, task_factory: Callable[..., Path]) -> None:
    task = load_task(task_factory(tmp_path, "notes", 8000, readme=README, server=SERVER))
    observed = observe_task(task, load_spec(task.readme), 30.0, None)
    assert [(o.method, o.sent_path, o.status) for o in observed] == [
        ("POST", "/notes", 201), ("GET", "/notes", 200)]
    assert observed[1].answer == [{"id": 1, "owner": "ada@example.com", "pinned": False,
                                   "text": "buy milk"}]


def test_the_suite_logs_in_passes_on_the_oracle_and_catches_a_lost_record(
        tmp_path: Path, task_factory: Callable[..., Path]) -> None:
    from pipeline.execution import free_port, run_pytest, start_service
    from pipeline.offline.generate import generate_cases
    from pipeline.suites import conftest_source, module_source

    good = load_task(task_factory(tmp_path, "notes", 8000, readme=README, server=SERVER))
    lost = load_task(task_factory(tmp_path / "faulty", "notes", 8000, readme=README,
                                  server=SERVER.replace("KEEP_NOTES = True",
                                                        "KEEP_NOTES = False")))
    spec = load_spec(good.readme)
    spec.observed = observe_task(good, spec, 30.0, None)  # the suite is made on the oracle
    cases = generate_cases("notes", spec)
    tests = tmp_path / "suite"
    tests.mkdir()
    conftest = conftest_source(spec, 8000)
    assert 'sources = {"username": "email"}' in conftest and "data=body" in conftest
    (tests / "conftest.py").write_text(conftest)
    (tests / "test_it.py").write_text(module_source(cases))
    outcomes = {}
    faults = {"lost": ("KEEP_NOTES = True", "KEEP_NOTES = False"),
              "any password": ("CHECK_PASSWORD = True", "CHECK_PASSWORD = False"),
              "toggle": ('PIN = "True"', "PIN = \"not note['pinned']\""),
              "first note": ("PIN_FIRST = False", "PIN_FIRST = True")}
    tasks = {"good": good, "lost": lost}
    for name, (old, new) in list(faults.items())[1:]:
        tasks[name] = load_task(task_factory(tmp_path / name.replace(" ", "-"), "notes", 8000,
                                             readme=README, server=SERVER.replace(old, new)))
    for name, task in tasks.items():
        with start_service(task.oracle_dir, free_port(), None) as service:
            run = run_pytest(tests, service.base_url, 120)
        outcomes[name] = {t.nodeid.split("::")[-1]: t.outcome for t in run.tests}
    assert {n for n, o in outcomes["good"].items() if o != "passed"} == set()
    flag = "test_pin_sets_note_state_and_only_its_own"
    wrong = "test_login_with_a_wrong_password_is_refused"
    for name in ("test_created_note_appears_in_list",
                 "test_note_lifecycle_create_read_update_delete", flag, wrong):
        assert name in outcomes["good"]
    assert outcomes["lost"]["test_created_note_appears_in_list"] == "failed"
    assert outcomes["lost"][wrong] == "passed"
    assert outcomes["any password"][wrong] == "failed"
    assert outcomes["toggle"][flag] == "failed"
    assert outcomes["first note"][flag] == "failed"
    assert outcomes["any password"][flag] == outcomes["first note"][wrong] == "passed"
