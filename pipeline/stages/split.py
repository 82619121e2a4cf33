"""Splits: which split each task goes to, and writing `data/<split>/<id>/` and `index.jsonl`.

Assignment is pure and seeded; writing is deterministic (sorted, no timestamps) so a build
that was killed and resumed writes the same bytes as one that was not.
"""

from __future__ import annotations

import json
import shutil
import textwrap
from collections import defaultdict
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from pipeline.records import CATEGORIES, TestCase

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


def case_file(case: TestCase) -> str:
    """Where an accepted case ships inside the output task's tests/ folder."""
    if case.origin == "existing" or case.module:
        return f"existing/{case.module or 'test_existing'}.py"
    return f"test_{case.category}.py"


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def existing_module_source(cases: list[TestCase]) -> str:
    """One human-written module again: its prelude, its test functions, and each test class
    (without the methods that were not accepted) with its accepted methods."""
    prelude = cases[0].prelude.rstrip("\n")
    blocks: list[list[str]] = []  # a function: [code]; a class: [shell, method, ...]
    classes: dict[str, list[str]] = {}
    for case in cases:
        code = case.code.strip("\n")
        if not case.test_class:
            blocks.append([code])
            continue
        if case.test_class not in classes:
            classes[case.test_class] = [case.test_class.rstrip("\n")]
            blocks.append(classes[case.test_class])
        classes[case.test_class].append(textwrap.indent(code, "    "))
    body = "\n\n".join("\n\n".join(block) for block in blocks)
    return (prelude + "\n\n\n" if prelude else "") + body + "\n"


def write_task_output(
    out_dir: Path,
    readme: Path,
    conftest: str,
    existing_conftest: str | None,
    accepted: list[TestCase],
    task_json: dict[str, Any],
    module_source,
) -> None:
    """Write one output task atomically: build beside it, then swap it in."""
    staging = out_dir.with_name(f".{out_dir.name}.writing")
    shutil.rmtree(staging, ignore_errors=True)
    tests = staging / "tests"
    tests.mkdir(parents=True)
    shutil.copyfile(readme, staging / "README.md")
    _write(tests / "conftest.py", conftest)
    files: dict[str, list[TestCase]] = defaultdict(list)
    for case in sorted(accepted, key=lambda c: (CATEGORIES.index(c.category), c.name)):
        files[case_file(case)].append(case)
    for name, cases in sorted(files.items()):
        if name.startswith("existing/"):
            _write(tests / name, existing_module_source(cases))
        else:
            _write(tests / name, module_source(cases))
    if any(n.startswith("existing/") for n in files) and existing_conftest:
        _write(tests / "existing" / "conftest.py", existing_conftest)
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
