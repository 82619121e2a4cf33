"""Behaviour tests from documents written like imported projects' READMEs: HTTPie commands
and a screenshot instead of a list body, limits in Chinese, a list documented only by its
schema, a refusal with no documented error body, ids of things the service does not manage."""

from __future__ import annotations

import ast

from pipeline.offline.facts import code_facts
from pipeline.offline.gen_fallback import fill_uncovered
from pipeline.offline.gen_model import build_model, free_references, token_field
from pipeline.offline.generate import generate_cases
from pipeline.offline.strength import shape_only, transitions
from pipeline.records import AuthSpec, Endpoint, Param, Spec
from pipeline.spec import extract_spec
from pipeline.suites import conftest_source

MOVIES = """# Movies API

## Tokens

To get a token we request
```
http http://h/api/v1/auth/token/ username="PERSON" password="PASS@123"
```
after that, we get the token
```
{"access": "eyJhbGci.eyJ1c2Vy.abc", "refresh": "eyJhbGci.eyJ4Ijp9.def"}
```

## Commands

| Description | HTTP Command |
|---|---|
| Get all movies | `http http://h/api/v1/movies/ "Authorization: Bearer {T}"` |
| Get a movie | `http GET http://h/api/v1/movies/{movie_id}/ "Authorization: Bearer {T}"` |
| Create | `http POST http://h/api/v1/movies/ "Authorization: Bearer T" title="Up" genre="D" year=9`
| Delete a movie | `http DELETE http://h/api/v1/movies/{movie_id}/ "Authorization: Bearer {T}"` |

## Filters

| Filter | HTTP Command |
|---|---|
| Genre filter | `http http://h/api/v1/movies/?genre="D" "Authorization: Bearer {T}"` |
"""


def _by_name(spec: Spec) -> dict[str, str]:
    return {c.name: c.code for c in generate_cases("t", spec)}


def test_httpie_document_gets_a_login_a_resource_and_a_filter_on_an_undocumented_list() -> None:
    spec = extract_spec(MOVIES)
    model = build_model(spec)
    assert token_field(model) == "access"  # the JWT of the access/refresh pair
    (res,) = model.resources  # "/movies/" and "/movies/{movie_id}/": one resource
    assert res.get is not None and res.delete is not None
    assert "TOKEN_FIELD = 'access'" in conftest_source(spec, 8000)
    cases = _by_name(spec)
    code = next(c for n, c in cases.items() if "filtered_by_genre" in n)
    ast.parse(code)
    # the list body is not documented: the records are the body's one list, checked by id
    assert 'params={"genre": wanted}' in code and "== [match_id]" in code
    assert not shape_only(code_facts(code))


ZH = """# 历史服务

#### 记录
- **接口**: `POST /api/history`
- **输入**:
```json
{"action": "string (必填, 类型: view|search|share)", "content_id": "string (可选)"}
```
- **输出**:
```json
{"id": "string", "action": "string", "content_id": "string"}
```

#### 列表
- **接口**: `GET /api/history`
- **查询参数**:
  - `page`: integer (默认1)
  - `limit`: integer (默认5, 最大50)
  - `action`: string (按类型筛选)
- **输出**:
```json
{"history": [{"id": "string", "action": "string"}],
 "pagination": {"page": "integer", "limit": "integer", "total": "integer"}}
```

#### 删除
- **接口**: `DELETE /api/history/{history_id}`
"""


def test_chinese_limits_and_create_values_give_the_query_cases() -> None:
    names = set(_by_name(extract_spec(ZH)))
    # "默认5, 最大50" read as default and maximum, as "default 5, max 50" would be
    assert "test_list_history_default_limit_is_5" in names
    assert "test_list_history_limit_above_50_is_capped_or_refused" in names
    # `?action=` documents no values; the create's "view|search|share" are its values
    assert any("enum_filter_action" in n for n in names)


def test_ids_of_things_no_path_manages_are_free_values() -> None:
    paths = {"/api/favorites", "/api/favorites/{favorite_id}", "/api/books"}
    assert free_references({"content_id": "c1", "book_id": "b1", "n": 1}, paths) == (
        "content_id",)


def _protected() -> Spec:
    body = {"type": "object", "properties": {"action": {}}, "required": ["action"]}
    return Spec(auth=AuthSpec(scheme="bearer", header="Authorization"), endpoints=[
        Endpoint(method="POST", path="/h", request_schema=body,
                 request_example={"action": "view"}, auth_required=True),
        Endpoint(method="GET", path="/h", auth_required=True),
        Endpoint(method="DELETE", path="/h", auth_required=True),
        Endpoint(method="DELETE", path="/h/{h_id}", auth_required=True,
                 params=[Param(name="h_id", location="path")]),
    ])


def test_no_token_cases_check_that_nothing_changed() -> None:
    cases = {c.name: c.code for c in fill_uncovered("h", _protected(), [], auth=True)}
    one = cases["test_delete_h_item_without_token"]
    # a record the test created, refused without a token, then deleted with it: a service
    # whose unauthenticated delete went through answers 404 to the control
    assert one.index("created = session.post") < one.index("response = session.delete") \
        < one.index("control = session.delete")
    assert "headers=auth_headers" in one.split("control =")[1]
    assert transitions(code_facts(one)) and not shape_only(code_facts(one))
    clear = cases["test_delete_h_without_token"]
    assert "created = session.post" in clear
    assert "assert listed_after.json() == listed_before.json()" in clear
    made = cases["test_post_h_without_token"]
    assert made.rstrip().endswith("assert control.status_code in (200, 201), control.text")


def test_no_token_case_without_a_login_stays_the_bare_refusal() -> None:
    cases = {c.name: c.code for c in fill_uncovered("h", _protected(), [], auth=False)}
    code = cases["test_delete_h_item_without_token"]
    assert "control" not in code and "auth_headers" not in code


FAVES = """# Favorites

- **Base Path**: `/api`
- **Authentication**: Bearer Token required

#### Add Favorite
- **API Name**: `POST /api/favorites`
- **Authentication**: Bearer Token required
- **Input Schema**:
```json
{"content_id": "string (Required)", "content_type": "string (Required, type: post|video)"}
```
- **Output Schema**:
```json
{"id": "string", "content_id": "string", "content_type": "string"}
```

#### List Favorites
- **API Name**: `GET /api/favorites`
- **Authentication**: Bearer Token required
- **Query Parameters**:
  - `limit`: integer (default 10, max 100)
  - `content_type`: string (filter by content type)
- **Output Schema**:
```json
{"favorites": [{"id": "string", "content_type": "string"}],
 "pagination": {"limit": "integer", "total": "integer"}}
```

#### Delete Favorite
- **API Name**: `DELETE /api/favorites/{favorite_id}`
- **Authentication**: Bearer Token required
"""


def test_delete_without_a_single_record_read_is_checked_through_the_list() -> None:
    spec = extract_spec(FAVES)
    (res,) = build_model(spec).resources
    assert res.free_refs == ("content_id",) and res.creatable  # no /contents: a free id
    cases = _by_name(spec)
    code = cases["test_deleted_favorite_leaves_the_favorites_list"]
    ast.parse(code)
    # two records, each with its own fresh content id, listed with the largest page size
    assert code.count('["content_id"] = unique("sample_content_id")') == 2
    assert 'params={"limit": 100}' in code
    delete = code.index("removed = session.delete")
    assert code.index("assert gone_id in") < delete < code.index("assert gone_id not in")
    assert "assert kept_id in" in code[delete:]
    # the create is covered by behaviour cases and still gets its no-token refusal
    refused = cases["test_post_favorites_without_token"]
    assert "control = session.post" in refused and "headers=auth_headers" in refused


def test_refused_update_reads_the_record_back_unchanged() -> None:
    spec = _protected()
    spec.endpoints += [
        Endpoint(method="GET", path="/h/{h_id}", auth_required=True,
                 params=[Param(name="h_id", location="path")]),
        Endpoint(method="PUT", path="/h/{h_id}", auth_required=True,
                 request_example={"action": "share"},
                 params=[Param(name="h_id", location="path")]),
    ]
    cases = {c.name: c.code for c in fill_uncovered("h", spec, [], auth=True)}
    code = cases["test_put_h_item_without_token"]
    assert code.index("response = session.put") < code.index("read = session.get")
    assert "assert read.json()['action'] == record['action']" in code
    assert not shape_only(code_facts(code))


def test_no_success_case_from_a_token_copied_from_the_document() -> None:
    spec = Spec(endpoints=[
        Endpoint(method="POST", path="/auth/refresh/", request_example={"refresh": "eyJa.eyJb.c"}),
        Endpoint(method="POST", path="/auth/register/",
                 request_example={"username": "PERSON123", "password": "x"}),
    ])
    cases = {c.name: c.code for c in fill_uncovered("a", spec, [], auth=False)}
    assert "test_post_auth_refresh_documented_success" not in cases  # never issued: 401
    assert "test_post_auth_refresh_malformed_json" in cases
    # a username from the document is made fresh per run (a second run would clash)
    assert "'username': unique('PERSON123')" in cases["test_post_auth_register_documented_success"]
