"""Bodies given in a later section under the endpoint's interface name (fixtures of our own).

`named_interface_sections` (English) and `zh_named_interface_sections` (Chinese): an overview
list (`- Interface Name: SignIn` / `- Method and Path: POST /login`), then `SignIn Input
Schema` / `SignIn Output Schema` above JSON Schema fences, then `ReserveLocker` above an
`http` request block with a concrete id and the JSON reply.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

from pipeline.records import Endpoint, Spec
from pipeline.spec import load_spec
from pipeline.spec.named_sections import example_instances

FIXTURES = Path(__file__).parent / "fixtures"
RESERVE = ("POST", "/lockers/{locker_id}/reservations")


@cache
def spec(name: str) -> Spec:
    return load_spec(FIXTURES / f"{name}.md")


def ep(name: str, key: tuple[str, str]) -> Endpoint:
    found = {e.key: e for e in spec(name).endpoints}
    assert key in found, sorted(found)
    return found[key]


@pytest.mark.parametrize("doc", ["named_interface_sections", "zh_named_interface_sections"])
def test_schemas_labelled_with_the_interface_name_reach_its_endpoint(doc: str) -> None:
    health = ep(doc, ("GET", "/health"))
    assert health.response_schema["properties"]["status"]["enum"] == ["up"]
    login = ep(doc, ("POST", "/login"))
    assert login.request_schema["required"] == ["login", "secret"]
    assert login.request_schema["properties"]["secret"]["minLength"] == 6
    assert login.response_schema["required"] == ["token"]
    assert health.request_schema is None  # an output schema is not a request


@pytest.mark.parametrize("doc", ["named_interface_sections", "zh_named_interface_sections"])
def test_http_example_under_the_name_is_the_endpoints_example(doc: str) -> None:
    e = ep(doc, RESERVE)
    assert e.request_example == {"hours": 2}
    assert e.response_example == {"reservation_id": "r-1", "until": "2030-01-01T02:00:00Z"}
    # the concrete call is no endpoint of its own
    assert all("L-17" not in x.path for x in spec(doc).endpoints)


@pytest.mark.parametrize("doc", ["named_interface_sections", "zh_named_interface_sections"])
def test_auth_rules_of_the_overview(doc: str) -> None:
    assert ep(doc, RESERVE).auth_required is True
    assert ep(doc, ("GET", "/health")).auth_required is False
    assert ep(doc, ("POST", "/login")).auth_required is False


def test_field_items_after_the_path_item_belong_to_the_endpoint() -> None:
    e = ep("named_interface_sections", ("GET", "/lockers/{locker_id}/reservations"))
    limit = next(p for p in e.params if p.name == "limit" and p.location == "query")
    assert limit.constraints == {"default": 10, "maximum": 50}
    assert limit.type == "integer" and limit.required is False
    assert e.response_example == {"items": [{"reservation_id": "r-1"}], "next": None}


def test_schema_with_a_regex_backslash_still_parses() -> None:
    login = ep("named_interface_sections", ("POST", "/login"))
    assert login.response_schema["properties"]["token"]["pattern"] == "^tk\\$[0-9]+$"


def test_example_instances_need_a_value_segment_and_a_template() -> None:
    keys = [("GET", "/notes/{id}"), ("GET", "/notes/search"), ("GET", "/notes/n:1")]
    code_only = {("GET", "/notes/search"), ("GET", "/notes/n:1"), ("GET", "/notes/{id}")}
    assert example_instances(keys, code_only) == {("GET", "/notes/n:1")}
    assert example_instances([("GET", "/notes/n:1")], {("GET", "/notes/n:1")}) == set()
