"""A whole `build` through the three SDKs against fake provider servers with a set latency.

    .venv/bin/python bench/build_llm.py [--latency-ms 300] [--concurrency 32] [--jobs N]
                                        [--task ID ...] [--keep DIR]

`bench/providers.py` measures one review round made up for it; this measures the rounds a real
build makes. One fake server per provider (`python -m pipeline.llm.fake_server --play-models`:
it writes the offline generator's tests and reviews from the evidence, so the build generates,
runs, reviews, refines and routes as with models); a fresh data folder with `data/raw` and
`data/splits.lock`; a `repogenesis.toml` allowing `--concurrency` calls per provider; mutation
off (`REPOGENESIS_MUTATION_CAP=0`); `python -m pipeline build --jobs N`. Then, from the ledger
(each `ok` call ends at `created_at` and lasted `latency_ms`):
- `stages`: calls and mean latency per stage (generate, review, refine);
- `rounds`: a round is the calls of one stage that follow each other with less than `--gap-s`
  with nothing in flight (one task's round is separated from its next by the tests' runs;
  the rounds of two tasks built at once that overlap are one round: they share the slots,
  and their fastest time counts their calls together). Per round and provider the
  fastest possible time is ceil(calls ÷ concurrency) × latency (each call holds a slot for the
  latency: a provider's slots work in waves at best); the actual time runs from the first
  call's start to the last call's end. `ratio_to_ideal` per stage = sum of the fastest times ÷
  sum of the actual ones (1.0: every round as fast as the slots allow), with `ratio_to_ideal`
  of the review stage on top; `ratio_to_ideal_as_asked`: the same with each task's calls
  free to start only once that task's round began (two tasks' rounds merged by `--jobs` are
  staggered: the first ratio counts the later task's calls as if asked for at the start);
  `by_waves`: the same per round size (1: every provider's calls
  fit in one wave), since a one-wave round has nothing to hide its fixed cost behind: getting
  its requests out, ~0.85 ms a call on a two-core machine (`bench/providers.py`'s `one_wave`);
- `seen_by_servers`: the same ratio from the servers' side alone (each logs a model call's
  arrival and reply, `--log`): stages unknown, a round ends whenever nothing is in flight,
  its time runs from its first arrival to its last reply sent; what a different server
  measuring from outside would see (`by_stage`: each such round labelled afterwards with the
  stage of the ledger's calls at that time);
- the build's wall time and exit code, and the server processes' CPU.

No asserts: it prints figures; the last line is one JSON object with all of them.
"""

from __future__ import annotations

import argparse
import heapq
import json
import math
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from build import fresh_data, machine  # noqa: E402
from providers import FakeServers, ServerSetup  # noqa: E402

from pipeline.llm.settings import PROVIDERS  # noqa: E402


def calls(db: Path) -> list[dict[str, Any]]:
    """The ledger's answered calls: stage, task, provider, start and end (seconds)."""
    with sqlite3.connect(db) as conn:
        rows = conn.execute("SELECT stage, task_id, provider, created_at, latency_ms "
                            "FROM llm_calls WHERE outcome = 'ok' ORDER BY created_at").fetchall()
    out = []
    for stage, task, provider, created, latency in rows:
        end = datetime.fromisoformat(created).timestamp()
        out.append({"stage": stage, "task": task, "provider": provider,
                    "start": end - latency / 1000, "end": end, "latency_ms": latency})
    return out


def rounds(rows: list[dict[str, Any]], gap_s: float) -> list[list[dict[str, Any]]]:
    """A stage's calls split where none was in flight for `gap_s`: one task's round, or the
    rounds of tasks built at once (`--jobs`) that overlap, which share the providers' slots."""
    out: list[list[dict[str, Any]]] = []
    reach = -math.inf
    for row in sorted(rows, key=lambda r: r["start"]):
        if row["start"] - reach > gap_s:
            out.append([])
        out[-1].append(row)
        reach = max(reach, row["end"])
    return out


def round_times(one: list[dict[str, Any]], concurrency: int, latency_s: float,
                gap_s: float) -> tuple[float, float, float]:
    """(fastest possible, actual, fastest possible from when the build asked) seconds of a
    round, the slowest provider's. The first counts every call as asked for at the round's
    start; the last lets each task's calls start only when that task's round began (its first
    call: the build hands a task's round over at once), which is what two tasks' staggered
    rounds merged into one allow at best: the providers' slots filled in that order."""
    by: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for row in one:
        by[row["provider"]].append(row)
    ideal = max(math.ceil(len(rs) / concurrency) * latency_s for rs in by.values())
    first = min(r["start"] for r in one)
    actual = max(r["end"] for r in one) - first
    asked: dict[int, float] = {}  # id(row) -> when its task's round began
    for task in {r["task"] for r in one}:
        for part in rounds([r for r in one if r["task"] == task], gap_s):
            began = min(r["start"] for r in part)
            asked.update((id(r), began) for r in part)
    end = first
    for rows in by.values():
        slots = [first] * concurrency  # when each slot is free, a min-heap
        for when in sorted(asked[id(r)] for r in rows):
            done = max(when, heapq.heappop(slots)) + latency_s
            heapq.heappush(slots, done)
            end = max(end, done)
    return ideal, actual, end - first


def server_calls(log: Path) -> list[dict[str, Any]]:
    """The model calls as the fake servers saw them (`--log`): arrival to reply sent, no
    stage or task (what a different server, measuring from outside, knows)."""
    out = []
    for line in log.read_text().splitlines() if log.exists() else []:
        arrived, sent, provider = line.split()
        out.append({"provider": provider, "task": "", "start": float(arrived),
                    "end": float(sent)})
    return out


def stage_of(one: list[dict[str, Any]], rows: list[dict[str, Any]]) -> str:
    """The stage most of the ledger's calls during a round seen by the servers belong to
    (labels the outside view; the servers do not know it)."""
    first, last = min(r["start"] for r in one), max(r["end"] for r in one)
    during = Counter(r["stage"] for r in rows if r["end"] >= first and r["start"] <= last)
    return during.most_common(1)[0][0] if during else "unknown"


def sums(times: list[tuple[float, ...]]) -> dict[str, Any]:
    """Rounds' (fastest, actual[, fastest from when asked]) seconds summed, and the ratios;
    the as-asked one only when every round has it (the servers' view does not)."""
    ideal, actual = sum(t[0] for t in times), sum(t[1] for t in times)
    out = {"ideal_s": round(ideal, 2), "actual_s": round(actual, 2),
           "ratio_to_ideal": round(ideal / actual, 3) if actual else None}
    if all(len(t) > 2 for t in times):
        asked = sum(t[2] for t in times)
        out["ratio_to_ideal_as_asked"] = round(asked / actual, 3) if actual else None
    return out


@dataclass
class BuildRun:
    """What one benchmarked build left: its process, times, ledger rows and server log."""

    done: subprocess.CompletedProcess[str]
    wall: float
    server_cpu: float
    rows: list[dict[str, Any]]
    seen: list[dict[str, Any]]


def main() -> int:
    args = parse_args()
    run = run_build(args)
    latency_s = args.latency_ms / 1000
    stages = stage_figures(run.rows, args.concurrency, latency_s, args.gap_s)
    outside = server_figures(run.seen, run.rows, args.concurrency, latency_s)
    done = run.done
    lines = [ln for ln in done.stdout.splitlines() if ln.strip()]
    print(f"build --jobs {args.jobs}: {run.wall:.1f} s, exit {done.returncode}: "
          f"{lines[-1] if lines else done.stderr.strip()[-200:]}")
    review = stages.get("review", {})
    print(json.dumps({
        "bench": "build_llm", "latency_ms": args.latency_ms,
        "concurrency_per_provider": args.concurrency, "jobs": args.jobs, "mutation_cap": 0,
        "tasks": args.tasks or "all", "exit": done.returncode, "wall_s": round(run.wall, 1),
        "ratio_to_ideal": review.get("ratio_to_ideal"),
        "ratio_to_ideal_as_asked": review.get("ratio_to_ideal_as_asked"), "stages": stages,
        "seen_by_servers": outside,
        "server_cpu_ms_per_call": round(1000 * run.server_cpu / max(1, len(run.rows)), 3),
        "machine": {**machine(), "loadavg_1m": round(os.getloadavg()[0], 2)},
    }, sort_keys=True))
    return 0 if done.returncode == 0 else 1


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--latency-ms", type=float, default=300.0)
    parser.add_argument("--concurrency", type=int, default=32, help="per provider")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--task", action="append", default=[], dest="tasks")
    parser.add_argument("--gap-s", type=float, default=0.1,
                        help="nothing in flight this long ends a round")
    parser.add_argument("--keep", type=Path, default=None,
                        help="build in this folder and keep it (default: a temp folder)")
    return parser.parse_args()


def run_build(args: argparse.Namespace) -> BuildRun:
    """The build in a fresh data folder, one fake server per provider (removed after unless
    `--keep`)."""
    raw = ROOT / "data" / "raw"
    root = args.keep or Path(tempfile.mkdtemp(prefix="repogenesis-bench-llm-"))
    root.mkdir(parents=True, exist_ok=True)
    try:
        data = fresh_data(root, "data", raw, args.tasks)
        limits = "\n".join(f"{p} = {args.concurrency}" for p in PROVIDERS)
        (root / "repogenesis.toml").write_text(f"[llm.concurrency]\n{limits}\n")
        server_log = root / "server-calls.log"
        server_log.unlink(missing_ok=True)
        setup = ServerSetup(args.latency_ms,
                            extra=("--play-models", str(raw), "--log", str(server_log)))
        with FakeServers(set(PROVIDERS), setup) as servers:
            env = {**os.environ, **servers.env, "REPOGENESIS_MUTATION_CAP": "0",
                   "PYTHONPATH": str(ROOT)}
            argv = [sys.executable, "-m", "pipeline", "build", "--data", str(data),
                    "--jobs", str(args.jobs)]
            for task in args.tasks:
                argv += ["--task", task]
            before = servers.cpu_s()
            started = time.monotonic()
            done = subprocess.run(argv, cwd=root, env=env, capture_output=True, text=True)
            wall = time.monotonic() - started
            server_cpu = servers.cpu_s() - before
        (root / "build.log").write_text(done.stdout + done.stderr)
        rows = calls(data / ".repogenesis" / "state.db")
        seen = server_calls(server_log)
    finally:
        if args.keep is None:
            shutil.rmtree(root, ignore_errors=True)
    return BuildRun(done, wall, server_cpu, rows, seen)


def stage_figures(rows: list[dict[str, Any]], concurrency: int, latency_s: float,
                  gap_s: float) -> dict[str, dict[str, Any]]:
    """Per stage: its rounds from the ledger, the ratios, and the same per round size."""
    stages: dict[str, dict[str, Any]] = {}
    for stage in sorted({r["stage"] for r in rows}):
        mine = [r for r in rows if r["stage"] == stage]
        split = rounds(mine, gap_s)
        times = [round_times(one, concurrency, latency_s, gap_s) for one in split]
        waves: dict[int, list[tuple[float, float, float]]] = defaultdict(list)
        for t in times:
            waves[round(t[0] / latency_s) if latency_s else 1].append(t)
        stages[stage] = {
            "calls": len(mine), "rounds": len(times),
            "mean_latency_ms": round(sum(r["latency_ms"] for r in mine) / len(mine), 1),
            "largest_round_calls": max(len(one) for one in split), **sums(times),
            # one wave's round pays its requests' making and its answers' reading once, with
            # nothing to overlap them: the figure per round size says where the time goes
            "by_waves": {str(n): {"rounds": len(ts), **sums(ts)}
                         for n, ts in sorted(waves.items())}}
        got = stages[stage]
        print(f"{stage}: {len(mine)} calls in {len(times)} round(s), mean latency "
              f"{got['mean_latency_ms']} ms; rounds {got['actual_s']:.1f} s against "
              f"{got['ideal_s']:.1f} s at best = {got['ratio_to_ideal']} "
              f"({got['ratio_to_ideal_as_asked']} from when each task asked); by waves: "
              + ", ".join(f"{n}: {w['rounds']} round(s) {w['ratio_to_ideal']}"
                          for n, w in got["by_waves"].items()))
    return stages


def server_figures(seen: list[dict[str, Any]], rows: list[dict[str, Any]], concurrency: int,
                   latency_s: float) -> dict[str, Any]:
    """From outside: every model call's rounds as the servers saw them, first arrival to last
    reply sent (the client's own time before the first request and after the last answer
    is not in it). Stages and tasks are not known there: a round ends at any moment with
    nothing in flight (a call asked after another's answer, a refine after its review,
    never shares its wave)."""
    outside_times: dict[str, list[tuple[float, ...]]] = defaultdict(list)
    for one in rounds(seen, 0.0):  # (fastest, actual): when a call was asked is not seen
        outside_times[stage_of(one, rows)].append(
            round_times(one, concurrency, latency_s, 0.0)[:2])
    every = [t for ts in outside_times.values() for t in ts]
    outside = {"calls": len(seen), "rounds": len(every), **sums(every),
               "by_stage": {st: {"rounds": len(ts), **sums(ts)}
                            for st, ts in sorted(outside_times.items())}}
    print(f"seen by the servers: {outside['calls']} model calls in {outside['rounds']} round(s),"
          f" {outside['actual_s']:.1f} s against {outside['ideal_s']:.1f} s at best = "
          f"{outside['ratio_to_ideal']}; by the ledger's stage at that time: "
          + ", ".join(f"{st} {v['ratio_to_ideal']}" for st, v in outside["by_stage"].items()))
    return outside


if __name__ == "__main__":
    raise SystemExit(main())
