"""The offline rebuttal: the refiner answers each review, and the next reviewers read it."""

from __future__ import annotations

from test_refine import GET_CODE, SPEC

from pipeline.offline import review_all
from pipeline.offline.rebuttal import Action, answers
from pipeline.offline.refine import refine_case
from pipeline.records import Evidence, MutationEvidence, Review, RunResult, Scores, TestCase
from pipeline.rubric import load_rubric

CASE = TestCase(case_id="t::test_get_item_returns_200", task_id="t", round=0,
                category="api_compliance", name="test_get_item_returns_200", code=GET_CODE,
                endpoints=["GET /items/{id}"])
PASSED = Evidence(case_id=CASE.case_id, round=0, requests=["GET /items/1"],
                  runs=[RunResult(outcome="passed"), RunResult(outcome="passed")])


def _review(reviewer: str, text: str, correctness: int = 1) -> Review:
    return Review(case_id=CASE.case_id, round=0, reviewer=reviewer, rationale=text,
                  scores=Scores(correctness=correctness, coverage=1, readability=2, relevance=2),
                  rubric_hash="h")


def test_refined_version_carries_an_answer_per_review_and_its_reviewers_read_it():
    reviews = [_review("offline:static", "AST: status checked (200); no strong check on the "
                                         "body; shape only: it asserts only the status"),
               _review("offline:spec", "Spec: targets GET /items/{id}", correctness=0)]
    refined = refine_case(CASE, PASSED, reviews, SPEC)
    assert refined.round == 1 and refined.code != CASE.code
    static, spec = refined.rebuttal
    assert static.reviewer == "offline:static"
    assert static.changed.startswith("added") and "documented response body" in static.changed
    assert spec.reviewer == "offline:spec" and spec.changed == ""  # it named no body check
    assert "passed on the oracle in all 2 runs" in spec.disagree  # correctness 0 vs the runs
    evidence = PASSED.model_copy(update={"round": 1})
    next_reviews = {r.reviewer: r for r in review_all(refined, evidence, SPEC, load_rubric())}
    assert f"Refiner's answer read: changed {static.changed}" in \
        next_reviews["offline:static"].rationale
    assert "changed nothing for this review; disagrees: correctness 0 says" in \
        next_reviews["offline:spec"].rationale
    assert "Refiner's answer" not in next_reviews["offline:execution"].rationale  # not answered


def test_first_versions_have_no_answer_to_read():
    first = review_all(CASE, PASSED, SPEC, load_rubric())
    assert all("Refiner's answer" not in r.rationale for r in first)


def test_disagreement_from_kills_when_a_review_says_it_cannot_fail():
    killed = PASSED.model_copy(update={"mutation": MutationEvidence(valid=8, killed=["a:1:x:1"])})
    review = _review("offline:execution", "a pass proves nothing", correctness=1)
    (answer,) = answers([review], killed, [Action("removed the fixed sleeps")])
    assert answer.changed == "removed the fixed sleeps"
    assert answer.disagree == "it can fail and checks something: it kills 1 of the oracle's 8 " \
                              "mutants"
    (agreed,) = answers([_review("x", "fine", correctness=2)], killed, [])
    assert (agreed.changed, agreed.disagree) == ("", "")
