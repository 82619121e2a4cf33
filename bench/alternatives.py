"""The committed suites against the bundled independent implementations (false rejects).

    .venv/bin/python bench/alternatives.py [--split verified] [--data data]

Every task of the split whose raw folder has `alternatives/<name>/` (an implementation
written from the README alone, never from the oracle or its tests) is evaluated with the real
`repogenesis evaluate --split ... --candidates ...`, once per alternative name, exactly as a
generated repository would be. A published test that fails there rejects a correct
implementation. Prints, per task, the failing tests split into generated and human-written
(`tests/existing/`), then the totals and one JSON object last. No asserts.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def published_counts(task_json: dict[str, Any]) -> dict[str, int]:
    human = sum(1 for c in task_json["test_cases"] if c["provenance"]["origin"] == "existing")
    return {"human": human, "generated": len(task_json["test_cases"]) - human}


def _key(test_id: str) -> tuple[str, str]:
    """(module stem, test function) of an evaluate id `task::module::[Class::]test`."""
    parts = test_id.split("::")
    return parts[1], parts[-1]


def human_keys(task_json: dict[str, Any]) -> set[tuple[str, str]]:
    """(module stem, test function) of the human-written published tests."""
    out = set()
    for case in task_json["test_cases"]:
        if case["provenance"]["origin"] == "existing":
            module, *rest = case["nodeid"].split("::")
            out.add((Path(module).stem, rest[-1]))
    return out


def evaluate(split: Path, candidates: Path, out: Path) -> dict[str, Any]:
    subprocess.run([sys.executable, "-m", "pipeline", "evaluate", "--split", str(split),
                    "--candidates", str(candidates), "--out", str(out), "--json"],
                   cwd=ROOT, check=True, capture_output=True, text=True)
    return json.loads(out.read_text(encoding="utf-8"))


def rows(report: Any) -> list[dict[str, Any]]:
    """The per-task rows of an evaluate report, wherever they sit in it."""
    found: list[dict[str, Any]] = []
    if isinstance(report, dict):
        if "not_passed" in report and "id" in report:
            return [report]
        for value in report.values():
            found += rows(value)
    elif isinstance(report, list):
        for value in report:
            found += rows(value)
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=ROOT / "data")
    parser.add_argument("--split", default="verified")
    args = parser.parse_args(argv)
    split = args.data / args.split
    names = sorted({p.name for p in (args.data / "raw").glob("*/alternatives/*") if p.is_dir()})
    results: dict[str, Any] = {}
    for name in names:
        with tempfile.TemporaryDirectory(prefix="alternatives-") as tmp:
            candidates = Path(tmp) / "candidates"
            candidates.mkdir()
            for alt in sorted((args.data / "raw").glob(f"*/alternatives/{name}")):
                task_id = alt.parent.parent.name
                if (split / task_id / "task.json").is_file():
                    shutil.copytree(alt, candidates / task_id)
            report = evaluate(split, candidates, Path(tmp) / "report.json")
        for row in rows(report):
            if not row.get("candidate"):
                continue
            task_json = json.loads((split / row["id"] / "task.json").read_text())
            failing = row.get("not_passed") or []
            human = [t for t in failing if _key(t) in human_keys(task_json)]
            results[f"{row['id']}/{name}"] = {
                "started": row.get("dsr"), "passed": row.get("tests_passed"),
                "total": row.get("tests_total"), **published_counts(task_json),
                "failing_human": human,
                "failing_generated": [t for t in failing if t not in human]}
            r = results[f"{row['id']}/{name}"]
            print(f"{row['id']} on alternatives/{name}: {r['passed']}/{r['total']} pass; "
                  f"fail: generated {len(r['failing_generated'])}/{r['generated']}, human "
                  f"{len(r['failing_human'])}/{r['human']}")
    total = {k: sum(len(r[k]) if k.startswith("failing") else r[k] for r in results.values())
             for k in ("generated", "human", "failing_generated", "failing_human")}
    print(f"total: generated tests failing on an alternative {total['failing_generated']}/"
          f"{total['generated']}, human-written {total['failing_human']}/{total['human']}")
    print(json.dumps({"split": args.split, "tasks": results, "totals": total}, sort_keys=True))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
