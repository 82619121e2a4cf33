"""Refining a shape-only error test adds the documented error code, and only that."""

from __future__ import annotations

from pipeline.offline.refine import refine_case
from pipeline.offline.refine_errors import code_path, documented_code
from pipeline.offline.strength import shape_only_code
from pipeline.records import Endpoint, Evidence, Review, RunResult, Scores, Spec, TestCase

SPEC = Spec(error_format={"error": {"code": "validation_error", "message": "Invalid"}},
            endpoints=[Endpoint(method="POST", path="/books", status_codes={
                201: "created", 409: "duplicate_isbn when the ISBN exists",
                422: "invalid_url, invalid_code or invalid_expiry"})])
CODE = '''def test_create_book_twice_returns_409(base_url, session):
    response = session.post(f"{base_url}/books", json={"isbn": "1"})
    assert response.status_code == 409, response.text
    assert {"error"} <= set(response.json())
'''
SHAPE = ("shape only: it asserts the error status and at most the error body's keys, not the "
         "documented error code")


def _refine(code: str, spec: Spec = SPEC, text: str = SHAPE) -> TestCase:
    case = TestCase(case_id="t::a", task_id="t", round=0, category="error_handling",
                    name="test_create_book_twice_returns_409", code=code,
                    endpoints=["POST /books"])
    review = Review(case_id="t::a", round=0, reviewer="offline:static", rationale=text,
                    scores=Scores(correctness=1, coverage=1, readability=2, relevance=2),
                    rubric_hash="h")
    ev = Evidence(case_id="t::a", round=0, runs=[RunResult(outcome="passed")] * 2)
    return refine_case(case, ev, [review], spec)


def test_documented_code_and_where_it_sits():
    ep = SPEC.endpoints[0]
    assert documented_code(ep, 409) == "duplicate_isbn"
    assert documented_code(ep, 422) is None  # three codes: which one is not known
    assert documented_code(ep, 404) is None
    assert code_path(SPEC.error_format) == ["error", "code"]
    assert code_path({"error": "file_not_found", "message": "x"}) == ["error"]
    assert code_path({"detail": "Not found"}) is None


def test_shape_only_error_test_gains_the_code_and_stops_being_shape_only():
    refined = _refine(CODE)
    assert refined.round == 1
    assert 'assert response.json()["error"]["code"] == "duplicate_isbn"' in refined.code
    assert shape_only_code(CODE) and not shape_only_code(refined.code)
    assert refined.rebuttal[0].changed == "added an assertion on the documented error code"


def test_nothing_added_without_a_documented_code_or_the_review_asking():
    no_format = SPEC.model_copy(update={"error_format": {"detail": "text"}})
    assert _refine(CODE, no_format).round == 0  # unchanged: nothing to add
    assert _refine(CODE, text="fine").round == 0
    done = CODE + '    assert response.json()["error"]["code"] == "duplicate_isbn"\n'
    assert _refine(done).round == 0
