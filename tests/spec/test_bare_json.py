"""JSON bodies written without a fence or backticks after a label at a line's start: an
indented list of endpoints with "Payload: {" and "Response: [" spread over the next lines."""

from __future__ import annotations

from pathlib import Path

from pipeline.spec import load_spec
from pipeline.spec.inline import bare_json_spans

README = """# Parcels

## Endpoints

1. Send parcel
    - POST /parcels/
    - Payload: {
                    "to": "Oslo",
                    "weight_kg": 2.5
                }

2. Parcels in transit
    - GET /parcels/
    - Response: [
                    {"id": 7, "to": "Oslo", "weight_kg": 2.5}
                ]

3. One parcel
    - GET /parcels/{parcel_id}
    - Path: {parcel_id} is the parcel's number
"""


def test_labelled_bodies_become_the_endpoints_examples(tmp_path: Path) -> None:
    path = tmp_path / "README.md"
    path.write_text(README)
    found = {e.key: e for e in load_spec(path).endpoints}
    assert found[("POST", "/parcels/")].request_example == {"to": "Oslo", "weight_kg": 2.5}
    assert found[("GET", "/parcels/")].response_example == [
        {"id": 7, "to": "Oslo", "weight_kg": 2.5}]
    one = found[("GET", "/parcels/{parcel_id}")]
    assert one.request_example is None and one.response_example is None


def test_only_whole_objects_after_a_label_at_a_line_start_count() -> None:
    assert bare_json_spans('Body: {"a": 1}\nthen {"b": 2}') == [("Body", {"a": 1})]
    assert bare_json_spans("Path: {id}") == []  # a placeholder, not a body
    assert bare_json_spans("Ids: [1, 2]") == []  # not an object or list of objects
    assert bare_json_spans('Example: {"a": [1, {"b": 2}]} trailing') == [
        ("Example", {"a": [1, {"b": 2}]})]


def test_a_comma_left_out_at_a_line_end_is_read() -> None:
    from pipeline.spec.schema import parse_json

    assert parse_json('{\n  "success": true\n  "created_user_id": 4\n}') == {
        "success": True, "created_user_id": 4}
    assert parse_json('{"a": 1 "b": 2}') == '{"a": 1 "b": 2}'  # not a line end: left as text
