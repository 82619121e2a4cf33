"""The SQLite state store: migrations, WAL, round-trips, status, reset, AC append-only, SIGKILL."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from pipeline.records import (
    Difficulty,
    DifficultyMetrics,
    DifficultyPoints,
    Endpoint,
    Evidence,
    MutationEvidence,
    Review,
    RouteDecision,
    RunResult,
    Scores,
    Spec,
    TestCase,
)
from pipeline.store import MIGRATIONS_DIR, Store

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def store(tmp_path: Path):
    s = Store.open(tmp_path / "state.db")
    yield s
    s.close()


def case(task: str = "t1", name: str = "test_a", round: int = 0, code: str = "def f(): ...",
         **kw) -> TestCase:
    return TestCase(case_id=f"{task}::{name}", task_id=task, round=round,
                    category=kw.pop("category", "api_compliance"), name=name, code=code,
                    endpoints=kw.pop("endpoints", ["GET /items"]), **kw)


def route(c: TestCase, route: str, discard: str | None = None) -> RouteDecision:
    return RouteDecision(case_id=c.case_id, round=c.round, route=route, reason=f"{route} because",
                         discard_reason=discard, mean=6.5, spread=2)


def review(c: TestCase, reviewer: str, scores: Scores | None = None) -> Review:
    return Review(case_id=c.case_id, round=c.round, reviewer=reviewer, scores=scores,
                  rationale="ran it", rubric_hash="abc", error=None if scores else "boom")


def tables(path: Path) -> set[str]:
    with sqlite3.connect(path) as conn:
        return {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}


# --- schema -------------------------------------------------------------------------------

def test_fresh_db_has_every_table_wal_and_pragmas(store: Store, tmp_path: Path) -> None:
    assert {"schema_migrations", "tasks", "test_cases", "evidence", "reviews", "routes",
            "stage_markers", "llm_calls", "area_chair_decisions"} <= tables(tmp_path / "state.db")
    conn = store._conn
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert conn.execute("PRAGMA foreign_keys").fetchone()[0] == 1
    assert conn.execute("PRAGMA synchronous").fetchone()[0] == 1  # NORMAL
    assert conn.execute("PRAGMA busy_timeout").fetchone()[0] > 0


def test_migrations_are_idempotent_on_reopen(tmp_path: Path) -> None:
    db = tmp_path / "state.db"
    Store.open(db).close()
    with Store.open(db) as s:
        s.upsert_task("t1", split="train")
    with Store.open(db) as s:
        rows = s._conn.execute("SELECT version, name FROM schema_migrations").fetchall()
        shipped = sorted(p.name for p in MIGRATIONS_DIR.glob("*.sql"))
        assert rows == [(int(name[:4]), name) for name in shipped]
        assert s.get_task("t1") is not None


def test_newer_migration_is_applied_to_an_old_db(tmp_path: Path) -> None:
    mig = tmp_path / "migrations"
    mig.mkdir()
    shutil.copy(MIGRATIONS_DIR / "0001_init.sql", mig)
    db = tmp_path / "state.db"
    with Store.open(db, migrations_dir=mig) as s:
        s.upsert_task("old", split="verified")
        assert s.schema_version() == 1
    (mig / "0002_task_note.sql").write_text(
        "-- a later change\nALTER TABLE tasks ADD COLUMN note TEXT;\n"
        "UPDATE tasks SET note = 'migrated';\n"
    )
    with Store.open(db, migrations_dir=mig) as s:
        assert s.schema_version() == 2
        assert s._conn.execute("SELECT note FROM tasks WHERE id='old'").fetchone() == ("migrated",)
        assert s.get_task("old").split == "verified"


def test_a_lower_migration_merged_later_is_still_applied(tmp_path: Path) -> None:
    """Branches reserve numbers: a DB at 0003 still gets a 0002 that arrives with a merge."""
    mig = tmp_path / "migrations"
    mig.mkdir()
    shutil.copy(MIGRATIONS_DIR / "0001_init.sql", mig)
    (mig / "0003_b.sql").write_text("CREATE TABLE from_b (x);\n")
    db = tmp_path / "state.db"
    with Store.open(db, migrations_dir=mig) as s:
        assert s.schema_version() == 3
    (mig / "0002_a.sql").write_text("CREATE TABLE from_a (x);\n")
    with Store.open(db, migrations_dir=mig) as s:
        assert {"from_a", "from_b"} <= tables(db)
    (mig / "0002_again.sql").write_text("SELECT 1;\n")
    with pytest.raises(RuntimeError, match="distinct numbers"):
        Store.open(db, migrations_dir=mig)


def test_a_refined_version_keeps_its_rebuttal(store: Store) -> None:
    from pipeline.records import Answer, TestCase

    case = TestCase(case_id="t::test_a", task_id="t", round=1, category="edge_case",
                    name="test_a", code="def test_a():\n    assert 1\n", origin="refined",
                    rebuttal=[Answer(reviewer="r1", changed="added a check"),
                              Answer(reviewer="r2", disagree="it passes every run")])
    store.upsert_task("t", split="train")
    store.save_case(case)
    (back,) = store.cases_for_round("t", 1)
    assert back.rebuttal == case.rebuttal


def test_a_failing_migration_is_rolled_back_whole(tmp_path: Path) -> None:
    mig = tmp_path / "migrations"
    mig.mkdir()
    shutil.copy(MIGRATIONS_DIR / "0001_init.sql", mig)
    db = tmp_path / "state.db"
    Store.open(db, migrations_dir=mig).close()
    (mig / "0002_bad.sql").write_text("CREATE TABLE half (x);\nSELECT * FROM no_such_table;\n")
    with pytest.raises(sqlite3.OperationalError):
        Store.open(db, migrations_dir=mig)
    assert "half" not in tables(db)
    with Store.open(db) as s:  # the shipped migrations still open it (and apply their 0002)
        assert s.schema_version() == max(int(p.name[:4]) for p in MIGRATIONS_DIR.glob("*.sql"))


def test_a_db_newer_than_the_code_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "state.db"
    Store.open(db).close()
    with sqlite3.connect(db) as conn:
        conn.execute("INSERT INTO schema_migrations VALUES (99, '0099_future.sql', 'x')")
    with pytest.raises(RuntimeError, match="newer than this code"):
        Store.open(db)


# --- round-trips --------------------------------------------------------------------------

def test_task_round_trip_and_partial_update(store: Store) -> None:
    spec = Spec(title="Items", port=8000, endpoints=[
        Endpoint(method="get", path="/items/{id}", status_codes={200: "ok", 404: "missing"})])
    diff = Difficulty(score=5.2, level="Medium", metrics=DifficultyMetrics(loc=300),
                      points=DifficultyPoints(loc=4.0))
    store.upsert_task("t1", input_hash="h1", split="auto", spec=spec, difficulty=diff)
    store.upsert_task("t1", state="failed", error="oracle died")  # keeps the rest
    t = store.get_task("t1")
    assert (t.input_hash, t.split, t.state, t.error) == ("h1", "auto", "failed", "oracle died")
    assert t.spec == spec and t.difficulty == diff
    store.upsert_task("t1", error=None, state="done")
    assert store.get_task("t1").error is None
    assert [x.id for x in store.tasks()] == ["t1"]
    assert store.get_task("nope") is None


def test_case_evidence_review_route_round_trip(store: Store) -> None:
    store.upsert_task("t1", split="verified")
    c0 = case(origin="generated", author="offline")
    c1 = case(round=1, code="def g(): ...", origin="refined", category="edge_case",
              endpoints=["GET /items", "POST /items"])
    other = case(name="test_b", category="integration")
    for c in (c0, c1, other):
        store.save_case(c)
    assert store.latest_cases("t1") == [c1, other]
    assert store.cases_for_round("t1", 0) == [c0, other]

    ev = Evidence(case_id=c1.case_id, round=1, requests=["GET /items"], runs=[
        RunResult(outcome="passed", output="ok", duration_s=0.25),
        RunResult(outcome="timeout", output="hung", duration_s=30.0)])
    store.save_evidence(ev)
    assert store.evidence_for(c1.case_id, 1) == ev
    assert store.evidence_for(c1.case_id, 0) is None
    killed = ev.model_copy(update={"mutation": MutationEvidence(valid=9, killed=["a.py:3:x:1"])})
    store.save_evidence(killed)  # the mutants' verdict is added to the same evidence row
    assert store.evidence_for(c1.case_id, 1) == killed

    good = review(c1, "offline:static", Scores(correctness=3, coverage=2, readability=2,
                                                relevance=1))
    bad = review(c1, "offline:spec")
    store.save_review(good)
    store.save_review(bad)
    assert store.reviews_for(c1.case_id, 1) == [bad, good]  # ordered by reviewer
    store.save_review(good.model_copy(update={"rationale": "again"}))  # upsert, not duplicate
    assert len(store.reviews_for(c1.case_id, 1)) == 2
    assert [r.case_id for r in store.all_reviews("t1")] == [c1.case_id] * 2

    d = RouteDecision(case_id=c1.case_id, round=1, route="discarded", reason="spread 4 > 3",
                      discard_reason="conflict", mean=6.67, spread=4)
    store.save_route(route(c1, "refine"))
    store.save_route(d)
    assert store.latest_route(c1.case_id) == d
    assert store.routes_for(c1.case_id) == [route(c1, "refine"), d]
    assert store.latest_route("t1::nothing") is None


def test_changed_code_drops_stale_evidence_reviews_routes(store: Store) -> None:
    store.upsert_task("t1")
    c = case()
    store.save_case(c)
    store.save_evidence(Evidence(case_id=c.case_id, round=0, runs=[RunResult(outcome="passed")]))
    store.save_review(review(c, "r1"))
    store.save_route(route(c, "refine"))
    store.save_case(c)  # same code: keeps everything
    assert store.reviews_for(c.case_id, 0)
    store.save_case(c.model_copy(update={"code": "def changed(): ..."}))
    assert store.evidence_for(c.case_id, 0) is None
    assert store.reviews_for(c.case_id, 0) == [] and store.latest_route(c.case_id) is None


def test_rows_need_their_parents(store: Store) -> None:
    with pytest.raises(sqlite3.IntegrityError):
        store.save_case(case(task="unknown"))
    with pytest.raises(sqlite3.IntegrityError):
        store.save_review(review(case(), "r1"))


def test_stage_markers(store: Store) -> None:
    store.upsert_task("t1")
    assert not store.is_done("t1", "generate", 0, "h1")
    store.mark_done("t1", "generate", 0, "h1")
    assert store.is_done("t1", "generate", 0, "h1")
    assert not store.is_done("t1", "generate", 0, "h2")  # inputs changed: redo
    assert not store.is_done("t1", "generate", 1, "h1")
    store.mark_done("t1", "generate", 0, "h2")
    assert store.is_done("t1", "generate", 0, "h2") and not store.is_done("t1", "generate", 0, "h1")


# --- status -------------------------------------------------------------------------------

def test_status_counts_each_case_by_its_latest_route(store: Store) -> None:
    store.upsert_task("t1", split="verified")
    store.upsert_task("t2", split="train")
    store.upsert_task("t3", split="auto")  # nothing routed yet
    a0, a1 = case(name="a"), case(name="a", round=1)
    b, c, d, e = (case(name=n) for n in "bcde")
    f, g = case(task="t2", name="f"), case(task="t2", name="g")
    for x in (a0, a1, b, c, d, e, f, g):
        store.save_case(x)
    store.save_route(route(a0, "refine"))
    store.save_route(route(a1, "accepted"))  # a: refine then accepted -> accepted
    store.save_route(route(b, "area_chair"))
    store.save_route(route(c, "refine"))
    store.save_route(route(d, "accepted"))
    store.save_route(route(d, "discarded", "low_quality"))  # later transition wins
    # e has no route yet: counted nowhere
    store.save_route(route(f, "discarded", "conflict"))
    store.save_route(route(g, "discarded", "conflict"))
    assert store.status() == {"tasks": {
        "t1": {"split": "verified", "accepted": 1, "area_chair": 1, "refining": 1,
               "discarded": {"low_quality": 1}},
        "t2": {"split": "train", "accepted": 0, "area_chair": 0, "refining": 0,
               "discarded": {"conflict": 2}},
        "t3": {"split": "auto", "accepted": 0, "area_chair": 0, "refining": 0, "discarded": {}},
    }}


# --- reset and Area Chair -----------------------------------------------------------------

def test_reset_drops_derived_rows_but_keeps_area_chair_decisions(store: Store) -> None:
    store.upsert_task("t1", split="verified", input_hash="h", state="done")
    store.upsert_task("t2", split="train")
    c, keep = case(), case(task="t2", name="x")
    for x in (c, keep):
        store.save_case(x)
        store.save_evidence(Evidence(case_id=x.case_id, round=0, runs=[]))
        store.save_review(review(x, "r1"))
        store.save_route(route(x, "area_chair"))
    store.mark_done("t1", "generate", 0, "h")
    with store.transaction() as conn:
        for task in ("t1", "t2"):
            conn.execute("INSERT INTO mutation_rounds VALUES (?, 'h', 0, '{}')", (task,))
    ac = store.add_ac_decision(c.case_id, 0, "accept", chair="alice", note="fine",
                               scores=Scores(correctness=3, coverage=3, readability=2,
                                             relevance=2))
    store.reset_task("t1")
    assert store.latest_cases("t1") == [] and store.reviews_for(c.case_id, 0) == []
    assert store.evidence_for(c.case_id, 0) is None and store.latest_route(c.case_id) is None
    assert not store.is_done("t1", "generate", 0, "h")
    with store.transaction() as conn:
        left = conn.execute("SELECT task_id FROM mutation_rounds").fetchall()
    assert [r[0] for r in left] == ["t2"]
    t = store.get_task("t1")
    assert (t.split, t.state, t.input_hash) == ("verified", "pending", None)
    [decision] = store.ac_decisions(c.case_id)
    assert (decision.id, decision.decision, decision.chair, decision.scores.total) == (
        ac, "accept", "alice", 10)
    assert store.latest_cases("t2") == [keep]  # other tasks untouched
    assert store.latest_route(keep.case_id) is not None


def test_area_chair_decisions_cannot_be_updated_or_deleted(store: Store) -> None:
    store.add_ac_decision("t1::a", 0, "reject", chair="bob")
    store.add_ac_decision("t1::a", 0, "accept", chair="bob", note="changed my mind")
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        store._conn.execute("UPDATE area_chair_decisions SET decision = 'accept'")
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        store._conn.execute("DELETE FROM area_chair_decisions")
    with pytest.raises(sqlite3.IntegrityError, match="append-only"), store.transaction() as conn:
        conn.execute("DELETE FROM area_chair_decisions WHERE id = 1")
    assert [d.decision for d in store.ac_decisions()] == ["reject", "accept"]


# --- transactions and crashes -------------------------------------------------------------

def test_an_exception_rolls_back_the_whole_transaction(store: Store) -> None:
    store.upsert_task("t1")
    with pytest.raises(RuntimeError), store.transaction():
        store.save_case(case(name="a"))
        store.save_case(case(name="b"))  # nested write joins the outer transaction
        raise RuntimeError("stage crashed")
    assert store.latest_cases("t1") == []


CHILD = textwrap.dedent("""
    import os, sys
    from pipeline.records import Evidence, RouteDecision, RunResult, TestCase
    from pipeline.store import Store

    s = Store.open(sys.argv[1])
    def case(name, round):
        return TestCase(case_id="t1::" + name, task_id="t1", round=round,
                        category="edge_case", name=name, code="def f(): ...")
    s.upsert_task("t1", split="train")
    s.save_case(case("committed", 0))            # a finished round: must survive
    s.mark_done("t1", "generate", 0, "h")
    with s.transaction():                        # a round in progress when killed
        s.upsert_task("t1", state="reviewing")
        for i in range(200):
            c = case(f"half{i}", 0)
            s.save_case(c)
            s.save_evidence(Evidence(case_id=c.case_id, round=0,
                                     runs=[RunResult(outcome="passed", output="x" * 2000)]))
            s.save_route(RouteDecision(case_id=c.case_id, round=0, route="accepted",
                                       reason="mean 8 >= 7"))
        s.mark_done("t1", "review", 0, "h")
        print("writing", flush=True)
        os.kill(os.getpid(), 9)
""")


def test_sigkill_mid_transaction_leaves_nothing_half_written(tmp_path: Path) -> None:
    db = tmp_path / "state.db"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.run([sys.executable, "-c", CHILD, str(db)], env=env, cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == -9, proc.stderr
    assert "writing" in proc.stdout
    with Store.open(db) as s:
        assert s._conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert [c.name for c in s.latest_cases("t1")] == ["committed"]
        assert s.get_task("t1").state == "pending"
        assert s.is_done("t1", "generate", 0, "h") and not s.is_done("t1", "review", 0, "h")
        for table in ("evidence", "routes"):
            assert s._conn.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0] == 0
        assert s.status()["tasks"]["t1"]["accepted"] == 0
        s.save_case(TestCase(case_id="t1::after", task_id="t1", round=0, category="edge_case",
                             name="after", code="x"))  # writable again, no stale lock
