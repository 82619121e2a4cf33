"""Mutation runs both ways on published suites: every test against every mutant ("all") and
only the tests that can reach each mutant ("reaching", `pipeline.mutation.reach`).

    .venv/bin/python bench/mutation_selection.py [--data data] [--cap 16] [--jobs 2] [TASK ...]

For each published task (default: all of them) its suite runs, with the execution hooks that
log requests and tell a measured service which test runs, against the same seeded mutants of
its oracle, once per mode. Prints per task: wall and CPU seconds of each mode (CPU of the
runner's child processes: services and pytest), mutants, those no test reaches (no service
started), tests left out, and whether the kill matrices (every mutant's status and killers)
are identical; then the totals and one JSON object. No asserts: it prints figures.
"""

from __future__ import annotations

import argparse
import json
import resource
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pipeline.mutation import mutation_report  # noqa: E402
from pipeline.stages.execute import EXEC_HOOKS, REQUEST_LOG  # noqa: E402

MODES = ("all", "reaching")


def _children_cpu() -> float:
    use = resource.getrusage(resource.RUSAGE_CHILDREN)
    return use.ru_utime + use.ru_stime


def published(data: Path) -> dict[str, Path]:
    """Task id -> its published folder (verified or train)."""
    out = {}
    for split in ("verified", "train"):
        for folder in sorted((data / split).glob("*/tests")):
            out.setdefault(folder.parent.name, folder.parent)
    return out


def one_task(data: Path, task: str, folder: Path, cap: int, jobs: int) -> dict[str, Any]:
    rows: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="mutation-selection-") as tmp:
        for mode in MODES:
            suite = Path(tmp) / mode
            shutil.copytree(folder / "tests", suite)
            conftest = suite / "conftest.py"
            conftest.write_text(conftest.read_text(encoding="utf-8") + EXEC_HOOKS,
                                encoding="utf-8")
            cpu, wall = _children_cpu(), time.monotonic()
            report = mutation_report(data / "raw" / task, suite, None, cap=cap, jobs=jobs,
                                     selection=mode, request_log=REQUEST_LOG)
            rows[mode] = {"wall_s": round(time.monotonic() - wall, 1),
                          "cpu_s": round(_children_cpu() - cpu, 1),
                          "valid": report["valid"], "killed": report["killed"],
                          "selection": report["selection"],
                          "matrix": [(m["id"], m["status"], m["killed_by"])
                                     for m in report["mutants_detail"]]}
    rows["identical"] = rows["all"]["matrix"] == rows["reaching"]["matrix"]
    for mode in MODES:
        del rows[mode]["matrix"]
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=ROOT / "data")
    parser.add_argument("--cap", type=int, default=16)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("tasks", nargs="*")
    args = parser.parse_args(argv)
    folders = published(args.data)
    unknown = [t for t in args.tasks if t not in folders]
    if unknown:
        print(f"error: not published under {args.data}: {', '.join(unknown)}", file=sys.stderr)
        return 1
    results = {}
    for task in args.tasks or sorted(folders):
        row = one_task(args.data, task, folders[task], args.cap, args.jobs)
        results[task] = row
        a, r = row["all"], row["reaching"]
        print(f"{task}: all {a['cpu_s']} s CPU ({a['wall_s']} s); reaching {r['cpu_s']} s CPU "
              f"({r['wall_s']} s), {r['selection']['not_reached']} of {r['valid']} mutants not "
              f"reached, {r['selection']['deselected']} test runs left out; kills "
              f"{a['killed']} / {r['killed']}; identical: {row['identical']}", flush=True)
    cpu = {m: round(sum(r[m]["cpu_s"] for r in results.values()), 1) for m in MODES}
    total = {"cpu_s": cpu, "ratio": round(cpu["reaching"] / cpu["all"], 3) if cpu["all"] else None,
             "identical": all(r["identical"] for r in results.values()),
             "not_reached": sum(r["reaching"]["selection"]["not_reached"]
                                for r in results.values()),
             "mutants": sum(r["all"]["valid"] for r in results.values())}
    print(f"total: CPU all {cpu['all']} s, reaching {cpu['reaching']} s (ratio {total['ratio']}); "
          f"{total['not_reached']} of {total['mutants']} mutants not reached; kill matrices "
          f"identical on every task: {total['identical']}")
    print(json.dumps({"tasks": results, "totals": total}, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
