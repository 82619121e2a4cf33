"""Details from the common README styles of published benchmark tasks (fixtures of our own).

- `schema_bullets_toplevel_fence`: a heading per endpoint, `- **API Name**: `POST /x``,
  `- **Input Schema**:` / `- **Output Schema**:` bullets each followed by a fence at the top
  level (outside the list), `- **Query Parameters**:` with nested bullets;
- `zh_schema_bullets_toplevel_fence`: the same style in Chinese (full-width punctuation);
- `endpoint_label_subheadings`: `**Endpoint**: `POST /items`` paragraphs with the bodies
  under `##### Request Body` / `##### Response` sub-headings.
Body values are type descriptions ("string (required, 3-80 characters)"), read as schemas.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from pipeline.records import Endpoint, Param, Spec
from pipeline.spec import extract_spec, load_spec
from pipeline.spec.typedesc import body_schema, describe, example_of, is_described_body

FIXTURES = Path(__file__).parent / "fixtures"


@cache
def spec(name: str) -> Spec:
    return load_spec(FIXTURES / f"{name}.md")


def ep(name: str, method: str, path: str) -> Endpoint:
    found = {e.key: e for e in spec(name).endpoints}
    assert (method, path) in found, sorted(found)
    return found[(method, path)]


def param(e: Endpoint, name: str, location: str) -> Param:
    hits = [p for p in e.params if p.name == name and p.location == location]
    assert hits, f"{location} {name} missing: {e.params}"
    return hits[0]


EN = "schema_bullets_toplevel_fence"
ZH = "zh_schema_bullets_toplevel_fence"
SUB = "endpoint_label_subheadings"


def test_top_level_fences_belong_to_the_bullet_endpoint_above() -> None:
    e = ep(EN, "POST", "/api/v1/recipes")
    assert e.request_schema is not None
    assert e.request_schema["required"] == ["title", "difficulty"]
    assert e.request_schema["properties"]["title"] == {
        "type": "string", "minLength": 3, "maxLength": 80}
    # type descriptions are not values a client may send: the example keeps the rules
    assert e.request_example == {"title": "sample_title", "difficulty": "easy"}
    assert set(e.response_schema["properties"]) == {  # type: ignore[index]
        "id", "title", "servings", "difficulty", "created_at"}
    assert e.response_schema["properties"]["created_at"]["format"] == "date-time"  # type: ignore[index]
    assert e.status_codes == {201: "Recipe stored", 401: "Missing or invalid token",
                              422: "Field validation failed"}
    assert e.auth_required is True
    # the next endpoint's fences are not this one's
    assert "items" not in e.response_schema["properties"]  # type: ignore[index]


def test_body_params_carry_type_required_and_limits() -> None:
    e = ep(EN, "POST", "/api/v1/recipes")
    servings = param(e, "servings", "body")
    assert (servings.type, servings.required) == ("integer", False)
    assert servings.constraints == {"default": 2, "minimum": 1, "maximum": 12}
    assert param(e, "difficulty", "body").constraints["enum"] == ["easy", "medium", "hard"]
    stars = param(ep(EN, "POST", "/api/v1/recipes/{recipe_id}/ratings"), "stars", "body")
    assert (stars.required, stars.constraints) == (True, {"minimum": 1, "maximum": 5})


def test_nested_query_bullets_give_defaults_limits_and_allowed_values() -> None:
    e = ep(EN, "GET", "/api/v1/recipes")
    page = param(e, "page", "query")
    assert page.type == "integer" and page.constraints == {"default": 1, "minimum": 1}
    size = param(e, "size", "query")
    assert (size.required, size.constraints) == (False, {"default": 20, "maximum": 50})
    assert param(e, "difficulty", "query").constraints == {"enum": ["easy", "medium", "hard"]}
    assert e.auth_required is False  # "Authentication: Optional"
    assert e.response_schema["properties"]["items"]["type"] == "array"  # type: ignore[index]


def test_error_body_and_rate_limit_are_attributed_to_their_endpoint() -> None:
    show = ep(EN, "GET", "/api/v1/recipes/{recipe_id}")
    assert show.response_examples[404] == {"error": "recipe_not_found", "message": "string"}
    assert param(show, "recipe_id", "path").type == "integer"
    assert 404 not in ep(EN, "DELETE", "/api/v1/recipes/{recipe_id}").response_examples
    rate = ep(EN, "POST", "/api/v1/recipes/{recipe_id}/ratings")
    assert rate.rate_limit == "10 requests per minute per user"
    assert ep(EN, "POST", "/api/v1/recipes").rate_limit == ""


def test_chinese_style_reads_the_same_details() -> None:
    listing = ep(ZH, "GET", "/api/v1/spots")
    assert listing.auth_required is False
    assert param(listing, "size", "query").constraints == {"default": 10, "maximum": 50}
    assert param(listing, "zone", "query").constraints == {"enum": ["A", "B", "C"]}
    assert listing.response_schema["properties"]["total"] == {"type": "integer"}  # type: ignore[index]
    book = ep(ZH, "POST", "/api/v1/bookings")
    assert book.request_schema["required"] == ["spot_id", "plate"]  # type: ignore[index]
    assert param(book, "plate", "body").constraints == {"minLength": 5, "maxLength": 10}
    assert book.request_example == {"spot_id": 1, "plate": "sample_pla"}  # 10 chars at most
    assert book.status_codes == {201: "预约成功", 409: "车位已被占用", 422: "参数校验失败"}
    assert book.auth_required is True
    cancel = ep(ZH, "DELETE", "/api/v1/bookings/{booking_id}")
    assert cancel.response_examples[404]["error"] == "booking_not_found"
    assert param(cancel, "booking_id", "path").type == "string"
    assert spec(ZH).port == 8095 and spec(ZH).base_path == "/api/v1"


def test_sub_heading_bodies_and_unlabelled_get_bullets() -> None:
    reg = ep(SUB, "POST", "/v2/items")
    assert reg.request_schema["properties"]["sku"]["maxLength"] == 12  # type: ignore[index]
    assert reg.response_example == {"sku": "ABC-1001", "name": "Bolt M6", "quantity": 0}
    assert reg.response_examples[409] == {"error": "duplicate_sku"}
    assert set(reg.status_codes) >= {400, 409}
    adjust = ep(SUB, "PATCH", "/v2/items/{sku}/stock")
    assert param(adjust, "reason", "query").constraints == {
        "enum": ["sale", "return", "correction"], "default": "correction"}
    assert param(adjust, "delta", "body").constraints == {"minimum": -1000, "maximum": 1000}
    assert 404 in adjust.status_codes
    report = ep(SUB, "GET", "/v2/items")
    assert param(report, "limit", "query").constraints == {
        "default": 25, "minimum": 1, "maximum": 100}
    assert param(report, "low", "query").required is False


def test_describe_reads_common_wordings() -> None:
    assert describe("string (required, min 3, max 50 chars, alphanumeric)") == {
        "type": "string", "required": True, "minLength": 3, "maxLength": 50}
    assert describe("string (optional, draft|published, default draft)") == {
        "type": "string", "required": False, "enum": ["draft", "published"],
        "default": "draft"}
    assert describe("array of strings (optional)") == {
        "type": "array", "items": {"type": "string"}, "required": False}
    assert describe("字符串（必填，3-20个字符）") == {
        "type": "string", "required": True, "minLength": 3, "maxLength": 20}
    assert describe("string (optional, ISO 8601 format)")["format"] == "date-time"


def test_example_bodies_are_not_mistaken_for_descriptions() -> None:
    assert not is_described_body({"title": "Dune", "year": 1965})
    assert not is_described_body({"name": "Bolt M6", "quantity": 3})
    assert is_described_body({"id": "integer", "name": "string", "note": "x"})
    schema = body_schema([{"id": "integer", "tags": "array of strings"}])
    assert schema == {"type": "array", "items": {"type": "object", "properties": {
        "id": {"type": "integer"}, "tags": {"type": "array", "items": {"type": "string"}}}}}


def test_example_of_keeps_the_stated_rules() -> None:
    schema = body_schema({"email": "string (required, valid email format)",
                          "code": "string (required, 12-16 characters)",
                          "level": "integer (optional, 1-5)",
                          "size": "integer (min 3, max 9)",
                          "kind": "string (enum: ['a', 'b'])"})
    assert example_of(schema) == {"email": "user@example.com", "code": "sample_codex",
                                  "size": 3, "kind": "a"}


def test_same_as_copies_the_named_endpoints_bodies() -> None:
    add, put = ep(EN, "POST", "/api/v1/recipes"), ep(EN, "PUT", "/api/v1/recipes/{recipe_id}")
    assert put.request_schema == add.request_schema and put.request_example == add.request_example
    assert put.response_schema == add.response_schema
    assert param(put, "servings", "body").constraints == {"default": 2, "minimum": 1,
                                                          "maximum": 12}
    assert put.request_schema is not add.request_schema  # copies, not shared


def test_fences_nested_in_list_items_and_chinese_sub_headings() -> None:
    name = "nested_fence_zh_subheadings"
    create = ep(name, "POST", "/notes")
    assert create.request_schema["properties"]["text"]["maxLength"] == 500  # type: ignore[index]
    assert create.response_schema["properties"]["id"] == {"type": "integer"}  # type: ignore[index]
    assert create.status_codes == {422: "text missing or too long"}
    delete = ep(name, "DELETE", "/notes/{id}")
    assert delete.auth_required is True
    assert delete.response_example == {"deleted": True}
    assert delete.response_examples[404] == {"error": "not_found"}


def test_all_uris_relative_to_a_url_give_the_base_path() -> None:
    """OpenAPI Generator's README says "All URIs are relative to *https://host/api*"."""
    readme = ("# Recipes\n\nAll URIs are relative to *https://example.herokuapp.com/api*\n\n"
              "| Method | Endpoint | Description |\n|---|---|---|\n"
              "| **POST** | /users | Sign up a user |\n")
    spec = extract_spec(readme)
    assert spec.base_path == "/api"
    assert [(e.method, e.path) for e in spec.endpoints] == [("POST", "/api/users")]
