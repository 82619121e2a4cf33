"""Sign-ups under a record with a capacity, where the document gives one refusal code two
reasons ("400 if already enrolled", "400 if the workshop is full"): both reasons are kept, and
the generated suite passes on the service and catches a repeated sign-up let in, a capacity
checked one too late, and a full workshop answered 409."""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from pathlib import Path

from variant_suite import outcomes_on_variants

from pipeline.spec import extract_spec

README = textwrap.dedent("""\
    # Workshops

    1. Create Workshop
        - POST /workshops/
        - Payload: {"title": "Pottery", "room": "B2", "seats": 12}

    2. Get Workshop
        - GET /workshops/{workshop_id}

    3. Enrol
        - POST /workshops/{workshop_id}/enrol
        - Payload: {"name": "Ada", "email": "ada@example.com"}
        - Error Scenarios:
            - 400 if already enrolled
            - 400 if the workshop is full
            - 404 if the workshop does not exist
    """)

SERVER = textwrap.dedent("""\
    import json, os, re
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    WORKSHOPS = {}
    FULL_STATUS = 400
    CHECK_TWICE = True

    class H(BaseHTTPRequestHandler):
        def body(self):
            raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            try:
                return json.loads(raw)
            except ValueError:
                return None

        def do_POST(self):
            data = self.body()
            if not isinstance(data, dict):
                return self.reply(400, {"detail": "bad body"})
            if self.path == "/workshops/":
                wid = len(WORKSHOPS) + 1
                WORKSHOPS[wid] = {"id": wid, **data, "enrolled": []}
                return self.reply(201, {k: v for k, v in WORKSHOPS[wid].items()
                                        if k != "enrolled"})
            m = re.fullmatch(r"/workshops/(\\d+)/enrol", self.path)
            if not m or int(m.group(1)) not in WORKSHOPS:
                return self.reply(404, {"detail": "no such workshop"})
            w = WORKSHOPS[int(m.group(1))]
            if CHECK_TWICE and data.get("email") in [e["email"] for e in w["enrolled"]]:
                return self.reply(400, {"detail": "already enrolled"})
            if len(w["enrolled"]) >= w["seats"]:
                return self.reply(FULL_STATUS, {"detail": "full"})
            w["enrolled"].append(data)
            self.reply(201, data)

        def do_GET(self):
            m = re.fullmatch(r"/workshops/(\\d+)", self.path)
            if not m or int(m.group(1)) not in WORKSHOPS:
                return self.reply(404, {"detail": "no such workshop"})
            w = WORKSHOPS[int(m.group(1))]
            self.reply(200, {**{k: v for k, v in w.items() if k != "enrolled"},
                             "enrolled": len(w["enrolled"])})

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


def test_one_code_stated_for_two_reasons_keeps_both() -> None:
    enrol = next(e for e in extract_spec(README).endpoints if e.path.endswith("/enrol"))
    assert enrol.status_codes[400] == "if already enrolled; if the workshop is full"


def test_the_suite_catches_a_repeat_let_in_a_late_capacity_and_a_409(
        tmp_path: Path, task_factory: Callable[..., Path]) -> None:
    outcomes = outcomes_on_variants(
        tmp_path, task_factory, "workshops", README, SERVER,
        {"repeat let in": ("CHECK_TWICE = True", "CHECK_TWICE = False"),
         "one too many": ('len(w["enrolled"]) >= w["seats"]', 'len(w["enrolled"]) > w["seats"]'),
         "full is 409": ("FULL_STATUS = 400", "FULL_STATUS = 409")})
    assert {n for n, o in outcomes["good"].items() if o != "passed"} == set()
    twice = "test_post_workshop_enrol_twice_returns_400"
    full = "test_post_workshop_enrol_beyond_seats_returns_400"
    assert outcomes["repeat let in"][twice] == "failed"
    assert outcomes["one too many"][full] == "failed"
    assert outcomes["full is 409"][full] == "failed"
    assert outcomes["full is 409"][twice] == "passed"
