"""Shape or behaviour: tests that assert only status, keys or types stay under level 3, and
mutation evidence counts against a success test that kills nothing others kill."""

from __future__ import annotations

import pytest
import review_samples as S

from pipeline.offline import review_all, review_execution
from pipeline.offline.facts import code_facts
from pipeline.offline.strength import (
    caps,
    error_code_documented,
    shape_only,
    shape_only_code,
    transitions,
)
from pipeline.records import MutationEvidence
from pipeline.rubric import load_rubric

RUBRIC = load_rubric()
SPEC = S.make_spec()

SHAPE = S.case("test_create_item_returns_item_fields", '''
    def test_create_item_returns_item_fields(base_url, session):
        """POST /items answers 201 with every documented field, typed."""
        response = session.post(f"{base_url}/items", json={"name": "pen", "quantity": 2},
                                timeout=10)
        assert response.status_code == 201
        body = response.json()
        assert {"id", "name", "quantity", "price", "created_at"} <= set(body)
        assert isinstance(body["id"], int)
        assert isinstance(body["name"], str)
        assert isinstance(body["quantity"], int)
''', endpoints=["POST /items"])

VALUES = S.case("test_create_item_returns_item_fields", '''
    def test_create_item_returns_item_fields(base_url, session):
        """POST /items answers 201 with the values it was sent."""
        response = session.post(f"{base_url}/items", json={"name": "pen", "quantity": 2},
                                timeout=10)
        assert response.status_code == 201
        body = response.json()
        assert {"id", "name", "quantity", "price", "created_at"} <= set(body)
        assert isinstance(body["id"], int)
        assert body["name"] == "pen"
        assert body["quantity"] == 2
''', endpoints=["POST /items"])

LOOPED = '''
def test_list_items_filtered(base_url, session):
    items = session.get(f"{base_url}/items", params={"limit": 2}).json()["items"]
    for item in items:
        assert item["quantity"] == 3
    assert all(i["name"] == "pen" for i in items)
'''


def _reviews(case, requests, mutation=None):
    ev = S.evidence(case, ["passed", "passed"], requests)
    if mutation is not None:
        ev = ev.model_copy(update={"mutation": MutationEvidence(**mutation)})
    return {r.reviewer: r.scores for r in review_all(case, ev, SPEC, RUBRIC)}


def test_shape_only_success_test_reaches_neither_level_3_nor_acceptance():
    shape = _reviews(SHAPE, ["POST /items"])
    values = _reviews(VALUES, ["POST /items"])
    for reviewer, s in shape.items():
        assert s.correctness <= 1 and s.coverage <= 1, reviewer
    assert sum(s.total for s in shape.values()) < 7 * 3
    # the same test asserting the values it sent is not capped
    assert max(s.correctness for s in values.values()) == 3
    assert sum(s.total for s in values.values()) >= 7 * 3


def test_shape_only_error_test_keeps_level_2_at_most():
    facts = code_facts(S.ERROR.code, S.ERROR.name)  # exact 422 and `"detail" in body`
    assert shape_only(facts)
    limit = caps(facts, error_test=True)
    assert (limit.correctness, limit.coverage) == (2, 2)
    documented = caps(facts, error_test=True, body_documented=True)  # the code is left out
    assert (documented.correctness, documented.coverage) == (1, 1)
    assert not error_code_documented(SPEC)  # {"detail": "message"}: no code to assert
    reviews = _reviews(S.ERROR, S.ERROR_REQUESTS)
    assert all(s.correctness <= 2 and s.coverage <= 2 for s in reviews.values())
    coded = SPEC.model_copy(update={"error_format": {"error": {"code": "not_found",
                                                               "message": "text"}}})
    assert error_code_documented(coded)
    typed = SPEC.model_copy(update={"error_format": {"error": {"code": "string",
                                                               "message": "string"}}})
    assert not error_code_documented(typed)  # a type placeholder names no code
    ev = S.evidence(S.ERROR, ["passed", "passed"], S.ERROR_REQUESTS)
    strict = review_all(S.ERROR, ev, coded, RUBRIC)
    assert all(r.scores.correctness <= 1 and r.scores.coverage <= 1 for r in strict)


def test_assertions_in_a_loop_over_a_maybe_empty_list_are_shape_only():
    assert shape_only_code(LOOPED)
    guarded = LOOPED.replace('    for item', '    assert len(items) == 2\n    for item')
    assert not shape_only_code(guarded)


def test_a_status_that_changes_after_a_write_is_a_side_effect_check():
    gone = """
def test_delete_item_then_gone(base_url, session):
    r = session.delete(f"{base_url}/items/1")
    assert r.status_code == 204
    assert session.get(f"{base_url}/items/1").status_code == 404
"""
    assert transitions(code_facts(gone)) == [("GET /items/1", 204, 404)]
    assert not shape_only_code(gone)
    revoked = """
def test_logout_revokes_token(base_url, http, headers):
    assert http.get(f"{base_url}/users/me", headers=headers).status_code == 200
    assert http.post(f"{base_url}/auth/logout", headers=headers).status_code == 204
    assert http.get(f"{base_url}/users/me", headers=headers).status_code == 401
"""
    assert transitions(code_facts(revoked)) == [("GET /users/me", 200, 401)]
    assert not shape_only_code(revoked)
    # the same status twice, or no write in between, shows no side effect
    same = revoked.replace("== 401", "== 200")
    assert transitions(code_facts(same)) == [] and shape_only_code(same)
    two_reads = """
def test_me_twice(base_url, http, headers):
    assert http.get(f"{base_url}/users/me", headers=headers).status_code == 200
    assert http.get(f"{base_url}/users/me").status_code == 401
"""
    assert transitions(code_facts(two_reads)) == []
    facts = code_facts(two_reads)
    assert (caps(facts, error_test=False).correctness, caps(facts, False).coverage) == (2, 2)


@pytest.mark.parametrize("round_killed,penalised", [(5, True), (0, False)])
def test_success_test_that_kills_nothing_others_kill_loses_a_level(round_killed, penalised):
    base = _reviews(S.GOOD, S.GOOD_REQUESTS)["offline:execution"]
    ev = S.evidence(S.GOOD, ["passed", "passed"], S.GOOD_REQUESTS).model_copy(
        update={"mutation": MutationEvidence(valid=10, round_killed=round_killed)})
    r = review_execution.review(S.GOOD, ev, SPEC, RUBRIC)
    drop = 1 if penalised else 0
    assert r.scores.correctness == base.correctness - drop
    assert r.scores.coverage == base.coverage - drop
    assert ("is a weak test" in r.rationale) is penalised


def test_key_sets_are_shape_but_sets_of_values_are_behaviour():
    keys = 'def test_a(r):\n    assert {"id", "name"} <= set(r.json())\n'
    values = 'def test_a(r):\n    assert set(r.json()["fields"]) == {"title", "isbn"}\n'
    assert shape_only_code(keys)
    assert not shape_only_code(values)

    # the URL of a request made inside the assertion is not a field of a body
    inline = 'def test_a(client):\n    assert client.get("/stats").status_code == 200\n'
    assert shape_only_code(inline)
    named = 'def test_a(body):\n    assert body.get("total") == 3\n'
    assert not shape_only_code(named)


@pytest.mark.parametrize("killed,others,penalised", [
    ([], ["app.py:9:filter_ignored:1"], True),   # its endpoint's bugs, caught only by others
    (["app.py:3:return:1"], ["app.py:9:filter_ignored:1"], True),  # kills elsewhere only
    (["app.py:9:filter_ignored:1"], ["app.py:9:filter_ignored:1"], False),
    ([], [], False),  # nobody catches its endpoint's mutants: no evidence either way
])
def test_endpoint_mutants_others_kill_and_it_does_not_make_a_weak_test(killed, others,
                                                                       penalised):
    base = _reviews(S.GOOD, S.GOOD_REQUESTS)["offline:execution"]
    ev = S.evidence(S.GOOD, ["passed", "passed"], S.GOOD_REQUESTS).model_copy(
        update={"mutation": MutationEvidence(
            valid=10, killed=killed, round_killed=6,
            endpoint_mutants=["app.py:9:filter_ignored:1", "app.py:12:return:1"],
            endpoint_killed_by_others=others)})
    r = review_execution.review(S.GOOD, ev, SPEC, RUBRIC)
    drop = 1 if penalised else 0
    assert r.scores.correctness == base.correctness - drop
    assert r.scores.coverage == base.coverage - drop
    assert ("mutants in its own endpoints' handlers" in r.rationale) is penalised


def test_words_a_page_must_show_are_a_value_not_a_key() -> None:
    page = '''
def test_home(base_url, session):
    r = session.get(base_url + "/")
    assert r.status_code == 200
    assert "Rock-Paper-Scissors App" in r.text
'''
    assert not shape_only_code(page)
    for literal in ('"error"', '"<!doctype html"', '"not_found"'):  # keys, tags, codes
        assert shape_only_code(page.replace('"Rock-Paper-Scissors App"', literal)), literal
