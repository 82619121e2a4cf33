"""Whole builds of the bundled corpus: `--jobs 1` against `--jobs N`, then a no-change rebuild.

    .venv/bin/python bench/build.py [--jobs N] [--cpu-budget M] [--task ID ...] [--keep DIR]

Copies `data/raw` and `data/splits.lock` into two fresh data folders and runs the real CLI
(`python -m pipeline build`, mutation on with the configured `mutation_cap`), one build at a
time: folder A with `--jobs 1`, folder B with `--jobs N` (default: the machine's cores). It
prints each build's wall time, the ratio (N ÷ 1, lower is faster), whether A's and B's
`verified/` and `train/` are byte-identical (and which files differ if not), then rebuilds B
with nothing changed and prints that time as a share of B's first build, with the provider
calls the rebuild made (from the ledger: `calls` not answered from the cache). The bundled
corpus builds with the offline backend (no keys), which makes no provider calls: the count is
0 by construction and the JSON says which backend ran. Per-task Python environments come from
the shared cache (`cache_dir`), warm after the first build on a machine.

No asserts: it prints figures; the last line is one JSON object with all of them.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def machine() -> dict[str, Any]:
    """Cores, memory and Python: what the figures were measured on."""
    mem_kb = 0
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                mem_kb = int(line.split()[1])
    except OSError:
        pass
    return {"cores": os.cpu_count(), "ram_gb": round(mem_kb / 1024 / 1024, 1),
            "python": platform.python_version(), "platform": platform.platform(terse=True)}


def fresh_data(root: Path, name: str, raw: Path, tasks: list[str]) -> Path:
    data = root / name
    (data / "raw").mkdir(parents=True)
    for task_dir in sorted(raw.iterdir()):
        if task_dir.is_dir() and (not tasks or task_dir.name in tasks):
            shutil.copytree(task_dir, data / "raw" / task_dir.name,
                            ignore=shutil.ignore_patterns("__pycache__", ".venv"))
    for extra in ("CORPUS.md",):
        if (raw / extra).is_file():
            shutil.copy2(raw / extra, data / "raw" / extra)
    lock = raw.parent / "splits.lock"
    if lock.is_file():
        shutil.copy2(lock, data / "splits.lock")
    return data


def run_build(data: Path, jobs: int, tasks: list[str], cpu_budget: int | None
              ) -> dict[str, Any]:
    """One `build` through the CLI; wall time, exit code and its last output line."""
    argv = [sys.executable, "-m", "pipeline", "build", "--data", str(data), "--jobs", str(jobs)]
    for task in tasks:
        argv += ["--task", task]
    if cpu_budget:
        argv += ["--cpu-budget", str(cpu_budget)]
    started = time.monotonic()
    done = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True)
    wall = time.monotonic() - started
    lines = [ln for ln in done.stdout.splitlines() if ln.strip()]
    (data / f"build-jobs{jobs}-{int(started)}.log").write_text(done.stdout + done.stderr)
    return {"wall_s": round(wall, 1), "exit": done.returncode,
            "last_line": lines[-1] if lines else done.stderr.strip()[-200:]}


def outputs(data: Path) -> dict[str, str]:
    """sha256 of every file under verified/ and train/, by relative path."""
    out = {}
    for split in ("verified", "train"):
        for path in sorted((data / split).rglob("*")):
            if path.is_file():
                out[str(path.relative_to(data))] = hashlib.sha256(path.read_bytes()).hexdigest()
    return out


def provider_calls(data: Path) -> int:
    """Provider calls in the ledger (answers from the response cache not counted)."""
    from pipeline.cli.common import state_db
    from pipeline.llm.ledger import ledger_summary
    from pipeline.store import Store

    with Store.open(state_db(data)) as store:
        return int(ledger_summary(store)["calls"])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--cpu-budget", type=int, default=None)
    parser.add_argument("--task", action="append", default=[], dest="tasks")
    parser.add_argument("--raw", type=Path, default=ROOT / "data" / "raw")
    parser.add_argument("--keep", type=Path, default=None,
                        help="build in this folder and keep it (default: a temp folder)")
    args = parser.parse_args()
    from pipeline.config import load_settings

    root = args.keep or Path(tempfile.mkdtemp(prefix="repogenesis-bench-build-"))
    root.mkdir(parents=True, exist_ok=True)
    try:
        serial_dir = fresh_data(root, "jobs1", args.raw, args.tasks)
        parallel_dir = fresh_data(root, f"jobs{args.jobs}", args.raw, args.tasks)
        n_tasks = sum(1 for p in (serial_dir / "raw").iterdir() if (p / "task.toml").is_file())
        serial = run_build(serial_dir, 1, args.tasks, args.cpu_budget)
        print(f"--jobs 1: {serial['wall_s']}s (exit {serial['exit']}): {serial['last_line']}")
        parallel = run_build(parallel_dir, args.jobs, args.tasks, args.cpu_budget)
        print(f"--jobs {args.jobs}: {parallel['wall_s']}s (exit {parallel['exit']}): "
              f"{parallel['last_line']}")
        a, b = outputs(serial_dir), outputs(parallel_dir)
        differing = sorted(k for k in a.keys() | b.keys() if a.get(k) != b.get(k))
        print(f"outputs: {len(a)} file(s); identical: {not differing}"
              + (f"; differ: {', '.join(differing[:10])}" if differing else ""))
        calls_before = provider_calls(parallel_dir)
        rebuild = run_build(parallel_dir, args.jobs, args.tasks, args.cpu_budget)
        calls_after = provider_calls(parallel_dir)
        rebuild_calls = calls_after - calls_before
        ratio = rebuild["wall_s"] / parallel["wall_s"] if parallel["wall_s"] else None
        print(f"no-change rebuild (--jobs {args.jobs}): {rebuild['wall_s']}s = "
              f"{ratio:.3f} of the first build; {rebuild_calls} provider call(s)")
        settings = load_settings()
        figures = {
            "bench": "build", "tasks": n_tasks, "jobs": args.jobs,
            "cpu_budget": args.cpu_budget or settings.cpu_budget or os.cpu_count(),
            "mutation_cap": settings.mutation_cap,
            "backend": "offline" if calls_after == 0 else "llm",
            "serial_s": serial["wall_s"], "parallel_s": parallel["wall_s"],
            "wall_ratio": round(parallel["wall_s"] / serial["wall_s"], 3),
            "speedup": round(serial["wall_s"] / parallel["wall_s"], 3),
            "per_task_s_serial": round(serial["wall_s"] / max(1, n_tasks), 1),
            "identical_outputs": not differing, "output_files": len(a),
            "differing": differing,
            "rebuild_s": rebuild["wall_s"],
            "rebuild_ratio": round(ratio, 4) if ratio is not None else None,
            "rebuild_provider_calls": rebuild_calls,
            "provider_calls_total": calls_after,
            "exit_codes": [serial["exit"], parallel["exit"], rebuild["exit"]],
            "machine": machine(),
        }
    finally:
        if args.keep is None:
            shutil.rmtree(root, ignore_errors=True)
    print(json.dumps(figures, sort_keys=True))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
