"""Splits: which split each task goes to, and writing `data/<split>/<id>/` and `index.jsonl`.

Assignment is pure and seeded; writing is deterministic (sorted, no timestamps) so a build
that was killed and resumed writes the same bytes as one that was not.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from pipeline.records import TestCase
from pipeline.suites import SuiteSources, shipped_files, write_files
from pipeline.suites import case_file as case_file  # re-exported: where a case ships
from pipeline.suites import existing_module_source as existing_module_source

SPLITS = ("verified", "train")


def assign_auto_splits(
    tasks: Iterable[tuple[str, str]], seed: str, verified_share: float
) -> dict[str, str]:
    """Split `auto` tasks (id, level) from scratch so each difficulty level gives
    `verified_share` of its tasks to verified (rounded half up), by a seeded hash of the id.
    Builds go through the lock (`stages.splitlock`), which counts tasks already placed."""
    from pipeline.stages.splitlock import AutoTask, assign

    chosen = assign([AutoTask(i, level, "") for i, level in tasks], {}, seed, verified_share,
                    prefer_expert=False)
    return {task_id: entry.split for task_id, entry in chosen.items()}


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def write_task_output(
    out_dir: Path,
    readme: Path,
    sources: SuiteSources,
    accepted: list[TestCase],
    task_json: dict[str, Any],
) -> None:
    """Write one output task atomically: build beside it, then swap it in."""
    staging = out_dir.with_name(f".{out_dir.name}.writing")
    shutil.rmtree(staging, ignore_errors=True)
    tests = staging / "tests"
    tests.mkdir(parents=True)
    shutil.copyfile(readme, staging / "README.md")
    write_files(tests, shipped_files(accepted, sources))
    _write(staging / "task.json", json.dumps(task_json, indent=2, ensure_ascii=False) + "\n")
    old = out_dir.with_name(f".{out_dir.name}.old")
    shutil.rmtree(old, ignore_errors=True)
    if out_dir.exists():
        out_dir.rename(old)
    staging.rename(out_dir)
    shutil.rmtree(old, ignore_errors=True)


def write_index(split_dir: Path, rows: list[dict[str, Any]]) -> None:
    lines = [json.dumps(r, ensure_ascii=False, sort_keys=True) for r in sorted(
        rows, key=lambda r: r["id"])]
    _write(split_dir / "index.jsonl", "".join(line + "\n" for line in lines))


def prune_outputs(data_dir: Path, keep: dict[str, str]) -> None:
    """Remove output tasks that are gone from raw or moved to the other split."""
    for split in SPLITS:
        split_dir = data_dir / split
        if not split_dir.is_dir():
            continue
        for child in split_dir.iterdir():
            if child.is_dir() and (child / "task.json").is_file() and keep.get(child.name) != split:
                shutil.rmtree(child)
