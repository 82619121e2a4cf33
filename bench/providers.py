"""The review stage against the fake provider server: throughput, overhead, input tokens.

    .venv/bin/python bench/providers.py [--latency-ms 300] [--concurrency 32] [--waves 20]
                                        [--error-rate 0] [--task todo-tasks]
                                        [--worker-process-from N] [--server fake|plain]
                                        [--one-wave-cases 20] [--one-wave-rounds 10]

The fake server (pipeline/llm/fake_server) runs as one process per provider with a set
latency (and optional seeded 429/500/malformed errors); the real SDKs, the client wrapper
(cache, retries, per-provider limits, ledger in a fresh SQLite store) and
`stages.round_calls.review_round` run here, over `waves` x (total concurrency) review calls
of distinct cases (every call a cache miss). Figures, one JSON object on the last line:
- `reviews_per_s` and `ratio_to_ideal`: achieved ÷ (total concurrency ÷ latency), the bound
  no client can beat (each call holds a slot for at least the latency);
- `overhead_ms_per_review`: the client's CPU time per review at zero latency (SDK, prompt
  rendering, validation, ledger; this process and its provider worker processes, see
  `pipeline/llm/workers.py`), and the wall time per review there; `client_cpu_cores` (CPU
  seconds per second of the loaded run) and the machine's load: at 320 calls/s the SDKs
  alone need most of a core, so a busy machine caps the ratio before the client does;
- `one_wave`: rounds of `--one-wave-cases` cases (a bundled task's round: every provider's
  calls fit in one wave, nothing hides the round's fixed cost), one after another: the median
  round's wall time and `ratio_to_ideal` = latency ÷ that; with `--server plain`
  (`bench/plain_server.py`: answers replayed at almost no CPU, a provider whose CPU is not on
  these cores) also when the round's last request arrived (`last_arrival_ms`) and how long the
  client took after the last reply (`tail_ms`), from the server's log;
- `input_tokens_per_review` with the shared-prefix layout (system message: document, rubric;
  marked for caching) and without it (the same text as one message), each as total and as the
  part not served from the provider's prompt cache.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pipeline.llm import make_backend  # noqa: E402
from pipeline.llm.backend import LLMBackend  # noqa: E402
from pipeline.llm.base import Message  # noqa: E402
from pipeline.llm.client import Call  # noqa: E402
from pipeline.llm.settings import PROVIDERS, LLMSettings, split_ref  # noqa: E402
from pipeline.offline.generate import generate_cases  # noqa: E402
from pipeline.records import Spec, TestCase  # noqa: E402
from pipeline.rubric import load_rubric  # noqa: E402
from pipeline.spec import load_spec  # noqa: E402
from pipeline.stages.round_calls import RoundContext, review_round  # noqa: E402
from pipeline.store import Store  # noqa: E402


def proc_cpu_s(pid: int | None) -> float:
    """A process's CPU seconds so far (Linux /proc; 0 elsewhere or when it is gone)."""
    if pid is None:
        return 0.0
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@dataclass(frozen=True)
class ServerSetup:
    """How a fake server process runs: one setup for all of a benchmark's servers, each
    given its own seed from it."""

    latency_ms: float
    error_rate: float = 0.0
    seed: int = 0
    extra: tuple[str, ...] = ()  # more arguments of `python -m pipeline.llm.fake_server`
    # `bench/plain_server.py` instead (replayed answers, almost no CPU; `log` gets its
    # calls' arrival and reply times)
    plain: bool = False
    log: Path | None = None


class FakeServer:
    """`python -m pipeline.llm.fake_server` (or the plain server) as a child process; its env
    points the SDKs."""

    def __init__(self, setup: ServerSetup) -> None:
        s = setup
        command = ([sys.executable, str(ROOT / "bench" / "plain_server.py"),
                    "--latency-ms", str(s.latency_ms)] + (["--log", str(s.log)] if s.log else [])
                   if s.plain else
                   [sys.executable, "-m", "pipeline.llm.fake_server", "--latency-ms",
                    str(s.latency_ms), "--error-rate", str(s.error_rate), "--seed", str(s.seed),
                    *s.extra])
        self.proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     text=True, cwd=ROOT)
        line = self.proc.stdout.readline() if self.proc.stdout else ""
        if not line:
            raise RuntimeError("the fake provider server did not start")
        self.env: dict[str, str] = json.loads(line)["env"]

    def cpu_s(self) -> float:
        return proc_cpu_s(self.proc.pid)

    def __enter__(self) -> FakeServer:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.proc.stdin:
            self.proc.stdin.close()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


# Each SDK reads its base URL from its own variable: one server process per provider.
_BASE_VARS = {"openai": "OPENAI_BASE_URL", "anthropic": "ANTHROPIC_BASE_URL",
              "gemini": "GOOGLE_GEMINI_BASE_URL"}


class FakeServers:
    """One fake server process per provider: 96 connections on one Python server would
    measure that server's GIL (its replies queue behind each other), not the client."""

    def __init__(self, providers: set[str], setup: ServerSetup) -> None:
        self.servers = {p: FakeServer(replace(setup, seed=setup.seed + i))
                        for i, p in enumerate(sorted(providers))}
        first = next(iter(self.servers.values()))
        self.env = dict(first.env)
        for provider, server in self.servers.items():
            self.env[_BASE_VARS[provider]] = server.env[_BASE_VARS[provider]]

    def cpu_s(self) -> float:
        return sum(s.cpu_s() for s in self.servers.values())

    def __enter__(self) -> FakeServers:
        return self

    def __exit__(self, *exc: object) -> None:
        for server in self.servers.values():
            server.__exit__(*exc)


class FlatLayout(LLMBackend):
    """The review prompt without the shared-prefix layout: one message, no cache mark."""

    def review_calls(self, *args, **kwargs) -> list[Call]:  # type: ignore[no-untyped-def]
        calls = super().review_calls(*args, **kwargs)
        for call in calls:
            text = "\n\n".join(m.content for m in reversed(call.request.messages))
            call.request = call.request.model_copy(
                update={"messages": [Message(role="user", content=text)]})
        return calls


def cases_for(task_id: str, spec: Spec, count: int, tag: str) -> list[TestCase]:
    """`count` distinct cases (so every review call is a cache miss), from the offline ones."""
    base = generate_cases(task_id, spec)
    out = []
    for i in range(count):
        case = base[i % len(base)]
        name = f"{case.name}_{tag}{i}"
        out.append(case.model_copy(update={
            "case_id": f"{task_id}::{name}", "name": name,
            "code": case.code.replace(f"def {case.name}(", f"def {name}(")}))
    return out


@dataclass(frozen=True)
class Document:
    """A task's README and the spec read from it: what each review prompt shows."""

    spec: Spec
    readme: str


def run(env: dict[str, str], settings: LLMSettings, cases: list[TestCase], doc: Document,
        *, flat: bool = False, rounds: int = 1) -> dict[str, Any]:
    """Review rounds over `cases` (split into `rounds` of equal size, one after another) in a
    fresh store: wall and CPU summed over the rounds, each round's start and end (epoch
    seconds), ledger sums."""
    os.environ.update(env)
    rubric = load_rubric()
    with tempfile.TemporaryDirectory() as tmp:
        store = Store.open(Path(tmp) / "state.db")
        backend = make_backend(store, settings)
        if flat:
            backend = FlatLayout(backend.client, settings)
        ctx = RoundContext(doc.spec, doc.readme, "train", rubric, rubric.routing,
                           backend.reviewer_count)
        # A build starts its worker processes long before its first review round (generation
        # and execution come first): measure the round with them ready, not their start-up.
        for provider in backend.client.providers.values():
            wait = getattr(provider, "wait_ready", None)
            if wait is not None:
                wait()
        # the client's CPU: this process and its provider worker processes, if any
        workers = [getattr(p, "pid", None) for p in backend.client.providers.values()]
        cpu_now = lambda: time.process_time() + sum(proc_cpu_s(w) for w in workers)  # noqa: E731
        size = max(1, len(cases) // rounds)
        decided, spans, wall, cpu = [], [], 0.0, 0.0
        for start in range(0, size * rounds, size):
            time.sleep(0.1 if start else 0.0)  # rounds apart, as a build's are
            cpu0, wall0, began = cpu_now(), time.perf_counter(), time.time()
            decided += review_round(cases[start:start + size], ctx, backend, store)
            wall, cpu = wall + time.perf_counter() - wall0, cpu + cpu_now() - cpu0
            spans.append((began, time.time()))
        for provider in backend.client.providers.values():
            close = getattr(provider, "close", None)
            if close is not None:
                close()
        failed = sum(1 for _, _, reviews, _ in decided for r in reviews if r.scores is None)
        calls = store.llm_calls(outcome="ok", stage="review")
        row = {"n": len(calls), "tin": sum(r["tokens_in"] for r in calls),
               "tc": sum(r["tokens_cached"] for r in calls)}
        store.close()
    n = len(decided) * backend.reviewer_count
    return {"reviews": n, "wall_s": wall, "cpu_s": cpu, "failed": failed, "spans": spans,
            "ok_calls": row["n"] or 0, "tokens_in": (row["tin"] or 0) / max(1, row["n"] or 1),
            "tokens_fresh": ((row["tin"] or 0) - (row["tc"] or 0)) / max(1, row["n"] or 1)}


def one_wave_figures(spans: list[tuple[float, float]], latency_ms: float,
                     log: list[str] | None) -> dict[str, float | None]:
    """Small rounds (every provider's calls in one wave): the median round's wall time and
    its ratio to the latency; with the plain server's log, when the round's last request
    arrived and how long the client took after the last reply (medians, ms)."""
    walls = [1000 * (end - start) for start, end in spans]
    calls = [tuple(map(float, line.split())) for line in log or [] if line.strip()]
    last_in, tail = [], []
    for start, end in spans:
        mine = [(arrived, sent) for arrived, sent in calls if start <= arrived <= end]
        if mine:
            last_in.append(1000 * (max(a for a, _ in mine) - start))
            tail.append(1000 * (end - max(s for _, s in mine)))
    med = statistics.median
    return {"median_ms": round(med(walls), 1),
            "ratio_to_ideal": round(latency_ms / med(walls), 3) if latency_ms else None,
            "last_arrival_ms": round(med(last_in), 1) if last_in else None,
            "tail_ms": round(med(tail), 1) if tail else None}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--latency-ms", type=float, default=300.0)
    parser.add_argument("--concurrency", type=int, default=32, help="per provider")
    parser.add_argument("--waves", type=int, default=20,
                        help="review calls = waves x total concurrency")
    parser.add_argument("--error-rate", type=float, default=0.0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--task", default="todo-tasks", help="a bundled task under data/raw")
    parser.add_argument("--worker-process-from", type=int, default=None,
                        help="the [llm] setting (default: its default); 0 keeps every SDK "
                             "call in this process")
    parser.add_argument("--server", choices=("fake", "plain"), default="fake",
                        help="plain: bench/plain_server.py, replayed answers at almost no CPU "
                             "(a provider whose CPU is not on these cores)")
    parser.add_argument("--one-wave-cases", type=int, default=20,
                        help="cases of each small round (a bundled task's round: 13-26)")
    parser.add_argument("--one-wave-rounds", type=int, default=10)
    args = parser.parse_args()
    if args.server == "plain" and args.error_rate:
        parser.error("--error-rate needs the fake server (--server fake)")
    readme_path = ROOT / "data" / "raw" / args.task / "README.md"
    readme, spec = readme_path.read_text(encoding="utf-8"), load_spec(readme_path)
    extra = ({} if args.worker_process_from is None
             else {"worker_process_from": args.worker_process_from})
    settings = LLMSettings(concurrency=dict.fromkeys(PROVIDERS, args.concurrency),
                           backoff_max_s=2.0, **extra)
    used = {split_ref(r)[0] for r in settings.reviewers}
    total = sum(settings.limit(p) for p in used)
    per_case = len(settings.reviewers)
    count = max(1, args.waves * total // per_case)

    plain = args.server == "plain"
    doc = Document(spec, readme)
    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "calls.log"
        setup = ServerSetup(args.latency_ms, args.error_rate, args.seed, plain=plain,
                            log=log if plain else None)
        with FakeServers(used, setup) as servers:
            before = servers.cpu_s()
            loaded = run(servers.env, settings, cases_for(args.task, spec, count, "t"), doc)
            server_cpu = servers.cpu_s() - before
            small = run(servers.env, settings,
                        cases_for(args.task, spec, args.one_wave_cases * args.one_wave_rounds,
                                  "w"), doc, rounds=args.one_wave_rounds)
        one_wave = one_wave_figures(small["spans"], args.latency_ms,
                                    log.read_text().split("\n") if plain else None)
    rate = loaded["reviews"] / loaded["wall_s"]
    ideal = total / (args.latency_ms / 1000) if args.latency_ms > 0 else float("inf")
    print(f"latency {args.latency_ms:.0f} ms, concurrency {args.concurrency} x {len(used)} "
          f"provider(s): {loaded['reviews']} reviews in {loaded['wall_s']:.2f} s = "
          f"{rate:.1f}/s (ideal {ideal:.1f}/s), failed {loaded['failed']}")

    print(f"rounds of {args.one_wave_cases} cases ({args.one_wave_rounds}): median "
          f"{one_wave['median_ms']} ms, ratio {one_wave['ratio_to_ideal']}; requests in by "
          f"{one_wave['last_arrival_ms']} ms, done {one_wave['tail_ms']} ms after the last "
          "reply (plain server only)")
    small = max(1, 3 * total // per_case)  # three waves at zero latency
    with FakeServers(used, ServerSetup(0.0, 0.0, args.seed)) as server:
        zero = run(server.env, settings, cases_for(args.task, spec, small, "z"), doc)
        flat = run(server.env, settings, cases_for(args.task, spec, small, "f"), doc,
                   flat=True)
    overhead = 1000 * zero["cpu_s"] / zero["reviews"]
    print(f"zero latency: {zero['reviews']} reviews, CPU {overhead:.2f} ms/review, wall "
          f"{1000 * zero['wall_s'] / zero['reviews']:.2f} ms/review")
    print(f"input tokens per review: shared-prefix layout {zero['tokens_in']:.0f} "
          f"({zero['tokens_fresh']:.0f} not cached); one message {flat['tokens_in']:.0f} "
          f"({flat['tokens_fresh']:.0f} not cached)")
    print(json.dumps({
        "latency_ms": args.latency_ms, "concurrency_per_provider": args.concurrency,
        "providers": len(used), "error_rate": args.error_rate, "reviews": loaded["reviews"],
        "failed_reviews": loaded["failed"], "wall_s": round(loaded["wall_s"], 3),
        "reviews_per_s": round(rate, 2), "ideal_per_s": round(ideal, 2),
        "ratio_to_ideal": round(rate / ideal, 3),
        "overhead_ms_per_review": round(overhead, 3),
        # what the figure was measured on: a loaded machine caps it by CPU, not by the client
        "client_cpu_cores": round(loaded["cpu_s"] / loaded["wall_s"], 2),
        "server_cpu_ms_per_review": round(1000 * server_cpu / loaded["reviews"], 3),
        "machine": {"cpus": os.cpu_count(), "loadavg_1m": round(os.getloadavg()[0], 2)},
        "server": args.server,
        "one_wave": {"cases": args.one_wave_cases, "rounds": args.one_wave_rounds,
                     **one_wave},
        "zero_latency_wall_ms_per_review": round(1000 * zero["wall_s"] / zero["reviews"], 3),
        "input_tokens_per_review": {
            "shared_prefix": round(zero["tokens_in"], 1),
            "shared_prefix_uncached": round(zero["tokens_fresh"], 1),
            "one_message": round(flat["tokens_in"], 1),
            "one_message_uncached": round(flat["tokens_fresh"], 1)},
    }, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
