"""`repogenesis publish` and the end of `build`: everything written from the store in one go,
the splits (pipeline.stages.publish), the dataset card and its tables (pipeline.reports.card)
and decisions.jsonl. It lives above stages and reports because it uses both: a stage never
imports a report.
"""

from __future__ import annotations

from pathlib import Path

from pipeline.chair.files import decisions_path, export_decisions, sync_decisions
from pipeline.reports.card import write_cards
from pipeline.stages.committed import carried_outputs
from pipeline.stages.publish import publish, raw_tasks
from pipeline.stages.taskstate import raw_ids
from pipeline.store import Store


def publish_data(data_dir: Path, store: Store, out_dir: Path | None = None) -> dict[str, int]:
    """`repogenesis publish` and the end of `build`: the splits and decisions.jsonl rewritten
    from the store (no execution, no model calls), with every Area Chair decision applied;
    a task of data/raw the store has not built keeps its committed output (`committed`).
    `out_dir` (the checks) writes there instead and leaves data_dir and the store
    untouched; in place, decisions.jsonl's lines the store lacks are imported first, so the
    rewritten file never loses one."""
    if out_dir is None:
        sync_decisions(data_dir, store)
    target = out_dir or data_dir
    tasks = raw_tasks(data_dir)
    carried = carried_outputs(data_dir, store, raw_ids(data_dir), set(tasks))
    written = publish(target, store, tasks, carried)
    write_cards(target, store, tasks, carried)
    export_decisions(store, decisions_path(target))
    return written
