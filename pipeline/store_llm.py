"""The store's model-call tables (migration 0003) and its mutation rounds (0004): the SQL of
the response cache, the cost ledger, provider batches and the rounds' kill reports, so the
modules that use them (pipeline.llm, pipeline.stages.mutate) hold no SQL and never touch the
store's connection or lock.

Rows are made by their owners (priced, serialised, redacted) before a method is called, so
the store's lock is held only for the statement itself.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from typing import Any

LEDGER_COLUMNS = (
    "created_at", "provider", "model", "stage", "task_id", "case_id", "tokens_in",
    "tokens_out", "tokens_cached", "cost", "latency_ms", "outcome", "cache_key", "error",
    "batch_id",
)
_INSERT_CALL = (f"INSERT INTO llm_calls ({', '.join(LEDGER_COLUMNS)}) "
                f"VALUES ({', '.join('?' * len(LEDGER_COLUMNS))})")
_INSERT_CACHE = ("INSERT INTO llm_cache (cache_key, provider, model, response, created_at) "
                 "VALUES (?, ?, ?, ?, ?) ON CONFLICT (cache_key) DO UPDATE SET "
                 "response = excluded.response, created_at = excluded.created_at")
_CHUNK = 500  # keys per `IN (...)` query, under SQLite's variable limit


class LlmStore:
    """Mixed into `pipeline.store.Store` (which provides `transaction` and `_query`)."""

    _query: Any
    transaction: Any

    # --- response cache ----------------------------------------------------------------

    def cached_responses(self, keys: Iterable[str]) -> dict[str, str]:
        """cache key -> stored response JSON, for the keys that are cached."""
        ordered = sorted(set(keys))
        out: dict[str, str] = {}
        for start in range(0, len(ordered), _CHUNK):
            chunk = ordered[start:start + _CHUNK]
            rows = self._query("SELECT cache_key, response FROM llm_cache WHERE cache_key "
                               f"IN ({', '.join('?' * len(chunk))})", tuple(chunk))
            out.update((r["cache_key"], r["response"]) for r in rows)
        return out

    def is_cached(self, key: str) -> bool:
        return bool(self._query("SELECT 1 FROM llm_cache WHERE cache_key = ?", (key,)))

    def delete_cached(self, key: str) -> None:
        with self.transaction() as conn:
            conn.execute("DELETE FROM llm_cache WHERE cache_key = ?", (key,))

    def save_llm_call(self, call: tuple[Any, ...] | None = None,
                      cached: tuple[Any, ...] | None = None) -> None:
        """A ledger row and/or a cache entry, in one transaction: a paid answer is recorded
        and kept, or neither. `call` holds `LEDGER_COLUMNS`' values, `cached` (key,
        provider, model, response JSON, created_at)."""
        with self.transaction() as conn:
            if call is not None:
                conn.execute(_INSERT_CALL, call)
            if cached is not None:
                conn.execute(_INSERT_CACHE, cached)

    # --- cost ledger --------------------------------------------------------------------

    def ledger_groups(self) -> list[sqlite3.Row]:
        """Calls, cache hits, retries, errors, tokens and cost per provider, model, stage."""
        return self._query("""
            SELECT provider, model, stage,
                   SUM(outcome != 'cache_hit') AS calls,
                   SUM(outcome = 'cache_hit') AS cache_hits,
                   SUM(outcome = 'retry') AS retries,
                   SUM(outcome IN ('error', 'invalid', 'truncated')) AS errors,
                   SUM(tokens_in) AS input_tokens, SUM(tokens_out) AS output_tokens,
                   SUM(tokens_cached) AS cached_tokens, SUM(cost) AS cost
            FROM llm_calls GROUP BY provider, model, stage ORDER BY provider, model, stage""")

    def unpriced_models(self) -> list[str]:
        """`provider:model` of the models that used tokens and cost nothing (no price)."""
        rows = self._query("SELECT DISTINCT provider || ':' || model AS ref FROM llm_calls "
                           "WHERE outcome != 'cache_hit' AND tokens_in + tokens_out > 0 "
                           "GROUP BY provider, model HAVING SUM(cost) = 0 ORDER BY ref")
        return [r["ref"] for r in rows]

    def llm_calls(self, outcome: str | None = None, stage: str | None = None
                  ) -> list[sqlite3.Row]:
        """The ledger's rows (of one outcome and/or stage when given), in insertion order."""
        where = [f"{col} = ?" for col, v in (("outcome", outcome), ("stage", stage))
                 if v is not None]
        params = tuple(v for v in (outcome, stage) if v is not None)
        return self._query("SELECT * FROM llm_calls"
                           + (f" WHERE {' AND '.join(where)}" if where else "")
                           + " ORDER BY rowid", params)

    # --- provider batches ---------------------------------------------------------------

    def batch_holding(self, key: str) -> sqlite3.Row | None:
        """The latest batch (provider, batch_id, state) a request's cache key was sent in."""
        rows = self._query(
            "SELECT b.provider, b.batch_id, b.state FROM llm_batch_items i JOIN "
            "llm_batches b USING (provider, batch_id) WHERE i.cache_key = ? "
            "ORDER BY b.submitted_at DESC", (key,))
        return rows[0] if rows else None

    def add_batch(self, batch: tuple[str, str, str, str, str], keys: dict[str, str]) -> None:
        """A submitted batch (batch_id, provider, model, round_hash, now) and its requests
        (custom id -> cache key), running."""
        batch_id, provider = batch[0], batch[1]
        with self.transaction() as conn:
            conn.execute(
                "INSERT INTO llm_batches (batch_id, provider, model, round_hash, state, "
                "submitted_at, updated_at) VALUES (?, ?, ?, ?, 'running', ?, ?)",
                (*batch, batch[4]))
            conn.executemany(
                "INSERT INTO llm_batch_items (provider, batch_id, custom_id, cache_key) "
                "VALUES (?, ?, ?, ?)",
                [(provider, batch_id, cid, key) for cid, key in keys.items()])

    def batch_keys(self, provider: str, batch_id: str) -> tuple[str, dict[str, str]]:
        """A batch's model and its requests (custom id -> cache key)."""
        keys = {r["custom_id"]: r["cache_key"] for r in self._query(
            "SELECT custom_id, cache_key FROM llm_batch_items WHERE provider = ? "
            "AND batch_id = ?", (provider, batch_id))}
        model = self._query("SELECT model FROM llm_batches WHERE provider = ? AND "
                            "batch_id = ?", (provider, batch_id))[0]["model"]
        return model, keys

    def set_batch_state(self, provider: str, batch_id: str, state: str, now: str) -> None:
        with self.transaction() as conn:
            conn.execute("UPDATE llm_batches SET state = ?, updated_at = ? WHERE provider = ? "
                         "AND batch_id = ?", (state, now, provider, batch_id))

    # --- mutation rounds ----------------------------------------------------------------

    def mutation_round_reports(self, task_id: str, input_hash: str) -> list[str]:
        """The stored report JSON of each mutation round run on these inputs, in round order."""
        return [r["report"] for r in self._query(
            "SELECT report FROM mutation_rounds WHERE task_id = ? AND input_hash = ? "
            "ORDER BY round", (task_id, input_hash))]

    def save_mutation_round(self, task_id: str, input_hash: str, round: int,
                            report: str) -> None:
        """One round's report (inside the caller's transaction when there is one)."""
        with self.transaction() as conn:
            conn.execute(
                "INSERT OR REPLACE INTO mutation_rounds (task_id, input_hash, round, report) "
                "VALUES (?, ?, ?, ?)", (task_id, input_hash, round, report))
