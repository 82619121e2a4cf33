"""Write the output splits from the store: `data/<split>/<id>/` and `index.jsonl`.

Everything written derives from stored records, sorted, with no timestamps or durations,
so the same store always gives the same bytes.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from pipeline.offline.generate import conftest_source, module_source
from pipeline.records import TestCase
from pipeline.rubric import rubric_hash
from pipeline.spec import spec_json
from pipeline.stages.existing import existing_conftest
from pipeline.stages.mutate import suite_mutation
from pipeline.stages.split import SPLITS, case_file, prune_outputs, write_index, write_task_output
from pipeline.store import Store
from pipeline.tasks import RawTask


def accepted_cases(store: Store, task_id: str) -> list[tuple[TestCase, Any]]:
    """Latest versions whose latest route is accepted, or that an Area Chair accepted."""
    out = []
    for case in store.latest_cases(task_id):
        route = store.latest_route(case.case_id)
        if route is None:
            continue
        decisions = [d for d in store.ac_decisions(case.case_id) if d.round == case.round]
        if route.route == "accepted" or (
            route.route == "area_chair" and decisions and decisions[-1].decision == "accept"
        ):
            out.append((case, route))
    return out


def case_entry(store: Store, case: TestCase, route: Any) -> dict[str, Any]:
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
        "route": {"route": route.route, "reason": route.reason},
        # the refiner's answer to the reviews of the previous version (the rebuttal)
        "rebuttal": [a.model_dump() for a in case.rebuttal],
        "provenance": {
            "origin": case.origin,
            "author": case.author,
            "round": case.round,
            "reviewers": sorted(r.reviewer for r in reviews),
            "oracle_runs": [r.outcome for r in evidence.runs] if evidence else [],
        },
    }


def _suite_mutation(report: dict[str, Any] | None) -> dict[str, Any] | None:
    """The suite-level part of the mutation report (per-test scores sit on each case)."""
    if report is None:
        return None
    return {k: v for k, v in report.items() if k != "per_test"}


def publish(data_dir: Path, store: Store, tasks: dict[str, RawTask]) -> dict[str, int]:
    """Write every finished task; returns tasks written per split."""
    rows: dict[str, list[dict[str, Any]]] = {s: [] for s in SPLITS}
    keep: dict[str, str] = {}
    for row in sorted(store.tasks(), key=lambda r: r.id):
        task = tasks.get(row.id)
        if task is None or row.state != "done" or row.split not in SPLITS or row.spec is None:
            continue
        accepted = accepted_cases(store, row.id)
        cases = [c for c, _ in accepted]
        mutation = suite_mutation(store, row.id, row.input_hash or "", cases) if cases else None
        entries = [
            case_entry(store, c, r) for c, r in sorted(accepted, key=lambda cr: cr[0].case_id)
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
            "test_cases": entries,
        }
        out_dir = data_dir / row.split / row.id
        write_task_output(
            out_dir,
            task.readme,
            conftest_source(row.spec, task.config.port),
            existing_conftest(task.tests_dir),
            cases,
            task_json,
            module_source,
        )
        keep[row.id] = row.split
        rows[row.split].append(
            {
                "id": row.id,
                "language": task.config.language,
                "framework": task.config.framework,
                "domain": task.config.domain,
                "port": task.config.port,
                "difficulty": row.difficulty.level if row.difficulty else None,
                "difficulty_score": row.difficulty.score if row.difficulty else None,
                "endpoints": len(row.spec.endpoints),
                "tests": len(cases),
                "mutation_score": mutation["score"] if mutation else None,
                "categories": dict(sorted(categories.items())),
                "path": f"{row.split}/{row.id}",
            }
        )
    prune_outputs(data_dir, keep)
    for split in SPLITS:
        write_index(data_dir / split, rows[split])
    return {s: len(rows[s]) for s in SPLITS}
