"""Mutation scores with hand-worked values."""

from __future__ import annotations

import pytest

from pipeline.mutation.operators import Mutant
from pipeline.mutation.scores import (
    MutantResult,
    case_map_from_task_json,
    case_of,
    merge_rounds,
    mutation_scores,
)


def _m(mid: str) -> Mutant:
    return Mutant(id=mid, file="app.py", line=1, operator="constant", description=mid, source="")


MUTANTS = [_m("m1"), _m("m2"), _m("m3"), _m("m4"), _m("m5")]
RESULTS = {
    "m1": MutantResult("m1", "ran", ["t.py::a", "t.py::b"]),
    "m2": MutantResult("m2", "ran", ["t.py::b", "t.py::c"]),  # c fails on the oracle anyway
    "m3": MutantResult("m3", "ran", ["t.py::c"]),  # only a test with no credit: survived
    "m4": MutantResult("m4", "stillborn", detail="did not answer"),
    # m5: no result (interrupted)
}
CASES = {"t.py::a": "task::a", "t.py::b": "task::b", "t.py::c": "task::c"}


def test_suite_and_per_test_scores():
    report = mutation_scores(MUTANTS, RESULTS, ["t.py::a", "t.py::b"], CASES,
                             ["t.py::a", "t.py::b", "t.py::c"])
    assert (report["mutants"], report["valid"], report["killed"]) == (5, 3, 2)
    assert (report["stillborn"], report["invalid"], report["not_run"]) == (1, 0, 1)
    assert report["survived"] == 1
    assert report["score"] == pytest.approx(2 / 3, abs=1e-4)
    per = report["per_test"]
    assert per["task::a"] == {"killed": ["m1"], "score": pytest.approx(1 / 3, abs=1e-4)}
    assert per["task::b"] == {"killed": ["m1", "m2"], "score": pytest.approx(2 / 3, abs=1e-4)}
    assert per["task::c"]["score"] is None and per["task::c"]["killed"] == []
    assert "excluded" in per["task::c"]
    detail = {d["id"]: d for d in report["mutants_detail"]}
    assert detail["m1"]["killed_by"] == ["task::a", "task::b"]
    assert detail["m1"]["status"] == "killed"
    assert detail["m3"]["status"] == "survived" and detail["m3"]["killed_by"] == []
    assert detail["m4"]["status"] == "stillborn" and detail["m4"]["detail"] == "did not answer"
    assert detail["m5"]["status"] == "not_run" and detail["m5"]["killed_by"] == []
    assert set(detail["m1"]) >= {"id", "file", "line", "operator", "description", "killed_by"}


def test_no_valid_mutant_gives_no_score():
    none_valid = mutation_scores(MUTANTS[3:], RESULTS, ["t.py::a"])
    assert none_valid["valid"] == 0 and none_valid["score"] is None
    assert none_valid["per_test"]["t.py::a"]["score"] is None


def test_node_ids_map_to_cases():
    assert case_of("t.py::a[1-2]", CASES) == "task::a"
    assert case_of("t.py::z", CASES) == "t.py::z"
    assert case_of("t.py::a", None) == "t.py::a"
    task_json = {"test_cases": [{"id": "task::x", "name": "test_x",
                                 "file": "tests/test_api_compliance.py"},
                                {"id": "task::y", "name": "test_y",
                                 "file": "tests/existing/test_smoke.py"}]}
    assert case_map_from_task_json(task_json) == {
        "test_api_compliance.py::test_x": "task::x",
        "existing/test_smoke.py::test_y": "task::y",
    }


def test_rounds_merge_into_the_accepted_suites_report():
    """Round 0 ran a, b, c; round 1 ran the refined d. m4 did not start in round 0 but did in
    round 1 (valid); m5 never ran. Only the accepted cases (a, d, and c without credit) count."""
    round0 = mutation_scores(MUTANTS, RESULTS, ["t.py::a", "t.py::b"], CASES)
    round0.update(candidates=9, cap=5, seed=0, operators={"constant": 5})
    round1 = mutation_scores(MUTANTS, {"m4": MutantResult("m4", "ran", ["t.py::d"]),
                                       "m1": MutantResult("m1", "ran", [])},
                             ["t.py::d"], {"t.py::d": "task::d"})
    merged = merge_rounds([round0, round1], {"task::a": ["m1"], "task::d": ["m4", "m5"],
                                             "task::c": None})
    assert (merged["mutants"], merged["valid"], merged["killed"]) == (5, 4, 2)
    assert (merged["stillborn"], merged["not_run"]) == (0, 1)
    assert merged["score"] == 0.5 and merged["survived"] == 2
    detail = {d["id"]: d for d in merged["mutants_detail"]}
    assert detail["m1"]["killed_by"] == ["task::a"]  # b killed it too, but b is not accepted
    assert detail["m2"]["status"] == "survived" and detail["m2"]["killed_by"] == []
    assert detail["m4"]["status"] == "killed" and detail["m4"]["killed_by"] == ["task::d"]
    assert detail["m5"]["status"] == "not_run"
    per = merged["per_test"]
    assert per["task::a"] == {"killed": ["m1"], "score": 0.25}
    assert per["task::d"]["killed"] == ["m4"]  # m5 never ran: no credit for it
    assert per["task::c"]["score"] is None and "excluded" in per["task::c"]
    assert (merged["cap"], merged["candidates"], merged["operators"]) == (5, 9, {"constant": 5})
    assert merge_rounds([], {"task::a": []}) is None


def test_scores_by_fault_kind():
    kinds = ["filter_ignored", "filter_ignored", "write_not_persisted", "constant", "constant"]
    mutants = [Mutant(id=m.id, file="app.py", line=1, operator=k, description=m.id, source="")
               for m, k in zip(MUTANTS, kinds, strict=True)]
    report = mutation_scores(mutants, RESULTS, ["t.py::a", "t.py::b"], CASES)
    # m1 (filter) killed, m2 (filter) killed, m3 (write) survived, m4/m5 did not run
    assert report["by_kind"] == {
        "filter_ignored": {"valid": 2, "killed": 2, "score": 1.0},
        "write_not_persisted": {"valid": 1, "killed": 0, "score": 0.0},
    }
    merged = merge_rounds([report], {"task::a": ["m1"]})
    assert merged["by_kind"]["filter_ignored"] == {"valid": 2, "killed": 1, "score": 0.5}
    assert {d["kind"] for d in merged["mutants_detail"]} == set(kinds)
