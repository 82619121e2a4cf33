"""A document that says, for the service as a whole, that required fields are checked
("Basic validation for required fields") but names no body and no status: a create sent
without any field is refused with some 4xx. The create's fields come from what the running
service lists. A service that creates the empty record fails."""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from pathlib import Path

from variant_suite import SERVE_JSON, outcomes_on_variants

from pipeline.spec import extract_spec

README = textwrap.dedent("""\
    # Notes service

    ## Features

    - In-memory storage with auto-incrementing ids
    - Basic validation for required fields

    ## Endpoints

    - `GET /notes` - Get all notes
    - `GET /notes/{id}` - Get a note
    - `POST /notes` - Create a note
    """)

SERVER = textwrap.dedent("""\
    import json, os
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    NOTES = [{"id": 1, "title": "first", "body": "hello", "userId": 1}]
    VALIDATES = True

    class H(BaseHTTPRequestHandler):
        def do_GET(self):
            if self.path == "/notes":
                return self.reply(200, NOTES)
            found = [n for n in NOTES if self.path == f"/notes/{n['id']}"]
            return self.reply(200, found[0]) if found else self.reply(404, {"error": "none"})

        def do_POST(self):
            body = self.body()
            if not isinstance(body, dict):
                return self.reply(400, {"error": "send JSON"})
            if VALIDATES and not all(body.get(k) for k in ("title", "body", "userId")):
                return self.reply(400, {"error": "title, body and userId are required"})
            note = {"id": len(NOTES) + 1, **body}
            NOTES.append(note)
            return self.reply(201, note)
    """) + SERVE_JSON


def test_the_sentence_is_read_only_where_it_speaks_of_required_fields() -> None:
    assert extract_spec(README).validates_required == "Basic validation for required fields"
    assert extract_spec(README.replace("Basic validation for required fields",
                                       "Validation of emails")).validates_required == ""


def test_a_create_without_its_fields_is_refused(
        tmp_path: Path, task_factory: Callable[..., Path]) -> None:
    outcomes = outcomes_on_variants(tmp_path, task_factory, "notes", README, SERVER,
                                    {"takes anything": ("VALIDATES = True", "VALIDATES = False")})
    name = "test_create_note_with_empty_body_is_refused"
    assert outcomes["good"].get(name) == "passed", outcomes["good"]
    assert outcomes["takes anything"][name] == "failed", outcomes["takes anything"]
