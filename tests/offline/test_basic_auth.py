"""A README whose accounts sign every request with HTTP Basic (`curl -u name:password`), shown as
`curl -i` transcripts, where an issued token may stand in the name field (`-u <token>:x`): the
spec reads the transcripts' answers and the token-as-name evidence, the observer sends the
account's credentials, and the generated suite passes on the oracle and catches a service that
takes any password, one that refuses the token in the name field, and a token answer without
its documented lifetime."""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from pathlib import Path

from variant_suite import SERVE_JSON, outcomes_on_variants

from pipeline.spec import extract_spec, load_spec
from pipeline.tasks import load_task

TOKEN = "c2Vuc29yLXRva2VuLWZvci1pdnktMTIzNDU2Nzg5MA"
README = textwrap.dedent(f"""\
    # Greenhouse

    Requests are authenticated with HTTP Basic Authentication.

    - POST **/api/gardeners**

        Create a gardener. The body defines `login` and `password`.
        On success a status code 201 is returned.

    - GET **/api/badge**

        The signed-in gardener's badge. On failure status code 401 is returned.

    - GET **/api/session-token**

        A token for the gardener. On failure status code 401 is returned.

    Example
    -------

        $ curl -i -X POST -H "Content-Type: application/json" \\
            -d '{{"login":"ivy","password":"fern"}}' http://localhost:8000/api/gardeners
        HTTP/1.0 201 CREATED
        Content-Type: application/json

        {{"login": "ivy"}}

    Then:

        $ curl -u ivy:fern -i http://localhost:8000/api/badge
        HTTP/1.0 200 OK
        Content-Type: application/json

        {{"badge": "Gardener ivy"}}

        $ curl -u ivy:fern -i http://localhost:8000/api/session-token
        HTTP/1.0 200 OK
        Content-Type: application/json

        {{"token": "{TOKEN}", "expires_in": 300}}

    The token can replace the login:

        $ curl -u {TOKEN}:x -i http://localhost:8000/api/badge
        HTTP/1.0 200 OK

        {{"badge": "Gardener ivy"}}
    """)

SERVER = textwrap.dedent("""\
    import base64, json, os, threading, uuid
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    USERS, TOKENS, LOCK = {}, {}, threading.Lock()
    CHECK_PASSWORD = True
    TOKEN_AS_NAME = True
    LIFETIME = True

    class H(BaseHTTPRequestHandler):
        def who(self):
            auth = self.headers.get("Authorization", "")
            if not auth.startswith("Basic "):
                return None
            name, _, password = base64.b64decode(auth[6:]).decode().partition(":")
            if TOKEN_AS_NAME and name in TOKENS:
                return TOKENS[name]
            if name in USERS and (USERS[name] == password or not CHECK_PASSWORD):
                return name
            return None

        def do_POST(self):
            raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            try:
                body = json.loads(raw)
            except ValueError:
                return self.reply(400, {"error": "bad json"})
            if self.path != "/api/gardeners":
                return self.reply(404, {"error": "no"})
            if not isinstance(body, dict) or not body.get("login") or not body.get("password"):
                return self.reply(400, {"error": "login and password"})
            with LOCK:
                if body["login"] in USERS:
                    return self.reply(400, {"error": "taken"})
                USERS[body["login"]] = body["password"]
            self.reply(201, {"login": body["login"]})

        def do_GET(self):
            if self.path not in ("/api/badge", "/api/session-token"):
                return self.reply(404, {"error": "no"})
            who = self.who()
            if who is None:
                return self.reply(401, {"error": "unauthorized"})
            if self.path == "/api/badge":
                return self.reply(200, {"badge": f"Gardener {who}"})
            token = uuid.uuid4().hex
            TOKENS[token] = who
            self.reply(200, {"token": token, **({"expires_in": 300} if LIFETIME else {})})

    """) + SERVE_JSON


def test_transcripts_give_answers_and_the_token_in_the_name_field_is_seen() -> None:
    spec = extract_spec(README)
    by = {(e.method, e.path): e for e in spec.endpoints}
    assert spec.auth is not None and spec.auth.scheme == "basic" and spec.auth.token_as_user
    assert by[("GET", "/api/session-token")].response_examples == {
        200: {"token": TOKEN, "expires_in": 300}}
    assert by[("GET", "/api/badge")].auth_required is True
    assert by[("POST", "/api/gardeners")].request_example == {"login": "ivy", "password": "fern"}
    assert "token_as_user" not in extract_spec("# X\n\nGET /x returns 200.\n").model_dump()


def test_the_suite_signs_with_basic_credentials_and_catches_three_faults(
        tmp_path: Path, task_factory: Callable[..., Path]) -> None:
    from pipeline.stages.observe import observe_task

    task = load_task(task_factory(tmp_path / "seen", "greenhouse", 8000, readme=README,
                                  server=SERVER))
    seen = observe_task(task, load_spec(task.readme), 30.0, None)
    assert ("GET", "/api/badge", 200) in [(o.method, o.path, o.status) for o in seen]
    outcomes = outcomes_on_variants(
        tmp_path, task_factory, "greenhouse", README, SERVER,
        {"any password": ("CHECK_PASSWORD = True", "CHECK_PASSWORD = False"),
         "no token as name": ("TOKEN_AS_NAME = True", "TOKEN_AS_NAME = False"),
         "no lifetime": ("LIFETIME = True", "LIFETIME = False")})
    assert {n for n, o in outcomes["good"].items() if o != "passed"} == set()
    opens = "test_basic_credentials_open_badge"
    token = "test_basic_token_in_the_name_field_opens_protected_reads"
    assert outcomes["any password"][opens] == "failed"
    assert outcomes["no token as name"][token] == "failed"
    assert outcomes["no token as name"][opens] == "passed"
    assert outcomes["no lifetime"][token] == "failed"
