"""Access rules written only in prose ("Only the author of a note can read, edit or delete
it.", "Only the owner of a board can add notes to it."): the extractor marks the calls they
speak of `owner_only`, and the suite has another user refused and the owner allowed on each,
catching a service that forgets the rule on one call; sections without such a sentence and
the lists and creates of one's own records are left alone."""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from pathlib import Path

from variant_suite import SERVE_JSON, outcomes_on_variants

from pipeline.spec import extract_spec

README = textwrap.dedent("""\
    # Boards

    Every call needs an `Authorization: Bearer <token>` header; the token names the caller.

    ## Boards

    ### Create a board

    `POST /boards`

    Request:

    ```json
    {"title": "Groceries"}
    ```

    Response `201`:

    ```json
    {"id": 1, "title": "Groceries"}
    ```

    ### List boards

    `GET /boards` lists your boards.

    Response `200`:

    ```json
    [{"id": 1, "title": "Groceries"}]
    ```

    ### One board

    `GET /boards/{board_id}`

    Response `200`:

    ```json
    {"id": 1, "title": "Groceries"}
    ```

    ## Notes

    Only the owner of a board can add notes to it.

    ### Add a note

    `POST /boards/{board_id}/notes`

    Request:

    ```json
    {"text": "milk"}
    ```

    Response `201`:

    ```json
    {"id": 7, "text": "milk"}
    ```

    ### One note

    Only the author of a note can read, edit or delete it.

    `GET /boards/{board_id}/notes/{note_id}`

    Response `200`:

    ```json
    {"id": 7, "text": "milk"}
    ```

    `PUT /boards/{board_id}/notes/{note_id}`

    Request:

    ```json
    {"text": "oat milk"}
    ```

    Response `200`:

    ```json
    {"id": 7, "text": "oat milk"}
    ```

    `DELETE /boards/{board_id}/notes/{note_id}` answers `204`.
    """)

SERVER = textwrap.dedent("""\
    import json, os, re
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    BOARDS, NOTES = {}, {}
    GUARD_ADD = True
    GUARD_READ = True
    GUARD_EDIT = True
    GUARD_DELETE = True

    class H(BaseHTTPRequestHandler):
        def who(self):
            auth = self.headers.get("Authorization", "")
            return auth[7:] if auth.startswith("Bearer ") and len(auth) > 7 else None

        def note(self, guard):
            m = re.fullmatch(r"/boards/\\d+/notes/(\\d+)", self.path)
            note = NOTES.get(int(m.group(1))) if m else None
            if note is None:
                self.reply(404, {"error": "not found"})
                return None
            if guard and note["author"] != self.who():
                self.reply(403, {"error": "not yours"})
                return None
            return note

        def show(self, note, status=200):
            self.reply(status, {"id": note["id"], "text": note["text"]})

        def do_POST(self):
            if self.who() is None:
                return self.reply(401, {"error": "no token"})
            data = self.body()
            if self.path == "/boards":
                if not isinstance(data, dict) or not isinstance(data.get("title"), str):
                    return self.reply(400, {"error": "title"})
                bid = len(BOARDS) + 1
                BOARDS[bid] = {"id": bid, "title": data["title"], "owner": self.who()}
                return self.reply(201, {"id": bid, "title": data["title"]})
            m = re.fullmatch(r"/boards/(\\d+)/notes", self.path)
            board = BOARDS.get(int(m.group(1))) if m else None
            if board is None:
                return self.reply(404, {"error": "not found"})
            if GUARD_ADD and board["owner"] != self.who():
                return self.reply(403, {"error": "not yours"})
            if not isinstance(data, dict) or not isinstance(data.get("text"), str):
                return self.reply(400, {"error": "text"})
            nid = len(NOTES) + 1
            NOTES[nid] = {"id": nid, "text": data["text"], "author": self.who()}
            self.show(NOTES[nid], 201)

        def do_GET(self):
            if self.who() is None:
                return self.reply(401, {"error": "no token"})
            if self.path == "/boards":
                return self.reply(200, [{"id": b["id"], "title": b["title"]}
                                        for b in BOARDS.values() if b["owner"] == self.who()])
            m = re.fullmatch(r"/boards/(\\d+)", self.path)
            if m:
                board = BOARDS.get(int(m.group(1)))
                if board is None or board["owner"] != self.who():
                    return self.reply(404, {"error": "not found"})
                return self.reply(200, {"id": board["id"], "title": board["title"]})
            note = self.note(GUARD_READ)
            if note is not None:
                self.show(note)

        def do_PUT(self):
            if self.who() is None:
                return self.reply(401, {"error": "no token"})
            note = self.note(GUARD_EDIT)
            data = self.body()
            if note is None:
                return
            if not isinstance(data, dict) or not isinstance(data.get("text"), str):
                return self.reply(400, {"error": "text"})
            note["text"] = data["text"]
            self.show(note)

        def do_DELETE(self):
            if self.who() is None:
                return self.reply(401, {"error": "no token"})
            note = self.note(GUARD_DELETE)
            if note is not None:
                del NOTES[note["id"]]
                self.reply(204, {})

    """) + SERVE_JSON


def test_prose_rules_mark_the_calls_they_speak_of() -> None:
    marked = {f"{e.method} {e.path}" for e in extract_spec(README).endpoints if e.owner_only}
    note = "/boards/{board_id}/notes/{note_id}"
    assert marked == {"POST /boards/{board_id}/notes", f"GET {note}", f"PUT {note}",
                      f"DELETE {note}"}


def test_another_user_is_refused_on_each_guarded_call(
        tmp_path: Path, task_factory: Callable[..., Path]) -> None:
    outcomes = outcomes_on_variants(
        tmp_path, task_factory, "boards", README, SERVER,
        {f"{name} open": (f"GUARD_{name.upper()} = True", f"GUARD_{name.upper()} = False")
         for name in ("add", "read", "edit", "delete")})
    tests = {"add": "test_other_user_cannot_post_board_notes",
             "read": "test_other_user_cannot_get_note",
             "edit": "test_other_user_cannot_put_note",
             "delete": "test_other_user_cannot_delete_note"}
    assert all(outcomes["good"].get(t) == "passed" for t in tests.values()), [
        (t, o) for t, o in outcomes["good"].items() if "other" in t]
    for name, test in tests.items():
        assert outcomes[f"{name} open"][test] == "failed", name
        others = [t for t in tests.values() if t != test]
        assert all(outcomes[f"{name} open"][t] == "passed" for t in others), name


def test_a_rule_on_details_in_a_list_section_marks_the_read_of_one_record() -> None:
    doc = textwrap.dedent("""\
        # Projects

        ### Viewing projects

        You can list projects. However, you won't have access to the details of projects
        that are not authored by you.

        - **URL:** `/api/projects/`
        - **Method:** GET

        ### Project details

        - **URL:** `/api/projects/11/`
        - **Method:** GET
        """)
    marked = {f"{e.method} {e.path}" for e in extract_spec(doc).endpoints if e.owner_only}
    assert marked == {"GET /api/projects/{project_id}/"}, marked


def test_calls_a_rule_names_by_method_exist_beside_the_read_it_follows() -> None:
    doc = textwrap.dedent("""\
        # Notes

        ## GET /notes/{id}

        Read a note. Only the author of the note can make PUT and DELETE requests.

        ## GET /tags/{id}

        Read a tag. Everyone can make PUT requests.
        """)
    eps = [(e.method, e.path, e.owner_only) for e in extract_spec(doc).endpoints]
    assert eps == [("GET", "/notes/{id}", False), ("PUT", "/notes/{id}", True),
                   ("DELETE", "/notes/{id}", True), ("GET", "/tags/{id}", False)]
