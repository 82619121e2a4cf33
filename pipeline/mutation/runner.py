"""Run a black-box suite against mutant services of a task's oracle (the I/O edge).

For each selected mutant: copy the oracle into its own temporary folder with the one file
mutated, start it with `start_service` on a port of its own, run the suite with `run_pytest`,
and note which tests failed. The unmutated oracle runs first; tests that do not pass there get
no kill credit. Mutants run in parallel (a thread each, bounded by `jobs`, default the number
of cores); every service, test run and temporary folder is removed on every exit path (the
execution package kills each process group; the folders live under one temporary root).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from pipeline.execution import (
    RunOptions,
    ServiceError,
    TestRun,
    ensure_task_env,
    run_pytest,
    scratch_prefix,
    start_service,
)
from pipeline.execution.budget import cpu_slot
from pipeline.execution.copies import writable_copy
from pipeline.execution.ports import free_port
from pipeline.languages import get_language
from pipeline.routes import extract_routes
from pipeline.suite_runs import Group, merge_runs, suite_groups
from pipeline.tasks import load_task

from .cover import COVER_DIR, cover_env, measured_tests, overlay, read_coverage
from .operators import Mutant
from .oracle import oracle_mutants
from .reach import Baseline, plan_groups, read_request_log
from .scores import MutantResult, mutation_scores
from .select import DEFAULT_CAP, DEFAULT_SEED, select_mutants

_COPY_IGNORE = shutil.ignore_patterns("__pycache__", "*.pyc", ".venv", ".git")
Progress = Callable[[Mutant, MutantResult], None]


def read_oracle_sources(oracle_dir: Path, language: str) -> dict[str, str]:
    """Source files to mutate: relative posix path -> text (the registry's one definition of
    an oracle's source files; files that are not UTF-8 are left out)."""
    out = {}
    for path in get_language(language).source_files(oracle_dir):
        try:
            out[path.relative_to(oracle_dir).as_posix()] = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
    return out


_PORT_LOCK = threading.Lock()
_CLAIMED: set[int] = set()


@contextlib.contextmanager
def _claimed_port() -> Iterator[int]:
    """A free port no other thread of this process has been handed and not yet given back
    (free_port alone could give two threads the same port before either service binds it)."""
    with _PORT_LOCK:
        port = free_port()
        while port in _CLAIMED:
            port = free_port()
        _CLAIMED.add(port)
    try:
        yield port
    finally:
        with _PORT_LOCK:
            _CLAIMED.discard(port)


@dataclass(frozen=True)
class Settings:
    """How to start the oracle and run the suite (shared by every mutant of a task)."""

    language: str
    env_bin: Path | None
    suite_dir: Path
    startup_timeout_s: float = 30.0
    suite_timeout_s: float = 120.0
    python: str = sys.executable
    service_env: Mapping[str, str] = field(default_factory=dict)  # e.g. a measured run's
    test_env: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class MutationOptions:
    """How `run_mutation` picks and runs the mutants: `cap` bounds how many (None: all, chosen
    by `seed`), `jobs` how many run at once (None: one per core), the timeouts limit the
    unmutated run (a mutant's are derived from what it took), `progress` hears of each
    result, `selection` "reaching" runs each mutant against only the tests that can reach
    it, read from the requests the baseline run logged to `request_log` (a file the suite's
    hooks write beside its conftest). `env_bin`: the task's environment (None: this one)."""

    cap: int | None = DEFAULT_CAP
    jobs: int | None = None
    seed: int | str = DEFAULT_SEED
    env_bin: Path | None = None
    startup_timeout_s: float = 30.0
    test_timeout_s: float = 120.0
    progress: Progress | None = None
    selection: str = "all"
    request_log: str | None = None

    @property
    def workers(self) -> int:
        return self.jobs or os.cpu_count() or 1


def run_suite(oracle: Path, settings: Settings, log_path: Path) -> tuple[TestRun, float]:
    """The merged run of `run_suite_groups` and how long the service took to answer first."""
    runs, ready_s = run_suite_groups(oracle, settings, log_path)
    return merge_runs(runs), ready_s


def run_suite_groups(oracle: Path, settings: Settings, log_path: Path,
                     groups: Sequence[Group] | None = None) -> tuple[list[TestRun], float]:
    """Run the suite against `oracle`, each group of it (`suite_runs`: human files alone, as
    their authors ran them; or the `groups` given) against a fresh start. Returns the groups'
    runs and how long the service took to answer the first time."""
    runs: list[TestRun] = []
    ready: list[float] = []
    for group in suite_groups(settings.suite_dir) if groups is None else groups:
        run, ready_s = _run_group(oracle, settings, log_path, group)
        runs.append(run)
        ready.append(ready_s)
    return runs, ready[0] if ready else 0.0


def _run_group(oracle: Path, settings: Settings, log_path: Path,
               group: tuple[str, ...]) -> tuple[TestRun, float]:
    """Start `oracle` on a free port and run one group of the suite against it (retries a
    taken port). Returns the run and how long the service took to answer."""
    for attempt in range(3):
        # The CPU slot before the port (see `execution.budget`): the wait for a slot can be
        # longer than a port stays reserved.
        with cpu_slot(), _claimed_port() as port:
            started = time.monotonic()
            try:
                with start_service(oracle, port, settings.env_bin, settings.startup_timeout_s,
                                   log_path=log_path,
                                   options=RunOptions(env=settings.service_env)) as service:
                    ready = time.monotonic() - started
                    # The service already answers: a mutant that answers garbage need not
                    # hold the suite's readiness check for its full half minute.
                    return run_pytest(settings.suite_dir, service.base_url,
                                      settings.suite_timeout_s, python=settings.python,
                                      extra_args=group, options=RunOptions(
                                          env={**RUN_ENV, **settings.test_env})), ready
            except ServiceError as exc:
                if exc.kind != "port_in_use" or attempt == 2:
                    raise
    raise AssertionError("unreachable")


# The service check is short (it already answers), and the fresh values a test draws are the
# same in every run (a generated conftest seeds them from this and the test's node id), so a
# mutant's kills do not depend on the values drawn, nor on which tests ran before.
RUN_ENV = {"SERVICE_WAIT_S": "10", "SERVICE_TEST_SEED": "repogenesis-mutants"}

# pytest's exit code when the suite's session-wide readiness check gives up (the shared
# conftest's `pytest.exit(..., returncode=3)`; pytest's own internal error is 3 too).
ABORTED = 3


def detected(run: TestRun) -> list[str]:
    """Node ids that failed or errored. A test the run never reached detected nothing, unless
    the whole run was aborted (the service never answered usefully): then each test would
    have failed alone too, so the first one to hit the check does not take all the credit."""
    aborted = run.exit_code == ABORTED and not run.timed_out
    return sorted(t.nodeid for t in run.tests
                  if t.outcome in ("failed", "error") and t.nodeid != "."
                  and (aborted or not t.output.startswith("not run")))


def run_mutant(mutant: Mutant, oracle_dir: Path, settings: Settings, work_root: Path,
               groups: Sequence[Group] | None = None) -> MutantResult:
    """Run the suite (or the `groups` of it that can reach the mutant: `reach`) against one
    mutant in its own folder; the folder is removed after. No group: not reached, survived
    without starting a service."""
    if groups is not None and not groups:
        return MutantResult(mutant.id, "ran", detail="not reached")
    work = Path(tempfile.mkdtemp(prefix="mutant-", dir=work_root))
    started = time.monotonic()
    try:
        oracle = work / "oracle"
        writable_copy(oracle_dir, oracle, symlinks=True, ignore=_COPY_IGNORE)
        (oracle / mutant.file).write_text(mutant.source, encoding="utf-8")
        log = work / "service.log"
        try:
            runs, _ = run_suite_groups(oracle, settings, log, groups)
        except ServiceError as exc:
            text = log.read_text(encoding="utf-8", errors="replace") if log.is_file() else ""
            build_error = get_language(settings.language).build_error
            status = "invalid" if build_error and build_error.search(text) else "stillborn"
            return MutantResult(mutant.id, status, detail=str(exc)[:300],
                                duration_s=round(time.monotonic() - started, 2))
        # per group: an aborted group credits its own tests only
        return MutantResult(mutant.id, "ran", sorted({n for r in runs for n in detected(r)}),
                            duration_s=round(time.monotonic() - started, 2))
    finally:
        shutil.rmtree(work, ignore_errors=True)


def run_mutants(mutants: list[Mutant], oracle_dir: Path, settings: Settings, work_root: Path,
                options: MutationOptions, plans: Mapping[str, list[Group]] | None = None
                ) -> dict[str, MutantResult]:
    """Every mutant's result, `options.workers` at a time (each with its groups from `plans`,
    else the whole suite), told to `options.progress`; on Ctrl-C the ones not started are
    dropped."""
    progress = options.progress
    results: dict[str, MutantResult] = {}
    stop = threading.Event()

    def one(mutant: Mutant) -> MutantResult | None:
        if stop.is_set():
            return None
        return run_mutant(mutant, oracle_dir, settings, work_root,
                          None if plans is None else plans.get(mutant.id))

    pool = ThreadPoolExecutor(max_workers=max(1, options.workers), thread_name_prefix="mutant")
    try:
        futures = {pool.submit(one, m): m for m in mutants}
        for future in as_completed(futures):
            result = future.result()
            if result is not None:
                results[result.mutant_id] = result
                if progress is not None:
                    progress(futures[future], result)
    finally:
        stop.set()
        pool.shutdown(wait=True, cancel_futures=True)
    return results


def run_mutation(
    oracle_dir: Path,
    language: str,
    suite_dir: Path,
    nodeid_to_case: Mapping[str, str] | None = None,
    options: MutationOptions | None = None,
) -> dict[str, Any]:
    """Mutation report of `suite_dir` against mutants of `oracle_dir` (see `mutation_report`).

    `selection` "reaching" runs each mutant against the tests that can reach it (`reach`);
    without the request log every test runs, as with "all" (see `MutationOptions`).
    Raises ServiceError if the unmutated oracle does not start.
    """
    opts = options or MutationOptions()
    env_bin, selection, request_log = opts.env_bin, opts.selection, opts.request_log
    startup_timeout_s, test_timeout_s = opts.startup_timeout_s, opts.test_timeout_s
    started = time.monotonic()
    oracle_dir, suite_dir = Path(oracle_dir).resolve(), Path(suite_dir).resolve()
    if not suite_dir.is_dir():
        raise FileNotFoundError(f"no test suite at {suite_dir}")
    candidates = oracle_mutants(read_oracle_sources(oracle_dir, language), language)
    chosen = select_mutants(candidates, opts.cap, opts.seed)
    jobs = opts.workers
    with tempfile.TemporaryDirectory(prefix=scratch_prefix("mutants")) as tmp:
        root = Path(tmp)
        suite = root / "suite"
        shutil.copytree(suite_dir, suite, ignore=_COPY_IGNORE)
        base = root / "baseline"
        writable_copy(oracle_dir, base, symlinks=True, ignore=_COPY_IGNORE)
        settings = Settings(language, env_bin, suite, startup_timeout_s, test_timeout_s)
        sources = read_oracle_sources(oracle_dir, language)
        measure = selection == "reaching" and any(f.endswith(".py") for f in sources)
        with _claimed_port() as control:
            measured = replace(settings, service_env=cover_env(
                overlay(root / "cover-overlay"), base, base / COVER_DIR, control),
                test_env={"REPOGENESIS_COVER_PORT": str(control)}) if measure else settings
            runs, ready_s = run_suite_groups(base, measured, root / "baseline.log")
        baseline = merge_runs(runs)
        lines = read_coverage(base / COVER_DIR) if measure else {}
        shutil.rmtree(base, ignore_errors=True)
        log = suite / request_log if request_log else None
        plans = None
        if selection == "reaching" and (measured_tests(lines) or (log and log.is_file())):
            sent = read_request_log(log.read_text(encoding="utf-8", errors="replace")) \
                if log and log.is_file() else []
            if log and log.is_file():
                log.unlink()  # the mutants' runs log again; only the baseline's requests count
            plans = plan_groups(chosen, sources, extract_routes(oracle_dir), Baseline(lines, sent),
                                suite_groups(suite), [_ids(r) for r in runs])
        passed = [t.nodeid for t in baseline.tests if t.outcome == "passed"]
        # A mutant that never answers or hangs costs a timeout: allow a generous multiple of
        # what the oracle took, not the full allowance. Generous, because a limit that a
        # loaded machine can hit turns kills into "not run" and makes scores vary by load.
        startup = min(startup_timeout_s, max(15.0, 5 * ready_s + 10))
        limit = min(test_timeout_s, max(60.0, 5 * baseline.duration_s + 30))
        settings = Settings(language, env_bin, suite, startup, limit)
        results = run_mutants(chosen, oracle_dir, settings, root, opts, plans) \
            if passed else {}
    report = mutation_scores(chosen, results, passed, nodeid_to_case,
                             [t.nodeid for t in baseline.tests if t.nodeid != "."])
    report.update({
        "candidates": len(candidates),
        "cap": opts.cap,
        "seed": opts.seed,
        "operators": dict(sorted(Counter(m.operator for m in chosen).items())),
        "baseline": {"passed": len(passed), "tests": len(baseline.tests),
                     "startup_s": round(ready_s, 2), "duration_s": baseline.duration_s},
        "jobs": jobs,
        "duration_s": round(time.monotonic() - started, 2),
        "selection": _selection_summary(selection, plans, chosen),
    })
    return report


def _ids(run: TestRun) -> list[str]:
    return [t.nodeid for t in run.tests if t.nodeid != "."]


def _selection_summary(selection: str, plans: Mapping[str, list[Group]] | None,
                       mutants: list[Mutant]) -> dict[str, Any]:
    """How much of the suite the mutants ran (volatile: not stored)."""
    if plans is None:
        return {"mode": "all" if selection == "all" else "all (no request log)",
                "mutants_run": len(mutants), "not_reached": 0, "deselected": 0}
    return {"mode": selection, "mutants_run": sum(1 for g in plans.values() if g),
            "not_reached": sum(1 for g in plans.values() if not g),
            "deselected": sum(arg.startswith("--deselect=") for g in plans.values()
                              for group in g for arg in group)}


def mutation_report(
    task_dir: Path,
    suite_dir: Path,
    nodeid_to_case: Mapping[str, str] | None = None,
    cap: int | None = DEFAULT_CAP,
    jobs: int | None = None,
    **options: Any,
) -> dict[str, Any]:
    """Mutation scores of the suite in `suite_dir` (a tests folder: conftest + modules) against
    mutants of the oracle of the raw task `task_dir`, as a JSON-ready dict for task.json.

    `nodeid_to_case` maps pytest node ids (relative to `suite_dir`) to case ids (default: the
    node ids themselves); `cap` bounds the mutants run (None: all); `jobs` the mutants run at
    once (default: cores). `options` are the rest of `MutationOptions` (seed, env_bin,
    startup_timeout_s, test_timeout_s, progress, selection, request_log); the task's
    environment is built or reused unless `env_bin` is given. Raises ServiceError if the
    unmutated oracle does not start, EnvError if its environment cannot be built.
    """
    task = load_task(Path(task_dir))
    language = task.config.language
    if "env_bin" not in options:
        env = ensure_task_env(task.oracle_dir, language)
        options["env_bin"] = env.bin if env else None
    return run_mutation(task.oracle_dir, language, suite_dir, nodeid_to_case,
                        MutationOptions(cap=cap, jobs=jobs, **options))
