"""A field the document derives from a sent one ("First 3 lines of the note text"): the suite
sends a longer text and catches a preview of the wrong length."""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from pathlib import Path

from variant_suite import SERVE_JSON, outcomes_on_variants

README = textwrap.dedent("""\
    # Notes

    ## POST /notes

    Adds a note.

    Received object:

    | Key | Type | Description |
    |---|---|---|
    | text | String | The note text |

    Returned object:

    | Key | Type | Description |
    |---|---|---|
    | id | Integer | Numeric id of the note |
    | preview | String | First 3 lines of the note text |

    ## GET /notes/{id}

    Returns the note: `{"id": 1, "text": "...", "preview": "..."}`.
    """)

SERVER = textwrap.dedent("""\
    import json, os
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    NOTES = {}
    LINES = 3

    class H(BaseHTTPRequestHandler):
        def do_POST(self):
            body = self.body()
            if self.path != "/notes" or not isinstance(body, dict) or not body.get("text"):
                return self.reply(400, {"error": "text required"})
            new = len(NOTES) + 1
            NOTES[new] = body["text"]
            preview = "\\n".join(body["text"].splitlines()[:LINES])
            return self.reply(201, {"id": new, "preview": preview})

        def do_GET(self):
            key = self.path.rsplit("/", 1)[-1]
            if not key.isdigit() or int(key) not in NOTES:
                return self.reply(404, {"error": "no such note"})
            text = NOTES[int(key)]
            preview = "\\n".join(text.splitlines()[:LINES])
            return self.reply(200, {"id": int(key), "text": text, "preview": preview})
    """) + SERVE_JSON


def test_a_derived_preview_holds_the_documented_number_of_lines(
        tmp_path: Path, task_factory: Callable[..., Path]) -> None:
    outcomes = outcomes_on_variants(tmp_path, task_factory, "notes", README, SERVER,
                                    {"four lines": ("LINES = 3", "LINES = 4")})
    name = "test_create_note_preview_holds_the_first_3_lines"
    assert outcomes["good"].get(name) == "passed", outcomes["good"]
    assert outcomes["four lines"][name] == "failed", outcomes["four lines"]
