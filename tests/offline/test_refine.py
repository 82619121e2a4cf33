"""Unit tests of the offline refiner: repairs what the evidence names, never asserts nothing."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from pipeline.offline.generate import generate_cases
from pipeline.offline.refine import refine_case, response_assertions
from pipeline.records import (
    AlternativeRun,
    Endpoint,
    Evidence,
    Review,
    RunResult,
    Spec,
    TestCase,
)
from pipeline.spec import load_spec

ROOT = Path(__file__).resolve().parents[2]
TASKS = sorted(p for p in (ROOT / "data" / "raw").iterdir() if (p / "task.toml").is_file())

SPEC = Spec(endpoints=[
    Endpoint(method="POST", path="/items", status_codes={200: "ok", 201: "created"},
             request_example={"name": "Widget"}),
    Endpoint(method="GET", path="/items/{id}", status_codes={200: "OK", 404: "unknown"},
             response_example={"id": 1, "name": "Widget", "size": 3}),
])

CODE = '''def test_create_item_returns_201(base_url, session, unique):
    payload = {"name": unique("Widget")}
    response = session.post(f"{base_url}/items", json=payload)
    assert response.status_code == 201, response.text
    item = response.json()
    assert {"id", "name", "colour"} <= set(item)
    assert item["name"] == payload["name"]
'''

GET_CODE = '''def test_get_item_returns_200(base_url, session):
    response = session.get(f"{base_url}/items/1")
    assert response.status_code == 200, response.text
'''


def _case(code: str = CODE, name: str = "test_create_item_returns_201") -> TestCase:
    return TestCase(case_id=f"t::{name}", task_id="t", round=0, category="api_compliance",
                    name=name, code=code, endpoints=["POST /items"])


def _evidence(output: str) -> Evidence:
    return Evidence(case_id="t::x", round=0, runs=[RunResult(outcome="failed", output=output)])


def _failure(line: str, *errors: str) -> str:
    return "\n".join(["    def test_x():", f">       {line.strip()}",
                      *[f"E       {e}" for e in errors], "", "test_generated.py:9: Error"])


def _review(text: str) -> Review:
    return Review(case_id="t::x", round=0, reviewer="offline:static", scores=None,
                  rationale=text, rubric_hash="h")


def test_refine_repairs_status_to_documented_actual() -> None:
    out = _failure("assert response.status_code == 201, response.text",
                   "AssertionError: {}", "assert 200 == 201")
    refined = refine_case(_case(), _evidence(out), [], SPEC)
    assert refined.round == 1 and refined.origin == "refined" and refined.author == "offline"
    assert "assert response.status_code == 200, response.text" in refined.code
    assert "== 201" not in refined.code
    assert refined.case_id == _case().case_id and refined.name == _case().name


def test_refine_keeps_a_documented_error_status_beside_the_one_the_oracle_gave() -> None:
    spec = Spec(endpoints=[Endpoint(
        method="PATCH", path="/items/{id}",
        status_codes={200: "OK", 404: "does not exist", 422: "update of a deleted item"})])
    code = ('def test_patch_item_unknown_id_returns_404(base_url, session):\n'
            '    response = session.patch(f"{base_url}/items/999", json={"a": 1})\n'
            '    assert response.status_code == 404, response.text\n')
    case = _case(code, "test_patch_item_unknown_id_returns_404")
    out = _failure("assert response.status_code == 404, response.text", "assert 422 == 404")
    refined = refine_case(case, _evidence(out), [], spec)
    assert "assert response.status_code in (404, 422), response.text" in refined.code
    undocumented = Spec(endpoints=[Endpoint(method="PATCH", path="/items/{id}",
                                            status_codes={200: "OK", 422: "deleted"})])
    again = refine_case(case, _evidence(out), [], undocumented)  # 404 was a guess: 422 alone
    assert "assert response.status_code == 422, response.text" in again.code


def test_refine_drops_undocumented_status_but_keeps_other_assertions() -> None:
    out = _failure("assert response.status_code == 201, response.text", "assert 500 == 201")
    refined = refine_case(_case(), _evidence(out), [], SPEC)
    assert "status_code" not in refined.code
    assert 'assert item["name"] == payload["name"]' in refined.code
    assert response_assertions(refined.code) >= 1


def test_refine_never_leaves_a_case_without_assertions() -> None:
    case = _case(GET_CODE, "test_get_item_returns_200")
    out = _failure("assert response.status_code == 200, response.text", "assert 503 == 200")
    assert refine_case(case, _evidence(out), [], SPEC) is case  # unchanged: routing decides


def test_refine_drops_a_wrong_field() -> None:
    out = _failure('assert {"id", "name", "colour"} <= set(item)',
                   "AssertionError: assert {'colour', 'id', 'name'} <= {'id', 'name'}", "",
                   "Extra items in the left set:", "'colour'")
    refined = refine_case(_case(), _evidence(out), [], SPEC)
    assert 'assert {"id", "name"} <= set(item)' in refined.code
    assert "status_code == 201" in refined.code


def test_refine_drops_a_field_check_on_key_error() -> None:
    out = _failure('assert item["name"] == payload["name"]', "KeyError: 'name'")
    refined = refine_case(_case(), _evidence(out), [], SPEC)
    assert 'item["name"]' not in refined.code
    assert "status_code == 201" in refined.code


def test_refine_leaves_unrepairable_setup_failures() -> None:
    out = _failure("item = response.json()", "json.decoder.JSONDecodeError: Expecting value")
    case = _case()
    assert refine_case(case, _evidence(out), [], SPEC) is case


def test_refine_adds_body_checks_for_status_only_reviews() -> None:
    case = _case(GET_CODE, "test_get_item_returns_200")
    refined = refine_case(case, None, [_review("status-only assertions: check the body")], SPEC)
    assert refined.round == 1
    assert "response_body = response.json()" in refined.code
    assert 'assert {"id", "name", "size"} <= set(response_body)' in refined.code
    assert 'isinstance(response_body["size"], int)' in refined.code


def test_refine_without_evidence_or_feedback_is_unchanged() -> None:
    case = _case()
    assert refine_case(case, None, [], SPEC) is case
    broken = _case("def test_x(:\n    pass\n", "test_x")
    assert refine_case(broken, _evidence("boom"), [], SPEC) is broken


@pytest.mark.parametrize("task_dir", TASKS, ids=lambda p: p.name)
def test_refine_any_failing_assert_keeps_an_assertion(task_dir: Path) -> None:
    """Fail every assert of every generated case in turn: the refined case still asserts."""
    spec = load_spec(task_dir / "README.md")
    for case in generate_cases(task_dir.name, spec):
        lines = case.code.splitlines()
        for node in ast.walk(ast.parse(case.code)):
            if not isinstance(node, ast.Assert):
                continue
            out = _failure(lines[node.lineno - 1], "assert 599 == 200")
            refined = refine_case(case, _evidence(out), [], spec)
            ast.parse(refined.code)
            assert response_assertions(refined.code) >= 1, (case.name, refined.code)
            assert refined is case or refined.round == case.round + 1


def test_refine_adds_error_body_checks_for_status_only_error_cases() -> None:
    spec = SPEC.model_copy(update={"error_format": {"error": {"code": "x", "message": "y"}}})
    code = '''def test_get_item_unknown_id_returns_404(base_url, session):
    response = session.get(f"{base_url}/items/999999999")
    assert response.status_code == 404, response.text
'''
    case = _case(code, "test_get_item_unknown_id_returns_404")
    refined = refine_case(case, None, [_review("no strong check on the body")], spec)
    assert 'assert {"error"} <= set(response.json())' in refined.code


def test_refine_drops_an_emptied_field_check() -> None:
    code = CODE.replace('{"id", "name", "colour"}', '{"colour"}')
    out = _failure('assert {"colour"} <= set(item)', "AssertionError: assert {'colour'} <= {}",
                   "", "Extra items in the left set:", "'colour'")
    refined = refine_case(_case(code), _evidence(out), [], SPEC)
    assert "colour" not in refined.code and "status_code == 201" in refined.code
    ast.parse(refined.code)


VALUE_SPEC = Spec(endpoints=[
    Endpoint(method="POST", path="/items", status_codes={201: "created"},
             request_example={"name": "Widget", "size": 3, "owner_email": "a@b.c"},
             response_examples={201: {"id": 1, "name": "Widget", "size": 3,
                                      "owner_email": "a@b.c", "created_at": "2024-01-01"}}),
    Endpoint(method="GET", path="/health", status_codes={200: "OK"},
             response_examples={200: {"status": "ok", "items": 3}}),
])

SHAPE_CREATE = '''def test_create_item_returns_201(base_url, session, unique):
    payload = {"name": unique("Widget"), "size": 3, "owner_email": unique("a@b.c")}
    response = session.post(f"{base_url}/items", json=payload)
    assert response.status_code == 201, response.text
    assert {"id", "name", "size"} <= set(response.json())
'''

SHAPE_HEALTH = '''def test_health(base_url, session):
    response = session.get(f"{base_url}/health")
    assert response.status_code == 200, response.text
    assert isinstance(response.json()["status"], str)
'''


def test_refine_turns_a_shape_only_write_into_a_read_back_of_the_values_sent() -> None:
    from pipeline.offline.strength import shape_only_code

    case = _case(SHAPE_CREATE)
    review = Review(case_id=case.case_id, round=0, reviewer="offline:execution", scores=None,
                    rationale="it asserts only the status, keys or types of a success",
                    rubric_hash="h")
    refined = refine_case(case, None, [review], VALUE_SPEC)
    assert refined.round == 1 and shape_only_code(SHAPE_CREATE)
    assert 'assert response.json()["name"] == payload["name"]' in refined.code
    assert 'assert response.json()["size"] == payload["size"]' in refined.code
    assert "owner_email" not in refined.code.split("assert response.status_code")[1].split(
        "set(")[0]  # an e-mail may be stored normalised: not compared
    assert not shape_only_code(refined.code)
    assert "documented values" in refined.rebuttal[0].changed


def test_refine_asserts_a_documented_constant_of_a_health_answer() -> None:
    case = _case(SHAPE_HEALTH, "test_health")
    refined = refine_case(case, None, [], VALUE_SPEC)
    assert 'assert response.json()["status"] == "ok"' in refined.code
    assert '"items"' not in refined.code  # a count is not a constant


def test_refine_adds_no_value_the_document_does_not_give() -> None:
    case = _case(SHAPE_HEALTH.replace("/health", "/items/1"), "test_health")
    assert refine_case(case, None, [], VALUE_SPEC) is case


def _over_specified(output: str) -> Evidence:
    """Passed on the oracle, failed on the alternative 'a' with `output`."""
    return Evidence(case_id="t::x", round=0,
                    runs=[RunResult(outcome="passed"), RunResult(outcome="passed")],
                    alternatives=[AlternativeRun(name="a", outcome="failed", output=output)])


REFUSAL = '''def test_create_item_without_name_is_refused(base_url, session):
    refused = session.post(f"{base_url}/items", json={})
    assert refused.status_code == 400
    created = session.post(f"{base_url}/items", json={"name": "Widget"})
    assert created.status_code == 201
    assert created.json()["name"] == "Widget"
'''


def test_refine_loosens_a_status_an_alternative_answers_otherwise_to_its_class() -> None:
    """400 on the oracle, 422 on the alternative, no code in the document: any 4xx."""
    out = _failure("assert refused.status_code == 400", "assert 422 == 400",
                   " +  where 422 = <Response [422]>.status_code")
    case = _case(REFUSAL, "test_create_item_without_name_is_refused")
    refined = refine_case(case, _over_specified(out), [_review("fails on an alternative")],
                          SPEC)
    assert "assert 400 <= refused.status_code < 500" in refined.code
    assert "assert refused.status_code == 400" not in refined.code
    assert 'assert created.json()["name"] == "Widget"' in refined.code  # the rest stays
    assert "independent correct implementation" in refined.rebuttal[0].changed


def test_refine_drops_a_status_the_alternative_answers_in_another_class() -> None:
    out = _failure("assert refused.status_code == 400", "assert 201 == 400",
                   " +  where 201 = <Response [201]>.status_code")
    case = _case(REFUSAL, "test_create_item_without_name_is_refused")
    refined = refine_case(case, _over_specified(out), [], SPEC)
    assert "refused.status_code" not in refined.code.split("created =")[0].split("json={})")[1]
    assert "assert created.status_code == 201" in refined.code


def test_refine_drops_a_value_check_only_the_oracle_meets() -> None:
    code = '''def test_first_item_has_id_one(base_url, session):
    created = session.post(f"{base_url}/items", json={"name": "Widget"})
    assert created.status_code == 201
    assert created.json()["id"] == 1
    assert created.json()["name"] == "Widget"
'''
    out = _failure('assert created.json()["id"] == 1', "assert 'f3a9' == 1")
    refined = refine_case(_case(code, "test_first_item_has_id_one"), _over_specified(out), [],
                          SPEC)
    assert '["id"] == 1' not in refined.code
    assert 'assert created.json()["name"] == "Widget"' in refined.code


def test_a_refusal_by_an_undocumented_error_code_stays_a_refusal() -> None:
    """No code documented for a missing token; the oracle refuses with 500: the test keeps
    asserting a refusal (any error status) instead of losing its only assertion."""
    from pipeline.offline.refine import refine_case
    from pipeline.records import Endpoint, Evidence, RunResult, Spec, TestCase

    code = ('def test_get_lists_without_token(base_url, session):\n'
            '    response = session.get(f"{base_url}/lists")\n'
            '    assert response.status_code in (401, 403), response.text\n')
    case = TestCase(case_id="t::a", task_id="t", round=0, category="error_handling",
                    name="test_get_lists_without_token", code=code, origin="generated",
                    author="offline")
    output = ("E       assert 500 in (401, 403)\n"
              "E        +  where 500 = <Response [500]>.status_code\n"
              ">       assert response.status_code in (401, 403), response.text\n")
    evidence = Evidence(case_id=case.case_id, round=0,
                        runs=[RunResult(outcome="failed", output=output)])
    spec = Spec(endpoints=[Endpoint(method="GET", path="/lists")])
    refined = refine_case(case, evidence, [], spec)
    assert "assert response.status_code >= 400, response.text" in refined.code
    ok = output.replace("500", "200")  # a success is no refusal: nothing to keep
    same = refine_case(case, Evidence(case_id=case.case_id, round=0,
                                      runs=[RunResult(outcome="failed", output=ok)]), [], spec)
    assert same is case


def test_a_second_delete_refused_by_another_client_error_stays_refused() -> None:
    """404 expected for a second delete, 422 came back (undocumented there): the test keeps
    asserting a client error instead of losing the check it exists for."""
    code = ('def test_delete_item_twice_returns_404(base_url, session):\n'
            '    first = session.delete(f"{base_url}/items/1")\n'
            '    assert first.status_code == 200, first.text\n'
            '    second = session.delete(f"{base_url}/items/1")\n'
            '    assert second.status_code == 404, second.text\n')
    spec = Spec(endpoints=[Endpoint(method="DELETE", path="/items/{id}",
                                    status_codes={200: "OK", 404: "does not exist"})])
    out = _failure("assert second.status_code == 404, second.text", "assert 422 == 404")
    refined = refine_case(_case(code, "test_delete_item_twice_returns_404"), _evidence(out), [],
                          spec)
    assert "assert 400 <= second.status_code < 500, second.text" in refined.code
    assert "assert first.status_code == 200" in refined.code
    server = out.replace("422", "500")  # a server error is no refusal the test can keep
    assert "second.status_code" not in refine_case(
        _case(code, "test_delete_item_twice_returns_404"), _evidence(server), [], spec).code
