"""The SQLite state store: every record of the build loop, durable and resumable.

Why SQLite and these settings: one file that survives SIGKILL (WAL journal, every write in a
transaction, so a killed build never leaves half a round), readable by the Area Chair app while
a build runs (WAL lets readers and one writer coexist), `synchronous=NORMAL` (safe against a
crashed process in WAL mode, only a power cut can lose the last commits), foreign keys on so
derived rows cascade away with their test case, and a busy timeout instead of "database is
locked" errors when the web app and a build write at once.

Schema changes are numbered SQL files in `pipeline/migrations/` (simonw/llm style), applied in
order inside a transaction and recorded in `schema_migrations`; an applied file is never edited.
"""

from __future__ import annotations

import json
import os
import re
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypedDict, Unpack

from pipeline.records import (
    Difficulty,
    Evidence,
    Review,
    RouteDecision,
    Spec,
    SplitName,
    TestCase,
)
from pipeline.store_chair import AreaChairDecision as AreaChairDecision  # re-exported
from pipeline.store_chair import ChairStore
from pipeline.store_llm import LlmStore
from pipeline.store_rows import TaskRow as TaskRow  # re-exported
from pipeline.store_rows import (
    case_row,
    now,
    review_row,
    route_row,
    task_row,
    upsert,
)

MIGRATIONS_DIR = Path(__file__).resolve().parent / "migrations"
_MIGRATION_RE = re.compile(r"^(\d{4})_[A-Za-z0-9_]+\.sql$")
BUSY_TIMEOUT_MS = 30_000


class TaskFields(TypedDict, total=False):
    """The task row's settable columns (`upsert_task`): a column left out keeps its value,
    None clears it."""

    input_hash: str | None
    content_hash: str | None
    split: SplitName | None
    state: str
    error: str | None
    spec: Spec | None
    difficulty: Difficulty | None
    runner: str | None


_PLAIN_COLUMNS = ("input_hash", "split", "state", "error", "content_hash", "runner")
_MODEL_COLUMNS = ("spec", "difficulty")  # stored as JSON






def _statements(sql: str) -> Iterator[str]:
    """Split a script into statements (sqlite3.complete_statement knows trigger bodies).

    Not `executescript`, which commits any open transaction first: a migration must be
    applied together with its schema_migrations row or not at all.
    """
    buf = ""
    for line in sql.splitlines(keepends=True):
        buf += line
        if sqlite3.complete_statement(buf):
            if buf.strip().strip(";").strip():
                yield buf
            buf = ""
    if any(ln.strip() and not ln.strip().startswith("--") for ln in buf.splitlines()):
        raise ValueError(f"incomplete SQL statement at the end of a migration: {buf[:80]!r}")


def _migrations(directory: Path) -> list[tuple[int, str, str]]:
    """(version, file name, SQL) for every numbered migration, in order; a number used twice
    is refused. Gaps are allowed: parallel branches reserve numbers, and each migration is
    applied by its own number, not by the highest one applied."""
    found: list[tuple[int, str, str]] = []
    for path in sorted(directory.iterdir()):
        m = _MIGRATION_RE.match(path.name)
        if m:
            found.append((int(m.group(1)), path.name, path.read_text(encoding="utf-8")))
    versions = [v for v, _, _ in found]
    if len(set(versions)) != len(versions) or not all(v >= 1 for v in versions):
        raise RuntimeError(f"migrations in {directory} must have distinct numbers from 0001")
    return found


class Store(ChairStore, LlmStore):
    """One connection per process; typed methods over the records in `pipeline.records`.

    Every write method runs in `transaction()`; calls made inside an outer `transaction()`
    join it, so a stage can commit a whole round at once or not at all.
    """

    def __init__(self, conn: sqlite3.Connection, path: str) -> None:
        self._conn = conn
        self.path = path
        self._pid = os.getpid()
        self._lock = threading.RLock()
        self._depth = 0

    # --- opening and schema -------------------------------------------------------------

    @classmethod
    def open(cls, path: str | Path, *, migrations_dir: Path | None = None) -> Store:
        """Open (creating if needed) the store at `path` and apply pending migrations."""
        if str(path) != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        conn = sqlite3.connect(
            str(path), isolation_level=None, timeout=BUSY_TIMEOUT_MS / 1000,
            check_same_thread=False,
        )
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=NORMAL")
        conn.execute("PRAGMA foreign_keys=ON")
        conn.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        store = cls(conn, str(path))
        store._migrate(migrations_dir or MIGRATIONS_DIR)
        return store

    def _migrate(self, directory: Path) -> None:
        """Apply each unapplied migration in its own transaction (re-checked under the lock
        of BEGIN IMMEDIATE, so two processes opening a fresh file do not both apply it)."""
        self._conn.execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations ("
            "version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)"
        )
        known = _migrations(directory)
        newest = self.schema_version()
        latest = max((v for v, _, _ in known), default=0)
        if newest > latest:
            raise RuntimeError(
                f"{self.path} is at schema version {newest}, newer than this code ({latest})"
            )
        for version, name, sql in known:
            if version in self._applied():
                continue
            with self.transaction() as conn:
                if version in self._applied():  # another process got there first
                    continue
                for statement in _statements(sql):
                    conn.execute(statement)
                conn.execute(
                    "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
                    (version, name, now()),
                )

    def _applied(self) -> set[int]:
        return {r[0] for r in self._conn.execute("SELECT version FROM schema_migrations")}

    def schema_version(self) -> int:
        row = self._conn.execute("SELECT MAX(version) FROM schema_migrations").fetchone()
        return int(row[0] or 0)

    def close(self) -> None:
        self._conn.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- transactions -------------------------------------------------------------------

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """BEGIN IMMEDIATE ... COMMIT, or ROLLBACK on any exception; nested calls join."""
        if os.getpid() != self._pid:
            raise RuntimeError("a Store connection cannot be used across fork; open a new one")
        with self._lock:
            if self._depth:
                self._depth += 1
                try:
                    yield self._conn
                finally:
                    self._depth -= 1
                return
            self._conn.execute("BEGIN IMMEDIATE")
            self._depth = 1
            try:
                yield self._conn
            except BaseException:
                if self._conn.in_transaction:  # SQLite may already have rolled back
                    self._conn.execute("ROLLBACK")
                raise
            else:
                self._conn.execute("COMMIT")
            finally:
                self._depth = 0

    def owned_by_this_thread(self) -> bool:
        """Whether the calling thread is inside `transaction()` (another thread's does not
        count): code that would wait on other threads' writes must not, or it deadlocks."""
        return self._depth > 0 and self._lock._is_owned()  # type: ignore[attr-defined]

    def _query(self, sql: str, params: tuple[Any, ...] = ()) -> list[sqlite3.Row]:
        with self._lock:
            cur = self._conn.execute(sql, params)
            cur.row_factory = sqlite3.Row
            return cur.fetchall()

    # --- tasks --------------------------------------------------------------------------

    def upsert_task(self, task_id: str, **given: Unpack[TaskFields]) -> None:
        """Create the task row if missing, then set only the fields given (None clears)."""
        unknown = sorted(set(given) - set(TaskFields.__annotations__))
        if unknown:
            raise TypeError(f"upsert_task() got unexpected keyword arguments {unknown}")
        values: dict[str, Any] = dict(given)
        fields: dict[str, Any] = {c: values[c] for c in _PLAIN_COLUMNS if c in values}
        for column in _MODEL_COLUMNS:
            if column in values:
                model = values[column]
                fields[column] = None if model is None else model.model_dump_json()
        fields["updated_at"] = now()
        with self.transaction() as conn:
            conn.execute(
                "INSERT INTO tasks (id, updated_at) VALUES (?, ?) ON CONFLICT (id) DO NOTHING",
                (task_id, fields["updated_at"]),
            )
            assignments = ", ".join(f"{c} = ?" for c in fields)
            conn.execute(
                f"UPDATE tasks SET {assignments} WHERE id = ?", (*fields.values(), task_id)
            )

    def get_task(self, task_id: str) -> TaskRow | None:
        rows = self._query("SELECT * FROM tasks WHERE id = ?", (task_id,))
        return task_row(rows[0]) if rows else None

    def tasks(self) -> list[TaskRow]:
        return [task_row(r) for r in self._query("SELECT * FROM tasks ORDER BY id")]

    def reset_task(self, task_id: str) -> None:
        """Drop everything derived from the task's inputs so it is rebuilt from scratch.

        Area Chair decisions are human work and stay (they have no foreign key to cascade
        through, and triggers refuse their deletion anyway); so does the llm_calls ledger.
        """
        with self.transaction() as conn:
            conn.execute("DELETE FROM test_cases WHERE task_id = ?", (task_id,))  # cascades
            conn.execute("DELETE FROM stage_markers WHERE task_id = ?", (task_id,))
            conn.execute("DELETE FROM mutation_rounds WHERE task_id = ?", (task_id,))
            conn.execute(
                "UPDATE tasks SET input_hash = NULL, state = 'pending', error = NULL, "
                "spec = NULL, difficulty = NULL, updated_at = ? WHERE id = ?",
                (now(), task_id),
            )

    def forget_task(self, task_id: str) -> None:
        """Drop a task and everything derived from it (a task removed from data/raw). Area
        Chair decisions stay (human work; triggers refuse their deletion), as does the
        llm_calls ledger (money spent) and the response cache."""
        with self.transaction() as conn:
            conn.execute("DELETE FROM chair_claims WHERE case_id IN (SELECT case_id FROM "
                         "test_cases WHERE task_id = ?)", (task_id,))
            conn.execute("DELETE FROM test_cases WHERE task_id = ?", (task_id,))  # cascades
            conn.execute("DELETE FROM stage_markers WHERE task_id = ?", (task_id,))
            conn.execute("DELETE FROM mutation_rounds WHERE task_id = ?", (task_id,))
            conn.execute("DELETE FROM tasks WHERE id = ?", (task_id,))

    # --- test cases, evidence, reviews, routes ------------------------------------------

    def save_case(self, case: TestCase) -> None:
        """Insert or update one case version. If its code changed, the evidence, reviews
        and routes of that version no longer describe it, so they are dropped."""
        with self.transaction() as conn:
            old = conn.execute(
                "SELECT code FROM test_cases WHERE case_id = ? AND round = ?",
                (case.case_id, case.round),
            ).fetchone()
            if old is not None and old[0] != case.code:
                for table in ("evidence", "reviews", "routes"):
                    conn.execute(
                        f"DELETE FROM {table} WHERE case_id = ? AND round = ?",
                        (case.case_id, case.round),
                    )
            row = case.model_dump()
            upsert(conn, "test_cases", {**row, "endpoints": json.dumps(case.endpoints),
                                         "rebuttal": json.dumps(row["rebuttal"])},
                    ("case_id", "round"))

    def latest_cases(self, task_id: str) -> list[TestCase]:
        """The highest-round version of every case of the task, ordered by case id."""
        return [case_row(r) for r in self._query(
            "SELECT * FROM test_cases t WHERE task_id = ? AND round = "
            "(SELECT MAX(round) FROM test_cases u WHERE u.case_id = t.case_id) "
            "ORDER BY case_id", (task_id,),
        )]

    def cases_for_round(self, task_id: str, round: int) -> list[TestCase]:
        return [case_row(r) for r in self._query(
            "SELECT * FROM test_cases WHERE task_id = ? AND round = ? ORDER BY case_id",
            (task_id, round),
        )]

    def save_evidence(self, evidence: Evidence) -> None:
        runs = json.dumps([r.model_dump(mode="json") for r in evidence.runs])
        mutation = evidence.mutation.model_dump_json() if evidence.mutation else None
        alternatives = json.dumps([a.model_dump(mode="json") for a in evidence.alternatives])
        with self.transaction() as conn:
            upsert(conn, "evidence", {"case_id": evidence.case_id, "round": evidence.round,
                                       "runs": runs, "requests": json.dumps(evidence.requests),
                                       "mutation": mutation, "alternatives": alternatives},
                    ("case_id", "round"))

    def evidence_for(self, case_id: str, round: int) -> Evidence | None:
        rows = self._query(
            "SELECT * FROM evidence WHERE case_id = ? AND round = ?", (case_id, round)
        )
        if not rows:
            return None
        r = rows[0]
        return Evidence(case_id=r["case_id"], round=r["round"], runs=json.loads(r["runs"]),
                        requests=json.loads(r["requests"]),
                        mutation=json.loads(r["mutation"]) if r["mutation"] else None,
                        alternatives=json.loads(r["alternatives"] or "[]"))

    def save_review(self, review: Review) -> None:
        scores = review.scores.model_dump_json() if review.scores is not None else None
        with self.transaction() as conn:
            upsert(conn, "reviews", {**review.model_dump(), "scores": scores},
                    ("case_id", "round", "reviewer"))

    def reviews_for(self, case_id: str, round: int, *, as_given: bool = False) -> list[Review]:
        """By reviewer name; `as_given`: in the order the backend gave them (as first saved),
        the order a route's reason lists their totals in, so a decision made again from the
        store (a resumed round, `resplit`) reads as the build's did."""
        order = "rowid" if as_given else "reviewer"
        return [review_row(r) for r in self._query(
            f"SELECT * FROM reviews WHERE case_id = ? AND round = ? ORDER BY {order}",
            (case_id, round),
        )]

    def all_reviews(self, task_id: str | None = None, *, split: str | None = None,
                    round: int | None = None) -> list[Review]:
        """Every stored review (of one task, or all; of one split's tasks and one round when
        given), for the reliability figures."""
        where, params = [], []
        for clause, value in (("t.task_id = ?", task_id), ("k.split = ?", split),
                              ("r.round = ?", round)):
            if value is not None:
                where.append(clause)
                params.append(value)
        sql = ("SELECT r.* FROM reviews r JOIN test_cases t USING (case_id, round)"
               " JOIN tasks k ON k.id = t.task_id"
               + (" WHERE " + " AND ".join(where) if where else "")
               + " ORDER BY r.case_id, r.round, r.reviewer")
        return [review_row(r) for r in self._query(sql, tuple(params))]

    def save_route(self, decision: RouteDecision) -> None:
        """Append a transition; the case's current state is its latest route."""
        with self.transaction() as conn:
            conn.execute(
                "INSERT INTO routes (case_id, round, route, reason, discard_reason, mean, "
                "spread, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (decision.case_id, decision.round, decision.route, decision.reason,
                 decision.discard_reason, decision.mean, decision.spread, now()),
            )

    def latest_route(self, case_id: str) -> RouteDecision | None:
        rows = self._query(
            "SELECT * FROM routes WHERE case_id = ? ORDER BY round DESC, id DESC LIMIT 1",
            (case_id,),
        )
        return route_row(rows[0]) if rows else None

    def routes_for(self, case_id: str) -> list[RouteDecision]:
        """Every transition of a case, oldest first (its full history with reasons)."""
        return [route_row(r) for r in self._query(
            "SELECT * FROM routes WHERE case_id = ? ORDER BY round, id", (case_id,)
        )]

    # --- resume markers -----------------------------------------------------------------

    def mark_done(self, task_id: str, stage: str, round: int, input_hash: str) -> None:
        with self.transaction() as conn:
            upsert(conn, "stage_markers", {"task_id": task_id, "stage": stage, "round": round,
                                            "input_hash": input_hash, "done": 1,
                                            "updated_at": now()},
                    ("task_id", "stage", "round"))

    def is_done(self, task_id: str, stage: str, round: int, input_hash: str) -> bool:
        """True only if the stage finished for exactly these inputs (a changed hash redoes)."""
        return bool(self._query(
            "SELECT 1 FROM stage_markers WHERE task_id = ? AND stage = ? AND round = ? "
            "AND input_hash = ? AND done = 1", (task_id, stage, round, input_hash),
        ))

    # --- status -------------------------------------------------------------------------

    def status(self) -> dict[str, dict[str, dict[str, Any]]]:
        """`{"tasks": {ID: {"split", "accepted", "area_chair", "refining", "discarded"}}}`,
        each case counted once, by its latest route (highest round, then last written)."""
        out: dict[str, dict[str, Any]] = {
            t.id: {"split": t.split, "accepted": 0, "area_chair": 0, "refining": 0,
                   "discarded": {}}
            for t in self.tasks()
        }
        rows = self._query(
            "SELECT t.task_id, r.route, r.discard_reason FROM routes r "
            "JOIN test_cases t USING (case_id, round) WHERE r.id = ("
            "SELECT r2.id FROM routes r2 WHERE r2.case_id = r.case_id "
            "ORDER BY r2.round DESC, r2.id DESC LIMIT 1)"
        )
        keys = {"accepted": "accepted", "area_chair": "area_chair", "refine": "refining"}
        for r in rows:
            entry = out[r["task_id"]]
            if r["route"] == "discarded":
                reason = r["discard_reason"] or "unspecified"
                entry["discarded"][reason] = entry["discarded"].get(reason, 0) + 1
            else:
                entry[keys[r["route"]]] += 1
        return {"tasks": out}


