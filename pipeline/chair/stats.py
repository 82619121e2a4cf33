"""`chair stats`: per chair, how many decisions, how long each took (from opening the case to
submitting), and how often an accept/reject agreed with the reviewers' mean ≥ 7."""

from __future__ import annotations

from datetime import datetime
from statistics import median
from typing import Any

from pipeline.chair.core import agrees
from pipeline.rubric import load_rubric
from pipeline.store import Store


def _seconds(opened: str | None, submitted: str) -> float | None:
    if not opened:
        return None
    delta = datetime.fromisoformat(submitted) - datetime.fromisoformat(opened)
    return max(delta.total_seconds(), 0.0)


def chair_stats(store: Store) -> dict[str, Any]:
    accept_mean = load_rubric().routing.accept_mean  # the rubric's routing block decides
    per: dict[str, dict[str, Any]] = {}
    for d in store.ac_decisions():
        entry = per.setdefault(d.chair, {"decisions": 0, "accept": 0, "reject": 0, "refine": 0,
                                         "_times": [], "_agree": []})
        entry["decisions"] += 1
        entry[d.decision] = entry.get(d.decision, 0) + 1
        seconds = _seconds(d.opened_at, d.submitted_at)
        if seconds is not None:
            entry["_times"].append(seconds)
        totals = [r.scores.total for r in store.reviews_for(d.case_id, d.round) if r.scores]
        agreed = agrees(d.decision, sum(totals) / len(totals) if totals else None,
                        accept_mean=accept_mean)
        if agreed is not None:
            entry["_agree"].append(agreed)
    out = {}
    for chair, entry in sorted(per.items()):
        times, agree = entry.pop("_times"), entry.pop("_agree")
        entry["median_seconds"] = round(median(times), 1) if times else None
        entry["agreement"] = round(sum(agree) / len(agree), 3) if agree else None
        entry["agreement_of"] = len(agree)
        out[chair] = entry
    return {"chairs": out}
