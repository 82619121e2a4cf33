"""What Area Chair decisions change: which cases a split publishes, the counts `status` and
`task.json` show, and the cases a chair sent back that the next build refines with the note.
Reads the store only; nothing here executes a test or calls a model."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pipeline.chair.service import CaseView, task_views
from pipeline.records import Evidence, Review, TestCase
from pipeline.routing import chair_refine_route
from pipeline.store import Store, TaskRow

PUBLISHED = ("accepted", "chair_accepted")


def published_views(store: Store, task: TaskRow) -> list[CaseView]:
    """Latest versions the reviewers accepted or an Area Chair accepted, by case id."""
    return [v for v in task_views(store, task) if v.state in PUBLISHED]


def task_counts(store: Store, task: TaskRow) -> dict[str, Any]:
    """Counts for `status`: accepted (reviewers + chair), the chair's accepts and rejects
    apart, waiting for the chair (`area_chair`), refining, discarded by reason (a chair's
    reject is discarded as `area_chair`)."""
    out: dict[str, Any] = {"accepted": 0, "chair_accepted": 0, "chair_rejected": 0,
                           "area_chair": 0, "refining": 0, "discarded": {}}
    for view in task_views(store, task):
        state = view.state
        if state == "pending":
            continue
        if state in PUBLISHED:
            out["accepted"] += 1
            out["chair_accepted"] += state == "chair_accepted"
        elif state == "waiting":
            out["area_chair"] += 1
        elif state in ("refining", "chair_refine"):
            out["refining"] += 1
        else:
            reason = "area_chair" if state == "chair_rejected" else state.split(":", 1)[1]
            out["chair_rejected"] += state == "chair_rejected"
            out["discarded"][reason] = out["discarded"].get(reason, 0) + 1
    out["discarded"] = dict(sorted(out["discarded"].items()))
    return out


def chair_summary(counts: dict[str, Any]) -> dict[str, int]:
    """The Area Chair part of `task.json`."""
    return {"accepted": counts["chair_accepted"], "rejected": counts["chair_rejected"],
            "waiting": counts["area_chair"]}


def pending_refines(store: Store, task: TaskRow) -> list[CaseView]:
    """Cases a chair sent back whose next version the build has not written yet."""
    return [v for v in task_views(store, task) if v.state == "chair_refine"]


def apply_refines(store: Store, task: TaskRow, refine: Callable[[TestCase, Evidence | None,
                  list[Review], str], TestCase]) -> int:
    """Write the next version of every case a chair sent back (refined with the chair's
    note), with a `refine` route naming the chair; returns how many were handled."""
    views = pending_refines(store, task)
    for view in views:
        evidence = store.evidence_for(view.case.case_id, view.case.round)
        reviews = store.reviews_for(view.case.case_id, view.case.round)
        note = view.decision.note if view.decision else ""
        refined = refine(view.case, evidence, reviews, note)
        unchanged = (refined.code, refined.prelude) == (view.case.code, view.case.prelude)
        route = chair_refine_route(view.case, view.route,
                                   chair=view.decision.chair if view.decision else "?",
                                   note=note, unchanged=unchanged, evidence=evidence)
        if unchanged:
            refined = None
        with store.transaction():
            store.save_route(route)
            if refined is not None:
                store.save_case(refined.model_copy(update={"round": view.case.round + 1}))
    return len(views)
