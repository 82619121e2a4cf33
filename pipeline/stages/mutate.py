"""Mutation stage: what the accepted suite of a finished task can catch.

Runs once per task input (the report is stored under the task's input hash, so a resumed or
repeated build reuses it) on the accepted cases, the same suite that ships in the split.
"""

from __future__ import annotations

import hashlib
import json
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pipeline.mutation import mutation_report
from pipeline.records import TestCase
from pipeline.stages.execute import write_suite
from pipeline.store import Store
from pipeline.tasks import RawTask

# Timing-dependent parts of the runner's report stay out of stored (and published) output.
VOLATILE = ("baseline", "jobs", "duration_s")


def suite_key(input_hash: str, cases: list[TestCase]) -> str:
    """Task input + the exact accepted suite: an Area Chair accept changes the suite."""
    digest = hashlib.sha256(input_hash.encode())
    for case in sorted(cases, key=lambda c: c.case_id):
        digest.update(f"{case.case_id}\0{case.round}\0{case.code}\0".encode())
    return digest.hexdigest()[:32]


def stored_report(store: Store, task_id: str, input_hash: str) -> dict[str, Any] | None:
    with store.transaction() as conn:
        row = conn.execute(
            "SELECT report FROM mutation_reports WHERE task_id = ? AND input_hash = ?",
            (task_id, input_hash),
        ).fetchone()
    return json.loads(row[0]) if row else None


def save_report(store: Store, task_id: str, input_hash: str, report: dict[str, Any]) -> None:
    with store.transaction() as conn:
        conn.execute(
            "INSERT OR REPLACE INTO mutation_reports (task_id, input_hash, report) "
            "VALUES (?, ?, ?)",
            (task_id, input_hash, json.dumps(report, sort_keys=True)),
        )


def mutation_for_task(
    task: RawTask,
    accepted: list[TestCase],
    conftest: str,
    human_conftest: str | None,
    module_source: Callable[[list[TestCase]], str],
    *,
    store: Store,
    input_hash: str,
    env_bin: Path | None,
    cap: int,
    jobs: int | None,
    startup_timeout_s: float,
    test_timeout_s: float,
) -> dict[str, Any] | None:
    """The task's mutation report (computed once per input and suite); None when disabled."""
    if cap <= 0 or not accepted:
        return None
    key = suite_key(input_hash, accepted)
    cached = stored_report(store, task.id, key)
    if cached is not None:
        return cached
    with tempfile.TemporaryDirectory(prefix="repogenesis-mutation-") as tmp:
        nodeids = write_suite(Path(tmp), accepted, conftest, human_conftest, module_source)
        report = mutation_report(
            task.dir, Path(tmp), nodeids, cap=cap, jobs=jobs, env_bin=env_bin,
            startup_timeout_s=startup_timeout_s, test_timeout_s=test_timeout_s,
        )
    report = {k: v for k, v in report.items() if k not in VOLATILE}
    # A stillborn mutant's detail names temp folders, ports and seconds: keep its status only.
    report["mutants_detail"] = [{k: v for k, v in m.items() if k != "detail"}
                                for m in report.get("mutants_detail", [])]
    save_report(store, task.id, key, report)
    return report
