"""Evaluate a whole split: one candidate repository per task, one leaderboard summary.

The candidate for task `<id>` is `<candidates root>/<id>/`; a task without one counts as not
deployed (DSR 0, every test not run, API coverage 0). The summary holds the means over tasks
per metric, the same per language and per difficulty level, and one compact row per task.
Nothing is written here; the CLI writes the returned dict where `--out` says.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from . import metrics
from .run import EvaluateError, evaluate_candidate, load_task

SCHEMA = "repogenesis-evaluate-split/1"
Progress = Callable[[str, dict[str, Any]], None]


def split_tasks(split_dir: Path) -> list[Path]:
    """Task folders of a split (those holding a task.json), sorted by id."""
    if not split_dir.is_dir():
        raise EvaluateError(f"split folder {split_dir} not found (e.g. data/verified)")
    return sorted(p for p in split_dir.iterdir() if (p / "task.json").is_file())


def task_row(result: dict[str, Any], task_dir: Path, has_candidate: bool) -> dict[str, Any]:
    """The compact per-task entry of the summary (failing tests by id, not every test)."""
    task = load_task(task_dir)
    return {
        "id": task.id,
        "language": task.language,
        "framework": task.framework,
        "difficulty": task.difficulty,
        "candidate": has_candidate,
        **{m: result[m] for m in metrics.METRICS},
        "tests_passed": result["tests_passed"],
        "tests_total": result["tests_total"],
        "dsr_reason": result["dsr_reason"],
        "missing_endpoints": result["missing_endpoints"],
        "not_passed": [t["id"] for t in result["tests"] if t["outcome"] != metrics.PASSED],
    }


def _run_groups(groups: list[list[Path]], run_group: Callable[[list[Path]], None],
                jobs: int) -> None:
    """`run_group` for every group, up to `jobs` at once; the first error stops the groups
    not yet started (running ones finish) and is raised."""
    if jobs == 1:
        for group in groups:
            run_group(group)
        return
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        futures = [pool.submit(run_group, g) for g in groups]
        try:
            for future in futures:
                future.result()
        except BaseException:
            for future in futures:
                future.cancel()  # tasks not yet started; running ones finish
            raise


def evaluate_split(
    split_dir: Path,
    candidates_root: Path,
    *,
    jobs: int = 1,
    progress: Progress | None = None,
    **options: Any,
) -> dict[str, Any]:
    """Evaluate `candidates_root/<id>` for every task of `split_dir`; return the summary.

    `options` go to `evaluate_candidate` (timeouts, cache_dir). Up to `jobs` tasks run at once;
    tasks that share a port never do. `progress(task_id, row)` is called after each task.
    Raises EvaluateError (e.g. PortBusyError) when a task cannot be evaluated at all: a
    partial leaderboard would be misleading.
    """
    split_dir, candidates_root = Path(split_dir), Path(candidates_root)
    if not candidates_root.is_dir():
        raise EvaluateError(f"candidates folder {candidates_root} not found: it should hold "
                            f"one folder per task id")
    if jobs < 1:
        raise EvaluateError(f"jobs must be at least 1 (got {jobs})")
    by_port: dict[int, list[Path]] = {}
    for task_dir in split_tasks(split_dir):
        by_port.setdefault(load_task(task_dir).port, []).append(task_dir)
    rows: list[dict[str, Any]] = []
    lock = threading.Lock()

    def run_group(task_dirs: list[Path]) -> None:
        for task_dir in task_dirs:
            candidate = candidates_root / load_task(task_dir).id
            result = evaluate_candidate(task_dir, candidate, **options)
            row = task_row(result, task_dir, candidate.is_dir())
            with lock:
                rows.append(row)
                if progress is not None:
                    progress(row["id"], row)

    _run_groups(list(by_port.values()), run_group, jobs)
    rows.sort(key=lambda r: r["id"])
    summary = metrics.summarize(rows, group_keys=("language", "difficulty"))
    return {
        "schema": SCHEMA,
        "split": split_dir.name,
        "split_dir": str(split_dir),
        "candidates_root": str(candidates_root),
        "n_tasks": summary["n_tasks"],
        "n_candidates": sum(r["candidate"] for r in rows),
        "metrics": summary["metrics"],
        "tests": {"passed": sum(r["tests_passed"] for r in rows),
                  "total": sum(r["tests_total"] for r in rows)},
        "by_language": summary["by_language"],
        "by_difficulty": summary["by_difficulty"],
        "tasks": rows,
    }
