"""A prose document that says once per endpoint "On failure status code 400 is returned" and
that the body "must contain" two fields, and whose records show no id (the create's
`Location` header names the new one). The suite reads the id from `Location`, and catches a
missing field accepted, an unknown id answered 404 instead of the documented 400, and a
registration that shows the password back."""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from pathlib import Path

from variant_suite import SERVE_JSON, outcomes_on_variants

from pipeline.spec import extract_spec

README = textwrap.dedent("""\
    # Members

    - POST **/api/members**

        Add a member.<br>
        The body must contain a JSON object that defines `nickname` and `password` fields.<br>
        On success a status code 201 is returned. The body of the response contains a JSON
        object with the new member. A `Location` header contains the URI of the new member.<br>
        On failure status code 400 (bad request) is returned.

    - GET **/api/members/&lt;int:id&gt;**

        Return a member.<br>
        On success a status code 200 is returned. The body of the response contains a JSON
        object with the member, for example `{"nickname": "ann"}`.<br>
        On failure status code 400 (bad request) is returned.
    """)

SERVER = textwrap.dedent("""\
    import json, os, re
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    MEMBERS = {}
    UNKNOWN = 400
    NEED_PASSWORD = True
    ECHO = False

    class H(BaseHTTPRequestHandler):
        def do_POST(self):
            body = self.body()
            if self.path != "/api/members" or not isinstance(body, dict) \\
                    or not body.get("nickname") or (NEED_PASSWORD and not body.get("password")):
                return self.reply(400, {"error": "bad request"})
            new = max([0, *MEMBERS]) + 1
            MEMBERS[new] = {"nickname": body["nickname"]}
            shown = dict(MEMBERS[new], password=body.get("password")) if ECHO else MEMBERS[new]
            return self.reply(201, shown, location=f"/api/members/{new}")

        def do_GET(self):
            m = re.fullmatch(r"/api/members/(\\d+)", self.path)
            if not m or int(m.group(1)) not in MEMBERS:
                return self.reply(UNKNOWN, {"error": "no such member"})
            return self.reply(200, MEMBERS[int(m.group(1))])
    """) + SERVE_JSON


def test_the_prose_names_the_required_fields() -> None:
    create = next(e for e in extract_spec(README).endpoints if e.method == "POST")
    assert {(p.name, p.required) for p in create.params} == {("nickname", True),
                                                             ("password", True)}


def test_documented_failures_and_a_location_id(
        tmp_path: Path, task_factory: Callable[..., Path]) -> None:
    outcomes = outcomes_on_variants(
        tmp_path, task_factory, "members", README, SERVER,
        {"404 for unknown": ("UNKNOWN = 400", "UNKNOWN = 404"),
         "password optional": ("NEED_PASSWORD = True", "NEED_PASSWORD = False"),
         "password shown": ("ECHO = False", "ECHO = True")})
    good = outcomes["good"]
    rules = {"404 for unknown": "test_get_member_unknown_id_returns_400",
             "password optional": "test_create_member_without_password_is_refused_with_400",
             "password shown": "test_create_member_returns_201_with_record"}
    for variant, name in rules.items():
        assert good.get(name) == "passed", (name, good)
        assert outcomes[variant][name] == "failed", (variant, outcomes[variant])
    assert good.get("test_get_member_returns_created_member") == "passed", good
