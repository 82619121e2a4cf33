"""An envelope flag every answer carries (`"success": true`) is checked by its value: a
service that answers `"success": false` on a success, or drops the flag, fails. A record's
own flag is not fixed to the document's example."""

from __future__ import annotations

from pipeline.offline.endpoint_docs import envelope_constants
from pipeline.offline.generate import generate_cases
from pipeline.records import Endpoint
from pipeline.spec import extract_spec

README = """\
# Chores

## GET /chores

Response `200`: `{"success": true, "chores": [{"id": 1, "title": "Dishes", "done": false}]}`

## POST /chores

Request: `{"title": "Dishes"}`.
Response `201`: `{"success": true, "chore": {"id": 1, "title": "Dishes", "done": false}}`

## GET /rooms

Response `200`: `{"success": true, "rooms": ["kitchen"]}`
"""


def _ep(path: str, body: dict, status: int = 200) -> Endpoint:
    return Endpoint(method="GET", path=path, status_codes={status: ""},
                    response_examples={status: body})


def test_a_flag_every_answer_shows_or_that_flips_on_errors_is_the_envelopes() -> None:
    everywhere = [_ep("/a", {"ok": True, "done": False}), _ep("/a/{id}", {"ok": True}),
                  _ep("/b", {"ok": True, "done": False})]
    assert envelope_constants(everywhere) == {"ok": True}
    # shown by two collections only, but the error body flips it
    flipped = [_ep("/a", {"success": True, "n": 1}), _ep("/b", {"success": True}),
               _ep("/c", {"n": 2})]
    assert envelope_constants(flipped) == {}
    assert envelope_constants(flipped, {"success": False, "message": "x"}) == {"success": True}
    # a record's flag differs between answers, or does not flip
    records = [_ep("/t", {"done": True}), _ep("/t/{id}", {"done": False}), _ep("/u", {"x": 1})]
    assert envelope_constants(records, {"done": True}) == {}


def test_the_generated_suite_checks_the_flag_by_value() -> None:
    cases = generate_cases("chores", extract_spec(README))
    code = "\n".join(c.code for c in cases)
    assert '["success"] is True' in code, code
    assert 'isinstance(body["success"], bool)' not in code
    assert '["done"] is' not in code
