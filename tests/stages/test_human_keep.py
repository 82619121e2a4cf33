"""A stylistically poor human-written test that kills a mutant no accepted generated test
kills is kept, with those mutants named (stages.human + routing.keep_human, on a real store)."""

from __future__ import annotations

from pathlib import Path

from pipeline.records import (
    Evidence,
    MutationEvidence,
    Review,
    RouteDecision,
    RunResult,
    Scores,
    TestCase,
)
from pipeline.routing import Panel, keep_human, route_case
from pipeline.rubric import load_rubric
from pipeline.stages.human import beyond_generated, generated_kills, is_human
from pipeline.store import Store


def _evidence(case_id: str, killed: list[str], rnd: int = 0) -> Evidence:
    return Evidence(case_id=case_id, round=rnd, runs=[RunResult(outcome="passed")] * 2,
                    mutation=MutationEvidence(valid=4, killed=killed))


def _reviews(case_id: str, scores: Scores) -> list[Review]:
    return [Review(case_id=case_id, round=5, reviewer=f"r{i}", rubric_hash="h", scores=scores)
            for i in range(3)]


def test_poor_style_human_test_killing_a_mutant_the_generated_suite_misses_is_kept(
        tmp_path: Path) -> None:
    store = Store.open(tmp_path / "state.db")
    store.upsert_task("t", input_hash="h", split="train", state="running")
    generated = TestCase(case_id="t::test_gen", task_id="t", round=0, category="api_compliance",
                         name="test_gen", code="def test_gen():\n    assert True\n")
    human = TestCase(case_id="t::test_up::test_it", task_id="t", round=5,
                     category="api_compliance", name="test_it",
                     code="def test_it():\n    assert True\n", origin="refined",
                     author="offline", module="test_up")  # a refined human test stays human
    with store.transaction():
        store.save_case(generated)
        store.save_evidence(_evidence(generated.case_id, ["app.py:3:cmp:1"]))
        store.save_route(RouteDecision(case_id=generated.case_id, round=0, route="accepted",
                                       reason="mean 8 >= 7"))
        store.save_case(human)
    assert is_human(human) and not is_human(generated)
    accepted = generated_kills(store, "t", [])
    assert accepted == {"app.py:3:cmp:1"}
    evidence = _evidence(human.case_id, ["app.py:3:cmp:1", "app.py:9:return:1"], rnd=5)
    beyond = beyond_generated(human, evidence, accepted)
    assert beyond == ["app.py:9:return:1"]
    assert beyond_generated(generated, evidence, accepted) == []  # only human tests count
    # poor style and weak substance: the reviewers would discard it after the last round
    poor = _reviews(human.case_id, Scores(correctness=1, coverage=1, readability=0,
                                          relevance=1))
    rules = load_rubric().routing
    discarded = route_case(evidence, poor, 5, "train", panel=Panel(rules, 3))
    assert discarded.discard_reason == "low_quality"
    kept = keep_human(discarded, "train", beyond, poor, shape_only=False)
    assert (kept.route, kept.discard_reason) == ("accepted", None)
    assert "kills 1 mutant no accepted generated test kills (app.py:9:return:1)" in kept.reason
    on_verified = keep_human(route_case(evidence, poor, 5, "verified",
                                        panel=Panel(rules, 3)), "verified", beyond, poor,
                             shape_only=False)
    assert on_verified.route == "area_chair"
    store.close()
