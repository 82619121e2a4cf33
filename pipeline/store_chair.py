"""The Area Chair's part of the state store: decisions (append-only), users, claims.

A mixin of `pipeline.store.Store` (it uses the store's `transaction()` and `_query()`), so the
store's SQL stays in the store's modules."""

from __future__ import annotations

from typing import Required, TypedDict, Unpack

from pydantic import BaseModel

from pipeline.records import Scores, TestCase
from pipeline.store_rows import case_row, json_or_none, now, upsert


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


class DecisionFields(TypedDict, total=False):
    """What `add_ac_decision` records past the case, round and verdict: who decided, the
    scores and note, when (None: now), and the case version and state decided on."""

    chair: Required[str]
    scores: Scores | None
    note: str
    submitted_at: str | None
    task_id: str | None
    code_hash: str | None
    input_hash: str | None
    state_before: str | None
    opened_at: str | None


class ChairStore:
    """Area Chair decisions, chair logins and case claims."""

    def add_ac_decision(self, case_id: str, round: int, decision: str,
                        **fields: Unpack[DecisionFields]) -> int:
        """Append one decision (durable on return); returns its id."""
        unknown = sorted(set(fields) - set(DecisionFields.__annotations__))
        if unknown:
            raise TypeError(f"add_ac_decision() got unexpected keyword arguments {unknown}")
        scores, get = fields.get("scores"), fields.get
        with self.transaction() as conn:
            cur = conn.execute(
                "INSERT INTO area_chair_decisions (case_id, round, decision, scores, note, "
                "chair, submitted_at, task_id, code_hash, input_hash, state_before, opened_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (case_id, round, decision,
                 scores.model_dump_json() if scores is not None else None,
                 get("note", ""), fields["chair"], get("submitted_at") or now(),
                 get("task_id"), get("code_hash"), get("input_hash"), get("state_before"),
                 get("opened_at")),
            )
            return int(cur.lastrowid or 0)

    def ac_decisions(self, case_id: str | None = None) -> list[AreaChairDecision]:
        sql = "SELECT * FROM area_chair_decisions"
        rows = self._query(sql + " WHERE case_id = ? ORDER BY id", (case_id,)) if case_id \
            else self._query(sql + " ORDER BY id")
        return [AreaChairDecision(**{**dict(r), "scores": json_or_none(r["scores"])})
                for r in rows]

    def case_versions(self, case_id: str) -> list[TestCase]:
        """Every stored version (round) of one case, oldest first."""
        return [case_row(r) for r in self._query(
            "SELECT * FROM test_cases WHERE case_id = ? ORDER BY round", (case_id,))]

    def add_chair_user(self, name: str, token_hash: str) -> None:
        """Create a chair, or give an existing one a new token (the old one stops working)."""
        with self.transaction() as conn:
            upsert(conn, "chair_users", {"name": name, "token_hash": token_hash,
                                          "created_at": now()}, ("name",))

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
            upsert(conn, "chair_claims", {"case_id": case_id, "chair": chair,
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
