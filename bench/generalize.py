"""How the offline build does on requirement documents nobody here wrote: the development set.

    .venv/bin/python bench/generalize.py [--jobs N] [--task ID ...] [--cap 16] [--keep DIR]
                                         [--no-anchors] [--measure-only]

The development set is real services from public repositories, never part of data/raw:
`../shared/devset/` (read-only) and this project's `bench/devset/`, one folder per task
(README.md by its authors, oracle/, task.toml, faulty/NN-*.patch, alternatives/<name>/,
anchor_tests/ when the repository had HTTP tests). Each task is copied (task.toml, README.md,
oracle/ only: the build sees nothing else) into a scratch data folder, and the scratch folder
is built offline with the real CLI (`python -m pipeline build --offline --jobs N`). Then, per
task, for the published generated suite and for the repository's own tests (anchors):
- accepted tests, documented endpoints with at least one accepted test, and those of the
  endpoints with a behaviour the document states that an accepted test checks by value
  (`repogenesis status`'s `endpoints_without_behaviour`);
- faulty variants caught (a test that passes on the clean oracle fails on the variant);
- mutation score on the same capped, seeded mutants of the oracle;
- tests that pass on the oracle and fail on an independent correct implementation
  (alternatives/<name>/): each such test rejects a correct solution.
Prints a line per task and suite, the totals, and one JSON object last. No asserts.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from heldout_compare import generated_suite, suite_figures  # noqa: E402

from pipeline.execution import ensure_task_env, scratch_prefix  # noqa: E402
from pipeline.execution.copies import writable_copy  # noqa: E402
from pipeline.mutation.runner import Settings, run_suite  # noqa: E402
from pipeline.records import Endpoint  # noqa: E402
from pipeline.stages.coverage import states_behaviour  # noqa: E402
from pipeline.suite_runs import HUMAN_DIR  # noqa: E402

DEVSETS = (ROOT.parent / "shared" / "devset", ROOT / "bench" / "devset")
SPLITS = ("verified", "train")


def devset_tasks(only: list[str] | None) -> dict[str, Path]:
    """Every development-set task folder by id (a task.toml, a README and an oracle)."""
    found: dict[str, Path] = {}
    for root in DEVSETS:
        for folder in sorted(root.glob("*/task.toml")):
            task = folder.parent
            if (task / "README.md").is_file() and (task / "oracle" / "start.sh").is_file():
                found.setdefault(task.name, task)
    if only:
        unknown = sorted(set(only) - set(found))
        if unknown:
            raise SystemExit(f"error: no development-set task {', '.join(unknown)}; "
                             f"known: {', '.join(sorted(found))}")
        return {t: found[t] for t in only}
    return found


def scratch_data(tasks: dict[str, Path], data: Path) -> None:
    """data/raw/<id>/ with only what a build may see: task.toml, README.md, oracle/."""
    for task_id, folder in tasks.items():
        raw = data / "raw" / task_id
        raw.mkdir(parents=True)
        shutil.copy2(folder / "task.toml", raw / "task.toml")
        shutil.copy2(folder / "README.md", raw / "README.md")
        writable_copy(folder / "oracle", raw / "oracle",  # the shared set is read-only
                      ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "*.db"))


def build(data: Path, jobs: int) -> tuple[float, str]:
    """The real CLI's offline build of the scratch folder; its wall time and output tail."""
    started = time.monotonic()
    proc = subprocess.run([sys.executable, "-m", "pipeline", "build", "--offline",
                           "--data", str(data), "--jobs", str(jobs)],
                          cwd=ROOT, capture_output=True, text=True)
    return time.monotonic() - started, (proc.stdout + proc.stderr)[-4000:]


def status_entries(data: Path) -> dict[str, Any]:
    """`repogenesis status --json` of the scratch build, per task ({} when it has none)."""
    proc = subprocess.run([sys.executable, "-m", "pipeline", "status", "--json",
                           "--data", str(data)], cwd=ROOT, capture_output=True, text=True)
    return json.loads(proc.stdout)["tasks"] if proc.returncode == 0 else {}


def behaviour_coverage(task_json: dict[str, Any], entry: dict[str, Any]
                       ) -> tuple[int, int, list[str]]:
    """Endpoints with a stated behaviour an accepted test checks by value, all endpoints with
    a stated behaviour, the ones without such a test."""
    stated = [f"{e['method']} {e['path']}" for e in task_json["endpoints"]
              if states_behaviour(Endpoint.model_validate(e))]
    missing = [e for e in entry.get("endpoints_without_behaviour", stated) if e in stated]
    return len(stated) - len(missing), len(stated), missing


def published(data: Path, task_id: str) -> dict[str, Any] | None:
    for split in SPLITS:
        path = data / split / task_id / "task.json"
        if path.is_file():
            return json.loads(path.read_text(encoding="utf-8"))
    return None


def endpoint_coverage(task_json: dict[str, Any]) -> tuple[int, int, list[str]]:
    """Documented endpoints with at least one accepted test, all of them, the ones without."""
    documented = [f"{e['method']} {e['path']}" for e in task_json["endpoints"]]
    tested = {e for case in task_json["test_cases"] for e in case.get("endpoints") or []}
    missing = [e for e in documented if e not in tested]
    return len(documented) - len(missing), len(documented), missing


def anchor_suite(folder: Path, dest: Path) -> Path | None:
    """The repository's own tests, run as their authors ran them (each file alone against a
    fresh service, in file order: `suite_runs`), under the suite's human folder."""
    anchors = folder / "anchor_tests"
    if not anchors.is_dir():
        return None
    shutil.copytree(anchors, dest / HUMAN_DIR, ignore=shutil.ignore_patterns("__pycache__"))
    return dest


def alternative_rejects(task_dir: Path, suite: Path, folder: Path) -> dict[str, list[str]]:
    """Per alternative: the tests passing on the oracle that fail on it (false rejects)."""
    env = ensure_task_env(task_dir / "oracle", "python")
    settings = Settings("python", env.bin if env else None, suite, 60.0, 300.0)
    out: dict[str, list[str]] = {}
    with tempfile.TemporaryDirectory(prefix=scratch_prefix("generalize")) as tmp:
        clean, _ = run_suite(task_dir / "oracle", settings, Path(tmp) / "oracle.log")
        passing = {t.nodeid for t in clean.tests if t.outcome == "passed"}
        for alt in sorted(p for p in (folder / "alternatives").glob("*") if p.is_dir()):
            alt_env = ensure_task_env(alt, "python")
            alt_settings = Settings("python", alt_env.bin if alt_env else None, suite, 60.0,
                                    300.0)
            run, _ = run_suite(alt, alt_settings, Path(tmp) / f"{alt.name}.log")
            ok = {t.nodeid for t in run.tests if t.outcome == "passed"}
            out[alt.name] = sorted(passing - ok)
    return out


@dataclass(frozen=True)
class Measuring:
    """How much each task's measure runs: the same for every task of a run."""

    cap: int  # mutants per suite and task
    jobs: int = 1
    anchors: bool = True  # False: the generated suites only


def measure(task_id: str, folder: Path, data: Path, entry: dict[str, Any],
            how: Measuring) -> dict[str, Any]:
    task_dir = data / "raw" / task_id
    patches = sorted((folder / "faulty").glob("*.patch"))
    result: dict[str, Any] = {"source": str(folder.relative_to(ROOT.parent)),
                              "faults": len(patches)}
    task_json = published(data, task_id)
    with tempfile.TemporaryDirectory(prefix=scratch_prefix("generalize-suites")) as tmp:
        suites = {"generated": generated_suite(data, task_id, Path(tmp) / "generated")
                  if task_json else None,
                  "anchors": anchor_suite(folder, Path(tmp) / "anchors")
                  if how.anchors else None}
        for name, suite in suites.items():
            if suite is None:
                result[name] = None
                continue
            try:
                figures = suite_figures(task_dir, suite, patches, how.cap, how.jobs)
                figures["alternative_rejects"] = alternative_rejects(task_dir, suite, folder)
            except Exception as exc:  # a service that will not start: say so, go on
                figures = {"error": f"{type(exc).__name__}: {exc}"[:300]}
            result[name] = figures
    if task_json:
        covered, documented, missing = endpoint_coverage(task_json)
        result["generated"].update(accepted=len(task_json["test_cases"]),
                                   endpoints_covered=covered, endpoints=documented,
                                   endpoints_missing=missing)
        checked, stated, shallow = behaviour_coverage(task_json, entry)
        result["generated"].update(endpoints_behaviour=checked, endpoints_stated=stated,
                                   endpoints_without_behaviour=shallow)
    return result


def _line(label: str, f: dict[str, Any] | None) -> str:
    if f is None:
        return f"  {label:<9} none"
    if "error" in f:
        return f"  {label:<9} error: {f['error']}"
    score = "-" if f["mutation_score"] is None else f"{f['mutation_score']:.2f}"
    rejects = sum(len(v) for v in f["alternative_rejects"].values())
    cover = (f"; endpoints {f['endpoints_covered']}/{f['endpoints']}, behaviour "
             f"{f['endpoints_behaviour']}/{f['endpoints_stated']}" if "endpoints" in f else "")
    return (f"  {label:<9} {f['passing']}/{f['tests']} pass on the oracle{cover}; faults "
            f"{len(f['faults_caught'])}/{f['faults']}; mutants {f['killed']}/{f['valid']} "
            f"({score}); fail on an alternative: {rejects}")


def totals(results: dict[str, Any], suite: str, tasks: list[str] | None = None
           ) -> dict[str, Any]:
    rows = [r[suite] for t, r in results.items() if (tasks is None or t in tasks)
            and r.get(suite) and "error" not in r[suite]]
    out = {k: sum(r[k] for r in rows) for k in ("tests", "passing", "killed", "valid")}
    out["faults_caught"] = sum(len(r["faults_caught"]) for r in rows)
    out["faults"] = sum(r["faults"] for r in rows)
    out["alternative_rejects"] = sum(len(v) for r in rows
                                     for v in r["alternative_rejects"].values())
    out["tasks"] = len(rows)
    out["mutation_score"] = round(out["killed"] / out["valid"], 3) if out["valid"] else None
    if suite == "generated":
        out["endpoints_covered"] = sum(r.get("endpoints_covered", 0) for r in rows)
        out["endpoints"] = sum(r.get("endpoints", 0) for r in rows)
        out["endpoints_behaviour"] = sum(r.get("endpoints_behaviour", 0) for r in rows)
        out["endpoints_stated"] = sum(r.get("endpoints_stated", 0) for r in rows)
        # a task that published nothing caught none of its variants: the share counts them
        every = [r for t, r in results.items() if tasks is None or t in tasks]
        out["tasks_without_suite"] = sorted(t for t, r in results.items()
                                            if (tasks is None or t in tasks) and not r.get(suite))
        out["faults_all_tasks"] = sum(r["faults"] for r in every)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=2, help="tasks built at once")
    parser.add_argument("--task", action="append", dest="tasks")
    parser.add_argument("--cap", type=int, default=16, help="mutants per suite and task")
    parser.add_argument("--keep", type=Path, help="build here and keep it (else a temp folder)")
    parser.add_argument("--no-anchors", action="store_true",
                        help="measure the generated suites only (the anchors' figures do not "
                             "change with the generator)")
    parser.add_argument("--measure-only", action="store_true",
                        help="with --keep: measure the build already there")
    args = parser.parse_args(argv)
    if args.measure_only and not args.keep:
        parser.error("--measure-only needs --keep DIR")
    tasks = devset_tasks(args.tasks)
    holder = None if args.keep else tempfile.TemporaryDirectory(prefix="generalize-")
    data = (args.keep or Path(holder.name)) / "data"  # type: ignore[union-attr]
    if args.measure_only:
        build_s, tail = 0.0, ""
    else:
        if data.exists():
            shutil.rmtree(data)
        scratch_data(tasks, data)
        build_s, tail = build(data, args.jobs)
        print(f"built {len(tasks)} task(s) offline in {build_s:.0f}s ({data})")
    results: dict[str, Any] = {}
    entries = status_entries(data)
    how = Measuring(args.cap, 1, anchors=not args.no_anchors)
    for task_id, folder in tasks.items():
        results[task_id] = measure(task_id, folder, data, entries.get(task_id, {}), how)
        print(f"{task_id}:")
        print(_line("generated", results[task_id]["generated"]))
        print(_line("anchors", results[task_id]["anchors"]))
        if results[task_id]["generated"] is None:
            reason = entries.get(task_id, {}).get("error")
            results[task_id]["error"] = reason
            print(f"  nothing published: {reason or 'see the build output below'}")
    if any(r["generated"] is None and not r.get("error") for r in results.values()):
        print(tail)
    with_anchors = [t for t, r in results.items() if r["anchors"]]
    summary = {"generated": totals(results, "generated"),
               "generated_on_anchor_tasks": totals(results, "generated", with_anchors),
               "anchors": totals(results, "anchors")}
    g, a = summary["generated"], summary["anchors"]
    print(f"total generated: {g['passing']} tests on {g['tasks']} task(s); endpoints "
          f"{g['endpoints_covered']}/{g['endpoints']} (behaviour {g['endpoints_behaviour']}/"
          f"{g['endpoints_stated']}); faults {g['faults_caught']}/"
          f"{g['faults']} ({g['faults_caught']}/{g['faults_all_tasks']} of all variants, "
          f"{len(g['tasks_without_suite'])} task(s) without a suite); mutants "
          f"{g['killed']}/{g['valid']}; fail on an alternative "
          f"{g['alternative_rejects']}")
    print(f"total anchors:   {a['passing']} tests on {a['tasks']} task(s); faults "
          f"{a['faults_caught']}/{a['faults']}; mutants {a['killed']}/{a['valid']}; fail on "
          f"an alternative {a['alternative_rejects']}")
    if holder is not None:
        holder.cleanup()
    print(json.dumps({"build_s": round(build_s, 1), "tasks": results, "totals": summary},
                     sort_keys=True))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
