"""A document that states its token scheme once for the whole service ("This API uses Bearer
tokens for its authentication") and marks no endpoint open or protected: a read sent without
the token is refused and shows nothing of the record the test made. A service that serves
that read to anyone fails; a document that says nothing of the whole service gets no such
test (its reads may be open)."""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from pathlib import Path

from variant_suite import SERVE_JSON, outcomes_on_variants

from pipeline.offline.generate import generate_cases
from pipeline.spec import extract_spec

README = textwrap.dedent("""\
    # Shelves

    This API uses Bearer tokens for its authentication: send `Authorization: Bearer <token>`.

    ## POST /auth/register

    Request: `{"email": "kim@example.org", "password": "lantern7"}`
    Response `201`: `{"message": "Account created"}`

    ## POST /auth/login

    Request: `{"email": "kim@example.org", "password": "lantern7"}`
    Response `200`: `{"token": "c2lnbmVk"}`

    ## POST /shelves

    Request: `{"name": "Reading"}`
    Response `201`: `{"id": 1, "name": "Reading"}`

    ## GET /shelves

    Response `200`: `[{"id": 1, "name": "Reading"}]`

    ## GET /shelves/{id}

    Response `200`: `{"id": 1, "name": "Reading"}`
    """)

SERVER = textwrap.dedent("""\
    import json, os, re
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    USERS, TOKENS, SHELVES = {}, {}, {}
    OPEN_LIST = False

    class H(BaseHTTPRequestHandler):
        def me(self):
            return TOKENS.get(self.headers.get("Authorization", "").replace("Bearer ", ""))

        def do_POST(self):
            body = self.body()
            if not isinstance(body, dict):
                return self.reply(400, {"message": "send JSON"})
            if self.path == "/auth/register":
                USERS[body.get("email")] = body.get("password")
                return self.reply(201, {"message": "Account created"})
            if self.path == "/auth/login":
                if USERS.get(body.get("email")) != body.get("password"):
                    return self.reply(401, {"message": "Invalid credentials"})
                token = "t%d" % (len(TOKENS) + 1)
                TOKENS[token] = body["email"]
                return self.reply(200, {"token": token})
            if self.me() is None:
                return self.reply(401, {"message": "token missing"})
            shelf = {"id": len(SHELVES) + 1, "name": body.get("name"), "owner": self.me()}
            SHELVES[shelf["id"]] = shelf
            return self.reply(201, {"id": shelf["id"], "name": shelf["name"]})

        def do_GET(self):
            me = self.me()
            if self.path == "/shelves" and (me is not None or OPEN_LIST):
                return self.reply(200, [{"id": s["id"], "name": s["name"]}
                                        for s in SHELVES.values()
                                        if OPEN_LIST or s["owner"] == me])
            if me is None:
                return self.reply(401, {"message": "token missing"})
            m = re.fullmatch(r"/shelves/(\\d+)", self.path)
            shelf = SHELVES.get(int(m.group(1))) if m else None
            if shelf is None or shelf["owner"] != me:
                return self.reply(404, {"message": "no such shelf"})
            return self.reply(200, {"id": shelf["id"], "name": shelf["name"]})
    """) + SERVE_JSON


def test_a_read_without_the_token_is_refused_where_the_whole_service_uses_it(
        tmp_path: Path, task_factory: Callable[..., Path]) -> None:
    outcomes = outcomes_on_variants(tmp_path, task_factory, "shelves", README, SERVER,
                                    {"open list": ("OPEN_LIST = False", "OPEN_LIST = True")})
    name = "test_get_shelves_without_token_is_refused"
    assert outcomes["good"].get(name) == "passed", outcomes["good"]
    assert outcomes["open list"][name] == "failed", outcomes["open list"]


def test_no_such_test_where_the_document_says_nothing_of_the_whole_service() -> None:
    quiet = README.replace("This API uses Bearer tokens for its authentication: send",
                           "Send")
    names = {c.name for c in generate_cases("shelves", extract_spec(quiet))}
    assert not any("without_token" in n for n in names), names
    loud = {c.name for c in generate_cases("shelves", extract_spec(README))}
    assert "test_get_shelves_without_token_is_refused" in loud, loud
