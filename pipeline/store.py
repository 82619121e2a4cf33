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

import enum
import json
import os
import re
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from pipeline.records import (
    Difficulty,
    Evidence,
    Review,
    RouteDecision,
    Scores,
    Spec,
    SplitName,
    TestCase,
)

MIGRATIONS_DIR = Path(__file__).resolve().parent / "migrations"
_MIGRATION_RE = re.compile(r"^(\d{4})_[A-Za-z0-9_]+\.sql$")
BUSY_TIMEOUT_MS = 30_000


class _Keep(enum.Enum):
    """Sentinel for `upsert_task`: leave the column as it is (None means clear it)."""

    KEEP = 0


KEEP = _Keep.KEEP


class TaskRow(BaseModel):
    """One row of `tasks`, with its JSON columns parsed back into records."""

    id: str
    input_hash: str | None = None
    content_hash: str | None = None  # the task's own files only (0007; Area Chair versions)
    split: SplitName | None = None
    state: str = "pending"
    error: str | None = None
    spec: Spec | None = None
    difficulty: Difficulty | None = None
    updated_at: str


class AreaChairDecision(BaseModel):
    """One Area Chair decision as stored (append-only; `id` gives submission order)."""

    id: int
    case_id: str
    round: int
    decision: str
    scores: Scores | None = None
    note: str = ""
    chair: str
    submitted_at: str
    # 0007: the exact case version decided on, the state it was in, when the chair opened it
    task_id: str | None = None
    code_hash: str | None = None
    input_hash: str | None = None
    state_before: str | None = None
    opened_at: str | None = None


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


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


class Store:
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
                    (version, name, _now()),
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

    def _query(self, sql: str, params: tuple[Any, ...] = ()) -> list[sqlite3.Row]:
        with self._lock:
            cur = self._conn.execute(sql, params)
            cur.row_factory = sqlite3.Row
            return cur.fetchall()

    # --- tasks --------------------------------------------------------------------------

    def upsert_task(
        self,
        task_id: str,
        *,
        input_hash: str | None | _Keep = KEEP,
        content_hash: str | None | _Keep = KEEP,
        split: SplitName | None | _Keep = KEEP,
        state: str | _Keep = KEEP,
        error: str | None | _Keep = KEEP,
        spec: Spec | None | _Keep = KEEP,
        difficulty: Difficulty | None | _Keep = KEEP,
    ) -> None:
        """Create the task row if missing, then set only the fields given (None clears)."""
        fields: dict[str, Any] = {}
        for column, value in (
            ("input_hash", input_hash), ("split", split), ("state", state), ("error", error),
            ("content_hash", content_hash),
        ):
            if value is not KEEP:
                fields[column] = value
        for column, model in (("spec", spec), ("difficulty", difficulty)):
            if model is not KEEP:
                fields[column] = None if model is None else model.model_dump_json()
        fields["updated_at"] = _now()
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
        return _task_row(rows[0]) if rows else None

    def tasks(self) -> list[TaskRow]:
        return [_task_row(r) for r in self._query("SELECT * FROM tasks ORDER BY id")]

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
                (_now(), task_id),
            )

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
            _upsert(conn, "test_cases", {**row, "endpoints": json.dumps(case.endpoints),
                                         "rebuttal": json.dumps(row["rebuttal"])},
                    ("case_id", "round"))

    def latest_cases(self, task_id: str) -> list[TestCase]:
        """The highest-round version of every case of the task, ordered by case id."""
        return [_case(r) for r in self._query(
            "SELECT * FROM test_cases t WHERE task_id = ? AND round = "
            "(SELECT MAX(round) FROM test_cases u WHERE u.case_id = t.case_id) "
            "ORDER BY case_id", (task_id,),
        )]

    def cases_for_round(self, task_id: str, round: int) -> list[TestCase]:
        return [_case(r) for r in self._query(
            "SELECT * FROM test_cases WHERE task_id = ? AND round = ? ORDER BY case_id",
            (task_id, round),
        )]

    def save_evidence(self, evidence: Evidence) -> None:
        runs = json.dumps([r.model_dump(mode="json") for r in evidence.runs])
        mutation = evidence.mutation.model_dump_json() if evidence.mutation else None
        with self.transaction() as conn:
            _upsert(conn, "evidence", {"case_id": evidence.case_id, "round": evidence.round,
                                       "runs": runs, "requests": json.dumps(evidence.requests),
                                       "mutation": mutation},
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
                        mutation=json.loads(r["mutation"]) if r["mutation"] else None)

    def save_review(self, review: Review) -> None:
        scores = review.scores.model_dump_json() if review.scores is not None else None
        with self.transaction() as conn:
            _upsert(conn, "reviews", {**review.model_dump(), "scores": scores},
                    ("case_id", "round", "reviewer"))

    def reviews_for(self, case_id: str, round: int) -> list[Review]:
        return [_review(r) for r in self._query(
            "SELECT * FROM reviews WHERE case_id = ? AND round = ? ORDER BY reviewer",
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
        return [_review(r) for r in self._query(sql, tuple(params))]

    def save_route(self, decision: RouteDecision) -> None:
        """Append a transition; the case's current state is its latest route."""
        with self.transaction() as conn:
            conn.execute(
                "INSERT INTO routes (case_id, round, route, reason, discard_reason, mean, "
                "spread, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (decision.case_id, decision.round, decision.route, decision.reason,
                 decision.discard_reason, decision.mean, decision.spread, _now()),
            )

    def latest_route(self, case_id: str) -> RouteDecision | None:
        rows = self._query(
            "SELECT * FROM routes WHERE case_id = ? ORDER BY round DESC, id DESC LIMIT 1",
            (case_id,),
        )
        return _route(rows[0]) if rows else None

    def routes_for(self, case_id: str) -> list[RouteDecision]:
        """Every transition of a case, oldest first (its full history with reasons)."""
        return [_route(r) for r in self._query(
            "SELECT * FROM routes WHERE case_id = ? ORDER BY round, id", (case_id,)
        )]

    # --- resume markers -----------------------------------------------------------------

    def mark_done(self, task_id: str, stage: str, round: int, input_hash: str) -> None:
        with self.transaction() as conn:
            _upsert(conn, "stage_markers", {"task_id": task_id, "stage": stage, "round": round,
                                            "input_hash": input_hash, "done": 1,
                                            "updated_at": _now()},
                    ("task_id", "stage", "round"))

    def is_done(self, task_id: str, stage: str, round: int, input_hash: str) -> bool:
        """True only if the stage finished for exactly these inputs (a changed hash redoes)."""
        return bool(self._query(
            "SELECT 1 FROM stage_markers WHERE task_id = ? AND stage = ? AND round = ? "
            "AND input_hash = ? AND done = 1", (task_id, stage, round, input_hash),
        ))

    # --- Area Chair ---------------------------------------------------------------------

    def add_ac_decision(
        self, case_id: str, round: int, decision: str, *, chair: str,
        scores: Scores | None = None, note: str = "", submitted_at: str | None = None,
        task_id: str | None = None, code_hash: str | None = None,
        input_hash: str | None = None, state_before: str | None = None,
        opened_at: str | None = None,
    ) -> int:
        """Append one decision (durable on return); returns its id."""
        with self.transaction() as conn:
            cur = conn.execute(
                "INSERT INTO area_chair_decisions (case_id, round, decision, scores, note, "
                "chair, submitted_at, task_id, code_hash, input_hash, state_before, opened_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (case_id, round, decision,
                 scores.model_dump_json() if scores is not None else None, note, chair,
                 submitted_at or _now(), task_id, code_hash, input_hash, state_before,
                 opened_at),
            )
            return int(cur.lastrowid or 0)

    def ac_decisions(self, case_id: str | None = None) -> list[AreaChairDecision]:
        sql = "SELECT * FROM area_chair_decisions"
        rows = self._query(sql + " WHERE case_id = ? ORDER BY id", (case_id,)) if case_id \
            else self._query(sql + " ORDER BY id")
        return [AreaChairDecision(**{**dict(r), "scores": _json_or_none(r["scores"])})
                for r in rows]

    def case_versions(self, case_id: str) -> list[TestCase]:
        """Every stored version (round) of one case, oldest first."""
        return [_case(r) for r in self._query(
            "SELECT * FROM test_cases WHERE case_id = ? ORDER BY round", (case_id,))]

    def add_chair_user(self, name: str, token_hash: str) -> None:
        """Create a chair, or give an existing one a new token (the old one stops working)."""
        with self.transaction() as conn:
            _upsert(conn, "chair_users", {"name": name, "token_hash": token_hash,
                                          "created_at": _now()}, ("name",))

    def chair_token_hash(self, name: str) -> str | None:
        rows = self._query("SELECT token_hash FROM chair_users WHERE name = ?", (name,))
        return rows[0]["token_hash"] if rows else None

    def claim_case(self, case_id: str, chair: str, now: str, expires_at: str) -> str:
        """Take the lease on a case unless another chair holds an unexpired one; returns the
        holder after the call (ISO timestamps compare as text)."""
        with self.transaction() as conn:
            row = conn.execute("SELECT chair, expires_at, claimed_at FROM chair_claims "
                               "WHERE case_id = ?", (case_id,)).fetchone()
            if row is not None and row[0] != chair and row[1] > now:
                return str(row[0])
            claimed_at = row[2] if row is not None and row[0] == chair and row[1] > now else now
            _upsert(conn, "chair_claims", {"case_id": case_id, "chair": chair,
                                           "claimed_at": claimed_at, "expires_at": expires_at},
                    ("case_id",))
            return chair

    def chair_claims(self, now: str) -> dict[str, tuple[str, str]]:
        """Unexpired leases: case id → (chair, claimed_at)."""
        return {r["case_id"]: (r["chair"], r["claimed_at"]) for r in self._query(
            "SELECT * FROM chair_claims WHERE expires_at > ?", (now,))}

    def release_claim(self, case_id: str) -> None:
        with self.transaction() as conn:
            conn.execute("DELETE FROM chair_claims WHERE case_id = ?", (case_id,))

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


# --- row → record ---------------------------------------------------------------------------


def _upsert(
    conn: sqlite3.Connection, table: str, row: dict[str, Any], keys: tuple[str, ...]
) -> None:
    """INSERT, or UPDATE the non-key columns in place (no delete, so nothing cascades)."""
    updates = ", ".join(f"{c} = excluded.{c}" for c in row if c not in keys)
    conn.execute(
        f"INSERT INTO {table} ({', '.join(row)}) VALUES ({', '.join('?' * len(row))}) "
        f"ON CONFLICT ({', '.join(keys)}) DO UPDATE SET {updates}",
        tuple(row.values()),
    )


def _json_or_none(text: str | None) -> Any:
    return None if text is None else json.loads(text)


def _task_row(r: sqlite3.Row) -> TaskRow:
    return TaskRow(
        id=r["id"], input_hash=r["input_hash"], content_hash=dict(r).get("content_hash"),
        split=r["split"], state=r["state"],
        error=r["error"], updated_at=r["updated_at"],
        spec=Spec.model_validate_json(r["spec"]) if r["spec"] else None,
        difficulty=Difficulty.model_validate_json(r["difficulty"]) if r["difficulty"] else None,
    )


def _case(r: sqlite3.Row) -> TestCase:
    return TestCase(**{**dict(r), "endpoints": json.loads(r["endpoints"]),
                       "rebuttal": json.loads(r["rebuttal"])})


def _review(r: sqlite3.Row) -> Review:
    return Review(**{**dict(r), "scores": _json_or_none(r["scores"])})


def _route(r: sqlite3.Row) -> RouteDecision:
    return RouteDecision(**{k: r[k] for k in RouteDecision.model_fields})
