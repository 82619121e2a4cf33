"""The published suite is run once before publishing: a case that passes in the build runs
but fails among the shipped files (it depends on what ran before it) is routed away."""

from __future__ import annotations

from pathlib import Path

from pipeline.execution.pytest_runner import TestRun, run_pytest
from pipeline.records import RouteDecision, TestCase
from pipeline.routing import PUBLISHED_FAILURE
from pipeline.stages.published_check import (
    SuiteRunners,
    accepted_now,
    check_published_suite,
    shipped_nodeid,
)
from pipeline.store import Store
from pipeline.suites import SuiteSources

CONFTEST = "import os\nimport builtins\n\nbuiltins.os = os\n"  # the cases use `os`


def _case(name: str, category: str, body: str) -> TestCase:
    return TestCase(case_id=f"t::{name}", task_id="t", round=0, category=category, name=name,
                    code=f"def {name}():\n" + "".join(f"    {ln}\n" for ln in body.splitlines()),
                    endpoints=["GET /x"])


def _store(tmp_path: Path, marker: Path) -> Store:
    store = Store.open(tmp_path / "state.db")
    store.upsert_task("t", input_hash="h", split="verified", state="running")
    # the api_compliance module runs before the error_handling one in the published suite:
    # the second case sees the file the first one leaves behind, and fails only there
    writer = _case("test_writes", "api_compliance",
                   f"open(os.path.join(os.path.dirname(__file__), {marker.name!r}), 'w')"
                   ".write('x')")
    reader = _case("test_needs_empty", "error_handling",
                   f"assert not os.path.exists(os.path.join(os.path.dirname(__file__), "
                   f"{marker.name!r})), 'leftover'")
    alone = _case("test_alone", "edge_case", "assert 1 + 1 == 2")
    with store.transaction():
        for case in (writer, reader, alone):
            store.save_case(case)
            store.save_route(RouteDecision(case_id=case.case_id, round=0, route="accepted",
                                           reason="mean 8 >= 7"))
    return store


def _runner(marker: Path):  # noqa: ANN202
    def run(suite: Path) -> TestRun:  # each run writes a fresh suite folder: no leftovers
        return run_pytest(suite, "http://127.0.0.1:9", 120)
    return run


def test_a_case_failing_only_in_the_published_suite_is_routed_away(tmp_path: Path) -> None:
    marker = tmp_path / "state.marker"
    store = _store(tmp_path, marker)
    reports: list[str] = []
    dropped = check_published_suite(store, "t", SuiteSources(CONFTEST),
                                    SuiteRunners(_runner(marker)),
                                    lambda task, msg: reports.append(msg))
    assert dropped == ["t::test_needs_empty"]
    route = store.latest_route("t::test_needs_empty")
    assert route is not None and route.route == "discarded"
    assert route.discard_reason == "fails_on_oracle"
    assert route.reason.startswith(PUBLISHED_FAILURE) and "leftover" in route.reason
    assert sorted(c.name for c in accepted_now(store, "t")) == ["test_alone", "test_writes"]
    assert reports == ["published suite: 1 case(s) fail on the oracle there and are not "
                       "published"]
    # a second check finds the remaining suite whole and changes nothing
    assert check_published_suite(store, "t", SuiteSources(CONFTEST),
                                 SuiteRunners(_runner(marker))) == []


def test_shipped_nodeids_follow_the_published_files() -> None:
    generated = _case("test_x", "integration", "assert True")
    assert shipped_nodeid(generated) == "test_integration.py::test_x"
    human = generated.model_copy(update={"origin": "existing", "module": "test_api",
                                         "test_class": "class TestApi:"})
    assert shipped_nodeid(human).startswith("existing/test_api.py::")


def test_an_area_chair_accept_is_never_undone_by_the_check(tmp_path: Path) -> None:
    """The chair-accepted case still runs in the published suite (it is published), but a
    failure there is reported, not turned into a discard over the human decision."""
    from pipeline.chair.core import Verdict
    from pipeline.chair.service import Submission, decide
    from pipeline.records import Scores

    marker = tmp_path / "state.marker"
    store = _store(tmp_path, marker)
    store.upsert_task("t", content_hash="files-1")
    store.save_route(RouteDecision(case_id="t::test_needs_empty", round=0, route="area_chair",
                                   reason="spread 4 > 3"))
    decide(store, tmp_path, "t::test_needs_empty", Submission(
        Verdict.ACCEPT, chair="alice",
        scores=Scores(correctness=3, coverage=2, readability=2, relevance=2)))
    assert "test_needs_empty" in {c.name for c in accepted_now(store, "t")}
    assert check_published_suite(store, "t", SuiteSources(CONFTEST),
                                 SuiteRunners(_runner(marker))) == []
    route = store.latest_route("t::test_needs_empty")
    assert route is not None and route.route == "area_chair"
    assert "test_needs_empty" in {c.name for c in accepted_now(store, "t")}
