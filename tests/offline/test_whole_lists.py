"""A list the document does not page holds every record, and a deleted record leaves it even
where its own read already answers 404: the suite catches a list cut to ten records and a
delete that only hides the record from its read."""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from pathlib import Path

from variant_suite import SERVE_JSON, outcomes_on_variants

README = textwrap.dedent("""\
    # Books

    ## GET /books

    All books on the shelf.

    Response `200`:

    ```json
    [{"id": 1, "title": "Dune", "author": "Frank Herbert"}]
    ```

    ## POST /books

    Request body:

    ```json
    {"title": "Dune", "author": "Frank Herbert"}
    ```

    Response `201`: the book, `{"id": 1, "title": "Dune", "author": "Frank Herbert"}`.

    ## GET /books/{id}

    One book. `404` when there is no such book.

    ## DELETE /books/{id}

    Removes the book: `204`. `404` when there is no such book.
    """)

SERVER = textwrap.dedent("""\
    import json, os, re
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    BOOKS, GONE = {}, set()
    CAP = None
    HARD_DELETE = True

    class H(BaseHTTPRequestHandler):
        def do_GET(self):
            if self.path == "/books":
                rows = list(BOOKS.values())
                return self.reply(200, rows[:CAP] if CAP else rows)
            m = re.fullmatch(r"/books/(\\d+)", self.path)
            book = BOOKS.get(int(m.group(1))) if m else None
            if book is None or book["id"] in GONE:
                return self.reply(404, {"error": "no such book"})
            return self.reply(200, book)

        def do_POST(self):
            body = self.body()
            if self.path != "/books" or not isinstance(body, dict) or not body.get("title"):
                return self.reply(400, {"error": "title required"})
            new = max([0, *BOOKS]) + 1
            BOOKS[new] = {"id": new, "title": body["title"], "author": body.get("author")}
            return self.reply(201, BOOKS[new])

        def do_DELETE(self):
            m = re.fullmatch(r"/books/(\\d+)", self.path)
            if not m or int(m.group(1)) not in BOOKS or int(m.group(1)) in GONE:
                return self.reply(404, {"error": "no such book"})
            if HARD_DELETE:
                del BOOKS[int(m.group(1))]
            else:
                GONE.add(int(m.group(1)))
            self.send_response(204)
            self.end_headers()
    """) + SERVE_JSON


def test_an_unpaged_list_holds_every_record_and_loses_the_deleted_one(
        tmp_path: Path, task_factory: Callable[..., Path]) -> None:
    outcomes = outcomes_on_variants(
        tmp_path, task_factory, "books", README, SERVER,
        {"cut to ten": ("CAP = None", "CAP = 10"),
         "soft delete": ("HARD_DELETE = True", "HARD_DELETE = False")})
    good = outcomes["good"]
    rules = {"cut to ten": "test_books_lists_every_record",
             "soft delete": "test_deleted_book_leaves_the_books_list"}
    for variant, name in rules.items():
        assert good.get(name) == "passed", (name, good)
        assert outcomes[variant][name] == "failed", (variant, outcomes[variant])
