"""The cost ledger: one `llm_calls` row per provider request or cache hit.

Public API:
- `Ledger(store, settings).record(...)`: append one row (cost from the configured prices).
- `ledger_summary(store) -> {"calls", "cache_hits", "by": [...], "total_cost", "unpriced"}`:
  `calls` counts provider requests (every attempt, cache hits excluded); `by` groups per
  provider, model and stage with calls, cache_hits, retries, errors, input/output/cached
  tokens and cost.
- `format_ledger(summary) -> str`: the same as a plain-text table (for `repogenesis ledger`).
- `redact(text)`: any provider key found in the environment replaced by `***`.
- Outcomes: ok, cache_hit, retry, error, invalid, truncated.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any, Literal

from pipeline.llm.cache import now, query
from pipeline.llm.errors import redact as scrub
from pipeline.llm.settings import KEY_VARS, LLMSettings
from pipeline.store import Store

Outcome = Literal["ok", "cache_hit", "retry", "error", "invalid", "truncated"]
SECRET_VARS = tuple(v for vars_ in KEY_VARS.values() for v in vars_)


def redact(text: str, env: Mapping[str, str] | None = None) -> str:
    """`text` with every provider key value from the environment replaced by `***`."""
    env = os.environ if env is None else env
    for var in SECRET_VARS:
        value = env.get(var, "")
        if len(value) >= 4:
            text = text.replace(value, "***")
    return text


_COLUMNS = ("created_at", "provider", "model", "stage", "task_id", "case_id", "tokens_in",
            "tokens_out", "tokens_cached", "cost", "latency_ms", "outcome", "cache_key", "error",
            "batch_id")  # the order of `Ledger.row`'s values
_INSERT = (f"INSERT INTO llm_calls ({', '.join(_COLUMNS)}) "
           f"VALUES ({', '.join('?' * len(_COLUMNS))})")


class Ledger:
    def __init__(self, store: Store, settings: LLMSettings) -> None:
        self.store = store
        self.settings = settings

    def record(self, **fields: Any) -> float:
        """Append one row (the keywords of `row`); returns its cost."""
        values = self.row(**fields)
        with self.store.transaction() as conn:
            self.insert(conn, values)
        return values[_COLUMNS.index("cost")]

    def row(self, *, provider: str, model: str, stage: str, outcome: Outcome,
            tokens_in: int = 0, tokens_out: int = 0, tokens_cached: int = 0,
            latency_ms: int = 0, cache_key: str | None = None, task_id: str | None = None,
            case_id: str | None = None, error: str | None = None,
            batch_id: str | None = None) -> tuple[Any, ...]:
        """The row's values, priced and redacted, made before the store's lock is taken:
        with dozens of calls in flight, work done while holding it queues every other call."""
        cost = self.settings.cost(provider, model, tokens_in, tokens_out, tokens_cached,
                                  batch=batch_id is not None)
        return (now(), provider, model, stage or "", task_id, case_id, tokens_in, tokens_out,
                tokens_cached, cost, latency_ms, outcome, cache_key,
                scrub(redact(error))[:2000] if error else None, batch_id)

    @staticmethod
    def insert(conn: Any, values: tuple[Any, ...]) -> None:
        conn.execute(_INSERT, values)


def ledger_summary(store: Store) -> dict[str, Any]:
    rows = query(store, """
        SELECT provider, model, stage,
               SUM(outcome != 'cache_hit') AS calls,
               SUM(outcome = 'cache_hit') AS cache_hits,
               SUM(outcome = 'retry') AS retries,
               SUM(outcome IN ('error', 'invalid', 'truncated')) AS errors,
               SUM(tokens_in) AS input_tokens, SUM(tokens_out) AS output_tokens,
               SUM(tokens_cached) AS cached_tokens, SUM(cost) AS cost
        FROM llm_calls GROUP BY provider, model, stage ORDER BY provider, model, stage""")
    by = [{**dict(r), "cost": round(r["cost"] or 0.0, 6)} for r in rows]
    unpriced = query(store, "SELECT DISTINCT provider || ':' || model AS ref FROM llm_calls "
                            "WHERE outcome != 'cache_hit' AND tokens_in + tokens_out > 0 "
                            "GROUP BY provider, model HAVING SUM(cost) = 0 ORDER BY ref")
    return {
        "calls": sum(b["calls"] for b in by),
        "cache_hits": sum(b["cache_hits"] for b in by),
        "by": by,
        "total_cost": round(sum(b["cost"] for b in by), 6),
        "unpriced": [r["ref"] for r in unpriced],
    }


def format_ledger(summary: dict[str, Any]) -> str:
    head = ("provider", "model", "stage", "calls", "cache_hits", "retries", "errors",
            "input_tokens", "output_tokens", "cached_tokens", "cost")
    table = [head] + [tuple(f"{b[k]:.4f}" if k == "cost" else str(b[k]) for k in head)
                      for b in summary["by"]]
    widths = [max(len(row[i]) for row in table) for i in range(len(head))]
    lines = ["  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip()
             for row in table]
    lines.append(f"{summary['calls']} provider call(s), {summary['cache_hits']} cache hit(s), "
                 f"total cost ${summary['total_cost']:.4f}")
    if summary["unpriced"]:
        lines.append(f"no price configured for {', '.join(summary['unpriced'])} (counted as 0)")
    return "\n".join(lines)
