"""What the three SDKs alone allow a one-wave review round on this machine, beside what the
pipeline gets.

    .venv/bin/python bench/sdk_floor.py [--cases 20] [--rounds 12] [--latency-ms 300]
                                        [--concurrency 32] [--task todo-tasks]

A one-wave round (every provider's calls fit in its slots: a bundled task's review round)
can end no sooner than the latency after its last request left. `bench/providers.py`'s
`one_wave` measures the pipeline's such rounds; this measures the same rounds with nothing of
the pipeline on the way: the review requests rendered beforehand, one process per provider
holding its adapter ready as a worker process does (`workers.ready_adapter`: the official
SDK, warmed), every call of the round in its own thread at the same instant, against
`bench/plain_server.py` (answers replayed after the latency, almost no CPU). That is the
floor any client built on these SDKs has on these cores: what is left between it and the
pipeline's figure is the pipeline's. Both run in the same servers, the floor's rounds first,
then the pipeline's (`bench/providers.py`'s `run`, distinct cases, every call a cache miss).

Per kind: the median round's wall time, `ratio_to_ideal` = latency ÷ that, when the round's
last request arrived at the server (`last_arrival_ms`, from its log). No asserts; the last line
is one JSON object.
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from providers import (  # noqa: E402
    Document,
    FakeServers,
    ServerSetup,
    cases_for,
    one_wave_figures,
    run,
)

from pipeline.llm.backend import LLMBackend  # noqa: E402
from pipeline.llm.settings import PROVIDERS, LLMSettings, split_ref  # noqa: E402
from pipeline.rubric import load_rubric  # noqa: E402
from pipeline.spec import load_spec  # noqa: E402


def child(name: str, requests_file: Path, limit: int) -> int:
    """One provider's process: for each start time read from stdin, its calls of the next
    round all at once, then the time the last one ended (and how many failed) on stdout."""
    from pipeline.llm.workers import ready_adapter

    rounds: list[list[tuple[Any, Any]]] = pickle.loads(requests_file.read_bytes())[name]
    adapter = ready_adapter(name, {})
    print("ready", flush=True)
    with ThreadPoolExecutor(max_workers=limit) as pool:
        for calls, line in zip(rounds, sys.stdin, strict=False):
            gate = threading.Event()

            def one(request: Any, schema: Any, gate: threading.Event = gate
                    ) -> tuple[float, bool]:
                gate.wait()
                try:
                    adapter.complete(request, schema)
                    return time.time(), True
                except Exception:  # noqa: BLE001 - counted, the round goes on
                    return time.time(), False

            futures = [pool.submit(one, request, schema) for request, schema in calls]
            time.sleep(max(0.0, float(line) - time.time()))
            gate.set()
            ends = [f.result() for f in futures]
            print(json.dumps({"end": max(e for e, _ in ends),
                              "failed": sum(1 for _, ok in ends if not ok)}), flush=True)
    return 0


def floor_rounds(env: dict[str, str], rounds: dict[str, list[list[tuple[Any, Any]]]],
                 limit: int, tmp: Path) -> tuple[list[tuple[float, float]], int]:
    """The rounds in one process per provider, started together: (start, end) per round."""
    path = tmp / "requests.pkl"
    path.write_bytes(pickle.dumps(rounds))
    kids = {name: subprocess.Popen(
        [sys.executable, __file__, "--child", name, str(path), str(limit)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env={**os.environ, **env},
        cwd=ROOT) for name in rounds}
    try:
        for name, kid in kids.items():
            if (kid.stdout.readline() if kid.stdout else "").strip() != "ready":
                raise RuntimeError(f"the {name} floor process did not start")
        spans, failed = [], 0
        for _ in range(len(next(iter(rounds.values())))):
            time.sleep(0.1)  # rounds apart, as in bench/providers.py
            start = time.time() + 0.05
            for kid in kids.values():
                assert kid.stdin is not None
                kid.stdin.write(f"{start}\n")
                kid.stdin.flush()
            ends = [json.loads(kid.stdout.readline()) for kid in kids.values()
                    if kid.stdout is not None]
            spans.append((start, max(e["end"] for e in ends)))
            failed += sum(e["failed"] for e in ends)
        return spans, failed
    finally:
        for kid in kids.values():
            if kid.stdin:
                kid.stdin.close()
            try:
                kid.wait(timeout=10)
            except subprocess.TimeoutExpired:
                kid.kill()
                kid.wait()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=20, help="cases per round")
    parser.add_argument("--rounds", type=int, default=12)
    parser.add_argument("--latency-ms", type=float, default=300.0)
    parser.add_argument("--concurrency", type=int, default=32, help="per provider")
    parser.add_argument("--task", default="todo-tasks", help="a bundled task under data/raw")
    parser.add_argument("--child", nargs=3, metavar=("PROVIDER", "FILE", "LIMIT"),
                        help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        return child(args.child[0], Path(args.child[1]), int(args.child[2]))
    readme_path = ROOT / "data" / "raw" / args.task / "README.md"
    readme, spec = readme_path.read_text(encoding="utf-8"), load_spec(readme_path)
    settings = LLMSettings(concurrency=dict.fromkeys(PROVIDERS, args.concurrency),
                           backoff_max_s=2.0)
    used = {split_ref(r)[0] for r in settings.reviewers}
    rubric = load_rubric()
    renderer = LLMBackend(None, settings)  # type: ignore[arg-type]  # renders, never calls
    per_provider: dict[str, list[list[tuple[Any, Any]]]] = {p: [] for p in used}
    for r in range(args.rounds):
        calls = [c for case in cases_for(args.task, spec, args.cases, f"f{r}_")
                 for c in renderer.review_calls(case, None, spec, readme, rubric)]
        for p in used:
            per_provider[p].append([(c.request, c.schema) for c in calls
                                    if split_ref(c.meta["reviewer"])[0] == p])
    figures: dict[str, dict[str, Any]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "calls.log"
        with FakeServers(used, ServerSetup(args.latency_ms, plain=True, log=log)) as servers:
            floor_spans, failed = floor_rounds(servers.env, per_provider, args.concurrency,
                                               Path(tmp))
            mine = run(servers.env, settings,
                       cases_for(args.task, spec, args.cases * args.rounds, "p"),
                       Document(spec, readme), rounds=args.rounds)
        lines = log.read_text().split("\n")
    # the first round of each kind opens the connections: left out, as a build's later are
    for kind, spans in (("floor", floor_spans[1:]), ("pipeline", mine["spans"][1:])):
        figures[kind] = one_wave_figures(spans, args.latency_ms, lines)
        print(f"{kind}: rounds of {args.cases} cases x {len(used)} providers, median "
              f"{figures[kind]['median_ms']} ms, ratio {figures[kind]['ratio_to_ideal']}, last "
              f"request in at {figures[kind]['last_arrival_ms']} ms")
    share = figures["pipeline"]["ratio_to_ideal"] / figures["floor"]["ratio_to_ideal"]
    print(json.dumps({
        "latency_ms": args.latency_ms, "concurrency_per_provider": args.concurrency,
        "cases": args.cases, "rounds": args.rounds, "providers": len(used),
        "floor": figures["floor"], "pipeline": figures["pipeline"],
        "pipeline_of_floor": round(share, 3), "failed_calls": failed + mine["failed"],
        "machine": {"cpus": os.cpu_count(), "loadavg_1m": round(os.getloadavg()[0], 2)},
    }, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
