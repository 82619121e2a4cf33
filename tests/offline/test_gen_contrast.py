"""Contrast: a refused call is followed by the corrected call, checked by value, so the test
is no longer shape-only; without a documented value to check, the refusal stays as it was."""

from __future__ import annotations

from pipeline.offline import gen_fallback_calls as fc
from pipeline.offline.gen_fallback_auth import without_token_lines
from pipeline.offline.gen_fallback_contrast import malformed_then_valid
from pipeline.offline.generate import generate_cases
from pipeline.offline.strength import shape_only_code
from pipeline.records import AuthSpec, Endpoint, Spec, TestCase
from pipeline.spec import extract_spec

TICKETS = """# Tickets service

#### Create ticket
- **API Name**: `POST /api/v1/tickets`
- **Input Schema**:
```json
{"subject": "string (required, 1-40 chars)", "priority": "integer (required, 1-5)"}
```
- **Output Schema**:
```json
{"ticket_id": "string", "subject": "string", "priority": "integer",
 "state": "string (enum: ['open'])"}
```
- **Error Codes**: 422 - validation error

#### Get ticket
- **API Name**: `GET /api/v1/tickets/{ticket_id}`
- **Output Schema**:
```json
{"ticket_id": "string", "subject": "string", "priority": "integer",
 "state": "string (enum: ['open', 'closed'])"}
```
- **Error Codes**: 404 - ticket not found

#### Close ticket
- **API Name**: `POST /api/v1/tickets/{ticket_id}/close`
- **Output Schema**:
```json
{"ticket_id": "string", "state": "string (enum: ['closed'])"}
```
- **Error Codes**: 404 - ticket not found
"""

# the same create, but nothing is documented about its answer and no record can be read
BARE = """# Tickets service

#### Create ticket
- **API Name**: `POST /api/v1/tickets`
- **Input Schema**:
```json
{"subject": "string (required, 1-40 chars)", "priority": "integer (required, 1-5)"}
```
- **Error Codes**: 422 - validation error
"""


def _cases(doc: str) -> dict[str, TestCase]:
    return {c.name: c for c in generate_cases("t", extract_spec(doc))}


def test_a_refused_create_is_followed_by_the_valid_create_checked_by_value() -> None:
    cases = _cases(TICKETS)
    refused = [c for n, c in cases.items() if n.startswith("test_create_ticket_")
               and n.endswith("_returns_422")]
    assert len(refused) >= 4, sorted(cases)
    for case in refused:
        code = case.code
        assert "accepted = session.post(" in code, code
        # the refusal first, then the corrected call
        assert code.index("assert response.status_code == 422") < code.index("accepted =")
        assert 'assert accepted_record["subject"] == valid["subject"]' in code
        assert 'assert accepted_record["state"] == "open"' in code  # a documented constant
        assert 'fetched.json()["subject"] == accepted_record["subject"]' in code  # read back
        assert shape_only_code(code, case.name) is False, code


def test_the_limits_themselves_are_accepted() -> None:
    cases = _cases(TICKETS)
    too_long = cases["test_create_ticket_with_subject_over_40_chars_returns_422"].code
    assert 'sent["subject"] = "x" * 41' in too_long
    assert 'valid["subject"] = unique("x" * 40)' in too_long  # exactly the maximum
    above = cases["test_create_ticket_with_priority_above_range_returns_422"].code
    assert 'valid["priority"] = 5' in above
    below = cases["test_create_ticket_with_priority_below_range_returns_422"].code
    assert 'valid["priority"] = 1' in below


def test_an_unknown_id_is_followed_by_the_same_action_on_a_created_record() -> None:
    case = _cases(TICKETS)["test_post_ticket_close_unknown_id_returns_404"]
    code = case.code
    assert code.index("known = session.post(") < code.index("unknown_ticket_id = ")
    assert code.index("assert response.status_code == 404") < code.index("done = session.post(")
    assert 'done = session.post(f"{base_url}/api/v1/tickets/{ticket_ticket_id}/close")' in code
    assert 'assert answer["ticket_id"] == ticket_ticket_id' in code
    assert 'assert answer["state"] == "closed"' in code
    assert shape_only_code(code, case.name) is False, code


def test_without_a_documented_answer_the_refusal_stays_as_it_was() -> None:
    cases = _cases(BARE)
    refused = [c for n, c in cases.items() if n.endswith("_returns_422")]
    assert refused, sorted(cases)
    for case in refused:
        assert "accepted" not in case.code and "valid" not in case.code, case.code
        last = case.code.rstrip().splitlines()[-1].strip()
        assert last == "assert response.status_code == 422, response.text", case.code


def _spec() -> Spec:
    jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl"
    return Spec(auth=AuthSpec(scheme="bearer", header="Authorization",
                              login_path="/auth/token"),
                endpoints=[
        Endpoint(method="POST", path="/auth/register",
                 request_example={"username": "alice", "password": "s3cret!"}),
        Endpoint(method="POST", path="/auth/token",
                 request_example={"username": "alice", "password": "s3cret!"},
                 response_example={"access": jwt, "refresh": jwt}),
        Endpoint(method="POST", path="/auth/refresh", request_example={"refresh": jwt},
                 response_example={"access": jwt}),
        Endpoint(method="GET", path="/notes", auth_required=True),
        Endpoint(method="POST", path="/notes", auth_required=True,
                 request_example={"title": "groceries", "pinned": True},
                 response_example={"id": 1, "title": "groceries", "pinned": True}),
        Endpoint(method="POST", path="/feedback", request_example={"text": "hello"}),
    ])


def test_a_malformed_account_call_is_followed_by_a_token_that_opens_a_protected_endpoint() -> None:
    spec = _spec()
    by_path = {e.path: e for e in spec.endpoints if e.method == "POST"}
    for path in ("/auth/register", "/auth/token", "/auth/refresh"):
        lines = malformed_then_valid(spec, by_path[path])
        assert lines is not None, path
        code = fc.function_source("test_x", "doc", lines)
        assert code.index("data='{not json'") < code.index("refused = session.get(") \
            < code.index("registered = session.post(") < code.index("allowed = session.get(")
        assert 'headers={"Authorization": f"Bearer {token}"}' in code
        assert ("refreshed = session.post(" in code) == (path == "/auth/refresh")
        assert shape_only_code(code, "test_x") is False, code
    assert malformed_then_valid(spec, by_path["/feedback"]) is None  # not an account call


def test_a_create_refused_without_token_is_sent_again_with_it_and_echoes_the_body() -> None:
    spec = _spec()
    create = next(e for e in spec.endpoints if (e.method, e.path) == ("POST", "/notes"))
    refused, control = without_token_lines(spec, create, auth=True)
    code = fc.function_source("test_y", "doc", refused + control)
    assert "response = session.post(f\"{base_url}/notes\", json=sent)" in code
    assert "control = session.post(f\"{base_url}/notes\", json=sent, headers=auth_headers)" \
        in code
    assert "assert control.json()['title'] == sent['title'], control.text" in code
    assert shape_only_code(code, "test_y") is False, code
