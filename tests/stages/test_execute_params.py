"""A parametrised test's instances (`name[a]`, `name[b]`) are one case: the worst outcome wins."""

from __future__ import annotations

from pipeline.execution.pytest_runner import TestOutcome
from pipeline.stages.execute import outcome_of

NODE = "test_mod.py::test_choice"


def outcomes(*items: tuple[str, str]) -> dict[str, TestOutcome]:
    return {nodeid: TestOutcome(nodeid=nodeid, outcome=status, output=f"out {nodeid}",
                                duration_s=0.5)
            for nodeid, status in items}


def test_a_plain_test_is_its_own_outcome() -> None:
    got = outcome_of(NODE, outcomes((NODE, "passed"), (f"{NODE}[x]", "failed")))
    assert got is not None and got.outcome == "passed" and got.nodeid == NODE


def test_instances_all_passing_pass_and_add_their_durations() -> None:
    got = outcome_of(NODE, outcomes((f"{NODE}[rock]", "passed"), (f"{NODE}[paper]", "passed")))
    assert got is not None
    assert (got.outcome, got.duration_s) == ("passed", 1.0)


def test_one_failing_instance_fails_the_case_and_names_itself() -> None:
    got = outcome_of(NODE, outcomes((f"{NODE}[rock]", "passed"), (f"{NODE}[paper]", "failed"),
                                    (f"{NODE}[scissors]", "error")))
    assert got is not None and got.outcome == "failed"
    assert f"{NODE}[paper]" in got.output


def test_a_test_with_a_longer_name_is_not_an_instance() -> None:
    assert outcome_of(NODE, outcomes((f"{NODE}_other", "passed"))) is None


def test_requests_of_instances_are_the_cases_requests(tmp_path) -> None:  # noqa: ANN001
    """Requests logged under `name[rock]` belong to the case `name` (were lost before)."""
    from pipeline.stages.execute import _requests_by_test

    log = tmp_path / "log.jsonl"
    import json

    rows = [(f"{NODE}[rock]", "GET", "/results"), (f"{NODE}[paper]", "GET", "/results"),
            (f"{NODE}[paper]", "POST", "/results"), ("test_mod.py::test_other", "GET", "/")]
    log.write_text("\n".join(json.dumps({"nodeid": n, "method": m, "path": p})
                             for n, m, p in rows), encoding="utf-8")
    got = _requests_by_test(log)
    assert got[NODE] == ["GET /results", "POST /results"]
    assert got["test_mod.py::test_other"] == ["GET /"]
    assert f"{NODE}[rock]" not in got
