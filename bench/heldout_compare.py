"""Accepted generated suites against the published human-curated tests of the same tasks.

    .venv/bin/python bench/heldout_compare.py --data DIR [--cap 16] [--jobs 1] [TASK ...]

For each imported published task (a raw task with `[upstream]` in task.toml; default all of
them) that `repogenesis build --data DIR` published: the accepted *generated* suite (the
published tests/ folder without the human tests under existing/) and the task's own
*published human-curated* tests (data/raw/<id>/tests) run
(a) against the same capped, seeded set of mutants of the oracle: mutation score overall and
    by fault kind (realistic kinds and operator flips);
(b) against realistic faulty implementations written by hand as patches of the oracle in
    bench/faults/<task>/*.patch (a filter ignored, a write not persisted, a rule not
    enforced...): a fault is caught when a test that passes on the clean oracle fails on it.
The faults live outside the generator and its tests (held out). Prints per task both suites'
figures, then one JSON line with everything. No asserts: it prints figures.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pipeline.execution import ensure_task_env, scratch_prefix  # noqa: E402
from pipeline.execution.service import ServiceError  # noqa: E402
from pipeline.mutation import mutation_report  # noqa: E402
from pipeline.mutation.runner import Settings, run_suite  # noqa: E402
from pipeline.tasks import load_task  # noqa: E402

FAULTS = ROOT / "bench" / "faults"
SPLITS = ("verified", "train")


def imported_tasks(raw: Path) -> list[str]:
    """Raw tasks imported from a published source (`[upstream]` in task.toml)."""
    out = []
    for toml in sorted(raw.glob("*/task.toml")):
        if "upstream" in tomllib.loads(toml.read_text(encoding="utf-8")):
            out.append(toml.parent.name)
    return out


def generated_suite(data: Path, task: str, dest: Path) -> Path | None:
    """The published suite without the human tests (existing/), copied to `dest`."""
    for split in SPLITS:
        tests = data / split / task / "tests"
        if tests.is_dir():
            shutil.copytree(tests, dest, ignore=shutil.ignore_patterns(
                "existing", "__pycache__"))
            return dest
    return None


def patched(oracle: Path, patch: Path, work: Path) -> Path:
    """A copy of the oracle with the fault's patch applied (it may change several files)."""
    copy = work / f"fault-{patch.stem}"
    shutil.copytree(oracle, copy, ignore=shutil.ignore_patterns("__pycache__"))
    subprocess.run(["patch", "-s", "-p1", "-d", str(copy), "-i", str(patch)], check=True)
    return copy


def fault_kills(task_dir: Path, suite: Path, patches: list[Path]) -> dict[str, bool]:
    """Per fault: does a test that passes on the clean oracle fail on the faulty copy? (A
    faulty copy that does not start counts as caught: every test fails on it.)"""
    task = load_task(task_dir)
    env = ensure_task_env(task.oracle_dir, task.config.language)
    settings = Settings(task.config.language, env.bin if env else None, suite, 30.0, 180.0)
    with tempfile.TemporaryDirectory(prefix=scratch_prefix("heldout")) as tmp:
        work = Path(tmp)
        clean, _ = run_suite(task.oracle_dir, settings, work / "clean.log")
        passing = {t.nodeid for t in clean.tests if t.outcome == "passed"}
        out = {}
        for patch in patches:
            faulty = patched(task.oracle_dir, patch, work)
            try:
                run, _ = run_suite(faulty, settings, work / f"{patch.stem}.log")
            except ServiceError:
                out[patch.stem] = bool(passing)
                continue
            ok = {t.nodeid for t in run.tests if t.outcome == "passed"}
            out[patch.stem] = bool(passing - ok)
    return out


def suite_figures(task_dir: Path, suite: Path, patches: list[Path], cap: int,
                  jobs: int) -> dict[str, Any]:
    report = mutation_report(task_dir, suite, None, cap=cap, jobs=jobs)
    faults = fault_kills(task_dir, suite, patches)
    return {
        "tests": report["baseline"]["tests"], "passing": report["baseline"]["passed"],
        "mutation_score": report["score"], "valid": report["valid"],
        "killed": report["killed"],
        "by_kind": {k: {"killed": v["killed"], "valid": v["valid"]}
                    for k, v in report["by_kind"].items()},
        "faults_caught": sorted(k for k, v in faults.items() if v),
        "faults": len(faults),
    }


def _line(label: str, f: dict[str, Any]) -> str:
    score = "-" if f["mutation_score"] is None else f"{f['mutation_score']:.2f}"
    return (f"  {label:<9} {f['passing']:>3}/{f['tests']:<3} tests pass; mutants {f['killed']}/"
            f"{f['valid']} ({score}); faults {len(f['faults_caught'])}/{f['faults']}"
            f" {', '.join(f['faults_caught'])}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=ROOT / "data")
    parser.add_argument("--cap", type=int, default=16)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("tasks", nargs="*")
    args = parser.parse_args(argv)
    raw = args.data / "raw"
    tasks = args.tasks or imported_tasks(raw)
    results: dict[str, Any] = {}
    for task in tasks:
        patches = sorted((FAULTS / task).glob("*.patch"))
        with tempfile.TemporaryDirectory(prefix=scratch_prefix("heldout-suites")) as tmp:
            gen = generated_suite(args.data, task, Path(tmp) / "generated")
            human = raw / task / "tests"
            if gen is None or not human.is_dir():
                print(f"{task}: skipped ({'not published' if gen is None else 'no human tests'})")
                continue
            figures = {"generated": suite_figures(raw / task, gen, patches, args.cap,
                                                  args.jobs),
                       "human": suite_figures(raw / task, human, patches, args.cap, args.jobs)}
        results[task] = figures
        print(f"{task}:")
        print(_line("generated", figures["generated"]))
        print(_line("human", figures["human"]))
        kinds = sorted(set(figures["generated"]["by_kind"]) | set(figures["human"]["by_kind"]))
        for kind in kinds:
            g, h = (figures[s]["by_kind"].get(kind, {"killed": 0, "valid": 0})
                    for s in ("generated", "human"))
            print(f"    {kind:<22} generated {g['killed']}/{g['valid']}  human "
                  f"{h['killed']}/{h['valid']}")
    totals = {s: {k: sum(len(r[s]["faults_caught"]) if k == "faults_caught" else r[s][k]
                         for r in results.values())
                  for k in ("killed", "valid", "faults_caught", "faults")}
              for s in ("generated", "human")}
    print(f"total: generated kills {totals['generated']['killed']}/"
          f"{totals['generated']['valid']} mutants, {totals['generated']['faults_caught']}/"
          f"{totals['generated']['faults']} faults; human {totals['human']['killed']}/"
          f"{totals['human']['valid']} mutants, {totals['human']['faults_caught']}/"
          f"{totals['human']['faults']} faults")
    print(json.dumps({"tasks": results, "totals": totals}, sort_keys=True))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
