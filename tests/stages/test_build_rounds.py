"""Every round's passing versions meet the mutants before review: a status-only case and its
refined, body-checking version each carry their own kills (tiny stdlib task)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pipeline.backend import OfflineBackend
from pipeline.execution import free_port
from pipeline.records import Spec, TestCase
from pipeline.stages.build import BuildOptions, build
from pipeline.stages.publish import publish
from pipeline.store import Store
from pipeline.tasks import load_task

pytestmark = pytest.mark.slow

WEAK = '''def test_ping(base_url, session):
    assert session.get(f"{base_url}/ping").status_code == 200
'''
STRONG = '''def test_ping(base_url, session):
    response = session.get(f"{base_url}/ping")
    assert response.status_code == 200
    assert response.json() == {"pong": True}
'''


class WeakFirst(OfflineBackend):
    """Generates one status-only case; refining it adds the body check."""

    def generate(self, task_id: str, spec: Spec, readme: str) -> list[TestCase]:
        return [TestCase(case_id=f"{task_id}::test_ping", task_id=task_id, round=0,
                         category="api_compliance", name="test_ping", code=WEAK,
                         endpoints=["GET /ping"])]

    def refine(self, case, evidence, reviews, spec, readme, note=None) -> TestCase:
        return case.model_copy(update={"code": STRONG, "origin": "refined"})


def test_each_round_is_run_against_the_mutants_before_review(tmp_path: Path,
                                                             task_factory) -> None:
    data = tmp_path / "data"
    task_dir = task_factory(data / "raw", "ping", free_port())
    with Store.open(data / ".repogenesis" / "state.db") as store:
        results = build(BuildOptions(data_dir=data, backend=WeakFirst(), mutation_cap=12,
                                     mutation_jobs=2), store, lambda *_: None)
        assert [r.state for r in results] == ["done"]
        case_id = "ping::test_ping"
        first, second = (store.evidence_for(case_id, rnd) for rnd in (0, 1))
        assert store.latest_route(case_id).route == "accepted"
        assert first.mutation is not None and second.mutation is not None
        assert first.mutation.valid == second.mutation.valid > 3
        assert set(first.mutation.killed) < set(second.mutation.killed)
        reviews = {r.round: r.rationale for r in store.reviews_for(case_id, 0)
                   + store.reviews_for(case_id, 1) if r.reviewer == "offline:execution"}
        assert f"kills {len(second.mutation.killed)} of the" in reviews[1]
        publish(data, store, {"ping": load_task(task_dir)})
    task_json = json.loads((data / "train" / "ping" / "task.json").read_text())
    [entry] = task_json["test_cases"]
    assert entry["provenance"]["round"] == 1
    assert entry["mutation"]["killed"] == sorted(second.mutation.killed)
    assert task_json["mutation"]["killed"] == len(second.mutation.killed)


def test_a_round_reads_each_versions_evidence_once_before_routing_it(tmp_path: Path,
                                                                     task_factory) -> None:
    """Execute, mutants, prefetch and review share what the round read: no case version's
    evidence is fetched from the store again between its round's start and its route."""
    data = tmp_path / "data"
    task_factory(data / "raw", "ping", free_port())
    events: list[tuple[str, tuple[str, int]]] = []
    with Store.open(data / ".repogenesis" / "state.db") as store:
        read, route = store.evidence_for, store.save_route

        def evidence_for(case_id: str, round: int):
            events.append(("read", (case_id, round)))
            return read(case_id, round)

        def save_route(decision):
            events.append(("route", (decision.case_id, decision.round)))
            return route(decision)

        store.evidence_for, store.save_route = evidence_for, save_route
        results = build(BuildOptions(data_dir=data, backend=WeakFirst(), mutation_cap=4,
                                     mutation_jobs=2), store, lambda *_: None)
    assert [r.state for r in results] == ["done"]
    routed = [key for kind, key in events if kind == "route"]
    assert routed[:2] == [("ping::test_ping", 0), ("ping::test_ping", 1)]
    for key in routed[:2]:
        before = events[:events.index(("route", key))]
        assert [e for e in before if e == ("read", key)] == [("read", key)], key
