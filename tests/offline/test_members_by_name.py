"""Members added to a record by their user name (a team's `members`): the suite signs up a
second user, adds them by name, and sees the name under the team, not under another team,
and gone after the documented removal. It catches a member list that ignores the team, a
removal that keeps the member, and an add that is answered but not stored; and, where only
a record's author may change it ("Only the author of the note can make PUT and DELETE
requests"), a member who is not its author allowed to, and a member's note filed under the
team's creator as its author."""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from pathlib import Path

from variant_suite import SERVE_JSON, outcomes_on_variants

README = textwrap.dedent("""\
    # Teams

    Every team endpoint needs the token from sign-in: `Authorization: Bearer <token>`.

    ## POST /users

    Sign up. Request: `{"login": "kim", "password": "s3cret-pw"}`. Answers `201`.

    ## POST /token

    Request: `{"login": "kim", "password": "s3cret-pw"}`.
    Response `200`: `{"token": "9f1c2e3d4b5a69788796a5b4c3d2e1f0"}`.

    ## POST /teams

    Request: `{"title": "Rowing"}`. Response `201`: `{"id": 4, "title": "Rowing"}`.

    ## GET /teams/{team_id}

    Response `200`: `{"id": 4, "title": "Rowing", "members": ["kim"]}`.

    ## GET /teams/{team_id}/members

    The team's members.

    ## POST /teams/{team_id}/members

    Add someone by their login. Request: `{"login": "lee"}`.

    ## DELETE /teams/{team_id}/members

    Remove someone by their login.

    - **Body:**

      ```json
      {"login": "lee"}
      ```

    ## POST /teams/{team_id}/notes

    Request: `{"text": "Bring oars"}`. Response `201`: `{"id": 9, "text": "Bring oars"}`.

    ## GET /teams/{team_id}/notes/{note_id}

    Members read a note. Response `200`: `{"id": 9, "text": "Bring oars", "author": "kim"}`.

    Only the author of the note can make PUT and DELETE requests.
    """)

SERVER = textwrap.dedent("""\
    import json, os, re, uuid
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    USERS, TOKENS, TEAMS = {}, {}, {}
    SCOPED = True
    REMOVES = True
    STORES = True
    AUTHOR_ONLY = True

    class H(BaseHTTPRequestHandler):
        def route(self, method):
            body = self.body() if method in ("POST", "PUT", "DELETE") else None
            body = body if isinstance(body, dict) else {}
            if self.path == "/users" and method == "POST":
                if not body.get("login") or body["login"] in USERS:
                    return self.reply(400, {"error": "bad account"})
                USERS[body["login"]] = body.get("password")
                return self.reply(201, {"login": body["login"]})
            if self.path == "/token" and method == "POST":
                if body.get("login") not in USERS or USERS[body["login"]] != body.get("password"):
                    return self.reply(401, {"error": "bad credentials"})
                token = uuid.uuid4().hex
                TOKENS[token] = body["login"]
                return self.reply(200, {"token": token})
            auth = self.headers.get("Authorization", "")
            who = TOKENS.get(auth[7:]) if auth.startswith("Bearer ") else None
            if who is None:
                return self.reply(401, {"error": "sign in first"})
            if self.path == "/teams" and method == "POST":
                new = len(TEAMS) + 1
                TEAMS[new] = {"id": new, "title": body.get("title"), "members": [who]}
                return self.reply(201, {"id": new, "title": body.get("title")})
            n = re.fullmatch(r"/teams/(\\d+)/notes(?:/(\\d+))?", self.path)
            if n:
                team = TEAMS.get(int(n.group(1)))
                if team is None or who not in team["members"]:
                    return self.reply(404, {"error": "not a team of yours"})
                notes = team.setdefault("notes", {})
                if n.group(2) is None and method == "POST":
                    new = sum(len(t.get("notes", {})) for t in TEAMS.values()) + 1
                    notes[new] = {"id": new, "text": body.get("text"), "author": who}
                    return self.reply(201, {"id": new, "text": body.get("text")})
                note = notes.get(int(n.group(2) or 0))
                if note is None:
                    return self.reply(404, {"error": "no such note"})
                if method == "GET":
                    return self.reply(200, note)
                if AUTHOR_ONLY and note["author"] != who:
                    return self.reply(403, {"error": "not yours"})
                if method == "DELETE":
                    del notes[note["id"]]
                    return self.reply(204, None)
                note["text"] = body.get("text", note["text"])
                return self.reply(200, note)
            m = re.fullmatch(r"/teams/(\\d+)(/members)?", self.path)
            team = TEAMS.get(int(m.group(1))) if m else None
            if team is None:
                return self.reply(404, {"error": "no such team"})
            if not m.group(2):
                return self.reply(200, team) if method == "GET" else self.reply(405, {})
            if method == "GET":
                names = team["members"] if SCOPED else [n for t in TEAMS.values()
                                                         for n in t["members"]]
                return self.reply(200, [{"login": n} for n in names])
            name = body.get("login")
            if name not in USERS:
                return self.reply(400, {"error": "no such user"})
            if method == "POST":
                if STORES and name not in team["members"]:
                    team["members"].append(name)
                return self.reply(201, {"login": name})
            if REMOVES and name in team["members"]:
                team["members"].remove(name)
            return self.reply(204, None)

        def do_GET(self):
            self.route("GET")

        def do_POST(self):
            self.route("POST")

        def do_DELETE(self):
            self.route("DELETE")

        def do_PUT(self):
            self.route("PUT")
    """) + SERVE_JSON


def test_members_added_by_name_are_checked_under_their_own_record(
        tmp_path: Path, task_factory: Callable[..., Path]) -> None:
    outcomes = outcomes_on_variants(
        tmp_path, task_factory, "teams", README, SERVER,
        {"unscoped": ("SCOPED = True", "SCOPED = False"),
         "kept": ("REMOVES = True", "REMOVES = False"),
         "not stored": ("STORES = True", "STORES = False"),
         "any member": ("AUTHOR_ONLY = True", "AUTHOR_ONLY = False"),
         "team's author": ('"author": who}', '"author": team["members"][0]}')})
    name = "test_team_members_added_by_user_name"
    assert outcomes["good"].get(name) == "passed", outcomes["good"]
    for variant in ("unscoped", "kept", "not stored"):
        assert outcomes[variant][name] == "failed", (variant, outcomes[variant])
    # the author-only calls the rule names, though the section lists only the read
    for verb in ("delete", "replace"):
        rule = f"test_team_members_member_cannot_{verb}_note_of_another"
        assert outcomes["good"].get(rule) == "passed", outcomes["good"]
        assert outcomes["any member"][rule] == "failed", outcomes["any member"]
        assert outcomes["kept"][rule] == "passed"
    made = "test_note_made_by_a_team_member_names_them_as_author"
    assert outcomes["good"].get(made) == "passed", outcomes["good"]
    assert outcomes["team's author"][made] == "failed", outcomes["team's author"]
    assert outcomes["any member"][made] == "passed"
