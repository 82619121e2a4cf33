"""`data/decisions.jsonl`: every Area Chair decision as a plain line, appended the moment it is
stored, so decisions survive a lost state database and travel with the data (git can diff it).
`import_decisions` puts the lines back into a store, skipping the ones already there."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from pipeline.chair.core import ChairError, Verdict
from pipeline.records import Scores
from pipeline.store import AreaChairDecision, Store

FIELDS = ("case_id", "round", "decision", "scores", "note", "chair", "submitted_at",
          "task_id", "code_hash", "input_hash", "state_before", "opened_at")


def decisions_path(data_dir: Path) -> Path:
    return data_dir / "decisions.jsonl"


def line(d: AreaChairDecision) -> str:
    row: dict[str, Any] = {k: getattr(d, k) for k in FIELDS}
    row["scores"] = d.scores.model_dump() if d.scores else None
    return json.dumps(row, ensure_ascii=False, sort_keys=True)


def _key(row: dict[str, Any]) -> tuple:
    return tuple(json.dumps(row.get(k), sort_keys=True) for k in FIELDS)


def append_decision(data_dir: Path, d: AreaChairDecision) -> None:
    """Append and fsync one decision line."""
    path = decisions_path(data_dir)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a", encoding="utf-8") as fh:
        fh.write(line(d) + "\n")
        fh.flush()
        os.fsync(fh.fileno())


def export_decisions(store: Store, path: Path) -> int:
    """Write every stored decision, in submission order; returns how many."""
    decisions = store.ac_decisions()
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text("".join(line(d) + "\n" for d in decisions), encoding="utf-8")
    tmp.replace(path)
    return len(decisions)


def read_decisions(path: Path) -> list[dict[str, Any]]:
    if not path.is_file():
        raise ChairError(f"{path}: no such file; export one with `repogenesis chair export`")
    rows = []
    for number, text in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not text.strip():
            continue
        try:
            row = json.loads(text)
            Verdict(row["decision"])
            if row.get("scores") is not None:
                Scores(**row["scores"])
            missing = [k for k in ("case_id", "round", "chair", "submitted_at") if k not in row]
        except (ValueError, KeyError, TypeError, ValidationError) as exc:
            raise ChairError(f"{path}:{number}: not a decision line ({exc.__class__.__name__}); "
                             f"fix or remove that line and import again") from None
        if missing:
            raise ChairError(f"{path}:{number}: missing {', '.join(missing)}; fix that line")
        rows.append(row)
    return rows


def import_decisions(store: Store, path: Path) -> tuple[int, int]:
    """Append the file's decisions the store does not hold yet; (added, already there).
    All or nothing: a bad line refuses the whole file before anything is written."""
    rows = read_decisions(path)
    known = {_key(json.loads(line(d))) for d in store.ac_decisions()}
    added = 0
    with store.transaction():
        for row in rows:
            full = {k: row.get(k) for k in FIELDS}
            if _key(full) in known:
                continue
            known.add(_key(full))
            store.add_ac_decision(
                full["case_id"], int(full["round"]), full["decision"], chair=full["chair"],
                scores=Scores(**full["scores"]) if full["scores"] else None,
                note=full["note"] or "", submitted_at=full["submitted_at"],
                task_id=full["task_id"], code_hash=full["code_hash"],
                input_hash=full["input_hash"], state_before=full["state_before"],
                opened_at=full["opened_at"])
            added += 1
    return added, len(rows) - added


def sync_decisions(data_dir: Path, store: Store) -> int:
    """Import the lines of data_dir's decisions.jsonl the store lacks (a fresh clone's build
    applies the committed decisions); returns how many. No file: nothing to do."""
    path = decisions_path(data_dir)
    return import_decisions(store, path)[0] if path.is_file() else 0
