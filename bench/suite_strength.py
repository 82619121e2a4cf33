"""How strong the accepted suites are: mutation score by fault kind, and shape-only tests.

    .venv/bin/python bench/suite_strength.py [--data data] [TASK ...]

Reads what `repogenesis build` / `publish` wrote (data/verified and data/train; nothing is
run): per task, the accepted suite's mutation score per fault kind (from task.json's
`mutation.by_kind`: realistic kinds such as filter_ignored or write_not_persisted, and the
operator flips), and how many accepted tests assert only status codes, key presence or types
(`pipeline.offline.strength.shape_only`, read from the published test files), with how many
of those are human-written. The last line is one JSON object with every figure.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pipeline.offline.strength import shape_only_code  # noqa: E402

SPLITS = ("verified", "train")


def task_figures(task_dir: Path) -> dict[str, Any]:
    """The figures of one published task folder."""
    task = json.loads((task_dir / "task.json").read_text(encoding="utf-8"))
    sources: dict[str, str] = {}
    shape: list[str] = []
    human_shape = 0
    for case in task["test_cases"]:
        path = task_dir / case["file"]
        if str(path) not in sources:
            sources[str(path)] = path.read_text(encoding="utf-8")
        if shape_only_code(sources[str(path)], case["name"]):
            shape.append(case["id"])
            human_shape += case["provenance"]["origin"] == "existing" or "/existing/" in \
                case["file"]
    mutation = task.get("mutation") or {}
    return {
        "split": task["split"],
        "accepted": len(task["test_cases"]),
        "shape_only": len(shape),
        "shape_only_human": human_shape,
        "shape_only_cases": shape,
        "mutation_score": mutation.get("score"),
        "valid_mutants": mutation.get("valid"),
        "by_kind": mutation.get("by_kind") or {},
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=ROOT / "data")
    parser.add_argument("tasks", nargs="*")
    args = parser.parse_args(argv)
    dirs = sorted((d for s in SPLITS for d in (args.data / s).glob("*")
                   if (d / "task.json").is_file()), key=lambda d: d.name)
    if args.tasks:
        dirs = [d for d in dirs if d.name in args.tasks]
    if not dirs:
        print(f"no published task under {args.data}/verified or /train: run "
              "`repogenesis build` first", file=sys.stderr)
        return 1
    figures = {d.name: task_figures(d) for d in dirs}
    kinds = sorted({k for f in figures.values() for k in f["by_kind"]})
    for name, f in figures.items():
        score = "-" if f["mutation_score"] is None else f"{f['mutation_score']:.2f}"
        print(f"{name} ({f['split']}): {f['accepted']} accepted, {f['shape_only']} shape-only "
              f"({f['shape_only'] - f['shape_only_human']} generated, "
              f"{f['shape_only_human']} human-written); mutation score {score} over "
              f"{f['valid_mutants'] or 0} valid mutants")
        for kind in kinds:
            k = f["by_kind"].get(kind)
            if k:
                print(f"    {kind:<22} {k['killed']:>3}/{k['valid']:<3} "
                      f"{'-' if k['score'] is None else format(k['score'], '.2f')}")
        for case_id in f["shape_only_cases"]:
            print(f"    shape-only: {case_id}")
    totals = {
        "accepted": sum(f["accepted"] for f in figures.values()),
        "shape_only": sum(f["shape_only"] for f in figures.values()),
        "shape_only_human": sum(f["shape_only_human"] for f in figures.values()),
    }
    totals["shape_only_generated"] = totals["shape_only"] - totals["shape_only_human"]
    by_kind: dict[str, dict[str, int]] = {}
    for f in figures.values():
        for kind, k in f["by_kind"].items():
            row = by_kind.setdefault(kind, {"valid": 0, "killed": 0})
            row["valid"] += k["valid"]
            row["killed"] += k["killed"]
    print(f"total: {totals['accepted']} accepted tests, {totals['shape_only']} shape-only "
          f"({totals['shape_only_generated']} generated, {totals['shape_only_human']} "
          "human-written)")
    print(json.dumps({"tasks": figures, "totals": totals, "by_kind": dict(sorted(
        by_kind.items()))}, sort_keys=True))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
