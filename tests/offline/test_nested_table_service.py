"""A README that lists its routes in one table with a "Requires Token" column, files pages
under notebooks on singular item paths (`/notebook/<nb_id>/page/<page_id>`), has update
bodies that name the record they change (`{"notebook_id": 1, ...}`), and answers a wrong
password with `202: Invalid credentials`. The suite binds those ids to the records it made,
and catches: a lost page update, an update that edits the notebook's first page, a page read
that ignores its notebook, a notebook read served without a token, and a login that ignores
the password."""

from __future__ import annotations

import ast
import textwrap
from collections.abc import Callable
from pathlib import Path

from variant_suite import SERVE_JSON, outcomes_on_variants

from pipeline.offline.gen_model import build_model
from pipeline.offline.generate import generate_cases
from pipeline.offline.update_bodies import update_payload
from pipeline.spec import extract_spec

README = textwrap.dedent("""\
    # Notebooks

    A service that keeps notebooks and their pages.

    ## Endpoints

    | Resource URL | Methods | Description | Requires Token |
    | --- | :---: | :---: | --- |
    | /auth/register | POST | Register an account | FALSE |
    | /auth/login | POST | Sign in | FALSE |
    | /notebooks | POST | Create a notebook | TRUE |
    | /notebooks | GET | List your notebooks | TRUE |
    | /notebook/<nb_id> | GET | View one notebook | TRUE |
    | /notebook/<nb_id> | PUT | Edit one notebook | TRUE |
    | /notebook/<nb_id> | DELETE | Delete one notebook | TRUE |
    | /notebook/<nb_id>/pages | POST | Add a page to a notebook | TRUE |
    | /notebook/<nb_id>/pages | GET | List the pages of a notebook | TRUE |
    | /notebook/<nb_id>/page/<page_id> | GET | View one page of a notebook | TRUE |
    | /notebook/<nb_id>/page/<page_id> | PUT | Edit one page of a notebook | TRUE |
    | /notebook/<nb_id>/page/<page_id> | DELETE | Delete one page of a notebook | TRUE |

    Send the token as `Authorization: Bearer <token>`.

    ## Requests

    ### POST /auth/register

    ```json
    {"email": "kim@example.org", "password": "lantern7"}
    ```

    Responses: `201` Account created.

    ### POST /auth/login

    ```json
    {"email": "kim@example.org", "password": "lantern7"}
    ```

    Responses: `200` Signed in, `202` Invalid credentials.

    Response:

    ```json
    {"token": "c2lnbmVk"}
    ```

    ### POST /notebooks

    ```json
    {"name": "Field notes", "summary": "Birds seen in May"}
    ```

    Responses: `201` Notebook created.

    ### PUT /notebook/<nb_id>

    ```json
    {"notebook_id": 1, "name": "Field notes 2", "summary": "Birds seen in June"}
    ```

    Responses: `200` Notebook updated.

    ### POST /notebook/<nb_id>/pages

    ```json
    {"heading": "Heron", "text": "By the river at dawn"}
    ```

    Responses: `201` Page created.

    ### PUT /notebook/<nb_id>/page/<page_id>

    ```json
    {"notebook_id": 1, "heading": "Egret", "text": "Same place, at dusk"}
    ```

    Responses: `200` Page updated.
    """)

SERVER = textwrap.dedent("""\
    import json, os, re
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    USERS, TOKENS, BOOKS, PAGES = {}, {}, {}, {}
    CHECK_PASSWORD = True
    SAVE_PAGE = True
    FIRST_PAGE = False
    PAGE_BY_ID_ONLY = False
    OPEN_READ = False

    class H(BaseHTTPRequestHandler):
        def me(self):
            return TOKENS.get(self.headers.get("Authorization", "").replace("Bearer ", ""))

        def route(self, method):
            path, body = self.path, None
            if method in ("POST", "PUT"):
                body = self.body()
                if not isinstance(body, dict):
                    return self.reply(400, {"message": "send JSON"})
            if path == "/auth/register":
                if body.get("email") in USERS:
                    return self.reply(202, {"message": "exists"})
                USERS[body.get("email")] = body.get("password")
                return self.reply(201, {"message": "Account created"})
            if path == "/auth/login":
                known = USERS.get(body.get("email"))
                if known is None or (CHECK_PASSWORD and known != body.get("password")):
                    return self.reply(202, {"message": "Invalid credentials"})
                token = "t%d" % (len(TOKENS) + 1)
                TOKENS[token] = body["email"]
                return self.reply(200, {"token": token})
            me = self.me()
            m = re.fullmatch(r"/notebook/(\\d+)", path)
            if me is None and not (OPEN_READ and m and method == "GET"):
                return self.reply(401, {"message": "token missing"})
            if path == "/notebooks":
                if method == "GET":
                    return self.reply(200, [b for b in BOOKS.values() if b["owner"] == me])
                new = max(BOOKS, default=0) + 1
                BOOKS[new] = {"id": new, "owner": me, "name": body.get("name"),
                              "summary": body.get("summary")}
                return self.reply(201, BOOKS[new])
            if m:
                book = BOOKS.get(int(m.group(1)))
                if book is None or (me is not None and book["owner"] != me):
                    return self.reply(404, {"message": "not found"})
                if method == "GET":
                    return self.reply(200, book)
                if method == "DELETE":
                    del BOOKS[book["id"]]
                    return self.reply(200, {"message": "deleted"})
                if body.get("notebook_id") != book["id"]:
                    return self.reply(400, {"message": "notebook_id does not match"})
                book.update(name=body.get("name"), summary=body.get("summary"))
                return self.reply(200, book)
            m = re.fullmatch(r"/notebook/(\\d+)/pages", path)
            if m:
                book = BOOKS.get(int(m.group(1)))
                if book is None or book["owner"] != me:
                    return self.reply(404, {"message": "not found"})
                if method == "GET":
                    return self.reply(200, [p for p in PAGES.values()
                                            if p["notebook_id"] == book["id"]])
                new = max(PAGES, default=0) + 1
                PAGES[new] = {"page_id": new, "notebook_id": book["id"],
                              "heading": body.get("heading"), "text": body.get("text")}
                return self.reply(201, PAGES[new])
            m = re.fullmatch(r"/notebook/(\\d+)/page/(\\d+)", path)
            if m:
                book_id, page_id = int(m.group(1)), int(m.group(2))
                page = PAGES.get(page_id)
                if page is None or (page["notebook_id"] != book_id and not PAGE_BY_ID_ONLY):
                    return self.reply(404, {"message": "not found"})
                if method == "GET":
                    return self.reply(200, page)
                if method == "DELETE":
                    del PAGES[page_id]
                    return self.reply(200, {"message": "deleted"})
                if body.get("notebook_id") != book_id:
                    return self.reply(400, {"message": "notebook_id does not match"})
                if FIRST_PAGE:
                    page = min((p for p in PAGES.values() if p["notebook_id"] == book_id),
                               key=lambda p: p["page_id"])
                changed = dict(page, heading=body.get("heading"), text=body.get("text"))
                if SAVE_PAGE:
                    page.update(changed)
                return self.reply(200, changed)
            return self.reply(404, {"message": "no route"})

        def do_GET(self):
            self.route("GET")

        def do_POST(self):
            self.route("POST")

        def do_PUT(self):
            self.route("PUT")

        def do_DELETE(self):
            self.route("DELETE")
    """) + SERVE_JSON


def test_update_bodies_name_the_records_the_test_made() -> None:
    model = build_model(extract_spec(README))
    book = next(r for r in model.resources if r.noun == "notebook")
    page = next(r for r in model.resources if r.noun == "page")
    assert page.parent is book
    # the example's `1` named some other notebook: the ids the test holds are sent instead
    assert update_payload(book) == {"notebook_id": book.id_var, "name": "Field notes 2",
                                    "summary": "Birds seen in June"}
    assert update_payload(book, own="second_id")["notebook_id"] == "second_id"
    assert update_payload(page)["notebook_id"] == book.id_var


def test_a_cleanup_never_hides_the_failure_before_it() -> None:
    cases = {c.name: c.code for c in generate_cases("notes", extract_spec(README))}
    code = cases["test_page_not_found_under_another_notebook"]
    ast.parse(code)
    # the second notebook's id is bound late: the cleanup skips it when the body failed first
    assert "    other_parent_id = None\n    try:" in code
    assert "if other_parent_id is not None:" in code


def test_the_suite_catches_nested_and_token_faults(
        tmp_path: Path, task_factory: Callable[..., Path]) -> None:
    outcomes = outcomes_on_variants(
        tmp_path, task_factory, "notes", README, SERVER,
        {"page update lost": ("SAVE_PAGE = True", "SAVE_PAGE = False"),
         "first page edited": ("FIRST_PAGE = False", "FIRST_PAGE = True"),
         "page read by id only": ("PAGE_BY_ID_ONLY = False", "PAGE_BY_ID_ONLY = True"),
         "notebook read open": ("OPEN_READ = False", "OPEN_READ = True"),
         "password ignored": ("CHECK_PASSWORD = True", "CHECK_PASSWORD = False")})
    good = outcomes["good"]
    checks = {"page update lost": "test_page_lifecycle_create_read_update_delete",
              "first page edited": "test_two_pages_read_back_each_as_itself",
              "page read by id only": "test_page_not_found_under_another_notebook",
              "notebook read open": "test_get_notebook_without_token_is_refused",
              "password ignored": "test_login_with_a_wrong_password_is_refused"}
    assert all(good.get(t) == "passed" for t in checks.values()), sorted(good.items())
    for variant, test in checks.items():
        assert outcomes[variant][test] == "failed", (variant, outcomes[variant])
    # each fault is caught by its own rule, not by a suite that fails everywhere
    assert outcomes["password ignored"]["test_page_lifecycle_create_read_update_delete"] \
        == "passed"
