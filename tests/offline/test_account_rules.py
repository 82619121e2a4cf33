"""Rules a document states once, or not at all because every service keeps them: a password
is never shown back, signing out ends the token, a PATCH of one field keeps the others, an
e-mail address in lower case is stored as sent. The suite catches a registration that echoes
the password, a sign-out that leaves the token working, a PATCH that empties what it was not
sent, and an update that drops the e-mail address."""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from pathlib import Path

from variant_suite import SERVE_JSON, outcomes_on_variants

from pipeline.offline.generate import generate_cases
from pipeline.spec import extract_spec
from pipeline.stages.coverage import behaviour_endpoints

README = textwrap.dedent("""\
    # Contacts

    Every contact endpoint needs the token from sign-in: `Authorization: Bearer <token>`.

    ## POST /register

    Create an account. Request: `{"username": "ann", "password": "s3cret-pw"}`. Answers `201`.

    ## POST /signin

    Request: `{"username": "ann", "password": "s3cret-pw"}`.
    Response `200`: `{"token": "9f1c2e3d4b5a69788796a5b4c3d2e1f0"}`. `401` for a wrong password.

    ## GET /signout

    Sign out: the token stops working.

    ## GET /contacts

    All your contacts. Response `200`:
    `[{"id": 1, "name": "Bob", "email": "bob@example.com", "city": "Oslo"}]`

    ## POST /contacts

    Request: `{"name": "Bob", "email": "bob@example.com", "city": "Oslo"}`.
    Response `201`: `{"id": 1, "name": "Bob", "email": "bob@example.com", "city": "Oslo"}`.

    ## GET /contacts/{id}

    Response `200`: `{"id": 1, "name": "Bob", "email": "bob@example.com", "city": "Oslo"}`.
    `404` when you have no such contact.

    ## PUT /contacts/{id}

    Replace it. Request: `{"name": "Rob", "email": "rob@example.com", "city": "Bergen"}`.
    Response `200`: the contact.

    ## PATCH /contacts/{id}

    Edit it. Arguments: `name`, `email`, `city`.
    """)

SERVER = textwrap.dedent("""\
    import json, os, re, uuid
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    USERS, TOKENS, CONTACTS = {}, {}, {}
    ECHO_PASSWORD = False
    REVOKE = True
    PATCH_PARTIAL = True
    PUT_EMAIL = True

    class H(BaseHTTPRequestHandler):
        def who(self):
            auth = self.headers.get("Authorization", "")
            return TOKENS.get(auth[7:]) if auth.startswith("Bearer ") else None

        def route(self, method):
            body = self.body() if method in ("POST", "PUT", "PATCH") else None
            if self.path == "/register" and method == "POST":
                if not isinstance(body, dict) or not body.get("username") \\
                        or not body.get("password") or body["username"] in USERS:
                    return self.reply(400, {"error": "bad account"})
                USERS[body["username"]] = body["password"]
                shown = {"username": body["username"]}
                if ECHO_PASSWORD:
                    shown["password"] = body["password"]
                return self.reply(201, shown)
            if self.path == "/signin" and method == "POST":
                body = body or {}
                if USERS.get(body.get("username")) != body.get("password"):
                    return self.reply(401, {"error": "bad credentials"})
                token = uuid.uuid4().hex
                TOKENS[token] = body["username"]
                return self.reply(200, {"token": token})
            who = self.who()
            if who is None:
                return self.reply(401, {"error": "sign in first"})
            if self.path == "/signout" and method == "GET":
                if REVOKE:
                    TOKENS.pop(self.headers["Authorization"][7:], None)
                return self.reply(200, {"message": "bye"})
            mine = {i: c for i, c in CONTACTS.items() if c["owner"] == who}
            if self.path == "/contacts" and method == "GET":
                return self.reply(200, [self.shown(c) for c in mine.values()])
            if self.path == "/contacts" and method == "POST":
                if not isinstance(body, dict) or not body.get("name"):
                    return self.reply(400, {"error": "name required"})
                new = max([0, *CONTACTS]) + 1
                CONTACTS[new] = {"id": new, "owner": who, "name": body["name"],
                                 "email": body.get("email"), "city": body.get("city")}
                return self.reply(201, self.shown(CONTACTS[new]))
            m = re.fullmatch(r"/contacts/(\\d+)", self.path)
            found = mine.get(int(m.group(1))) if m else None
            if found is None:
                return self.reply(404, {"error": "no such contact"})
            if method == "GET":
                return self.reply(200, self.shown(found))
            if not isinstance(body, dict):
                return self.reply(400, {"error": "bad body"})
            keys = ("name", "email", "city")
            if method == "PUT":
                for k in keys:
                    if k != "email" or PUT_EMAIL:
                        found[k] = body.get(k)
            if method == "PATCH":
                for k in keys:
                    if k in body or not PATCH_PARTIAL:
                        found[k] = body.get(k)
            return self.reply(200, self.shown(found))

        def shown(self, c):
            return {k: v for k, v in c.items() if k != "owner"}

        def do_GET(self):
            self.route("GET")

        def do_POST(self):
            self.route("POST")

        def do_PUT(self):
            self.route("PUT")

        def do_PATCH(self):
            self.route("PATCH")
    """) + SERVE_JSON


def test_rules_every_service_keeps_are_checked(
        tmp_path: Path, task_factory: Callable[..., Path]) -> None:
    outcomes = outcomes_on_variants(
        tmp_path, task_factory, "contacts", README, SERVER,
        {"password echoed": ("ECHO_PASSWORD = False", "ECHO_PASSWORD = True"),
         "token survives sign-out": ("REVOKE = True", "REVOKE = False"),
         "patch empties the rest": ("PATCH_PARTIAL = True", "PATCH_PARTIAL = False"),
         "put drops the e-mail": ("PUT_EMAIL = True", "PUT_EMAIL = False")})
    good = outcomes["good"]
    rules = {"password echoed": "test_register_login_use_token_then_logout_revokes_it",
             "token survives sign-out": "test_register_login_use_token_then_logout_revokes_it",
             "patch empties the rest": "test_patch_contact_with_one_field_keeps_the_others",
             "put drops the e-mail": "test_put_contact_applies_changes"}
    for variant, name in rules.items():
        assert good.get(name) == "passed", (name, good)
        assert outcomes[variant][name] == "failed", (variant, outcomes[variant])


def test_a_read_without_a_documented_answer_is_what_the_token_opens() -> None:
    """No protected read documents its answer: the sign-in's token is still checked by a read
    it opens (any 2xx, the HTTP default), which counts the sign-in as a behaviour tested."""
    readme = README.replace("All your contacts. Response `200`:\n"
                            '`[{"id": 1, "name": "Bob", "email": "bob@example.com", '
                            '"city": "Oslo"}]`', "All your contacts.")
    assert readme != README
    spec = extract_spec(readme)
    case = next(c for c in generate_cases("contacts", spec)
                if c.name.startswith("test_register_login_"))
    assert 'headers=headers)\n    assert 200 <= me.status_code < 300' in case.code, case.code
    assert "POST /signin" in behaviour_endpoints(spec, case)
