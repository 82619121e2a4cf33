"""Row ↔ record conversions shared by the store's modules (no SQL of their own but upserts)."""

from __future__ import annotations

import json
import sqlite3
from datetime import UTC, datetime
from typing import Any

from pydantic import BaseModel

from pipeline.records import Difficulty, Review, RouteDecision, Spec, SplitName, TestCase


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


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
    runner: str | None = None  # host:pid:start of the build holding a running task (0009)


def upsert(
    conn: sqlite3.Connection, table: str, row: dict[str, Any], keys: tuple[str, ...]
) -> None:
    """INSERT, or UPDATE the non-key columns in place (no delete, so nothing cascades)."""
    updates = ", ".join(f"{c} = excluded.{c}" for c in row if c not in keys)
    conn.execute(
        f"INSERT INTO {table} ({', '.join(row)}) VALUES ({', '.join('?' * len(row))}) "
        f"ON CONFLICT ({', '.join(keys)}) DO UPDATE SET {updates}",
        tuple(row.values()),
    )


def json_or_none(text: str | None) -> Any:
    return None if text is None else json.loads(text)


def task_row(r: sqlite3.Row) -> TaskRow:
    return TaskRow(
        id=r["id"], input_hash=r["input_hash"], content_hash=dict(r).get("content_hash"),
        split=r["split"], state=r["state"], runner=dict(r).get("runner"),
        error=r["error"], updated_at=r["updated_at"],
        spec=Spec.model_validate_json(r["spec"]) if r["spec"] else None,
        difficulty=Difficulty.model_validate_json(r["difficulty"]) if r["difficulty"] else None,
    )


def case_row(r: sqlite3.Row) -> TestCase:
    return TestCase(**{**dict(r), "endpoints": json.loads(r["endpoints"]),
                       "rebuttal": json.loads(r["rebuttal"])})


def review_row(r: sqlite3.Row) -> Review:
    return Review(**{**dict(r), "scores": json_or_none(r["scores"])})


def route_row(r: sqlite3.Row) -> RouteDecision:
    return RouteDecision(**{k: r[k] for k in RouteDecision.model_fields})
