"""Generic rules for per-endpoint details, on small documents written for each rule."""

from __future__ import annotations

from pipeline.records import Endpoint
from pipeline.spec import extract_spec


def endpoints(doc: str) -> dict[tuple[str, str], Endpoint]:
    return {e.key: e for e in extract_spec(doc).endpoints}


def test_the_defining_section_wins_over_an_earlier_prose_mention() -> None:
    doc = """# Svc

## Setup

Runs on port 9000. For example, the upload endpoint `POST /uploads` takes a file.

## Endpoints

### Upload

Request: `POST /uploads`

| Field | Type | Required | Description |
|-------|------|----------|-------------|
| `name` | string | yes | the name |
| `size` | integer | no | bytes |

Responses: `201` created; `413 too_large`.
"""
    e = endpoints(doc)[("POST", "/uploads")]
    assert e.summary == "Upload"
    assert [(p.name, p.location, p.required) for p in e.params] == [
        ("name", "body", True), ("size", "body", False)]
    assert set(e.status_codes) == {201, 413}
    assert e.request_schema == {"type": "object", "required": ["name"], "properties": {
        "name": {"type": "string", "description": "the name"},
        "size": {"type": "integer", "description": "bytes"}}}


def test_a_passing_mention_does_not_cut_or_steal_another_section() -> None:
    doc = """# Svc

### POST /books

Add a book. Returns `201`.

### PUT /books/{id}

Replace a book. The body follows the same rules as `POST /books`.

Returns `200`; `404` when unknown.
"""
    eps = endpoints(doc)
    assert set(eps[("POST", "/books")].status_codes) == {201}
    put = eps[("PUT", "/books/{id}")]
    assert put.summary == "Replace a book."
    assert set(put.status_codes) == {200, 404}


def test_inline_json_bodies_after_markers() -> None:
    doc = """# Svc

- `GET /health` — liveness. Response `200`: `{"status": "ok"}`.
- `POST /tags` — create. Body: `{"name": "x", "color": "red"}` (only `name` is required).
  Returns `201` with `{"id": 1, "name": "x"}`; `422` when invalid.
"""
    eps = endpoints(doc)
    health = eps[("GET", "/health")]
    assert health.response_examples == {200: {"status": "ok"}}
    assert health.status_codes == {200: "OK"}
    tags = eps[("POST", "/tags")]
    assert tags.request_example == {"name": "x", "color": "red"}
    assert tags.response_examples[201] == {"id": 1, "name": "x"}
    assert set(tags.status_codes) == {201, 422}
    required = {p.name: p.required for p in tags.params}
    assert required["name"] is True and "color" in required


def test_code_blocks_after_request_and_response_labels() -> None:
    doc = """# 服务

### 创建订单

`POST /orders`

请求示例：

```json
{"sku": "A-1", "qty": 2}
```

响应示例（201）：

```json
{"id": 7, "sku": "A-1", "qty": 2}
```

错误：`400`；库存不足时 `409`。
"""
    e = endpoints(doc)[("POST", "/orders")]
    assert e.summary == "创建订单"
    assert e.request_example == {"sku": "A-1", "qty": 2}
    assert e.response_examples[201] == {"id": 7, "sku": "A-1", "qty": 2}
    assert {201, 400, 409} <= set(e.status_codes)
    assert e.status_codes[409] == "库存不足"
    assert {(p.name, p.type) for p in e.params} == {("sku", "string"), ("qty", "integer")}


def test_prose_parameter_lists() -> None:
    doc = """# Svc

**GET /items** — list items. Optional query parameters: `tag` (string), `limit` (1–100,
default 20). Returns `200`.

**POST /items** — add one.

- Body: `name` (string, 1–50 characters), `price` (number). All are required.
- `201` with the item; `422` if a field is invalid.
"""
    eps = endpoints(doc)
    q = {p.name: (p.location, p.required) for p in eps[("GET", "/items")].params}
    assert q == {"tag": ("query", False), "limit": ("query", False)}
    body = {p.name: (p.location, p.type, p.required) for p in eps[("POST", "/items")].params}
    assert body == {"name": ("body", "string", True), "price": ("body", "number", True)}
    assert set(eps[("POST", "/items")].status_codes) == {201, 422}


def test_bare_argument_lists_and_template_bodies() -> None:
    doc = """# Svc

**GET /api/notes** — list notes. Parameters: `tag`, `limit`.

**POST /api/notes** — add a note. Arguments: `title`, `text`.

**POST /api/notes/batch** — add many. Body: `{"notes": [<note>, ...], "source": "<name>"}`.
"""
    eps = endpoints(doc)
    q = {p.name: p.location for p in eps[("GET", "/api/notes")].params}
    assert q == {"tag": "query", "limit": "query"}
    body = {p.name: p.location for p in eps[("POST", "/api/notes")].params}
    assert body == {"title": "body", "text": "body"}
    batch = {p.name: (p.location, p.type) for p in eps[("POST", "/api/notes/batch")].params}
    assert batch == {"notes": ("body", "array"), "source": ("body", "string")}


def test_per_endpoint_auth_markers() -> None:
    doc = """# Svc

### GET /public
No authentication required. Returns `200`.

### GET /me
Requires authentication. Returns `200`.

### DELETE /me
Auth required: Yes

### GET /admin 🔒
Returns `200`.

### GET /other
Returns `200`.
"""
    eps = endpoints(doc)
    assert eps[("GET", "/public")].auth_required is False
    assert eps[("GET", "/me")].auth_required is True
    assert eps[("DELETE", "/me")].auth_required is True
    assert eps[("GET", "/admin")].auth_required is True
    assert eps[("GET", "/other")].auth_required is None


def test_doc_level_auth_with_listed_exceptions() -> None:
    doc = """# Svc

Authentication uses a bearer token from `POST /session`. All endpoints except
`POST /session` and `GET /status` require the `Authorization: Bearer <token>` header.

- `POST /session` — log in. Returns `200`.
- `GET /status` — service status. Returns `200`.
- `GET /signup-stats` — sign-up counts. Returns `200`.
- `GET /documents` — list documents. Returns `200`.
"""
    spec = extract_spec(doc)
    eps = {e.key: e for e in spec.endpoints}
    assert eps[("POST", "/session")].auth_required is False
    assert eps[("GET", "/status")].auth_required is False
    # listed exceptions win over path heuristics: a "signup" path is not open by itself
    assert eps[("GET", "/signup-stats")].auth_required is True
    assert eps[("GET", "/documents")].auth_required is True
    assert eps[("GET", "/documents")].summary == "list documents."
    assert spec.auth is not None and spec.auth.login_path == "/session"


def test_named_objects_fill_success_examples() -> None:
    doc = """# Svc

## Objects

**Widget**

```json
{"id": 1, "name": "w"}
```

## Endpoints

- `GET /widgets` — `200` with a JSON array of widgets.
- `GET /widgets/{id}` — `200` with the Widget; `404` if unknown.
- `DELETE /widgets/{id}` — `204` with an empty body.
"""
    eps = endpoints(doc)
    assert eps[("GET", "/widgets")].response_examples[200] == [{"id": 1, "name": "w"}]
    assert eps[("GET", "/widgets/{id}")].response_examples[200] == {"id": 1, "name": "w"}
    assert eps[("DELETE", "/widgets/{id}")].response_examples == {}


def test_a_list_item_owns_only_itself() -> None:
    doc = """# Svc

- `GET /a` — first. Returns `200`.
- `GET /b` — second. Returns `200`.

An id that is not an integer is a validation error (`422`).
"""
    eps = endpoints(doc)
    assert set(eps[("GET", "/b")].status_codes) == {200}


def test_port_in_a_settings_table() -> None:
    doc = "# Svc\n\n| Property | Value |\n|---|---|\n| Port | `8104` |\n\n`GET /x` — x.\n"
    assert extract_spec(doc).port == 8104
