"""Offline generator on the bundled corpus: generate, run twice on each oracle, print figures.

    .venv/bin/python bench/offline_generation.py [--data data/raw] [TASK_DIR ...]

Per task: cases per category, passed on run 1 / run 2, categories with passing cases, and the
failing cases with their first error line. No asserts: it prints figures.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pipeline.records import CATEGORIES  # noqa: E402
from pipeline.stages.generated_run import first_error, run_generated  # noqa: E402

SHORT = {"api_compliance": "api", "error_handling": "err", "edge_case": "edge",
         "integration": "int"}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("tasks", nargs="*", type=Path)
    parser.add_argument("--data", type=Path, default=ROOT / "data" / "raw")
    args = parser.parse_args()
    dirs = args.tasks or sorted(p for p in args.data.iterdir() if (p / "task.toml").is_file())
    total = Counter()
    for task_dir in dirs:
        started = time.monotonic()
        try:
            res = run_generated(task_dir)
        except Exception as exc:  # noqa: BLE001 - a bench reports and goes on
            print(f"{task_dir.name}: ERROR {type(exc).__name__}: {exc}")
            continue
        cats = Counter(c.category for c in res.cases)
        per_cat = " ".join(f"{SHORT[c]}={cats.get(c, 0)}" for c in CATEGORIES)
        n = len(res.cases)
        p1, p2 = (res.passed(0), res.passed(1)) if len(res.outcomes) == 2 else (0, 0)
        passing = sorted(SHORT[c] for c in res.categories_passing()) if res.outcomes else []
        print(f"{res.task_id}: {n} cases ({per_cat}); passed run1 {p1}/{n}, run2 {p2}/{n}; "
              f"passing categories {len(passing)} [{','.join(passing)}] "
              f"({time.monotonic() - started:.1f}s)")
        for name in res.failing():
            print(f"    FAIL {name}: {first_error(res.outputs.get(name, ''))}")
        total.update(cases=n, run1=p1, run2=p2, tasks=1, three=int(len(passing) >= 3))
    n = total["cases"] or 1
    print(f"TOTAL {total['tasks']} tasks, {total['cases']} cases; passed run1 {total['run1']} "
          f"({100 * total['run1'] / n:.1f}%), run2 {total['run2']} "
          f"({100 * total['run2'] / n:.1f}%); tasks with passing cases in >=3 categories: "
          f"{total['three']}/{total['tasks']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
