"""A tiny built store written straight through pipeline/store.py (no build, no services):
two verified tasks and one train task, cases over two rounds, three reviewers with known
scores, routes of every kind, mutation evidence and a few ledger-free records."""

from __future__ import annotations

import random
from pathlib import Path

from pipeline.records import (
    Difficulty,
    DifficultyMetrics,
    DifficultyPoints,
    Endpoint,
    Evidence,
    Review,
    RouteDecision,
    RunResult,
    Scores,
    Spec,
    TestCase,
)
from pipeline.store import Store

REVIEWERS = ("offline:execution", "offline:spec", "offline:static")
TASKS = {"alpha": ("verified", "Easy"), "beta": ("train", "Medium"), "gamma": ("verified", "Hard")}
CATS = ("api_compliance", "error_handling", "edge_case", "integration")
README = "# Tiny\n\n## Endpoints\n\n### GET /items\n\nList items, `200`.\n"


def scores_for(total: int, rng: random.Random) -> Scores:
    """A valid score with the given total, spread over the dimensions at random."""
    caps = {"correctness": 3, "coverage": 3, "readability": 2, "relevance": 2}
    parts = dict.fromkeys(caps, 0)
    for _ in range(total):
        open_ = [k for k in caps if parts[k] < caps[k]]
        parts[rng.choice(open_)] += 1
    return Scores(**parts)


def difficulty(level: str) -> Difficulty:
    return Difficulty(score={"Easy": 3.0, "Medium": 5.0, "Hard": 8.0}[level], level=level,
                      metrics=DifficultyMetrics(loc=100, endpoints=2),
                      points=DifficultyPoints())


def build_tiny_store(path: Path, seed: int = 7, cases_per_task: int = 6) -> Store:
    """Open a store at `path` filled with deterministic records (see module doc)."""
    rng = random.Random(seed)
    store = Store.open(path)
    spec = Spec(title="Tiny", port=8000, endpoints=[Endpoint(method="GET", path="/items"),
                                                    Endpoint(method="POST", path="/items")])
    for task_id, (split, level) in TASKS.items():
        store.upsert_task(task_id, input_hash=f"h-{task_id}", split=split, state="done",
                          spec=spec, difficulty=difficulty(level))
        for n in range(cases_per_task):
            name = f"test_case_{n}"
            for rnd in (0, 1) if n % 3 == 0 else (0,):
                case = TestCase(case_id=f"{task_id}::{name}", task_id=task_id, round=rnd,
                                category=CATS[n % 4], name=name,
                                code=f"def {name}(base_url):\n    assert {rnd} == {rnd}\n",
                                endpoints=["GET /items"],
                                origin="generated" if rnd == 0 else "refined")
                store.save_case(case)
                store.save_evidence(Evidence(case_id=case.case_id, round=rnd,
                                             runs=[RunResult(outcome="passed")] * 2))
                base = rng.randint(4, 9)
                totals = [max(0, min(10, base + rng.randint(-2, 2))) for _ in REVIEWERS]
                if n == 4 and rnd == 0:
                    totals = [2, 9, 6]  # a conflict: spread 7
                for reviewer, total in zip(REVIEWERS, totals, strict=True):
                    store.save_review(Review(case_id=case.case_id, round=rnd, reviewer=reviewer,
                                             scores=scores_for(total, rng), rubric_hash="r1"))
                mean = sum(totals) / 3
                if n == 4 and rnd == 0:
                    route, why = ("area_chair", None) if split == "verified" else \
                        ("discarded", "conflict")
                elif rnd == 0 and n % 3 == 0:
                    route, why = "refine", None
                elif mean >= 7:
                    route, why = "accepted", None
                else:
                    route, why = "discarded", "low_quality"
                store.save_route(RouteDecision(case_id=case.case_id, round=rnd, route=route,
                                               reason=f"{route} (tiny)", discard_reason=why,
                                               mean=mean, spread=max(totals) - min(totals)))
    return store


def write_raw(raw: Path, task_id: str, source: str = "expert", split: str = "auto",
              license: str | None = None) -> None:
    """A minimal raw task folder (enough for load_task; never started)."""
    d = raw / task_id
    (d / "oracle").mkdir(parents=True)
    upstream = (f'\n[upstream]\nurl = "https://example.org/{task_id}"\ncommit = "abc"\n'
                f'license = "{license}"\n') if license else ""
    (d / "task.toml").write_text(
        f'id = "{task_id}"\nlanguage = "python"\nframework = "flask"\ndomain = "d-{task_id}"\n'
        f'source = "{source}"\nport = 8080\nsplit = "{split}"\n{upstream}')
    (d / "README.md").write_text(README)
    (d / "oracle" / "app.py").write_text("def f():\n    return 1\n")
    start = d / "oracle" / "start.sh"  # the static gate of `build` wants one
    start.write_text("#!/bin/sh\nexec python3 app.py\n")
    start.chmod(0o755)


def build_tiny_data(data: Path) -> Store:
    """data/raw with the tiny tasks, and their store at data/.repogenesis/state.db."""
    for task_id, (split, _) in TASKS.items():
        write_raw(data / "raw", task_id, source="github" if task_id == "beta" else "expert",
                  split=split, license="MIT" if task_id == "beta" else None)
    return build_tiny_store(data / ".repogenesis" / "state.db")
