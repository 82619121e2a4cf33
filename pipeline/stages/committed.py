"""Committed outputs of tasks this store has not built: kept as they are, never deleted.

Why: a fresh clone, a lost `state.db` or `build --task NEW` leaves a store that holds only
some of the tasks in data/raw. Publishing from it alone used to rewrite the splits as if the
others did not exist, deleting their committed folders and index rows. A task the store
cannot write (never built here, or its build failed or has not finished) keeps its output
folder byte for byte, and its index row and card row are read from its committed
`task.json`; only a task removed from data/raw loses its outputs.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pipeline.stages.split import SPLITS
from pipeline.store import Store

WHY = {
    None: "not built here",
    "failed": "its build failed here",
    "running": "its build has not finished here",
    "pending": "its build has not finished here",
}


class CommittedError(ValueError):
    """A committed output that cannot be read (its task.json is not JSON)."""


@dataclass(frozen=True)
class Carried:
    """One task's committed output, published as it is."""

    task_id: str
    split: str
    folder: Path  # data/<split>/<id>, inside the data folder the outputs were committed in
    task_json: dict[str, Any]
    why: str


def unbuilt(store: Store, raw_ids: set[str], loadable: set[str] | None = None
            ) -> dict[str, str]:
    """The task folders of data/raw the store cannot write outputs for -> why: no finished
    build here, or (when `loadable` is given) a task folder that does not load now."""
    rows = {row.id: row for row in store.tasks()}
    out = {}
    for task_id in sorted(raw_ids):
        row = rows.get(task_id)
        if row is None or row.state != "done":
            state = None if row is None else row.state
            out[task_id] = WHY.get(state, f"its build is {state} here")
        elif loadable is not None and task_id not in loadable:
            out[task_id] = "its task folder does not load (`repogenesis check` says why)"
    return out


def committed_folder(data_dir: Path, task_id: str) -> tuple[str, Path] | None:
    """Where a task's committed output is (the first split that has its task.json)."""
    for split in SPLITS:
        folder = data_dir / split / task_id
        if (folder / "task.json").is_file():
            return split, folder
    return None


def read_task_json(folder: Path) -> dict[str, Any]:
    path = folder / "task.json"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise CommittedError(f"{path}: not valid JSON ({exc}); restore it with "
                             f"`git checkout -- {path}` or rebuild its task") from None
    if not isinstance(data, dict):
        raise CommittedError(f"{path}: not a JSON object; restore it with "
                             f"`git checkout -- {path}` or rebuild its task")
    return data


def carried_outputs(data_dir: Path, store: Store, raw_ids: set[str],
                    loadable: set[str] | None = None) -> list[Carried]:
    """The committed outputs a publish keeps as they are, sorted by task id."""
    out = []
    for task_id, why in unbuilt(store, raw_ids, loadable).items():
        found = committed_folder(data_dir, task_id)
        if found is not None:
            split, folder = found
            out.append(Carried(task_id, split, folder, read_task_json(folder), why))
    return out


def index_row(task_json: dict[str, Any], split: str) -> dict[str, Any]:
    """A task's line of `<split>/index.jsonl`, from its task.json (pure): one rule for built
    and carried tasks, so a carried line is the one its build wrote."""
    difficulty = task_json.get("difficulty") or {}
    mutation = task_json.get("mutation") or {}
    return {
        "id": task_json["id"],
        "language": task_json.get("language"),
        "framework": task_json.get("framework"),
        "domain": task_json.get("domain"),
        "port": task_json.get("port"),
        "difficulty": difficulty.get("level"),
        "difficulty_score": difficulty.get("score"),
        "endpoints": len(task_json.get("endpoints") or []),
        "tests": len(task_json.get("test_cases") or []),
        "mutation_score": mutation.get("score"),
        # alternatives every published test passes on; cases they stopped as over-specified
        "alternatives": (task_json.get("alternatives") or {}).get("every_test_passes_on", 0),
        "over_specified": (task_json.get("alternatives") or {}).get("over_specified", 0),
        "categories": task_json.get("categories") or {},
        "path": f"{split}/{task_json['id']}",
    }


def not_built_line(carried: list[Carried], refresh: str = "./dev.sh build") -> str:
    """What a check could not check, in one line."""
    ids = ", ".join(c.task_id for c in carried)
    return (f"not built here: {len(carried)} task(s) ({ids}); their committed outputs were "
            f"kept unchecked; run `{refresh}` to check them")
