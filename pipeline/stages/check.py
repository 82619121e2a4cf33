"""`check`: validate one raw task and say, one line per problem, what to fix.

Static checks run first; the oracle is started only when they leave something to run.
Each finding names the file and the fix, so a contributor can work down the list.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from pipeline.records import Endpoint, Spec
from pipeline.scaffold import TODO_MARK
from pipeline.suite_runs import nested_test_files, task_test_files
from pipeline.tasks import RawTask, TaskError, load_task


def _shown(path: Path) -> str:
    """Relative to the working folder when inside it: shorter lines, same meaning."""
    try:
        return str(path.resolve().relative_to(Path.cwd()))
    except ValueError:
        return str(path)


@dataclass(frozen=True)
class Finding:
    level: Literal["error", "warning"]
    path: Path | None
    message: str

    def line(self) -> str:
        shown = _shown(self.path) if self.path is not None else ""
        # Messages from lower layers often name the file already; do not say it twice.
        where = f"{shown}: " if shown and shown not in self.message and str(self.path) not in \
            self.message else ""
        return f"{self.level}: {where}{self.message}"


@dataclass
class CheckResult:
    task_dir: Path
    findings: list[Finding] = field(default_factory=list)
    endpoints: int = 0
    startup_s: float | None = None
    tests_passed: int | None = None
    tests_total: int | None = None
    alternatives: list[str] = field(default_factory=list)  # started and probed
    # documented endpoints static analysis did not find in the oracle: the running one decides
    unconfirmed: list[Endpoint] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not any(f.level == "error" for f in self.findings)

    def error(self, path: Path, message: str) -> None:
        self.findings.append(Finding("error", path, message))

    def warn(self, path: Path, message: str) -> None:
        self.findings.append(Finding("warning", path, message))

    def summary(self) -> str:
        if not self.ok:
            errors = sum(f.level == "error" for f in self.findings)
            return f"FAIL {self.task_dir}: {errors} error(s)"
        parts = [f"{self.endpoints} endpoints"]
        if self.startup_s is not None:
            parts.append(f"oracle answered in {self.startup_s:.1f}s")
        if self.tests_total is not None:
            parts.append(f"{self.tests_passed}/{self.tests_total} own tests pass")
        if self.alternatives:
            parts.append(f"{len(self.alternatives)} alternative(s) answered")
        warnings = sum(f.level == "warning" for f in self.findings)
        if warnings:
            parts.append(f"{warnings} warning(s)")
        return f"ok {self.task_dir}: " + ", ".join(parts)

    def to_json(self) -> dict[str, object]:
        return {
            "task": str(self.task_dir),
            "ok": self.ok,
            "endpoints": self.endpoints,
            "startup_s": self.startup_s,
            "tests_passed": self.tests_passed,
            "tests_total": self.tests_total,
            "alternatives": self.alternatives,
            "findings": [
                {"level": f.level, "path": str(f.path) if f.path else None,
                 "message": f.message}
                for f in self.findings
            ],
        }


def _todo_lines(path: Path) -> Iterator[int]:
    for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
        if TODO_MARK in line:
            yield number


def check_readme(task: RawTask, result: CheckResult) -> Spec | None:
    from pipeline.spec import extract_spec, find_code_leaks

    if not task.readme.is_file():
        result.error(task.readme, "missing; write the requirement document there")
        return None
    try:
        text = task.readme.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        result.error(task.readme, "not UTF-8 text; save it as UTF-8")
        return None
    for number in _todo_lines(task.readme):
        result.error(task.readme, f"line {number}: template placeholder left; replace it")
    spec = extract_spec(text)
    result.endpoints = len(spec.endpoints)
    if not spec.endpoints:
        result.error(
            task.readme,
            "no endpoints found; document each one as `METHOD /path` "
            "(for example a heading `### GET /items/{id}`)",
        )
    for leak in find_code_leaks(text):
        result.warn(task.readme, leak)
    check_port(task, text, result)
    return spec


def check_port(task: RawTask, text: str, result: CheckResult) -> None:
    """Warn when the README states a port other than task.toml's (which the oracle, the
    shipped conftest and `evaluate` use)."""
    from pipeline.stages.docport import stated_port

    port = stated_port(text)
    if port is not None and port != task.config.port:
        result.warn(task.readme, f"states port {port} but task.toml has port = "
                    f"{task.config.port}; make them agree")


def check_oracle_files(task: RawTask, result: CheckResult) -> bool:
    if not task.oracle_dir.is_dir():
        result.error(task.oracle_dir, "missing; put the golden implementation there")
        return False
    return check_start_script(task.oracle_dir, result)


def check_start_script(service_dir: Path, result: CheckResult) -> bool:
    """The `start.sh` contract of the oracle and of every alternative."""
    script = service_dir / "start.sh"
    errors = len([f for f in result.findings if f.level == "error"])
    if not script.is_file():
        result.error(script, "missing; write a script that starts the service on $PORT")
        return False
    if not os.access(script, os.X_OK):
        result.error(script, f"not executable; run `chmod +x {script}`")
        return False
    for number in _todo_lines(script):
        result.error(script, f"line {number}: template placeholder left; finish the script")
    return len([f for f in result.findings if f.level == "error"]) == errors


def check_routes(task: RawTask, spec: Spec, result: CheckResult,
                 service_dir: Path | None = None, *, will_run: bool = True) -> list[Endpoint]:
    """Static route check of the oracle (or of the alternative in `service_dir`); returns the
    endpoints only the running service can confirm.

    A documented endpoint static analysis does not find is not an error by itself: route
    tables come in more shapes than any reader knows (Falcon resources, Sanic blueprints,
    Django REST routers, a hand-written dispatcher). It is one when the running service,
    probed, does not route it either; without a run (`will_run` false) it is a warning and
    goes to `result.unconfirmed` for the build to probe.
    """
    from pipeline.routes import extract_routes, match_endpoints

    where = service_dir or task.oracle_dir
    role = "the oracle" if service_dir is None else f"the alternative {where.name!r}"
    routes = extract_routes(where)
    if not routes:
        result.warn(
            where,
            "no routes found by static analysis (supported: Flask, FastAPI, Django, Starlette, "
            "Spring, JAX-RS, Micronaut, Javalin, Spark, com.sun.net.httpserver); the endpoints "
            "are checked against the running service only",
        )
        return [e for e in spec.endpoints if not e.by_link]
    # a hypermedia document names no paths beyond its root: the rest are found by links
    match = match_endpoints([e for e in spec.endpoints if not e.by_link], routes)
    for endpoint in match.missing:
        if not will_run:
            result.warn(
                where,
                f"{endpoint.method} {endpoint.path} is documented in README.md but static "
                f"analysis does not find it in {role}; the running service is asked",
            )
    if service_dir is None:
        result.unconfirmed = list(match.missing)
    partial = [m.endpoint for m in match.matched if m.how == "prefix"]
    if service_dir is not None:  # an alternative's extra routes are its own business
        return partial + list(match.missing)
    for route in match.undocumented if spec.links is None else []:
        at = f" (line {route.line})" if route.line else ""
        result.warn(
            task.oracle_dir / route.file if route.file else task.oracle_dir,
            f"route {route.method} {route.path}{at} is not documented in README.md; document "
            "it or remove it",
        )
    return partial + list(match.missing)


def check_probes(task: RawTask, base_url: str, endpoints: list[Endpoint],
                 result: CheckResult, service_dir: Path | None = None) -> None:
    from pipeline.execution.probe import probe_endpoints

    where = service_dir or task.oracle_dir
    role = "oracle" if service_dir is None else f"alternative {where.name!r}"
    for probe in probe_endpoints(base_url, endpoints):
        ep = probe.endpoint
        if probe.verdict in ("not_routed", "method_not_allowed"):
            result.error(where, f"{ep.method} {ep.path} is documented in README.md "
                         f"but the running {role} does not route it ({probe.detail}, status "
                         f"{probe.status}); implement it or remove it from the README")
        elif probe.verdict == "unsure":
            result.warn(where, f"{ep.method} {ep.path}: could not confirm the {role} "
                        f"routes it ({probe.detail}); check it by hand")


def check_runtime(task: RawTask, result: CheckResult, startup_timeout_s: float,
                  cache_dir: Path | None, to_probe: list[Endpoint],
                  test_timeout_s: float | None = None) -> None:
    """Start the oracle, probe `to_probe`, and run the task's own tests (unless
    `test_timeout_s` is None: a route check only)."""
    from pipeline.execution import (
        EnvError,
        ServiceError,
        ensure_task_env,
        start_service,
    )

    try:
        env = ensure_task_env(task.oracle_dir, task.config.language, root=cache_dir)
    except EnvError as exc:
        result.error(task.requirements or task.oracle_dir, str(exc))
        return
    started = time.monotonic()
    try:
        with start_service(
            task.oracle_dir, task.config.port, env.bin if env else None,
            startup_timeout_s=startup_timeout_s,
        ) as service:
            result.startup_s = round(time.monotonic() - started, 2)
            if to_probe:
                check_probes(task, service.base_url, to_probe, result)
        if test_timeout_s is not None and task_test_files(task.tests_dir):
            check_tests(task, env.bin if env else None, startup_timeout_s, test_timeout_s,
                        result)
    except ServiceError as exc:
        result.error(task.start_script, str(exc))


def check_tests(task: RawTask, env_bin: Path | None, startup_timeout_s: float,
                test_timeout_s: float, result: CheckResult) -> None:
    """The task's own tests, each file alone against a fresh oracle in file order, as their
    authors ran them and as the build runs them (`suite_runs`); a failure is a warning."""
    from pipeline.execution import TestRun, free_port, run_pytest, start_service
    from pipeline.suite_runs import file_groups, merge_runs

    def one(group: tuple[str, ...]) -> TestRun:
        with start_service(task.oracle_dir, free_port(), env_bin,
                           startup_timeout_s=startup_timeout_s) as service:
            return run_pytest(task.tests_dir, service.base_url, test_timeout_s,
                              extra_args=group)

    run = merge_runs([one(group) for group in file_groups(task.tests_dir)])
    result.tests_total = len(run.tests)
    result.tests_passed = sum(o.outcome == "passed" for o in run.tests)
    if run.timed_out:
        result.warn(task.tests_dir, f"tests timed out after {test_timeout_s:g}s; "
                    "make them faster or raise test_timeout_s")
    for o in run.tests:
        if o.outcome in ("failed", "error"):
            first = (o.output.strip().splitlines() or [""])[-1][:200]
            result.warn(task.tests_dir, f"{o.nodeid}: {o.outcome} against the "
                        f"oracle ({first}); fix the test or the oracle")


def check_task(
    task_dir: Path,
    *,
    run_oracle: bool = True,
    run_tests: bool = True,
    startup_timeout_s: float = 90.0,
    test_timeout_s: float = 300.0,
    cache_dir: Path | None = None,
) -> CheckResult:
    result = CheckResult(task_dir=Path(task_dir))
    try:
        task = load_task(task_dir)
    except TaskError as exc:
        result.findings.append(Finding("error", None, str(exc)))
        return result
    spec = check_readme(task, result)
    for nested in nested_test_files(task.tests_dir):
        result.warn(nested, "not one of the task's tests (only tests/test_*.py are imported "
                    "and run); move it up to tests/ if it is one")
    files_ok = check_oracle_files(task, result)
    to_probe: list[Endpoint] = []
    if spec is not None and spec.endpoints and task.oracle_dir.is_dir():
        to_probe = check_routes(task, spec, result, will_run=run_oracle and files_ok)
    if run_oracle and files_ok:
        check_runtime(task, result, startup_timeout_s, cache_dir, to_probe,
                      test_timeout_s if run_tests else None)
    for alt_dir in task.alternative_dirs:
        if not check_start_script(alt_dir, result) or spec is None or not spec.endpoints:
            continue
        alt_probe = check_routes(task, spec, result, service_dir=alt_dir, will_run=run_oracle)
        if run_oracle:
            check_alternative_runtime(task, alt_dir, result, startup_timeout_s, cache_dir,
                                      alt_probe)
    return result


def check_alternative_runtime(task: RawTask, alt_dir: Path, result: CheckResult,
                              startup_timeout_s: float, cache_dir: Path | None,
                              to_probe: list[Endpoint]) -> None:
    """Start an alternative as the build will and probe what static analysis left open."""
    from pipeline.execution import (
        EnvError,
        ServiceError,
        ensure_task_env,
        free_port,
        start_service,
    )
    from pipeline.stages.alternatives import alternative_language

    try:
        env = ensure_task_env(alt_dir, alternative_language(alt_dir, task.config.language),
                              root=cache_dir)
        with start_service(alt_dir, free_port(), env.bin if env else None,
                           startup_timeout_s=startup_timeout_s) as service:
            result.alternatives.append(alt_dir.name)
            if to_probe:
                check_probes(task, service.base_url, to_probe, result, service_dir=alt_dir)
    except EnvError as exc:
        result.error(alt_dir, str(exc))
    except ServiceError as exc:
        result.error(alt_dir / "start.sh", str(exc))
