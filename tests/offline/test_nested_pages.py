"""A list under a record, paged by parameters the document shows only in its answer's links
(`"next": "/shelves/2/books?page=2&limit=3"`): the suite reads them from there and catches a
page parameter that is ignored."""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from pathlib import Path

from variant_suite import SERVE_JSON, outcomes_on_variants

from pipeline.spec import extract_spec

README = textwrap.dedent("""\
    # Shelves

    ## POST /shelves

    Request: `{"name": "Fiction"}`. Response `201`: `{"id": 2, "name": "Fiction"}`.

    ## GET /shelves/{shelf_id}

    Response `200`: `{"id": 2, "name": "Fiction"}`.

    ## POST /shelves/{shelf_id}/books

    Request: `{"title": "Dune"}`. Response `201`: `{"id": 7, "shelf_id": 2, "title": "Dune"}`.

    ## GET /shelves/{shelf_id}/books

    Response `200`:

    ```json
    {"books": [{"id": 7, "shelf_id": 2, "title": "Dune"}],
     "links": {"next": "/shelves/2/books?page=2&limit=3", "prev": null}}
    ```

    ## GET /shelves/{shelf_id}/books/{book_id}

    Response `200`: `{"id": 7, "shelf_id": 2, "title": "Dune"}`.
    """)

SERVER = textwrap.dedent("""\
    import json, os, re
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
    from urllib.parse import parse_qs, urlsplit

    SHELVES, BOOKS = {}, {}
    PAGED = True

    class H(BaseHTTPRequestHandler):
        def do_POST(self):
            body = self.body() or {}
            if self.path == "/shelves":
                new = len(SHELVES) + 1
                SHELVES[new] = {"id": new, "name": body.get("name")}
                return self.reply(201, SHELVES[new])
            m = re.fullmatch(r"/shelves/(\\d+)/books", self.path)
            if not m or int(m.group(1)) not in SHELVES or not body.get("title"):
                return self.reply(400, {"error": "bad book"})
            new = len(BOOKS) + 1
            BOOKS[new] = {"id": new, "shelf_id": int(m.group(1)), "title": body["title"]}
            return self.reply(201, BOOKS[new])

        def do_GET(self):
            url = urlsplit(self.path)
            q = {k: v[0] for k, v in parse_qs(url.query).items()}
            m = re.fullmatch(r"/shelves/(\\d+)(/books(?:/(\\d+))?)?", url.path)
            if not m or int(m.group(1)) not in SHELVES:
                return self.reply(404, {"error": "no such shelf"})
            if not m.group(2):
                return self.reply(200, SHELVES[int(m.group(1))])
            rows = [b for b in BOOKS.values() if b["shelf_id"] == int(m.group(1))]
            if m.group(3):
                found = [b for b in rows if b["id"] == int(m.group(3))]
                return self.reply(200, found[0]) if found else self.reply(404, {})
            page, limit = int(q.get("page", 1)) if PAGED else 1, int(q.get("limit", 3))
            return self.reply(200, {"books": rows[(page - 1) * limit:page * limit],
                                    "links": {"next": None, "prev": None}})
    """) + SERVE_JSON


def test_link_parameters_page_a_nested_list(
        tmp_path: Path, task_factory: Callable[..., Path]) -> None:
    listing = next(e for e in extract_spec(README).endpoints
                   if (e.method, e.path) == ("GET", "/shelves/{shelf_id}/books"))
    assert {(p.name, p.location) for p in listing.params} >= {("page", "query"),
                                                             ("limit", "query")}
    outcomes = outcomes_on_variants(tmp_path, task_factory, "shelves", README, SERVER,
                                    {"page ignored": ("PAGED = True", "PAGED = False")})
    name = "test_books_under_one_shelve_split_into_pages"
    assert outcomes["good"].get(name) == "passed", outcomes["good"]
    assert outcomes["page ignored"][name] == "failed", outcomes["page ignored"]
