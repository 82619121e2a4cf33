"""A bullet-list document that names endpoints and nothing else (no bodies, no fields, no
codes) over a service that starts with records of its own: the suite makes its create body
from a record the service lists, reads lists under existing records by ids the service
lists, filters by a value its records hold, and walks creates and deletes; each of a lost
delete, an unfiltered list under a record, a filter that is ignored, ids counted from the
number of records, and a partial update that blanks the fields it does not name is caught
by its own test; so is a list under a record that nothing documents or observes (the badges
of an author), read under the newest author that has any."""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from pathlib import Path

from variant_suite import SERVE_JSON, outcomes_on_variants

from pipeline.offline.seeded import seeded_payload

README = textwrap.dedent("""\
    # Notebook

    A small API that starts with some notes and their comments.

    ## Endpoints

    - `GET /notes` - Get all notes
    - `GET /notes/{id}` - Get a note
    - `POST /notes` - Create a note
    - `PUT /notes/{id}` - Update a note
    - `PATCH /notes/{id}` - Partial update of a note
    - `DELETE /notes/{id}` - Delete a note
    - `GET /notes?authorId={id}` - Filter notes by author
    - `GET /notes/{id}/comments` - Get the comments of a note
    - `GET /comments` - Get all comments
    - `GET /authors/{id}/notes` - Get the notes of an author
    - `GET /authors/{id}/badges` - Get the badges of an author
    """)

SERVER = textwrap.dedent("""\
    import json, os, re
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
    from urllib.parse import parse_qs, urlsplit

    NOTES = {n: {"id": n, "title": f"note number {n}", "text": f"words of note {n}",
                 "authorId": 1 + n % 3} for n in range(1, 7)}
    COMMENTS = [{"id": c, "noteId": 1 + c % 6, "text": f"comment {c}"} for c in range(1, 13)]
    BADGES = [{"id": b, "authorId": 1 + b % 2, "name": f"badge {b}"} for b in range(1, 5)]
    ONLY_THEIR_BADGES = True
    FORGET = True
    SCOPED = True
    FILTERED = True
    NEXT_ID = "max"
    BLANKS = False

    class H(BaseHTTPRequestHandler):
        def note(self):
            m = re.fullmatch(r"/notes/(\\d+)", urlsplit(self.path).path)
            return NOTES.get(int(m.group(1))) if m else None

        def do_GET(self):
            url = urlsplit(self.path)
            if url.path == "/notes":
                author = parse_qs(url.query).get("authorId")
                rows = list(NOTES.values())
                if author and FILTERED:
                    rows = [n for n in rows if str(n["authorId"]) == author[0]]
                return self.reply(200, rows)
            if url.path == "/comments":
                return self.reply(200, COMMENTS)
            m = re.fullmatch(r"/notes/(\\d+)/comments", url.path)
            if m:
                return self.reply(200, [c for c in COMMENTS
                                        if not SCOPED or c["noteId"] == int(m.group(1))])
            m = re.fullmatch(r"/authors/(\\d+)/badges", url.path)
            if m:  # the newest author has none
                mine = [b for b in BADGES if b["authorId"] == int(m.group(1))]
                return self.reply(200, mine if ONLY_THEIR_BADGES else BADGES)
            m = re.fullmatch(r"/authors/(\\d+)/notes", url.path)
            if m:
                return self.reply(200, [n for n in NOTES.values()
                                        if n["authorId"] == int(m.group(1))])
            found = self.note()
            return self.reply(200, found) if found else self.reply(404, {"error": "no note"})

        def do_POST(self):
            body = self.body()
            if urlsplit(self.path).path != "/notes" or not isinstance(body, dict) \\
                    or not isinstance(body.get("title"), str):
                return self.reply(400, {"error": "title is required"})
            new = max(NOTES, default=0) + 1 if NEXT_ID == "max" else len(NOTES) + 1
            NOTES[new] = {"id": new, "title": body["title"], "text": body.get("text", ""),
                          "authorId": body.get("authorId", 1)}
            return self.reply(201, NOTES[new])

        def do_PUT(self):
            found, body = self.note(), self.body()
            if found is None or not isinstance(body, dict):
                return self.reply(404, {"error": "no note"})
            found.update({k: body[k] for k in ("title", "text", "authorId") if k in body})
            return self.reply(200, found)

        def do_PATCH(self):
            found, body = self.note(), self.body()
            if found is None or not isinstance(body, dict):
                return self.reply(404, {"error": "no note"})
            for key in ("title", "text"):
                if key in body or BLANKS:
                    found[key] = body.get(key, "")
            return self.reply(200, found)

        def do_DELETE(self):
            found = self.note()
            if found is None:
                return self.reply(404, {"error": "no note"})
            if FORGET:
                del NOTES[found["id"]]
            return self.reply(200, {})
    """) + SERVE_JSON


def test_the_body_is_a_listed_record_with_its_text_made_new() -> None:
    body = seeded_payload([{"id": 4, "title": "a short title here", "code": "A-1",
                            "ownerId": 2, "created_at": "2024-01-01", "tags": ["x"]}])
    assert body == {"title": "a short title here (new)", "code": "A-1", "ownerId": 2}
    assert seeded_payload({"items": []}) is None


def test_the_suite_uses_the_records_the_service_starts_with(
        tmp_path: Path, task_factory: Callable[..., Path]) -> None:
    outcomes = outcomes_on_variants(
        tmp_path, task_factory, "notebook", README, SERVER,
        {"delete lost": ("FORGET = True", "FORGET = False"),
         "comments unscoped": ("SCOPED = True", "SCOPED = False"),
         "filter ignored": ("FILTERED = True", "FILTERED = False"),
         "ids from count": ('NEXT_ID = "max"', 'NEXT_ID = "count"'),
         "patch blanks": ("BLANKS = False", "BLANKS = True"),
         "badges unscoped": ("ONLY_THEIR_BADGES = True", "ONLY_THEIR_BADGES = False")})
    good = outcomes["good"]
    twice = "test_delete_notes_then_read_and_delete_again_return_404"
    comments = "test_get_note_comments_lists_only_its_own"
    filtered = "test_list_notes_filtered_by_author_id"
    reuse = "test_note_ids_are_not_reused_after_a_delete"
    patch = "test_patch_note_applies_changes"
    under = "test_created_note_is_listed_under_its_author"
    assert all(good.get(t) == "passed" for t in (twice, comments, filtered, reuse, patch,
                                                  under)), good
    assert outcomes["delete lost"][twice] == "failed"
    assert outcomes["comments unscoped"][comments] == "failed"
    # no answer of it documented or observed: the newest author listing any badge is read
    badges = "test_get_author_badges_lists_only_its_own"
    assert good.get(badges) == "passed", good
    assert outcomes["badges unscoped"][badges] == "failed"
    assert outcomes["filter ignored"][filtered] == "failed"
    assert outcomes["ids from count"][reuse] == "failed"
    assert outcomes["patch blanks"][patch] == "failed"
    assert outcomes["filter ignored"][comments] == "passed"  # each test fails for its own rule
