"""Write the output splits from the store: `data/<split>/<id>/` and `index.jsonl`.

Everything written derives from stored records, sorted, with no timestamps or durations,
so the same store always gives the same bytes.
"""

from __future__ import annotations

import shutil
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pipeline.chair.apply import chair_summary, published_views, task_counts
from pipeline.records import TestCase
from pipeline.rubric import rubric_hash
from pipeline.spec import spec_json
from pipeline.stages.alternatives import alternative_figures
from pipeline.stages.committed import Carried, index_row
from pipeline.stages.existing import existing_conftest, existing_order
from pipeline.stages.mutate import suite_mutation
from pipeline.stages.split import SPLITS, prune_outputs, write_index, write_task_output
from pipeline.store import AreaChairDecision, Store
from pipeline.suites import SuiteSources, case_file, conftest_source
from pipeline.tasks import RawTask, TaskError, discover_tasks, load_task


def accepted_cases(store: Store, task_id: str) -> list[tuple[TestCase, Any]]:
    """Latest versions the reviewers accepted, or that an Area Chair accepted on exactly that
    version (see pipeline.chair)."""
    row = store.get_task(task_id)
    return [] if row is None else [(v.case, v.route) for v in published_views(store, row)]


def case_entry(store: Store, case: TestCase, route: Any,
               chair: AreaChairDecision | None = None) -> dict[str, Any]:
    reviews = store.reviews_for(case.case_id, case.round)
    totals = [r.scores.total for r in reviews if r.scores is not None]
    evidence = store.evidence_for(case.case_id, case.round)
    return {
        "id": case.case_id,
        "name": case.name,
        "category": case.category,
        "file": f"tests/{case_file(case)}",
        "nodeid": f"{case_file(case)}::{case.node_name}",  # pytest's, inside tests/
        "endpoints": case.endpoints,
        "scores": {
            "mean": round(sum(totals) / len(totals), 2) if totals else None,
            "reviews": {
                r.reviewer: (r.scores.model_dump() | {"total": r.scores.total})
                if r.scores
                else None
                for r in sorted(reviews, key=lambda r: r.reviewer)
            },
        },
        "route": {"route": route.route, "reason": route.reason}
        | ({"area_chair": {"decision": chair.decision, "chair": chair.chair,
                           "scores": chair.scores.model_dump() if chair.scores else None,
                           "note": chair.note}} if chair else {}),
        # the refiner's answer to the reviews of the previous version (the rebuttal)
        "rebuttal": [a.model_dump() for a in case.rebuttal],
        "provenance": {
            "origin": case.origin,
            "author": case.author,
            "round": case.round,
            "reviewers": sorted(r.reviewer for r in reviews),
            "oracle_runs": [r.outcome for r in evidence.runs] if evidence else [],
            # runs on the task's independent correct implementations (name -> outcome)
            "alternative_runs": {a.name: a.outcome for a in evidence.alternatives
                                 if not a.suspect}
            if evidence else {},
            # and on the model-written ones (`build --alternatives K`): evidence, not verdicts
            **({"suspect_runs": suspects} if (suspects := {
                a.name: a.outcome for a in (evidence.alternatives if evidence else [])
                if a.suspect}) else {}),
        },
    }


def _suite_mutation(report: dict[str, Any] | None) -> dict[str, Any] | None:
    """The suite-level part of the mutation report (per-test scores sit on each case)."""
    if report is None:
        return None
    return {k: v for k, v in report.items() if k != "per_test"}


def published_rows(store: Store, tasks: dict[str, RawTask]) -> list[Any]:
    """The tasks a publish writes, by id: finished, still in data/raw, with at least one
    accepted case (an empty suite is never published; status names its endpoints)."""
    return [row for row in sorted(store.tasks(), key=lambda r: r.id)
            if row.id in tasks and row.state == "done" and row.split in SPLITS
            and row.spec is not None and published_views(store, row)]


def publish(data_dir: Path, store: Store, tasks: dict[str, RawTask],
            carried: Sequence[Carried] = ()) -> dict[str, int]:
    """Write every finished task, keep every `carried` one's committed output (copied here
    when it lies elsewhere); returns tasks written per split (carried ones included)."""
    rows: dict[str, list[dict[str, Any]]] = {s: [] for s in SPLITS}
    keep: dict[str, str] = {}
    for kept in carried:
        out_dir = data_dir / kept.split / kept.task_id
        if out_dir.resolve() != kept.folder.resolve():
            shutil.rmtree(out_dir, ignore_errors=True)
            shutil.copytree(kept.folder, out_dir)
        keep[kept.task_id] = kept.split
        rows[kept.split].append(index_row(kept.task_json, kept.split))
    for row in published_rows(store, tasks):
        task = tasks[row.id]
        views = published_views(store, row)
        accepted = [(v.case, v.route) for v in views]
        chair = {v.case.case_id: v.decision for v in views}
        cases = [c for c, _ in accepted]
        mutation = suite_mutation(store, row.id, row.input_hash or "", cases) if cases else None
        entries = [
            case_entry(store, c, r, chair[c.case_id])
            for c, r in sorted(accepted, key=lambda cr: cr[0].case_id)
        ]
        if mutation is not None:
            for entry in entries:
                entry["mutation"] = mutation["per_test"].get(entry["id"])
        categories = Counter(c.category for c in cases)
        task_json = {
            "id": row.id,
            "language": task.config.language,
            "framework": task.config.framework,
            "domain": task.config.domain,
            "port": task.config.port,
            "split": row.split,
            "endpoints": spec_json(row.spec),
            "difficulty": row.difficulty.model_dump(mode="json") if row.difficulty else None,
            "rubric_hash": rubric_hash(),
            "generated_by": sorted({c.author for c in cases}),
            "offline": all(c.author in ("offline", "human") for c in cases),
            "categories": dict(sorted(categories.items())),
            "mutation": _suite_mutation(mutation),
            "area_chair": chair_summary(task_counts(store, row)),
            "alternatives": alternative_figures(store, row.id, cases),
            "test_cases": entries,
        }
        out_dir = data_dir / row.split / row.id
        sources = SuiteSources(conftest_source(row.spec, task.config.port),
                               existing_conftest(task.tests_dir), existing_order(task.tests_dir))
        write_task_output(out_dir, task.readme, sources, cases, task_json)
        keep[row.id] = row.split
        rows[row.split].append(index_row(task_json, row.split))
    prune_outputs(data_dir, keep)
    for split in SPLITS:
        write_index(data_dir / split, rows[split])
    return {s: len(rows[s]) for s in SPLITS}


def raw_tasks(data_dir: Path) -> dict[str, RawTask]:
    """The loadable tasks of data/raw by id (an unloadable one publishes nothing)."""
    out = {}
    for task_dir in discover_tasks(data_dir / "raw"):
        try:
            out[task_dir.name] = load_task(task_dir)
        except TaskError:
            continue
    return out
