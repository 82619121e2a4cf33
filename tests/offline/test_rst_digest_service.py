"""A Sphinx-style reference (RST titles underlined with `~`, grid tables) for a service that
answers HTML unless asked for JSON with `Accept`, and signs callers in with HTTP Digest as the
one account its configuration table gives: the suite asks for JSON, answers the Digest
challenge, and checks what the tables state: an optional flag's documented default, a flag
set and cleared again, a creation time in Unix seconds, and a paged list walked after making
one record more than a page holds. Each such rule broken alone is caught by its own test."""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from pathlib import Path

from variant_suite import SERVE_JSON, outcomes_on_variants

README = textwrap.dedent("""\
    notes
    =====

    A private notes service.

    API
    ===

    The returned content (``application/json`` or ``text/html``) is controlled by
    the ``Accept:`` HTTP header. Some methods will require digest authentication.

    GET ``/note/``
    ~~~~~~~~~~~~~~

    It lists the notes with pagination.

    Query string parameters:

    +---------+---------+------------------------------------------+
    | Key     | Type    | Description                              |
    +=========+=========+==========================================+
    | page    | Integer | Page index for pagination. Defaults to 1 |
    +---------+---------+------------------------------------------+

    Returned object:

    +----------+---------+-----------------------------------+
    | Key      | Type    | Description                       |
    +==========+=========+===================================+
    | page     | Integer | Current page                      |
    +----------+---------+-----------------------------------+
    | pages    | Integer | Total number of pages             |
    +----------+---------+-----------------------------------+
    | per_page | Integer | Number of notes per page          |
    +----------+---------+-----------------------------------+
    | notes    | List    | List of notes                     |
    +----------+---------+-----------------------------------+

    GET ``/note/<note_id>/``
    ~~~~~~~~~~~~~~~~~~~~~~~~

    It returns a note.

    Returned object:

    +---------+---------+--------------------------------------------+
    | Key     | Type    | Description                                |
    +=========+=========+============================================+
    | note_id | Integer | Numeric unique ID of the note              |
    +---------+---------+--------------------------------------------+
    | text    | String  | The note's text                            |
    +---------+---------+--------------------------------------------+
    | private | Boolean | Note is private?                           |
    +---------+---------+--------------------------------------------+
    | created | Integer | UTC Unix timestamp of the creation date    |
    +---------+---------+--------------------------------------------+

    POST ``/note/``
    ~~~~~~~~~~~~~~~

    It will add a note. It requires authentication.

    Received object:

    +---------+---------+--------------------------------------------+
    | Key     | Type    | Description                                |
    +=========+=========+============================================+
    | text    | String  | The note's text                            |
    +---------+---------+--------------------------------------------+
    | private | Boolean | Note is private? Optional, defaults to     |
    |         |         | False                                      |
    +---------+---------+--------------------------------------------+

    Returned object:

    +---------+---------+--------------------------------------------+
    | Key     | Type    | Description                                |
    +=========+=========+============================================+
    | note_id | Integer | Numeric unique ID of the note              |
    +---------+---------+--------------------------------------------+
    | text    | String  | The note's text                            |
    +---------+---------+--------------------------------------------+
    | private | Boolean | Note is private?                           |
    +---------+---------+--------------------------------------------+
    | created | Integer | UTC Unix timestamp of the creation date    |
    +---------+---------+--------------------------------------------+

    PATCH ``/note/<note_id>/``
    ~~~~~~~~~~~~~~~~~~~~~~~~~~

    It will change a note. It requires authentication.

    Received object (all parameters are optional, and will be changed if provided):

    +---------+---------+------------------+
    | Key     | Type    | Description      |
    +=========+=========+==================+
    | text    | String  | The note's text  |
    +---------+---------+------------------+
    | private | Boolean | Note is private? |
    +---------+---------+------------------+

    DELETE ``/note/<note_id>/``
    ~~~~~~~~~~~~~~~~~~~~~~~~~~~

    It will remove a note. It requires authentication.

    Configuration
    -------------

    +----------+----------------+-------------+
    | Key      | Default        | Description |
    +==========+================+=============+
    | USERNAME | 'notes'        | Username    |
    +----------+----------------+-------------+
    | PASSWORD | hash of 'test' | Password    |
    +----------+----------------+-------------+
    """)

SERVER = textwrap.dedent("""\
    import hashlib, json, os, re, time
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
    from urllib.parse import parse_qs, urlsplit

    NOTES = {}
    PER_PAGE = 3
    SHIFT = 0
    MILLI = 1
    DEFAULT_PRIVATE = False
    FLAG_SET = lambda body: "private" in body
    NONCE = "5f1d2c"

    def md5(text):
        return hashlib.md5(text.encode()).hexdigest()

    class H(BaseHTTPRequestHandler):
        def signed(self):
            h = self.headers.get("Authorization", "")
            f = dict(re.findall(r'(\\w+)="?([^",]*)"?', h[7:])) if h.startswith("Digest ") else {}
            if f.get("username") != "notes":
                return False
            ha1, ha2 = md5("notes:notes:test"), md5(f"{self.command}:{f.get('uri')}")
            want = md5(f"{ha1}:{f.get('nonce')}:{f.get('nc')}:{f.get('cnonce')}:auth:{ha2}")
            return f.get("response") == want

        def guard(self):
            if self.signed():
                return True
            self.send_response(401)
            challenge = f'Digest realm="notes", nonce="{NONCE}", qop="auth"'
            self.send_header("WWW-Authenticate", challenge)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return False

        def answer(self, status, body):
            if "application/json" in self.headers.get("Accept", ""):
                return self.reply(status, body)
            data = f"<html><body>{status}</body></html>".encode()
            self.send_response(status)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def note(self):
            m = re.fullmatch(r"/note/(\\d+)/", urlsplit(self.path).path)
            return NOTES.get(int(m.group(1))) if m else None

        def do_GET(self):
            url = urlsplit(self.path)
            if url.path == "/note/":
                page = int(parse_qs(url.query).get("page", ["1"])[0])
                rows = sorted(NOTES.values(), key=lambda n: n["note_id"])
                start = max(page - 1 - SHIFT, 0) * PER_PAGE
                pages = max(1, -(-len(rows) // PER_PAGE))
                return self.answer(200, {"page": page, "pages": pages, "per_page": PER_PAGE,
                                         "notes": rows[start:start + PER_PAGE]})
            found = self.note()
            return self.answer(200, found) if found else self.answer(404, {"status": "fail"})

        def do_POST(self):
            if not self.guard():
                return
            body = self.body()
            if not isinstance(body, dict) or not isinstance(body.get("text"), str):
                return self.answer(400, {"status": "fail"})
            note_id = max(NOTES, default=0) + 1
            NOTES[note_id] = {"note_id": note_id, "text": body["text"],
                              "private": body.get("private", DEFAULT_PRIVATE),
                              "created": int(time.time() * MILLI)}
            return self.answer(200, NOTES[note_id])

        def do_PATCH(self):
            if not self.guard():
                return
            found, body = self.note(), self.body()
            if found is None or not isinstance(body, dict):
                return self.answer(404, {"status": "fail"})
            if "text" in body:
                found["text"] = body["text"]
            if FLAG_SET(body):
                found["private"] = body["private"]
            return self.answer(200, found)

        def do_DELETE(self):
            if not self.guard():
                return
            found = self.note()
            if found is None:
                return self.answer(404, {"status": "fail"})
            del NOTES[found["note_id"]]
            return self.answer(200, {"status": "ok"})
    """) + SERVE_JSON


def test_the_suite_signs_in_asks_for_json_and_catches_each_stated_rule(
        tmp_path: Path, task_factory: Callable[..., Path]) -> None:
    outcomes = outcomes_on_variants(
        tmp_path, task_factory, "notes", README, SERVER,
        {"flag kept": ('FLAG_SET = lambda body: "private" in body',
                       'FLAG_SET = lambda body: body.get("private")'),
         "stamp in ms": ("MILLI = 1", "MILLI = 1000"),
         "pages off by one": ("SHIFT = 0", "SHIFT = 1"),
         "private by default": ("DEFAULT_PRIVATE = False", "DEFAULT_PRIVATE = True")})
    flag = "test_patch_note_sets_and_clears_private"
    stamp = "test_create_note_stamps_created_with_the_current_unix_time"
    pages = "test_list_note_pages_split_new_records_without_repeats"
    default = "test_create_note_without_private_uses_default"
    good = outcomes["good"]
    assert all(good.get(t) == "passed" for t in (flag, stamp, pages, default)), good
    assert outcomes["flag kept"][flag] == "failed"
    assert outcomes["stamp in ms"][stamp] == "failed"
    assert outcomes["pages off by one"][pages] == "failed"
    assert outcomes["private by default"][default] == "failed"
    assert outcomes["stamp in ms"][flag] == "passed"  # each test fails for its own rule
