"""A table-only document (method, URL, request and response models) whose item path is a
regex group (`/api/v1/member/([0-9]*)`) and whose records carry an id the client chooses
(`uid`, sent in the create body, a second create of it a conflict): the suite sends a fresh
all-digit `uid` each run, reads each record back by it, and sends the record's own `uid` in
an update body (a made-up one would move the record); it catches a lost update, a lost
delete, and a read of the first record whatever the id."""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from pathlib import Path

from variant_suite import SERVE_JSON, outcomes_on_variants

from pipeline.offline.gen_model import build_model
from pipeline.spec import extract_spec

README = textwrap.dedent("""\
    # Member registry

    ### Available endpoints

    | HTTP Method | URL                      | REQUEST BODY           | RESPONSE BODY          |
    |-------------|--------------------------|------------------------|------------------------|
    | GET         | /api/v1/member           |                        | Ref [Array Member](#array) |
    | POST        | /api/v1/member           |                        | Ref [Member](#member)  |
    | GET         | /api/v1/member/([0-9]*)  |                        | Ref [Member](#member)  |
    | PUT         | /api/v1/member/([0-9]*)  | Ref [Member](#member)  | Ref [Member](#member)  |
    | DELETE      | /api/v1/member/([0-9]*)  |                        | Ref [Member](#member)  |

    ### Model

    #### Array

    ```javascript
    [
        {
            "uid": "string",
            "name": "string",
            "email": "string"
        }
    ]
    ```

    #### Member

    ```javascript
    {
        "uid": "string",
        "name": "string",
        "email": "string"
    }
    ```
    """)

SERVER = textwrap.dedent("""\
    import json, os, re
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    MEMBERS = []
    SAVE_PUT = True
    FORGET = True
    BY_UID = True

    def find(uid):
        if not BY_UID:  # the first record, whatever the id
            return MEMBERS[0] if MEMBERS else None
        return next((m for m in MEMBERS if m["uid"] == uid), None)

    class H(BaseHTTPRequestHandler):
        def do_GET(self):
            if self.path == "/api/v1/member":
                return self.reply(200, MEMBERS)
            m = re.fullmatch(r"/api/v1/member/([0-9]*)", self.path)
            if not m:
                return self.reply(404, {"message": "no route"})
            found = find(m.group(1))
            return self.reply(200, found) if found else self.reply(404, {"message": "nope"})

        def do_POST(self):
            body = self.body()
            if self.path != "/api/v1/member" or not isinstance(body, dict):
                return self.reply(400, {"message": "bad"})
            member = {k: body.get(k) for k in ("uid", "name", "email")}
            if any(m["uid"] == member["uid"] for m in MEMBERS):
                return self.reply(409, member)
            MEMBERS.append(member)
            return self.reply(201, member)

        def do_PUT(self):
            m = re.fullmatch(r"/api/v1/member/([0-9]*)", self.path)
            body = self.body()
            found = find(m.group(1)) if m else None
            if found is None or not isinstance(body, dict):
                return self.reply(404, {"message": "nope"})
            merged = {k: body.get(k, found[k]) for k in ("uid", "name", "email")}
            if SAVE_PUT:
                found.update(merged)
            return self.reply(200, merged)

        def do_DELETE(self):
            m = re.fullmatch(r"/api/v1/member/([0-9]*)", self.path)
            found = find(m.group(1)) if m else None
            if found is None:
                return self.reply(404, {"message": "nope"})
            if FORGET:
                MEMBERS.remove(found)
            return self.reply(200, found)
    """) + SERVE_JSON


def test_the_id_the_client_sends_fits_the_path_and_an_update_keeps_it() -> None:
    model = build_model(extract_spec(README))
    (res,) = model.resources
    assert res.id_field == "uid" and res.client_id
    assert res.payload is not None and res.payload["uid"].isdigit()


def test_the_suite_reads_by_the_chosen_id_and_catches_lost_writes(
        tmp_path: Path, task_factory: Callable[..., Path]) -> None:
    outcomes = outcomes_on_variants(
        tmp_path, task_factory, "members", README, SERVER,
        {"update lost": ("SAVE_PUT = True", "SAVE_PUT = False"),
         "delete lost": ("FORGET = True", "FORGET = False"),
         "read by position": ("BY_UID = True", "BY_UID = False")})
    good = outcomes["good"]
    read = "test_get_member_returns_created_member"
    update = "test_put_member_applies_changes"
    twice = "test_delete_member_then_read_and_delete_again_return_404"
    assert all(good.get(t) == "passed" for t in (read, update, twice)), good
    assert outcomes["update lost"][update] == "failed"
    assert outcomes["delete lost"][twice] == "failed"
    assert outcomes["read by position"]["test_two_members_read_back_each_as_itself"] == "failed"
    assert outcomes["update lost"][read] == "passed"  # each test fails for its own rule
