"""Per-endpoint details read from the bundled requirement documents (data/raw/*/README.md).

The oracles in data/raw/*/oracle/ are the ground truth: every detail asserted here is one
the oracle implements (status codes it returns, fields it requires, bodies it sends).
"""

from __future__ import annotations

import re
import sys
from functools import cache
from pathlib import Path

import pytest

from pipeline.records import Endpoint, Spec
from pipeline.spec import extract_spec

RAW = Path(__file__).resolve().parents[2] / "data" / "raw"
sys.path.insert(0, str(RAW.parents[1] / "bench"))
from spec_details import documented  # noqa: E402  (the judge's reading of a document)


@cache
def spec(task: str) -> Spec:
    return extract_spec((RAW / task / "README.md").read_text(encoding="utf-8"))


def ep(task: str, method: str, path: str) -> Endpoint:
    found = {e.key: e for e in spec(task).endpoints}
    assert (method, path) in found, f"{method} {path} missing from {task}"
    return found[(method, path)]


def param(e: Endpoint, name: str, location: str):  # noqa: ANN201
    hits = [p for p in e.params if p.name == name and p.location == location]
    assert hits, f"{location} param {name} missing from {e.method} {e.path}: {e.params}"
    return hits[0]


def names(e: Endpoint, location: str) -> set[str]:
    return {p.name for p in e.params if p.location == location}


# --- file-vault: base path, details under "### Upload a file", not "Configuration" -----------

def test_file_vault_upload_is_read_from_its_own_section() -> None:
    e = ep("file-vault", "POST", "/api/v1/files")
    assert e.summary == "Upload a file"
    assert {201, 409, 413, 422} <= set(e.status_codes)
    assert param(e, "file", "body").required is True
    assert param(e, "folder", "body").required is False
    assert "overwrite" in names(e, "query")
    assert "true" not in names(e, "query")


def test_file_vault_health_json_is_an_example_not_a_meaning() -> None:
    e = ep("file-vault", "GET", "/api/v1/health")
    assert e.response_examples[200] == {"status": "ok"}
    assert "{" not in e.status_codes[200]


def test_file_vault_list_and_batch_delete() -> None:
    e = ep("file-vault", "GET", "/api/v1/files")
    assert {"folder", "limit", "offset"} <= names(e, "query")
    assert 422 in e.status_codes
    assert set(e.response_examples[200]) >= {"items", "total", "limit", "offset"}
    b = ep("file-vault", "POST", "/api/v1/files/batch-delete")
    assert b.request_example == {"ids": ["<id>", "<id>"]}
    assert param(b, "ids", "body").type == "array"
    assert set(b.response_examples[200]) == {"deleted", "not_found"}
    assert 422 in b.status_codes


def test_file_vault_metadata_object_is_the_documented_success_body() -> None:
    e = ep("file-vault", "GET", "/api/v1/files/{file_id}")
    assert {200, 404} <= set(e.status_codes)
    assert "sha256" in e.response_examples[200]
    assert ep("file-vault", "DELETE", "/api/v1/files/{file_id}").status_codes.keys() >= {204, 404}
    assert spec("file-vault").base_path == "/api/v1"
    assert spec("file-vault").port == 8106


# --- secure-notes (Chinese, bearer auth) ----------------------------------------------------

def test_secure_notes_doc_auth() -> None:
    auth = spec("secure-notes").auth
    assert auth is not None
    assert (auth.login_method, auth.login_path) == ("POST", "/auth/login")
    assert auth.scheme == "bearer"
    assert auth.header == "Authorization"


@pytest.mark.parametrize("method,path", [("GET", "/health"), ("POST", "/auth/register"),
                                         ("POST", "/auth/login")])
def test_secure_notes_open_endpoints(method: str, path: str) -> None:
    assert ep("secure-notes", method, path).auth_required is False


def test_secure_notes_everything_else_needs_auth() -> None:
    open_ = {("GET", "/health"), ("POST", "/auth/register"), ("POST", "/auth/login")}
    rest = [e for e in spec("secure-notes").endpoints if e.key not in open_]
    assert len(rest) == 8
    assert all(e.auth_required is True for e in rest), [e.key for e in rest if not e.auth_required]


def test_secure_notes_health_summary_is_its_heading() -> None:
    assert ep("secure-notes", "GET", "/health").summary == "健康检查"


def test_secure_notes_login_details_come_from_its_section() -> None:
    e = ep("secure-notes", "POST", "/auth/login")
    assert e.request_example == {"username": "zhang_san", "password": "s3cret-pass"}
    assert "access_token" in e.response_examples[200]
    assert e.status_codes[401] == "用户名不存在或密码错误"
    assert {"username", "password"} <= names(e, "body")


def test_secure_notes_notes_endpoints() -> None:
    lst = ep("secure-notes", "GET", "/notes")
    assert param(lst, "tag", "query").required is False
    assert param(lst, "q", "query").required is False
    assert {200, 401, 422} <= set(lst.status_codes)
    create = ep("secure-notes", "POST", "/notes")
    assert {201, 401, 422} <= set(create.status_codes)
    assert create.request_example["title"] == "读书清单"
    assert "id" in create.response_examples[201]  # "返回创建的笔记" → the Note object
    for method in ("GET", "PUT", "DELETE"):
        assert {401, 404, 422} <= set(ep("secure-notes", method, "/notes/{note_id}").status_codes)


# --- library-books (heading per endpoint, field tables) -------------------------------------

def test_library_books_create() -> None:
    e = ep("library-books", "POST", "/api/books")
    assert set(e.request_example) == {"title", "author", "isbn", "year", "tags"}
    assert "id" in e.response_examples[201]
    assert {201, 400, 409, 422} <= set(e.status_codes)
    assert 200 not in e.status_codes  # PUT's "200" must not leak into POST
    assert param(e, "year", "body").type == "integer"


def test_library_books_put_is_not_swallowed_by_a_passing_mention() -> None:
    e = ep("library-books", "PUT", "/api/books/{id}")
    assert e.summary.startswith("Replace the editable fields")
    assert {200, 400, 404, 409, 422} <= set(e.status_codes)


def test_library_books_query_and_body_tables() -> None:
    e = ep("library-books", "GET", "/api/books")
    assert {"q", "author", "tag", "available", "page", "per_page"} <= names(e, "query")
    assert all(p.required is False for p in e.params if p.location == "query")
    assert 400 in e.status_codes and 500 not in e.status_codes
    loan = ep("library-books", "POST", "/api/books/{id}/loan")
    assert param(loan, "member", "body").required is True
    assert param(loan, "days", "body").required is False
    assert {201, 400, 404, 409, 422} <= set(loan.status_codes)
    assert "due_date" in loan.response_examples[201]
    assert param(ep("library-books", "GET", "/api/loans"), "member", "query").required is False


# --- event-signup (overview table, "Title — `METHOD /path`" headings) -----------------------

def test_event_signup_details() -> None:
    create = ep("event-signup", "POST", "/api/v2/events")
    assert create.summary == "Create an event"
    assert all(param(create, f, "body").required is True
               for f in ("title", "location", "starts_at", "capacity"))
    assert {201, 422} <= set(create.status_codes)
    get = ep("event-signup", "GET", "/api/v2/events/{eventId}")
    assert get.summary in ("Get an event", "Get one event with its seat count")
    assert {200, 404} <= set(get.status_codes)
    reg = ep("event-signup", "POST", "/api/v2/events/{eventId}/registrations")
    assert reg.request_example == {"name": "Jun Park", "email": "Jun@Example.org"}
    assert {201, 404, 409, 422} <= set(reg.status_codes)
    assert "email" in reg.response_examples[201]
    attendees = ep("event-signup", "GET", "/api/v2/events/{eventId}/registrations")
    assert {200, 404} <= set(attendees.status_codes)
    assert isinstance(attendees.response_examples[200], list)
    search = ep("event-signup", "GET", "/api/v2/events")
    assert {"q", "upcoming", "page", "size"} <= names(search, "query")


# --- inventory-java (split **Endpoint:** / **Method:** fields) ------------------------------

def test_inventory_details() -> None:
    assert spec("inventory-java").port == 8104
    health = ep("inventory-java", "GET", "/health")
    assert health.response_examples[200] == {"status": "ok", "items": 3}
    create = ep("inventory-java", "POST", "/items")
    assert {201, 400, 409, 422} <= set(create.status_codes)
    assert create.request_example["sku"] == "bolt-m8-40"
    assert param(create, "unit_price", "body").type == "number"
    move = ep("inventory-java", "POST", "/items/{id}/stock-movements")
    assert {201, 400, 404, 409, 422} <= set(move.status_codes)
    assert "sku" not in move.response_examples.get(201, {})  # not the Item object
    listing = ep("inventory-java", "GET", "/items")
    assert {"category", "low_stock"} <= names(listing, "query")
    assert 400 in listing.status_codes
    assert "by_category" in ep("inventory-java", "GET", "/inventory-value").response_examples[200]


# --- order-desk (bold "**METHOD /path** —" paragraphs, route list in a code block) ----------

def test_order_desk_details() -> None:
    assert ep("order-desk", "GET", "/health").response_examples[200] == {"status": "UP"}
    products = ep("order-desk", "POST", "/products")
    assert {"sku", "name", "price", "stock"} <= names(products, "body")
    assert all(p.required is True for p in products.params)
    assert {201, 400, 409, 422} <= set(products.status_codes)
    orders = ep("order-desk", "POST", "/orders")
    assert {201, 400, 409, 422} <= set(orders.status_codes)
    assert param(orders, "customer_email", "body").required is True
    assert param(orders, "note", "body").required is False
    assert "orders" not in names(orders, "body")  # that is the batch body
    assert 200 not in orders.response_examples  # the batch response is not POST /orders'
    batch = ep("order-desk", "POST", "/orders/batch")
    assert "orders" in names(batch, "body")
    assert "results" in batch.response_examples[200]
    assert {200, 400, 422} <= set(batch.status_codes)
    listing = ep("order-desk", "GET", "/orders")
    assert {"status", "customer_email"} <= names(listing, "query")
    patch = ep("order-desk", "PATCH", "/orders/{order_id}/status")
    assert patch.request_example == {"status": "paid"}
    assert {"paid", "shipped"}.isdisjoint(names(patch, "body"))
    assert {200, 400, 404, 409, 422} <= set(patch.status_codes)


# --- todo-tasks (one bullet per endpoint) ---------------------------------------------------

def test_todo_details() -> None:
    listing = ep("todo-tasks", "GET", "/todos")
    assert {"done", "priority", "q"} <= names(listing, "query")
    assert {200, 422} <= set(listing.status_codes)
    assert listing.summary == "list todos ordered by id."
    create = ep("todo-tasks", "POST", "/todos")
    assert create.request_example["priority"] == "high"
    assert param(create, "title", "body").required is True
    assert {201, 422} <= set(create.status_codes)
    assert "id" in create.response_examples[201]
    for suffix in ("complete", "reopen"):
        assert {200, 404, 409} <= set(ep("todo-tasks", "POST", f"/todos/{{todo_id}}/{suffix}")
                                      .status_codes)
    stats = ep("todo-tasks", "GET", "/todos/stats")
    assert "open_by_priority" in stats.response_examples[200]
    assert stats.status_codes[200] == "OK"
    assert 422 not in stats.status_codes  # the note after the list is not about /todos/stats


# --- url-shortener (table overview + "Title — `METHOD /path`" headings) ---------------------

def test_url_shortener_details() -> None:
    create = ep("url-shortener", "POST", "/short-links")
    assert create.summary == "Create a short link"
    assert param(create, "url", "body").required is True
    assert param(create, "code", "body").required is False
    assert {201, 400, 409, 422} <= set(create.status_codes)
    patch = ep("url-shortener", "PATCH", "/short-links/{code}")
    assert {"url", "expires_in_days"} <= names(patch, "body")
    assert {200, 400, 404, 422} <= set(patch.status_codes)
    stats = ep("url-shortener", "GET", "/short-links/{code}/stats")
    assert stats.response_examples[200]["hits"] == 42
    follow = ep("url-shortener", "GET", "/r/{code}")
    assert {302, 404, 410} <= set(follow.status_codes)
    assert ep("url-shortener", "GET", "/health").response_examples[200] == {"status": "ok",
                                                                           "links": 17}
    assert {"limit", "offset"} <= names(ep("url-shortener", "GET", "/short-links"), "query")


def _imported(task_dir: Path) -> bool:
    return 'source = "github"' in (task_dir / "task.toml").read_text(encoding="utf-8")


READMES = sorted(RAW.glob("*/README.md"))
EXPERT = [p.parent.name for p in READMES if not _imported(p.parent)]
IMPORTED = [p.parent.name for p in READMES if _imported(p.parent)]


@pytest.mark.parametrize("task", EXPERT)
def test_every_bundled_endpoint_has_a_summary_and_a_success_status(task: str) -> None:
    for e in spec(task).endpoints:
        if task != "order-desk":  # its "**GET /orders/<id>** — `200` ..." lines have none
            assert e.summary, e.key
        assert any(200 <= c < 400 for c in e.status_codes), e.key


@pytest.mark.parametrize("task", IMPORTED)
def test_imported_endpoints_have_a_summary_and_only_stated_status_codes(task: str) -> None:
    """The published documents give no status code per endpoint (only a document-wide list,
    or none at all), so none may be invented; every endpoint is still named."""
    text = (RAW / task / "README.md").read_text(encoding="utf-8")
    stated = {int(c) for c in re.findall(r"(?<!\d)([1-5]\d\d)(?!\d)", text)}
    for e in spec(task).endpoints:
        assert e.summary, e.key
        assert set(e.status_codes) <= stated, (e.key, e.status_codes)


@pytest.mark.parametrize("task", IMPORTED)
def test_imported_output_schemas_are_read(task: str) -> None:
    """Every endpoint whose part of the document has an output schema fence gets a body."""
    text = (RAW / task / "README.md").read_text(encoding="utf-8")
    wanted = set(documented(text))
    assert wanted or task in ("rock-paper-scissors-flask", "django-rest-framework-crud")
    got = {(e.method, e.path) for e in spec(task).endpoints
           if e.response_schema or e.response_example is not None or e.response_examples}
    assert {k for k in wanted if not any(p.endswith(k[1]) and m == k[0] for m, p in got)} == set()


def test_chinese_edition_reads_the_same_auth_rules_as_the_english_one() -> None:
    """`- **认证**: Bearer Token 必填` / `- **认证**: 可选` are the English edition's
    "Authentication: Bearer Token required" / "Optional" (one oracle serves both)."""
    en = {e.key: e.auth_required for e in spec("customization").endpoints}
    zh = {e.key: e.auth_required for e in spec("customization-zh").endpoints}
    assert zh == en
    assert zh[("GET", "/api/v1/likes/stats/{content_id}")] is False
    assert zh[("POST", "/api/v1/favorites")] is True
