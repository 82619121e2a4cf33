"""Documented list query parameters become behaviour tests (pipeline/offline/gen_query.py).

The fixture README documents its list only by an output schema and its query parameters by
default, maximum and enum, and no status codes: the generator must still check filters,
pages, the cap and the default size against records the test created.
"""

from __future__ import annotations

import ast

from pipeline.offline.gen_query import enum_values, total_path
from pipeline.offline.generate import generate_cases
from pipeline.offline.schema_values import skeleton
from pipeline.records import Param
from pipeline.spec import extract_spec

README = """# Ticket Service

- **Base Path**: `/api`

#### 1. Create Ticket
- **API Name**: `POST /api/tickets`
- **Input Schema**:
```json
{"title": "string (required, max 80 chars)",
 "severity": "string (required, enum: ['minor', 'major'])"}
```
- **Output Schema**:
```json
{"id": "integer", "title": "string", "severity": "string", "state": "string"}
```

#### 2. List Tickets
- **API Name**: `GET /api/tickets`
- **Query Parameters**:
  - `page`: integer (optional, default: 1)
  - `size`: integer (optional, default: 5, max: 50)
  - `severity`: string (optional, enum: ['minor', 'major'])
- **Output Schema**:
```json
{"items": [{"id": "integer", "title": "string", "severity": "string", "state": "string"}],
 "meta": {"page": "integer", "size": "integer", "total": "integer"}}
```

#### 3. Get Ticket
- **API Name**: `GET /api/tickets/{ticket_id}`
- **Output Schema**:
```json
{"id": "integer", "title": "string", "severity": "string", "state": "string"}
```

#### 4. Delete Ticket
- **API Name**: `DELETE /api/tickets/{ticket_id}`
"""


def _cases() -> dict[str, str]:
    return {c.name: c.code for c in generate_cases("tickets", extract_spec(README))}


def _one(cases: dict[str, str], part: str) -> str:
    found = [code for name, code in cases.items() if part in name]
    assert len(found) == 1, sorted(cases)
    ast.parse(found[0])
    return found[0]


def test_enum_values_read_bracketed_lists() -> None:
    param = Param(name="s", location="query", description="string (enum: ['a', 'b_c', 'd'])")
    assert enum_values(param) == ["a", "b_c", "d"]
    assert enum_values(Param(name="s", location="query", description="string")) == []


def test_total_found_one_object_down_in_a_schema_skeleton() -> None:
    schema = {"type": "object", "properties": {
        "rows": {"type": "array", "items": {"type": "object", "properties": {}}},
        "paging": {"type": "object", "properties": {"total": {"type": "integer"}}}}}
    assert total_path(skeleton(schema)) == 'body["paging"]["total"]'


def test_enum_filter_lists_created_record_under_its_value_only() -> None:
    code = _one(_cases(), "enum_filter_severity")
    assert 'params={"severity": "minor", "size": 50}' in code
    assert 'assert rec_id in [record["id"] for record in matching_body["items"]]' in code
    assert 'assert rec_id not in [record["id"] for record in others_body["items"]]' in code
    assert '{record["severity"] for record in matching_body["items"]} == {"minor"}' in code


def test_paging_checks_sizes_pages_total_and_cap() -> None:
    code = _one(_cases(), "size_and_page_split")
    assert 'params={"size": 1, "page": 2}' in code
    assert 'assert len(first_body["items"]) == 1 and len(second_body["items"]) == 1' in code
    assert 'assert first_body["meta"]["total"] >= 2' in code
    assert 'params={"size": 51}' in code and 'len(over.json()["items"]) <= 50' in code


def test_documented_default_size_is_checked_with_more_records() -> None:
    code = _one(_cases(), "default_size_is_5")
    assert "for _ in range(6):" in code
    assert 'assert len(listed_body["items"]) == 5' in code


def test_no_query_cases_without_documented_params() -> None:
    bare = README.split("- **Query Parameters**")[0] + README.split("max: 50)")[1].split(
        "\n", 2)[2]
    names = [c.name for c in generate_cases("tickets", extract_spec(bare))]
    assert not [n for n in names if "enum_filter" in n or "split_the_list" in n]


def test_schema_rules_refused_with_a_4xx_and_nothing_stored() -> None:
    cases = _cases()
    missing = _one(cases, "create_ticket_without_title_is_refused")
    assert 'del sent["title"]' in missing
    assert "assert 400 <= response.status_code < 500, response.text" in missing
    assert ('assert count_after.json()["meta"]["total"] == '
            'count_before.json()["meta"]["total"]') in missing
    assert 'sent["title"] = "x" * 81' in _one(cases, "title_over_80_chars_is_refused")
    assert 'sent["severity"] = "not_"' in _one(cases, "unlisted_severity_is_refused")


def test_deleted_record_reads_back_404() -> None:
    code = _one(_cases(), "then_read_and_delete_again_return_404")
    assert "assert read.status_code == 404, read.text" in code
    assert "assert again.status_code == 404, again.text" in code


def test_documented_validation_code_leaves_the_4xx_range_alone() -> None:
    documented = README.replace("- **Output Schema**", "- **Status Codes**:\n  - 422: validation "
                                "failed (missing field)\n- **Output Schema**", 1)
    names = [c.name for c in generate_cases("tickets", extract_spec(documented))]
    assert "test_create_ticket_without_title_returns_422" in names
    assert not [n for n in names if n.endswith("_is_refused_with_4xx")]


def test_size_above_the_documented_max_is_capped_or_refused() -> None:
    code = _one(_cases(), "size_above_50_is_capped_or_refused")
    assert 'params={"size": 51}' in code
    assert 'assert over.json()["meta"]["size"] <= 50' in code
    assert "assert 400 <= over.status_code < 500, over.text" in code
