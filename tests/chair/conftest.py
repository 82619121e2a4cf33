"""A data folder whose store holds a finished verified task with cases at the Area Chair,
written through the store's own methods (no build, no services)."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from pipeline.records import (
    AlternativeRun,
    Evidence,
    MutationEvidence,
    Review,
    RouteDecision,
    RunResult,
    Scores,
)
from pipeline.records import TestCase as Case
from pipeline.spec import load_spec
from pipeline.store import Store

TASK = "ping"
INPUT_HASH = "input-1"
XSS = "</pre><script>window.pwned = 1</script>"
UNSTATED = '\n            assert response.headers.get("X-Served-By") == "ping-1"'
ALT_FAILURE = "AssertionError: assert None == 'ping-1'"


def code(name: str, extra: str = "") -> str:
    return textwrap.dedent(f"""\
        def {name}(base_url, session):
            response = session.get(f"{{base_url}}/ping")
            assert response.status_code == 200{extra}
        """)


# case name → (reviewer totals as scores, mutants killed, route)
CASES = {
    "test_a": ([(0, 1, 1, 1), (3, 2, 2, 1), (3, 3, 2, 1)], 3, "area_chair"),  # 3, 8, 9
    "test_b": ([(1, 1, 2, 1), (3, 2, 2, 2), (3, 2, 2, 2)], 0, "area_chair"),  # 5, 9, 9
    "test_c": ([(3, 2, 2, 1), (3, 2, 2, 1), (3, 3, 2, 1)], 1, "accepted"),  # 8, 8, 9
}
REVIEWERS = ("offline:execution", "offline:spec", "offline:static")


def seed(store: Store, data: Path, input_hash: str = INPUT_HASH) -> None:
    from tests.conftest import make_task

    if not (data / "raw" / TASK).is_dir():
        make_task(data / "raw", TASK, 18999, toml=textwrap.dedent(f"""\
            id = "{TASK}"
            language = "python"
            framework = "stdlib"
            domain = "test"
            source = "expert"
            port = 18999
            split = "verified"
            """))
    spec = load_spec(data / "raw" / TASK / "README.md")
    store.upsert_task(TASK, input_hash=input_hash, split="verified", state="done", spec=spec)
    for name, (scores, kills, route) in CASES.items():
        extra = {"test_a": f"  # {XSS}",  # test_b asserts what the README does not state
                 "test_b": UNSTATED}.get(name, "")
        case = Case(case_id=f"{TASK}::{name}", task_id=TASK, round=0, category="api_compliance",
                    name=name, code=code(name, extra), endpoints=["GET /ping"])
        store.save_case(case)
        store.save_evidence(Evidence(
            case_id=case.case_id, round=0, runs=[RunResult(outcome="passed", output="1 passed")],
            requests=["GET /ping"], alternatives=[AlternativeRun(
                name="a", outcome="failed" if name == "test_b" else "passed",
                output=ALT_FAILURE if name == "test_b" else "1 passed")],
            mutation=MutationEvidence(
                valid=5, killed=[f"server.py:{i}:op:0" for i in range(kills)])))
        for reviewer, s in zip(REVIEWERS, scores, strict=True):
            store.save_review(Review(case_id=case.case_id, round=0, reviewer=reviewer,
                                     scores=Scores(correctness=s[0], coverage=s[1],
                                                   readability=s[2], relevance=s[3]),
                                     rationale=f"{reviewer} on {name}", rubric_hash="r"))
        totals = sorted(sum(s) for s in scores)
        store.save_route(RouteDecision(case_id=case.case_id, round=0, route=route,
                                       reason=f"{route} (totals {totals})",
                                       mean=sum(totals) / 3, spread=totals[-1] - totals[0]))


@pytest.fixture
def chair_data(tmp_path: Path):
    data = tmp_path / "data"
    store = Store.open(data / ".repogenesis" / "state.db")
    seed(store, data)
    yield data, store
    store.close()
