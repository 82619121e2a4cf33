"""Chair decisions through real builds (tiny stdlib task): a refine note reaches the refiner
and the next version is executed, reviewed and routed; after the README changes and the task
is rebuilt, an old accept is shown as stale and not applied to the new version."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from pipeline.backend import OfflineBackend
from pipeline.chair.core import Verdict
from pipeline.chair.service import Submission, decide, load_case, queue
from pipeline.execution import free_port
from pipeline.records import Review, Scores, Spec, TestCase
from pipeline.reports.release import publish_data
from pipeline.stages.build import BuildOptions, build
from pipeline.store import Store

pytestmark = pytest.mark.slow

CODE = '''def test_ping(base_url, session):
    response = session.get(f"{base_url}/ping")
    assert response.status_code == 200
    assert response.json() == {"pong": True}
'''
HIGH, LOW = Scores(correctness=3, coverage=3, readability=2, relevance=2), \
    Scores(correctness=1, coverage=1, readability=1, relevance=1)


class Disputed(OfflineBackend):
    """One case; round 0 splits the reviewers (10, 10, 4: to the Area Chair), later rounds
    agree (10, 10, 10). Records every note the refiner is given."""

    def __init__(self) -> None:
        self.notes: list[str | None] = []

    def generate(self, task_id: str, spec: Spec, readme: str) -> list[TestCase]:
        return [TestCase(case_id=f"{task_id}::test_ping", task_id=task_id, round=0,
                         category="api_compliance", name="test_ping", code=CODE,
                         endpoints=["GET /ping"])]

    def review(self, case, evidence, spec, readme, rubric) -> list[Review]:
        scores = [HIGH, HIGH, LOW if case.round == 0 else HIGH]
        return [Review(case_id=case.case_id, round=case.round, reviewer=f"r{i}", scores=s,
                       rationale="fine" if s is HIGH else "status only", rubric_hash="x")
                for i, s in enumerate(scores)]

    def refine(self, case, evidence, reviews, spec, readme, note=None) -> TestCase:
        self.notes.append(note)
        return case.model_copy(update={"code": case.code + "    assert 'pong' in response.text\n",
                                       "origin": "refined"})


def make(data: Path, task_factory) -> Path:
    port = free_port()
    return task_factory(data / "raw", "ping", port, toml=textwrap.dedent(f"""\
        id = "ping"
        language = "python"
        framework = "stdlib"
        domain = "test"
        source = "expert"
        port = {port}
        split = "verified"
        """))


def run_build(data: Path, store: Store, backend: Disputed, state: str = "done") -> None:
    results = build(BuildOptions(data_dir=data, backend=backend, mutation_cap=0, runs=1),
                    store, lambda *_: None)
    assert [r.state for r in results] == [state]
    publish_data(data, store)


def suite(data: Path) -> list[tuple[str, int]]:
    task = json.loads((data / "verified" / "ping" / "task.json").read_text())
    return [(c["id"], c["provenance"]["round"]) for c in task["test_cases"]]


def test_refine_note_reaches_the_refiner_and_the_next_version_is_routed(
        tmp_path: Path, task_factory) -> None:
    data, backend = tmp_path / "data", Disputed()
    make(data, task_factory)
    with Store.open(data / ".repogenesis" / "state.db") as store:
        run_build(data, store, backend)
        assert [i.view.case.case_id for i in queue(store)] == ["ping::test_ping"]
        assert not (data / "verified" / "ping").exists()  # nothing accepted: unpublished
        decide(store, data, "ping::test_ping",
               Submission(Verdict.REFINE, chair="carol", note="also assert the word pong"))
        run_build(data, store, backend)  # not "reused": the chair's refine is new work
        assert backend.notes == ["also assert the word pong"]
        assert store.evidence_for("ping::test_ping", 1).passed
        assert store.latest_route("ping::test_ping").route == "accepted"
        assert suite(data) == [("ping::test_ping", 1)]
        run_build(data, store, backend, "reused")
        assert backend.notes == ["also assert the word pong"]  # applied once


def test_an_accept_is_stale_after_the_readme_changes(tmp_path: Path, task_factory) -> None:
    data, backend = tmp_path / "data", Disputed()
    task_dir = make(data, task_factory)
    with Store.open(data / ".repogenesis" / "state.db") as store:
        run_build(data, store, backend)
        decide(store, data, "ping::test_ping",
               Submission(Verdict.ACCEPT, chair="alice", scores=HIGH))
        publish_data(data, store)
        assert suite(data) == [("ping::test_ping", 0)]
        readme = task_dir / "README.md"
        readme.write_text(readme.read_text() + "\nThe pong field is always true.\n")
        run_build(data, store, backend)
        view = load_case(store, "ping::test_ping")
        assert view.state == "waiting" and view.decision is None
        assert [d.chair for d in view.stale] == ["alice"]
        assert not (data / "verified" / "ping").exists()  # nothing accepted: unpublished
