"""The tables behind the report, the dataset cards and the export, as pandas DataFrames.

One place decides what "published" means (a done task of a split whose raw task still exists;
its accepted cases, Area Chair accepts included -- `stages.publish.accepted_cases`), so the
report, the cards and the exported files cannot disagree with `data/<split>/`.
Rows are sorted and carry no timestamps: the same store gives the same tables.
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from pipeline.records import RUBRIC_DIMENSIONS
from pipeline.rubric import rubric_hash
from pipeline.stages.alternatives import alternative_figures
from pipeline.stages.committed import Carried, index_row
from pipeline.stages.mutate import suite_mutation
from pipeline.stages.publish import accepted_cases, published_rows
from pipeline.store import Store
from pipeline.tasks import RawTask

TASK_COLUMNS = {
    "id": "task id (data/<split>/<id>)",
    "split": "verified | train",
    "language": "implementation language (pipeline/languages: python, java, ...)",
    "framework": "web framework of the oracle",
    "domain": "what the service is about",
    "source": "github (collected) | expert (written for the benchmark)",
    "difficulty": "Easy | Medium | Hard",
    "difficulty_score": "weighted composite score S",
    "endpoints": "documented endpoints in README.md",
    "tests": "published (accepted) test cases",
    "mutation_score": "killed / valid mutants of the oracle by the published suite (null: none)",
    "alternatives": "independent correct implementations every published test passes on",
    "over_specified": "cases stopped because they failed on an independent correct "
                      "implementation (refined, sent to the Area Chair or discarded)",
    "rubric_hash": "hash of the rubric the reviews used",
    "license": "upstream licence (collected tasks); null for expert-written ones",
    "upstream_url": "upstream repository (collected tasks)",
    "upstream_commit": "upstream commit (collected tasks)",
}
CASE_COLUMNS = {
    "case_id": "<task id>::<test function name>, stable across rounds",
    "task_id": "task id",
    "split": "split of the task",
    "round": "refine round of this version (0: as generated)",
    "category": "api_compliance | error_handling | edge_case | integration",
    "name": "test function name",
    "origin": "generated | existing (human-written) | refined",
    "author": "who wrote this version (provider:model, offline or human)",
    "endpoints": "documented endpoints the case targets, ';'-separated",
    "route": "accepted | area_chair | refine | discarded (latest route)",
    "discard_reason": "low_quality | conflict | fails_on_oracle | invalid | over_specified "
                      "(null otherwise)",
    "reason": "why it was routed so",
    "chair_decision": "the Area Chair's latest decision on this version (null: none)",
    "published": "true when the case ships in data/<split>/<id>/tests",
    "reviews": "valid reviews of this version",
    "mean_total": "mean of the reviewers' totals (0-10)",
    "min_total": "lowest total",
    "max_total": "highest total",
    "oracle_runs": "runs on the oracle, ';'-separated outcomes",
    "code": "the test function's source",
}
# Column types where not text, per table: the export writes them explicitly, so a column that
# is empty in one build (no mutants ran, no Area Chair yet) keeps its type.
TYPES = {
    "tasks": {"difficulty_score": "float64", "endpoints": "int64", "tests": "int64",
              "mutation_score": "float64", "alternatives": "int64", "over_specified": "int64"},
    "cases": {"round": "int64", "published": "bool", "reviews": "int64",
              "mean_total": "float64", "min_total": "int64", "max_total": "int64"},
    "reviews": {"round": "int64", "total": "int64", **dict.fromkeys(RUBRIC_DIMENSIONS, "int64")},
}
REVIEW_COLUMNS = {
    "case_id": "the case", "round": "the reviewed version (every round, not only the latest)",
    "task_id": "task id", "split": "split",
    "reviewer": "reviewer (provider:model or offline:<name>)",
    **{d: f"{d} score" for d in RUBRIC_DIMENSIONS},
    "total": "sum of the four dimensions (0-10)", "rubric_hash": "rubric the reviewer used",
}


def tasks_table(store: Store, tasks: dict[str, RawTask]) -> pd.DataFrame:
    """One row per published task (columns: TASK_COLUMNS)."""
    rows = []
    for row in published_rows(store, tasks):
        task = tasks[row.id]
        cases = [c for c, _ in accepted_cases(store, row.id)]
        mutation = suite_mutation(store, row.id, row.input_hash or "", cases) if cases else None
        upstream = task.config.upstream
        alternatives = alternative_figures(store, row.id, cases)
        rows.append({
            "id": row.id, "split": row.split, "language": task.config.language,
            "framework": task.config.framework, "domain": task.config.domain,
            "source": task.config.source,
            "difficulty": row.difficulty.level if row.difficulty else None,
            "difficulty_score": row.difficulty.score if row.difficulty else None,
            "endpoints": len(row.spec.endpoints), "tests": len(cases),
            "mutation_score": mutation["score"] if mutation else None,
            "alternatives": alternatives["every_test_passes_on"],
            "over_specified": alternatives["over_specified"],
            "rubric_hash": rubric_hash(),
            "license": upstream.license if upstream else None,
            "upstream_url": upstream.url if upstream else None,
            "upstream_commit": upstream.commit if upstream else None,
        })
    return pd.DataFrame(rows, columns=list(TASK_COLUMNS))


def carried_tables(carried: Sequence[Carried], tasks: dict[str, RawTask]
                   ) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Task and case rows of the tasks published from their committed task.json (not built
    here: `stages.committed`), with what that file holds; the rest is null."""
    task_rows, case_rows = [], []
    for kept in carried:
        tj, config = kept.task_json, (tasks[kept.task_id].config if kept.task_id in tasks
                                      else None)
        upstream = config.upstream if config else None
        row = index_row(tj, kept.split)
        task_rows.append({
            "id": kept.task_id, "split": kept.split, "language": row["language"],
            "framework": row["framework"], "domain": row["domain"],
            "source": config.source if config else None, "difficulty": row["difficulty"],
            "difficulty_score": row["difficulty_score"], "endpoints": row["endpoints"],
            "tests": row["tests"], "mutation_score": row["mutation_score"],
            "alternatives": row["alternatives"], "over_specified": row["over_specified"],
            "rubric_hash": tj.get("rubric_hash"),
            "license": upstream.license if upstream else None,
            "upstream_url": upstream.url if upstream else None,
            "upstream_commit": upstream.commit if upstream else None,
        })
        for case in tj.get("test_cases") or []:
            provenance = case.get("provenance") or {}
            case_rows.append({
                "case_id": case.get("id"), "task_id": kept.task_id, "split": kept.split,
                "round": provenance.get("round"), "category": case.get("category"),
                "name": case.get("name"), "origin": provenance.get("origin"),
                "author": provenance.get("author"),
                "endpoints": ";".join(case.get("endpoints") or []),
                "route": (case.get("route") or {}).get("route"), "published": True,
            })
    return (pd.DataFrame(task_rows, columns=list(TASK_COLUMNS)),
            pd.DataFrame(case_rows, columns=list(CASE_COLUMNS)))


def cases_table(store: Store, tasks: dict[str, RawTask], *, all_cases: bool = False
                ) -> pd.DataFrame:
    """One row per published test case; `all_cases` adds every other latest case version of
    the published tasks with its route (columns: CASE_COLUMNS)."""
    rows = []
    for row in published_rows(store, tasks):
        published = {c.case_id for c, _ in accepted_cases(store, row.id)}
        for case in store.latest_cases(row.id):
            if case.case_id not in published and not all_cases:
                continue
            route = store.latest_route(case.case_id)
            decisions = [d for d in store.ac_decisions(case.case_id) if d.round == case.round]
            totals = [r.scores.total for r in store.reviews_for(case.case_id, case.round)
                      if r.scores is not None]
            evidence = store.evidence_for(case.case_id, case.round)
            rows.append({
                "case_id": case.case_id, "task_id": row.id, "split": row.split,
                "round": case.round, "category": case.category, "name": case.name,
                "origin": case.origin, "author": case.author,
                "endpoints": ";".join(case.endpoints),
                "route": route.route if route else None,
                "discard_reason": route.discard_reason if route else None,
                "reason": route.reason if route else None,
                "chair_decision": decisions[-1].decision if decisions else None,
                "published": case.case_id in published, "reviews": len(totals),
                "mean_total": sum(totals) / len(totals) if totals else None,
                "min_total": min(totals) if totals else None,
                "max_total": max(totals) if totals else None,
                "oracle_runs": ";".join(r.outcome for r in evidence.runs) if evidence else "",
                "code": case.code,
            })
    return pd.DataFrame(rows, columns=list(CASE_COLUMNS))


def reviews_table(store: Store, tasks: dict[str, RawTask]) -> pd.DataFrame:
    """One row per valid review of every reviewed case version (every round) of the published
    tasks: the rows the reliability figures are computed from (columns: REVIEW_COLUMNS)."""
    rows = []
    for row in published_rows(store, tasks):
        for r in store.all_reviews(row.id):
            if r.scores is None:
                continue
            rows.append({"case_id": r.case_id, "round": r.round, "task_id": row.id,
                         "split": row.split, "reviewer": r.reviewer,
                         **{d: getattr(r.scores, d) for d in RUBRIC_DIMENSIONS},
                         "total": r.scores.total, "rubric_hash": r.rubric_hash})
    return pd.DataFrame(rows, columns=list(REVIEW_COLUMNS))


def funnel(store: Store, task_ids: list[str]) -> dict[str, int]:
    """Every case of the tasks by its latest route: generated, accepted, refined at least once,
    with the Area Chair, discarded by reason."""
    out: dict[str, int] = {"generated": 0, "refined": 0, "accepted": 0, "area_chair": 0,
                           "refine": 0}
    for task_id in task_ids:
        for case in store.latest_cases(task_id):
            out["generated"] += 1
            out["refined"] += case.round > 0
            route = store.latest_route(case.case_id)
            if route is None:
                continue
            key = route.route if route.route != "discarded" else \
                f"discarded:{route.discard_reason or 'unspecified'}"
            out[key] = out.get(key, 0) + 1
    order = list(out)[:5]  # generated, refined, then the live routes; discards by reason
    return dict(sorted(out.items(), key=lambda kv: (
        order.index(kv[0]) if kv[0] in order else len(order), kv[0])))
