"""Focused behaviour of extract_spec: evidence rules, base path, details, auth, Chinese."""

from __future__ import annotations

import pytest

from pipeline.spec import extract_spec


def keys(doc: str) -> list[tuple[str, str]]:
    return [(e.method, e.path) for e in extract_spec(doc).endpoints]


# --- evidence rules ---------------------------------------------------------------------

@pytest.mark.parametrize(
    "prose",
    [
        "Get article details from the list.",
        "Put the schema in /docs/schema.json.",
        "Delete a user from the admin panel.",
        "## Get started\n\nPost a message on /r/python.",
        "GET requests are cached; POST-processing runs at night.",
        "Config lives in `/etc/app/config.yaml`.",
        "See https://docs.example.com/v1/users for the docs.",
    ],
)
def test_prose_is_not_an_endpoint(prose: str) -> None:
    assert keys(f"# Service\n\n{prose}\n") == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Call GET /users to list them.", [("GET", "/users")]),
        ("Use `DELETE /users/:id`.", [("DELETE", "/users/{id}")]),
        ("Send a `POST` request to `/api/login`.", [("POST", "/api/login")]),
        ("**GET** `/items`", [("GET", "/items")]),
        ("GET http://localhost:5000/users", [("GET", "/users")]),
        ("GET, PUT /items/{id}", [("GET", "/items/{id}"), ("PUT", "/items/{id}")]),
        ("`GET|POST /items`", [("GET", "/items"), ("POST", "/items")]),
        ("GET /users.", [("GET", "/users")]),
        ("`GET` - `/users` - list them", [("GET", "/users")]),
        ("POST: /login", [("POST", "/login")]),
        ("获取列表：GET /api/users返回全部", [("GET", "/api/users")]),
    ],
)
def test_method_and_path_in_prose(text: str, expected: list[tuple[str, str]]) -> None:
    assert keys(f"# S\n\n{text}\n") == expected


def test_duplicates_removed_in_order_of_first_appearance() -> None:
    doc = ("# S\n\n- GET /b\n- POST /a\n\n## GET /b\n\nagain\n\n"
           "| Method | Path |\n|---|---|\n| POST | /a |\n| GET | /b/ |\n")
    assert keys(doc) == [("GET", "/b"), ("POST", "/a"), ("GET", "/b/")]


def test_same_path_different_param_spelling_is_one_endpoint() -> None:
    assert keys("# S\n\n- GET /u/:id\n- GET /u/<id>\n- GET /u/{id}\n") == [("GET", "/u/{id}")]


def test_code_block_lines_must_start_with_the_method() -> None:
    doc = ("# S\n\n```\nGET /ok\n"
           'INFO: 127.0.0.1 - "GET /log HTTP/1.1" 200\n```\n')
    assert keys(doc) == [("GET", "/ok")]


def test_curl_counts_only_without_other_evidence() -> None:
    curls = ("```bash\ncurl -X POST http://localhost:8000/items -d '{}'\n"
             "curl localhost:8000/x\n```\n")
    assert keys("# S\n\n" + curls) == [("POST", "/items"), ("GET", "/x")]
    assert keys("# S\n\n- GET /items\n\n" + curls) == [("GET", "/items")]


def test_example_call_of_a_documented_template_is_not_a_new_endpoint() -> None:
    doc = "# S\n\n- GET /notes/{id}\n\nFor example GET /notes/42 or GET /notes/search.\n"
    assert keys(doc) == [("GET", "/notes/{id}"), ("GET", "/notes/search")]


def test_leaking_code_is_not_read_for_endpoints() -> None:
    doc = "# S\n\n- GET /a\n\n```python\n@app.get('/secret')\ndef s():\n    return 1\n```\n"
    assert keys(doc) == [("GET", "/a")]


def test_split_fields_pair_within_a_section() -> None:
    doc = ("# S\n\n## One\n\n**Endpoint:** /orders/:id\n**Method:** GET\n\n"
           "## Two\n\n- Method: POST\n- URL: /orders\n")
    assert keys(doc) == [("GET", "/orders/{id}"), ("POST", "/orders")]


def test_method_heading_pairs_with_path_heading_above() -> None:
    doc = "# S\n\n## /books/{id}\n\n### GET\n\nOne book.\n\n### DELETE\n\nGone.\n"
    assert keys(doc) == [("GET", "/books/{id}"), ("DELETE", "/books/{id}")]


def test_struck_through_and_commented_endpoints_are_dropped() -> None:
    doc = "# S\n\n- GET /a\n- ~~GET /old~~\n\n<!-- POST /hidden -->\n"
    assert keys(doc) == [("GET", "/a")]


# --- base path --------------------------------------------------------------------------

@pytest.mark.parametrize(
    "statement",
    [
        "Base URL: http://localhost:8080/api/v1",
        "All endpoints are prefixed with `/api/v1`.",
        "The base path is `/api/v1`.",
        "All paths below are relative to /api/v1.",
        "所有接口均以 `/api/v1` 为前缀。",
        "接口前缀：/api/v1",
    ],
)
def test_base_path_statements(statement: str) -> None:
    spec = extract_spec(f"# S\n\n{statement}\n\n- GET /users\n- GET /api/v1/items\n")
    assert spec.base_path == "/api/v1"
    assert [e.path for e in spec.endpoints] == ["/api/v1/users", "/api/v1/items"]


def test_base_url_heading_with_code_block() -> None:
    doc = "# S\n\n## Base URL\n\n```\nhttp://localhost:9000/svc\n```\n\n- GET /ping\n"
    assert keys(doc) == [("GET", "/svc/ping")]


def test_full_urls_are_not_prefixed_again() -> None:
    doc = "# S\n\nBase URL: http://localhost:8000/api\n\n- GET http://localhost:8000/health\n"
    assert keys(doc) == [("GET", "/health")]


def test_no_base_path_without_a_statement() -> None:
    spec = extract_spec("# S\n\nSee https://docs.example.com/v1/guide.\n\n- GET /users\n")
    assert spec.base_path == ""
    assert keys("# S\n\nIDs are prefixed with `usr_`.\n\n- GET /users\n") == [("GET", "/users")]


# --- details ----------------------------------------------------------------------------

DETAILED = """# Shop

The service listens on port 8123.

## Error format

```json
{"error": "message"}
```

## Authentication

Get a token with `POST /login`; send it as `Authorization: Bearer <token>`.
All other endpoints require authentication.

## POST /login

No authentication required.

## POST /products

Request body:

| Field | Type | Required | Description |
|---|---|---|---|
| name | string | yes | product name |
| price | float | no | price in EUR |

Response (201 Created):

```json
{"id": 1, "name": "Pen", "price": 1.5}
```

Errors:

- `400 Bad Request` — name missing
- 409: a product with this name exists

## GET /products

Query parameters:

- `page` (integer, optional): page number
- `q` (string, optional): search text

```json
[{"id": 1}]
```
"""


def test_document_level_facts() -> None:
    spec = extract_spec(DETAILED)
    assert spec.title == "Shop"
    assert spec.port == 8123
    assert spec.language == "en"
    assert spec.error_format == {"error": "message"}
    assert spec.auth is not None
    assert (spec.auth.scheme, spec.auth.header) == ("bearer", "Authorization")
    assert (spec.auth.login_method, spec.auth.login_path) == ("POST", "/login")


def test_request_schema_status_codes_and_examples() -> None:
    ep = {e.key: e for e in extract_spec(DETAILED).endpoints}[("POST", "/products")]
    assert ep.request_schema == {
        "type": "object",
        "properties": {"name": {"type": "string", "description": "product name"},
                       "price": {"type": "number", "description": "price in EUR"}},
        "required": ["name"],
    }
    assert ep.response_example == {"id": 1, "name": "Pen", "price": 1.5}
    assert ep.response_examples[201] == {"id": 1, "name": "Pen", "price": 1.5}
    assert ep.status_codes == {201: "Created", 400: "Bad Request — name missing",
                               409: "a product with this name exists"}
    assert {(p.name, p.location, p.required) for p in ep.params} == {
        ("name", "body", True), ("price", "body", False)}


def test_query_params_and_response_example() -> None:
    ep = {e.key: e for e in extract_spec(DETAILED).endpoints}[("GET", "/products")]
    assert [(p.name, p.location, p.type) for p in ep.params] == [
        ("page", "query", "integer"), ("q", "query", "string")]
    assert ep.response_example == [{"id": 1}]
    assert ep.request_example is None


def test_auth_required_per_endpoint() -> None:
    eps = {e.key: e for e in extract_spec(DETAILED).endpoints}
    assert eps[("POST", "/login")].auth_required is False
    assert eps[("POST", "/products")].auth_required is True
    assert eps[("GET", "/products")].auth_required is True


def test_api_key_scheme_and_table_auth_column() -> None:
    doc = ("# S\n\nSend your API key in the `X-API-Key` header.\n\n"
           "| Method | Path | Auth |\n|---|---|---|\n"
           "| GET | /open | no |\n| POST | /items | yes |\n")
    spec = extract_spec(doc)
    assert spec.auth is not None
    assert (spec.auth.scheme, spec.auth.header) == ("api-key", "X-API-Key")
    assert [e.auth_required for e in spec.endpoints] == [False, True]


def test_no_auth_when_the_document_does_not_mention_it() -> None:
    spec = extract_spec("# S\n\n- GET /a\n")
    assert spec.auth is None
    assert spec.endpoints[0].auth_required is None


def test_path_params_are_listed() -> None:
    ep = extract_spec("# S\n\n- GET /a/{x}/b/:y\n").endpoints[0]
    assert [(p.name, p.location, p.required) for p in ep.params] == [
        ("x", "path", True), ("y", "path", True)]


def test_http_exchange_blocks() -> None:
    doc = ("# S\n\n## Login\n\n```http\nPOST /login HTTP/1.1\nContent-Type: application/json\n\n"
           '{"u": "a"}\n```\n\n```http\nHTTP/1.1 200 OK\n\n{"token": "t"}\n```\n')
    ep = extract_spec(doc).endpoints[0]
    assert ep.key == ("POST", "/login")
    assert ep.request_example == {"u": "a"}
    assert ep.response_example == {"token": "t"}
    assert ep.status_codes == {200: "OK"}


def test_status_codes_in_a_one_line_endpoint_description() -> None:
    doc = "# S\n\n- `GET /t/{id}` — fetch one. 200 with the todo, 404 if unknown.\n"
    assert extract_spec(doc).endpoints[0].status_codes == {200: "with the todo",
                                                           404: "if unknown"}


def test_numbers_that_are_not_status_codes_are_ignored() -> None:
    doc = "# S\n\n## GET /items\n\nReturns at most 100 items; prices above 500 are hidden.\n"
    assert extract_spec(doc).endpoints[0].status_codes == {}


# --- Chinese ----------------------------------------------------------------------------

ZH = """# 用户服务

服务端口：8090

### 获取用户列表

**请求方式：** GET
**接口地址：** /api/users

### 删除用户

- 请求方法：DELETE
- 请求路径：/api/users/{id}
- 是否需要登录：是

成功返回 204，用户不存在返回 404。

### 创建用户

```
POST /api/users
```

请求示例：

```json
{"name": "张三"}
```
"""


def test_chinese_document() -> None:
    spec = extract_spec(ZH)
    assert spec.language == "zh"
    assert spec.port == 8090
    assert [e.key for e in spec.endpoints] == [
        ("GET", "/api/users"), ("DELETE", "/api/users/{id}"), ("POST", "/api/users")]
    get, delete, post = spec.endpoints
    assert get.summary == "获取用户列表"
    assert delete.status_codes == {204: "成功", 404: "用户不存在"}
    assert delete.auth_required is True
    assert post.request_example == {"name": "张三"}


def test_english_document_with_a_few_chinese_words_is_english() -> None:
    doc = "# Users API\n\nThe users service (用户) lists and creates users.\n\n- GET /users\n"
    assert extract_spec(doc).language == "en"
