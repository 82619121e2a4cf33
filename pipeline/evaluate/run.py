"""Evaluate a generated repository (a *candidate*) against one output task.

An output task is `data/<split>/<id>/` with `task.json` (port, language, endpoints, test cases)
and `tests/` (pytest, reading `SERVICE_BASE_URL`). For a candidate this module measures:

- DSR: its start script (see `workspace`) starts a service that answers HTTP on the task's port
  within the startup deadline, in the environment its language's module (pipeline/languages)
  builds: Python candidates with one from their `requirements.txt` (bare when absent) first
  on PATH, Java candidates with the machine's JDK.
  The port is the task's, as the contract says: if something else holds it, evaluation stops
  with `PortBusyError` (a busy port says nothing about the candidate).
- the task's tests against that service (only when it deployed): per test outcome, Pass@1 and
  the test pass rate;
- API coverage: the candidate's routes found by static analysis (`pipeline.routes`) matched
  against the task's endpoints; computed whether or not the service deployed.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pipeline.execution import (
    EnvError,
    ServiceError,
    ensure_task_env,
    port_in_use,
    run_pytest,
    start_service,
)
from pipeline.execution.pytest_runner import TestRun
from pipeline.languages import is_known, names
from pipeline.routes import extract_routes, match_endpoints
from pipeline.suite_runs import merge_runs, suite_groups

from . import metrics
from .workspace import WorkspaceError, find_start_script, workspace

NOT_RUN = "not_run"
PORT_FREE_WAIT_S = 5.0
LOG_TAIL_LINES = 20


class EvaluateError(Exception):
    """The evaluation itself cannot proceed (bad task folder, busy port); one line."""


class PortBusyError(EvaluateError):
    """The task's port is taken by something other than the candidate."""


@dataclass(frozen=True)
class TaskEndpoint:
    method: str
    path: str


@dataclass(frozen=True)
class TaskInfo:
    """What evaluation needs from an output task's task.json."""

    id: str
    language: str
    framework: str
    port: int
    endpoints: tuple[TaskEndpoint, ...]
    cases: tuple[dict[str, Any], ...]
    difficulty: str | None
    tests_dir: Path


def load_task(task_dir: Path) -> TaskInfo:
    """Read `task_dir/task.json`; EvaluateError names what is missing."""
    path = task_dir / "task.json"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise EvaluateError(f"{path} not found: --task must be an output task folder "
                            f"(data/<split>/<id>) written by `repogenesis build`") from None
    except (OSError, json.JSONDecodeError) as exc:
        raise EvaluateError(f"cannot read {path}: {exc}") from exc
    try:
        endpoints = tuple(TaskEndpoint(str(e["method"]).upper(), str(e["path"]))
                          for e in data.get("endpoints", []))
        difficulty = data.get("difficulty") or {}
        task = TaskInfo(
            id=str(data["id"]), language=str(data.get("language", "python")),
            framework=str(data.get("framework", "")), port=int(data["port"]),
            endpoints=endpoints, cases=tuple(data.get("test_cases", [])),
            difficulty=difficulty.get("level") if isinstance(difficulty, dict) else None,
            tests_dir=task_dir / "tests",
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise EvaluateError(f"{path} is malformed ({type(exc).__name__}: {exc})") from exc
    if not task.tests_dir.is_dir():
        raise EvaluateError(f"{task.tests_dir} not found: the task has no test suite")
    if not is_known(task.language):
        raise EvaluateError(f"{path}: language {task.language!r} is not known (known: "
                            f"{', '.join(names())}); add its module to pipeline/languages/")
    return task


def static_coverage(task: TaskInfo, candidate: Path) -> dict[str, Any]:
    """API coverage by static route analysis (no I/O beyond reading the candidate's source)."""
    routes = extract_routes(candidate) if candidate.is_dir() else []
    match = match_endpoints(task.endpoints, routes)
    return {
        "api_coverage": metrics.api_coverage(match),
        "routes_found": len(routes),
        "missing_endpoints": [f"{e.method} {e.path}" for e in match.missing],
    }


def _case_key(file: str, name: str) -> tuple[str, str]:
    """(test file relative to tests/, function name without parameters)."""
    return file.removeprefix("tests/"), name.split("[", 1)[0]


def _nodeid_key(nodeid: str) -> tuple[str, str]:
    parts = nodeid.split("::")
    return parts[0], parts[-1].split("[", 1)[0]


def merge_outcomes(cases: Sequence[dict[str, Any]], run_tests: Sequence[Any] | None
                   ) -> list[dict[str, str]]:
    """Per test: {id, outcome[, nodeid]} — the task's test cases by their id, with what the run
    reported; cases the run never reported are `not_run`, run results no case claims are kept
    under their node id."""
    by_key: dict[tuple[str, str], list[Any]] = {}
    for t in run_tests or ():
        by_key.setdefault(_nodeid_key(t.nodeid), []).append(t)
    out: list[dict[str, str]] = []
    claimed: set[str] = set()
    for case in cases:
        found = by_key.get(_case_key(str(case.get("file", "")), str(case.get("name", ""))), [])
        for t in found:
            claimed.add(t.nodeid)
            out.append({"id": str(case.get("id") or t.nodeid), "nodeid": t.nodeid,
                        "outcome": t.outcome})
        if not found:
            out.append({"id": str(case.get("id") or case.get("name")), "outcome": NOT_RUN})
    for t in run_tests or ():
        if t.nodeid not in claimed:
            out.append({"id": t.nodeid, "nodeid": t.nodeid, "outcome": t.outcome})
    return out


def _port_free(port: int) -> bool:
    """True once nothing holds `port` (a service we just stopped may take a moment)."""
    end = time.monotonic() + PORT_FREE_WAIT_S
    while port_in_use(port):
        if time.monotonic() > end:
            return False
        time.sleep(0.1)
    return True


def _env_bin(task: TaskInfo, candidate: Path, cache_dir: Path | None) -> Path | None:
    """The candidate's environment, as the task's language builds it (None: the machine's)."""
    env = ensure_task_env(candidate, task.language, root=cache_dir)
    return env.bin if env else None


@dataclass(frozen=True)
class Limits:
    """How long a candidate may take to start, to run the suite and one test; where the
    environments are cached."""

    startup_timeout_s: float = 90.0
    test_timeout_s: float = 300.0
    case_timeout_s: float = 30.0
    cache_dir: Path | None = None


@dataclass
class Deployment:
    """One candidate under test: its folder, start script and environment, the result being
    filled, and whether the service outlived each group's tests."""

    task: TaskInfo
    candidate: Path
    script: str
    result: dict[str, Any]
    env_bin: Path | None = None
    alive: list[bool] = field(default_factory=list)


def _deploy_and_test(task: TaskInfo, candidate: Path, script: str, result: dict[str, Any],
                     limits: Limits) -> list[Any] | None:
    """Start the candidate and run the task's tests; fills the DSR fields of `result`.
    Each group of the suite (`suite_runs`: human-written files alone, as their authors ran
    them, as the oracle ran them in the build) gets a fresh copy and start of the candidate.
    Returns the per-test outcomes, or None when the service did not deploy."""
    try:
        env_bin = _env_bin(task, candidate, limits.cache_dir)
    except EnvError as exc:
        result["dsr_reason"] = f"environment from requirements.txt failed: {exc}"
        return None
    dep = Deployment(task, candidate, script, result, env_bin)
    runs: list[TestRun] = []
    for i, group in enumerate(suite_groups(task.tests_dir)):
        run = _run_group(dep, group, limits, first=i == 0)
        if run is None and i == 0:
            return None
        if run is not None:
            runs.append(run)
    result["service_alive_after_tests"] = all(dep.alive)
    merged = merge_runs(runs) if runs else TestRun()
    result["tests_timed_out"] = merged.timed_out
    return merged.tests


def _run_group(dep: Deployment, group: tuple[str, ...], limits: Limits, *,
               first: bool) -> TestRun | None:
    """One group of the suite against a fresh start of the candidate; None when it did not
    start (the first start decides DSR; a later failed start leaves its tests not run)."""
    task, candidate, script, result = dep.task, dep.candidate, dep.script, dep.result
    if not _port_free(task.port):
        raise PortBusyError(f"port {task.port} (task {task.id}'s port) is in use: stop what "
                            f"holds it, then evaluate again")
    try:
        with workspace(candidate, script) as ws:
            t0 = time.monotonic()
            try:
                with start_service(ws.repo, task.port, dep.env_bin, limits.startup_timeout_s,
                                   log_path=ws.log_path) as service:
                    if first:
                        result["dsr"] = True
                        result["dsr_reason"] = (f"{script} answered HTTP on port {task.port} "
                                                f"in {time.monotonic() - t0:.1f}s")
                    run = run_pytest(task.tests_dir, service.base_url, limits.test_timeout_s,
                                     extra_args=(f"--timeout={limits.case_timeout_s:g}",
                                                 *group))
                    dep.alive.append(service.alive())
                    return run
            except ServiceError as exc:
                if exc.kind == "port_in_use":
                    raise PortBusyError(f"port {task.port} (task {task.id}'s port) is in use: "
                                        f"stop what holds it, then evaluate again") from None
                if first:
                    reason = str(exc).replace(str(ws.repo.resolve()), str(candidate))
                    result["dsr_reason"] = f"{exc.kind}: {reason}"
                    result["service_log_tail"] = _tail(ws.log_path)
                dep.alive.append(False)
                return None
    except WorkspaceError as exc:
        if first:
            result["dsr_reason"] = str(exc)
        return None


def _tail(log: Path, n: int = LOG_TAIL_LINES) -> list[str]:
    try:
        lines = log.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return []
    return [ln[:300] for ln in lines if ln.strip()][-n:]


def evaluate_candidate(
    task_dir: Path,
    candidate: Path,
    *,
    startup_timeout_s: float = 90.0,
    test_timeout_s: float = 300.0,
    case_timeout_s: float = 30.0,
    cache_dir: Path | None = None,
) -> dict[str, Any]:
    """Evaluate one candidate repository against the output task in `task_dir`.

    Returns a JSON-able dict: `dsr`, `pass_at_1`, `test_pass_rate`, `api_coverage`, `tests`
    (per test: id, outcome) and diagnostics (`dsr_reason`, `routes_found`,
    `missing_endpoints`, `start_script`, ...). Raises EvaluateError for a bad task folder and
    PortBusyError when the task's port is taken.
    """
    task = load_task(Path(task_dir))
    candidate = Path(candidate).resolve()
    started = time.monotonic()
    result: dict[str, Any] = {"task": task.id, "candidate": str(candidate),
                              "language": task.language, "port": task.port, "dsr": False,
                              "dsr_reason": "", "start_script": None}
    result.update(static_coverage(task, candidate))
    run_tests = None
    if not candidate.is_dir():
        result["dsr_reason"] = f"candidate folder {candidate} not found"
    elif (script := find_start_script(candidate)) is None:
        result["dsr_reason"] = ("no start script: expected start.sh (or scripts/start.sh, "
                                "bin/start.sh) in the repository")
    else:
        result["start_script"] = script
        limits = Limits(startup_timeout_s, test_timeout_s, case_timeout_s, cache_dir)
        run_tests = _deploy_and_test(task, candidate, script, result, limits)
    tests = merge_outcomes(task.cases, run_tests)
    outcomes = [t["outcome"] for t in tests]
    result["pass_at_1"] = metrics.sample_pass(result["dsr"], outcomes)
    result["test_pass_rate"] = metrics.pass_rate(result["dsr"], outcomes)
    result["tests_passed"] = sum(o == metrics.PASSED for o in outcomes)
    result["tests_total"] = len(outcomes)
    result["tests"] = tests
    result["seconds"] = round(time.monotonic() - started, 2)
    return _ordered(result)


_FIRST = ("task", "candidate", "language", "dsr", "pass_at_1", "test_pass_rate", "api_coverage",
          "tests_passed", "tests_total", "dsr_reason", "start_script", "routes_found",
          "missing_endpoints")


def _ordered(result: dict[str, Any]) -> dict[str, Any]:
    """The headline keys first, the per-test list last (easier to read as JSON)."""
    head = {k: result[k] for k in _FIRST if k in result}
    rest = {k: v for k, v in result.items() if k not in head and k != "tests"}
    return {**head, **rest, "tests": result["tests"]}


def evaluate_samples(task_dir: Path, samples: Sequence[Path], **options: Any) -> dict[str, Any]:
    """Evaluate n samples (candidate repositories) of one task, one after another on the
    task's port; adds the unbiased Pass@k for k = 1..n (c = samples with Pass@1 = 1)."""
    if not samples:
        raise EvaluateError("no samples given: Pass@k needs at least one candidate folder")
    task = load_task(Path(task_dir))
    results = [evaluate_candidate(task_dir, s, **options) for s in samples]
    n, c = len(results), sum(r["pass_at_1"] for r in results)
    return {
        "task": task.id,
        "language": task.language,
        "n": n,
        "c": c,
        "pass_at_k": metrics.pass_at_ks(n, c),
        "means": metrics.metric_means(results),
        "samples": results,
    }
