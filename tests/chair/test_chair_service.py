"""Deciding over a real store: every outcome's effect on status, task.json and the splits,
stale decisions after a rebuild, outdated pages and claims refused, decisions.jsonl round trip."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from pipeline.build_ui import task_status
from pipeline.chair.apply import apply_refines, pending_refines
from pipeline.chair.core import ChairError, Verdict
from pipeline.chair.files import export_decisions, import_decisions
from pipeline.chair.service import Submission, claim, counts, decide, load_case, queue
from pipeline.chair.stats import chair_stats
from pipeline.records import Scores
from pipeline.reports.release import publish_data
from pipeline.store import Store
from tests.chair.conftest import TASK, seed

A, B = f"{TASK}::test_a", f"{TASK}::test_b"
GOOD = Scores(correctness=3, coverage=2, readability=2, relevance=2)


def task_json(data: Path) -> dict:
    return json.loads((data / "verified" / TASK / "task.json").read_text())


def published_ids(data: Path) -> list[str]:
    return [c["id"] for c in task_json(data)["test_cases"]]


def test_queue_is_the_waiting_cases_in_triage_order(chair_data) -> None:
    data, store = chair_data
    items = queue(store)
    assert [i.view.case.case_id for i in items] == [A, B]
    assert items[0].triage.reason.startswith("evidence against the reviewers: kills 3 of 5")
    assert [i.view.case.case_id for i in queue(store, search="on test_b")] == [B]
    assert queue(store, state="decided") == []
    assert counts(store) == {"waiting": 2, "claimed": 0, "decided": 0, "stale": 0}


def test_accept_publishes_with_the_chairs_scores(chair_data) -> None:
    data, store = chair_data
    publish_data(data, store)
    assert published_ids(data) == [f"{TASK}::test_c"]
    d = decide(store, data, A, Submission(Verdict.ACCEPT, chair="alice", scores=GOOD))
    assert d.state_before == "waiting" and d.input_hash == "input-1" and d.code_hash
    publish_data(data, store)
    assert published_ids(data) == [A, f"{TASK}::test_c"]
    entry = task_json(data)["test_cases"][0]
    assert entry["route"]["area_chair"] == {"decision": "accept", "chair": "alice",
                                            "scores": GOOD.model_dump(), "note": ""}
    assert task_json(data)["area_chair"] == {"accepted": 1, "rejected": 0, "waiting": 1}
    assert "def test_a" in (data / "verified" / TASK / "tests" / "test_api_compliance.py"
                            ).read_text()
    status = task_status(store)["tasks"][TASK]
    assert (status["accepted"], status["chair_accepted"], status["area_chair"]) == (2, 1, 1)
    [line] = (data / "decisions.jsonl").read_text().splitlines()
    assert json.loads(line)["case_id"] == A and json.loads(line)["chair"] == "alice"
    assert [i.view.case.case_id for i in queue(store)] == [B]


def test_reject_discards_as_area_chair_and_needs_a_reason(chair_data) -> None:
    data, store = chair_data
    with pytest.raises(ChairError, match="reject needs a reason"):
        decide(store, data, B, Submission(Verdict.REJECT, chair="bob", note=" "))
    decide(store, data, B,
           Submission(Verdict.REJECT, chair="bob", note="asserts an undocumented field"))
    publish_data(data, store)
    assert B not in published_ids(data)
    status = task_status(store)["tasks"][TASK]
    assert status["discarded"] == {"area_chair": 1} and status["chair_rejected"] == 1
    assert task_json(data)["area_chair"] == {"accepted": 0, "rejected": 1, "waiting": 1}


def test_refine_sends_the_case_back_with_the_note(chair_data) -> None:
    data, store = chair_data
    decide(store, data, A, Submission(Verdict.REFINE, chair="carol", note="assert the pong field"))
    row = store.get_task(TASK)
    assert [v.case.case_id for v in pending_refines(store, row)] == [A]
    assert task_status(store)["tasks"][TASK]["refining"] == 1
    seen = []

    def refine(case, evidence, reviews, note):
        seen.append((case.round, len(reviews), evidence.passed, note))
        return case.model_copy(update={"code": case.code + "    assert True\n",
                                       "origin": "refined"})

    assert apply_refines(store, row, refine) == 1
    assert seen == [(0, 3, True, "assert the pong field")]
    assert [c.round for c in store.case_versions(A)] == [0, 1]
    route = store.routes_for(A)[-1]
    assert (route.round, route.route, route.reason) == (0, "refine",
                                                        "Area Chair carol: assert the pong field")
    assert pending_refines(store, row) == []  # done once: the next build does not redo it
    assert load_case(store, A).state == "refining"


def test_an_unchanged_refine_is_discarded_not_looped(chair_data) -> None:
    data, store = chair_data
    decide(store, data, A, Submission(Verdict.REFINE, chair="carol", note="make it better"))
    apply_refines(store, store.get_task(TASK), lambda case, ev, rv, note: case)
    assert store.latest_route(A).route == "discarded"
    assert [c.round for c in store.case_versions(A)] == [0]


def test_after_a_rebuild_an_old_accept_is_stale_and_the_case_waits_again(chair_data) -> None:
    data, store = chair_data
    decide(store, data, A, Submission(Verdict.ACCEPT, chair="alice", scores=GOOD))
    store.reset_task(TASK)  # what build does when README/oracle/code change
    seed(store, data, input_hash="input-2")
    view = load_case(store, A)
    assert view.state == "waiting" and view.decision is None
    assert [d.chair for d in view.stale] == ["alice"]
    assert [i.view.case.case_id for i in queue(store, state="stale")] == [A]
    publish_data(data, store)
    assert A not in published_ids(data)


def test_an_outdated_page_never_overwrites(chair_data) -> None:
    data, store = chair_data
    seen = load_case(store, A)
    first = decide(store, data, A, Submission(
        Verdict.ACCEPT, chair="alice", scores=GOOD, expected_version=seen.version.token,
        expected_last=0))
    with pytest.raises(ChairError, match="already decided .accept by alice.*nothing was "
                                         "overwritten"):
        decide(store, data, A, Submission(Verdict.REJECT, chair="bob", note="no",
                                          expected_version=seen.version.token,
                                          expected_last=0))
    with pytest.raises(ChairError, match="changed since the page was opened"):
        decide(store, data, B, Submission(Verdict.REJECT, chair="bob", note="no",
                                          expected_version="0:other:input-1",
                                          expected_last=0))
    with pytest.raises(ChairError, match="pass --revise"):
        decide(store, data, A, Submission(Verdict.REJECT, chair="alice", note="changed my mind"))
    # a page that showed the latest decision may revise
    decide(store, data, A, Submission(Verdict.REJECT, chair="alice", note="changed my mind",
                                      expected_last=first.id))
    assert load_case(store, A).state == "chair_rejected"
    assert [d.decision for d in store.ac_decisions(A)] == ["accept", "reject"]  # both kept


def test_a_claimed_case_refuses_other_chairs_until_the_lease_ends(chair_data) -> None:
    data, store = chair_data
    t0 = datetime(2026, 1, 1, tzinfo=UTC)
    assert claim(store, A, "alice", t0) == "alice"
    assert claim(store, A, "bob", t0 + timedelta(minutes=1)) == "alice"
    assert [i.claimed_by for i in queue(store, state="claimed", at=t0)] == ["alice"]
    with pytest.raises(ChairError, match="claimed by alice"):
        decide(store, data, A, Submission(Verdict.REJECT, chair="bob", note="no"), at=t0)
    assert claim(store, A, "bob", t0 + timedelta(hours=1)) == "bob"  # alice's lease expired
    d = decide(store, data, A, Submission(Verdict.ACCEPT, chair="bob", scores=GOOD),
               at=t0 + timedelta(hours=1, seconds=42))
    assert d.opened_at is not None and store.chair_claims(d.submitted_at) == {}
    stats = chair_stats(store)["chairs"]["bob"]
    assert stats["decisions"] == 1 and stats["median_seconds"] == 42.0
    assert stats["agreement"] == 0.0  # accepted a case whose reviewers' mean was 6.67


def test_only_cases_with_the_chair_can_be_decided(chair_data) -> None:
    data, store = chair_data
    with pytest.raises(ChairError, match="not with the Area Chair"):
        decide(store, data, f"{TASK}::test_c", Submission(Verdict.REJECT, chair="a", note="x"))
    with pytest.raises(ChairError, match="no case 'nope::x'"):
        decide(store, data, "nope::x", Submission(Verdict.REJECT, chair="a", note="x"))


def test_lost_state_db_rebuilt_and_imported_gives_the_same_splits(chair_data) -> None:
    data, store = chair_data
    decide(store, data, A, Submission(Verdict.ACCEPT, chair="alice", scores=GOOD))
    decide(store, data, B, Submission(Verdict.REJECT, chair="bob", note="undocumented field"))
    publish_data(data, store)
    before = (data / "verified" / TASK / "task.json").read_bytes()
    store.close()
    (data / ".repogenesis" / "state.db").unlink()
    with Store.open(data / ".repogenesis" / "state.db") as fresh:
        seed(fresh, data)  # the rebuild
        assert import_decisions(fresh, data / "decisions.jsonl") == (2, 0)
        assert import_decisions(fresh, data / "decisions.jsonl") == (0, 2)  # idempotent
        publish_data(data, fresh)
        assert (data / "verified" / TASK / "task.json").read_bytes() == before
        out = data / "copy.jsonl"
        assert export_decisions(fresh, out) == 2
        assert out.read_text() == (data / "decisions.jsonl").read_text()


def test_a_bad_decisions_file_is_refused_whole(chair_data, tmp_path: Path) -> None:
    data, store = chair_data
    bad = tmp_path / "d.jsonl"
    good = {"case_id": A, "round": 0, "decision": "reject", "chair": "x", "note": "n",
            "submitted_at": "2026-01-01T00:00:00.000+00:00"}
    bad.write_text(json.dumps(good) + "\n" + json.dumps(good | {"decision": "maybe"}) + "\n")
    with pytest.raises(ChairError, match=r"d.jsonl:2: not a decision line"):
        import_decisions(store, bad)
    assert store.ac_decisions() == []


def test_a_pipeline_upgrade_keeps_decisions_and_a_task_edit_ends_them(chair_data) -> None:
    data, store = chair_data
    store.upsert_task(TASK, content_hash="files-1")
    decide(store, data, A, Submission(Verdict.ACCEPT, chair="alice", scores=GOOD))
    store.reset_task(TASK)  # new pipeline code: a new build hash, the same task files
    seed(store, data, input_hash="input-2")
    store.upsert_task(TASK, content_hash="files-1")
    assert load_case(store, A).state == "chair_accepted"
    store.reset_task(TASK)  # the README was edited
    seed(store, data, input_hash="input-3")
    store.upsert_task(TASK, content_hash="files-2")
    view = load_case(store, A)
    assert view.state == "waiting" and [d.chair for d in view.stale] == ["alice"]


def test_decision_values_are_an_enum_in_the_store_too(chair_data) -> None:
    import sqlite3

    _, store = chair_data
    with pytest.raises(sqlite3.IntegrityError, match="accept, reject or refine"):
        store.add_ac_decision(A, 0, "maybe", chair="x")
    assert store.ac_decisions() == []
