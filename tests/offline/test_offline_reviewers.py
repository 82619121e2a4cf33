"""Calibration of the three offline reviewers on hand-written good / weak / failing / hostile
cases: specific score components, rationales naming their evidence, determinism, ranges."""

from __future__ import annotations

import pytest
import review_samples as S

from pipeline.offline import REVIEWERS, review_all, review_execution, review_spec, review_static
from pipeline.records import MutationEvidence, Review, Scores, Spec
from pipeline.rubric import load_rubric

RUBRIC = load_rubric()
SPEC = S.make_spec()
PASS2 = ["passed", "passed"]


def scores(review: Review) -> tuple[int, int, int, int]:
    s = review.scores
    assert s is not None
    return (s.correctness, s.coverage, s.readability, s.relevance)


def run(case, outcomes=PASS2, requests=(), duration=0.05, output="", spec=SPEC):
    ev = S.evidence(case, list(outcomes), list(requests), duration, output)
    return {r.reviewer: r for r in review_all(case, ev, spec, RUBRIC)}


def totals(reviews: dict[str, Review]) -> list[int]:
    return [r.scores.total for r in reviews.values()]


ALL_SAMPLES = [
    (S.GOOD, PASS2, S.GOOD_REQUESTS),
    (S.WEAK, PASS2, S.WEAK_REQUESTS),
    (S.FAILING, ["failed", "failed"], ["POST /items"]),
    (S.HOSTILE, PASS2, S.HOSTILE_REQUESTS),
    (S.HOSTILE, ["error", "error"], []),
    (S.UNDOCUMENTED, PASS2, S.UNDOCUMENTED_REQUESTS),
    (S.ERROR, PASS2, S.ERROR_REQUESTS),
    (S.EDGE, PASS2, S.EDGE_REQUESTS),
    (S.INTEGRATION, PASS2, S.INTEGRATION_REQUESTS),
    (S.BORDERLINE, PASS2, S.BORDERLINE_REQUESTS),
    (S.TRIVIAL, PASS2, S.TRIVIAL_REQUESTS),
    (S.GOOD, ["passed"], []),
]


def test_reviewer_names_and_order():
    assert list(REVIEWERS) == ["offline:execution", "offline:static", "offline:spec"]
    reviews = review_all(S.GOOD, None, SPEC, RUBRIC)
    assert [r.reviewer for r in reviews] == list(REVIEWERS)


# --- calibration ----------------------------------------------------------------------------

def test_good_case_gets_full_marks_from_all_three():
    reviews = run(S.GOOD, requests=S.GOOD_REQUESTS)
    for r in reviews.values():
        assert scores(r) == (3, 3, 2, 2), r.rationale
    assert totals(reviews) == [10, 10, 10]


@pytest.mark.parametrize("case,requests", [
    (S.ERROR, S.ERROR_REQUESTS), (S.EDGE, S.EDGE_REQUESTS),
    (S.INTEGRATION, S.INTEGRATION_REQUESTS)])
def test_good_cases_of_every_category_score_8_to_10(case, requests):
    reviews = run(case, requests=requests)
    assert all(8 <= t <= 10 for t in totals(reviews)), {k: r.rationale for k, r in
                                                         reviews.items()}


def test_status_only_case_is_weak_for_every_reviewer():
    reviews = run(S.WEAK, requests=S.WEAK_REQUESTS)
    assert scores(reviews["offline:execution"]) == (1, 1, 2, 2)
    assert scores(reviews["offline:static"]) == (1, 1, 2, 2)
    assert scores(reviews["offline:spec"]) == (1, 1, 2, 1)
    assert max(totals(reviews)) < 7
    assert max(totals(reviews)) - min(totals(reviews)) <= 3


def test_failing_case_gets_correctness_zero_everywhere():
    reviews = run(S.FAILING, outcomes=["failed", "failed"], requests=["POST /items"],
                  output=S.FAILING_OUTPUT)
    assert [r.scores.correctness for r in reviews.values()] == [0, 0, 0]
    assert reviews["offline:execution"].scores.coverage <= 1
    assert max(totals(reviews)) < 7
    assert "E assert 201 == 200" in reviews["offline:execution"].rationale
    # the spec reviewer also sees the 200 the document does not list for POST /items
    assert "200 (not documented)" in reviews["offline:spec"].rationale


def test_flaky_case_is_correctness_zero_for_execution():
    r = run(S.GOOD, outcomes=["passed", "failed"], requests=S.GOOD_REQUESTS)
    ex = r["offline:execution"]
    assert ex.scores.correctness == 0 and "flaky" in ex.rationale


def test_single_run_caps_execution_correctness():
    r = run(S.GOOD, outcomes=["passed"], requests=S.GOOD_REQUESTS)["offline:execution"]
    assert r.scores.correctness == 2 and "stability unknown" in r.rationale


def test_hostile_case_static_and_spec_reject_it():
    reviews = run(S.HOSTILE, requests=S.HOSTILE_REQUESTS, duration=2.5)
    st, sp, ex = (reviews["offline:static"], reviews["offline:spec"],
                  reviews["offline:execution"])
    assert st.scores.correctness == 0 and st.scores.relevance == 0
    assert st.scores.readability <= 1  # vague name
    assert sp.scores.relevance == 0 and sp.scores.correctness <= 1
    assert st.scores.total < 7 and sp.scores.total < 7
    assert ex.scores.readability == 1  # 2.5 s per run
    # execution alone cannot see the imports, but it sees that only truthiness is asserted:
    # the shape caps keep it under the bar too (it was a 3+ point disagreement before)
    assert ex.scores.correctness <= 1 and ex.scores.coverage <= 1
    assert max(totals(reviews)) < 7
    for word in ("app.models", "sleeps", "unseeded random"):
        assert word in st.rationale


def test_hostile_case_that_errors_on_the_oracle_is_low_everywhere():
    reviews = run(S.HOSTILE, outcomes=["error", "error"], requests=[],
                  output="E   ModuleNotFoundError: No module named 'app'")
    assert max(totals(reviews)) < 7
    assert max(totals(reviews)) - min(totals(reviews)) <= 3


def test_undocumented_endpoint_is_poor_for_every_reviewer():
    reviews = run(S.UNDOCUMENTED, requests=S.UNDOCUMENTED_REQUESTS)
    assert [r.scores.relevance for r in reviews.values()] == [0, 0, 0]
    assert max(totals(reviews)) < 7
    assert "GET /admin/stats" in reviews["offline:spec"].rationale
    assert "GET /admin/stats" in reviews["offline:static"].rationale
    assert "none of them is documented" in reviews["offline:execution"].rationale


def test_trivial_assertion_scores_correctness_zero():
    reviews = run(S.TRIVIAL, requests=S.TRIVIAL_REQUESTS)
    assert [r.scores.correctness for r in reviews.values()] == [0, 0, 0]
    assert max(totals(reviews)) < 7


def test_borderline_case_is_below_the_bar_but_close_together():
    reviews = run(S.BORDERLINE, requests=S.BORDERLINE_REQUESTS)
    t = totals(reviews)
    assert sum(t) / 3 < 7 and max(t) >= 6
    assert reviews["offline:static"].scores.correctness == 1  # permissive status, vague name
    assert "accepts success and failure alike" in reviews["offline:static"].rationale


def test_error_case_without_body_check_depends_on_documented_error_body():
    code_case = S.case("test_get_item_unknown_id_returns_404", '''
        def test_get_item_unknown_id_returns_404(base_url, session):
            """An id that was never issued answers 404."""
            response = session.get(f"{base_url}/items/999999", timeout=10)
            assert response.status_code == 404
    ''', category="edge_case", endpoints=["GET /items/{item_id}"])
    documented = run(code_case, requests=["GET /items/999999"])
    bare_spec = SPEC.model_copy(update={"error_format": None})
    undocumented = run(code_case, requests=["GET /items/999999"], spec=bare_spec)
    for r in documented.values():
        assert r.scores.correctness == 2 and r.scores.coverage == 1, r.rationale
    for r in undocumented.values():
        assert r.scores.correctness == 2 and r.scores.coverage == 2, r.rationale
    assert min(totals(undocumented)) >= 8


def test_integration_without_cleanup_loses_readability():
    leaky = S.case("test_item_lifecycle_create_then_read", '''
        def test_item_lifecycle_create_then_read(base_url, session):
            """Create an item and read it back."""
            created = session.post(f"{base_url}/items", json={"name": "nut", "quantity": 1,
                                                               "price": 0.2}, timeout=10)
            assert created.status_code == 201
            item_id = created.json()["id"]
            fetched = session.get(f"{base_url}/items/{item_id}", timeout=10)
            assert fetched.status_code == 200
            assert fetched.json()["name"] == "nut"
            assert fetched.json()["quantity"] == 1
    ''', category="integration", endpoints=["POST /items", "GET /items/{item_id}"])
    reviews = run(leaky, requests=["POST /items", "GET /items/4"])
    assert reviews["offline:static"].scores.readability == 1
    assert "without cleanup" in reviews["offline:static"].rationale
    assert reviews["offline:execution"].scores.readability == 1


def test_no_evidence_means_no_execution_credit():
    r = review_execution.review(S.GOOD, None, SPEC, RUBRIC)
    assert scores(r) == (0, 0, 1, 2)
    assert "No execution evidence" in r.rationale


def test_spec_without_endpoints_is_neutral_on_relevance():
    reviews = run(S.GOOD, requests=S.GOOD_REQUESTS, spec=Spec())
    assert reviews["offline:spec"].scores.relevance == 1
    assert reviews["offline:execution"].scores.relevance == 1
    assert "lists no endpoints" in reviews["offline:spec"].rationale


def test_unparsable_code_scores_zero_statically():
    broken = S.case("test_broken", "def test_broken(:\n    pass\n")
    r = review_static.review(broken, None, SPEC, RUBRIC)
    assert r.scores.total == 0 and "syntax error" in r.rationale


# --- rationales -----------------------------------------------------------------------------

def test_rationales_name_their_evidence():
    reviews = run(S.GOOD, requests=S.GOOD_REQUESTS)
    ex, st, sp = (reviews[k].rationale for k in REVIEWERS)
    assert "passed 2/2" in ex and "POST /items" in ex and "GET /items/7" in ex
    assert "6 assert statements" in st and "status checked (200, 201)" in st
    assert "test_create_item_returns_created_item" in st
    assert "POST /items (codes 201, 422)" in sp and "fields id, name and quantity" in sp
    assert "Fits api_compliance" in sp


@pytest.mark.parametrize("case,outcomes,requests", ALL_SAMPLES)
def test_rationale_is_one_to_three_sentences(case, outcomes, requests):
    for r in run(case, outcomes, requests).values():
        n = r.rationale.count(". ") + 1
        assert r.rationale.endswith(".") and 1 <= n <= 3, r.rationale


# --- contract: deterministic, valid, hashed -------------------------------------------------

@pytest.mark.parametrize("case,outcomes,requests", ALL_SAMPLES)
def test_reviews_are_deterministic_and_valid(case, outcomes, requests):
    first = run(case, outcomes, requests)
    second = run(case, outcomes, requests)
    assert [r.model_dump() for r in first.values()] == [r.model_dump() for r in second.values()]
    for r in first.values():
        assert r.case_id == case.case_id and r.round == case.round
        assert r.rubric_hash == RUBRIC.hash and r.error is None
        Scores.model_validate(r.scores.model_dump())  # within the rubric's ranges
        assert 0 <= r.scores.total <= 10


def test_each_reviewer_is_a_pure_function_of_its_inputs():
    ev = S.evidence(S.GOOD, PASS2, S.GOOD_REQUESTS)
    before = (S.GOOD.model_dump(), ev.model_dump(), SPEC.model_dump())
    for module in (review_execution, review_static, review_spec):
        a = module.review(S.GOOD, ev, SPEC, RUBRIC)
        b = module.review(S.GOOD, ev, SPEC, RUBRIC)
        assert a == b
    assert (S.GOOD.model_dump(), ev.model_dump(), SPEC.model_dump()) == before


def test_reviews_do_not_depend_on_hash_seed():
    import json
    import os
    import subprocess
    import sys
    from pathlib import Path

    script = (
        "import json, sys; sys.path.insert(0, sys.argv[1]); import review_samples as S; "
        "from pipeline.offline import review_all; from pipeline.rubric import load_rubric; "
        "cases = [S.GOOD, S.HOSTILE, S.INTEGRATION, S.UNDOCUMENTED]; "
        "print(json.dumps([[r.model_dump() for r in review_all(c, S.evidence(c, ['passed', "
        "'passed'], ['POST /items', 'GET /items/3']), S.make_spec(), load_rubric())] "
        "for c in cases]))"
    )
    here = str(Path(__file__).parent)
    outs = []
    for seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        proc = subprocess.run([sys.executable, "-c", script, here], env=env,
                              capture_output=True, text=True, check=True)
        outs.append(json.loads(proc.stdout))
    assert outs[0] == outs[1]


# --- real mutant kills as evidence ----------------------------------------------------------

def _with_mutation(case, requests, **mutation):
    ev = S.evidence(case, PASS2, list(requests)).model_copy(
        update={"mutation": MutationEvidence(**mutation)})
    return review_execution.review(case, ev, SPEC, RUBRIC)


HELPER = S.case("test_create_item_checked_by_helper", """
    def test_create_item_checked_by_helper(base_url, session):
        response = session.post(f"{base_url}/items", json={"name": "pen", "quantity": 2})
        check_created(response, "pen")
""")


def test_a_real_kill_shows_a_test_can_fail_when_its_code_cannot():
    """Assertions in a helper the code reading cannot follow: simulated, nothing is caught;
    a real kill shows the test can fail and checks something (rubric levels 0 -> 1)."""
    blind = scores(run(HELPER, requests=["POST /items"])["offline:execution"])
    assert blind[:2] == (0, 0)
    killed = _with_mutation(HELPER, ["POST /items"], valid=12, killed=["app.py:3:status:1"])
    assert scores(killed)[:2] == (1, 1)
    assert "kills 1 of the 12 mutants of the oracle (app.py:3:status:1)" in killed.rationale


def test_kills_do_not_lift_what_the_assertions_do_not_check():
    """The rubric's higher levels are about what is asserted: a status-only test stays weak
    however many mutants its status check kills."""
    weak = scores(run(S.WEAK, requests=S.WEAK_REQUESTS)["offline:execution"])
    killed = _with_mutation(S.WEAK, S.WEAK_REQUESTS, valid=12,
                            killed=["app.py:3:status:1", "app.py:9:return:1"],
                            unique=["app.py:9:return:1"], round_killed=7)
    assert scores(killed) == weak
    assert "kills 2 of the 12 mutants" in killed.rationale
    assert "1 that no other test of its round kills" in killed.rationale


@pytest.mark.parametrize("mutation,said", [
    ({"valid": 12}, "kills none of the 12 mutants"),
    ({"valid": 12, "excluded": "did not pass on the unmutated oracle"}, "no kill credit"),
    ({"valid": 0}, "no kill evidence"),
])
def test_no_kill_changes_no_score_but_is_said(mutation, said):
    full = scores(run(S.GOOD, requests=S.GOOD_REQUESTS)["offline:execution"])
    r = _with_mutation(S.GOOD, S.GOOD_REQUESTS, **mutation)
    assert scores(r) == full
    assert said in r.rationale


def test_an_id_the_document_addresses_records_by_is_a_documented_field():
    """`/movies/{movie_id}` implies records carry an id even when no body is shown; other
    names stay undocumented."""
    from pipeline.offline.facts import code_facts
    from pipeline.records import Endpoint, Param, TestCase

    spec = Spec(endpoints=[
        Endpoint(method="POST", path="/movies/", request_example={"title": "Up"}),
        Endpoint(method="GET", path="/movies/{movie_id}/",
                 params=[Param(name="movie_id", location="path")])])
    code = '''def test_x(base_url, session):
    made = session.post(f"{base_url}/movies/", json={"title": "Up"})
    got = session.get(f"{base_url}/movies/{made.json()['id']}/")
    assert got.json()["id"] == made.json()["id"]
    assert got.json()["rating"] == 5
'''
    case = TestCase(case_id="m::test_x", task_id="m", round=0, category="integration",
                    name="test_x", code=code, endpoints=["GET /movies/{movie_id}/"])
    al = review_spec.align(case, code_facts(code), spec, None)
    assert al.fields["id"] == "known" and al.fields["rating"] == "no"


def test_a_documented_refusal_under_a_2xx_code_fits_error_handling():
    """`202: Invalid credentials` is how this document refuses a wrong password: a test that
    asserts it (and that no token came back) is an error-handling test; a 202 documented as a
    success is not."""
    from pipeline.offline.facts import code_facts
    from pipeline.records import Endpoint, TestCase

    code = '''def test_x(base_url, session):
    refused = session.post(f"{base_url}/auth/login", json={"email": "a@b.c", "password": "x"})
    assert refused.status_code == 202, refused.text
    assert "token" not in refused.text
'''
    case = TestCase(case_id="m::test_x", task_id="m", round=0, category="error_handling",
                    name="test_x", code=code, endpoints=["POST /auth/login"])
    for said, fits in (("Invalid credentials", True), ("Accepted for later", False)):
        spec = Spec(endpoints=[Endpoint(method="POST", path="/auth/login",
                                        status_codes={200: "Signed in", 202: said})])
        al = review_spec.align(case, code_facts(code), spec, None)
        assert review_spec._fit(case, code_facts(code), al)[0] is fits, said
    # the absent token is a check of what the answer says, not of a key's presence
    assert [c.kind for c in code_facts(code).checks] == ["status", "value"]
