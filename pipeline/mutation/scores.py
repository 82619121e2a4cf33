"""Mutation scores from mutant runs (pure: records in, a JSON-ready dict out).

A mutant is *valid* when its service started and the suite ran against it; *stillborn* mutants
(the service never answered), *invalid* ones (did not compile) and ones *not_run* (no result:
interrupted, or no test passed on the oracle) are listed but not counted.
A test case *kills* a mutant when it failed or errored against the mutant's service while it
passed on the unmutated oracle; tests that did not pass on the oracle get no kill credit.

- per test case: score = mutants it kills / valid mutants;
- per suite: score = mutants killed by at least one test / valid mutants;
- per fault kind (`by_kind`): the same score over the valid mutants of each kind.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from .operators import Mutant

MutantStatus = Literal["ran", "stillborn", "invalid"]
_PARAMS = re.compile(r"\[.*\]$")


@dataclass
class MutantResult:
    """What running the suite against one mutant showed. `failed`: node ids that failed or
    errored (tests that never ran are not in it)."""

    mutant_id: str
    status: MutantStatus
    failed: list[str] = field(default_factory=list)
    detail: str = ""
    duration_s: float = 0.0


def case_of(nodeid: str, nodeid_to_case: Mapping[str, str] | None) -> str:
    """The test case a node id belongs to (parametrised ids fall back to their function)."""
    if not nodeid_to_case:
        return nodeid
    if nodeid in nodeid_to_case:
        return nodeid_to_case[nodeid]
    return nodeid_to_case.get(_PARAMS.sub("", nodeid), nodeid)


def case_map_from_task_json(task_json: Mapping[str, Any]) -> dict[str, str]:
    """node id (relative to the task's tests/ folder) -> case id, from a published task.json."""
    out = {}
    for case in task_json.get("test_cases", []):
        rel = str(case["file"]).removeprefix("tests/")
        out[case.get("nodeid") or f"{rel}::{case['name']}"] = str(case["id"])
    return out


def _ratio(part: int, whole: int) -> float | None:
    return round(part / whole, 4) if whole else None


def score_by_kind(detail: Sequence[Mapping[str, Any]]) -> dict[str, dict[str, Any]]:
    """Per fault kind: valid mutants (that ran), killed, score. Kinds sorted by name."""
    out: dict[str, dict[str, Any]] = {}
    for entry in detail:
        if entry["status"] not in ("killed", "survived"):
            continue
        kind = str(entry.get("kind") or entry.get("operator") or "unknown")
        row = out.setdefault(kind, {"valid": 0, "killed": 0})
        row["valid"] += 1
        row["killed"] += entry["status"] == "killed"
    return {k: v | {"score": _ratio(v["killed"], v["valid"])} for k, v in sorted(out.items())}


def mutation_scores(
    mutants: Sequence[Mutant],
    results: Mapping[str, MutantResult],
    baseline_passed: Iterable[str],
    nodeid_to_case: Mapping[str, str] | None = None,
    all_nodeids: Iterable[str] = (),
) -> dict[str, Any]:
    """The task.json block: totals, per-test kills and scores, and every mutant's detail.

    `baseline_passed`: node ids that passed on the unmutated oracle; `all_nodeids`: every node
    id the suite has (so tests that fail on the oracle are listed as excluded).
    """
    passed = set(baseline_passed)
    cases_ok = {case_of(n, nodeid_to_case) for n in passed}
    every = set(all_nodeids) | passed
    every_case = {case_of(n, nodeid_to_case) for n in every}
    if nodeid_to_case:
        every_case |= set(nodeid_to_case.values())
    per_case_kills: dict[str, list[str]] = {c: [] for c in sorted(every_case)}
    detail = []
    counts = {"ran": 0, "stillborn": 0, "invalid": 0, "not_run": 0, "killed": 0}
    for mutant in mutants:
        res = results.get(mutant.id)
        status = res.status if res is not None else "not_run"
        killers = sorted({case_of(n, nodeid_to_case) for n in (res.failed if res else [])
                          if n in passed})
        counts[status] += 1
        if status == "ran":
            counts["killed"] += bool(killers)
            for case in killers:
                per_case_kills.setdefault(case, []).append(mutant.id)
        else:
            killers = []
        entry = mutant.summary() | {
            "status": ("killed" if killers else "survived") if status == "ran" else status,
            "killed_by": killers,
        }
        if res is not None and res.detail and status != "ran":
            entry["detail"] = res.detail
        detail.append(entry)
    valid = counts["ran"]
    per_test: dict[str, dict[str, Any]] = {}
    for case, killed in sorted(per_case_kills.items()):
        if case in cases_ok:
            per_test[case] = {"killed": killed, "score": _ratio(len(killed), valid)}
        else:
            per_test[case] = {"killed": [], "score": None,
                              "excluded": "did not pass on the unmutated oracle"}
    return {
        "mutants": len(mutants),
        "valid": valid,
        "killed": counts["killed"],
        "survived": valid - counts["killed"],
        "stillborn": counts["stillborn"],
        "invalid": counts["invalid"],
        "not_run": counts["not_run"],
        "score": _ratio(counts["killed"], valid),
        "by_kind": score_by_kind(detail),
        "per_test": per_test,
        "mutants_detail": detail,
    }


def merge_rounds(
    round_reports: Sequence[Mapping[str, Any]],
    kills: Mapping[str, Sequence[str] | None],
) -> dict[str, Any] | None:
    """The suite's report from per-round runs: what the given cases (the accepted suite) kill.

    `round_reports`: the `mutation_scores`-shaped reports of each round's run against the
    task's fixed mutant set (only mutant statuses and the set's description are used);
    `kills`: case id -> mutant ids it killed in its own round (None: no kill credit, e.g. it
    failed on the oracle in that run). A mutant is valid when it ran in any round; the suite
    kills a mutant when any of the cases does. None when no round ran.
    """
    if not round_reports:
        return None
    first = round_reports[0]
    status: dict[str, str] = {}
    summary: dict[str, dict[str, Any]] = {}
    for report in round_reports:
        for entry in report["mutants_detail"]:
            mid = entry["id"]
            summary.setdefault(mid, {k: v for k, v in entry.items()
                                     if k not in ("status", "killed_by", "detail")})
            ran = entry["status"] in ("killed", "survived")
            if ran or mid not in status:
                status[mid] = "ran" if ran else entry["status"]
    valid = sum(1 for s in status.values() if s == "ran")
    killers: dict[str, list[str]] = {mid: [] for mid in summary}
    per_test: dict[str, dict[str, Any]] = {}
    for case, killed in sorted(kills.items()):
        if killed is None:
            per_test[case] = {"killed": [], "score": None,
                              "excluded": "no kill credit: not run against the mutants, or "
                                          "did not pass on the unmutated oracle"}
            continue
        mine = sorted(m for m in set(killed) if status.get(m) == "ran")
        for mid in mine:
            killers[mid].append(case)
        per_test[case] = {"killed": mine, "score": _ratio(len(mine), valid)}
    detail = []
    for mid, info in summary.items():
        state = status[mid]
        if state == "ran":
            state = "killed" if killers[mid] else "survived"
        kind = info.get("kind") or info.get("operator")
        detail.append(info | {"kind": kind, "status": state, "killed_by": killers[mid]})
    killed_count = sum(1 for d in detail if d["status"] == "killed")
    counts = Counter(status.values())
    return {
        "mutants": len(summary),
        "valid": valid,
        "killed": killed_count,
        "survived": valid - killed_count,
        "stillborn": counts["stillborn"],
        "invalid": counts["invalid"],
        "not_run": counts["not_run"],
        "score": _ratio(killed_count, valid),
        "by_kind": score_by_kind(detail),
        "per_test": per_test,
        "mutants_detail": detail,
        **{k: first[k] for k in ("candidates", "cap", "seed", "operators") if k in first},
    }
