"""`repogenesis calibrate`: score a fixed, stratified sample of stored cases with one rubric
version and record alpha with its interval, keeping the history across rubric versions.

Why a fixed sample: the paper's alpha rose from 0.032 to 0.69 over 150 test-case evaluations
as the rubric was refined; a trajectory only means something when every rubric version is
scored on the same cases. The sample is drawn per (split, category) stratum in proportion to
its size (largest remainders), by a seeded hash, from the stored case versions that ran on the
oracle. History lives in `data/calibration.jsonl`, a plain file git can diff (one line per
rubric version, seed and sample size; rerunning one replaces its line, no timestamps).
"""

from __future__ import annotations

import hashlib
import json
import math
from collections import defaultdict
from pathlib import Path
from typing import Any, Unpack

from pipeline.backend import Backend, OfflineBackend
from pipeline.records import Review, TestCase
from pipeline.rubric import Rubric
from pipeline.stages.agreement import Bootstrap, figures
from pipeline.store import Store

HISTORY_NAME = "calibration.jsonl"


def stratified_sample(strata: dict[tuple[str, str], list[str]], size: int, seed: int
                      ) -> list[str]:
    """`size` keys drawn across strata in proportion to their sizes (largest remainders,
    ties by stratum), within a stratum by a seeded hash; sorted. All keys when fewer."""
    total = sum(len(v) for v in strata.values())
    if total <= size:
        return sorted(k for v in strata.values() for k in v)
    quotas = {s: size * len(v) / total for s, v in strata.items()}
    counts = {s: math.floor(q) for s, q in quotas.items()}
    left = size - sum(counts.values())
    for s in sorted(quotas, key=lambda s: (-(quotas[s] - counts[s]), s))[:left]:
        counts[s] += 1
    out = []
    for s, keys in strata.items():
        ranked = sorted(keys, key=lambda k: hashlib.sha256(f"{seed}:{k}".encode()).hexdigest())
        out += ranked[:counts[s]]
    return sorted(out)


def sample_cases(store: Store, size: int, seed: int) -> list[TestCase]:
    """The stored case versions with oracle evidence, sampled per (split, category)."""
    by_key: dict[str, TestCase] = {}
    strata: dict[tuple[str, str], list[str]] = defaultdict(list)
    for task in store.tasks():
        if task.split not in ("verified", "train"):
            continue
        for rnd in range(0, 64):
            cases = store.cases_for_round(task.id, rnd)
            if not cases:
                break
            for case in cases:
                if store.evidence_for(case.case_id, rnd) is None:
                    continue
                key = f"{case.case_id}@{rnd}"
                by_key[key] = case
                strata[(task.split, case.category)].append(key)
    return [by_key[k] for k in stratified_sample(dict(strata), size, seed)]


def calibrate(store: Store, data_dir: Path, rubric: Rubric, *, sample: int = 150,
              backend: Backend | None = None, **bootstrap: Unpack[Bootstrap]) -> dict[str, Any]:
    """Review the sample with `rubric`, record alpha with its interval, return the entry;
    `bootstrap`'s seed also draws the sample."""
    backend = backend or OfflineBackend()
    seed = bootstrap.get("seed", 0)
    cases = sample_cases(store, sample, seed)
    reviews: list[Review] = []
    for case in cases:
        task = store.get_task(case.task_id)
        readme = data_dir / "raw" / case.task_id / "README.md"
        text = readme.read_text(encoding="utf-8") if readme.is_file() else ""
        reviews += backend.review(case, store.evidence_for(case.case_id, case.round),
                                  task.spec, text, rubric)
    fig = figures(reviews, conflict_spread=rubric.routing.conflict_spread, **bootstrap)
    total = fig["alpha"]["total"]
    entry = {
        "rubric_hash": rubric.hash, "rubric_version": rubric.version, "rubric": rubric.name,
        "seed": seed, "sample": sample, "units": fig["units"], "reviewers": fig["reviewers"],
        "backend": backend.name, "alpha": total["interval"], "ci95": total["ci95"],
        "ordinal": total["ordinal"], "within_2": fig["agreement"]["within_2"],
        "undefined": total["undefined"].get("interval"),
        "cases": hashlib.sha256("\n".join(f"{c.case_id}@{c.round}" for c in cases).encode()
                                ).hexdigest()[:16],
    }
    record(data_dir / HISTORY_NAME, entry)
    return entry


def read_history(path: Path) -> list[dict[str, Any]]:
    if not path.is_file():
        return []
    out = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if line.strip():
            try:
                out.append(json.loads(line))
            except json.JSONDecodeError as exc:
                raise ValueError(f"{path}:{n}: not JSON ({exc.msg}); fix or delete the line"
                                 ) from None
    return out


def record(path: Path, entry: dict[str, Any]) -> None:
    """Append the entry, or replace in place the line of the same rubric, seed, sample size
    and backend."""
    key = (entry["rubric_hash"], entry["seed"], entry["sample"], entry["backend"])
    history = read_history(path)
    same = [i for i, e in enumerate(history)
            if (e["rubric_hash"], e["seed"], e["sample"], e.get("backend")) == key]
    if same:
        history[same[0]] = entry  # keeps its place in the trajectory
    else:
        history.append(entry)
    path.write_text("".join(json.dumps(e, sort_keys=True) + "\n" for e in history),
                    encoding="utf-8")
