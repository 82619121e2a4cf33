"""The cost ledger: one `llm_calls` row per provider request or cache hit.

Public API:
- `Ledger(store, settings).record(...)`: append one row (the fields of `LedgerEntry` as
  keywords; cost from the configured prices).
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
from dataclasses import dataclass
from typing import Any, Literal

from pipeline.llm.cache import now
from pipeline.llm.errors import redact as scrub
from pipeline.llm.settings import KEY_VARS, LLMSettings
from pipeline.store import Store
from pipeline.store_llm import LEDGER_COLUMNS

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




@dataclass(frozen=True, kw_only=True)
class LedgerEntry:
    """One call as the ledger sees it, before pricing: a record, since a row has a dozen
    fields and most callers leave most of them at their defaults."""

    provider: str
    model: str
    stage: str
    outcome: Outcome
    tokens_in: int = 0
    tokens_out: int = 0
    tokens_cached: int = 0
    latency_ms: int = 0
    cache_key: str | None = None
    task_id: str | None = None
    case_id: str | None = None
    error: str | None = None
    batch_id: str | None = None


class Ledger:
    def __init__(self, store: Store, settings: LLMSettings) -> None:
        self.store = store
        self.settings = settings

    def record(self, **fields: Any) -> float:
        """Append one row (the fields of `LedgerEntry`); returns its cost."""
        values = self.row(LedgerEntry(**fields))
        self.store.save_llm_call(call=values)
        return values[LEDGER_COLUMNS.index("cost")]

    def row(self, entry: LedgerEntry) -> tuple[Any, ...]:
        """The row's values (in `LEDGER_COLUMNS` order), priced and redacted, made before the
        store's lock is taken: with dozens of calls in flight, work done while holding it
        queues every other call."""
        e = entry
        cost = self.settings.cost(e.provider, e.model, e.tokens_in, e.tokens_out,
                                  e.tokens_cached, batch=e.batch_id is not None)
        return (now(), e.provider, e.model, e.stage or "", e.task_id, e.case_id, e.tokens_in,
                e.tokens_out, e.tokens_cached, cost, e.latency_ms, e.outcome, e.cache_key,
                scrub(redact(e.error))[:2000] if e.error else None, e.batch_id)


def ledger_summary(store: Store) -> dict[str, Any]:
    by = [{**dict(r), "cost": round(r["cost"] or 0.0, 6)} for r in store.ledger_groups()]
    unpriced = store.unpriced_models()
    return {
        "calls": sum(b["calls"] for b in by),
        "cache_hits": sum(b["cache_hits"] for b in by),
        "by": by,
        "total_cost": round(sum(b["cost"] for b in by), 6),
        "unpriced": unpriced,
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
